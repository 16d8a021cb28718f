import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../../../test/helpers/cli.js';
import { insertUser, storedSecret } from '../../../test/helpers/delivery.js';
import { loadConfig, parseKey } from '../../config.js';
import { type Db, loadMigrations, migrate, openPglite } from '../../db/index.js';
import { startWorker } from '../../main.js';
import { keyId, SecretBox } from './index.js';

const SECRET = 'whsec_0123456789abcdef';
const NEW_KEY = 'c0ffee'.repeat(11).slice(0, 64);
const OTHER_KEY = 'beef'.repeat(16);

async function withDb<T>(dir: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openPglite(join(dir, 'pg'));
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe('webhook secrets stored before encryption, and svc webhooks rotate-secrets', () => {
  it('tags old rows, encrypts them at start with the DATA_DIR key, and re-encrypts after a rotation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-secrets-'));
    const all = loadMigrations();
    const before = all.filter((m) => m.file < '0013');
    const id = await withDb(dir, async (db) => {
      await migrate(db, { migrations: before });
      const owner = await insertUser(db, 'Studio');
      const res = await db.query<{ id: number }>(
        `INSERT INTO webhooks (user_id, url, secret, created_at)
         VALUES ($1, 'https://hooks.example.com/a', $2, now()) RETURNING id`,
        [owner.userId, SECRET],
      );
      await migrate(db, { migrations: all });
      const webhookId = res.rows[0]!.id;
      expect(await storedSecret(db, webhookId)).toBe(`plain:${SECRET}`);
      return webhookId;
    });

    const worker = await startWorker(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), { jobs: [] });
    await worker.close();
    const fileKey = readFileSync(join(dir, 'secrets-key'), 'utf8').trim();
    const generated = new SecretBox({ current: parseKey(fileKey)!, previous: [] });
    const sealed = await withDb(dir, (db) => storedSecret(db, id));
    expect(sealed).toMatch(new RegExp(`^v1:${generated.currentKeyId}:`));
    expect(generated.open(sealed)).toBe(SECRET);

    const rotate = (env: Record<string, string>) =>
      runSvc(['webhooks', 'rotate-secrets'], { DATA_DIR: dir, ...env });
    const newKid = keyId(Buffer.from(NEW_KEY, 'hex'));
    expect(await rotate({ SECRETS_KEY: NEW_KEY, SECRETS_KEY_PREVIOUS: fileKey })).toEqual({
      code: 0,
      out: [`re-encrypted 1 webhook secret(s) with key ${newKid}; 0 already were`],
      err: '',
    });
    expect(await rotate({ SECRETS_KEY: NEW_KEY })).toEqual({
      code: 0,
      out: [`re-encrypted 0 webhook secret(s) with key ${newKid}; 1 already were`],
      err: '',
    });
    const rotated = await withDb(dir, (db) => storedSecret(db, id));
    expect(rotated).toMatch(new RegExp(`^v1:${newKid}:`));
    expect(new SecretBox({ current: Buffer.from(NEW_KEY, 'hex'), previous: [] }).open(rotated)).toBe(SECRET);

    expect(await rotate({ SECRETS_KEY: OTHER_KEY })).toEqual({
      code: 1,
      out: [
        `re-encrypted 0 webhook secret(s) with key ${keyId(Buffer.from(OTHER_KEY, 'hex'))}; 0 already were`,
      ],
      err: `webhook ${id}: secret left as it is: it was encrypted with key ${newKid}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
    });
    expect(await withDb(dir, (db) => storedSecret(db, id))).toBe(rotated);
  });

  it('refuses a missing or unknown subcommand and a malformed key before opening anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-secrets-'));
    expect(await runSvc(['webhooks'], { DATA_DIR: dir })).toMatchObject({
      code: 2,
      err: 'svc webhooks: missing subcommand\nusage: svc webhooks rotate-secrets',
    });
    expect(await runSvc(['webhooks', 'rotate'], { DATA_DIR: dir })).toMatchObject({
      code: 2,
      err: 'svc webhooks: unknown subcommand "rotate"\nusage: svc webhooks rotate-secrets',
    });
    expect(
      await runSvc(['webhooks', 'rotate-secrets'], { DATA_DIR: dir, SECRETS_KEY: 'hunter2' }),
    ).toMatchObject({
      code: 2,
      err: 'svc: invalid configuration: SECRETS_KEY must be 32 bytes written as 64 hex digits or base64 (`openssl rand -base64 32`) (got 7 characters)',
    });
  });
});
