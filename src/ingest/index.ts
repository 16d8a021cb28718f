/**
 * SDK ingest: POST /api/sdk/events (the pipeline of pipeline.ts: key in the body, per-key rate
 * limit, validation, durable per-team dedupe, monthly quota, sync or queued writes), the queue and
 * its writer, the recent-events view and the retention of raw data (retention.ts: old monthly
 * partitions dropped, old event ids forgotten). Owns the events, event_ids, ingest_usage,
 * ingest_outbox and player_countries tables. It never logs an API key or a
 * payload, and never reads other domains' tables: keys are checked through the accounts
 * authenticator handed in.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Entitlements } from '../plans.js';
import { registerIngestRoutes } from './ingest.routes.js';
import { ingestSchemas } from './ingest.schemas.js';
import { IngestService } from './ingest.service.js';
import { JetStreamQueue } from './jetstream.js';
import { Partitions } from './partitions.js';
import type { IngestMode, PipelineDeps } from './pipeline.js';
import { type IngestQueue, OutboxQueue } from './queue.js';
import { DEFAULT_DEDUPE_HORIZON_DAYS, DEFAULT_EVENT_RETENTION_DAYS, Retention } from './retention.js';
import { IngestWriter } from './writer.js';

export { EVENTS_USAGE, type EventsCliDeps, eventsCommand } from './events.cli.js';
export { IngestService } from './ingest.service.js';
export { type JetStreamOptions, JetStreamQueue } from './jetstream.js';
export { Partitions } from './partitions.js';
export { type IngestMode, QUOTA_RETRY_AFTER_SEC } from './pipeline.js';
export { type Claim, type IngestQueue, OutboxQueue, type QueuedBatch } from './queue.js';
export {
  DEFAULT_DEDUPE_HORIZON_DAYS,
  DEFAULT_EVENT_RETENTION_DAYS,
  Retention,
  type RetentionDeps,
  type RetentionRun,
} from './retention.js';
export { ANSWER_KEY_PATTERN, PLATFORMS } from './schemas.js';
export { quotaResetDate } from './settle.js';
export { EVENT_TYPES, type EventType } from './types.js';
export { IngestWriter, type WriterDeps } from './writer.js';

/** The domain's dependencies; the queue and partitions are built here unless given. */
export interface IngestDeps extends Omit<PipelineDeps, 'queue' | 'partitions' | 'log'> {
  /** The queue of async mode (default: JetStream when natsUrl is set, else the outbox table). */
  queue?: IngestQueue;
  natsUrl?: string | undefined;
  /** The JetStream stream (default SVC_INGEST). */
  natsStream?: string;
  mode?: IngestMode;
  /** How often the writer looks for batches. */
  writerIntervalMs?: number;
  /** SDK_DEDUPE_HORIZON_DAYS (default 35): event ids older than this are forgotten. */
  dedupeHorizonDays?: number | undefined;
  log: FastifyBaseLogger;
}

/** The domain's runtime, built once by src/services.ts (tests drive the writer and switch modes
 * through `app.ingest`). */
export interface IngestRuntime {
  service: IngestService;
  queue: IngestQueue;
  writer: IngestWriter;
  /** Raw-data retention (the sdk-retention job of jobs/catalog.ts). */
  retention: Retention;
  /** Starts the queue (JetStream connects in the background, retrying) and, unless `writer` is
   * false, the writer (the ingest-writer and ingest-publisher workers of jobs/catalog.ts). */
  start(options?: { writer?: boolean }): void;
  /** Stops the writer (a move in progress finishes) and closes the queue. Batches not yet stored
   * wait in the outbox for the next writer. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ingest: IngestRuntime;
  }
}

export function createIngest(deps: IngestDeps): IngestRuntime {
  const { log } = deps;
  const queue =
    deps.queue ??
    (deps.natsUrl
      ? new JetStreamQueue({
          url: deps.natsUrl,
          ...(deps.natsStream ? { stream: deps.natsStream } : {}),
          // Never the URL: it may carry credentials.
          onConnectError: (err) =>
            log.warn({ code: errorCode(err) }, 'ingest queue (NATS) unreachable; ingesting synchronously'),
        })
      : new OutboxQueue(deps.db));
  // One cache shared by the pipeline and retention, so a dropped month is forgotten where it is used.
  const partitions = new Partitions();
  const eventRetentionDays = deps.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS;
  const service = new IngestService({ ...deps, queue, partitions, eventRetentionDays, log });
  service.mode = deps.mode ?? 'async';
  const writer = new IngestWriter({ db: deps.db, clock: deps.clock, queue, log });
  const retention = new Retention({
    db: deps.db,
    partitions,
    eventRetentionDays,
    dedupeHorizonDays: deps.dedupeHorizonDays ?? DEFAULT_DEDUPE_HORIZON_DAYS,
    log,
  });
  return {
    service,
    queue,
    writer,
    retention,
    start(options = {}) {
      queue.start();
      if (options.writer !== false) writer.start(deps.writerIntervalMs);
    },
    async stop() {
      await writer.stop();
      await queue.close();
    },
  };
}

export function registerIngest(
  app: FastifyInstance,
  ingest: IngestRuntime,
  entitlements: Entitlements,
): void {
  app.decorate('ingest', ingest);
  for (const schema of ingestSchemas) app.addSchema(schema);
  registerIngestRoutes(app, ingest.service, entitlements);
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
