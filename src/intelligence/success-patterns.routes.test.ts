import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { dayKey } from '../games/index.js';
import { insertRollups, replacePasses } from '../market/market.repo.js';

const NOW = new Date('2026-12-02T12:00:00Z');
const DAY = 86_400_000;
/** The 7-day period: 2026-11-25 to 2026-12-01; its baseline 2026-11-18 to 2026-11-24. */
const WEEK_START = Date.UTC(2026, 10, 25);
const FIRST_DAY = Date.UTC(2026, 8, 1);
const URL = '/api/intelligence/success-patterns';

interface Fixture {
  universeId: number;
  name: string;
  genre: string;
  /** Mean daily CCU before WEEK_START and from it on; `weekDays` readings in the week (all 7 by default). */
  before: number;
  week: number;
  weekDays?: number;
  updates: number;
  upVotes: number;
}

/**
 * Twenty simulation games: game i grows by 10·i% over the week (baseline 100, week 100 + 10·i), so
 * i = 15…19 are the top quartile. Those release 12–16 updates 6 days apart (12–15 fall in the last 90
 * days: 4–5 a month), the others 0, 3 or 6 (0–2 a month): updates separate the groups completely. "Pet Simulator" titles are on 4
 * of the top 5 and on 1 of the other 15. Max players, age, passes and description are the same for
 * all: no pattern. Likes alternate 90 and 80 of 100 votes with no link to growth.
 */
const GAMES: Fixture[] = [
  ...Array.from({ length: 20 }, (_, i) => {
    const top = i >= 15;
    return {
      universeId: i + 1,
      name: (top ? i < 19 : i === 0) ? `Pet Simulator ${i}` : `Obby ${i}`,
      genre: 'simulation',
      before: 100,
      week: 100 + 10 * i,
      updates: top ? 12 + (i - 15) : 3 * (i % 3),
      upVotes: i % 2 === 0 ? 90 : 80,
    };
  }),
  // Not eligible: a baseline under 10 CCU (a tenfold "growth"), and readings on 5 of the 7 days.
  { universeId: 101, name: 'Tiny Tycoon', genre: 'simulation', before: 5, week: 50, updates: 0, upVotes: 9 },
  {
    universeId: 102,
    name: 'Gappy Tycoon',
    genre: 'simulation',
    before: 100,
    week: 500,
    weekDays: 5,
    updates: 0,
    upVotes: 9,
  },
  { universeId: 103, name: 'Role Play Town', genre: 'rpg', before: 100, week: 100, updates: 0, upVotes: 9 },
];

function rollups(f: Fixture) {
  const rows = [];
  for (let t = FIRST_DAY; t < Date.UTC(2026, 11, 2); t += DAY) {
    const inWeek = t >= WEEK_START;
    if (inWeek && (t - WEEK_START) / DAY >= (f.weekDays ?? 7)) continue;
    const ccu = inWeek ? f.week : f.before;
    rows.push({ universeId: f.universeId, at: dayKey(t), ccuAvg: ccu, ccuMax: ccu, samples: 288, visits: 0 });
  }
  return rows;
}

describe.each(testEngines())('success patterns on %s', (engine) => {
  let t: TestApp;
  let builder: LoggedIn;
  let explorer: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    const db = t.testDb.db;
    await seedGames(
      db,
      GAMES.map((f) => ({
        universeId: f.universeId,
        placeId: 1000 + f.universeId,
        name: f.name,
        creatorName: 'Maker',
        genre: f.genre,
        ccu: f.week,
        upVotes: f.upVotes,
        downVotes: 100 - f.upVotes,
      })),
      NOW,
    );
    for (const f of GAMES) {
      await insertRollups(db, 'daily', rollups(f));
      await replacePasses(
        db,
        f.universeId,
        [
          { id: f.universeId * 10, name: 'VIP', price: 100 },
          { id: f.universeId * 10 + 1, name: 'Speed', price: 250 },
        ],
        NOW,
      );
      for (let k = 1; k <= f.updates; k++) {
        const released = new Date(NOW.getTime() - k * 6 * DAY);
        await db.query(
          'INSERT INTO game_updates (universe_id, released_at, detected_at) VALUES ($1, $2, $2)',
          [f.universeId, released],
        );
      }
    }
    builder = await signedIn(t, { plan: 'Builder' });
    explorer = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(() => t.close());

  const get = (url: string, who: LoggedIn = builder) => t.app.inject({ url, headers: bearer(who) });

  it('needs a signed-in caller on Builder or above', async () => {
    expect((await t.app.inject({ url: URL })).statusCode).toBe(401);
    const res = await get(URL, explorer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'plan_upgrade_required', required_plan: 'Builder' });
  });

  it('refuses an unknown genre and period', async () => {
    const genre = await get(`${URL}?genre=nope`);
    expect(genre.statusCode).toBe(422);
    expect(genre.json()).toMatchObject({ code: 'validation_failed', field: 'query.genre' });
    expect((await get(`${URL}?period=14d`)).statusCode).toBe(422);
  });

  it('compares the top growth quartile with the rest, feature by feature', async () => {
    const res = await get(`${URL}?genre=simulation&period=7d`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      genre: 'simulation',
      period: '7d',
      through_day: '2026-12-01',
      current_window: { from: '2026-11-25', to: '2026-12-01' },
      baseline_window: { from: '2026-11-18', to: '2026-11-24' },
      // 20 + the tiny game + the gappy one; the rpg game is another genre.
      games_with_readings: 22,
      eligible_games: 20,
      // Growths 0, 0.1, …, 1.9: the 75th percentile sits at rank 14.25, between 1.4 and 1.5.
      growth_threshold: 1.425,
      top_quartile: { games: 5, median_growth: 1.7 },
      rest: { games: 15, median_growth: 0.7 },
      reason: null,
    });
    expect(body.method).toContain('Cliff’s δ');
    const byName = new Map(body.features.map((f: { feature: string }) => [f.feature, f]));
    // Every top game updates more than every other: δ = 1, its interval 2·W − 1 to 1 with W the Wilson
    // lower limit of 5 of 5, 5 / (5 + 1.96²) = 0.5655. Medians: 14 updates in 90 days = 4.67 a month
    // against 3 = 1.
    expect(byName.get('updates_per_30d')).toEqual({
      feature: 'updates_per_30d',
      kind: 'numeric',
      label: 'Updates per 30 days',
      measure: 'cliffs_delta',
      top: { n: 5, value: 4.67 },
      rest: { n: 15, value: 1 },
      effect: 1,
      ci_low: 0.131,
      ci_high: 1,
      significant: true,
      pattern:
        "The fastest-growing games update more often than the rest (median 4.67 vs 1 updates per 30 days; Cliff's δ 1, 95% CI 0.13 to 1; 5 vs 15 games).",
    });
    // All 20 players per server: every pair tied, δ 0, its variance floored at 1 / (5·15 − 1), so the
    // interval is ±1.96·0.1162·√(1 + 0.0519) / 1.0519 = ±0.2221.
    expect(byName.get('max_players')).toMatchObject({
      top: { n: 5, value: 20 },
      rest: { n: 15, value: 20 },
      effect: 0,
      ci_low: -0.2221,
      ci_high: 0.2221,
      significant: false,
      pattern: null,
    });
    // Likes: top 0.9 ×2, 0.8 ×3; rest 0.9 ×8, 0.8 ×7: (2·7 − 3·8) / 75 = −0.1333, no pattern.
    expect(byName.get('like_ratio')).toMatchObject({
      effect: -0.1333,
      ci_low: -0.5819,
      ci_high: 0.3774,
      significant: false,
      pattern: null,
    });
    // Two passes at 100 and 250 Robux for every game.
    expect(byName.get('gamepass_median_price')).toMatchObject({ top: { n: 5, value: 175 }, effect: 0 });
    expect(byName.get('gamepass_max_price')).toMatchObject({ top: { n: 5, value: 250 }, effect: 0 });
    // No visits recorded: not measured.
    expect(byName.get('favorites_per_1k_visits')).toMatchObject({ top: { n: 0, value: null }, effect: null });
    // "pet simulator" on 4 of 5 against 1 of 15 titles, Newcombe's interval 0.2498 to 0.9060.
    expect(byName.get('title:pet simulator')).toMatchObject({
      kind: 'title_keyword',
      measure: 'difference_in_proportions',
      top: { n: 5, value: 0.8 },
      rest: { n: 15, value: 0.0667 },
      effect: 0.7333,
      ci_low: 0.2498,
      ci_high: 0.906,
      significant: true,
      pattern:
        '“pet simulator” is in 80% of the fastest-growing games’ titles against 7% of the rest (difference 73.33 points, 95% CI 24.98 to 90.6).',
    });
    expect(body.features.map((f: { feature: string }) => f.feature)).toEqual([
      'updates_per_30d',
      'title:obby',
      'title:pet',
      'title:pet simulator',
      'title:simulator',
      'title_words',
      'like_ratio',
      'age_days',
      'description_length',
      'gamepass_count',
      'gamepass_max_price',
      'gamepass_median_price',
      'max_players',
      'favorites_per_1k_visits',
    ]);
  });

  it('covers the whole market without a genre and sets the windows by period', async () => {
    const body = (await get(`${URL}?period=30d`)).json();
    expect(body).toMatchObject({
      genre: null,
      period: '30d',
      current_window: { from: '2026-11-02', to: '2026-12-01' },
      baseline_window: { from: '2026-10-03', to: '2026-11-01' },
      games_with_readings: 23,
      // Over 30 days the gappy game misses 2 of 30 days: 28 ≥ 24, so it counts; the rpg game too.
      eligible_games: 22,
    });
  });

  it('answers 200 with no features and a reason when too few games qualify', async () => {
    const body = (await get(`${URL}?genre=rpg`)).json();
    expect(body).toMatchObject({
      genre: 'rpg',
      period: '30d',
      games_with_readings: 1,
      eligible_games: 1,
      growth_threshold: null,
      top_quartile: { games: 0, median_growth: null },
      features: [],
      reason:
        '1 of 1 games with readings are eligible (readings on at least 24 of the 30 days of both windows and a baseline of at least 10 CCU); patterns need at least 20.',
    });
  });
});
