/**
 * `svc webhooks rotate-secrets`: after SECRETS_KEY changes (the old key moved to
 * SECRETS_KEY_PREVIOUS), re-encrypts every stored webhook secret with the new key, so the old one
 * can then be dropped. Idempotent: a second run re-encrypts nothing. Prints counts and ids only.
 */
import { parseArgs } from 'node:util';
import type { Db } from '../../db/index.js';
import { CliUsageError } from '../../errors.js';
import type { SecretBox } from './secret-box.js';
import { rotateSecrets } from './secrets.service.js';

export const WEBHOOKS_USAGE = 'svc webhooks rotate-secrets';

export interface WebhooksCliDeps {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Opens (and migrates) the configured database; called only once the arguments are valid. */
  open: () => Promise<Db>;
  /** The configured keys (SECRETS_KEY or DATA_DIR's, and SECRETS_KEY_PREVIOUS). */
  secrets: () => SecretBox;
}

/** Exit 0 when every secret is under the current key, 1 when some could not be read. */
export async function webhooksCommand(args: string[], deps: WebhooksCliDeps): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 1 || positionals[0] !== 'rotate-secrets') {
    throw new CliUsageError(
      positionals.length === 0 ? 'missing subcommand' : `unknown subcommand "${positionals.join(' ')}"`,
    );
  }
  const box = deps.secrets();
  const db = await deps.open();
  try {
    const stats = await rotateSecrets(db, box);
    deps.out(
      `re-encrypted ${stats.resealed} webhook secret(s) with key ${box.currentKeyId}; ` +
        `${stats.current} already were`,
    );
    for (const u of stats.unreadable) deps.err(`webhook ${u.id}: secret left as it is: ${u.reason}`);
    return stats.unreadable.length === 0 ? 0 : 1;
  } finally {
    await db.close();
  }
}
