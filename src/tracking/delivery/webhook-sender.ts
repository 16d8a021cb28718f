/**
 * One webhook POST: checks the target (unless private targets are allowed), signs the exact body
 * bytes it sends, and classifies the answer as delivered, failed (do not retry) or retry. It
 * never follows redirects (a redirect could point inside) and never logs the URL or secret.
 */
import { Agent, request } from 'undici';
import { signPayload } from './signature.js';
import { checkWebhookTarget, guardedLookup, parseWebhookUrl, type Resolver, UrlRefused } from './ssrf.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export type AttemptOutcome =
  | { kind: 'delivered'; status: number | null }
  | { kind: 'failed'; status: number | null; error: string }
  | { kind: 'retry'; status: number | null; error: string };

export interface WebhookSenderOptions {
  allowPrivate: boolean;
  resolve: Resolver;
}

/** A connection pool for one run; the lookup refuses private addresses at connect time too. */
export function webhookAgent(o: WebhookSenderOptions): Agent {
  return new Agent({
    connect: {
      timeout: WEBHOOK_TIMEOUT_MS,
      ...(o.allowPrivate ? {} : { lookup: guardedLookup(o.resolve) }),
    },
    headersTimeout: WEBHOOK_TIMEOUT_MS,
    bodyTimeout: WEBHOOK_TIMEOUT_MS,
  });
}

/** 2xx delivers; 408/429 and 5xx retry; other 4xx and 3xx fail at once. */
export function classifyStatus(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', status, error: `receiver answered HTTP ${status}` };
  }
  if (status >= 300 && status < 400) {
    return { kind: 'failed', status, error: `receiver answered HTTP ${status}; redirects are not followed` };
  }
  return { kind: 'failed', status, error: `receiver answered HTTP ${status}` };
}

function refusedIn(err: unknown): UrlRefused | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof UrlRefused) return e;
  }
  return undefined;
}

function networkError(err: unknown, timedOut: boolean): string {
  if (timedOut) return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  const code = (err as { code?: unknown }).code;
  const name = err instanceof Error ? err.name : 'Error';
  return `network error: ${typeof code === 'string' ? code : name}`;
}

export async function sendWebhook(
  agent: Agent,
  o: WebhookSenderOptions,
  target: { url: string; secret: string },
  body: string,
  timestampSec: number,
  signal?: AbortSignal,
): Promise<AttemptOutcome> {
  try {
    const url = parseWebhookUrl(target.url);
    if (!o.allowPrivate) await checkWebhookTarget(url, o.resolve);
  } catch (err) {
    if (err instanceof UrlRefused)
      return { kind: 'failed', status: null, error: `URL refused: it ${err.message}` };
    throw err;
  }
  const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  try {
    const res = await request(target.url, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'svc-webhooks/1',
        'x-svc-timestamp': String(timestampSec),
        'x-svc-signature': signPayload(target.secret, timestampSec, body),
      },
      body,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
    return classifyStatus(res.statusCode);
  } catch (err) {
    const refused = refusedIn(err);
    if (refused) return { kind: 'failed', status: null, error: `URL refused: it ${refused.message}` };
    return { kind: 'retry', status: null, error: networkError(err, timeout.aborted) };
  }
}
