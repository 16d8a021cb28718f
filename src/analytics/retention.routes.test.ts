/**
 * The retention view against a small hand-computed fixture: two daily cohorts, days not observed
 * yet, activity after the read window, and the platform and segment filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

let n = 0;
/** One session_start of `player` on game r1 at 10:00 UTC of `day`. */
function seen(player: string, day: string, platform = 'platform_2') {
  n += 1;
  return {
    event_id: `rt-${String(n).padStart(6, '0')}`,
    ts: `${day}T10:00:00Z`,
    platform,
    game_id: 'r1',
    player_id: player,
    session_id: `${player}-${day}`,
    type: 'session_start',
    payload: {},
  };
}

/** 30 shares written as runs: runs([2, 0.5], [28, 0]) is 0.5, 0.5, then 28 zeros. */
function runs(...parts: [number, number | null][]): (number | null)[] {
  const out = parts.flatMap(([count, value]) => new Array<number | null>(count).fill(value));
  if (out.length !== 30) throw new Error(`runs make ${out.length} days, not 30`);
  return out;
}

/**
 * The clock reads 2026-11-25 12:00 UTC: day 30 of the 10-26 cohort is today, of the 10-27 one
 * tomorrow (not observed). All on platform_2 unless said.
 *   10-26 cohort: r1 (days 1, 7, 30), r2 (days 1, 4), r3 (never back)
 *   10-27 cohort: r4 (days 7, 19), r5 (days 1, 29)
 *   r0 first seen 10-25, back 10-26: in no cohort of the range.
 *   r6 first seen on platform_3 on 10-20, on platform_2 on 10-26 and back 10-28 (day 2 there).
 *   r7 first seen 10-24, back only 11-24 (day 31).
 */
function fixture() {
  return [
    seen('r0', '2026-10-25'),
    seen('r0', '2026-10-26'),
    seen('r1', '2026-10-26'),
    seen('r1', '2026-10-27'),
    seen('r1', '2026-11-02'),
    seen('r1', '2026-11-25'),
    seen('r2', '2026-10-26'),
    seen('r2', '2026-10-27'),
    seen('r2', '2026-10-30'),
    seen('r3', '2026-10-26'),
    seen('r4', '2026-10-27'),
    seen('r4', '2026-11-03'),
    seen('r4', '2026-11-15'),
    seen('r5', '2026-10-27'),
    seen('r5', '2026-10-28'),
    seen('r5', '2026-11-25'),
    seen('r6', '2026-10-20', 'platform_3'),
    seen('r6', '2026-10-26'),
    seen('r6', '2026-10-28'),
    seen('r7', '2026-10-24'),
    seen('r7', '2026-11-24'),
  ];
}

const header = (from: string, to: string, extra: Record<string, unknown> = {}) => ({
  game_id: 'r1',
  platform: null,
  from,
  to,
  granularity: 'day',
  segment: null,
  history_limited_from: null,
  ...extra,
});

describe.each(testEngines())('SDK analytics: retention (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-10-26', to: '2026-10-27' };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-25T12:00:00Z') });
    team = await analyticsTeam(t);
    const events = fixture();
    await sendEvents(t, team.key, [...events.slice(10), ...events.slice(0, 10)]);
  });
  afterAll(() => t.close());

  it('answers classic and rolling retention per cohort, null for days not observed yet', async () => {
    const res = await getView(t, team.headers, 'r1', 'retention', range);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...header('2026-10-26', '2026-10-27'),
      cohorts: [
        {
          date: '2026-10-26',
          size: 3,
          // Day 1: r1, r2; day 4: r2; days 7 and 30: r1.
          classic: runs([1, 0.6667], [2, 0], [1, 0.3333], [2, 0], [1, 0.3333], [22, 0], [1, 0.3333]),
          // Last seen: r1 day 30, r2 day 4, r3 never.
          rolling: runs([4, 0.6667], [26, 0.3333]),
        },
        {
          date: '2026-10-27',
          size: 2,
          // Day 1: r5; day 7: r4; day 19: r4; day 29: r5; day 30 (11-26) not observed.
          classic: runs([1, 0.5], [5, 0], [1, 0.5], [11, 0], [1, 0.5], [9, 0], [1, 0.5], [1, null]),
          // Last seen: r4 day 19, r5 day 29.
          rolling: runs([19, 1], [10, 0.5], [1, null]),
        },
      ],
      summary: {
        // d1 (2 + 1) / 5, d7 (1 + 1) / 5, d30 only the 10-26 cohort: 1 / 3.
        classic: { d1: 0.6, d7: 0.4, d30: 0.3333 },
        // d1 (2 + 2) / 5, d7 (1 + 2) / 5, d30 1 / 3.
        rolling: { d1: 0.8, d7: 0.6, d30: 0.3333 },
      },
    });
  });

  it('counts a return after the read window as rolling retention at every day', async () => {
    // r7's cohort alone: the window ends at 11-23 (10-24 + 30); the 11-24 return is after it.
    const res = await getView(t, team.headers, 'r1', 'retention', { from: '2026-10-24', to: '2026-10-24' });
    expect(res.json()).toEqual({
      ...header('2026-10-24', '2026-10-24'),
      cohorts: [{ date: '2026-10-24', size: 1, classic: runs([30, 0]), rolling: runs([30, 1]) }],
      summary: { classic: { d1: 0, d7: 0, d30: 0 }, rolling: { d1: 1, d7: 1, d30: 1 } },
    });
  });

  it('lists empty cohorts with null shares and no summary when nothing is observed', async () => {
    const res = await getView(t, team.headers, 'r1', 'retention', { from: '2026-11-24', to: '2026-11-25' });
    expect(res.json()).toEqual({
      ...header('2026-11-24', '2026-11-25'),
      // r1, r5 and r7 were seen on those days, but first seen earlier.
      cohorts: [
        { date: '2026-11-24', size: 0, classic: runs([30, null]), rolling: runs([30, null]) },
        { date: '2026-11-25', size: 0, classic: runs([30, null]), rolling: runs([30, null]) },
      ],
      summary: { classic: { d1: null, d7: null, d30: null }, rolling: { d1: null, d7: null, d30: null } },
    });
  });

  it('takes cohorts and returns on the filtered platform only', async () => {
    const res = await getView(t, team.headers, 'r1', 'retention', { ...range, platform: 'platform_2' });
    expect(res.statusCode).toBe(200);
    const [first, second] = res.json().cohorts;
    // r6 is first seen on platform_2 on 10-26 and back on day 2.
    expect(first).toEqual({
      date: '2026-10-26',
      size: 4,
      classic: runs([1, 0.5], [1, 0.25], [1, 0], [1, 0.25], [2, 0], [1, 0.25], [22, 0], [1, 0.25]),
      // Last seen: r1 day 30, r2 day 4, r6 day 2, r3 never.
      rolling: runs([2, 0.75], [2, 0.5], [26, 0.25]),
    });
    expect(second.size).toBe(2);
    expect(res.json().summary).toEqual({
      // d1 (2 + 1) / 6, d7 (1 + 1) / 6, d30 1 / 4.
      classic: { d1: 0.5, d7: 0.3333, d30: 0.25 },
      // d1 (3 + 2) / 6, d7 (1 + 2) / 6, d30 1 / 4.
      rolling: { d1: 0.8333, d7: 0.5, d30: 0.25 },
    });
  });

  it("keeps the segment's players only", async () => {
    // A stand-in resolver: segment 7 holds r1, r4 and r6 (segments themselves are tested elsewhere).
    const service = t.services.analytics.service;
    const before = service.segments;
    service.segments = { players: async (_team, id) => (id === 7 ? ['r1', 'r4', 'r6'] : null) };
    try {
      const res = await getView(t, team.headers, 'r1', 'retention', { ...range, segment: '7' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ...header('2026-10-26', '2026-10-27', { segment: 7 }),
        cohorts: [
          // r6 was first seen on 10-20 (platform_3): only r1.
          {
            date: '2026-10-26',
            size: 1,
            classic: runs([1, 1], [5, 0], [1, 1], [22, 0], [1, 1]),
            rolling: runs([30, 1]),
          },
          {
            date: '2026-10-27',
            size: 1,
            classic: runs([6, 0], [1, 1], [11, 0], [1, 1], [10, 0], [1, null]),
            rolling: runs([19, 1], [10, 0], [1, null]),
          },
        ],
        summary: { classic: { d1: 0.5, d7: 1, d30: 1 }, rolling: { d1: 1, d7: 1, d30: 1 } },
      });
    } finally {
      service.segments = before;
    }
  });
});
