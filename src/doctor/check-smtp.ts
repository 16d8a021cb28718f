/**
 * SMTP (SMTP_URL): nodemailer's verify(), the library alert and account mail already use. It
 * connects, reads the greeting, says EHLO, upgrades to TLS when offered and logs in when the URL
 * carries credentials, then quits: no mail is sent.
 */
import nodemailer from 'nodemailer';
import type { Check, CheckContext, Finding } from './doctor.js';
import { maskUrl } from './mask.js';

async function check(ctx: CheckContext, url: string): Promise<Finding> {
  const at = maskUrl(url);
  ctx.about(at);
  ctx.step('connecting, EHLO');
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: ctx.limitMs,
    greetingTimeout: ctx.limitMs,
    socketTimeout: ctx.limitMs,
  });
  ctx.defer(() => transport.close());
  await transport.verify();
  const parsed = new URL(url);
  const login = parsed.username !== '' ? ' and the login' : '';
  return { status: 'ok', detail: `${at}: the server accepted EHLO${login} (no mail sent)` };
}

export const smtpCheck: Check = {
  name: 'smtp',
  async run(ctx) {
    const url = ctx.config.smtpUrl;
    if (!url) {
      return { status: 'skip', detail: 'SMTP_URL is not set (mail goes to the outbox table: svc outbox)' };
    }
    return check(ctx, url);
  },
};
