/**
 * SDK ingest: POST /api/sdk/events (key in the body, per-key rate limit, validation, durable
 * per-team dedupe, monthly quota, sync or queued writes) and the recent-events view. Owns the
 * events, event_ids, ingest_usage and player_countries tables. It never logs an API key or a
 * payload, and never reads other domains' tables: keys are checked through the accounts
 * authenticator handed in.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Entitlements } from '../plans.js';
import { registerIngestRoutes } from './ingest.routes.js';
import { ingestSchemas } from './ingest.schemas.js';
import type { IngestServiceDeps } from './ingest.service.js';
import { type IngestMode, IngestService } from './ingest.service.js';
import { JETSTREAM_HIGH_WATER, JetStreamQueue } from './jetstream.js';
import { Partitions } from './partitions.js';
import { DeferredQueue, type IngestQueue, MemoryQueue } from './queue.js';
import { IngestWriter } from './writer.js';

export { EVENTS_USAGE, type EventsCliDeps, eventsCommand } from './events.cli.js';
export { type IngestMode, IngestService, QUOTA_RETRY_AFTER_SEC, quotaResetDate } from './ingest.service.js';
export { type JetStreamOptions, JetStreamQueue } from './jetstream.js';
export { Partitions } from './partitions.js';
export {
  DeferredQueue,
  type IngestQueue,
  MemoryQueue,
  type QueuedBatch,
  QueueFullError,
  type QueueMessage,
} from './queue.js';
export { IngestWriter, type WriterDeps } from './writer.js';

/** The service's dependencies, with the queue and partitions built here when not given. */
export interface IngestDeps extends Omit<IngestServiceDeps, 'queue' | 'partitions' | 'log'> {
  /** The queue of async mode (default: JetStream when natsUrl is set, else an in-process bounded
   * memory queue). */
  queue?: IngestQueue;
  natsUrl?: string | undefined;
  /** The JetStream stream (default SVC_INGEST). */
  natsStream?: string;
  mode?: IngestMode;
  /** How often the in-process writer drains the queue. */
  writerIntervalMs?: number;
  log: FastifyBaseLogger;
}

/** The domain's runtime, built once by src/services.ts (tests drive the writer and switch modes
 * through `app.ingest`). */
export interface IngestRuntime {
  service: IngestService;
  queue: IngestQueue;
  writer: IngestWriter;
  /** Connects the queue (JetStream: in the background, retrying) and runs the writer and its relay
   * (the ingest-writer worker of jobs/catalog.ts). */
  start(): void;
  /** Stops the writer; the memory queue is drained first (it has no one else), JetStream keeps its
   * messages for the next writer; then the queue is closed. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ingest: IngestRuntime;
  }
}

/** JetStream, connected in the background (the route ingests synchronously until it is). */
function jetStreamQueue(url: string, stream: string | undefined, log: FastifyBaseLogger): DeferredQueue {
  return new DeferredQueue(
    'jetstream',
    JETSTREAM_HIGH_WATER,
    () => JetStreamQueue.connect({ url, ...(stream ? { stream } : {}) }),
    // Never the URL: it may carry credentials.
    (err) => log.warn({ code: errorCode(err) }, 'ingest queue (NATS) unreachable; ingesting synchronously'),
  );
}

export function createIngest(deps: IngestDeps): IngestRuntime {
  const { log } = deps;
  const deferred =
    !deps.queue && deps.natsUrl ? jetStreamQueue(deps.natsUrl, deps.natsStream, log) : undefined;
  const queue = deps.queue ?? deferred ?? new MemoryQueue();
  const partitions = new Partitions();
  const service = new IngestService({ ...deps, queue, partitions, log });
  service.mode = deps.mode ?? 'async';
  const writer = new IngestWriter({ db: deps.db, clock: deps.clock, queue, partitions, log });
  return {
    service,
    queue,
    writer,
    start() {
      deferred?.connect();
      writer.start(deps.writerIntervalMs);
    },
    async stop() {
      await writer.stop();
      // JetStream keeps its messages for the next writer; the memory queue has no one else.
      if (queue.kind === 'memory') {
        await writer
          .flush()
          .catch((err: unknown) => log.error({ code: errorCode(err) }, 'ingest drain failed'));
      }
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
