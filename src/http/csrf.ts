/**
 * Signed double-submit CSRF tokens: `nonce.mac` where mac = HMAC(server key, sessionId.nonce).
 * The web app echoes the svc_csrf cookie in X-CSRF-Token; the server checks that header equals
 * the cookie AND that the token was minted for the caller's own session, so a token planted from
 * another session (or forged without the key) fails.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CSRF_COOKIE } from './cookies.js';

export class CsrfTokens {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    // A key of its own, derived from the server secret, so a CSRF MAC can never pass for a JWT one.
    this.key = createHmac('sha256', serverSecret).update('svc csrf v1').digest();
  }

  private mac(sessionId: string, nonce: string): string {
    return createHmac('sha256', this.key).update(`${sessionId}.${nonce}`).digest('base64url');
  }

  mint(sessionId: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.mac(sessionId, nonce)}`;
  }

  /** verify() on a request: its X-CSRF-Token header against its svc_csrf cookie. */
  verifyRequest(
    request: {
      headers: Record<string, string | string[] | undefined>;
      cookies: Record<string, string | undefined>;
    },
    sessionId: string,
  ): boolean {
    const header = request.headers['x-csrf-token'];
    return this.verify(
      typeof header === 'string' ? header : undefined,
      request.cookies[CSRF_COOKIE],
      sessionId,
    );
  }

  /** True when header and cookie carry the same token and it was minted for `sessionId`. */
  verify(header: string | undefined, cookie: string | undefined, sessionId: string): boolean {
    if (!header || !cookie || header.length > 200 || !same(header, cookie)) return false;
    const [nonce, mac, extra] = header.split('.');
    if (!nonce || !mac || extra !== undefined) return false;
    return same(mac, this.mac(sessionId, nonce));
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
