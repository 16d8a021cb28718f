/**
 * Webhook secrets at rest. A webhook secret must be usable to sign (HMAC), so it cannot be hashed;
 * it is encrypted with AES-256-GCM under a key from configuration (SECRETS_KEY, or the one
 * generated into DATA_DIR) and stored self-describing in webhooks.secret:
 *
 *   v1:<key id>:<base64url 12-byte IV>:<base64url ciphertext + 16-byte tag>
 *
 * The key id (first 8 hex digits of SHA-256 of the key) says which key decrypts it, so older keys
 * (SECRETS_KEY_PREVIOUS) keep working during a rotation; `v1:<key id>` is authenticated as
 * associated data. Rows written before encryption were tagged `plain:<secret>` by migration 0013;
 * they still sign, and start-up (and `svc webhooks rotate-secrets`) encrypts them. Errors never
 * carry the secret or the key, only the key id.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The keys this process holds: the current one encrypts, every one decrypts. */
export interface SecretKeys {
  readonly current: Buffer;
  readonly previous: readonly Buffer[];
}

/** A stored secret this process cannot read; the message says why, for the delivery log. */
export class SecretUnreadable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SecretUnreadable';
  }
}

const VERSION = 'v1';
const LEGACY = 'plain:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^v1:([0-9a-f]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/** First 8 hex digits of SHA-256 of the key: names a key without revealing it. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export class SecretBox {
  readonly currentKeyId: string;
  private readonly current: Buffer;
  private readonly byId = new Map<string, Buffer>();

  constructor(keys: SecretKeys) {
    for (const key of [keys.current, ...keys.previous]) {
      if (key.length !== 32) throw new RangeError('an AES-256 key is 32 bytes');
      if (!this.byId.has(keyId(key))) this.byId.set(keyId(key), key);
    }
    this.current = keys.current;
    this.currentKeyId = keyId(keys.current);
  }

  /** Encrypts with the current key and a fresh random IV. */
  seal(secret: string): string {
    const header = `${VERSION}:${this.currentKeyId}`;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    cipher.setAAD(Buffer.from(header));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${header}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  /** The secret a stored value holds; throws SecretUnreadable when no configured key opens it. */
  open(stored: string): string {
    if (stored.startsWith(LEGACY)) return stored.slice(LEGACY.length);
    const m = SEALED.exec(stored);
    if (!m) throw new SecretUnreadable('it is not in a known format');
    const [, id, iv, body] = m as unknown as [string, string, string, string];
    const key = this.byId.get(id);
    if (!key) {
      throw new SecretUnreadable(
        `it was encrypted with key ${id}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
      );
    }
    const bytes = Buffer.from(body, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${VERSION}:${id}`));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretUnreadable(`it does not authenticate under key ${id} (altered or corrupted)`);
    }
  }

  /** Whether a stored value is already encrypted with the current key (nothing to re-encrypt). */
  isCurrent(stored: string): boolean {
    return SEALED.exec(stored)?.[1] === this.currentKeyId;
  }
}
