/**
 * Folding and rebuilding give the same rollups. Events arrive in three batches (the later ones with
 * events older than the earlier ones: a player's country changes back in time, a level finish
 * arrives after the attempts it follows and before attempts that come later, a crash group's
 * sample is replaced by a later crash and kept against an earlier one); the job folds each. Then
 * every day is rebuilt whole from the raw events, once with nothing queued and once while a batch
 * is still queued (the rebuild leaves its events to the fold that follows): every rollup table
 * holds the same rows each time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, eventFactory, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { postEvents } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';
import { markDaysForRebuild, pendingRollups, rebuildDay, rollupTables } from './rollups.repo.js';

const ev = eventFactory('rb');
const TRACE_NEW = 'Script error\nWorkspace.Door:12\nWorkspace.Main:3';
const TRACE_OLD = 'Script error\nWorkspace.Door:12\nWorkspace.Main:3\n';

const FIRST = [
  ev('p1', '2026-11-18T10:00:00Z', 'session_start', { country: 'DE' }, { session_id: 's1' }),
  ev('p1', '2026-11-18T10:05:00Z', 'level', { level: 1, result: 'loss' }, { session_id: 's1' }),
  ev('p1', '2026-11-18T10:20:00Z', 'level', { level: 1, result: 'loss' }, { session_id: 's1' }),
  ev(
    'p1',
    '2026-11-18T10:30:00Z',
    'purchase',
    { sku: 'gems', price: 100, currency: 'ROBUX' },
    { session_id: 's1' },
  ),
  ev('p2', '2026-11-19T09:00:00Z', 'session_start', { country: 'US' }, { session_id: 's2' }),
  ev(
    'p2',
    '2026-11-19T09:10:00Z',
    'crash',
    { stack_trace: TRACE_OLD, build: '1.0', os: 'iOS' },
    { session_id: 's2' },
  ),
  ev('p2', '2026-11-19T09:11:00Z', 'error', { severity: 'error', message: 'Door:12: nil', source: 'server' }),
  ev('p2', '2026-11-19T09:12:00Z', 'performance', { fps_avg: 41.26, memory_mb: 812, device: 'Pixel 7' }),
  ev('p2', '2026-11-19T09:13:00Z', 'ad_impression', {
    format: 'banner',
    network: 'admob',
    placement: 'menu',
    revenue_usd: 0.002,
    ecpm: 2.5,
  }),
];
const SECOND = [
  // Earlier than the first batch's session_start: the day's country stays DE.
  ev('p1', '2026-11-18T08:00:00Z', 'session_start', { country: 'FR' }, { session_id: 's0' }),
  // A finish between the two losses, then one after them: attempts to it are 2, not 3.
  ev('p1', '2026-11-18T10:10:00Z', 'level', { level: 1, result: 'win' }, { session_id: 's1' }),
  ev('p1', '2026-11-18T10:40:00Z', 'level', { level: 1, result: 'win' }, { session_id: 's1' }),
  ev(
    'p2',
    '2026-11-19T09:30:00Z',
    'crash',
    { stack_trace: TRACE_NEW, build: '1.0', os: 'iOS' },
    { session_id: 's2' },
  ),
  ev('p2', '2026-11-19T09:31:00Z', 'error', { severity: 'error', message: 'Door:12: nil', source: 'server' }),
  ev('p2', '2026-11-19T09:32:00Z', 'performance', { fps_avg: 12.04, memory_mb: 1900, device: 'Pixel 7' }),
  ev('p2', '2026-11-19T09:33:00Z', 'session_end', { duration_s: 1980 }, { session_id: 's2' }),
  ev('p3', '2026-11-19T23:59:59.999Z', 'brand_zone_enter', { zone_id: 'z1' }),
  ev('p3', '2026-11-19T23:59:59.999Z', 'custom', {
    name: 'experiment_exposure',
    experiment: 'x',
    variant: 'a',
  }),
];
const THIRD = [
  // Later than everything of the day: the day's country becomes BR.
  ev('p1', '2026-11-18T23:00:00Z', 'session_start', { country: 'BR' }, { session_id: 's3' }),
  ev('p1', '2026-11-18T09:00:00Z', 'level', { level: 1, result: 'loss' }, { session_id: 's0' }),
  ev(
    'p2',
    '2026-11-19T08:00:00Z',
    'crash',
    { stack_trace: TRACE_OLD, build: '1.0', os: 'iOS' },
    { session_id: 's2' },
  ),
  ev('p3', '2026-11-20T00:00:00Z', 'brand_zone_exit', { zone_id: 'z1', dwell_seconds: 12.25 }),
  ev('p3', '2026-11-20T00:00:01Z', 'purchase', { sku: 'vip', price: 4.99, currency: 'USD', quantity: 2 }),
];

describe.each(testEngines())('rollups folded and rebuilt (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-21T12:00:00Z') });
    team = await analyticsTeam(t);
  });
  afterAll(() => t.close());

  const post = async (events: Record<string, unknown>[]) => {
    const res = await postEvents(t.app, { api_key: team.key, events });
    expect(res.json(), res.body).toMatchObject({ accepted: events.length, rejected: 0 });
    await t.app.ingest.writer.flush();
  };
  const run = () => t.services.analytics.service.rollups.run();

  /** Every rollup table's rows, in a stable order (arrays sorted: a fold appends, a rebuild
   * aggregates in its own order; sums to 12 significant digits: added in another order). */
  async function snapshot(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const table of rollupTables()) {
      const r = await t.services.db.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
      out[table] = r.rows.map((row) => JSON.stringify(normalise(row))).sort();
    }
    return out;
  }

  it('gives the rows of a fold of each batch when every day is rebuilt, with or without a batch queued', async () => {
    // Each batch posted, then folded by the job.
    for (const batch of [FIRST, SECOND, THIRD]) await sendEvents(t, team.key, batch);
    expect(await pendingRollups(t.services.db)).toBe(0);
    const folded = await snapshot();

    // What the fixture says, read off the rows.
    const days = await t.services.db.query<{ country: string; events: number }>(
      `SELECT country, events FROM sdk_player_days WHERE player_id = 'p1' AND day = '2026-11-18'`,
    );
    expect(days.rows).toEqual([{ country: 'BR', events: 9 }]);
    const level = await t.services.db.query<{ attempts: number; wins: number; attempts_to_done: number }>(
      `SELECT attempts, wins, attempts_to_done FROM sdk_level_days WHERE player_id = 'p1' AND level = 1`,
    );
    expect(level.rows).toEqual([{ attempts: 5, wins: 2, attempts_to_done: 3 }]);
    const crash = await t.services.db.query<{ crashes: number; sample_trace: string }>(
      'SELECT crashes, sample_trace FROM sdk_crash_days',
    );
    expect(crash.rows).toEqual([{ crashes: 3, sample_trace: TRACE_NEW }]);
    expect(folded.sdk_brand_zone_days).toHaveLength(1);
    expect(folded.sdk_brand_dwell_days).toHaveLength(1);
    expect(folded.sdk_custom_player_days).toHaveLength(1);

    const everyDay = ['2026-11-18', '2026-11-19', '2026-11-20'].map((day) => ({
      team_id: team.teamId,
      platform: 'platform_2',
      game_id: 'g1',
      day,
    }));
    await markDaysForRebuild(t.services.db, everyDay);
    expect(await pendingRollups(t.services.db)).toBe(3);
    await run();
    expect(await pendingRollups(t.services.db)).toBe(0);
    expect(await snapshot()).toEqual(folded);

    // A batch queued while its day is rebuilt: the rebuild leaves it out, the fold adds it once.
    const late = [
      ev('p1', '2026-11-18T07:00:00Z', 'level', { level: 1, result: 'complete' }, { session_id: 's0' }),
      ev('p4', '2026-11-18T12:00:00Z', 'session_start', { country: 'JP' }, { session_id: 's4' }),
    ];
    await post(late);
    await t.services.db.transaction((tx) => rebuildDay(tx, { ...everyDay[0]!, version: 0 }));
    await run();
    const withLate = await snapshot();
    await markDaysForRebuild(t.services.db, everyDay);
    await run();
    expect(await snapshot()).toEqual(withLate);
    const after = await t.services.db.query<{ attempts: number; attempts_to_done: number }>(
      `SELECT attempts, attempts_to_done FROM sdk_level_days WHERE player_id = 'p1' AND level = 1`,
    );
    expect(after.rows).toEqual([{ attempts: 6, attempts_to_done: 1 }]);
    const players = await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sdk_player_days WHERE day = '2026-11-18'`,
    );
    expect(players.rows).toEqual([{ n: 2 }]);
  });
});

function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = value(v);
  return out;
}

function value(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'number' && !Number.isInteger(v)) return Number(v.toPrecision(12));
  if (Array.isArray(v))
    return v
      .map(value)
      .map((x) => JSON.stringify(x))
      .sort();
  return v;
}
