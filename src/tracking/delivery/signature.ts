/**
 * Webhook signatures: `X-Svc-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`
 * with `X-Svc-Timestamp` in unix seconds. Signing the timestamp with the body lets a receiver
 * refuse replays (reject timestamps more than a few minutes old) without trusting a header alone.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Svc-Signature';
export const TIMESTAMP_HEADER = 'X-Svc-Timestamp';

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The receiver's side (also the README's recipe): recompute over the raw body bytes as received,
 * compare in constant time, and refuse stale timestamps.
 */
export function verifySignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowSec: number,
  toleranceSec = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSec - ts) > toleranceSec || !headers.signature) return false;
  const expected = Buffer.from(signPayload(secret, ts, rawBody));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
