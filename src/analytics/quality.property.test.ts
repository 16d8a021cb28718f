/**
 * Property: for random performance, crash and error events (two platforms, repeats, batches in both
 * ingest modes, the rollup job running between batches), the rollup-backed performance, crashes and
 * errors views equal a from-scratch computation over the distinct events, written here
 * independently of the rollups; a segment holding every player (the per-player paths) answers the
 * same. Traces and messages come from templates with random numbers, so their groups are known by
 * construction, not by running a normaliser.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendInBatches } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import type { SegmentResolver } from './analytics.service.js';

const DAYS = ['2026-10-30', '2026-10-31', '2026-11-01'];
const PLAYERS = ['pa', 'pb', 'pc', 'pd'];
const PLATFORMS = ['platform_3', 'platform_4'];
const DEVICES = ['Pixel 7', 'iPhone 15', 'PC'];

/** Crash templates: a trace from line numbers and an address, and its normalised frames. */
const TRACES: { trace: (n: number, a: number) => string; frames: string[] }[] = [
  {
    trace: (n, a) => `Script 'Combat', Line ${n}\n  at 0x${a.toString(16)} hit\nScript 'Net', Line ${n + 3}`,
    frames: ["Script 'Combat', Line <n>", 'at <hex> hit', "Script 'Net', Line <n>"],
  },
  {
    trace: (n, a) =>
      `\nat Game.tick (/srv/build/src/game.js:${n}:${a % 90})\n\nat main (/srv/app/main.js:${n})`,
    frames: ['at Game.tick (game.js:<n>:<n>)', 'at main (main.js:<n>)'],
  },
  {
    trace: (n) => `Error: boom${n}\r\n a\n b\n c\n d\n e${n}`,
    frames: ['Error: boom<n>', 'a', 'b', 'c', 'd'],
  },
];
/** Error message templates and their normalised prefix. */
const MESSAGES: { message: (n: number) => string; prefix: string }[] = [
  {
    message: (n) => `Remote request timed out after ${n} ms`,
    prefix: 'Remote request timed out after <n> ms',
  },
  {
    message: (n) => `Zone${n}.Door:${n + 1}: attempt to index nil`,
    prefix: 'Zone<n>.Door:<n>: attempt to index nil',
  },
  { message: (n) => `${'x'.repeat(90)} ${n}`, prefix: 'x'.repeat(80) },
];

interface Ev {
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  session_id?: string;
  type: string;
  payload: Record<string, unknown>;
}

const body = fc.oneof(
  fc.record({
    type: fc.constant('performance'),
    payload: fc.record(
      {
        fps_avg: fc.integer({ min: 0, max: 1500 }).map((n) => n / 10),
        frame_time_ms_p95: fc.integer({ min: 0, max: 800 }).map((n) => n / 10),
        memory_mb: fc.integer({ min: 100, max: 3000 }),
        device: fc.constantFrom(...DEVICES),
      },
      { requiredKeys: ['fps_avg'] },
    ),
    template: fc.constant(0),
  }),
  fc.record({
    type: fc.constant('crash'),
    payload: fc
      .record({
        n: fc.integer({ min: 1, max: 999 }),
        a: fc.integer({ min: 4096, max: 2 ** 31 }),
        template: fc.nat({ max: TRACES.length - 1 }),
        signature: fc.constantFrom(undefined, '', 'sig-x', 'sig-y'),
        build: fc.constantFrom(undefined, '1.0', '1.1'),
        os: fc.constantFrom(undefined, 'iOS', 'Android'),
      })
      .map(({ n, a, template, ...rest }) => ({
        stack_trace: TRACES[template]!.trace(n, a),
        ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
        template,
      })),
    template: fc.constant(0),
  }),
  fc.record({
    type: fc.constant('error'),
    payload: fc
      .record({
        n: fc.integer({ min: 0, max: 99_999 }),
        template: fc.nat({ max: MESSAGES.length - 1 }),
        severity: fc.constantFrom('warn', 'error', 'fatal'),
        source: fc.constantFrom(undefined, 'client', 'server'),
      })
      .map(({ n, template, source, severity }) => ({
        severity,
        message: MESSAGES[template]!.message(n),
        ...(source === undefined ? {} : { source }),
        template,
      })),
    template: fc.constant(0),
  }),
  fc.record({ type: fc.constant('session_start'), payload: fc.constant({}), template: fc.constant(0) }),
);

const eventArb = fc.record({
  player: fc.constantFrom(...PLAYERS),
  platform: fc.constantFrom(...PLATFORMS),
  session: fc.constantFrom(null, 0, 1),
  day: fc.constantFrom(...DAYS),
  minute: fc.integer({ min: 0, max: 1439 }),
  body,
});

// ---- from scratch, over the distinct events ----

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const pos = p * (v.length - 1);
  const lo = Math.floor(pos);
  return lo === pos ? v[lo]! : v[lo]! + (v[lo + 1]! - v[lo]!) * (pos - lo);
}
const r2 = (x: number | null) => (x === null ? null : Number(x.toFixed(2)));
const sessionOf = (e: Ev) =>
  e.session_id === undefined ? null : `${e.platform} ${e.player_id} ${e.session_id}`;
const day = (e: Ev) => e.ts.slice(0, 10);
const iso = (e: Ev) => new Date(e.ts).toISOString();

function perfFigures(events: Ev[]) {
  const fps = events.map((e) => e.payload.fps_avg as number);
  const of = (k: string) =>
    events.filter((e) => e.payload[k] !== undefined).map((e) => e.payload[k] as number);
  return {
    samples: events.length,
    sessions_sampled: new Set(events.map(sessionOf).filter((s) => s !== null)).size,
    players_sampled: new Set(events.map((e) => e.player_id)).size,
    fps_avg: { p5: r2(percentile(fps, 0.05)), p50: r2(percentile(fps, 0.5)), p95: r2(percentile(fps, 0.95)) },
    frame_time_ms_p95: r2(percentile(of('frame_time_ms_p95'), 0.95)),
    memory_mb_p50: r2(percentile(of('memory_mb'), 0.5)),
  };
}

function expectedPerformance(events: Ev[]) {
  const perf = events.filter((e) => e.type === 'performance');
  const devices = [...new Set(perf.map((e) => (e.payload.device as string | undefined) ?? ''))];
  const of = (d: string) => perf.filter((e) => ((e.payload.device as string | undefined) ?? '') === d);
  devices.sort((a, b) => of(b).length - of(a).length || (a < b ? -1 : 1));
  const hist = [0, 0, 0, 0, 0, 0, 0];
  for (const e of perf) hist[Math.min(Math.floor((e.payload.fps_avg as number) / 10), 6)]! += 1;
  return {
    fps_histogram: hist.map((samples, i) => ({
      from_fps: i * 10,
      to_fps: i < 6 ? i * 10 + 10 : null,
      samples,
    })),
    ...perfFigures(perf),
    by_device: devices.map((d) => ({ device: d === '' ? null : d, ...perfFigures(of(d)) })),
    other_devices: null,
  };
}

const KEYS = TRACES.map((t) => createHash('md5').update(t.frames.join('\n')).digest('hex'));

/** The crashes view over `days` (a run of DAYS): per day, or one point per ISO week (`week`: its
 * Monday; DAYS lie in one week). */
function expectedCrashes(all: Ev[], days: readonly string[] = DAYS, week?: string) {
  const events = all.filter((e) => days.includes(day(e)));
  const crashes = events.filter((e) => e.type === 'crash');
  const keyOf = (e: Ev) => {
    const sig = e.payload.signature as string | undefined;
    const t = e.payload.template as number;
    return sig ? { group_key: sig, key_source: 'signature' } : { group_key: KEYS[t]!, key_source: 'frames' };
  };
  const groups = new Map<string, Ev[]>();
  for (const e of crashes) {
    const k = JSON.stringify(keyOf(e));
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  const sorted = (xs: (string | undefined)[]) =>
    [...new Set(xs.filter((x): x is string => x !== undefined && x !== ''))].sort();
  const list = [...groups.values()].map((es) => {
    const byTs = [...es].sort((a, b) => (a.ts < b.ts ? -1 : 1));
    const latest = byTs.at(-1)!;
    return {
      ...keyOf(es[0]!),
      crashes: es.length,
      players_affected: new Set(es.map((e) => e.player_id)).size,
      first_seen: iso(byTs[0]!),
      last_seen: iso(latest),
      builds: sorted(es.map((e) => e.payload.build as string | undefined)),
      oses: sorted(es.map((e) => e.payload.os as string | undefined)),
      sample_trace: latest.payload.stack_trace,
      frames: TRACES[latest.payload.template as number]!.frames,
    };
  });
  list.sort(
    (a, b) =>
      b.crashes - a.crashes ||
      b.players_affected - a.players_affected ||
      (a.group_key < b.group_key ? -1 : a.group_key > b.group_key ? 1 : a.key_source < b.key_source ? -1 : 1),
  );
  const pct = (part: number, whole: number) => (whole > 0 ? r2(100 * (1 - part / whole)) : null);
  const shares = (es: Ev[]) => {
    const sessions = new Set(es.map(sessionOf).filter((s) => s !== null)).size;
    const crashedSessions = new Set(
      es
        .filter((e) => e.type === 'crash')
        .map(sessionOf)
        .filter((s) => s !== null),
    ).size;
    const players = new Set(es.map((e) => e.player_id)).size;
    const crashedPlayers = new Set(es.filter((e) => e.type === 'crash').map((e) => e.player_id)).size;
    return {
      sessions,
      crashed_sessions: crashedSessions,
      crash_free_sessions_pct: pct(crashedSessions, sessions),
      players,
      crashed_players: crashedPlayers,
      crash_free_players_pct: pct(crashedPlayers, players),
    };
  };
  return {
    crashes: crashes.length,
    groups_total: groups.size,
    ...shares(events),
    crash_free: week
      ? [{ date: week, ...shares(events) }]
      : days.map((d) => ({ date: d, ...shares(events.filter((e) => day(e) === d)) })),
    groups: list,
  };
}

const SEVERITY = ['fatal', 'error', 'warn'];

/** The errors view over `days` (a run of DAYS) of the events of `platform` (every one by default). */
function expectedErrors(all: Ev[], days: readonly string[] = DAYS, platform?: string) {
  const errs = all.filter(
    (e) => e.type === 'error' && days.includes(day(e)) && (platform === undefined || e.platform === platform),
  );
  const keyOf = (e: Ev) => ({
    severity: e.payload.severity as string,
    source: (e.payload.source as string | undefined) ?? null,
    message_prefix: MESSAGES[e.payload.template as number]!.prefix,
  });
  const groups = new Map<string, Ev[]>();
  for (const e of errs) {
    const k = JSON.stringify(keyOf(e));
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  const list = [...groups.values()].map((es) => {
    const byTs = [...es].sort((a, b) => (a.ts < b.ts ? -1 : 1));
    return {
      ...keyOf(es[0]!),
      errors: es.length,
      players_affected: new Set(es.map((e) => e.player_id)).size,
      first_seen: iso(byTs[0]!),
      last_seen: iso(byTs.at(-1)!),
      sample_message: byTs.at(-1)!.payload.message,
      series: days.map((d) => ({ date: d, errors: es.filter((e) => day(e) === d).length })),
    };
  });
  list.sort(
    (a, b) =>
      SEVERITY.indexOf(a.severity) - SEVERITY.indexOf(b.severity) ||
      b.errors - a.errors ||
      b.players_affected - a.players_affected ||
      ((a.source ?? '') < (b.source ?? '') ? -1 : (a.source ?? '') > (b.source ?? '') ? 1 : 0) ||
      (a.message_prefix < b.message_prefix ? -1 : 1),
  );
  return {
    errors: errs.length,
    groups_total: groups.size,
    by_severity: SEVERITY.map((s) => {
      const of = errs.filter((e) => e.payload.severity === s);
      return {
        severity: s,
        errors: of.length,
        players_affected: new Set(of.map((e) => e.player_id)).size,
        groups: list.filter((g) => g.severity === s).length,
      };
    }),
    groups: list,
  };
}

describe.each(testEngines())(
  'quality views equal a from-scratch computation over the raw events (%s)',
  (engine) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ engine, clock: fixedClock('2026-11-03T06:00:00Z') });
      await t.app.ingest.writer.stop();
    });
    afterAll(() => t.close());

    async function view(team: AnalyticsTeam, name: string, query: Record<string, string>) {
      const res = await getView(t, team.headers, 'prop-game', name, query);
      expect(res.statusCode, res.body).toBe(200);
      const { game_id, platform, from, to, granularity, segment, history_limited_from, ...own } = res.json();
      return own as Record<string, unknown>;
    }

    it('for random batches, repeats and both ingest modes, with and without a segment of everyone', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(eventArb, { minLength: 8, maxLength: 60, size: 'max' }),
          fc.array(fc.nat(), { maxLength: 8 }),
          fc.array(
            fc.record({ size: fc.integer({ min: 1, max: 15 }), sync: fc.boolean(), rollup: fc.boolean() }),
            {
              minLength: 1,
              maxLength: 6,
            },
          ),
          async (drawn, repeats, batches) => {
            run += 1;
            const team = await analyticsTeam(t);
            // Distinct instants (i ms apart at most): the latest crash or error of a group is one event.
            const distinct: Ev[] = drawn.map((e, i) => {
              const { template, ...payload } = e.body.payload as Record<string, unknown>;
              const ms = Date.parse(`${e.day}T00:00:00Z`) + e.minute * 60_000 + i;
              return {
                event_id: `qprop-${run}-${String(i).padStart(4, '0')}`,
                ts: new Date(ms).toISOString(),
                platform: e.platform,
                game_id: 'prop-game',
                player_id: e.player,
                // Session 1 of a player goes on across the days (its rows name their previous day).
                ...(e.session === null
                  ? {}
                  : { session_id: e.session === 1 ? `${e.player}-s1` : `${e.player}-s0-${e.day}` }),
                type: e.body.type,
                payload: { ...payload, ...(template === undefined ? {} : { template }) },
              };
            });
            const sent = [...distinct, ...repeats.map((r) => distinct[r % distinct.length]!)];
            await sendInBatches(t, team.key, sent, batches);

            const range = { from: DAYS[0]!, to: DAYS.at(-1)! };
            const perf = await view(team, 'performance', range);
            expect({ ...perf, percentile_method: undefined }).toEqual({
              ...expectedPerformance(distinct),
              percentile_method: undefined,
            });
            expect(await view(team, 'crashes', range)).toEqual(expectedCrashes(distinct));
            expect(await view(team, 'errors', range)).toEqual(expectedErrors(distinct));
            // From the second day: a session seen on the first day counts again, once.
            const later = DAYS.slice(1);
            const tail = { from: later[0]!, to: later.at(-1)! };
            expect(await view(team, 'crashes', tail)).toEqual(expectedCrashes(distinct, later));
            expect(await view(team, 'crashes', { ...tail, granularity: 'week' })).toEqual(
              expectedCrashes(distinct, later, '2026-10-26'),
            );
            expect(await view(team, 'errors', tail)).toEqual(expectedErrors(distinct, later));
            const inTail = distinct.filter((e) => later.includes(day(e)));
            expect({ ...(await view(team, 'performance', tail)), percentile_method: undefined }).toEqual({
              ...expectedPerformance(inTail),
              percentile_method: undefined,
            });
            // A platform without events answers 404 (tested in the routes' tests).
            for (const platform of PLATFORMS.filter((p) => distinct.some((e) => e.platform === p))) {
              expect(await view(team, 'errors', { ...tail, platform })).toEqual(
                expectedErrors(distinct, later, platform),
              );
              expect({
                ...(await view(team, 'performance', { ...tail, platform })),
                percentile_method: undefined,
              }).toEqual({
                ...expectedPerformance(inTail.filter((e) => e.platform === platform)),
                percentile_method: undefined,
              });
            }

            const service = t.services.analytics.service;
            const before: SegmentResolver | undefined = service.segments;
            service.segments = { players: async () => PLAYERS };
            try {
              const q = { ...range, segment: '1' };
              expect(await view(team, 'performance', q)).toEqual(perf);
              expect(await view(team, 'crashes', q)).toEqual(expectedCrashes(distinct));
              expect(await view(team, 'errors', q)).toEqual(expectedErrors(distinct));
            } finally {
              service.segments = before;
            }
          },
        ),
        { numRuns: 10 },
      );
    }, 240_000);
  },
);
