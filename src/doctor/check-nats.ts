/**
 * NATS (NATS_URL): connect once, check JetStream is on, and look at the ingest queue the way
 * ingest/jetstream.ts sets it up: the stream NATS_INGEST_STREAM and its durable consumer
 * `<stream>_writer`, reporting the messages waiting for a writer. Nothing is created here: the
 * first `svc serve` or `svc worker` creates the stream and the consumer, so a missing one is a
 * FAIL that says so.
 */
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import type { Check, CheckContext, Finding } from './doctor.js';
import { maskUrl } from './mask.js';

/** JetStream API error codes (nats-server's errors.json). */
const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;

function apiErrorCode(err: unknown): number | undefined {
  const api = (err as { api_error?: { err_code?: unknown } } | null)?.api_error;
  return typeof api?.err_code === 'number' ? api.err_code : undefined;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

async function check(ctx: CheckContext, url: string): Promise<Finding> {
  const at = maskUrl(url);
  ctx.about(at);
  ctx.step('connecting');
  const nc: NatsConnection = await connect({
    servers: url.split(',').map((s) => s.trim()),
    timeout: ctx.limitMs,
    reconnect: false,
    name: 'svc-doctor',
  });
  ctx.defer(() => nc.close());
  const server = `${at}, NATS ${nc.info?.version ?? '(version unknown)'}`;
  ctx.about(server);
  ctx.step('asking for JetStream');
  if (nc.info?.jetstream !== true) {
    return { status: 'FAIL', detail: `${server}: JetStream is not enabled (start nats-server with -js)` };
  }
  const jsm = await nc.jetstreamManager({ timeout: ctx.limitMs }).catch((err: unknown) => {
    if ((err as { code?: unknown }).code === '503') return undefined;
    throw err;
  });
  if (!jsm) return { status: 'FAIL', detail: `${server}: JetStream is not enabled for this account` };
  return ingestQueue(ctx, jsm, server);
}

/** The stream and the consumer jetstream.ts creates, and the messages waiting for a writer. */
async function ingestQueue(ctx: CheckContext, jsm: JetStreamManager, server: string): Promise<Finding> {
  const stream = ctx.config.natsIngestStream;
  const durable = `${stream}_writer`;
  const creates = 'the first svc serve or svc worker with this NATS_URL creates it';
  ctx.step(`reading stream ${stream}`);
  const info = await jsm.streams.info(stream).catch((err: unknown) => {
    if (apiErrorCode(err) === STREAM_NOT_FOUND) return undefined;
    throw err;
  });
  if (!info) return { status: 'FAIL', detail: `${server}: stream ${stream} does not exist (${creates})` };
  ctx.step(`reading consumer ${durable}`);
  const consumer = await jsm.consumers.info(stream, durable).catch((err: unknown) => {
    if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return undefined;
    throw err;
  });
  if (!consumer) {
    return { status: 'FAIL', detail: `${server}: stream ${stream} has no consumer ${durable} (${creates})` };
  }
  const waiting = consumer.num_pending + consumer.num_ack_pending;
  const unacked =
    consumer.num_ack_pending > 0 ? ` (${consumer.num_ack_pending} delivered, not yet acknowledged)` : '';
  return {
    status: 'ok',
    detail:
      `${server}, JetStream on; stream ${stream} (${info.config.storage} storage, ` +
      `${info.config.retention} retention), consumer ${durable}: ` +
      `${plural(waiting, 'message', 'messages')} waiting${unacked}`,
  };
}

export const natsCheck: Check = {
  name: 'nats',
  async run(ctx) {
    const url = ctx.config.natsUrl;
    if (!url) {
      return { status: 'skip', detail: 'NATS_URL is not set (the outbox table is the ingest queue)' };
    }
    return check(ctx, url);
  },
};
