/**
 * Account e-mails (verify the address, reset the password). They take the alert e-mails' mail
 * path: with SMTP_URL they are sent over SMTP and a copy lands in the outbox table with sent_at;
 * without it the outbox row is the mail (`svc outbox` reads it). The outbox row is written in the
 * caller's transaction by a statement that runs whether or not the account exists, and SMTP sends
 * run after the answer, so neither the answer nor its timing tells whether an address has an account.
 * Never logged: addresses, tokens, links, bodies.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db, Queryable } from '../db/index.js';
import type { MailTransport } from '../tracking/delivery/index.js';
import * as repo from './accounts.repo.js';

export const ACCOUNT_MAIL_FROM = 'svc <accounts@svc.invalid>';

export interface AccountMail {
  subject: string;
  body: string;
}

export function verifyMail(publicUrl: string, token: string): AccountMail {
  const link = `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return {
    subject: '[svc] Confirm your e-mail address',
    body: [
      'Confirm the e-mail address of your svc account by opening this link:',
      '',
      link,
      '',
      'The link works once, for 24 hours. Until the address is confirmed, alert e-mails are not sent to it.',
      'If you did not create an svc account, ignore this e-mail.',
    ].join('\n'),
  };
}

export function resetMail(publicUrl: string, token: string): AccountMail {
  const link = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    subject: '[svc] Reset your password',
    body: [
      'Someone asked to reset the password of the svc account with this e-mail address.',
      'To choose a new password, open this link:',
      '',
      link,
      '',
      'The link works once, for 1 hour. Setting a new password signs you out everywhere.',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  };
}

export interface AccountMailerDeps {
  db: Db;
  clock: Clock;
  /** Overrides nothing when absent: mail goes to the outbox table only. */
  transport?: MailTransport | undefined;
  from?: string;
  log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
}

export class AccountMailer {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: AccountMailerDeps) {}

  /**
   * Queues `mail` for the account with `email` inside `tx` (nothing when there is none). Returns a
   * function to call after the transaction commits: it starts the SMTP send (when configured) for
   * an account that exists, without waiting for it.
   */
  async queue(tx: Queryable, email: string, mail: AccountMail, exists: boolean): Promise<() => void> {
    const { transport } = this.deps;
    if (!transport) {
      await repo.insertAccountMail(tx, { email, ...mail, createdAt: this.deps.clock.now(), sentAt: null });
      return () => {};
    }
    return () => {
      if (!exists) return;
      const sending = this.send(transport, email, mail).finally(() => this.pending.delete(sending));
      this.pending.add(sending);
    };
  }

  /**
   * Queues `mail` to an address that need not have an account yet (a team invitation), inside
   * `tx`; the function returned starts the SMTP send after the commit, as queue()'s does.
   */
  async queueToAddress(tx: Queryable, email: string, mail: AccountMail): Promise<() => void> {
    const { transport } = this.deps;
    if (!transport) {
      await repo.insertOutboxMail(tx, { email, ...mail, createdAt: this.deps.clock.now(), sentAt: null });
      return () => {};
    }
    return () => {
      const sending = this.send(transport, email, mail, true).finally(() => this.pending.delete(sending));
      this.pending.add(sending);
    };
  }

  private async send(
    transport: MailTransport,
    email: string,
    mail: AccountMail,
    anyAddress = false,
  ): Promise<void> {
    try {
      await transport.sendMail({
        from: this.deps.from ?? ACCOUNT_MAIL_FROM,
        to: email,
        subject: mail.subject,
        text: mail.body,
      });
      const sentAt = this.deps.clock.now();
      const copy = { email, ...mail, createdAt: sentAt, sentAt };
      await (anyAddress
        ? repo.insertOutboxMail(this.deps.db, copy)
        : repo.insertAccountMail(this.deps.db, copy));
    } catch (err) {
      // Only the reply code: SMTP server messages often quote the recipient's address.
      const code = (err as { responseCode?: unknown }).responseCode;
      this.deps.log?.warn(
        { smtp_code: typeof code === 'number' ? code : null, subject: mail.subject },
        'account e-mail not sent',
      );
    }
  }

  /** Resolves when every SMTP send started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
