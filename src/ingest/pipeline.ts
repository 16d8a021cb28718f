/**
 * The ingest pipeline of POST /api/sdk/events, as a list of named steps. Each step returns a value:
 * go on with its output, or stop with a typed reason (`rejected`: the request is wrong as sent;
 * `retry_later`: it may succeed after a wait). runIngest runs them in order and returns one
 * IngestResult, which the route maps to HTTP; nothing here throws to steer the flow (a thrown
 * error is a real failure, such as the database being unreachable: 503 from the error handler).
 *
 *   1. authenticate      the body's api_key → the key (missing/unknown 401, no ingest scope 403;
 *                        retry later while the IP has too many failed lookups)
 *   2. rate limit        the key's token bucket (retry later)
 *   3. decode            the events array: at most 500 (413), the body's schema (422)
 *   4. validate          each event on its own: an invalid one becomes an error item, not a stop
 *   5. prepare           the ts window (no older than the raw-event retention), repeats inside
 *                        the batch, the months' `events` partitions
 *   6. dedupe and charge event ids (per team, ever), the monthly quota (retry later when nothing
 *                        is left), player countries, and the write, in one transaction
 *                        (settle.ts): into `events` (sync); async on JetStream, onto the stream
 *                        before the commit (into `events` when the stream fails: the answer says
 *                        sync); async embedded, into the outbox
 *   7. enqueue           async embedded: count the committed outbox batch; when the queue refuses
 *                        it, store it now instead (the answer says sync)
 */
import type { FastifyBaseLogger } from 'fastify';
import { INGEST_SCOPES } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import type { Authenticator, KeyPrincipal } from '../identity.js';
import { type Kv, lookUpKey, type RateDecision } from '../kv/index.js';
import type { Entitlements } from '../plans.js';
import { type Prepared, prepare } from './batch.js';
import { type IngestResponseBody, MAX_BATCH } from './ingest.schemas.js';
import { ageLimit, type Partitions } from './partitions.js';
import type { IngestQueue } from './queue.js';
import { quotaResetDate, type ReceivedBody, type Settled, type Sink, settleBatch } from './settle.js';
import { validateBatch } from './validate.js';
import { storeOutbox } from './writer.js';

export type IngestMode = 'sync' | 'async';
/** The authenticated key of an ingest request. */
export type IngestKey = Omit<KeyPrincipal, 'kind'>;
/** What the endpoint answers: accepted, rejected, deduped and one error per rejected event. */
export type IngestCounts = IngestResponseBody;

/** One request, as the route hands it over. */
export interface IngestRequest {
  /** The parsed JSON body (not yet checked against its schema). */
  body: unknown;
  /** The body schema's verdict (Fastify's validation error), if it failed. */
  schemaError: Error | undefined;
  ip: string;
  /** The X-Svc-SDK-Version header, trimmed. */
  sdkVersion: string | null;
  /** The body's bytes as parsed (after gzip), in the chunks they arrived in, when the route kept
   * them: JetStream then carries the batch as it came (settle.ts). Called only for a batch going
   * onto the stream. */
  rawBody?: (() => readonly Uint8Array[] | undefined) | undefined;
}

/** Why a request is refused as sent. */
export type Rejection =
  | { code: 'api_key_missing' }
  | { code: 'api_key_invalid' }
  | { code: 'insufficient_scope' }
  | { code: 'batch_too_large'; max: number }
  | { code: 'validation_failed'; error: Error };

/** Why a request is refused for now: it may succeed after `afterSec`. */
export type RetryLater =
  | { code: 'key_lookups_blocked'; afterSec: number }
  | { code: 'rate_limited'; afterSec: number }
  | { code: 'quota_exceeded'; afterSec: number; quota: number; resetsOn: string };

export type Stop = (
  | { outcome: 'rejected'; reason: Rejection }
  | { outcome: 'retry_later'; reason: RetryLater }
) & {
  /** The key's bucket after this request (from step 2 on): the route sends RateLimit headers. */
  rate?: RateDecision;
};

export type IngestResult =
  | { outcome: 'stored'; mode: IngestMode; counts: IngestCounts; rate: RateDecision }
  | Stop;

/** A step's value: its output, or where the pipeline stops. */
export type Step<T> = { ok: true; value: T } | { ok: false; stop: Stop };

const go = <T>(value: T): Step<T> => ({ ok: true, value });
const reject = (reason: Rejection): Step<never> => ({ ok: false, stop: { outcome: 'rejected', reason } });
const later = (reason: RetryLater): Step<never> => ({ ok: false, stop: { outcome: 'retry_later', reason } });

/** Seconds a client waits when the team's monthly quota is used up. */
export const QUOTA_RETRY_AFTER_SEC = 15;

export interface PipelineDeps {
  db: Db;
  clock: Clock;
  kv: Kv;
  entitlements: Entitlements;
  authenticator: Pick<Authenticator, 'apiKey'>;
  queue: IngestQueue;
  partitions: Partitions;
  /** SDK_EVENT_RETENTION_DAYS: older events are refused (the accepted window is this, capped at
   * 2 years; undefined: 2 years). */
  eventRetentionDays?: number | undefined;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'> | undefined;
}

/** Runs the steps in order (the list in the header). */
export async function runIngest(
  deps: PipelineDeps,
  mode: IngestMode,
  request: IngestRequest,
): Promise<IngestResult> {
  const receivedAt = deps.clock.now();
  const key = await authenticate(deps, request);
  if (!key.ok) return key.stop;
  const rate = await rateLimit(deps, key.value);
  if (!rate.ok) return rate.stop;
  const withRate = (stop: Stop): Stop => ({ ...stop, rate: rate.value });
  const events = decode(request);
  if (!events.ok) return withRate(events.stop);
  const prepared = await prepareBatch(deps, validateBatch(events.value), receivedAt);
  const queue = deps.queue;
  const sink: Sink =
    mode === 'async' && queueHasRoom(queue) ? (queue.kind === 'jetstream' ? 'stream' : 'outbox') : 'events';
  const ctx = {
    teamId: key.value.teamId,
    keyId: key.value.keyId,
    sdkVersion: request.sdkVersion,
    receivedAt,
  };
  // The body as it came, for the stream to carry; authenticate found the key's secret a string.
  const bytes = sink === 'stream' ? request.rawBody?.() : undefined;
  const received = bytes ? { bytes, secret: bodyField(request.body, 'api_key') as string } : undefined;
  const settled = await dedupeAndCharge(deps, key.value, prepared, ctx, sink, received);
  if (!settled.ok) return withRate(settled.stop);
  const stored = settled.value.stored;
  const written: IngestMode =
    stored === 'outbox' ? await enqueue(deps, settled.value) : stored === 'stream' ? 'async' : 'sync';
  const counts = countsOf(prepared, settled.value);
  deps.log?.info(
    { team: key.value.teamId, key: key.value.keyId, mode: written, ...counts, errors: counts.errors.length },
    'sdk events ingested',
  );
  return { outcome: 'stored', mode: written, counts, rate: rate.value };
}

// 1. ----------------------------------------------------------------------------------------------

/** The key behind the body's `api_key`, if it may ingest (the Authorization header is not read). */
export async function authenticate(
  deps: Pick<PipelineDeps, 'kv' | 'entitlements' | 'clock' | 'authenticator'>,
  request: Pick<IngestRequest, 'body' | 'ip'>,
): Promise<Step<IngestKey>> {
  const secret = bodyField(request.body, 'api_key');
  if (secret === undefined || secret === null || secret === '') return reject({ code: 'api_key_missing' });
  if (typeof secret !== 'string') return reject({ code: 'api_key_invalid' });
  const limit = {
    kv: deps.kv,
    perMin: deps.entitlements.apiKeyFailuresPerMin,
    nowMs: deps.clock.now().getTime(),
  };
  const found = await lookUpKey(limit, request.ip, () => deps.authenticator.apiKey(secret));
  if (found.kind === 'blocked') return later({ code: 'key_lookups_blocked', afterSec: found.retryAfterSec });
  if (found.kind === 'unknown') return reject({ code: 'api_key_invalid' });
  if (!found.key.scopes.some((s) => (INGEST_SCOPES as readonly string[]).includes(s))) {
    return reject({ code: 'insufficient_scope' });
  }
  return go(found.key);
}

// 2. ----------------------------------------------------------------------------------------------

/** One request against the key's token bucket (burst ingestBurst, refill ingestPerSecond); the
 * decision rides along either way (the route's RateLimit headers). */
export async function rateLimit(
  deps: Pick<PipelineDeps, 'kv' | 'entitlements' | 'clock'>,
  key: IngestKey,
): Promise<Step<RateDecision>> {
  const e = deps.entitlements;
  const decision = await deps.kv.rateLimit(
    `rl:ingest:${key.keyId}`,
    { burst: e.ingestBurst, emissionMs: 1000 / e.ingestPerSecond },
    deps.clock.now().getTime(),
  );
  if (decision.allowed) return go(decision);
  const reason: RetryLater = { code: 'rate_limited', afterSec: decision.retryAfterSec };
  return { ok: false, stop: { outcome: 'retry_later', reason, rate: decision } };
}

// 3. ----------------------------------------------------------------------------------------------

/** The batch's events: too many is 413 before the schema's 422 (the size is the clearer fault). */
function decode(request: Pick<IngestRequest, 'body' | 'schemaError'>): Step<readonly unknown[]> {
  const events = bodyField(request.body, 'events');
  if (Array.isArray(events) && events.length > MAX_BATCH) {
    return reject({ code: 'batch_too_large', max: MAX_BATCH });
  }
  if (request.schemaError || !Array.isArray(events)) {
    const error = request.schemaError ?? errors.validation('body.events', 'body.events must be an array');
    return reject({ code: 'validation_failed', error });
  }
  return go(events);
}

// 4. validate: validateBatch (validate.ts), per event.

// 5. ----------------------------------------------------------------------------------------------

/** The receipt-time checks (batch.ts), then the partitions of every month the batch touches, and
 * of next month, so it exists before the month turns (no DDL at midnight). */
async function prepareBatch(
  deps: Pick<PipelineDeps, 'db' | 'partitions' | 'eventRetentionDays'>,
  validated: ReturnType<typeof validateBatch>,
  receivedAt: Date,
): Promise<Prepared> {
  const prepared = prepare(validated, receivedAt, ageLimit(deps.eventRetentionDays));
  await deps.partitions.ensure(deps.db, [
    `${quotaResetDate(receivedAt)}T00:00:00Z`,
    ...prepared.candidates.map((c) => c.ts),
  ]);
  return prepared;
}

// 6. ----------------------------------------------------------------------------------------------

async function dedupeAndCharge(
  deps: Pick<PipelineDeps, 'db' | 'entitlements' | 'queue'>,
  key: IngestKey,
  prepared: Prepared,
  ctx: Parameters<typeof settleBatch>[1]['ctx'],
  sink: Sink,
  received: ReceivedBody | undefined,
): Promise<Step<Settled>> {
  const quota = deps.entitlements.plans[key.plan].monthlySdkEvents;
  const settled = await settleBatch(deps.db, {
    teamId: key.teamId,
    quota,
    candidates: prepared.candidates,
    ctx,
    sink,
    carrier: deps.queue.kind === 'jetstream' ? deps.queue : undefined,
    body: received,
  });
  if ('quotaUsedUp' in settled) {
    return later({
      code: 'quota_exceeded',
      afterSec: QUOTA_RETRY_AFTER_SEC,
      quota,
      resetsOn: quotaResetDate(ctx.receivedAt),
    });
  }
  return go(settled);
}

// 7. ----------------------------------------------------------------------------------------------

/** Announces the committed batch; if the queue refuses it, moves it into `events` now (still
 * exactly once: the batch is stored by whoever deletes its outbox row). Should this process die
 * first, the row is still in the outbox for the writers. */
async function enqueue(deps: PipelineDeps, settled: Settled): Promise<IngestMode> {
  if (settled.outboxId === undefined || deps.queue.kind !== 'outbox') return 'async';
  const batch = { outboxId: settled.outboxId, events: settled.accepted };
  const published = await deps.queue.publish(batch).then(
    () => true,
    () => false,
  );
  if (published) return 'async';
  deps.log?.warn({ events: batch.events }, 'ingest queue refused a batch; writing it synchronously');
  await storeOutbox(deps.db, { ids: [batch.outboxId] });
  return 'sync';
}

function queueHasRoom(queue: IngestQueue): boolean {
  return queue.healthy() && queue.depth() < queue.highWaterMark;
}

function countsOf(prepared: Prepared, settled: Settled): IngestCounts {
  const errors = [...prepared.errors, ...settled.errors].sort((a, b) => a.index - b.index);
  return {
    accepted: settled.accepted,
    rejected: new Set(errors.map((e) => e.index)).size,
    deduped: settled.deduped + prepared.dupInBatch,
    errors,
  };
}

function bodyField(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}
