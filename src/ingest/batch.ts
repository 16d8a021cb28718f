/**
 * Pure steps of the pipeline (no I/O): the receipt-time checks that validation cannot make
 * (ts window), dedupe inside the batch, country fill-in and the stored rows.
 */
import { randomInt } from 'node:crypto';
import type { EventRow } from './ingest.repo.js';
import { type AgeLimit, ageLimit, tsInWindow } from './partitions.js';
import type { IngestError, ValidatedBatch, ValidEvent } from './types.js';

export interface Candidate {
  index: number;
  event: ValidEvent;
  /** `ts`, or the receipt time when the event omitted it. */
  ts: Date;
}

export interface Prepared {
  candidates: Candidate[];
  errors: IngestError[];
  /** Repeats of an event_id earlier in the same batch. */
  dupInBatch: number;
}

export function prepare(
  batch: ValidatedBatch,
  receivedAt: Date,
  maxAge: AgeLimit = ageLimit(undefined),
): Prepared {
  const errors = [...batch.errors];
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  let dupInBatch = 0;
  for (const { index, event } of batch.valid) {
    const ts = event.ts ?? receivedAt;
    if (!tsInWindow(ts, receivedAt, maxAge.ms)) {
      errors.push({
        index,
        event_id: event.event_id,
        field: 'ts',
        code: 'out_of_range',
        message: `ts must be within ${maxAge.words} and at most 1 day ahead of the time of receipt`,
      });
      continue;
    }
    if (seen.has(event.event_id)) {
      dupInBatch += 1;
      continue;
    }
    seen.add(event.event_id);
    candidates.push({ index, event, ts });
  }
  return { candidates, errors, dupInBatch };
}

export function quotaErrors(refused: readonly Candidate[], resetDate: string): IngestError[] {
  return refused.map((c) => ({
    index: c.index,
    event_id: c.event.event_id,
    field: '',
    code: 'quota_exceeded',
    message: `The team's monthly event quota is used up; it resets on ${resetDate} (UTC).`,
  }));
}

function payloadCountry(event: ValidEvent): string | null {
  const c = event.payload.country;
  return typeof c === 'string' && c !== '' ? c : null;
}

/** Players whose country must come from the cache: some event lacks one and no session_start
 * of the batch gives it first. */
/** Every player with an event that carries no country of its own (a superset of
 * playersNeedingCountry's, known before dedupe decides which events are new). */
export function playersWithoutCountry(candidates: readonly Candidate[]): string[] {
  const players = new Set<string>();
  for (const { event } of candidates) if (!payloadCountry(event)) players.add(event.player_id);
  return [...players];
}

export function playersNeedingCountry(accepted: readonly Candidate[]): string[] {
  const known = new Set<string>();
  const needed = new Set<string>();
  for (const { event } of accepted) {
    if (event.type === 'session_start' && payloadCountry(event)) known.add(event.player_id);
    else if (!payloadCountry(event) && !known.has(event.player_id)) needed.add(event.player_id);
  }
  return [...needed];
}

/** Latest session_start country per player in the batch (what the cache should remember). */
export function sessionCountries(accepted: readonly Candidate[]): { player_id: string; country: string }[] {
  const latest = new Map<string, string>();
  for (const { event } of accepted) {
    const country = payloadCountry(event);
    if (event.type === 'session_start' && country) latest.set(event.player_id, country);
  }
  return [...latest].map(([player_id, country]) => ({ player_id, country }));
}

export interface RowContext {
  teamId: number;
  keyId: number;
  sdkVersion: string | null;
  receivedAt: Date;
}

/** A stored batch's id (events.batch): random, from 1 to 2^48. The rollup job finds a batch's rows by
 * team, receipt time (indexed) and this id, so two batches are confused only when they are the same
 * team's, received in the same millisecond, and draw the same id: a chance of one in 2^48 for such
 * a pair. A sequence would cost each batch a round trip to the database. */
export function newBatchId(): number {
  return randomInt(1, 2 ** 48);
}

/** Stored rows in batch order; an event without a country takes the player's latest known one.
 * `batch`: the stored batch's id (a new one unless given). */
export function toRows(
  accepted: readonly Candidate[],
  cached: Map<string, string>,
  ctx: RowContext,
  batch: number = newBatchId(),
): EventRow[] {
  const countries = new Map(cached);
  const receivedAt = ctx.receivedAt.toISOString();
  return accepted.map(({ event, ts }) => {
    const own = payloadCountry(event);
    if (own && event.type === 'session_start') countries.set(event.player_id, own);
    return {
      team_id: ctx.teamId,
      key_id: ctx.keyId,
      sdk_version: ctx.sdkVersion,
      received_at: receivedAt,
      event_id: event.event_id,
      ts: ts.toISOString(),
      platform: event.platform,
      game_id: event.game_id,
      player_id: event.player_id,
      session_id: event.session_id,
      type: event.type,
      payload: event.payload,
      country: own ?? countries.get(event.player_id) ?? null,
      batch,
    };
  });
}
