/**
 * `svc events tail --team <id> [--limit N]`: a team's most recently received SDK events, newest
 * first, one line each: received time, event time, type, platform, game id, event id, the first
 * 6 characters of the (hashed) player id, country. Payloads are not printed.
 */
import { parseArgs } from 'node:util';
import type { Db } from '../db/index.js';
import { CliUsageError } from '../errors.js';
import { recentEvents } from './ingest.repo.js';
import { tailLine } from './recent.js';

export const EVENTS_USAGE = 'svc events tail --team <id> [--limit N]';

export interface EventsCliDeps {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Opens (and migrates) the configured database; called only once the arguments are valid. */
  open: () => Promise<Db>;
}

function parseEventsArgs(args: string[]): { team: number; limit: number } {
  const { values, positionals } = parseArgs({
    args,
    options: { team: { type: 'string' }, limit: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1 || positionals[0] !== 'tail') throw new CliUsageError('expected "tail"');
  const team = Number(values.team);
  if (values.team === undefined || !Number.isSafeInteger(team) || team < 1) {
    throw new CliUsageError('--team must be a team id (a positive whole number)');
  }
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new CliUsageError('--limit must be a whole number from 1 to 100');
  }
  return { team, limit };
}

/** The whole command: a bad argument throws CliUsageError (exit 2) before the database is opened. */
export async function eventsCommand(args: string[], deps: EventsCliDeps): Promise<number> {
  const parsed = parseEventsArgs(args);
  const db = await deps.open();
  try {
    const rows = await recentEvents(db, parsed.team, parsed.limit);
    if (rows.length === 0) deps.out(`no events for team ${parsed.team}`);
    for (const row of rows) deps.out(tailLine(row));
    return 0;
  } finally {
    await db.close();
  }
}
