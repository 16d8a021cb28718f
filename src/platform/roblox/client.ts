/**
 * HTTP for the Roblox web APIs: GET + JSON through one undici Agent, a cap on requests in flight,
 * a per-attempt timeout and bounded, jittered exponential retries. It never throws for an HTTP or
 * network problem: every outcome is a value, so a caller can turn a failed batch into `failed` ids
 * (a gap) instead of a crash or a zero. A caller's AbortSignal (the source's collection time budget)
 * ends a request wherever it is: waiting for a slot, in flight, or sleeping before a retry.
 */
import { Agent, type Dispatcher, request } from 'undici';

export interface RobloxClientOptions {
  /** Requests in flight at once, across every endpoint (the legacy web APIs publish no rate, so stay gentle). */
  concurrency?: number;
  /** Per attempt: connecting, headers and body together. */
  timeoutMs?: number;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /** First backoff step; it doubles per attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this ends the retries: the collector comes back in 5 minutes anyway. */
  maxRetryAfterMs?: number;
  /** Injected so tests neither wait nor depend on chance. A sleep that ignores the signal is still cut short. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Wall clock for Retry-After given as an HTTP date. */
  now?: () => number;
  /** An own dispatcher (then close() leaves it open); otherwise the client owns an Agent. */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

/** `aborted`: the caller's signal ended the request (never retried). */
export type FailReason =
  | 'http_4xx'
  | 'malformed_json'
  | 'timeout'
  | 'network'
  | 'retries_exhausted'
  | 'aborted';

export type Fetched =
  | { ok: true; body: unknown }
  | { ok: false; reason: FailReason; status?: number; detail: string };

export interface GetOptions {
  /** Ends the request (queued, in flight or between retries) with reason `aborted`. */
  signal?: AbortSignal;
}

export interface RobloxClient {
  getJson(url: URL, options?: GetOptions): Promise<Fetched>;
  /**
   * POST `body` as JSON (the catalog's batch details). Roblox refuses a POST without an
   * X-CSRF-Token with 403 and hands out the token in that answer's `x-csrf-token` header: the
   * client keeps it and asks again at once (that counts as an attempt).
   */
  postJson(url: URL, body: unknown, options?: GetOptions): Promise<Fetched>;
  close(): Promise<void>;
}

const abortedResult = (where: string): Fetched => ({
  ok: false,
  reason: 'aborted',
  detail: `aborted by the caller ${where}`,
});

/** One attempt's outcome: done (success or a failure retrying cannot fix) or worth another try. */
type Attempt =
  | { kind: 'done'; result: Fetched }
  | { kind: 'retry'; reason: FailReason; status?: number; detail: string; retryAfterMs?: number };

export const DEFAULTS = {
  concurrency: 4,
  timeoutMs: 10_000,
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
} as const;

/** A timer that an abort clears, so a cut request leaves no sleeping timer behind. */
const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Resolves true after `ms`, or false as soon as `signal` aborts (even if `sleep` ignores it). */
async function pause(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (!signal) {
    await sleep(ms);
    return true;
  }
  if (signal.aborted) return false;
  let onAbort = () => {};
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([sleep(ms, signal).then(() => !signal.aborted), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Retry-After as milliseconds to wait: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when unusable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  // All three HTTP-date forms open with a day name; Date.parse alone would accept "-5" as a year.
  if (!/^[A-Za-z]{3}/.test(raw)) return undefined;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * A counting semaphore: at most `max` holders at once, the rest wait in arrival order. A waiter
 * whose signal aborts leaves the queue (acquire answers false) without taking a slot.
 */
function limiter(max: number) {
  let active = 0;
  const waiting = new Set<() => void>(); // a Set keeps arrival order and lets a waiter leave
  return {
    acquire(signal?: AbortSignal): Promise<boolean> {
      if (signal?.aborted) return Promise.resolve(false);
      if (active < max) {
        active += 1;
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const onAbort = () => {
          waiting.delete(grant);
          resolve(false);
        };
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(true);
        };
        waiting.add(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    release(): void {
      const next = waiting.values().next();
      if (next.done) active -= 1;
      else {
        waiting.delete(next.value);
        next.value(); // hand the slot over without releasing it
      }
    },
  };
}

export function createRobloxClient(options: RobloxClientOptions = {}): RobloxClient {
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts);
  const baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const owned = options.dispatcher ? undefined : new Agent({ connections: concurrency });
  const dispatcher: Dispatcher = options.dispatcher ?? owned!;
  const headers = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'svc-market-collector/0.1',
  };
  const limit = limiter(concurrency);
  let csrfToken: string | undefined;

  async function attempt(url: URL, signal: AbortSignal | undefined, body?: string): Promise<Attempt> {
    if (signal?.aborted) return { kind: 'done', result: abortedResult('before it was sent') };
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    const onCallerAbort = () => abort.abort();
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const sentToken = csrfToken;
      const res =
        body === undefined
          ? await request(url, { method: 'GET', headers, dispatcher, signal: abort.signal })
          : await request(url, {
              method: 'POST',
              headers: {
                ...headers,
                'content-type': 'application/json',
                ...(sentToken ? { 'x-csrf-token': sentToken } : {}),
              },
              body,
              dispatcher,
              signal: abort.signal,
            });
      const status = res.statusCode;
      const token = res.headers['x-csrf-token'];
      if (body !== undefined && status === 403 && typeof token === 'string' && token !== sentToken) {
        await res.body.dump();
        csrfToken = token;
        return {
          kind: 'retry',
          reason: 'http_4xx',
          status,
          detail: 'HTTP 403 (CSRF token renewed)',
          retryAfterMs: 0,
        };
      }
      if (status === 429 || status === 408 || status >= 500) {
        await res.body.dump();
        const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now());
        return { kind: 'retry', reason: 'retries_exhausted', status, detail: `HTTP ${status}`, retryAfterMs };
      }
      const text = await res.body.text();
      if (status < 200 || status >= 300) {
        // e.g. the recorded 400 {"errors":[{"code":8,…}]}: asking again will not change the answer.
        const detail = `HTTP ${status} ${text.slice(0, 200)}`;
        return { kind: 'done', result: { ok: false, reason: 'http_4xx', status, detail } };
      }
      try {
        return { kind: 'done', result: { ok: true, body: JSON.parse(text) as unknown } };
      } catch {
        const detail = `HTTP ${status} body is not JSON`;
        return { kind: 'done', result: { ok: false, reason: 'malformed_json', status, detail } };
      }
    } catch (err) {
      if (signal?.aborted) return { kind: 'done', result: abortedResult('in flight') };
      if (timedOut) return { kind: 'retry', reason: 'timeout', detail: `no answer in ${timeoutMs} ms` };
      return { kind: 'retry', reason: 'network', detail: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Equal jitter: half the exponential step is fixed, half random, so retries spread but never collapse to 0. */
  const backoff = (attemptNo: number) => {
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (attemptNo - 1));
    return Math.round(step / 2 + random() * (step / 2));
  };

  async function send(url: URL, options: GetOptions, body?: string): Promise<Fetched> {
    const { signal } = options;
    for (let n = 1; ; n += 1) {
      // The slot is held for one attempt only: a request sleeping before its retry blocks nobody.
      if (!(await limit.acquire(signal))) return abortedResult('before it was sent');
      let outcome: Attempt;
      try {
        outcome = await attempt(url, signal, body);
      } finally {
        limit.release();
      }
      if (outcome.kind === 'done') return outcome.result;
      const { status, detail } = outcome;
      const exhausted = (why: string): Fetched => ({
        ok: false,
        reason: outcome.reason,
        ...(status === undefined ? {} : { status }),
        detail: `${detail}; ${why}`,
      });
      if (n >= maxAttempts) return exhausted(`gave up after ${n} attempts`);
      const wait = outcome.retryAfterMs ?? backoff(n);
      if (wait > maxRetryAfterMs) return exhausted(`Retry-After ${wait} ms is beyond ${maxRetryAfterMs} ms`);
      if (!(await pause(sleep, wait, signal))) return abortedResult(`waiting to retry after: ${detail}`);
    }
  }

  return {
    getJson: (url, options = {}) => send(url, options),
    postJson: (url, body, options = {}) => send(url, options, JSON.stringify(body)),
    async close() {
      await owned?.close();
    },
  };
}
