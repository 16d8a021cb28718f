import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate, openPglite } from '../../src/db/index.js';
import { migratedDataDir } from './db.js';

describe('migratedDataDir', () => {
  // The run's global setup (test/setup/engines.ts) made the PGlite template this copies.
  it('gives a DATA_DIR whose embedded database has every migration applied, opened as it is', async () => {
    const dir = await migratedDataDir('svc-helper-db-');
    const db = await openPglite(join(dir, 'pg'));
    try {
      const { rows } = await db.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      const all = loadMigrations();
      expect(all.length).toBeGreaterThan(40);
      expect(rows.map((r) => [Number(r.version), r.name])).toEqual(all.map((m) => [m.version, m.name]));
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
