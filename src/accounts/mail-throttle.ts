/**
 * Rate limits of the account-mail endpoints (password forgot and reset, verification resend and
 * verify), per address and per client IP, in the shared Kv store (GCRA, as the read limits).
 * Per address: a few mails an hour, so nobody can flood a mailbox; per IP: more, for offices that
 * share one address. Counted whether or not the address has an account, so a 429 tells nothing
 * about it either. Keys hold a hash of the address, never the address.
 */
import { errors } from '../errors.js';
import type { Kv, RateRule } from '../kv/index.js';
import { sha256 } from './tokens.js';

const HOUR_MS = 3_600_000;

/** Burst `perHour` at once, then one every hour / perHour. */
function perHour(perHour: number): RateRule {
  return { burst: perHour, emissionMs: HOUR_MS / perHour };
}

export const MAIL_LIMITS = {
  /** Mails (reset or verification) to one address. */
  address: perHour(5),
  /** Forgot, resend, reset and verify requests from one IP. */
  ip: perHour(30),
} as const;

export type MailAction = 'forgot' | 'resend' | 'reset' | 'verify';

const MESSAGE = 'Too many requests for account e-mails; wait before trying again.';

/**
 * Counts one request from `ip` (and to `email`, when the action mails an address); throws 429
 * rate_limited with Retry-After when either budget is spent.
 */
export async function assertMailAllowed(
  kv: Kv,
  action: MailAction,
  scope: { ip: string; email?: string },
  nowMs: number,
): Promise<void> {
  const ip = await kv.rateLimit(`acctmail:ip:${action}:${scope.ip}`, MAIL_LIMITS.ip, nowMs);
  if (!ip.allowed) throw errors.rateLimited(ip.retryAfterSec, MESSAGE);
  if (scope.email === undefined) return;
  const address = await kv.rateLimit(`acctmail:addr:${sha256(scope.email)}`, MAIL_LIMITS.address, nowMs);
  if (!address.allowed) throw errors.rateLimited(address.retryAfterSec, MESSAGE);
}
