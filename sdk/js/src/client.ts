/**
 * SvcClient: typed events batched to POST /api/sdk/events, retried safely (every retry carries the
 * same event_id, which the server deduplicates), and experiment assignments with exposure logging.
 * Only `fetch`, AbortController, TextEncoder and timers are used, so it runs in browsers, Node ≥ 18,
 * Deno and Bun; `fetch`, the clock, timers and randomness can be injected.
 */
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, parseRetryAfter } from './backoff.js';
import {
  type Assignment,
  ENVELOPE_LIMITS,
  type EventPayloads,
  type EventType,
  EXPOSURE_EVENT,
  type IngestError,
  type IngestResponse,
  MAX_BATCH,
  type Platform,
  type WireEvent,
} from './events.gen.js';
import { BoundedQueue, type Queued } from './queue.js';
import { SDK_VERSION } from './version.js';

/** The part of a fetch Response the client reads. */
export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  keepalive?: boolean;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Something went wrong, reported to `onError` (never thrown from track or the background sender). */
export type SvcErrorEvent =
  /** The server answered 200/202 but refused some events (validation, quota): not retried. */
  | { kind: 'rejected'; errors: IngestError[] }
  /** A non-2xx answer. `retrying`: it will be tried again after `delayMs` (429, 408, 5xx). */
  | {
      kind: 'http';
      status: number;
      code: string | null;
      message: string;
      events: number;
      retrying: boolean;
      delayMs?: number;
    }
  /** No answer: connection refused or reset, or no answer within `requestTimeoutMs`. Retried. */
  | { kind: 'network'; message: string; events: number; retrying: boolean; delayMs?: number }
  /** Events given up on: the queue was full (the oldest go), an event too large for any request,
   * retries exhausted (`maxAttempts`), or tracked after close(). */
  | {
      kind: 'dropped';
      reason: 'queue_full' | 'too_large' | 'attempts_exhausted' | 'closed';
      events: number;
    };

export interface SvcStats {
  /** Events waiting to be sent. */
  queued: number;
  /** Events in a request now. */
  inFlight: number;
  /** Counts from the server's answers (a retry of a batch the server had stored comes back deduped). */
  accepted: number;
  rejected: number;
  deduped: number;
  /** Events dropped unsent: queue overflow (oldest first) or tracked after close(). */
  dropped: number;
  /** Events given up on: a permanent error (4xx other than 408/413/429), too large, retries exhausted. */
  failed: number;
  /** Requests sent, and how many of them were retries. */
  requests: number;
  retries: number;
}

export interface SvcClientOptions {
  /** An API key with scope sdk:ingest. */
  apiKey: string;
  /** The game every event belongs to (1 to 64 characters). */
  gameId: string;
  platform: Platform;
  /** The server's origin, e.g. https://svc.example.com (no trailing /api). */
  baseUrl: string;
  /** Defaults for track()'s options. */
  playerId?: string;
  sessionId?: string;
  /** Events per request, 1 to 500 (default 500). */
  batchSize?: number;
  /** A batch goes out this long after its first event at the latest (default 10 000 ms). */
  flushIntervalMs?: number;
  /** Events kept waiting at most; past it the oldest are dropped and counted (default 10 000). */
  maxQueueSize?: number;
  /** Bytes of JSON per request at most (default 1 000 000; the server takes 1 MiB). */
  maxBatchBytes?: number;
  /** Abort a request after this long and retry it (default 10 000 ms). */
  requestTimeoutMs?: number;
  /** Attempts per batch before it is given up (default Infinity: the bounded queue is the limit). */
  maxAttempts?: number;
  /** Retry waits: full jitter over base·2^(n-1) capped at max (defaults 500 ms and 30 000 ms). */
  backoff?: Partial<BackoffOptions>;
  /** How long getVariant remembers an assignment (default 300 000 ms). */
  assignmentTtlMs?: number;
  onError?: (event: SvcErrorEvent) => void;
  /** Flush when the page is hidden (browsers) or the process is about to exit (Node); default true. */
  lifecycle?: boolean;
  fetch?: FetchLike;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  timers?: Timers;
  /** [0, 1) (default Math.random), for the jitter. */
  random?: () => number;
  /** A new event_id, 8 to 40 characters (default crypto.randomUUID()). */
  newEventId?: () => string;
}

export interface TrackOptions {
  playerId?: string;
  sessionId?: string;
  /** The event's time (default now). */
  ts?: Date | string | number;
  /** Your own id (8 to 40 characters), e.g. to make a re-send idempotent across restarts. */
  eventId?: string;
}

/** track()'s arguments after the type: the payload may be left out when all its fields are optional. */
export type TrackArgs<T extends EventType> =
  // biome-ignore lint/complexity/noBannedTypes: {} is the point: "every field optional".
  {} extends EventPayloads[T]
    ? [payload?: EventPayloads[T], options?: TrackOptions]
    : [payload: EventPayloads[T], options?: TrackOptions];

export interface VariantOptions {
  /** Log an exposure (once per player and experiment) now; default true. */
  expose?: boolean;
  sessionId?: string;
}

/** A failed request of getVariant (or an unexpected answer). */
export class SvcRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'SvcRequestError';
  }
}

type PostResult =
  | { kind: 'ok'; body: IngestResponse }
  | { kind: 'too_large'; status: number; code: string | null; message: string }
  | { kind: 'permanent'; status: number; code: string | null; message: string }
  | {
      kind: 'retry';
      status: number | null;
      code: string | null;
      message: string;
      retryAfterMs: number | null;
    };

/** Keepalive requests share 64 KiB in browsers: a page-hide flush sends one batch below that. */
const KEEPALIVE_BYTES = 60_000;
const ASSIGNMENT_CACHE_MAX = 10_000;
const EXPOSED_MAX = 100_000;
const encoder = new TextEncoder();

function defaultEventId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  // Node 18 without the global crypto: 128 random bits as hex (32 characters).
  let id = '';
  for (let i = 0; i < 4; i += 1) {
    id += Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  }
  return id;
}

function unref(handle: unknown): void {
  (handle as { unref?: () => void } | null)?.unref?.();
}

function errorBody(text: string): { code: string | null; message: string | null } {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown; detail?: unknown };
    const message = body.message ?? body.detail;
    return {
      code: typeof body.code === 'string' ? body.code : null,
      message: typeof message === 'string' ? message : null,
    };
  } catch {
    return { code: null, message: null };
  }
}

function isIngestResponse(v: unknown): v is IngestResponse {
  const r = v as IngestResponse | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.accepted === 'number' &&
    typeof r.rejected === 'number' &&
    typeof r.deduped === 'number' &&
    Array.isArray(r.errors)
  );
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

export class SvcClient {
  private readonly apiKey: string;
  private readonly gameId: string;
  private readonly platform: Platform;
  private readonly baseUrl: string;
  private playerId: string | undefined;
  private sessionId: string | undefined;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly batchBudget: number;
  private readonly requestTimeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoff: BackoffOptions;
  private readonly assignmentTtlMs: number;
  private readonly onError: ((event: SvcErrorEvent) => void) | undefined;
  private readonly fetchFn: FetchLike;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly newEventId: () => string;

  private readonly queue: BoundedQueue<WireEvent>;
  private readonly counts = {
    inFlight: 0,
    accepted: 0,
    rejected: 0,
    deduped: 0,
    dropped: 0,
    failed: 0,
    requests: 0,
    retries: 0,
  };
  private flushTimer: unknown = null;
  private pumping: Promise<void> | null = null;
  /** Send partial batches too (flush, the interval timer, close, exit); else only full ones. */
  private draining = false;
  private closed = false;
  /** Set by close() when its time is up: requests are aborted, waits end, batches go back unsent. */
  private halted = false;
  private readonly wakers = new Set<() => void>();
  private readonly controllers = new Set<AbortController>();
  private readonly assignments = new Map<string, { value: Assignment; expires: number }>();
  private readonly pendingAssignments = new Map<string, Promise<Assignment>>();
  private readonly exposed = new Map<string, true>();
  private readonly detach: (() => void)[] = [];
  private exitFlushes = 0;

  constructor(options: SvcClientOptions) {
    if (!options.apiKey) throw new TypeError('SvcClient: apiKey is required');
    if (!options.gameId) throw new TypeError('SvcClient: gameId is required');
    if (!options.platform) throw new TypeError('SvcClient: platform is required');
    if (!options.baseUrl) throw new TypeError('SvcClient: baseUrl is required');
    const batchSize = options.batchSize ?? MAX_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) {
      throw new RangeError(`SvcClient: batchSize must be an integer from 1 to ${MAX_BATCH}`);
    }
    this.apiKey = options.apiKey;
    this.gameId = options.gameId;
    this.platform = options.platform;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.playerId = options.playerId;
    this.sessionId = options.sessionId;
    this.batchSize = batchSize;
    this.flushIntervalMs = options.flushIntervalMs ?? 10_000;
    // The body is {"api_key":"…","events":[…]}: what is left for the events (each counted with its comma).
    this.batchBudget = (options.maxBatchBytes ?? 1_000_000) - (encoder.encode(this.apiKey).length + 32);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.assignmentTtlMs = options.assignmentTtlMs ?? 300_000;
    this.onError = options.onError;
    const globalFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const fetchFn = options.fetch ?? (globalFetch ? (url, init) => globalFetch(url, init) : undefined);
    if (!fetchFn) throw new TypeError('SvcClient: no fetch here; pass options.fetch');
    this.fetchFn = fetchFn;
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? {
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
    };
    this.random = options.random ?? Math.random;
    this.newEventId = options.newEventId ?? defaultEventId;
    this.queue = new BoundedQueue(options.maxQueueSize ?? 10_000);
    if (options.lifecycle !== false) this.attachLifecycle();
  }

  /** Sets the player (and session) later events default to. */
  identify(playerId: string, sessionId?: string): void {
    this.playerId = playerId;
    this.sessionId = sessionId;
  }

  /**
   * Queues one event; returns its event_id (null when dropped because the client is closed or the
   * event alone is too large for a request). Sent within `flushIntervalMs`, or at once when a batch
   * is full.
   */
  track<T extends EventType>(type: T, ...args: TrackArgs<T>): string | null {
    const [payload, options = {}] = args as [EventPayloads[T] | undefined, TrackOptions | undefined];
    const playerId = options.playerId ?? this.playerId;
    if (!playerId) throw new TypeError('SvcClient.track: no playerId (pass it, or set it with identify)');
    if (this.closed) {
      this.drop('closed', 1);
      return null;
    }
    const eventId = options.eventId ?? this.newEventId();
    const { min, max } = ENVELOPE_LIMITS.event_id;
    if (eventId.length < min || eventId.length > max) {
      throw new RangeError(`SvcClient.track: eventId must be ${min} to ${max} characters`);
    }
    const event: WireEvent = {
      event_id: eventId,
      ts: this.timestamp(options.ts),
      platform: this.platform,
      game_id: this.gameId,
      player_id: playerId,
      type,
      payload: (payload ?? {}) as Record<string, unknown>,
    };
    const sessionId = options.sessionId ?? this.sessionId;
    if (sessionId !== undefined) event.session_id = sessionId;
    const bytes = encoder.encode(JSON.stringify(event)).length + 1;
    if (bytes > this.batchBudget) {
      this.counts.failed += 1;
      this.report({ kind: 'dropped', reason: 'too_large', events: 1 });
      return null;
    }
    this.enqueue(this.queue.push({ item: event, bytes }));
    if (this.queue.length >= this.batchSize) void this.pump();
    else this.armTimer();
    return eventId;
  }

  /**
   * Sends everything queued now (retrying as usual) and resolves once it is delivered or given up
   * on: true. With `timeoutMs`, resolves false if that comes first (sending goes on).
   */
  async flush(options: { timeoutMs?: number } = {}): Promise<boolean> {
    const done = this.pump(true).then(() => true);
    if (options.timeoutMs === undefined) return done;
    let timer: unknown;
    const timeout = new Promise<boolean>((resolve) => {
      timer = this.timers.setTimeout(() => resolve(false), options.timeoutMs!);
    });
    try {
      return await Promise.race([done, timeout]);
    } finally {
      this.timers.clearTimeout(timer);
    }
  }

  /**
   * Stops taking events, flushes for up to `timeoutMs` (default 10 000), then aborts what is still
   * in the air (those events stay counted in stats().queued) and detaches the page and process hooks.
   */
  async close(options: { timeoutMs?: number } = {}): Promise<SvcStats> {
    this.closed = true;
    this.clearTimer();
    for (const off of this.detach.splice(0)) off();
    const drained = await this.flush({ timeoutMs: options.timeoutMs ?? 10_000 });
    if (!drained) {
      this.halted = true;
      for (const c of this.controllers) c.abort();
      for (const wake of this.wakers) wake();
      await this.pumping;
    }
    return this.stats();
  }

  stats(): SvcStats {
    const { inFlight, ...rest } = this.counts;
    return {
      queued: this.queue.length,
      inFlight,
      ...rest,
      dropped: this.counts.dropped + this.queue.dropped,
    };
  }

  /**
   * The variant of `experimentKey` for the player (GET /api/sdk/experiments/{key}/assignment),
   * remembered for `assignmentTtlMs`; concurrent calls share one request. Logs the exposure (a
   * custom event experiment_exposure, once per player and experiment) unless `expose: false`.
   * Rejects with SvcRequestError (404: no such experiment for this key's team).
   */
  async getVariant(experimentKey: string, playerId?: string, options: VariantOptions = {}): Promise<string> {
    const player = playerId ?? this.playerId;
    if (!player) throw new TypeError('SvcClient.getVariant: no playerId');
    const assignment = await this.getAssignment(experimentKey, player);
    if (options.expose !== false) {
      this.logExposure(experimentKey, assignment.variant, {
        playerId: player,
        ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      });
    }
    return assignment.variant;
  }

  /** The whole assignment (cached like getVariant's); logs nothing. */
  getAssignment(experimentKey: string, playerId: string): Promise<Assignment> {
    const key = `${experimentKey}\u0000${playerId}`;
    const hit = this.assignments.get(key);
    if (hit && hit.expires > this.now()) return Promise.resolve(hit.value);
    const pending = this.pendingAssignments.get(key);
    if (pending) return pending;
    const request = this.fetchAssignment(experimentKey, playerId)
      .then((value) => {
        bounded(
          this.assignments,
          key,
          { value, expires: this.now() + this.assignmentTtlMs },
          ASSIGNMENT_CACHE_MAX,
        );
        return value;
      })
      .finally(() => this.pendingAssignments.delete(key));
    this.pendingAssignments.set(key, request);
    return request;
  }

  /**
   * Logs that the player was shown `variant` of `experimentKey` (the custom event the experiment's
   * results count), once per player and experiment; returns whether it logged now.
   */
  logExposure(experimentKey: string, variant: string, options: TrackOptions = {}): boolean {
    const playerId = options.playerId ?? this.playerId;
    if (!playerId) throw new TypeError('SvcClient.logExposure: no playerId');
    const key = `${experimentKey}\u0000${playerId}`;
    if (this.exposed.has(key)) return false;
    const id = this.track(
      'custom',
      { name: EXPOSURE_EVENT, experiment: experimentKey, variant },
      { ...options, playerId },
    );
    if (id === null) return false;
    bounded(this.exposed, key, true, EXPOSED_MAX);
    return true;
  }

  // --- sending ---------------------------------------------------------------------------------

  private timestamp(ts: TrackOptions['ts']): string {
    if (ts === undefined) return new Date(this.now()).toISOString();
    if (typeof ts === 'string') return ts;
    return (typeof ts === 'number' ? new Date(ts) : ts).toISOString();
  }

  private enqueue(dropped: Queued<WireEvent>[]): void {
    if (dropped.length > 0) this.report({ kind: 'dropped', reason: 'queue_full', events: dropped.length });
  }

  private drop(reason: 'closed', events: number): void {
    this.counts.dropped += events;
    this.report({ kind: 'dropped', reason, events });
  }

  private report(event: SvcErrorEvent): void {
    try {
      this.onError?.(event);
    } catch {
      // A throwing callback must not stop the sender.
    }
  }

  private armTimer(): void {
    if (this.flushTimer !== null || this.closed) return;
    this.flushTimer = this.timers.setTimeout(() => {
      this.flushTimer = null;
      void this.pump(true);
    }, this.flushIntervalMs);
    unref(this.flushTimer);
  }

  private clearTimer(): void {
    if (this.flushTimer === null) return;
    this.timers.clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  /**
   * Sends batches one at a time (one sender at a time): full ones, or with `drain` everything
   * queued. A partial batch left over waits for the interval timer.
   */
  private pump(drain = false): Promise<void> {
    if (drain) {
      this.draining = true;
      this.clearTimer();
    }
    if (this.pumping) return this.pumping;
    this.pumping = (async () => {
      try {
        while (
          !this.halted &&
          (this.queue.length >= this.batchSize || (this.draining && this.queue.length > 0))
        ) {
          await this.deliver(this.queue.take(this.batchSize, this.batchBudget));
        }
      } finally {
        this.draining = false;
        this.pumping = null;
        if (this.queue.length > 0 && !this.halted) this.armTimer();
      }
    })();
    return this.pumping;
  }

  /** Posts `batch` until it is stored, refused for good, or the client halts (then it goes back). */
  private async deliver(batch: Queued<WireEvent>[]): Promise<void> {
    const n = batch.length;
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 1) this.counts.retries += 1;
      this.counts.inFlight += n;
      const result = await this.post(batch, false).finally(() => {
        this.counts.inFlight -= n;
      });
      if (result.kind === 'ok') return this.settle(result.body);
      if (result.kind === 'too_large' && n > 1) {
        // 413: the halves fit (each is retried on its own).
        const half = Math.ceil(n / 2);
        await this.deliver(batch.slice(0, half));
        return this.deliver(batch.slice(half));
      }
      if (result.kind !== 'retry') {
        this.counts.failed += n;
        const { status, code, message } = result;
        this.report({ kind: 'http', status, code, message, events: n, retrying: false });
        return;
      }
      if (this.halted) {
        this.enqueue(this.queue.unshift(batch));
        return;
      }
      if (attempt >= this.maxAttempts) {
        this.counts.failed += n;
        this.reportRetry(result, n, false);
        this.report({ kind: 'dropped', reason: 'attempts_exhausted', events: n });
        return;
      }
      const delayMs = Math.max(result.retryAfterMs ?? 0, backoffDelay(attempt, this.backoff, this.random));
      this.reportRetry(result, n, true, delayMs);
      await this.sleep(delayMs);
      if (this.halted) {
        this.enqueue(this.queue.unshift(batch));
        return;
      }
    }
  }

  private reportRetry(
    result: Extract<PostResult, { kind: 'retry' }>,
    events: number,
    retrying: boolean,
    delayMs?: number,
  ): void {
    const delay = delayMs === undefined ? {} : { delayMs };
    if (result.status === null) {
      this.report({ kind: 'network', message: result.message, events, retrying, ...delay });
    } else {
      const { status, code, message } = result;
      this.report({ kind: 'http', status, code, message, events, retrying, ...delay });
    }
  }

  private settle(body: IngestResponse): void {
    this.counts.accepted += body.accepted;
    this.counts.rejected += body.rejected;
    this.counts.deduped += body.deduped;
    if (body.errors.length > 0) this.report({ kind: 'rejected', errors: body.errors });
  }

  /** Waits `ms`, or less if close() halts the client or the process is about to exit. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.timers.clearTimeout(handle);
        this.wakers.delete(wake);
        resolve();
      };
      const handle = this.timers.setTimeout(wake, ms);
      unref(handle);
      this.wakers.add(wake);
    });
  }

  private async post(batch: Queued<WireEvent>[], keepalive: boolean): Promise<PostResult> {
    this.counts.requests += 1;
    const body = JSON.stringify({ api_key: this.apiKey, events: batch.map((e) => e.item) });
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = this.timers.setTimeout(() => controller.abort(), this.requestTimeoutMs);
    unref(timer);
    try {
      const res = await this.fetchFn(`${this.baseUrl}/api/sdk/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-sdk-version': `js/${SDK_VERSION}` },
        body,
        signal: controller.signal,
        ...(keepalive ? { keepalive: true } : {}),
      });
      const text = await res.text();
      const { status } = res;
      if (status >= 200 && status < 300) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        // Unreadable: send again (the server deduplicates whatever it had stored).
        if (!isIngestResponse(parsed)) {
          return { kind: 'retry', status, code: null, message: 'unreadable answer', retryAfterMs: null };
        }
        return { kind: 'ok', body: parsed };
      }
      const { code, message } = errorBody(text);
      const detail = { status, code, message: message ?? `HTTP ${status}` };
      if (status === 413) return { kind: 'too_large', ...detail };
      if (status === 408 || status === 429 || status >= 500) {
        return {
          kind: 'retry',
          ...detail,
          retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), this.now()),
        };
      }
      return { kind: 'permanent', ...detail };
    } catch (err) {
      const message = controller.signal.aborted
        ? this.halted
          ? 'aborted by close()'
          : `no answer within ${this.requestTimeoutMs} ms`
        : err instanceof Error
          ? err.message
          : String(err);
      return { kind: 'retry', status: null, code: null, message, retryAfterMs: null };
    } finally {
      this.timers.clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  private async fetchAssignment(experimentKey: string, playerId: string): Promise<Assignment> {
    const query = new URLSearchParams({ game_id: this.gameId, player_id: playerId });
    const url = `${this.baseUrl}/api/sdk/experiments/${encodeURIComponent(experimentKey)}/assignment?${query}`;
    const controller = new AbortController();
    const timer = this.timers.setTimeout(() => controller.abort(), this.requestTimeoutMs);
    unref(timer);
    try {
      let res: FetchResponse;
      try {
        res = await this.fetchFn(url, {
          method: 'GET',
          headers: { 'x-api-key': this.apiKey, 'x-svc-sdk-version': `js/${SDK_VERSION}` },
          signal: controller.signal,
        });
      } catch (err) {
        const message = controller.signal.aborted
          ? `no answer within ${this.requestTimeoutMs} ms`
          : err instanceof Error
            ? err.message
            : String(err);
        throw new SvcRequestError(message, null, null);
      }
      const text = await res.text();
      if (res.status !== 200) {
        const { code, message } = errorBody(text);
        throw new SvcRequestError(message ?? `HTTP ${res.status}`, res.status, code);
      }
      const body = JSON.parse(text) as Assignment;
      if (typeof body?.variant !== 'string') throw new SvcRequestError('unreadable answer', 200, null);
      return body;
    } finally {
      this.timers.clearTimeout(timer);
    }
  }

  // --- page and process lifecycle --------------------------------------------------------------

  private attachLifecycle(): void {
    const g = globalThis as {
      document?: {
        visibilityState?: string;
        addEventListener(type: string, listener: () => void): void;
        removeEventListener(type: string, listener: () => void): void;
      };
      addEventListener?: (type: string, listener: () => void) => void;
      removeEventListener?: (type: string, listener: () => void) => void;
      process?: {
        on?: (event: string, listener: () => void) => void;
        off?: (event: string, listener: () => void) => void;
      };
    };
    const doc = g.document;
    if (doc && typeof doc.addEventListener === 'function') {
      const onVisibility = () => {
        if (doc.visibilityState === 'hidden') this.flushOnHide();
      };
      const onHide = () => this.flushOnHide();
      doc.addEventListener('visibilitychange', onVisibility);
      g.addEventListener?.('pagehide', onHide);
      this.detach.push(() => {
        doc.removeEventListener('visibilitychange', onVisibility);
        g.removeEventListener?.('pagehide', onHide);
      });
      return;
    }
    const proc = g.process;
    if (proc && typeof proc.on === 'function') {
      const onBeforeExit = () => this.flushOnExit();
      proc.on('beforeExit', onBeforeExit);
      this.detach.push(() => proc.off?.('beforeExit', onBeforeExit));
    }
  }

  /** The page is going away: one keepalive request (browsers cap those at 64 KiB in all). */
  flushOnHide(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue.take(this.batchSize, Math.min(this.batchBudget, KEEPALIVE_BYTES));
    const n = batch.length;
    this.counts.inFlight += n;
    void this.post(batch, true).then((result) => {
      this.counts.inFlight -= n;
      if (result.kind === 'ok') this.settle(result.body);
      else if (result.kind === 'retry' || (result.kind === 'too_large' && n > 1)) {
        // Still here (the page came back or it was only hidden): the usual sender takes it again.
        this.enqueue(this.queue.unshift(batch));
        this.armTimer();
      } else {
        this.counts.failed += n;
        const { status, code, message } = result;
        this.report({ kind: 'http', status, code, message, events: n, retrying: false });
      }
    });
  }

  /** Node is about to exit with events queued: send now, skipping the wait of a retry (3 tries). */
  private flushOnExit(): void {
    if (this.queue.length === 0 && this.wakers.size === 0) return;
    if (this.exitFlushes >= 3) return;
    this.exitFlushes += 1;
    for (const wake of this.wakers) wake();
    void this.pump(true);
  }
}
