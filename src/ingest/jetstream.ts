/**
 * The ingest queue on NATS JetStream (NATS_URL), the durable store of async batches: the request
 * publishes an accepted batch's rows (as COPY text, ready for the writer) on a file-backed
 * work-queue stream and waits for the stream's acknowledgement before it commits and answers 202
 * (settle.ts, sink `stream`; the claims of migration 0040 make the writer store a message exactly
 * when its request committed). A durable pull consumer shared by every writer (serve and worker
 * processes compete for messages) hands them out; a message is acked after the writer's
 * transaction committed, and an unacked one is redelivered (its claim is gone: nothing twice).
 *
 * It connects in the background (start(), retrying every few seconds): until it is connected, and
 * while the connection is down, it reports itself unhealthy and the route ingests synchronously,
 * so NATS being away never fails a request or delays start-up. A circuit opens on the first
 * publish that fails or takes longer than `publishTimeoutMs` (250 ms): requests in flight fall back
 * to sync then, later ones go sync at once, and a probe every `probeMs` closes it again.
 */
import { isUtf8 } from 'node:buffer';
import {
  AckPolicy,
  connect,
  DiscardPolicy,
  type JetStreamClient,
  type JsMsg,
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { joinBytes } from '../bytes.js';
import type { Queryable } from '../db/index.js';
import { type Candidate, newBatchId, type RowContext, toRows } from './batch.js';
import {
  type EventRow,
  eventsCopy,
  eventsCopyText,
  insertEventsCopy,
  type RollupKey,
  rollupInboxStatement,
  rollupKeys,
  takeClaims,
} from './ingest.repo.js';
import { MAX_BATCH } from './ingest.schemas.js';
import type { Claim, StreamKind } from './queue.js';
import type { Packed, RawBatch } from './settle.js';
import { validateEvent } from './validate.js';

export interface JetStreamOptions {
  url: string;
  /** Stream name (default SVC_INGEST); its subject is `<stream>.events`, its consumer `<stream>_writer`. */
  stream?: string;
  /** Messages (batches) queued over which the route goes synchronous. */
  highWaterMark?: number;
  /** How long a pulled message may stay unacked before it is redelivered. */
  ackWaitMs?: number;
  /** How long a publish may wait for the stream's acknowledgement before the request stores its
   * batch itself (and the circuit opens). */
  publishTimeoutMs?: number;
  /** How often an open circuit probes the stream. */
  probeMs?: number;
  /** Told of each failed connection attempt (never with the URL: it may carry credentials). */
  onConnectError?: (err: unknown) => void;
  /** Told once when the circuit opens and once when it closes. */
  onCircuit?: (open: boolean) => void;
  /** Told of a message that cannot be read (it is dropped). */
  onPoison?: (reason: string) => void;
  retryMs?: number;
}

export const JETSTREAM_HIGH_WATER = 10_000;
export const PUBLISH_TIMEOUT_MS = 250;
/** Room left in a message for its headers and the protocol. */
const HEADROOM = 4_096;
/** The server's usual max_payload, until the connection says otherwise. */
const DEFAULT_MAX_PAYLOAD = 1_048_576;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The first line of a version 1 message; the rest is the batch's rows in COPY text
 * (EVENT_COLUMNS order). */
interface MessageHead {
  v: 1;
  claim: number;
  events: number;
  inbox: RollupKey[];
}

/**
 * The first line of a version 2 message; the rest is the request's body as received (after gzip).
 * The request validated, deduped and charged the batch but leaves building its rows to the writer:
 * `take` names the accepted events (inclusive ranges of indexes into the body's `events`), whose
 * rows the writer makes as the request would have (validateEvent, then toRows with `countries`, the
 * players' cached countries the request read, and the receipt context). What the request saves is
 * most of an accepted event's cost after validation: the async path exists to absorb bursts.
 */
interface RawHead {
  v: 2;
  claim: number;
  events: number;
  team: number;
  key: number;
  sdk: string | null;
  at: string;
  take: [number, number][];
  countries: Record<string, string>;
}

/** A message as the writer reads it: its rows as COPY text, in pieces (CopyData; the bytes of a
 * version 1 message as they came, the rows a version 2 message's writer made as strings). */
export interface BatchMessage {
  claim: number;
  events: number;
  inbox: RollupKey[];
  copy: (string | Uint8Array)[];
}

/** A message's parts before its claim id is known: its rollup keys, its COPY text, and its size
 * (with room for the largest claim id). */
interface MessageParts {
  events: number;
  inbox: RollupKey[];
  text: string;
  bytes: number;
}

const CLAIM_ROOM = String(Number.MAX_SAFE_INTEGER).length;

function messageParts(rows: readonly EventRow[]): MessageParts {
  const inbox = rollupKeys(rows);
  const text = eventsCopyText(rows);
  const head = JSON.stringify({ v: 1, claim: 0, events: rows.length, inbox });
  return {
    events: rows.length,
    inbox,
    text,
    bytes: Buffer.byteLength(head) + CLAIM_ROOM + 1 + Buffer.byteLength(text),
  };
}

function encodeParts(claim: number, parts: MessageParts): Uint8Array {
  const head: MessageHead = { v: 1, claim, events: parts.events, inbox: parts.inbox };
  return encoder.encode(`${JSON.stringify(head)}\n${parts.text}`);
}

/** One message: the head line, then the COPY text of `rows`. */
export function encodeMessage(claim: number, rows: readonly EventRow[]): Uint8Array {
  return encodeParts(claim, messageParts(rows));
}

const isKey = (k: unknown): k is RollupKey =>
  Array.isArray(k) &&
  k.length === 6 &&
  Number.isSafeInteger(k[0]) &&
  typeof k[1] === 'string' &&
  typeof k[2] === 'string' &&
  typeof k[3] === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(k[3]) &&
  typeof k[4] === 'string' &&
  Number.isSafeInteger(k[5]);

/** Inclusive ranges of the sorted indexes `ix`: [0..499] for a batch accepted whole. */
function ranges(ix: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const i of ix) {
    const last = out[out.length - 1];
    if (last && i === last[1] + 1) last[1] = i;
    else out.push([i, i]);
  }
  return out;
}

/** `"api_key"` as it stands before the key's value in a body. */
const API_KEY_NAME = encoder.encode('"api_key"');
const isJsonSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Where the body's `api_key` value starts, found by its bytes: the only place `secret` occurs, right
 * after `"api_key"`, a colon and a quote (JSON space allowed around the colon). -1 when the bytes
 * are not found so: a key written with escapes, or the same text elsewhere in the body (blanking
 * it there would change an event).
 */
export function keyOffset(body: Uint8Array, secret: string): number {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const needle = Buffer.from(secret, 'utf8');
  if (needle.length === 0) return -1;
  const at = bytes.indexOf(needle);
  if (at < 0 || bytes.indexOf(needle, at + 1) >= 0) return -1;
  if (bytes[at - 1] !== 0x22 || bytes[at + needle.length] !== 0x22) return -1;
  let i = at - 2;
  while (isJsonSpace(bytes[i])) i -= 1;
  if (bytes[i] !== 0x3a) return -1;
  i -= 1;
  while (isJsonSpace(bytes[i])) i -= 1;
  const start = i - API_KEY_NAME.length + 1;
  if (start < 0) return -1;
  return bytes.subarray(start, i + 1).equals(API_KEY_NAME) ? at : -1;
}

/** A version 2 message (RawHead) for `batch`, the key's value blanked (each of its characters a
 * `*`: the stream never holds a key), or null when it would be larger than `maxBytes` or the key
 * cannot be found to blank (keyOffset): the caller then packs rows, which it can split. The body's
 * chunks are copied once, into the message (unzeroed memory: every byte of it is written). */
export function encodeRaw(claim: number, batch: RawBatch, maxBytes: number): Uint8Array | null {
  const { bytes: chunks, secret } = batch.body;
  const head: RawHead = {
    v: 2,
    claim,
    events: batch.accepted.length,
    team: batch.ctx.teamId,
    key: batch.ctx.keyId,
    sdk: batch.ctx.sdkVersion,
    at: batch.ctx.receivedAt.toISOString(),
    take: ranges(batch.accepted.map((c) => c.index)),
    countries: Object.fromEntries(batch.countries),
  };
  const line = `${JSON.stringify(head)}\n`;
  const lineBytes = Buffer.byteLength(line, 'utf8');
  if (lineBytes + chunks.reduce((n, c) => n + c.length, 0) > maxBytes) return null;
  const data = joinBytes([line, ...chunks]);
  const body = data.subarray(lineBytes);
  const key = keyOffset(body, secret);
  if (key < 0) return null;
  body.fill(0x2a, key, key + Buffer.byteLength(secret, 'utf8'));
  return data;
}

const isRange = (r: unknown): r is [number, number] =>
  Array.isArray(r) &&
  r.length === 2 &&
  Number.isSafeInteger(r[0]) &&
  Number.isSafeInteger(r[1]) &&
  r[0] >= 0 &&
  r[0] <= r[1];

/** A version 2 message's rows, made as its request would have made them (see RawHead). */
function decodeRaw(head: Partial<RawHead>, body: Uint8Array): BatchMessage | { malformed: string } {
  if (!Number.isSafeInteger(head.team) || !Number.isSafeInteger(head.key))
    return { malformed: 'no team or key' };
  if (head.sdk !== null && typeof head.sdk !== 'string') return { malformed: 'bad sdk version' };
  const receivedAt = new Date(typeof head.at === 'string' ? head.at : Number.NaN);
  if (Number.isNaN(receivedAt.getTime())) return { malformed: 'bad receipt time' };
  if (!Array.isArray(head.take) || !head.take.every(isRange)) return { malformed: 'bad event ranges' };
  const countries = head.countries;
  if (countries === null || typeof countries !== 'object' || Array.isArray(countries)) {
    return { malformed: 'bad countries' };
  }
  let events: unknown;
  try {
    events = (JSON.parse(decoder.decode(body)) as { events?: unknown } | null)?.events;
  } catch {
    return { malformed: 'the body is not JSON' };
  }
  if (!Array.isArray(events)) return { malformed: 'the body has no events' };
  const accepted: Candidate[] = [];
  for (const [from, to] of head.take) {
    if (to >= events.length) return { malformed: `no event ${to} in the body` };
    for (let i = from; i <= to; i += 1) {
      const checked = validateEvent(events[i], i);
      // Only a writer whose validation differs from the request's (another version) gets here.
      if (!checked.ok) return { malformed: `event ${i} does not validate: ${checked.error.code}` };
      accepted.push({ index: i, event: checked.event, ts: checked.event.ts ?? receivedAt });
    }
  }
  if (accepted.length !== head.events)
    return { malformed: `${accepted.length} events taken for ${head.events}` };
  const ctx: RowContext = { teamId: head.team!, keyId: head.key!, sdkVersion: head.sdk ?? null, receivedAt };
  const rows = toRows(
    accepted,
    new Map(Object.entries(countries as Record<string, string>)),
    ctx,
    head.claim,
  );
  return { claim: head.claim!, events: rows.length, inbox: rollupKeys(rows), copy: eventsCopy(rows) };
}

/** The message, or why it cannot be read (a message of another version or format). */
export function decodeMessage(data: Uint8Array): BatchMessage | { malformed: string } {
  const nl = data.indexOf(10);
  if (nl < 0) return { malformed: 'no head line' };
  let head: Partial<MessageHead> | Partial<RawHead>;
  try {
    head = JSON.parse(decoder.decode(data.subarray(0, nl))) as Partial<MessageHead> | Partial<RawHead>;
  } catch {
    return { malformed: 'the head line is not JSON' };
  }
  if (head.v === 2) {
    if (!Number.isSafeInteger(head.claim) || (head.claim ?? 0) <= 0) return { malformed: 'no claim id' };
    if (!Number.isSafeInteger(head.events) || (head.events ?? -1) < 0) return { malformed: 'no event count' };
    return decodeRaw(head, data.subarray(nl + 1));
  }
  if (head.v !== 1) return { malformed: `unknown version ${JSON.stringify(head.v)}` };
  if (!Number.isSafeInteger(head.claim) || (head.claim ?? 0) <= 0) return { malformed: 'no claim id' };
  if (!Number.isSafeInteger(head.events) || (head.events ?? -1) < 0) return { malformed: 'no event count' };
  if (!Array.isArray(head.inbox) || !head.inbox.every(isKey)) return { malformed: 'bad rollup keys' };
  // The rows go to COPY as the bytes they came as (PostgreSQL checks their encoding too).
  const copy = data.subarray(nl + 1);
  if (!isUtf8(copy)) return { malformed: 'the rows are not UTF-8' };
  let lines = 0;
  for (let i = copy.indexOf(10); i >= 0; i = copy.indexOf(10, i + 1)) lines += 1;
  if (lines !== head.events || (copy.length > 0 && copy[copy.length - 1] !== 10)) {
    return { malformed: `${lines} rows for ${head.events} events` };
  }
  return { claim: head.claim!, events: head.events!, inbox: head.inbox, copy: [copy] };
}

/** `rows` as messages of at most `maxBytes` each (halved until they fit; one row always fits: a
 * request body is at most 1 MB), claim ids taken from `newClaim` in message order, one per message
 * sent. The parts of a split batch each get their own batch id (their claim id): the rollup job
 * finds a batch's events by it, and a part may be written before the next one. */
export function packRows(
  rows: readonly EventRow[],
  maxBytes: number,
  newClaim: () => number = newBatchId,
  part = false,
): Packed[] {
  if (rows.length === 0) return [];
  if (!part) {
    const parts = messageParts(rows);
    if (parts.bytes <= maxBytes || rows.length === 1) {
      const claim = newClaim();
      return [{ claim, events: rows.length, data: encodeParts(claim, parts) }];
    }
  } else if (rows.length === 1 || messageParts(rows).bytes <= maxBytes) {
    const claim = newClaim();
    const own = rows.map((r) => ({ ...r, batch: claim }));
    return [{ claim, events: rows.length, data: encodeMessage(claim, own) }];
  }
  const half = Math.ceil(rows.length / 2);
  return [
    ...packRows(rows.slice(0, half), maxBytes, newClaim, true),
    ...packRows(rows.slice(half), maxBytes, newClaim, true),
  ];
}

/**
 * The writer's transaction for the messages it was handed: the claims of those whose request
 * committed (takeClaims), their rows in one COPY and their rollup keys in one insert.
 */
export async function storeMessages(
  tx: Queryable,
  messages: readonly BatchMessage[],
  now: Date,
): Promise<{ batches: number; events: number }> {
  const mine = await takeClaims(
    tx,
    messages.map((m) => m.claim),
    now,
  );
  const taken = messages.filter((m) => mine.has(m.claim));
  // A claim named twice (a redelivered message handed out with its first copy) stores once.
  const once = [...new Map(taken.map((m) => [m.claim, m])).values()];
  if (once.length === 0) return { batches: 0, events: 0 };
  await insertEventsCopy(
    tx,
    once.flatMap((m) => m.copy),
  );
  const queued = rollupInboxStatement(once.flatMap((m) => m.inbox));
  if (queued) await tx.query(queued.sql, queued.params);
  return { batches: once.length, events: once.reduce((s, m) => s + m.events, 0) };
}

interface Connection {
  nc: NatsConnection;
  js: JetStreamClient;
}

export class JetStreamQueue implements StreamKind {
  readonly kind = 'jetstream' as const;
  readonly highWaterMark: number;
  private readonly names: { stream: string; subject: string; durable: string };
  private conn: Connection | undefined;
  private up = false;
  /** The circuit: open after a failed or slow publish, until a probe succeeds. */
  private tripped = false;
  private probe: NodeJS.Timeout | undefined;
  private pending = 0;
  /** Messages this process fetched and has not acked or nacked yet. */
  private held = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: JetStreamOptions) {
    const stream = options.stream ?? 'SVC_INGEST';
    this.names = { stream, subject: `${stream}.events`, durable: `${stream}_writer` };
    this.highWaterMark = options.highWaterMark ?? JETSTREAM_HIGH_WATER;
  }

  /** Connects now (tests, tools); rejects when NATS cannot be reached. */
  static async connect(options: JetStreamOptions): Promise<JetStreamQueue> {
    const queue = new JetStreamQueue(options);
    queue.attach(await queue.open());
    return queue;
  }

  /** Starts connecting in the background (again every retryMs until it works). */
  start(): void {
    if (this.conn || this.closed || this.retry) return;
    this.open().then(
      (conn) => {
        if (this.closed) void conn.nc.close();
        else this.attach(conn);
      },
      (err: unknown) => {
        this.options.onConnectError?.(err);
        if (this.closed) return;
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.start();
        }, this.options.retryMs ?? 5_000);
        this.retry.unref();
      },
    );
  }

  /** Connects and makes sure the stream and its consumer exist (idempotent across processes). */
  private async open(): Promise<Connection> {
    const { stream, subject, durable } = this.names;
    const nc = await connect({ servers: this.options.url, maxReconnectAttempts: -1, name: 'svc-ingest' });
    try {
      const jsm = await nc.jetstreamManager();
      // Each created once (adding the same config again is harmless when processes race): an
      // operator may change them afterwards (replicas on a cluster, limits, the ack wait), and adding
      // ours again would refuse a changed stream or reset a changed consumer.
      const streamExists = await jsm.streams.info(stream).then(
        () => true,
        () => false,
      );
      if (!streamExists) {
        await jsm.streams.add({
          name: stream,
          subjects: [subject],
          storage: StorageType.File,
          retention: RetentionPolicy.Workqueue,
          discard: DiscardPolicy.New,
        });
      }
      const exists = await jsm.consumers.info(stream, durable).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await jsm.consumers.add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          ack_wait: (this.options.ackWaitMs ?? 30_000) * 1_000_000,
        });
      }
    } catch (err) {
      await nc.close();
      throw err;
    }
    return { nc, js: nc.jetstream() };
  }

  /** Follows the connection (healthy or not) in the background. */
  private attach(conn: Connection): void {
    this.conn = conn;
    this.up = true;
    void (async () => {
      for await (const s of conn.nc.status()) {
        if (s.type === 'disconnect') this.up = false;
        if (s.type === 'reconnect') this.up = true;
      }
    })();
  }

  /** Batches waiting or pulled but not yet acked, as the server counts them. */
  async refreshDepth(): Promise<number> {
    if (!this.conn) return this.pending;
    const c = await this.conn.js.consumers.get(this.names.stream, this.names.durable);
    const info = await c.info();
    this.pending = info.num_pending + info.num_ack_pending;
    return this.pending;
  }

  /** The batch's messages, sized for this server's max_payload; the first takes `firstClaim` when
   * given (a claim its transaction already inserted). */
  pack(rows: readonly EventRow[], firstClaim?: number): Packed[] {
    const max = this.conn?.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
    let first = firstClaim;
    return packRows(rows, max - HEADROOM, () => {
      if (first === undefined) return newBatchId();
      const claim = first;
      first = undefined;
      return claim;
    });
  }

  /** The batch as one version 2 message (its body as received), or null when that would be too
   * large for this server (pack() then splits its rows). */
  packRaw(batch: RawBatch, claim: number): Packed | null {
    const max = this.conn?.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
    const data = encodeRaw(claim, batch, max - HEADROOM);
    return data ? { claim, events: batch.accepted.length, data } : null;
  }

  /** Publishes every message and resolves on the stream's acks (the messages are on disk on the
   * server); the claim id is the message id, so a publish the client retries is stored once. Opens
   * the circuit on a failure or a timeout. */
  async send(packed: readonly Packed[]): Promise<void> {
    const conn = this.conn;
    if (!conn || this.tripped) throw new Error('the ingest queue is not available');
    const timeout = this.options.publishTimeoutMs ?? PUBLISH_TIMEOUT_MS;
    try {
      await Promise.all(
        packed.map((p) => conn.js.publish(this.names.subject, p.data, { msgID: String(p.claim), timeout })),
      );
    } catch (err) {
      this.trip();
      throw err;
    }
    this.pending += packed.length;
  }

  /** Opens the circuit and probes the stream every probeMs until it answers. */
  private trip(): void {
    if (this.tripped || this.closed) return;
    this.tripped = true;
    this.options.onCircuit?.(true);
    const probe = () => {
      this.probe = setTimeout(() => {
        void this.reachable().then((ok) => {
          if (this.closed) return;
          if (!ok) return probe();
          this.tripped = false;
          this.probe = undefined;
          this.options.onCircuit?.(false);
        });
      }, this.options.probeMs ?? 1_000);
      this.probe.unref();
    };
    probe();
  }

  /** Whether the stream answers within the publish timeout's order (its consumer's info). */
  private async reachable(): Promise<boolean> {
    const conn = this.conn;
    if (!conn || conn.nc.isClosed()) return false;
    try {
      const jsm = await conn.nc.jetstreamManager({ timeout: 1_000 });
      await jsm.consumers.info(this.names.stream, this.names.durable);
      return true;
    } catch {
      return false;
    }
  }

  /** In messages (batches of at most 500 events), as last known. */
  depth(): number {
    return this.pending;
  }

  healthy(): boolean {
    return this.up && !this.tripped && this.conn !== undefined && !this.conn.nc.isClosed();
  }

  async next(maxEvents: number): Promise<Claim | null> {
    if (!this.conn) return null;
    const c = await this.conn.js.consumers.get(this.names.stream, this.names.durable);
    const info = await c.info();
    // Nacked messages awaiting redelivery count as ack-pending, not pending. Ack-pending ones held
    // by another writer make this fetch wait out `expires` for nothing: a 1 s cost, only then.
    // Those this process holds (a claim being written while the writer fetches the next) are not
    // waiting.
    const waiting = info.num_pending + Math.max(0, info.num_ack_pending - this.held);
    if (waiting === 0) return null;
    const max = Math.min(waiting, Math.max(1, Math.floor(maxEvents / MAX_BATCH)));
    const taken: JsMsg[] = [];
    for await (const m of await c.fetch({ max_messages: max, expires: 1_000 })) {
      taken.push(m);
      if (taken.length >= max) break;
    }
    if (taken.length === 0) return null;
    this.held += taken.length;
    const messages: BatchMessage[] = [];
    const readable: JsMsg[] = [];
    for (const m of taken) {
      const decoded = decodeMessage(m.data);
      if ('malformed' in decoded) {
        // Never redelivered: no writer could read it either.
        this.options.onPoison?.(decoded.malformed);
        m.term();
        this.held -= 1;
        continue;
      }
      messages.push(decoded);
      readable.push(m);
    }
    return {
      write: (tx) => storeMessages(tx, messages, new Date()),
      // A lost ack only means a redelivery, which finds no claim and stores nothing.
      done: async () => {
        for (const m of readable) m.ack();
        this.held -= readable.length;
        this.pending = Math.max(0, this.pending - readable.length);
      },
      retry: async () => {
        for (const m of readable) m.nak(1_000);
        this.held -= readable.length;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.probe) clearTimeout(this.probe);
    const nc = this.conn?.nc;
    if (nc && !nc.isClosed()) await nc.drain();
  }
}
