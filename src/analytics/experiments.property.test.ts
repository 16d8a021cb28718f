/**
 * Property: for random exposures (contaminated players, unknown variants, other experiments),
 * sessions, purchases and custom events on two platforms, sent in random batches with the rollup job
 * between them, the rollup-backed results equal a from-scratch computation over the raw events,
 * written here from the README's definitions independently of the rollups: players per variant,
 * contaminated, D1 and D7 retention (observed players, retained), conversion, revenue per player and
 * a custom event reached after the first exposure.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsTeam, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

const TODAY = '2026-11-20';
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-08', '2026-11-09', '2026-11-12', '2026-11-19', TODAY];
const PLAYERS = ['pa', 'pb', 'pc', 'pd', 'pe'];
const VARIANTS = ['control', 'grid'];

type Ev = {
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  type: string;
  payload: Record<string, unknown>;
};

const time = fc
  .tuple(
    fc.constantFrom(...DAYS),
    fc.oneof(fc.constant(0), fc.constant(86_399_999), fc.integer({ min: 0, max: 86_399_999 })),
  )
  .map(([day, ms]) => new Date(Date.parse(`${day}T00:00:00Z`) + ms).toISOString());

const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('custom'),
      payload: fc.record({
        name: fc.constant('experiment_exposure'),
        experiment: fc.constantFrom('prop-exp', 'prop-exp', 'prop-exp', 'other'),
        variant: fc.constantFrom('control', 'control', 'grid', 'grid', 'blue'),
      }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('session_start'), payload: fc.constant({}) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('purchase'),
      payload: fc.record({
        sku: fc.constant('gems'),
        price: fc.constantFrom(0.99, 4.99, 100),
        quantity: fc.integer({ min: 1, max: 3 }),
        currency: fc.constantFrom('USD', 'R$', 'EUR'),
      }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('custom'),
      payload: fc.record({ name: fc.constantFrom('quest', 'trade') }),
    }),
  },
);

const eventArb = fc.record({
  player: fc.constantFrom(...PLAYERS),
  platform: fc.constantFrom('platform_2', 'platform_3'),
  ts: time,
  body,
});

const addDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The results' counts, from scratch. */
function expected(events: readonly Ev[]) {
  const exposures = events.filter(
    (e) =>
      e.type === 'custom' &&
      e.payload.name === 'experiment_exposure' &&
      e.payload.experiment === 'prop-exp' &&
      typeof e.payload.variant === 'string',
  );
  const first = new Map<string, { ts: string; variant: string; variants: Set<string> }>();
  for (const e of [...exposures].sort((a, b) =>
    a.ts === b.ts ? String(a.payload.variant).localeCompare(String(b.payload.variant)) : a.ts < b.ts ? -1 : 1,
  )) {
    const f = first.get(e.player_id);
    if (f) f.variants.add(String(e.payload.variant));
    else
      first.set(e.player_id, {
        ts: e.ts,
        variant: String(e.payload.variant),
        variants: new Set([String(e.payload.variant)]),
      });
  }
  const activeOn = (player: string, day: string) =>
    events.some((e) => e.player_id === player && e.ts.startsWith(day));
  const usd = (e: Ev) => {
    const p = e.payload as { price: number; quantity: number; currency: string };
    return p.currency === 'USD'
      ? p.price * p.quantity
      : p.currency === 'R$'
        ? p.price * p.quantity * 0.0038
        : 0;
  };
  const out = VARIANTS.map((variant) => ({
    variant,
    players: 0,
    contaminated: 0,
    d1: [0, 0],
    d7: [0, 0],
    converted: 0,
    revenue: [] as number[],
    quest: 0,
  }));
  for (const [player, f] of first) {
    const v = out.find((o) => o.variant === f.variant);
    if (!v) continue;
    if (f.variants.size > 1) {
      v.contaminated += 1;
      continue;
    }
    v.players += 1;
    const day = f.ts.slice(0, 10);
    for (const [n, slot] of [
      [1, v.d1],
      [7, v.d7],
    ] as const) {
      if (addDay(day, n) < TODAY) {
        slot[0] = slot[0]! + 1;
        if (activeOn(player, addDay(day, n))) slot[1] = slot[1]! + 1;
      }
    }
    const bought = events.filter(
      (e) => e.player_id === player && e.type === 'purchase' && e.ts.slice(0, 10) >= day,
    );
    if (bought.length > 0) v.converted += 1;
    v.revenue.push(bought.reduce((s, e) => s + usd(e), 0));
    if (
      events.some(
        (e) => e.player_id === player && e.type === 'custom' && e.payload.name === 'quest' && e.ts >= f.ts,
      )
    ) {
      v.quest += 1;
    }
  }
  return out;
}

describe.each(testEngines())('experiment results equal a from-scratch computation (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(`${TODAY}T12:00:00Z`) });
    await t.app.ingest.writer.stop();
  });
  afterAll(() => t.close());

  it('for random events in random batches', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 4 }),
        async (drawn, sizes) => {
          run += 1;
          const team = await analyticsTeam(t);
          const events: Ev[] = drawn.map((e, i) => ({
            event_id: `xprop-${run}-${String(i).padStart(4, '0')}`,
            ts: e.ts,
            platform: e.platform,
            game_id: 'prop-game',
            player_id: e.player,
            type: e.body.type,
            payload: e.body.payload,
          }));
          let at = 0;
          for (let b = 0; at < events.length; b += 1) {
            const size = sizes[b % sizes.length]!;
            await sendEvents(t, team.key, events.slice(at, at + size));
            at += size;
          }
          const created = await t.app.inject({
            method: 'POST',
            url: '/api/sdk/experiments',
            headers: team.headers,
            payload: {
              game_id: 'prop-game',
              key: 'prop-exp',
              variants: [
                { key: 'control', weight: 1 },
                { key: 'grid', weight: 1 },
              ],
              primary_metric: { metric: 'd1_retention' },
              secondary_metrics: [
                { metric: 'd7_retention' },
                { metric: 'conversion' },
                { metric: 'revenue_per_player' },
                { metric: 'custom', event_name: 'quest' },
              ],
              start_day: DAYS[0],
            },
          });
          expect(created.statusCode, created.body).toBe(201);
          const res = await t.app.inject({
            url: `/api/sdk/experiments/${created.json().id}/results`,
            headers: team.headers,
          });
          expect(res.statusCode, res.body).toBe(200);
          const r = res.json();
          const want = expected(events);
          type Fig = { players: number; successes: number | null; value: number | null };
          const [d1, d7, conversion, revenue, quest] = (r.metrics as { variants: Fig[] }[]).map(
            (m) => m.variants,
          );
          for (const [i, w] of want.entries()) {
            expect(r.variants[i]).toMatchObject({ players_exposed: w.players, contaminated: w.contaminated });
            expect([d1![i]!.players, d1![i]!.successes]).toEqual(w.d1);
            expect([d7![i]!.players, d7![i]!.successes]).toEqual(w.d7);
            expect([conversion![i]!.players, conversion![i]!.successes]).toEqual([w.players, w.converted]);
            expect([quest![i]!.players, quest![i]!.successes]).toEqual([w.players, w.quest]);
            const mean =
              w.revenue.length === 0 ? null : w.revenue.reduce((s, x) => s + x, 0) / w.revenue.length;
            if (mean === null) expect(revenue![i]!.value).toBeNull();
            else expect(revenue![i]!.value).toBeCloseTo(mean, 5);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
