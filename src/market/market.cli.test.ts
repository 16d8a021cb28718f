import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../../test/helpers/cli.js';
import { migratedDataDir } from '../../test/helpers/db.js';
import { openPglite } from '../db/index.js';

// The commands run in this process on the simulated market shrunk from 5,000 games to 500
// (SIMULATION_GAMES): the same commands, rows of every kind and views, a tenth of the rows. At full
// size `backfill --days 1` writes ≈ 115,000 hourly and 660,000 raw rows into PGlite: 20 s on an
// idle machine, over a minute on a loaded one, which made this test time out.
const SMALL = { SIMULATION_GAMES: '500' };

const dataDir = () => mkdtempSync(join(tmpdir(), 'svc-market-cli-'));

describe('svc backfill and svc collect', () => {
  it('refuse a bad --days with exit 2 and a source that cannot replay the past with exit 1', async () => {
    for (const days of ['0', '401', 'ten']) {
      expect(await runSvc(['backfill', '--days', days], { DATA_DIR: dataDir() })).toMatchObject({
        code: 2,
        err: expect.stringContaining('--days must be a whole number from 1 to 400'),
      });
    }
    expect(await runSvc(['backfill'], { DATA_DIR: dataDir() })).toMatchObject({ code: 2 });
    expect(
      await runSvc(['backfill', '--days', '3'], {
        DATA_DIR: await migratedDataDir('svc-market-cli-'),
        PLATFORM_SOURCE: 'roblox',
      }),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining('The roblox source cannot produce past readings'),
    });
  });

  // Budget: three opens of a file-backed PGlite around a 500-game backfill and a collection: ≈ 12 s
  // while other test files share the 2 cores, hence twice the default.
  it('backfill writes history and the views; collect adds a reading', { timeout: 60_000 }, async () => {
    const dir = await migratedDataDir('svc-market-cli-');
    const filled = await runSvc(['backfill', '--days', '1'], { ...SMALL, DATA_DIR: dir });
    expect(filled.code).toBe(0);
    expect(filled.out[0]).toMatch(
      /^backfilled 1 days for \d+ games in [\d.]+ s: \d+ daily, \d+ hourly, \d+ raw rows, \d+ genre snapshots$/,
    );
    expect(Number(/ for (\d+) games/.exec(filled.out[0] ?? '')?.[1])).toBeLessThanOrEqual(500); // the small market (some not launched yet)
    const collected = await runSvc(['collect', '--once'], { ...SMALL, DATA_DIR: dir });
    expect(collected.code).toBe(0);
    expect(collected.out[0]).toMatch(/^collected (\d+) of \1 games from the simulated source \(0 failed/);
    const db = await openPglite(join(dir, 'pg'));
    try {
      const views = await db.query<{ name: string }>('SELECT name FROM market_views ORDER BY name');
      expect(views.rows.map((r) => r.name)).toEqual([
        'breakout',
        'genres',
        'overview',
        'timing',
        'trending:1h',
        'trending:24h',
        'trending:30d',
        'trending:6h',
        'trending:7d',
      ]);
    } finally {
      await db.close();
    }
  });
});
