import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyId, SecretBox, SecretUnreadable } from './secret-box.js';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const SECRET = 'whsec_0123456789abcdef';

function refusal(box: SecretBox, stored: string): string {
  try {
    box.open(stored);
  } catch (err) {
    expect(err).toBeInstanceOf(SecretUnreadable);
    return (err as Error).message;
  }
  throw new Error('expected the secret to be refused');
}

describe('webhook secrets at rest (AES-256-GCM)', () => {
  it('names a key by the first 8 hex digits of its SHA-256', () => {
    expect(keyId(OLD)).toBe(createHash('sha256').update(OLD).digest('hex').slice(0, 8));
  });

  it('stores v1:<key id>:<iv>:<ciphertext+tag>, never the secret, with a fresh IV each time', () => {
    const box = new SecretBox({ current: OLD, previous: [] });
    const a = box.seal(SECRET);
    const b = box.seal(SECRET);
    expect(a).toMatch(new RegExp(`^v1:${keyId(OLD)}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{51}$`));
    expect(a).not.toContain(SECRET);
    expect(Buffer.from(a.split(':')[3]!, 'base64url').toString('latin1')).not.toContain('whsec');
    expect(a).not.toBe(b);
    expect([box.open(a), box.open(b)]).toEqual([SECRET, SECRET]);
  });

  it('opens with a previous key, encrypts with the current one', () => {
    const sealedOld = new SecretBox({ current: OLD, previous: [] }).seal(SECRET);
    const rotated = new SecretBox({ current: NEW, previous: [OLD] });
    expect(rotated.open(sealedOld)).toBe(SECRET);
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    const resealed = rotated.seal(SECRET);
    expect(resealed.startsWith(`v1:${keyId(NEW)}:`)).toBe(true);
    expect(rotated.isCurrent(resealed)).toBe(true);
  });

  it('refuses a value whose key is not configured, naming only the key id', () => {
    const sealedOld = new SecretBox({ current: OLD, previous: [] }).seal(SECRET);
    expect(refusal(new SecretBox({ current: NEW, previous: [] }), sealedOld)).toBe(
      `it was encrypted with key ${keyId(OLD)}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
    );
  });

  it('refuses altered ciphertext, IV, tag or a key id swapped for another configured key', () => {
    const box = new SecretBox({ current: NEW, previous: [OLD] });
    const sealed = box.seal(SECRET);
    const [v, id, iv, body] = sealed.split(':') as [string, string, string, string];
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    const altered = `it does not authenticate under key ${id} (altered or corrupted)`;
    expect(refusal(box, [v, id, iv, flip(body, 0)].join(':'))).toBe(altered);
    expect(refusal(box, [v, id, iv, flip(body, body.length - 2)].join(':'))).toBe(altered);
    expect(refusal(box, [v, id, flip(iv, 3), body].join(':'))).toBe(altered);
    expect(refusal(box, [v, keyId(OLD), iv, body].join(':'))).toBe(
      `it does not authenticate under key ${keyId(OLD)} (altered or corrupted)`,
    );
    expect(refusal(box, 'v2:abc')).toBe('it is not in a known format');
    expect(refusal(box, SECRET)).toBe('it is not in a known format');
  });

  it('reads rows tagged plain: by the migration (stored before encryption) as they are', () => {
    const box = new SecretBox({ current: NEW, previous: [] });
    expect(box.open(`plain:${SECRET}`)).toBe(SECRET);
    expect(box.open('plain:v1:1234abcd:looks-sealed')).toBe('v1:1234abcd:looks-sealed');
    expect(box.isCurrent(`plain:${SECRET}`)).toBe(false);
  });
});
