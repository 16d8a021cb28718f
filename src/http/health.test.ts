import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, LogCapture, TEST_JWT_SECRET } from '../../test/helpers/app.js';
import { emptyDb } from '../../test/helpers/db.js';
import { buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { loadMigrations } from '../db/index.js';
import { memoryKv } from '../kv/index.js';
import { createLogger } from '../main.js';
import { createServices } from '../services.js';

describe('health and readiness', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('answers /healthz and /readyz when the database is migrated', async () => {
    const t = await buildTestApp();
    cleanups.push(() => t.close());
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      database: 'pglite',
      migrations: loadMigrations().length,
    });
  });

  it('is not ready while migrations are pending', async () => {
    const x = await emptyDb('pglite');
    const config = loadConfig({});
    const logStream = new LogCapture();
    const services = createServices({
      config,
      db: x.db,
      clock: systemClock,
      kv: memoryKv(),
      log: createLogger(config, logStream),
      jwtSecret: TEST_JWT_SECRET,
    });
    const app = await buildApp(services, { logStream });
    cleanups.push(async () => {
      await app.close();
      await services.close();
      await x.dispose();
    });
    const res = await app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      detail: `${loadMigrations().length} database migration(s) are not applied yet.`,
      code: 'temporarily_unavailable',
    });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('is not ready when the database is unreachable', async () => {
    const t = await buildTestApp();
    await t.testDb.db.close();
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'The database is not reachable.', code: 'temporarily_unavailable' });
    await t.app.close();
  });
});
