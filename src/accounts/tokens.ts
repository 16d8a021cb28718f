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

export class TokenSigner {
  private readonly key: Uint8Array;

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
      return { userId, tokenVersion: payload.tv, sessionId: payload.sid };
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
