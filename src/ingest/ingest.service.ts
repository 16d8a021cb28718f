/**
 * The ingest pipeline: key → rate limit → validate → dedupe (durable, per team) → quota → write
 * (sync) or queue (async). Dedupe and the quota are settled in the request's transaction, so the
 * counts answered are final in both modes; the queue only defers the insert into `events`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { INGEST_SCOPES } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Db, Tx } from '../db/index.js';
import { AppError, errors } from '../errors.js';
import type { Authenticator, KeyPrincipal } from '../identity.js';
import { type Kv, limitKeyLookups, type RateDecision } from '../kv/index.js';
import type { Entitlements } from '../plans.js';
import {
  type Candidate,
  playersNeedingCountry,
  prepare,
  quotaErrors,
  type RowContext,
  sessionCountries,
  toRows,
} from './batch.js';
import * as repo from './ingest.repo.js';
import type { IngestResponseBody } from './ingest.schemas.js';
import { monthOf, type Partitions } from './partitions.js';
import type { IngestQueue, QueuedBatch } from './queue.js';
import type { IngestError } from './types.js';
import { validateBatch } from './validate.js';
import { storeBatches } from './writer.js';

export type IngestMode = 'sync' | 'async';
/** The authenticated key of an ingest request. */
export type IngestKey = Omit<KeyPrincipal, 'kind'>;

export interface IngestServiceDeps {
  db: Db;
  clock: Clock;
  kv: Kv;
  entitlements: Entitlements;
  authenticator: Pick<Authenticator, 'apiKey'>;
  queue: IngestQueue;
  partitions: Partitions;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

/** What the ingest endpoint answers: accepted, rejected, deduped and one error per rejected event. */
export type IngestCounts = IngestResponseBody;

export interface IngestOutcome {
  mode: IngestMode;
  counts: IngestCounts;
}

export const QUOTA_RETRY_AFTER_SEC = 15;

/** First day of the next UTC month: when the monthly quota resets. */
export function quotaResetDate(now: Date): string {
  return monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
}

function quotaExceeded(quota: number, now: Date): AppError {
  return new AppError(
    503,
    'quota_exceeded',
    `The team's monthly quota of ${quota} SDK events is used up; it resets on ${quotaResetDate(now)} (UTC).`,
    { headers: { 'Retry-After': String(QUOTA_RETRY_AFTER_SEC) } },
  );
}

interface Settled {
  rows: repo.EventRow[];
  errors: IngestError[];
  deduped: number;
  /** Async mode: the accepted rows as outbox batches (one, unless too big for one message). */
  batches?: QueuedBatch[];
}

/** The largest batch JSON sent as one queue message (NATS refuses payloads over 1 MiB by default;
 * a full 1 MB request with its row metadata can pass that). */
export const MAX_MESSAGE_BYTES = 900 * 1024;

/** The rows as outbox parts: their JSON, split in halves until each part fits in a message. */
export function outboxParts(rows: readonly repo.EventRow[]): { rows: repo.EventRow[]; json: string }[] {
  const json = JSON.stringify(rows);
  if (rows.length <= 1 || Buffer.byteLength(json) <= MAX_MESSAGE_BYTES) return [{ rows: [...rows], json }];
  const half = Math.ceil(rows.length / 2);
  return [...outboxParts(rows.slice(0, half)), ...outboxParts(rows.slice(half))];
}

export class IngestService {
  /** 'async' queues accepted events for the writer; 'sync' writes them in the request. */
  mode: IngestMode = 'async';

  constructor(private readonly deps: IngestServiceDeps) {}

  /** The key behind `secret`, if it may ingest (401 api_key_invalid, 403 insufficient_scope; 429
   * without a lookup while `ip` has too many failed lookups). */
  async authenticate(secret: string, ip: string): Promise<IngestKey> {
    const limit = {
      kv: this.deps.kv,
      perMin: this.deps.entitlements.apiKeyFailuresPerMin,
      nowMs: this.deps.clock.now().getTime(),
    };
    const key = await limitKeyLookups(limit, ip, () => this.deps.authenticator.apiKey(secret));
    if (!key.scopes.some((s) => (INGEST_SCOPES as readonly string[]).includes(s))) {
      throw errors.insufficientScope('This API key has no ingest scope (sdk:ingest or ingest:telemetry).');
    }
    return key;
  }

  /** One request against the key's token bucket (burst ingestBurst, refill ingestPerSecond). */
  rateLimit(key: IngestKey): Promise<RateDecision> {
    const e = this.deps.entitlements;
    return this.deps.kv.rateLimit(
      `rl:ingest:${key.keyId}`,
      { burst: e.ingestBurst, emissionMs: 1000 / e.ingestPerSecond },
      this.deps.clock.now().getTime(),
    );
  }

  async ingest(
    key: IngestKey,
    events: readonly unknown[],
    sdkVersion: string | null,
  ): Promise<IngestOutcome> {
    const receivedAt = this.deps.clock.now();
    const prepared = prepare(validateBatch(events), receivedAt);
    // Next month's partition too, so it exists before the month turns (no DDL at midnight).
    const nextMonth = `${quotaResetDate(receivedAt)}T00:00:00Z`;
    await this.deps.partitions.ensure(this.deps.db, [
      nextMonth,
      ...prepared.candidates.map((c) => c.ts.toISOString()),
    ]);
    const queued = this.mode === 'async' && this.queueHasRoom();
    const ctx = { teamId: key.teamId, keyId: key.keyId, sdkVersion, receivedAt };
    // Sync: the rows go into `events`; async: into the outbox, for the writer.
    const write = async (tx: Tx, rows: repo.EventRow[]): Promise<QueuedBatch[] | undefined> => {
      if (!queued) {
        await repo.insertEvents(tx, rows);
        return undefined;
      }
      if (rows.length === 0) return undefined;
      const parts = outboxParts(rows);
      const ids = await repo.insertOutbox(
        tx,
        parts.map((p) => p.json),
        receivedAt,
      );
      return parts.map((p, i) => ({ rows: p.rows, outboxId: ids[i]!, encodedRows: p.json }));
    };
    const settle = (optimistic: boolean) =>
      this.deps.db.transaction((tx) => this.settle(tx, key, prepared.candidates, ctx, write, optimistic));
    let settled: Settled;
    try {
      settled = await settle(true);
    } catch (err) {
      // Concurrent batches took the room the batch was counting on: settle it again, exactly.
      if (!(err instanceof QuotaRace)) throw err;
      settled = await settle(false);
    }
    const mode = queued ? await this.enqueue(settled.batches ?? []) : 'sync';
    const all = [...prepared.errors, ...settled.errors].sort((a, b) => a.index - b.index);
    const counts = {
      accepted: settled.rows.length,
      rejected: new Set(all.map((e) => e.index)).size,
      deduped: settled.deduped + prepared.dupInBatch,
      errors: all,
    };
    this.deps.log?.info(
      { team: key.teamId, key: key.keyId, mode, ...counts, errors: all.length },
      'sdk events ingested',
    );
    return { mode, counts };
  }

  recent(teamId: number, limit: number): Promise<repo.RecentEventRow[]> {
    return repo.recentEvents(this.deps.db, teamId, limit);
  }

  private queueHasRoom(): boolean {
    const q = this.deps.queue;
    return q.healthy() && q.depth() < q.highWaterMark;
  }

  /** Publishes the committed batches; if the queue refuses one, stores what is still in the outbox
   * now (still exactly once: a batch is stored only by whoever deletes its outbox row). Should
   * this process die first, the outbox rows are still there for the relay. */
  private async enqueue(batches: QueuedBatch[]): Promise<IngestMode> {
    try {
      for (const batch of batches) await this.deps.queue.publish(batch);
      return 'async';
    } catch {
      this.deps.log?.warn(
        { batches: batches.length },
        'ingest queue refused a batch; writing it synchronously',
      );
      await storeBatches(this.deps, batches);
      return 'sync';
    }
  }

  /**
   * Dedupe, quota, countries and the write inside the request transaction. The team's usage row
   * is locked from its update to the commit, so every other batch of the team waits for it: when
   * the whole batch fits in what is left (`optimistic`, read without a lock), everything is
   * written first, and the player countries and the quota charge (all or nothing: QuotaRace when
   * concurrent batches took the room meanwhile) are sent with the COMMIT in one go, so those
   * locks are held for no round trip. Otherwise the quota is charged first and decides which
   * events are accepted. Both take their locks in one order: event ids, usage, player countries.
   */
  private async settle(
    tx: Tx,
    key: IngestKey,
    candidates: Candidate[],
    ctx: RowContext,
    write: (tx: Tx, rows: repo.EventRow[]) => Promise<QueuedBatch[] | undefined>,
    optimistic: boolean,
  ): Promise<Settled> {
    const ids = candidates.map((c) => c.event.event_id).sort();
    const fresh = ids.length
      ? await repo.insertEventIds(tx, key.teamId, ids, ctx.receivedAt)
      : new Set<string>();
    const novel = candidates.filter((c) => fresh.has(c.event.event_id));
    const deduped = candidates.length - novel.length;
    if (novel.length === 0) return { rows: [], errors: [], deduped };
    const quota = this.deps.entitlements.plans[key.plan].monthlySdkEvents;
    const month = monthOf(ctx.receivedAt);
    if (optimistic && (await repo.monthUsage(tx, key.teamId, month)) + novel.length <= quota) {
      const cached = await repo.playerCountries(tx, key.teamId, playersNeedingCountry(novel));
      const rows = toRows(novel, cached, ctx);
      const batches = await write(tx, rows);
      const countries = repo.upsertPlayerCountriesStatement(
        key.teamId,
        sessionCountries(novel),
        ctx.receivedAt,
      );
      try {
        await tx.commitWith([
          repo.chargeQuotaAllStatement(key.teamId, month, novel.length, quota),
          ...(countries ? [countries] : []),
        ]);
      } catch (err) {
        if ((err as { code?: unknown }).code === repo.QUOTA_RACE_SQLSTATE) throw new QuotaRace();
        throw err;
      }
      return { rows, errors: [], deduped, ...(batches ? { batches } : {}) };
    }
    const granted = await repo.chargeQuota(tx, key.teamId, month, novel.length, quota);
    if (granted === 0) throw quotaExceeded(quota, ctx.receivedAt);
    const accepted = novel.slice(0, granted);
    const refused = novel.slice(granted);
    await repo.deleteEventIds(
      tx,
      key.teamId,
      refused.map((c) => c.event.event_id),
    );
    // Read the cache before updating it: events ahead of the batch's session_start get the
    // player's previous country, those after it the new one (toRows walks the batch in order).
    const cached = await repo.playerCountries(tx, key.teamId, playersNeedingCountry(accepted));
    await repo.upsertPlayerCountries(tx, key.teamId, sessionCountries(accepted), ctx.receivedAt);
    const rows = toRows(accepted, cached, ctx);
    const batches = await write(tx, rows);
    return {
      rows,
      errors: quotaErrors(refused, quotaResetDate(ctx.receivedAt)),
      deduped,
      ...(batches ? { batches } : {}),
    };
  }
}

/** The optimistic charge found the quota taken by concurrent batches (the transaction is undone). */
class QuotaRace extends Error {
  constructor() {
    super('the quota left was taken by concurrent batches');
    this.name = 'QuotaRace';
  }
}
