/**
 * Alert e-mail: the message built from a firing's payload, and the transport that sends it
 * (nodemailer over SMTP_URL). Without SMTP_URL there is no transport and mail goes to the outbox.
 */
import nodemailer from 'nodemailer';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** What delivery needs from a mail transport (nodemailer's Transporter fits; tests pass stubs). */
export interface MailTransport {
  sendMail(message: MailMessage): Promise<unknown>;
}

export const DEFAULT_MAIL_FROM = 'svc alerts <alerts@svc.invalid>';

/** An SMTP transport with timeouts short enough that a dead server cannot hold a run for minutes. */
export function smtpTransport(smtpUrl: string): MailTransport {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/** SMTP reply codes 5xx are permanent (bad mailbox, refused): retrying cannot help. */
export function isPermanentMailError(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Subject and plain-text body of the e-mail for one firing (payload = the webhook body). */
export function composeAlertMail(payload: Record<string, unknown>): { subject: string; body: string } {
  const message = text(payload.message);
  const subject = `[svc] ${text(payload.type)} alert: ${message}`;
  const details = Object.entries((payload.details as Record<string, unknown> | undefined) ?? {}).map(
    ([k, v]) => `  ${k}: ${text(v)}`,
  );
  const body = [
    message,
    '',
    `Alert ${text(payload.alert_id)} (${text(payload.type)}) on universe ${text(payload.universe_id)} fired at ${text(payload.fired_at)}.`,
    ...(details.length > 0 ? ['', 'Details:', ...details] : []),
    '',
    'You receive this e-mail because your plan includes alert e-mail. Alerts are also listed in the app.',
  ].join('\n');
  return { subject: subject.length > 200 ? `${subject.slice(0, 197)}...` : subject, body };
}
