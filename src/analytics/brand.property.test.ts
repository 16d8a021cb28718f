/**
 * Property: for random brand events (zone enters and exits with decimal dwell, equips, shares,
 * survey shown and responses with and without their own cohort) sent in random batches with the
 * rollup job running between some of them, the rollup-backed brand and brand-lift views equal a
 * from-scratch computation over the raw events written here, independently of the rollups, for
 * the platforms combined and for one platform; and a segment holding every player answers the same.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendInBatches } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

// The first day lies before the range read: its shown events still assign a later response's cohort.
const DAYS = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'];
const RANGE = { from: '2026-10-31', to: '2026-11-02' };
const PLAYERS = ['pa', 'pb', 'pc', 'pd'];
const PLATFORMS = ['platform_1', 'platform_2'];
/** Survey v1's favourable answer keys (the test defines them); v2 defines none. */
const FAVORABLE_KEYS = ['a'];

interface Ev {
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  type: string;
  payload: Record<string, unknown>;
}

const time = fc
  .tuple(
    fc.constantFrom(...DAYS),
    fc.oneof(fc.constant(0), fc.constant(86_399_999), fc.integer({ min: 0, max: 86_399_999 })),
  )
  .map(([day, ms]) => new Date(Date.parse(`${day}T00:00:00Z`) + ms).toISOString());

const cohortArb = fc.constantFrom(undefined, 'exposed', 'control', 'Control', 'other');
const body = fc.oneof(
  fc.record({
    type: fc.constant('brand_zone_enter'),
    payload: fc.record({ zone_id: fc.constantFrom('z1', 'z2') }),
  }),
  fc.record({
    type: fc.constant('brand_zone_exit'),
    // Hundredths of a second, so the tenths the rollup keeps are exact to compute here.
    payload: fc.record({
      zone_id: fc.constantFrom('z1', 'z2'),
      dwell_seconds: fc.integer({ min: 0, max: 30_000 }).map((n) => n / 100),
    }),
  }),
  fc.record({ type: fc.constant('equip'), payload: fc.record({ item_id: fc.constantFrom('i1', 'i2') }) }),
  fc.record({
    type: fc.constant('share'),
    payload: fc.record({ share_platform: fc.constantFrom('s1', 's2') }),
  }),
  fc.record({
    type: fc.constant('brand_survey_shown'),
    payload: fc.record(
      { survey_id: fc.constantFrom('v1', 'v2'), cohort: cohortArb },
      { requiredKeys: ['survey_id'] },
    ),
  }),
  fc.record({
    type: fc.constant('brand_survey_response'),
    payload: fc.record(
      {
        survey_id: fc.constantFrom('v1', 'v2'),
        answer: fc.constantFrom('a', 'b', 'c'),
        favorable: fc.boolean(),
        cohort: cohortArb,
      },
      { requiredKeys: ['survey_id', 'answer'] },
    ),
  }),
);

const eventArb = fc
  .record({ player: fc.constantFrom(...PLAYERS), platform: fc.constantFrom(...PLATFORMS), ts: time, body })
  .map((e): Omit<Ev, 'event_id'> => {
    // fc.record leaves optional keys out; an explicit undefined would not survive JSON anyway.
    const payload = Object.fromEntries(Object.entries(e.body.payload).filter(([, v]) => v !== undefined));
    return {
      ts: e.ts,
      platform: e.platform,
      game_id: 'brand-game',
      player_id: e.player,
      type: e.body.type,
      payload,
    };
  });

const r4 = (a: number, b: number) => (b > 0 ? Number((a / b).toFixed(4)) : null);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const str = (e: Ev, key: string) => e.payload[key] as string;

/** percentile_cont(0.5) of the values. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const pos = (v.length - 1) / 2;
  const lo = Math.floor(pos);
  return pos === lo ? v[lo]! : v[lo]! + (pos - lo) * (v[lo + 1]! - v[lo]!);
}

function inScope(events: readonly Ev[], platform: string | null): Ev[] {
  return events.filter(
    (e) =>
      (platform === null || e.platform === platform) &&
      e.ts.slice(0, 10) >= RANGE.from &&
      e.ts.slice(0, 10) <= RANGE.to,
  );
}

function expectedBrand(all: readonly Ev[], platform: string | null) {
  const events = inScope(all, platform);
  const of = (type: string) => events.filter((e) => e.type === type);
  const zones = [
    ...new Set([...of('brand_zone_enter'), ...of('brand_zone_exit')].map((e) => str(e, 'zone_id'))),
  ]
    .map((zone) => {
      const enters = of('brand_zone_enter').filter((e) => str(e, 'zone_id') === zone);
      const exits = of('brand_zone_exit').filter((e) => str(e, 'zone_id') === zone);
      // Tenths of a second, half away from zero (dwell is never negative), from the hundredths sent.
      const tenths = exits.map((e) =>
        Math.floor((Math.round((e.payload.dwell_seconds as number) * 100) + 5) / 10),
      );
      const m = median(tenths);
      return {
        zone_id: zone,
        reach: new Set(enters.map((e) => e.player_id)).size,
        entries: enters.length,
        exits: exits.length,
        median_dwell_s: m === null ? null : Number((m / 10).toFixed(2)),
      };
    })
    .sort((a, b) => b.reach - a.reach || b.exits - a.exits || cmp(a.zone_id, b.zone_id));
  const items = [...new Set(of('equip').map((e) => str(e, 'item_id')))]
    .map((item) => {
      const equips = of('equip').filter((e) => str(e, 'item_id') === item);
      const days = new Map<string, Set<string>>();
      for (const e of equips)
        days.set(e.player_id, (days.get(e.player_id) ?? new Set()).add(e.ts.slice(0, 10)));
      const repeat = [...days.values()].filter((d) => d.size >= 2).length;
      return {
        item_id: item,
        players: days.size,
        equips: equips.length,
        repeat_players: repeat,
        repeat_rate: r4(repeat, days.size),
      };
    })
    .sort((a, b) => b.players - a.players || cmp(a.item_id, b.item_id));
  const reached = new Set(of('brand_zone_enter').map((e) => e.player_id));
  const equipped = new Set(
    of('equip')
      .map((e) => e.player_id)
      .filter((p) => reached.has(p)),
  );
  const shares = of('share').filter((e) => equipped.has(e.player_id));
  const shared = new Set(shares.map((e) => e.player_id));
  const byPlatform = [...new Set(shares.map((e) => str(e, 'share_platform')))]
    .map((to) => {
      const mine = shares.filter((e) => str(e, 'share_platform') === to);
      const players = new Set(mine.map((e) => e.player_id)).size;
      return { share_platform: to, players, shares: mine.length, conversion: r4(players, equipped.size) };
    })
    .sort((a, b) => b.players - a.players || cmp(a.share_platform, b.share_platform));
  return {
    zones,
    items,
    share_funnel: {
      zone_reach: { players: reached.size },
      equipped: { players: equipped.size, conversion: r4(equipped.size, reached.size) },
      shared: { players: shared.size, conversion: r4(shared.size, equipped.size) },
      overall_conversion: r4(shared.size, reached.size),
      by_share_platform: byPlatform,
    },
  };
}

type Cls = 'exposed' | 'control' | 'unassigned';
const classOf = (c: unknown): Cls => {
  const l = typeof c === 'string' ? c.toLowerCase() : '';
  return l === 'exposed' || l === 'control' ? l : 'unassigned';
};

/** Per survey: shown, responses and favourable per cohort, responses without a flag, answers. */
function expectedLift(all: readonly Ev[], platform: string | null) {
  const events = inScope(all, platform);
  const shownAll = all.filter((e) => e.type === 'brand_survey_shown');
  const cohortOf = (r: Ev): Cls => {
    const own = r.payload.cohort;
    if (typeof own === 'string' && own !== '') return classOf(own);
    const before = shownAll
      .filter(
        (s) =>
          s.player_id === r.player_id &&
          s.platform === r.platform &&
          str(s, 'survey_id') === str(r, 'survey_id') &&
          s.ts <= r.ts &&
          typeof s.payload.cohort === 'string' &&
          s.payload.cohort !== '',
      )
      .sort((a, b) => cmp(b.ts, a.ts) || cmp(str(a, 'cohort'), str(b, 'cohort')));
    return before.length > 0 ? classOf(before[0]!.payload.cohort) : 'unassigned';
  };
  const shown = events.filter((e) => e.type === 'brand_survey_shown');
  const responses = events.filter((e) => e.type === 'brand_survey_response');
  const ids = [...new Set([...shown, ...responses].map((e) => str(e, 'survey_id')))].sort(cmp);
  return ids.map((id) => {
    const rs = responses.filter((r) => str(r, 'survey_id') === id).map((r) => ({ r, cohort: cohortOf(r) }));
    const cohort = (c: Cls) => {
      const mine = rs.filter((x) => x.cohort === c);
      return {
        shown: shown.filter((s) => str(s, 'survey_id') === id && classOf(s.payload.cohort) === c).length,
        responses: mine.length,
        favorable: mine.filter(({ r }) =>
          typeof r.payload.favorable === 'boolean'
            ? r.payload.favorable
            : id === 'v1' && FAVORABLE_KEYS.includes(str(r, 'answer')),
        ).length,
      };
    };
    const answers = [...new Set(rs.map(({ r }) => str(r, 'answer')))]
      .map((a) => {
        const mine = rs.filter(({ r }) => str(r, 'answer') === a);
        const n = (c: Cls) => mine.filter((x) => x.cohort === c).length;
        return {
          answer: a,
          responses: mine.length,
          exposed: n('exposed'),
          control: n('control'),
          unassigned: n('unassigned'),
        };
      })
      .sort((x, y) => y.responses - x.responses || cmp(x.answer, y.answer));
    return {
      survey_id: id,
      exposed: cohort('exposed'),
      control: cohort('control'),
      unassigned: cohort('unassigned'),
      responses_without_flag: rs.filter(({ r }) => typeof r.payload.favorable !== 'boolean').length,
      answers,
    };
  });
}

interface LiftSurvey {
  survey_id: string;
  cohorts: Record<Cls, { shown: number; responses: number; favorable: number }>;
  responses_without_flag: number;
  answers: { answer: string; responses: number; exposed: number; control: number; unassigned: number }[];
}
const liftCounts = (surveys: LiftSurvey[]) =>
  surveys.map((s) => ({
    survey_id: s.survey_id,
    ...Object.fromEntries(
      (['exposed', 'control', 'unassigned'] as const).map((c) => {
        const { shown, responses, favorable } = s.cohorts[c];
        return [c, { shown, responses, favorable }];
      }),
    ),
    responses_without_flag: s.responses_without_flag,
    answers: s.answers.map(({ answer, responses, exposed, control, unassigned }) => ({
      answer,
      responses,
      exposed,
      control,
      unassigned,
    })),
  }));

describe.each(testEngines())(
  'brand rollups equal a from-scratch computation over the raw events (%s)',
  (engine) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ engine, clock: fixedClock('2026-11-03T06:00:00Z') });
      await t.app.ingest.writer.stop();
      t.app.ingest.service.mode = 'sync';
    });
    afterAll(() => t.close());

    it('for random events in random batches, per platform and combined, with and without a segment', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(eventArb, { minLength: 1, maxLength: 50 }),
          fc.array(fc.record({ size: fc.integer({ min: 1, max: 15 }), rollup: fc.boolean() }), {
            minLength: 1,
            maxLength: 6,
          }),
          async (drawn, batches) => {
            run += 1;
            const team: AnalyticsTeam = await analyticsTeam(t);
            const put = await t.app.inject({
              method: 'PUT',
              url: '/api/sdk/surveys/v1?game_id=brand-game',
              headers: team.headers,
              payload: { favorable_answers: FAVORABLE_KEYS },
            });
            expect(put.statusCode, put.body).toBe(200);
            const seg = await t.app.inject({
              method: 'POST',
              url: '/api/sdk/segments',
              headers: team.headers,
              payload: {
                name: 'everyone',
                conditions: [{ field: 'game_id', op: 'eq', value: 'brand-game' }],
              },
            });
            expect(seg.statusCode, seg.body).toBe(201);
            // A session on each platform, so the game exists on both (else the filter answers 404).
            const anchors = PLATFORMS.map((platform) => ({
              ts: `${RANGE.from}T12:00:00.000Z`,
              platform,
              game_id: 'brand-game',
              player_id: 'pa',
              type: 'session_start',
              payload: {},
            }));
            const events: Ev[] = [...anchors, ...drawn].map((e, i) => ({
              ...e,
              event_id: `brand-${run}-${String(i).padStart(4, '0')}`,
            }));
            await sendInBatches(t, team.key, events, batches);
            for (const platform of [null, 'platform_1']) {
              const q: Record<string, string> = platform === null ? { ...RANGE } : { ...RANGE, platform };
              const brand = await getView(t, team.headers, 'brand-game', 'brand', q);
              expect(brand.statusCode, brand.body).toBe(200);
              const got = brand.json();
              expect({ zones: got.zones, items: got.items, share_funnel: got.share_funnel }).toEqual(
                expectedBrand(events, platform),
              );
              const lift = await getView(t, team.headers, 'brand-game', 'brand-lift', q);
              expect(lift.statusCode, lift.body).toBe(200);
              expect(liftCounts(lift.json().surveys)).toEqual(expectedLift(events, platform));
              const segQ = { ...q, segment: String(seg.json().id) };
              for (const [view, whole] of [
                ['brand', got],
                ['brand-lift', lift.json()],
              ] as const) {
                const segmented = (await getView(t, team.headers, 'brand-game', view, segQ)).json();
                expect({ ...segmented, segment: null }).toEqual(whole);
              }
            }
          },
        ),
        { numRuns: 12 },
      );
    }, 120_000);
  },
);
