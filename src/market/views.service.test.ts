import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { seedGames, seedHourly } from '../../test/helpers/games.js';
import { insertRollups, insertSamples } from './market.repo.js';
import { readCatalogue, readVisitCounters } from './views.repo.js';
import { breakoutInputs, computeGenres, computeOverview, computeTrending } from './views.service.js';

/**
 * Hand-built market: three games whose every reading the test chose, so each figure of the views
 * is worked out by hand below.
 */
const NOW = new Date('2026-11-22T15:05:00Z');
const H = 3_600_000;
const at = (iso: string) => new Date(iso);

describe.each(testEngines())('market views on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb(engine);
    const db = t.db;
    await seedGames(
      db,
      [
        {
          universeId: 1,
          placeId: 101,
          name: 'Alpha',
          creatorName: 'Ann',
          genre: 'simulation',
          ccu: 300,
          visits: 10_000,
          upVotes: 90,
          downVotes: 10,
          createdAt: at('2026-10-01T00:00:00Z'),
        },
        { universeId: 2, placeId: 102, name: 'Beta', creatorName: 'Bob', genre: 'simulation', ccu: 100 },
        { universeId: 3, placeId: 103, name: 'Gamma', creatorName: 'Cy', genre: 'rpg', ccu: 5 },
      ],
      NOW,
    );
    // 24 h window: hours 2026-11-21T16:00 … 2026-11-22T15:00 (the current hour included); the
    // preceding one: 2026-11-20T16:00 … 2026-11-21T15:00.
    await seedHourly(db, 1, at('2026-11-20T16:00:00Z'), new Array(24).fill(100));
    await seedHourly(
      db,
      1,
      at('2026-11-21T16:00:00Z'),
      Array.from({ length: 24 }, (_, i) => 200 + 10 * i),
    );
    await seedHourly(db, 2, at('2026-11-22T10:00:00Z'), [50]);
    // Baseline a week ago, 2026-11-15T15:00 (its centre is 25 minutes from NOW − 7 days).
    await seedHourly(db, 1, at('2026-11-15T15:00:00Z'), [200]);
    await seedHourly(db, 2, at('2026-11-15T15:00:00Z'), [100]);
    // Raw samples for the 1 h window (14:05 … 15:05) and the one before it.
    await insertSamples(db, [
      { universeId: 1, ts: at('2026-11-22T13:30:00Z'), ccu: 40, visits: 9_900 },
      { universeId: 1, ts: at('2026-11-22T14:30:00Z'), ccu: 80, visits: 9_950 },
      { universeId: 1, ts: at('2026-11-22T15:00:00Z'), ccu: 120, visits: 10_000 },
    ]);
    // Visit counters: 9,000 at the end of 2026-11-21T14:00 (a day before NOW), 8,300 at the end of
    // 2026-11-14 (the week before).
    await db.query('UPDATE ccu_hourly SET visits = 9000 WHERE universe_id = 1 AND hour = $1', [
      at('2026-11-21T14:00:00Z'),
    ]);
    await insertRollups(db, 'daily', [
      { universeId: 1, at: '2026-11-14', ccuAvg: 100, ccuMax: 150, samples: 288, visits: 8_300 },
    ]);
  });
  afterAll(() => t.dispose());

  it('trending 24h: the trend of two hourly windows and 24 hourly history points', async () => {
    const view = await computeTrending(t.db, '24h', NOW);
    expect(view.games).toEqual([
      {
        place_id: 101,
        universe_id: 1,
        name: 'Alpha',
        creator: 'Ann',
        genre: 'simulation',
        ccu: 300,
        // mean 315 against 100: 100·tanh(ln(316/101)) = 81.46
        trend_score: 81.46,
        ccu_history: Array.from({ length: 24 }, (_, i) => 200 + 10 * i),
      },
      {
        place_id: 102,
        universe_id: 2,
        name: 'Beta',
        creator: 'Bob',
        genre: 'simulation',
        ccu: 100,
        trend_score: null, // no reading in the preceding window
        ccu_history: new Array(24).fill(50),
      },
      {
        place_id: 103,
        universe_id: 3,
        name: 'Gamma',
        creator: 'Cy',
        genre: 'rpg',
        ccu: 5,
        trend_score: null,
        ccu_history: [],
      },
    ]);
  });

  it('trending 1h: raw samples in 2.5-minute buckets, gaps carrying the reading before', async () => {
    const alpha = (await computeTrending(t.db, '1h', NOW)).games[0]!;
    // recent mean (80 + 120)/2 = 100 against 40: 100·tanh(ln(101/41)) = 71.71
    expect(alpha.trend_score).toBe(71.71);
    // 14:30 falls in bucket 9, 15:00 in bucket 21; buckets before the first reading take it.
    expect(alpha.ccu_history).toEqual([...new Array(21).fill(80), 120, 120, 120]);
  });

  it('overview: platform totals, the 24 h change of hourly means, top genres and games', async () => {
    expect(await computeOverview(t.db, NOW)).toEqual({
      platform_ccu: 405,
      // hour 15:00 today (430) against 15:00 yesterday (100)
      ccu_change_24h: 3.3,
      active_games: 2,
      total_games: 3,
      top_genres: [
        { name: 'simulation', display_name: 'Simulation', total_ccu: 400, share: 0.9877, games: 2 },
        { name: 'rpg', display_name: 'RPG', total_ccu: 5, share: 0.0123, games: 1 },
      ],
      top_games: [
        { place_id: 101, universe_id: 1, name: 'Alpha', creator: 'Ann', genre: 'simulation', ccu: 300 },
        { place_id: 102, universe_id: 2, name: 'Beta', creator: 'Bob', genre: 'simulation', ccu: 100 },
        { place_id: 103, universe_id: 3, name: 'Gamma', creator: 'Cy', genre: 'rpg', ccu: 5 },
      ],
    });
  });

  it('genres: growth against the hourly means a week ago, null without them', async () => {
    const { genres } = await computeGenres(t.db, NOW);
    const byName = Object.fromEntries(genres.map((g) => [g.name, g]));
    // simulation: 400 now against 200 + 100 a week ago
    expect(byName.simulation).toMatchObject({ total_games: 2, total_ccu: 400, growth_rate: 0.3333 });
    expect(byName.rpg).toMatchObject({
      total_games: 1,
      total_ccu: 5,
      growth_rate: null,
      entry_verdict: 'unproven',
    });
  });

  it('breakout inputs: visits gained per day over the last day and the week before', async () => {
    const [catalogue, counters] = [await readCatalogue(t.db), await readVisitCounters(t.db, NOW)];
    const alpha = breakoutInputs(catalogue, counters).find((g) => g.universeId === 1)!;
    // 10,000 − 9,000 over 15:05 − (14:00 + 1 h) of the day before: 1,000 in 24 h 5 min
    expect(alpha.visitsGained24h).toBeCloseTo((1000 / (24 * H + 5 * 60_000)) * 24 * H, 6);
    // 9,000 − 8,300 between 2026-11-15T00:00 and 2026-11-21T15:00: 700 in 6.625 days
    expect(alpha.meanDailyVisitsGainedPrev7d).toBeCloseTo(700 / 6.625, 6);
    const gamma = breakoutInputs(catalogue, counters).find((g) => g.universeId === 3)!;
    expect([gamma.visitsGained24h, gamma.meanDailyVisitsGainedPrev7d]).toEqual([null, null]);
  });
});
