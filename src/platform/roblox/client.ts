/**
 * HTTP for the Roblox web APIs: GET + JSON through one undici Agent, a cap on requests in flight,
 * a per-attempt timeout and bounded, jittered exponential retries. It never throws for an HTTP or
 * network problem: every outcome is a value, so a caller can turn a failed batch into `failed` ids
 * (a gap) instead of a crash or a zero.
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
  /** Injected so tests neither wait nor depend on chance. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Wall clock for Retry-After given as an HTTP date. */
  now?: () => number;
  /** An own dispatcher (then close() leaves it open); otherwise the client owns an Agent. */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

export type FailReason = 'http_4xx' | 'malformed_json' | 'timeout' | 'network' | 'retries_exhausted';

export type Fetched =
  | { ok: true; body: unknown }
  | { ok: false; reason: FailReason; status?: number; detail: string };

export interface RobloxClient {
  getJson(url: URL): Promise<Fetched>;
  close(): Promise<void>;
}

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

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

/** A counting semaphore: at most `max` tasks run at once, the rest wait in arrival order. */
function limiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // hand the slot over without releasing it
      else active -= 1;
    }
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

  async function attempt(url: URL): Promise<Attempt> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const res = await request(url, { method: 'GET', headers, dispatcher, signal: abort.signal });
      const status = res.statusCode;
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
      if (abort.signal.aborted)
        return { kind: 'retry', reason: 'timeout', detail: `no answer in ${timeoutMs} ms` };
      return { kind: 'retry', reason: 'network', detail: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Equal jitter: half the exponential step is fixed, half random, so retries spread but never collapse to 0. */
  const backoff = (attemptNo: number) => {
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (attemptNo - 1));
    return Math.round(step / 2 + random() * (step / 2));
  };

  async function getJson(url: URL): Promise<Fetched> {
    for (let n = 1; ; n += 1) {
      // The slot is held for one attempt only: a request sleeping before its retry blocks nobody.
      const outcome = await limit(() => attempt(url));
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
      await sleep(wait);
    }
  }

  return {
    getJson,
    async close() {
      await owned?.close();
    },
  };
}
