/**
 * The levels view against a small hand-computed fixture: attempts across two days, a player who
 * never finishes, a player who finished before the range, the default result (complete), the
 * range narrowing the attempts counted, and the platform filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

let n = 0;
function lvl(player: string, ts: string, level: number, result?: string, platform = 'platform_2') {
  n += 1;
  return {
    event_id: `lv-${String(n).padStart(6, '0')}`,
    ts,
    platform,
    game_id: 'g1',
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

  it("answers 404 for another team's game", async () => {
    const stranger = await analyticsTeam(t);
    const res = await getView(t, stranger.headers, 'g1', 'levels');
    expect([res.statusCode, res.json().code]).toEqual([404, 'not_found']);
  });
});
