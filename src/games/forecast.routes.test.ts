import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, signedIn } from '../../test/helpers/auth.js';
import { seedGames } from '../../test/helpers/games.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { backfill } from '../market/index.js';
import { insertRollups } from '../market/market.repo.js';
import { ForecastService } from './forecast.service.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const log = { info: () => {}, warn: () => {} };
const clock = fixedClock(NOW);

let t: TestApp;
let topPlace: number;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  await backfill({ db: t.testDb.db, platform: testMarket(), log }, 35, NOW);
  const top = await t.testDb.db.query<{ place_id: number }>(
    'SELECT place_id FROM games ORDER BY ccu DESC NULLS LAST LIMIT 1',
  );
  topPlace = top.rows[0]!.place_id;
  // A game collected for 10 days only.
  await seedGames(
    t.testDb.db,
    [{ universeId: 9_000_001, placeId: 9_000_002, name: 'Newcomer', creatorName: 'N' }],
    NOW,
  );
  await insertRollups(
    t.testDb.db,
    'daily',
    Array.from({ length: 10 }, (_, i) => ({
      universeId: 9_000_001,
      at: new Date(Date.UTC(2026, 10, 12 + i)).toISOString().slice(0, 10),
      ccuAvg: 100 + i,
      ccuMax: 150,
      samples: 288,
      visits: 1000 * i,
    })),
  );
});
afterAll(() => t.close());

const forecast = (place: number, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `/api/forecast/${place}`, headers });

const days = (from: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
  );

describe('GET /api/forecast/{place_id}', () => {
  it('needs a signed-in caller on the Builder plan or higher', async () => {
    expect((await forecast(topPlace)).statusCode).toBe(401);
    const explorer = await signedIn(t, { plan: 'Explorer' });
    const res = await forecast(topPlace, bearer(explorer));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'plan_upgrade_required', required_plan: 'Builder' });
  });

  it('gives Builder 7 daily points from tomorrow, without bounds', async () => {
    const builder = await signedIn(t, { plan: 'Builder' });
    const res = await forecast(topPlace, bearer(builder));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      place_id: topPlace,
      model_version: expect.stringMatching(/@\d+$/),
      generated_at: NOW.toISOString(),
      level: null,
      history_days: 35,
    });
    expect(body.forecast.map((p: { date: string }) => p.date)).toEqual(days('2026-11-23', 7));
    for (const p of body.forecast) {
      expect(p).toEqual({
        date: p.date,
        predicted_ccu: expect.any(Number),
        lower_bound: null,
        upper_bound: null,
      });
      expect(p.predicted_ccu).toBeGreaterThanOrEqual(0);
    }
  });

  it('gives Studio 30 points with 80% bounds that hold the point, never below 0, widening with the horizon', async () => {
    const studio = await signedIn(t, { plan: 'Studio' });
    const body = (await forecast(topPlace, bearer(studio))).json();
    expect(body.level).toBe(0.8);
    expect(body.forecast.map((p: { date: string }) => p.date)).toEqual(days('2026-11-23', 30));
    for (const p of body.forecast) {
      expect(p.lower_bound).toBeGreaterThanOrEqual(0);
      expect(p.lower_bound).toBeLessThanOrEqual(p.predicted_ccu);
      expect(p.upper_bound).toBeGreaterThanOrEqual(p.predicted_ccu);
    }
    const width = (p: { lower_bound: number; upper_bound: number }) => p.upper_bound - p.lower_bound;
    expect(width(body.forecast[29]) / body.forecast[29].predicted_ccu).toBeGreaterThan(
      width(body.forecast[0]) / body.forecast[0].predicted_ccu,
    );
  });

  it('answers 404 for a game it does not collect and 422 insufficient_history under 14 days', async () => {
    const studio = await signedIn(t, { plan: 'Studio' });
    const missing = await forecast(123_456_789, bearer(studio));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    const young = await forecast(9_000_002, bearer(studio));
    expect(young.statusCode).toBe(422);
    expect(young.json()).toEqual({
      code: 'insufficient_history',
      detail: 'This game has 10 complete days of history; forecasts need at least 14.',
    });
  });
});

describe('the forecast job', () => {
  it('runs after a backfill and daily at 04:00 UTC, storing every game with 14 days of history', async () => {
    const service = new ForecastService({ db: t.testDb.db, clock, entitlements: t.config.entitlements });
    expect(await service.due(NOW)).toBe(true);
    // A run before any game has 14 days (a fresh install mid-backfill) leaves the job due.
    await t.testDb.db.query('INSERT INTO forecast_runs (ran_at, games, skipped, ms) VALUES ($1, 0, 0, 1)', [
      new Date(NOW.getTime() - 60_000),
    ]);
    expect(await service.due(NOW)).toBe(true);
    const run = await service.refreshAll(NOW);
    const collected = await t.testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games');
    expect(run.games + run.skipped).toBe(collected.rows[0]!.n);
    expect(run.skipped).toBeGreaterThanOrEqual(1); // the 10-day newcomer, and games launched lately
    const stored = await t.testDb.db.query<{ n: number; bad: number }>(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE growth_probability < 0 OR growth_probability > 1)::int AS bad
         FROM forecasts`,
    );
    expect(stored.rows[0]).toEqual({ n: run.games, bad: 0 });
    // Game detail shows the stored growth probability, except on the Explorer plan.
    const place = (
      await t.testDb.db.query<{ place_id: number; p: number }>(
        'SELECT g.place_id, f.growth_probability AS p FROM forecasts f JOIN games g USING (universe_id) LIMIT 1',
      )
    ).rows[0]!;
    const detail = async (plan: 'Explorer' | 'Builder') =>
      (
        await t.app.inject({
          url: `/api/game/${place.place_id}`,
          headers: bearer(await signedIn(t, { plan })),
        })
      ).json().ml_prediction.growth_probability;
    expect(await detail('Builder')).toBeCloseTo(place.p, 4);
    expect(await detail('Explorer')).toBeNull();
    expect(await service.due(new Date('2026-11-23T03:59:00Z'))).toBe(false);
    expect(await service.due(new Date('2026-11-23T04:00:00Z'))).toBe(true);
    // A backfill completed after the last run makes it due at once.
    const later = new Date(NOW.getTime() + 3_600_000);
    expect(await service.due(later)).toBe(false);
    await t.testDb.db.query(
      'INSERT INTO market_backfills (days, until, started_at, completed_at) VALUES (35, $1, $1, $1)',
      [later],
    );
    expect(await service.due(later)).toBe(true);
  });
});
