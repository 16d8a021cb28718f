import { describe, expect, it } from 'vitest';
import { ACCESS_TTL_SEC, TokenSigner } from './tokens.js';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const NOW = new Date('2026-12-02T10:00:00Z');
const claims = { userId: 42, tokenVersion: 3, sessionId: 'session-1' };

describe('access tokens', () => {
  it('verifies its own token until it expires, also once the signature check is remembered', async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign(claims, NOW);
    expect(await signer.verify(token, NOW)).toEqual(claims);
    // Remembered: the same answer, and still refused from the second it expires.
    expect(await signer.verify(token, new Date(NOW.getTime() + (ACCESS_TTL_SEC - 1) * 1000))).toEqual(claims);
    expect(await signer.verify(token, new Date(NOW.getTime() + ACCESS_TTL_SEC * 1000))).toBeUndefined();
    expect(await signer.verify(token, NOW)).toEqual(claims); // checked afresh: the signature is good
  });

  it("refuses another secret's token, a tampered one and garbage, remembered or not", async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign(claims, NOW);
    await signer.verify(token, NOW);
    const other = await new TokenSigner(`${SECRET}-other`).sign(claims, NOW);
    expect(await signer.verify(other, NOW)).toBeUndefined();
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ sub: '1', tv: 3, sid: 's', jti: 'j', iat: 1, exp: 4102444800 }),
    );
    expect(
      await signer.verify(`${header}.${forged.toString('base64url')}.${signature}`, NOW),
    ).toBeUndefined();
    expect(await signer.verify('not.a.token', NOW)).toBeUndefined();
  });
});
