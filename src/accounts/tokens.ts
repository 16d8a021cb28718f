/**
 * Access tokens (HS256 JWTs with sub, tv, sid, jti, iat, exp), opaque refresh tokens and API-key
 * secrets. Only hashes of refresh tokens and keys are ever stored.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export const ACCESS_TTL_SEC = 15 * 60;
export const REFRESH_TTL_SEC = 30 * 24 * 60 * 60;
export const API_KEY_PREFIX = 'svc_live_';

export interface AccessClaims {
  userId: number;
  tokenVersion: number;
  /** The login session (refresh-token family) this token belongs to; CSRF tokens bind to it. */
  sessionId: string;
}

/** Verified tokens kept in memory (each at most until it expires); past this many the memory starts over. */
const VERIFIED_KEPT = 10_000;

export class TokenSigner {
  private readonly key: Uint8Array;
  /**
   * Tokens whose signature was checked, with their claims and expiry (epoch seconds). A client sends
   * the same token with every request for 15 minutes, and checking an HMAC through WebCrypto costs
   * more than the rest of a cached read; the token's version (logout, password change) is still
   * checked on every request by the caller.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ tv: claims.tokenVersion, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TTL_SEC)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token; undefined for anything else. */
  async verify(token: string, now: Date): Promise<AccessClaims | undefined> {
    const nowSec = Math.floor(now.getTime() / 1000);
    const kept = this.verified.get(token);
    if (kept) {
      // As jose decides: expired once exp <= now.
      if (kept.exp > nowSec) return kept.claims;
      this.verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: now,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      const userId = Number(payload.sub);
      if (
        !Number.isSafeInteger(userId) ||
        typeof payload.tv !== 'number' ||
        typeof payload.sid !== 'string'
      ) {
        return undefined;
      }
      const claims = { userId, tokenVersion: payload.tv, sessionId: payload.sid };
      if (this.verified.size >= VERIFIED_KEPT) this.verified.clear();
      this.verified.set(token, { claims, exp: payload.exp! });
      return claims;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return undefined;
      throw err;
    }
  }
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** E-mail verification links work for 24 hours, password reset links for 1 hour. */
export const VERIFY_TTL_MS = 24 * 3_600_000;
export const RESET_TTL_MS = 3_600_000;

/** A single-use account token (verification, reset): 32 random bytes, base64url; stored hashed. */
export function newAccountToken(): string {
  return randomBytes(32).toString('base64url');
}

export function newApiKey(): { key: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}
