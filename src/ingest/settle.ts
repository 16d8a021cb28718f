/**
 * The pipeline's transactional step: dedupe, charge and write, in one transaction, so the counts
 * the request answers are final in both modes.
 *
 * 1. The batch's event ids go into `event_ids` (per team, ever): ids already there are deduped.
 * 2. The new events are charged against the team's monthly quota.
 * 3. Their rows (with countries filled in) go where the sink says:
 *    - `events` (sync);
 *    - `outbox` (async, embedded): as one JSON row of `ingest_outbox`, which the writer moves;
 *    - `stream` (async, JetStream): published to the stream, whose acknowledgement is awaited
 *      before the commit. Each message's claim (migration 0040) is inserted first, in this
 *      transaction, so a message whose transaction then rolls back (a crash, a quota race) is
 *      dropped by the writer, and one whose transaction commits is stored by it exactly once. When
 *      the publish fails or times out, the rows go into `events` in this same transaction and the
 *      claims are deleted: nothing is lost (the event ids commit with their rows) and nothing is
 *      doubled (a message that reached the stream after all has no claim).
 *
 * Rows stored in `events` here are also queued for the analytics rollups (sdk_rollup_inbox, plain
 * inserts), after the charge: every transaction takes its locks in one order (event ids, usage,
 * player countries).
 *
 * Every batch of a team waits on the team's usage row from its charge to its commit. When the
 * whole batch fits in what is left (`whole`: read without a lock), everything else is written
 * first and the charge is sent with the COMMIT (Tx.commitWith), so the lock is held for no round
 * trip; should concurrent batches have taken the room meanwhile, the database refuses the charge,
 * the transaction is undone and the batch is settled again `exact`ly: the charge comes first and
 * grants what is left.
 */
import type { Db, Tx } from '../db/index.js';
import {
  type Candidate,
  newBatchId,
  playersNeedingCountry,
  playersWithoutCountry,
  quotaErrors,
  type RowContext,
  sessionCountries,
  toRows,
} from './batch.js';
import * as repo from './ingest.repo.js';
import { monthOf } from './partitions.js';
import type { IngestError } from './types.js';

/** Where the accepted rows go: `events` (sync), the outbox (async, embedded) or the stream
 * (async, JetStream). */
export type Sink = 'events' | 'outbox' | 'stream';

/** One message of a batch, ready to publish: its claim id, its events and its bytes. */
export interface Packed {
  claim: number;
  events: number;
  data: Uint8Array;
}

/** A request's body as received (after gzip), in the chunks it arrived in, and the ingest key it
 * names (`api_key`), which a message must never carry (jetstream.ts blanks it). */
export interface ReceivedBody {
  bytes: readonly Uint8Array[];
  secret: string;
}

/** A batch as its request received it, for a carrier that leaves building its rows to the writer:
 * the body, the accepted candidates (their indexes into the body's events), the players' cached
 * countries and the receipt context. */
export interface RawBatch {
  body: ReceivedBody;
  accepted: readonly Candidate[];
  countries: ReadonlyMap<string, string>;
  ctx: RowContext;
}

/** What carries a batch's rows for sink `stream` (jetstream.ts). */
export interface Carrier {
  /** The rows as messages (one, or several when one would be too large for the server); the
   * first message's claim is `firstClaim` when given. */
  pack(rows: readonly repo.EventRow[], firstClaim?: number): Packed[];
  /** The batch as one message whose rows the writer makes, or null when it would not fit. */
  packRaw(batch: RawBatch, claim: number): Packed | null;
  /** Resolves once the stream holds every message; rejects when it fails or takes too long. */
  send(packed: readonly Packed[]): Promise<void>;
}

export interface Settled {
  /** Events accepted. */
  accepted: number;
  /** Events the quota refused (code quota_exceeded). */
  errors: IngestError[];
  deduped: number;
  /** Where the rows went: `events` also when sink `stream` fell back to it. */
  stored: Sink;
  /** The outbox row holding `rows` (sink `outbox`, when any row was accepted). */
  outboxId?: number;
}

/** Nothing was accepted: the month's quota is used up (nothing is kept of the batch). */
export interface QuotaUsedUp {
  quotaUsedUp: true;
  quota: number;
}

export interface SettleInput {
  teamId: number;
  /** The monthly quota of the team's plan. */
  quota: number;
  candidates: readonly Candidate[];
  ctx: RowContext;
  sink: Sink;
  /** Sink `stream`: the publisher. */
  carrier?: Carrier | undefined;
  /** Sink `stream`: the request's body as received (after gzip), when the route kept it: the
   * batch is then published as it came (Carrier.packRaw) and the writer makes its rows. */
  body?: ReceivedBody | undefined;
}

/** Runs the step: `whole` first, `exact` when concurrent batches took the room. */
export async function settleBatch(db: Db, input: SettleInput): Promise<Settled | QuotaUsedUp> {
  const whole = await db
    .transaction((tx) => settle(tx, input, 'whole'))
    .then(
      (settled) => settled,
      (err: unknown) => (repo.isQuotaRace(err) ? null : Promise.reject(err)),
    );
  return whole ?? db.transaction((tx) => settle(tx, input, 'exact'));
}

async function settle(tx: Tx, input: SettleInput, how: 'whole' | 'exact'): Promise<Settled | QuotaUsedUp> {
  const { teamId, quota, candidates, ctx } = input;
  const ids = candidates.map((c) => c.event.event_id).sort();
  const month = monthOf(ctx.receivedAt);
  if (how === 'whole') {
    // One round trip for the ids, the usage and the countries (and the claim of the batch's first
    // message, sink stream): the players asked for are every one without a country of its own.
    const claim = input.sink === 'stream' && input.carrier ? newBatchId() : undefined;
    const opened = ids.length
      ? await repo.openBatch(tx, {
          teamId,
          eventIds: ids,
          receivedAt: ctx.receivedAt,
          month,
          players: playersWithoutCountry(candidates),
          claim,
        })
      : { fresh: new Set<string>(), used: 0, countries: new Map<string, string>() };
    const novel = candidates.filter((c) => opened.fresh.has(c.event.event_id));
    const deduped = candidates.length - novel.length;
    if (novel.length === 0) return { accepted: 0, errors: [], deduped, stored: input.sink };
    if (opened.used + novel.length <= quota) {
      const { rows, ...written } = await write(tx, input, novel, opened.countries, claim);
      const countries = repo.upsertPlayerCountriesStatement(teamId, sessionCountries(novel), ctx.receivedAt);
      const queued = written.stored === 'events' ? repo.rollupInboxStatement(repo.rollupKeys(rows!)) : null;
      // Refused (the transaction undone) when concurrent batches took the room: see settleBatch.
      await tx.commitWith([
        repo.chargeQuotaAllStatement(teamId, month, novel.length, quota),
        ...(countries ? [countries] : []),
        ...(queued ? [queued] : []),
      ]);
      return { accepted: novel.length, errors: [], deduped, ...written };
    }
    // Not all of it fits: the exact way, in this transaction (write inserts its own claims).
    if (claim !== undefined) await repo.deleteClaims(tx, [claim]);
    return settleExactly(tx, input, novel, deduped);
  }
  const fresh = ids.length ? await repo.insertEventIds(tx, teamId, ids, ctx.receivedAt) : new Set<string>();
  const novel = candidates.filter((c) => fresh.has(c.event.event_id));
  const deduped = candidates.length - novel.length;
  if (novel.length === 0) return { accepted: 0, errors: [], deduped, stored: input.sink };
  return settleExactly(tx, input, novel, deduped);
}

/** The charge first, granting what is left of the quota; then the accepted events' write. */
async function settleExactly(
  tx: Tx,
  input: SettleInput,
  novel: readonly Candidate[],
  deduped: number,
): Promise<Settled | QuotaUsedUp> {
  const { teamId, quota, ctx } = input;
  const month = monthOf(ctx.receivedAt);
  const granted = await repo.chargeQuota(tx, teamId, month, novel.length, quota);
  const accepted = novel.slice(0, granted);
  const refused = novel.slice(granted);
  // Refused events are forgotten, so a retry next month is not deduped.
  await repo.deleteEventIds(
    tx,
    teamId,
    refused.map((c) => c.event.event_id),
  );
  if (accepted.length === 0) return { quotaUsedUp: true, quota };
  // Read the cache before updating it: events ahead of the batch's session_start get the
  // player's previous country, those after it the new one (toRows walks the batch in order).
  const cached = await repo.playerCountries(tx, teamId, playersNeedingCountry(accepted));
  await repo.upsertPlayerCountries(tx, teamId, sessionCountries(accepted), ctx.receivedAt);
  const { rows, ...written } = await write(tx, input, accepted, cached);
  const queued = written.stored === 'events' ? repo.rollupInboxStatement(repo.rollupKeys(rows!)) : null;
  if (queued) await tx.query(queued.sql, queued.params);
  return {
    accepted: accepted.length,
    errors: quotaErrors(refused, quotaResetDate(ctx.receivedAt)),
    deduped,
    ...written,
  };
}

/** The accepted events into `events` (queued for the rollups by the caller: `rows` is returned),
 * into one outbox row (whose id is returned; the writer queues the batch when it moves it), or onto
 * the stream (into `events` when that fails). On the stream a batch goes as its request received
 * it when the route kept the body and it fits one message (the writer makes its rows), else as
 * rows. `claimed`: the claim openBatch inserted (for all the batch's new events). */
async function write(
  tx: Tx,
  input: SettleInput,
  accepted: readonly Candidate[],
  countries: Map<string, string>,
  claimed?: number,
): Promise<{ stored: Sink; rows?: repo.EventRow[]; outboxId?: number }> {
  const { ctx, carrier } = input;
  if (input.sink === 'outbox') {
    const rows = toRows(accepted, countries, ctx);
    return {
      stored: 'outbox',
      outboxId: await repo.insertOutbox(tx, JSON.stringify(rows), rows.length, ctx.receivedAt),
    };
  }
  if (input.sink === 'stream' && carrier) {
    const claim = claimed ?? newBatchId();
    const raw = input.body ? carrier.packRaw({ body: input.body, accepted, countries, ctx }, claim) : null;
    let packed: Packed[];
    if (raw) {
      packed = [raw];
      if (claimed === undefined)
        await repo.insertClaims(tx, [{ id: claim, events: raw.events }], ctx.receivedAt);
    } else {
      packed = carrier.pack(toRows(accepted, countries, ctx), claimed);
      // `claimed` was inserted with the batch's ids (openBatch) for all its rows: when the batch
      // was split, it is recorded again with its part's count, with the other parts' claims.
      if (claimed !== undefined && packed.length > 1) await repo.deleteClaims(tx, [claimed]);
      const unclaimed = claimed !== undefined && packed.length === 1 ? [] : packed;
      if (unclaimed.length > 0) {
        await repo.insertClaims(
          tx,
          unclaimed.map((p) => ({ id: p.claim, events: p.events })),
          ctx.receivedAt,
        );
      }
    }
    const sent = await carrier.send(packed).then(
      () => true,
      () => false,
    );
    if (sent) return { stored: 'stream' };
    await repo.deleteClaims(
      tx,
      packed.map((p) => p.claim),
    );
  }
  const rows = toRows(accepted, countries, ctx);
  await repo.insertEvents(tx, rows);
  return { stored: 'events', rows };
}

/** First day of the next UTC month (YYYY-MM-01): when the monthly quota resets. */
export function quotaResetDate(now: Date): string {
  return monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
}
