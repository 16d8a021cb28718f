/**
 * POST /api/sdk/events (the SDK's key is in the body, so this route has no `config.access`: the
 * read-API guard would look at headers the spec says are not read here) and
 * GET /api/sdk/events/recent (signed-in users, their team's events).
 */
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors.js';
import { type App, errorResponses } from '../http/index.js';
import type { RateDecision } from '../kv/index.js';
import { IngestBody, MAX_BATCH, type RecentEventsBody, RecentQuery } from './ingest.schemas.js';
import type { IngestService } from './ingest.service.js';
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
    '{index, event_id, field, code, message} (values are never echoed). A repeated event_id (per team, ever) is ' +
    'counted in `deduped`. `ts` must lie within 2 years back and 1 day ahead of receipt (code out_of_range).',
  'Async mode answers 202 with `X-Svc-Ingest-Mode: async` once the accepted events are queued; the counts are ' +
    'final. Under backpressure the batch is written synchronously: 200 with `X-Svc-Ingest-Mode: sync`.',
  'Rate limit per key: a token bucket (burst 100, 20 requests/s by default) → 429 rate_limited with ' +
    'Retry-After; RateLimit-Policy and RateLimit headers on every answer. Monthly team quota by plan: events ' +
    'beyond it are rejected (code quota_exceeded); a batch when nothing is left → 503 quota_exceeded, ' +
    'Retry-After: 15, the detail names the reset date.',
].join('\n\n');

/** Inflates a gzip body. The stream reports the compressed byte count as receivedEncodedLength,
 * so Fastify checks Content-Length against it and bodyLimit against the inflated size (zip bomb → 413). */
function inflate(request: FastifyRequest, payload: Readable): Readable {
  const raw = request.headers['content-encoding'];
  const encoding = (typeof raw === 'string' ? raw : '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return payload;
  if (encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw errors.unsupportedMediaType('Content-Encoding must be gzip or identity.');
  }
  const out = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
  const gunzip = createGunzip();
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  gunzip.on('error', () => out.destroy(new AppError(400, 'invalid_gzip', 'The body is not valid gzip.')));
  // Fastify reads the body (and listens for its errors) only when it has a parser for the
  // Content-Type; otherwise it answers 415 and nobody else listens: an unheard 'error' event
  // would crash the process.
  out.on('error', () => {});
  payload.pipe(gunzip).pipe(out);
  return out;
}

function rateHeaders(reply: FastifyReply, d: RateDecision, burst: number, perSecond: number): void {
  // Same draft-ietf-httpapi-ratelimit-headers style as the read API: q requests per w seconds is the
  // bucket (burst refilled in burst / perSecond seconds), then the current state.
  reply.header('RateLimit-Policy', `"ingest";q=${burst};w=${Math.ceil(burst / perSecond)}`);
  reply.header('RateLimit', `"ingest";r=${d.remaining};t=${d.resetSec}`);
}

function bodyField(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
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

/** The checks in the order a caller should meet them: key (401/403), rate (429), batch (413/422). */
async function handleIngest(
  service: IngestService,
  opts: IngestRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const body: unknown = request.body;
  const apiKey = bodyField(body, 'api_key');
  if (apiKey === undefined || apiKey === null || apiKey === '') throw errors.apiKeyMissing();
  if (typeof apiKey !== 'string') throw errors.apiKeyInvalid();
  const key = await service.authenticate(apiKey, request.ip);
  const decision = await service.rateLimit(key);
  rateHeaders(reply, decision, opts.ingestBurst, opts.ingestPerSecond);
  if (!decision.allowed) throw errors.rateLimited(decision.retryAfterSec);
  const events = bodyField(body, 'events');
  if (Array.isArray(events) && events.length > MAX_BATCH) {
    throw new AppError(413, 'batch_too_large', `A batch carries at most ${MAX_BATCH} events.`);
  }
  if (request.validationError) throw request.validationError;
  const outcome = await service.ingest(key, events as unknown[], sdkVersion(request));
  reply.header('X-Svc-Ingest-Mode', outcome.mode);
  return reply.code(outcome.mode === 'async' ? 202 : 200).send(outcome.counts);
}

function registerIngestRoute(app: App, service: IngestService, opts: IngestRouteOptions): void {
  app.post(
    '/api/sdk/events',
    {
      // The body is checked in the handler so the key is looked at before the batch (401 before 422).
      attachValidation: true,
      // Each event is checked for NUL on its own (rejected, not the batch): no NUL guard here.
      config: { checksOwnInput: true },
      preParsing: async (request, _reply, payload) => inflate(request, payload),
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
    (request, reply) => handleIngest(service, opts, request, reply),
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
