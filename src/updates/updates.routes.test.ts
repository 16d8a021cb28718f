import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { seedGames } from '../../test/helpers/games.js';
import { closedValidator, expectValid } from '../../test/helpers/serialised-body.js';
import { fixedClock } from '../clock.js';
import { dayKey } from '../games/index.js';
import { insertRollups } from '../market/market.repo.js';
import { measureImpact } from './impact.js';
import { RecentResponse, TimingResponse, updateSchemas } from './updates.schemas.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 6, 1);

/** Daily means from 2026-07-01 to 2026-11-21: a weekly rhythm, fixed day-to-day noise, and a step
 * `factor` from each `[releaseDay, factor]` on (the day after the release day). */
function history(base: number, steps: [string, number][], from = FIRST_DAY) {
  const out: { day: string; ccu: number }[] = [];
  for (let t = from, i = 0; t < Date.UTC(2026, 10, 22); t += DAY, i++) {
    let v = base * (1 + 0.1 * Math.sin((2 * Math.PI * i) / 7)) * (1 + 0.03 * Math.sin(i * 12.9898));
    for (const [release, factor] of steps) if (t > Date.parse(`${release}T00:00:00Z`)) v *= factor;
    out.push({ day: dayKey(t), ccu: Math.round(v * 100) / 100 });
  }
  return out;
}

interface Fixture {
  universeId: number;
  placeId: number;
  name: string;
  genre: string;
  days: { day: string; ccu: number }[];
  /** ISO release times, oldest first. */
  updates: string[];
}

const A: Fixture = {
  universeId: 1001,
  placeId: 101,
  name: 'Alpha Tycoon',
  genre: 'simulation',
  days: history(2000, [['2026-10-10', 1.4]]),
  updates: ['2026-10-10T18:00:00Z', '2026-10-30T02:00:00Z', '2026-11-20T12:00:00Z'],
};
const B: Fixture = {
  universeId: 2001,
  placeId: 201,
  name: 'Beta Quest',
  genre: 'rpg',
  days: history(800, [['2026-10-05', 0.7]]),
  // The last two overlap each other (the second went out 2 days after the first).
  updates: ['2026-10-05T18:00:00Z', '2026-11-01T09:00:00Z', '2026-11-03T09:00:00Z'],
};
const C: Fixture = {
  universeId: 3001,
  placeId: 301,
  name: 'Gamma Newcomer',
  genre: 'simulation',
  days: history(50, [], Date.UTC(2026, 10, 1)),
  updates: ['2026-11-05T10:00:00Z'],
};
/** Twelve strategy games, each with an update on Tuesday 2026-10-13 at 15:00 UTC that lifted it 20%. */
const STRATEGY: Fixture[] = Array.from({ length: 12 }, (_, i) => ({
  universeId: 5001 + i,
  placeId: 501 + i,
  name: `Strategy ${i}`,
  genre: 'strategy',
  days: history(300 + 10 * i, [['2026-10-13', 1.2]]),
  updates: ['2026-10-13T15:00:00Z'],
}));
const ALL = [A, B, C, ...STRATEGY];

const pct = (f: number) => Math.round(f * 1000) / 10;
/** What the service must store and serve for an update of `f`: measureImpact on the same days. */
function expectedImpact(f: Fixture, released: string) {
  const m = measureImpact(f.days, released.slice(0, 10));
  if (m.status !== 'measured') throw new Error(`fixture update ${released} is ${m.status}`);
  return {
    percent: pct(m.impact),
    ci80: { low: pct(m.ci80[0]), high: pct(m.ci80[1]) },
    ci95: { low: pct(m.ci95[0]), high: pct(m.ci95[1]) },
    significant: m.significant,
    observed_mean_ccu: Math.round(m.observedMean * 10) / 10,
    counterfactual_mean_ccu: Math.round(m.counterfactualMean * 10) / 10,
    baseline_days: m.baselineDays,
    window_days: m.windowDays,
    model_version: m.modelVersion,
  };
}

describe.each(testEngines())('update impact on %s', (engine) => {
  let t: TestApp;
  let builder: LoggedIn;
  let explorer: LoggedIn;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock });
    const db = t.testDb.db;
    await seedGames(
      db,
      ALL.map((f) => ({ ...f, creatorName: 'Maker', updatedAt: new Date(f.updates.at(-1)!) })),
      NOW,
    );
    for (const f of ALL) {
      await insertRollups(
        db,
        'daily',
        f.days.map((d) => ({
          universeId: f.universeId,
          at: d.day,
          ccuAvg: d.ccu,
          ccuMax: Math.round(d.ccu),
          samples: 288,
          visits: 0,
        })),
      );
      await t.services.updates.record(
        db,
        f.updates.map((u, i) => ({
          universeId: f.universeId,
          releasedAt: new Date(u),
          previousAt: i > 0 ? new Date(f.updates[i - 1]!) : null,
          detectedAt: new Date(Date.parse(u) + 300_000),
        })),
      );
    }
    await t.services.updates.measureDue(NOW);
    builder = await signedIn(t, { plan: 'Builder' });
    explorer = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(() => t.close());

  const get = (url: string, who: LoggedIn = builder) => t.app.inject({ url, headers: bearer(who) });

  it('needs a signed-in caller, and answers 404 for a game it does not collect', async () => {
    expect((await t.app.inject({ url: '/api/update-impact/101' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/update-impact/recent' })).statusCode).toBe(401);
    const missing = await get('/api/update-impact/999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
  });

  it("lists a game's updates newest first, measured once their 7 days have passed", async () => {
    const res = await get('/api/update-impact/101');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      place_id: 101,
      universe_id: 1001,
      name: 'Alpha Tycoon',
      genre: 'simulation',
      next_cursor: null,
      limit_cap: 50,
    });
    expect(body.method).toContain('counterfactual');
    expect(body.updates).toEqual([
      {
        released_at: '2026-11-20T12:00:00.000Z',
        previous_update_at: '2026-10-30T02:00:00.000Z',
        detected_at: '2026-11-20T12:05:00.000Z',
        status: 'measuring',
        measurable_from: '2026-11-28T01:00:00.000Z',
        overlapping_update: false,
        impact: null,
      },
      {
        released_at: '2026-10-30T02:00:00.000Z',
        previous_update_at: '2026-10-10T18:00:00.000Z',
        detected_at: '2026-10-30T02:05:00.000Z',
        status: 'measured',
        measurable_from: '2026-11-07T01:00:00.000Z',
        overlapping_update: false,
        impact: expectedImpact(A, '2026-10-30'),
      },
      {
        released_at: '2026-10-10T18:00:00.000Z',
        previous_update_at: null,
        detected_at: '2026-10-10T18:05:00.000Z',
        status: 'measured',
        measurable_from: '2026-10-18T01:00:00.000Z',
        overlapping_update: false,
        impact: expectedImpact(A, '2026-10-10'),
      },
    ]);
    // The 40% step is found and called; the update that changed nothing is not.
    expect(body.updates[2].impact.percent).toBeGreaterThan(30);
    expect(body.updates[2].impact.significant).toBe(true);
    expect(Math.abs(body.updates[1].impact.percent)).toBeLessThan(8);
    expect(body.updates[1].impact.significant).toBe(false);
  });

  it('pages with a cursor and clamps limit to the plan cap', async () => {
    const first = (await get('/api/update-impact/101?limit=2')).json();
    expect(first.updates.map((u: { released_at: string }) => u.released_at)).toEqual([
      '2026-11-20T12:00:00.000Z',
      '2026-10-30T02:00:00.000Z',
    ]);
    const second = (await get(`/api/update-impact/101?limit=2&cursor=${first.next_cursor}`)).json();
    expect(second.updates.map((u: { released_at: string }) => u.released_at)).toEqual([
      '2026-10-10T18:00:00.000Z',
    ]);
    expect(second.next_cursor).toBeNull();
    const clamped = (await get('/api/update-impact/recent?days=60&limit=200', explorer)).json();
    expect(clamped.limit_cap).toBe(10);
    expect(clamped.items).toHaveLength(10);
    const bad = await get('/api/update-impact/101?cursor=bm9wZQ');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('says why an update could not be measured, and flags overlapping ones', async () => {
    const c = (await get('/api/update-impact/301')).json();
    expect(c.updates).toMatchObject([
      { status: 'insufficient_history', impact: null, overlapping_update: false },
    ]);
    const b = (await get('/api/update-impact/201')).json();
    expect(
      b.updates.map((u: { overlapping_update: boolean; status: string }) => [u.status, u.overlapping_update]),
    ).toEqual([
      ['measured', true],
      ['measured', true],
      ['measured', false],
    ]);
  });

  it('ranks market-wide gains and losses, leaving overlapping updates out', async () => {
    const gains = (await get('/api/update-impact/recent?days=60&limit=3')).json();
    expect(gains.direction).toBe('gains');
    expect(gains.since).toBe('2026-09-23T15:05:00.000Z');
    expect(gains.items[0]).toEqual({
      place_id: 101,
      universe_id: 1001,
      name: 'Alpha Tycoon',
      genre: 'simulation',
      update: expect.objectContaining({
        released_at: '2026-10-10T18:00:00.000Z',
        impact: expectedImpact(A, '2026-10-10'),
      }),
    });
    const losses = (await get('/api/update-impact/recent?days=60&direction=losses&genre=rpg')).json();
    expect(
      losses.items.map((i: { place_id: number; update: { released_at: string } }) => [
        i.place_id,
        i.update.released_at,
      ]),
    ).toEqual([[201, '2026-10-05T18:00:00.000Z']]);
    expect(losses.items[0].update.impact).toEqual(expectedImpact(B, '2026-10-05'));
    // Every measured, non-overlapping update of the 60 days, paged 5 at a time, each once, in order.
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { update: { impact: { percent: number } } }[]; next_cursor: string | null } = (
        await get(`/api/update-impact/recent?days=60&limit=5${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      seen.push(...page.items.map((i) => i.update.impact.percent));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(1 + 1 + 1 + 12); // A's two, B's first, the strategy games
    expect(seen).toEqual([...seen].sort((x, y) => y - x));
    const significant = (
      await get('/api/update-impact/recent?days=60&significant_only=true&limit=50')
    ).json();
    expect(
      significant.items.every(
        (i: { update: { impact: { significant: boolean } } }) => i.update.impact.significant,
      ),
    ).toBe(true);
    expect(significant.items.length).toBeLessThan(seen.length);
  });

  it('names the weekday and hour of release that did best, with sample sizes', async () => {
    const res = await get('/api/update-impact/timing?genre=strategy');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      genre: 'strategy',
      updates: 12,
      min_updates: 10,
      best_weekday: 1,
      best_hour: 15,
    });
    expect(body.by_weekday).toHaveLength(7);
    expect(body.by_hour).toHaveLength(24);
    const measured = STRATEGY.map((f) => measureImpact(f.days, '2026-10-13'));
    const percents = measured
      .map((m) => (m.status === 'measured' ? m.impact : Number.NaN))
      .sort((a, b) => a - b);
    const gains = measured.filter((m) => m.status === 'measured' && m.significant && m.impact > 0).length;
    expect(body.by_weekday[1]).toEqual({
      weekday: 1,
      name: 'Tuesday',
      updates: 12,
      mean_percent: pct(percents.reduce((s, v) => s + v, 0) / 12),
      median_percent: pct((percents[5]! + percents[6]!) / 2),
      significant_gain_share: Math.round((gains / 12) * 1000) / 1000,
      significant_loss_share: 0,
    });
    expect(body.by_weekday[0]).toEqual({
      weekday: 0,
      name: 'Monday',
      updates: 0,
      mean_percent: 0,
      median_percent: 0,
      significant_gain_share: 0,
      significant_loss_share: 0,
    });
    // Across the market: A's two (Saturday 18:00, Friday 02:00) and B's first (Monday 18:00) join in,
    // too few anywhere but Tuesday and 15:00 to be named best.
    const all = (await get('/api/update-impact/timing')).json();
    expect(all.updates).toBe(15);
    expect(all.by_weekday.map((d: { updates: number }) => d.updates)).toEqual([1, 12, 0, 0, 1, 1, 0]);
    expect(all.by_hour[18].updates).toBe(2);
    expect(all).toMatchObject({ best_weekday: 1, best_hour: 15 });
    const unknown = await get('/api/update-impact/timing?genre=nope');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().code).toBe('validation_failed');
  });

  it('serves the timing and recent bodies exactly as their schemas declare (they skip the serialiser)', async () => {
    const timing = closedValidator(TimingResponse, updateSchemas);
    for (const url of ['/api/update-impact/timing', '/api/update-impact/timing?genre=strategy&days=30']) {
      const res = await get(url);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expectValid(timing, res.body, url);
    }
    const recent = closedValidator(RecentResponse, updateSchemas);
    for (const url of [
      '/api/update-impact/recent?days=60',
      '/api/update-impact/recent?days=60&direction=losses',
    ]) {
      expectValid(recent, (await get(url)).body, url);
    }
  });

  it('answers timing from a cache kept 5 minutes, then computes it again', async () => {
    const url = '/api/update-impact/timing?genre=strategy';
    expect((await get(url)).json().updates).toBe(12);
    await t.testDb.db.query('UPDATE game_updates SET overlapping = true WHERE universe_id = $1', [
      STRATEGY[0]!.universeId,
    ]);
    expect((await get(url)).json().updates).toBe(12);
    clock.advance(5 * 60_000);
    expect((await get(url)).json().updates).toBe(11);
  });
});
