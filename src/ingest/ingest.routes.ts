/**
 * POST /api/sdk/events (the SDK's key is in the body, so this route has no `config.access`: the
 * read-API guard would look at headers the spec says are not read here) and
 * GET /api/sdk/events/recent (signed-in users, their team's events).
 */
import { type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors.js';
import { type App, allowCrossOrigin, errorResponses } from '../http/index.js';
import { KEY_LOOKUPS_BLOCKED_DETAIL } from '../kv/index.js';
import { IngestBody, type RecentEventsBody, RecentQuery } from './ingest.schemas.js';
import type { IngestService } from './ingest.service.js';
import type { IngestResult, Rejection, RetryLater } from './pipeline.js';
import { toRecentEvent } from './recent.js';

const tags = ['sdk'];
const SDK_VERSION_MAX = 64;

const INGEST_DESCRIPTION = [
  'Ingests a batch of 1 to 500 SDK events. The API key is read from the body field `api_key` only ' +
    '(missing → 401 api_key_missing; unknown or revoked → 401 api_key_invalid; a key without sdk:ingest or ' +
    'ingest:telemetry → 403 insufficient_scope); the Authorization header is not read. After 20 (by default) failed key ' +
    'lookups (api_key_invalid) from one IP within a minute, that IP gets 429 rate_limited with Retry-After for a ' +
    'minute without any lookup, whatever key it sends (a valid one too).',
  'Body ≤ 1 MiB, also after gzip inflation (`Content-Encoding: gzip` accepted) → else 413 payload_too_large; ' +
    'more than 500 events → 413 batch_too_large; none → 422 validation_failed.',
  'Each event is validated on its own: invalid ones are counted in `rejected` with an `errors` item ' +
    '{index, event_id, field, code, message} (values are never echoed). A repeated event_id (per team, received ' +
    'within the dedupe horizon: SDK_DEDUPE_HORIZON_DAYS, 35 days by default) is counted in `deduped`. `ts` must lie ' +
    'within the raw-event retention back (SDK_EVENT_RETENTION_DAYS, 400 days by default, at most 2 years) and ' +
    '1 day ahead of receipt (code out_of_range).',
  'Async mode answers 202 with `X-Svc-Ingest-Mode: async` once the accepted events are queued; the counts are ' +
    'final. Under backpressure the batch is written synchronously: 200 with `X-Svc-Ingest-Mode: sync`.',
  'Rate limit per key: a token bucket (burst 100, 20 requests/s by default) → 429 rate_limited with ' +
    'Retry-After; RateLimit-Policy and RateLimit headers on every answer. Monthly team quota by plan: events ' +
    'beyond it are rejected (code quota_exceeded); a batch when nothing is left → 503 quota_exceeded, ' +
    'Retry-After: 15, the detail names the reset date.',
].join('\n\n');

/** The body's bytes as Fastify parsed them (after gzip), per request: JetStream carries a batch as
 * it came and its writer makes the rows (settle.ts). */
const bodyBytes = new WeakMap<FastifyRequest, Buffer[]>();

/** A pass-through that keeps what flows through it. */
function keeper(chunks: Buffer[]): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done(null, chunk);
    },
  });
}

/** The body stream Fastify parses: gzip inflated, and its bytes kept (bodyBytes). The inflating
 * stream reports the compressed byte count as receivedEncodedLength, so Fastify checks
 * Content-Length against it and bodyLimit against the inflated size (zip bomb → 413). */
function body(request: FastifyRequest, payload: Readable): Readable {
  const raw = request.headers['content-encoding'];
  const encoding = (typeof raw === 'string' ? raw : '').trim().toLowerCase();
  const identity = encoding === '' || encoding === 'identity';
  if (!identity && encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw errors.unsupportedMediaType('Content-Encoding must be gzip or identity.');
  }
  const chunks: Buffer[] = [];
  bodyBytes.set(request, chunks);
  const out = Object.assign(keeper(chunks), { receivedEncodedLength: 0 });
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  // Fastify reads the body (and listens for its errors) only when it has a parser for the
  // Content-Type; otherwise it answers 415 and nobody else listens: an unheard 'error' event
  // would crash the process.
  out.on('error', () => {});
  payload.on('error', (err) => out.destroy(err));
  if (identity) return payload.pipe(out);
  const gunzip = createGunzip();
  gunzip.on('error', () => out.destroy(new AppError(400, 'invalid_gzip', 'The body is not valid gzip.')));
  payload.pipe(gunzip).pipe(out);
  return out;
}

/** The kept chunks, not joined: the stream's message is the one copy made of them (encodeRaw). */
function keptBody(request: FastifyRequest): readonly Buffer[] | undefined {
  const chunks = bodyBytes.get(request);
  return chunks && chunks.length > 0 ? chunks : undefined;
}

function sdkVersion(request: FastifyRequest): string | null {
  const v = request.headers['x-svc-sdk-version'];
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, SDK_VERSION_MAX) : null;
}

export interface IngestRouteOptions {
  ingestBurst: number;
  ingestPerSecond: number;
}

export function registerIngestRoutes(app: App, service: IngestService, opts: IngestRouteOptions): void {
  registerIngestRoute(app, service, opts);
  registerRecentRoute(app, service);
}

/** The pipeline's result as HTTP: the counts (202 async, 200 sync), or the error it names. */
function send(reply: FastifyReply, result: IngestResult, opts: IngestRouteOptions) {
  if (result.rate) {
    // Same draft-ietf-httpapi-ratelimit-headers style as the read API: q requests per w seconds
    // is the bucket (burst refilled in burst / perSecond seconds), then the current state.
    const { ingestBurst: burst, ingestPerSecond: perSecond } = opts;
    reply.header('RateLimit-Policy', `"ingest";q=${burst};w=${Math.ceil(burst / perSecond)}`);
    reply.header('RateLimit', `"ingest";r=${result.rate.remaining};t=${result.rate.resetSec}`);
  }
  if (result.outcome === 'stored') {
    reply.header('X-Svc-Ingest-Mode', result.mode);
    return reply.code(result.mode === 'async' ? 202 : 200).send(result.counts);
  }
  throw result.outcome === 'rejected' ? rejection(result.reason) : retryLater(result.reason);
}

function rejection(reason: Rejection): Error {
  switch (reason.code) {
    case 'api_key_missing':
      return errors.apiKeyMissing();
    case 'api_key_invalid':
      return errors.apiKeyInvalid();
    case 'insufficient_scope':
      return errors.insufficientScope('This API key has no ingest scope (sdk:ingest or ingest:telemetry).');
    case 'batch_too_large':
      return new AppError(413, 'batch_too_large', `A batch carries at most ${reason.max} events.`);
    case 'validation_failed':
      return reason.error;
  }
}

function retryLater(reason: RetryLater): AppError {
  switch (reason.code) {
    case 'key_lookups_blocked':
      return errors.rateLimited(reason.afterSec, KEY_LOOKUPS_BLOCKED_DETAIL);
    case 'rate_limited':
      return errors.rateLimited(reason.afterSec);
    case 'quota_exceeded':
      return new AppError(
        503,
        'quota_exceeded',
        `The team's monthly quota of ${reason.quota} SDK events is used up; it resets on ${reason.resetsOn} (UTC).`,
        { headers: { 'Retry-After': String(reason.afterSec) } },
      );
  }
}

function registerIngestRoute(app: App, service: IngestService, opts: IngestRouteOptions): void {
  // Browser games post from their own origin (the TypeScript SDK): no cookie is read here.
  allowCrossOrigin(app, '/api/sdk/events', ['POST']);
  app.post(
    '/api/sdk/events',
    {
      // The body's schema verdict goes to the pipeline, which looks at the key first (401 before 422).
      attachValidation: true,
      // Each event is checked for NUL on its own (rejected, not the batch): no NUL guard here.
      config: { checksOwnInput: true },
      preParsing: async (request, _reply, payload) => body(request, payload),
      schema: {
        tags,
        summary: 'Ingest SDK events',
        description: INGEST_DESCRIPTION,
        body: IngestBody,
        response: {
          200: { $ref: 'IngestResponse#' },
          202: { $ref: 'IngestResponse#' },
          ...errorResponses(400, 401, 403, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) =>
      send(
        reply,
        await service.ingest({
          body: request.body,
          schemaError: request.validationError,
          ip: request.ip,
          sdkVersion: sdkVersion(request),
          rawBody: () => keptBody(request),
        }),
        opts,
      ),
  );
}

function registerRecentRoute(app: App, service: IngestService): void {
  app.get(
    '/api/sdk/events/recent',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: "The team's most recently received SDK events, newest first",
        description:
          'Events stored so far (in async mode, once the writer has written them). limit: 1 to 100.',
        querystring: RecentQuery,
        response: { 200: { $ref: 'RecentSdkEvents#' }, ...errorResponses(422) },
      },
    },
    async (request): Promise<RecentEventsBody> => {
      const p = request.principal;
      if (p.kind !== 'user') throw errors.notAuthenticated();
      return { events: (await service.recent(p.teamId, request.query.limit)).map(toRecentEvent) };
    },
  );
}
