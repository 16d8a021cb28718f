/**
 * Keeping stored webhook secrets under the current key: start-up encrypts the `plain:` rows left
 * by migration 0013, and `svc webhooks rotate-secrets` re-encrypts every row not yet under the
 * current SECRETS_KEY. Both are idempotent and safe with several processes (each row is replaced
 * only if nobody changed it meanwhile). Only counts and webhook ids leave this file.
 */
import type { Db } from '../../db/index.js';
import * as repo from './delivery.repo.js';
import { type SecretBox, SecretUnreadable } from './secret-box.js';

const PAGE = 500;

export interface ResealStats {
  /** Rows now encrypted with the current key that were not before. */
  resealed: number;
  /** Rows that already were. */
  current: number;
  /** Webhooks whose secret no configured key opens (left as they are). */
  unreadable: { id: number; reason: string }[];
}

async function reseal(db: Db, box: SecretBox, onlyPlain: boolean): Promise<ResealStats> {
  const stats: ResealStats = { resealed: 0, current: 0, unreadable: [] };
  let after = 0;
  for (;;) {
    const rows = await repo.storedSecretsAfter(db, after, PAGE, onlyPlain);
    for (const row of rows) {
      if (box.isCurrent(row.secret)) {
        stats.current++;
        continue;
      }
      let secret: string;
      try {
        secret = box.open(row.secret);
      } catch (err) {
        if (!(err instanceof SecretUnreadable)) throw err;
        stats.unreadable.push({ id: row.id, reason: err.message });
        continue;
      }
      if (await repo.replaceStoredSecret(db, row.id, row.secret, box.seal(secret))) stats.resealed++;
    }
    if (rows.length < PAGE) return stats;
    after = rows[rows.length - 1]!.id;
  }
}

/** Encrypts the secrets still stored in plain text (run at every start; usually finds none). */
export function sealPlainSecrets(db: Db, box: SecretBox): Promise<ResealStats> {
  return reseal(db, box, true);
}

/** Re-encrypts every stored secret not under the current key (after a key rotation). */
export function rotateSecrets(db: Db, box: SecretBox): Promise<ResealStats> {
  return reseal(db, box, false);
}
