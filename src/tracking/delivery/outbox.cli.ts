/**
 * `svc outbox [--limit N]`: the alert and account (verification, reset) e-mails in the outbox,
 * newest first. In embedded mode (no SMTP_URL) this is how they are read; with SMTP it shows what
 * the server accepted.
 */
import { parseArgs } from 'node:util';
import type { Db } from '../../db/index.js';
import { CliUsageError } from '../../errors.js';
import { listOutbox, type OutboxRow } from './delivery.repo.js';

export const OUTBOX_USAGE = 'svc outbox [--limit N]';

/** The --limit asked for (checked before anything is opened). */
export function parseOutboxArgs(args: string[]): number {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' } }, strict: true });
  if (values.limit === undefined) return 20;
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new CliUsageError('--limit must be a whole number from 1 to 1000');
  }
  return limit;
}

export interface OutboxCliDeps {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Opens (and migrates) the configured database; called only once the arguments are valid. */
  open: () => Promise<Db>;
}

/** The whole command: a bad argument throws CliUsageError (exit 2) before the database is opened. */
export async function outboxCommand(args: string[], deps: OutboxCliDeps): Promise<number> {
  const limit = parseOutboxArgs(args);
  const db = await deps.open();
  try {
    printOutbox(await listOutbox(db, limit), deps.out);
    return 0;
  } finally {
    await db.close();
  }
}

function printOutbox(mails: OutboxRow[], out: (line: string) => void): void {
  if (mails.length === 0) {
    out('the outbox is empty');
    return;
  }
  for (const [i, m] of mails.entries()) {
    if (i > 0) out('');
    out(`To:      ${m.to_address}`);
    out(`Subject: ${m.subject}`);
    out(`Date:    ${m.created_at.toISOString()}`);
    out(
      `Sent:    ${m.sent_at ? `via SMTP at ${m.sent_at.toISOString()}` : 'no (outbox only: SMTP_URL is not set)'}`,
    );
    out('');
    for (const line of m.body.split('\n')) out(`  ${line}`);
  }
}
