/**
 * Property: for random event sets (repeated event ids, shuffled and late arrival, events on UTC day
 * and month boundaries, batches in both ingest modes, the rollup job running between batches), the
 * rollup-backed overview and engagement series (stored day stats and activity bits) equal a
 * from-scratch computation over the raw events, written here independently of the rollups, and the
 * live computation a segment takes (here one holding every player) gives the same engagement.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendInBatches } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

// More than a week apart at first, so WAU windows close between the days; all inside the plan's
// 30-day history at the test's clock.
const DAYS = ['2026-10-08', '2026-10-16', '2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'];
const PLAYERS = ['pa', 'pb', 'pc', 'pd'];
const COUNTRIES = ['DE', 'US', 'BR'];

interface Ev {
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string;
  type: string;
  payload: Record<string, unknown>;
}

/** The day a session id belongs to: sessions last at most a day and a bit, as the rollups take them
 * to (sessions.repo.ts), so an id is reused on one day, or over 10-31 and 11-01 (a session over
 * midnight and a month boundary). */
const sessionDay = (ts: string) => (ts.startsWith('2026-11-01') ? '2026-10-31' : ts.slice(0, 10));

/** A time on one of DAYS, often right at a day's first or last millisecond. */
const time = fc
  .tuple(
    fc.constantFrom(...DAYS),
    fc.oneof(fc.constant(0), fc.constant(86_399_999), fc.integer({ min: 0, max: 86_399_999 })),
  )
  .map(([day, ms]) => new Date(Date.parse(`${day}T00:00:00Z`) + ms).toISOString());

const payloadOf = fc.oneof(
  fc.record({
    type: fc.constant('session_start'),
    payload: fc.record({ country: fc.constantFrom(...COUNTRIES) }),
  }),
  fc.record({
    type: fc.constant('session_end'),
    payload: fc.record({ duration_s: fc.integer({ min: 1, max: 7_200 }) }),
  }),
  fc.record({
    type: fc.constant('purchase'),
    payload: fc.record({
      sku: fc.constantFrom('gems', 'vip'),
      price: fc.constantFrom(0.99, 4.99, 100),
      quantity: fc.integer({ min: 1, max: 3 }),
      currency: fc.constantFrom('USD', 'R$'),
    }),
  }),
  fc.record({ type: fc.constant('level'), payload: fc.record({ level: fc.integer({ min: 0, max: 3 }) }) }),
  fc.record({ type: fc.constant('custom'), payload: fc.record({ name: fc.constantFrom('quest', 'trade') }) }),
);

const eventArb = fc
  .record({
    player: fc.constantFrom(...PLAYERS),
    session: fc.integer({ min: 0, max: 2 }),
    ts: time,
    body: payloadOf,
  })
  .map(
    (e): Omit<Ev, 'event_id'> => ({
      ts: e.ts,
      platform: 'platform_3',
      game_id: 'prop-game',
      player_id: e.player,
      session_id: `${e.player}-s${e.session}-${sessionDay(e.ts)}`,
      type: e.body.type,
      payload: e.body.payload,
    }),
  );

/** The overview, from scratch over the distinct events (the same definitions as the README). */
/** Engagement's daily DAU, WAU and MAU over the range, from scratch. */
function expectedSeries(events: readonly Ev[], from: string, to: string) {
  const out: { date: string; dau: number; wau: number; mau: number }[] = [];
  const day = 86_400_000;
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += day) {
    const within = (days: number) =>
      new Set(
        events
          .filter((e) => Date.parse(e.ts) < t + day && Date.parse(e.ts) >= t - (days - 1) * day)
          .map((e) => e.player_id),
      ).size;
    out.push({
      date: new Date(t).toISOString().slice(0, 10),
      dau: within(1),
      wau: within(7),
      mau: within(30),
    });
  }
  return out;
}

function expected(events: readonly Ev[]) {
  const dayOf = (ts: string) => ts.slice(0, 10);
  const active = new Map<string, Set<string>>();
  const revenueOf = (e: Ev) => {
    const p = e.payload as { price: number; quantity: number; currency: string };
    return p.price * p.quantity * (p.currency === 'USD' ? 1 : 0.0038);
  };
  let revenue = 0;
  const payers = new Set<string>();
  const sessions = new Map<string, { start: string; first: number; last: number; end: number | null }>();
  for (const e of events) {
    const d = dayOf(e.ts);
    if (!active.has(d)) active.set(d, new Set());
    active.get(d)!.add(e.player_id);
    if (e.type === 'purchase') {
      revenue += revenueOf(e);
      payers.add(e.player_id);
    }
    const t = Date.parse(e.ts);
    const s = sessions.get(e.session_id) ?? { start: d, first: t, last: t, end: null };
    if (d < s.start) s.start = d;
    s.first = Math.min(s.first, t);
    s.last = Math.max(s.last, t);
    if (e.type === 'session_end') {
      s.end = Math.max(s.end ?? 0, (e.payload as { duration_s: number }).duration_s);
    }
    sessions.set(e.session_id, s);
  }
  const playerDays = [...active.values()].reduce((n, s) => n + s.size, 0);
  const players = new Set(events.map((e) => e.player_id));
  return {
    dau: [...active.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, s]) => ({ date, players: s.size })),
    players: players.size,
    new_players: players.size,
    mau: players.size,
    sessions: sessions.size,
    revenue_usd: Number(revenue.toFixed(4)),
    arpdau_usd: playerDays > 0 ? Number((revenue / playerDays).toFixed(4)) : null,
    paying_players: payers.size,
  };
}

describe.each(testEngines())(
  'rollups equal a from-scratch computation over the raw events (%s)',
  (engine) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ engine, clock: fixedClock('2026-11-03T06:00:00Z') });
      // The test runs the rollup job itself, between batches.
      await t.app.ingest.writer.stop();
    });
    afterAll(() => t.close());

    it('for random batches, repeats, shuffles and both ingest modes', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(eventArb, { minLength: 1, maxLength: 40 }),
          fc.array(fc.nat(), { maxLength: 10 }),
          fc.array(
            fc.record({ size: fc.integer({ min: 1, max: 15 }), sync: fc.boolean(), rollup: fc.boolean() }),
            {
              minLength: 1,
              maxLength: 8,
            },
          ),
          async (drawn, repeats, batches) => {
            run += 1;
            const team: AnalyticsTeam = await analyticsTeam(t);
            // Every player of the game: a segment makes the views compute their day figures live.
            const seg = await t.app.inject({
              method: 'POST',
              url: '/api/sdk/segments',
              headers: team.headers,
              payload: { name: 'everyone', conditions: [{ field: 'game_id', op: 'eq', value: 'prop-game' }] },
            });
            expect(seg.statusCode, seg.body).toBe(201);
            const everyone = seg.json().id as number;
            const distinct: Ev[] = drawn.map((e, i) => ({
              ...e,
              event_id: `prop-${run}-${String(i).padStart(4, '0')}`,
            }));
            // Repeats of earlier events (the same id and body), sent again later: deduped, never counted twice.
            const sent = [...distinct, ...repeats.map((r) => distinct[r % distinct.length]!)];
            await sendInBatches(t, team.key, sent, batches);
            const res = await getView(t, team.headers, 'prop-game', 'overview', {
              from: DAYS[0]!,
              to: DAYS.at(-1)!,
            });
            expect(res.statusCode, res.body).toBe(200);
            const got = res.json();
            const want = expected(distinct);
            expect({
              dau: got.dau,
              players: got.players,
              new_players: got.new_players,
              mau: got.mau,
              sessions: got.sessions,
              revenue_usd: got.revenue_usd,
              arpdau_usd: got.arpdau_usd,
              paying_players: got.paying_players,
            }).toEqual(want);

            const range = { from: DAYS[0]!, to: DAYS.at(-1)! };
            const stored = (await getView(t, team.headers, 'prop-game', 'engagement', range)).json();
            expect(
              stored.series.map((p: { date: string; dau: number; wau: number; mau: number }) => ({
                date: p.date,
                dau: p.dau,
                wau: p.wau,
                mau: p.mau,
              })),
            ).toEqual(expectedSeries(distinct, range.from, range.to));
            const live = (
              await getView(t, team.headers, 'prop-game', 'engagement', {
                ...range,
                segment: String(everyone),
              })
            ).json();
            expect({ ...live, segment: null }).toEqual(stored);
          },
        ),
        { numRuns: 12 },
      );
    }, 240_000);
  },
);
