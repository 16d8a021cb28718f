/**
 * The levels view against a small hand-computed fixture: attempts across two days, a player who
 * never finishes, a player who finished before the range, the default result (complete), the
 * range narrowing the attempts counted, and the platform filter. Then the counts the view reads
 * (migration 0022) as late days arrive on another platform, and a property: for random level
 * events sent in random batches, the counts, the per-player path a segment takes and a
 * from-scratch computation over the events agree for every range and platform filter.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsTeam,
  analyticsTeam,
  getView,
  sendEvents,
  sendInBatches,
} from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

let n = 0;
function lvl(
  player: string,
  ts: string,
  level: number,
  result?: string,
  platform = 'platform_2',
  game = 'g1',
) {
  n += 1;
  return {
    event_id: `lv-${String(n).padStart(6, '0')}`,
    ts,
    platform,
    game_id: game,
    player_id: player,
    session_id: `s-${player}`,
    type: 'level',
    payload: result === undefined ? { level } : { level, result },
  };
}

/**
 * The clock reads 2026-11-20 12:00 UTC; the range is 2026-11-18..20 unless a test says otherwise.
 *   pA  level 1: 18th loss, loss; 19th loss, win, complete (finishes on the 19th after 2 + 2 = 4)
 *       level 0: 20th one event with no result (complete by default: 1 attempt)
 *   pB  level 1: 18th win (1 attempt); level 2: 18th quit, 19th loss (never finishes)
 *   pC  level 1: 20th loss, loss, complete (3 attempts)
 *   pD  level 1: 15th win (before the range); 19th loss, win (not a first finish in the range)
 *   pE  level 5 on platform_1: 18th win
 */
function fixture() {
  return [
    lvl('pA', '2026-11-18T10:00:00Z', 1, 'loss'),
    lvl('pA', '2026-11-18T10:05:00Z', 1, 'loss'),
    // Sent out of ts order: the win at 10:05 is still the day's first finish.
    lvl('pA', '2026-11-19T10:10:00Z', 1, 'complete'),
    lvl('pA', '2026-11-19T10:05:00Z', 1, 'win'),
    lvl('pA', '2026-11-19T10:00:00Z', 1, 'loss'),
    lvl('pA', '2026-11-20T09:00:00Z', 0),
    lvl('pB', '2026-11-18T11:00:00Z', 1, 'win'),
    lvl('pB', '2026-11-18T11:10:00Z', 2, 'quit'),
    lvl('pB', '2026-11-19T11:10:00Z', 2, 'loss'),
    lvl('pC', '2026-11-20T08:00:00Z', 1, 'loss'),
    lvl('pC', '2026-11-20T08:01:00Z', 1, 'loss'),
    lvl('pC', '2026-11-20T08:02:00Z', 1, 'complete'),
    lvl('pD', '2026-11-15T08:00:00Z', 1, 'win'),
    lvl('pD', '2026-11-19T08:00:00Z', 1, 'loss'),
    lvl('pD', '2026-11-19T08:01:00Z', 1, 'win'),
    lvl('pE', '2026-11-18T07:00:00Z', 5, 'win', 'platform_1'),
  ];
}

const header = {
  game_id: 'g1',
  platform: null,
  granularity: 'day',
  segment: null,
  history_limited_from: null,
};

describe.each(testEngines())('SDK analytics: levels view (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('answers per-level attempts, rates and the median attempts to a first finish', async () => {
    const res = await getView(t, team.headers, 'g1', 'levels', { from: '2026-11-18', to: '2026-11-20' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...header,
      from: '2026-11-18',
      to: '2026-11-20',
      levels: [
        {
          level: 0,
          players: 1,
          attempts: 1,
          win_rate: 0,
          loss_rate: 0,
          quit_rate: 0,
          complete_rate: 1,
          median_attempts_to_complete: 1,
        },
        // 11 attempts: pA 5, pB 1, pC 3, pD 2. Wins pA, pB, pD = 3/11; losses pA 3, pC 2, pD 1 = 6/11;
        // completes pA, pC = 2/11. First finishes in the range: pB 1, pC 3, pA 4 (pD finished on the
        // 15th) → median 3.
        {
          level: 1,
          players: 4,
          attempts: 11,
          win_rate: 0.2727,
          loss_rate: 0.5455,
          quit_rate: 0,
          complete_rate: 0.1818,
          median_attempts_to_complete: 3,
        },
        {
          level: 2,
          players: 1,
          attempts: 2,
          win_rate: 0,
          loss_rate: 0.5,
          quit_rate: 0.5,
          complete_rate: 0,
          median_attempts_to_complete: null,
        },
        {
          level: 5,
          players: 1,
          attempts: 1,
          win_rate: 1,
          loss_rate: 0,
          quit_rate: 0,
          complete_rate: 0,
          median_attempts_to_complete: 1,
        },
      ],
    });
  });

  it('counts only the attempts inside the range, and the first finishes that fall in it', async () => {
    const res = await getView(t, team.headers, 'g1', 'levels', {
      from: '2026-11-19',
      to: '2026-11-20',
      platform: 'platform_2',
    });
    expect(res.statusCode).toBe(200);
    // Level 1 on the 19th–20th: pA 3, pC 3, pD 2 = 8 attempts; wins pA, pD = 2/8; losses pA, pC 2,
    // pD = 4/8; completes pA, pC = 2/8. First finishes: pA (2 attempts inside the range: the 18th is
    // not read) and pC 3 → median 2.5; pB finished on the 18th, pD on the 15th. platform_1's level
    // 5 is left out.
    expect(res.json()).toEqual({
      ...header,
      platform: 'platform_2',
      from: '2026-11-19',
      to: '2026-11-20',
      levels: [
        {
          level: 0,
          players: 1,
          attempts: 1,
          win_rate: 0,
          loss_rate: 0,
          quit_rate: 0,
          complete_rate: 1,
          median_attempts_to_complete: 1,
        },
        {
          level: 1,
          players: 3,
          attempts: 8,
          win_rate: 0.25,
          loss_rate: 0.5,
          quit_rate: 0,
          complete_rate: 0.25,
          median_attempts_to_complete: 2.5,
        },
        {
          level: 2,
          players: 1,
          attempts: 1,
          win_rate: 0,
          loss_rate: 1,
          quit_rate: 0,
          complete_rate: 0,
          median_attempts_to_complete: null,
        },
      ],
    });
  });

  it('answers an empty list for a range without level events', async () => {
    const res = await getView(t, team.headers, 'g1', 'levels', { from: '2026-11-16', to: '2026-11-17' });
    expect(res.json()).toEqual({ ...header, from: '2026-11-16', to: '2026-11-17', levels: [] });
  });

  it('keeps its counts right as an earlier day arrives late on another platform', async () => {
    // Game g2, level 3. First: pF on platform_2 loses on the 19th and wins on the 20th; pG on
    // platform_2 loses on the 17th and the 19th.
    await sendEvents(t, team.key, [
      lvl('pF', '2026-11-19T09:00:00Z', 3, 'loss', 'platform_2', 'g2'),
      lvl('pF', '2026-11-20T09:00:00Z', 3, 'win', 'platform_2', 'g2'),
      lvl('pG', '2026-11-17T09:00:00Z', 3, 'loss', 'platform_2', 'g2'),
      lvl('pG', '2026-11-19T09:30:00Z', 3, 'loss', 'platform_2', 'g2'),
    ]);
    const level3 = async (query: Record<string, string>) => {
      const res = await getView(t, team.headers, 'g2', 'levels', query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().levels;
    };
    const row = (players: number, attempts: number, wins: number, median: number | null) => [
      {
        level: 3,
        players,
        attempts,
        win_rate: Math.round((wins / attempts) * 1e4) / 1e4,
        loss_rate: Math.round(((attempts - wins) / attempts) * 1e4) / 1e4,
        quit_rate: 0,
        complete_rate: 0,
        median_attempts_to_complete: median,
      },
    ];
    // 18th–20th: pF 2 attempts, pG 1 (the 19th; the 17th is before the range, and pG counts once).
    // pF's first finish, the 20th: 1 + 1 = 2 attempts.
    expect(await level3({ from: '2026-11-18', to: '2026-11-20' })).toEqual(row(2, 3, 1, 2));
    expect(await level3({ from: '2026-11-19', to: '2026-11-20' })).toEqual(row(2, 3, 1, 2));

    // Late, on platform_1: pF loses on the 17th, and on the 18th loses twice, then wins.
    await sendEvents(t, team.key, [
      lvl('pF', '2026-11-17T08:00:00Z', 3, 'loss', 'platform_1', 'g2'),
      lvl('pF', '2026-11-18T08:00:00Z', 3, 'loss', 'platform_1', 'g2'),
      lvl('pF', '2026-11-18T08:01:00Z', 3, 'loss', 'platform_1', 'g2'),
      lvl('pF', '2026-11-18T08:02:00Z', 3, 'win', 'platform_1', 'g2'),
    ]);
    // Combined, pF's first finish is now the 18th, after 3 attempts that day (the 17th is not read).
    expect(await level3({ from: '2026-11-18', to: '2026-11-20' })).toEqual(row(2, 6, 2, 3));
    // From the 19th, that finish is before the range: nobody finishes first in it.
    expect(await level3({ from: '2026-11-19', to: '2026-11-20' })).toEqual(row(2, 3, 1, null));
    // platform_2 alone is as it was: pF finishes there first on the 20th.
    expect(await level3({ from: '2026-11-18', to: '2026-11-20', platform: 'platform_2' })).toEqual(
      row(2, 3, 1, 2),
    );
    // From the 17th: 1 + 3 attempts to pF's finish, on platform_1 and combined.
    expect(await level3({ from: '2026-11-17', to: '2026-11-20', platform: 'platform_1' })).toEqual(
      row(1, 4, 1, 4),
    );
    expect(await level3({ from: '2026-11-17', to: '2026-11-20' })).toEqual(row(2, 8, 2, 4));
  });

  it("answers 404 for another team's game", async () => {
    const stranger = await analyticsTeam(t);
    const res = await getView(t, stranger.headers, 'g1', 'levels');
    expect([res.statusCode, res.json().code]).toEqual([404, 'not_found']);
  });
});

/** A level event of the property: its result (none: complete by default). */
interface LevelEvent {
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string;
  type: 'level';
  payload: { level: number; result?: string };
}

const PROP_DAYS = ['2026-11-14', '2026-11-15', '2026-11-17', '2026-11-18', '2026-11-19'];

/**
 * The view from scratch over the distinct events, as levels.view.ts describes it. The attempts
 * to a first finish on its day are counted per platform that finished that day (each up to its own
 * first finish), as the per-platform rollup rows hold them.
 */
function expectedLevels(events: readonly LevelEvent[], from: string, to: string, platform: string | null) {
  const dayOf = (e: LevelEvent) => e.ts.slice(0, 10);
  const resultOf = (e: LevelEvent) => e.payload.result ?? 'complete';
  const finished = (e: LevelEvent) => ['win', 'complete'].includes(resultOf(e));
  const scoped = events.filter((e) => platform === null || e.platform === platform);
  const inRange = scoped.filter((e) => dayOf(e) >= from && dayOf(e) <= to);
  const levels = [...new Set(inRange.map((e) => e.payload.level))].sort((a, b) => a - b);
  const rate = (k: number, of: number) => Math.round((k / of) * 1e4) / 1e4;
  return levels.map((level) => {
    const at = inRange.filter((e) => e.payload.level === level);
    const count = (r: string) => at.filter((e) => resultOf(e) === r).length;
    const tries: number[] = [];
    for (const player of new Set(at.map((e) => e.player_id))) {
      const mine = scoped.filter((e) => e.payload.level === level && e.player_id === player);
      const first = mine.filter(finished).map(dayOf).sort()[0];
      if (first === undefined || first < from || first > to) continue;
      let n = mine.filter((e) => dayOf(e) >= from && dayOf(e) < first).length;
      for (const p of new Set(mine.map((e) => e.platform))) {
        const thatDay = mine.filter((e) => e.platform === p && dayOf(e) === first);
        const done = thatDay.filter(finished).map((e) => Date.parse(e.ts));
        if (done.length > 0) n += thatDay.filter((e) => Date.parse(e.ts) <= Math.min(...done)).length;
      }
      tries.push(n);
    }
    tries.sort((a, b) => a - b);
    const mid = (tries.length - 1) / 2;
    return {
      level,
      players: new Set(at.map((e) => e.player_id)).size,
      attempts: at.length,
      win_rate: rate(count('win'), at.length),
      loss_rate: rate(count('loss'), at.length),
      quit_rate: rate(count('quit'), at.length),
      complete_rate: rate(count('complete'), at.length),
      median_attempts_to_complete:
        tries.length === 0 ? null : (tries[Math.floor(mid)]! + tries[Math.ceil(mid)]!) / 2,
    };
  });
}

const levelEventArb = fc
  .record({
    player: fc.constantFrom('pa', 'pb', 'pc'),
    platform: fc.constantFrom('platform_1', 'platform_2'),
    day: fc.constantFrom(...PROP_DAYS),
    ms: fc.integer({ min: 0, max: 86_399_999 }),
    level: fc.integer({ min: 0, max: 2 }),
    result: fc.constantFrom(undefined, 'win', 'loss', 'loss', 'quit', 'complete'),
  })
  .map((e) => ({
    ts: new Date(Date.parse(`${e.day}T00:00:00Z`) + e.ms).toISOString(),
    platform: e.platform,
    game_id: 'lv-prop',
    player_id: e.player,
    session_id: `${e.player}-s`,
    type: 'level' as const,
    payload: e.result === undefined ? { level: e.level } : { level: e.level, result: e.result },
  }));

describe.each(testEngines())('SDK analytics: levels view, counts against the raw events (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    // The test runs the rollup job itself, between batches.
    await t.app.ingest.writer.stop();
  });
  afterAll(() => t.close());

  it('for random events sent in random batches, late days included', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(levelEventArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 12 }), rollup: fc.boolean() }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (drawn, batches) => {
          run += 1;
          const team = await analyticsTeam(t);
          const seg = await t.app.inject({
            method: 'POST',
            url: '/api/sdk/segments',
            headers: team.headers,
            payload: { name: 'everyone', conditions: [{ field: 'game_id', op: 'eq', value: 'lv-prop' }] },
          });
          expect(seg.statusCode, seg.body).toBe(201);
          const everyone = String(seg.json().id);
          const events: LevelEvent[] = drawn.map((e, i) => ({
            ...e,
            event_id: `lvp-${run}-${String(i).padStart(4, '0')}`,
          }));
          await sendInBatches(t, team.key, events, batches);
          for (const [from, to] of [
            [PROP_DAYS[0]!, PROP_DAYS.at(-1)!],
            ['2026-11-15', '2026-11-18'],
            ['2026-11-17', '2026-11-19'],
            ['2026-11-18', '2026-11-18'],
          ] as const) {
            // A platform the game has no events on is not found (404): only those it has.
            for (const platform of [null, ...new Set(events.map((e) => e.platform))]) {
              const query: Record<string, string> = { from, to, ...(platform ? { platform } : {}) };
              const want = expectedLevels(events, from, to, platform);
              const counted = await getView(t, team.headers, 'lv-prop', 'levels', query);
              expect(counted.statusCode, counted.body).toBe(200);
              expect(counted.json().levels, `${from}..${to} ${platform}`).toEqual(want);
              const perPlayer = await getView(t, team.headers, 'lv-prop', 'levels', {
                ...query,
                segment: everyone,
              });
              expect(perPlayer.json().levels, `segment ${from}..${to} ${platform}`).toEqual(want);
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 240_000);
});
