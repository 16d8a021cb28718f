/**
 * The quality views (performance, crashes, errors) against one small hand-computed fixture, on both
 * engines: percentiles at their stated resolution, top devices and the rest, crash groups by
 * normalised frames or signature, crash-free shares per day, error groups fatal first, the platform
 * filter and a segment.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsTeam,
  analyticsTeam,
  eventFactory,
  getView,
  sendEvents,
  withSegment,
} from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

const make = eventFactory('qa');
const ev = (
  player: string,
  ts: string,
  type: string,
  payload: Record<string, unknown>,
  session: string | null,
  platform = 'platform_2',
) => make(player, ts, type, payload, { platform, ...(session === null ? {} : { session_id: session }) });

const TRACE_A1 =
  "Script 'ServerScriptService.Combat', Line 120\n  at 0x1a2b3c4d applyDamage\nScript 'ReplicatedStorage.Net', Line 8";
// A1 with other line numbers and addresses, a blank line and a CRLF: the same group.
const TRACE_A2 =
  "Script 'ServerScriptService.Combat', Line 377\n\n  at 0xffee0011 applyDamage\r\nScript 'ReplicatedStorage.Net', Line 61";
// Other frames: another group.
const TRACE_B = "Script 'ServerScriptService.Trade', Line 120\n  at 0x1a2b3c4d settleTrade";
const FRAMES_A = [
  "Script 'ServerScriptService.Combat', Line <n>",
  'at <hex> applyDamage',
  "Script 'ReplicatedStorage.Net', Line <n>",
];
const FRAMES_B = ["Script 'ServerScriptService.Trade', Line <n>", 'at <hex> settleTrade'];
const md5 = (frames: string[]) => createHash('md5').update(frames.join('\n')).digest('hex');
const KEY_A = md5(FRAMES_A);
const KEY_B = md5(FRAMES_B);

/**
 * Platform_2, 2026-11-18..20 (the clock reads the 20th, 12:00 UTC). Sessions: 18th s1 (p1), s5 (p2),
 * s6 (p3); 19th s2 (p2), s7 (p1); 20th s3 (p3), s4 (p1), s8 (p2), s9 (p5). p3 and p4 have
 * error events without a session on the 19th, p4 a crash without a session on the 20th.
 * Performance samples (fps_avg, frame_time_ms_p95, memory_mb, device):
 *   p1 s1 18th: 30, 20, 500, Pixel 7; 55.04 (→ 55.0), -, -, Pixel 7
 *   p2 s2 19th: 8, 50, 1000, iPhone 15; 57.96 (→ 58.0), 10, -, iPhone 15
 *   p3 s3 20th: 98, -, 700.4 (→ 700), no device
 *   p1 s4 20th: 45, -, -, Pixel 7
 * Crashes: p3 s6 18th 10:00 and 11:00 A1 (1.4.0, iOS 17.5); p1 s7 19th 09:00 A2 (1.4.1, Android 14);
 * p1 s4 20th 08:00 B (1.4.1); p2 s8 20th 09:00 A1 with signature oom-1; p4 20th 10:00 A2.
 * On platform_3 (20th): q1 samples fps 40 on devices d01..d21 (d21 twice) and 20 on d22 and d23, in one
 * session, and p1 a fatal error.
 */
function fixture() {
  const perf = (p: string, ts: string, payload: Record<string, unknown>, s: string) =>
    ev(p, ts, 'performance', payload, s);
  const crash = (p: string, ts: string, payload: Record<string, unknown>, s: string | null) =>
    ev(p, ts, 'crash', payload, s);
  const error = (p: string, ts: string, payload: Record<string, unknown>, s: string | null = null) =>
    ev(p, ts, 'error', payload, s);
  return [
    perf(
      'p1',
      '2026-11-18T10:00:00Z',
      { fps_avg: 30, frame_time_ms_p95: 20, memory_mb: 500, device: 'Pixel 7' },
      's1',
    ),
    perf('p1', '2026-11-18T10:01:00Z', { fps_avg: 55.04, device: 'Pixel 7' }, 's1'),
    ev('p2', '2026-11-18T09:00:00Z', 'session_start', {}, 's5'),
    ev('p3', '2026-11-18T09:30:00Z', 'session_start', {}, 's6'),
    crash('p3', '2026-11-18T10:00:00Z', { stack_trace: TRACE_A1, build: '1.4.0', os: 'iOS 17.5' }, 's6'),
    crash('p3', '2026-11-18T11:00:00Z', { stack_trace: TRACE_A1, build: '1.4.0', os: 'iOS 17.5' }, 's6'),
    perf(
      'p2',
      '2026-11-19T10:00:00Z',
      { fps_avg: 8, frame_time_ms_p95: 50, memory_mb: 1000, device: 'iPhone 15' },
      's2',
    ),
    perf('p2', '2026-11-19T10:01:00Z', { fps_avg: 57.96, frame_time_ms_p95: 10, device: 'iPhone 15' }, 's2'),
    crash('p1', '2026-11-19T09:00:00Z', { stack_trace: TRACE_A2, build: '1.4.1', os: 'Android 14' }, 's7'),
    perf('p3', '2026-11-20T10:00:00Z', { fps_avg: 98, memory_mb: 700.4 }, 's3'),
    perf('p1', '2026-11-20T07:00:00Z', { fps_avg: 45, device: 'Pixel 7' }, 's4'),
    crash('p1', '2026-11-20T08:00:00Z', { stack_trace: TRACE_B, build: '1.4.1' }, 's4'),
    crash('p2', '2026-11-20T09:00:00Z', { stack_trace: TRACE_A1, signature: 'oom-1' }, 's8'),
    crash('p4', '2026-11-20T10:00:00Z', { stack_trace: TRACE_A2 }, null),
    ev('p5', '2026-11-20T06:00:00Z', 'session_start', {}, 's9'),
    error('p1', '2026-11-18T10:05:00Z', {
      severity: 'warn',
      message: 'Remote request timed out after 1200 ms',
      source: 'client',
    }),
    error('p2', '2026-11-18T11:00:00Z', {
      severity: 'warn',
      message: 'Remote request timed out after 950 ms',
      source: 'client',
    }),
    error('p1', '2026-11-20T09:00:00Z', {
      severity: 'warn',
      message: 'Remote request timed out after 30 ms',
      source: 'client',
    }),
    error('p3', '2026-11-19T12:00:00Z', {
      severity: 'fatal',
      message: 'Failed to load asset rbxassetid://123',
    }),
    error('p2', '2026-11-20T12:30:00Z', {
      severity: 'error',
      message: "Workspace.Map.Zone3.Door:12: attempt to index nil with 'Open'",
      source: 'server',
    }),
    error('p3', '2026-11-20T11:00:00Z', {
      severity: 'fatal',
      message: 'Failed to load asset rbxassetid://987654',
    }),
    error('p4', '2026-11-19T08:00:00Z', {
      severity: 'error',
      message: "  Workspace.Map.Zone11.Door:40: attempt to index nil with 'Open'\n",
      source: 'server',
    }),
    error('p1', '2026-11-19T07:00:00Z', { severity: 'warn', message: 'A'.repeat(100), source: 'client' }),
    ...Array.from({ length: 23 }, (_, i) =>
      ev(
        'q1',
        `2026-11-20T08:${String(i).padStart(2, '0')}:00Z`,
        'performance',
        { fps_avg: i < 21 ? 40 : 20, device: `d${String(i + 1).padStart(2, '0')}` },
        'q-s',
        'platform_3',
      ),
    ),
    ev('q1', '2026-11-20T09:00:00Z', 'performance', { fps_avg: 40, device: 'd21' }, 'q-s', 'platform_3'),
    ev(
      'p1',
      '2026-11-20T09:30:00Z',
      'error',
      { severity: 'fatal', message: 'Out of memory' },
      null,
      'platform_3',
    ),
  ];
}

const pct = (p5: number | null, p50: number | null, p95: number | null) => ({ p5, p50, p95 });
const histogram = (counts: number[]) =>
  counts.map((samples, i) => ({ from_fps: i * 10, to_fps: i < 6 ? i * 10 + 10 : null, samples }));
const METHOD = 'percentile_cont of values rounded to 0.1 fps, 0.1 ms, 1 MB';

describe.each(testEngines())('SDK analytics: quality views (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-11-18', to: '2026-11-20' };
  const p2 = { ...range, platform: 'platform_2' };
  const header = {
    game_id: 'g1',
    from: '2026-11-18',
    to: '2026-11-20',
    granularity: 'day',
    history_limited_from: null,
  };

  const view = async (name: string, query: Record<string, string>) => {
    const res = await getView(t, team.headers, 'g1', name, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('answers the FPS histogram and percentiles overall and by device, computed by hand', async () => {
    // fps (rounded to 0.1): 8, 30, 45, 55, 58, 98. p5 at rank 0.25: 8 + 0.25 × 22; p50 at 2.5: 50;
    // p95 at 4.75: 58 + 0.75 × 40. Frame times 10, 20, 50: p95 at 1.9 = 20 + 0.9 × 30. Memory 500,
    // 700 (700.4 rounded), 1000: median 700.
    expect(await view('performance', p2)).toEqual({
      ...header,
      platform: 'platform_2',
      segment: null,
      fps_histogram: histogram([1, 0, 0, 1, 1, 2, 1]),
      samples: 6,
      sessions_sampled: 4,
      players_sampled: 3,
      fps_avg: pct(13.5, 50, 88),
      frame_time_ms_p95: 47,
      memory_mb_p50: 700,
      by_device: [
        // 30, 45, 55: p5 at 0.1 = 31.5, p95 at 1.9 = 54.
        {
          device: 'Pixel 7',
          samples: 3,
          sessions_sampled: 2,
          players_sampled: 1,
          fps_avg: pct(31.5, 45, 54),
          frame_time_ms_p95: 20,
          memory_mb_p50: 500,
        },
        // 8, 58: p5 = 8 + 0.05 × 50, p95 = 8 + 0.95 × 50; frame times 10, 50: 10 + 0.95 × 40.
        {
          device: 'iPhone 15',
          samples: 2,
          sessions_sampled: 1,
          players_sampled: 1,
          fps_avg: pct(10.5, 33, 55.5),
          frame_time_ms_p95: 48,
          memory_mb_p50: 1000,
        },
        {
          device: null,
          samples: 1,
          sessions_sampled: 1,
          players_sampled: 1,
          fps_avg: pct(98, 98, 98),
          frame_time_ms_p95: null,
          memory_mb_p50: 700,
        },
      ],
      other_devices: null,
      percentile_method: METHOD,
    });
  });

  it('names the 20 devices with the most samples and folds the rest into other_devices', async () => {
    const got = await view('performance', { ...range, platform: 'platform_3' });
    // d21 has 2 samples; d01..d19 win the ties by name; d20, d22 and d23 are left over.
    expect(got.by_device.map((d: { device: string }) => d.device)).toEqual([
      'd21',
      ...Array.from({ length: 19 }, (_, i) => `d${String(i + 1).padStart(2, '0')}`),
    ]);
    expect(got.by_device[0]).toMatchObject({ samples: 2, sessions_sampled: 1, players_sampled: 1 });
    expect(got.by_device[0]).toMatchObject({ fps_avg: pct(40, 40, 40) });
    // q1's one session on three folded devices: each device's count, summed. Their fps 20, 20, 40:
    // p95 at rank 1.9, 20 + 0.9 × 20.
    expect(got.other_devices).toEqual({
      devices: 3,
      samples: 3,
      sessions_sampled: 3,
      players_sampled: 3,
      fps_avg: pct(20, 20, 38),
      frame_time_ms_p95: null,
      memory_mb_p50: null,
    });
    // 2 samples at 20 and 22 at 40: p5 at rank 1.15, 20 + 0.15 × 20.
    expect(got).toMatchObject({
      samples: 24,
      sessions_sampled: 1,
      players_sampled: 1,
      fps_avg: pct(23, 40, 40),
    });
    expect(got.fps_histogram).toEqual(histogram([0, 0, 2, 0, 22, 0, 0]));
  });

  it("keeps a segment's players in performance", async () => {
    const got = await withSegment(t, ['p1'], () => view('performance', { ...p2, segment: '4' }));
    expect(got).toMatchObject({
      segment: 4,
      fps_histogram: histogram([0, 0, 0, 1, 1, 1, 0]),
      samples: 3,
      sessions_sampled: 2,
      players_sampled: 1,
      fps_avg: pct(31.5, 45, 54),
      frame_time_ms_p95: 20,
      memory_mb_p50: 500,
    });
    expect(got.by_device).toHaveLength(1);
  });

  const groupA = {
    group_key: KEY_A,
    key_source: 'frames',
    crashes: 4,
    players_affected: 3,
    first_seen: '2026-11-18T10:00:00.000Z',
    last_seen: '2026-11-20T10:00:00.000Z',
    builds: ['1.4.0', '1.4.1'],
    oses: ['Android 14', 'iOS 17.5'],
    sample_trace: TRACE_A2,
    frames: FRAMES_A,
  };
  const groupB = {
    group_key: KEY_B,
    key_source: 'frames',
    crashes: 1,
    players_affected: 1,
    first_seen: '2026-11-20T08:00:00.000Z',
    last_seen: '2026-11-20T08:00:00.000Z',
    builds: ['1.4.1'],
    oses: [],
    sample_trace: TRACE_B,
    frames: FRAMES_B,
  };
  const share = (
    sessions: number,
    crashed: number,
    players: number,
    crashedPlayers: number,
    s: number,
    p: number,
  ) => ({
    sessions,
    crashed_sessions: crashed,
    crash_free_sessions_pct: s,
    players,
    crashed_players: crashedPlayers,
    crash_free_players_pct: p,
  });

  it('groups crashes by normalised frames or signature, with crash-free shares per day by hand', async () => {
    expect(await view('crashes', p2)).toEqual({
      ...header,
      platform: 'platform_2',
      segment: null,
      crashes: 6,
      groups_total: 3,
      // 9 sessions, 4 with a crash (s6, s7, s4, s8); 5 players, 4 crashed (p4's crash has no session).
      ...share(9, 4, 5, 4, 55.56, 20),
      crash_free: [
        { date: '2026-11-18', ...share(3, 1, 3, 1, 66.67, 66.67) },
        { date: '2026-11-19', ...share(2, 1, 4, 1, 50, 75) },
        { date: '2026-11-20', ...share(4, 2, 5, 3, 50, 40) },
      ],
      // A and B tie at one crash and one player with oom-1: the md5 keys (hex) sort before "oom-1".
      groups: [
        groupA,
        groupB,
        {
          group_key: 'oom-1',
          key_source: 'signature',
          crashes: 1,
          players_affected: 1,
          first_seen: '2026-11-20T09:00:00.000Z',
          last_seen: '2026-11-20T09:00:00.000Z',
          builds: [],
          oses: [],
          sample_trace: TRACE_A1,
          frames: FRAMES_A,
        },
      ],
    });
  });

  it('answers crash-free shares per ISO week, distinct within the week', async () => {
    const got = await view('crashes', { ...p2, granularity: 'week' });
    expect(got.crash_free).toEqual([{ date: '2026-11-16', ...share(9, 4, 5, 4, 55.56, 20) }]);
  });

  it("keeps a segment's players in crashes", async () => {
    const got = await withSegment(t, ['p1'], () => view('crashes', { ...p2, segment: '4' }));
    const a = {
      ...groupA,
      crashes: 1,
      players_affected: 1,
      first_seen: '2026-11-19T09:00:00.000Z',
      last_seen: '2026-11-19T09:00:00.000Z',
      builds: ['1.4.1'],
      oses: ['Android 14'],
    };
    expect(got).toMatchObject({
      crashes: 2,
      groups_total: 2,
      // p1's sessions s1, s7, s4; crashes in s7 and s4.
      ...share(3, 2, 1, 1, 33.33, 0),
      crash_free: [
        { date: '2026-11-18', ...share(1, 0, 1, 0, 100, 100) },
        { date: '2026-11-19', ...share(1, 1, 1, 1, 0, 0) },
        { date: '2026-11-20', ...share(1, 1, 1, 1, 0, 0) },
      ],
      groups: KEY_A < KEY_B ? [a, groupB] : [groupB, a],
    });
  });

  const remote = {
    severity: 'warn',
    source: 'client',
    message_prefix: 'Remote request timed out after <n> ms',
    errors: 3,
    players_affected: 2,
    first_seen: '2026-11-18T10:05:00.000Z',
    last_seen: '2026-11-20T09:00:00.000Z',
    sample_message: 'Remote request timed out after 30 ms',
    series: [
      { date: '2026-11-18', errors: 2 },
      { date: '2026-11-19', errors: 0 },
      { date: '2026-11-20', errors: 1 },
    ],
  };
  const longOne = {
    severity: 'warn',
    source: 'client',
    message_prefix: 'A'.repeat(80),
    errors: 1,
    players_affected: 1,
    first_seen: '2026-11-19T07:00:00.000Z',
    last_seen: '2026-11-19T07:00:00.000Z',
    sample_message: 'A'.repeat(100),
    series: [
      { date: '2026-11-18', errors: 0 },
      { date: '2026-11-19', errors: 1 },
      { date: '2026-11-20', errors: 0 },
    ],
  };

  it('rolls errors up by severity, source and normalised prefix, fatal first, by hand', async () => {
    expect(await view('errors', p2)).toEqual({
      ...header,
      platform: 'platform_2',
      segment: null,
      errors: 8,
      groups_total: 4,
      by_severity: [
        { severity: 'fatal', errors: 2, players_affected: 1, groups: 1 },
        { severity: 'error', errors: 2, players_affected: 2, groups: 1 },
        { severity: 'warn', errors: 4, players_affected: 2, groups: 2 },
      ],
      groups: [
        {
          severity: 'fatal',
          source: null,
          message_prefix: 'Failed to load asset rbxassetid:<n>',
          errors: 2,
          players_affected: 1,
          first_seen: '2026-11-19T12:00:00.000Z',
          last_seen: '2026-11-20T11:00:00.000Z',
          sample_message: 'Failed to load asset rbxassetid://987654',
          series: [
            { date: '2026-11-18', errors: 0 },
            { date: '2026-11-19', errors: 1 },
            { date: '2026-11-20', errors: 1 },
          ],
        },
        {
          severity: 'error',
          source: 'server',
          message_prefix: "Workspace.Map.Zone<n>.Door:<n>: attempt to index nil with 'Open'",
          errors: 2,
          players_affected: 2,
          first_seen: '2026-11-19T08:00:00.000Z',
          last_seen: '2026-11-20T12:30:00.000Z',
          sample_message: "Workspace.Map.Zone3.Door:12: attempt to index nil with 'Open'",
          series: [
            { date: '2026-11-18', errors: 0 },
            { date: '2026-11-19', errors: 1 },
            { date: '2026-11-20', errors: 1 },
          ],
        },
        remote,
        longOne,
      ],
    });
  });

  it('combines platforms without a filter, keeps a segment, and groups the series by week', async () => {
    const all = await view('errors', range);
    // p1's fatal on platform_3: p1 and p3 have a fatal error.
    expect(all).toMatchObject({ errors: 9, groups_total: 5 });
    expect(all.by_severity[0]).toEqual({ severity: 'fatal', errors: 3, players_affected: 2, groups: 2 });
    const mine = await withSegment(t, ['p1'], () => view('errors', { ...p2, segment: '4' }));
    expect(mine).toMatchObject({
      errors: 3,
      groups_total: 2,
      by_severity: [
        { severity: 'fatal', errors: 0, players_affected: 0, groups: 0 },
        { severity: 'error', errors: 0, players_affected: 0, groups: 0 },
        { severity: 'warn', errors: 3, players_affected: 1, groups: 2 },
      ],
      groups: [
        {
          ...remote,
          errors: 2,
          players_affected: 1,
          series: [
            { date: '2026-11-18', errors: 1 },
            { date: '2026-11-19', errors: 0 },
            { date: '2026-11-20', errors: 1 },
          ],
        },
        longOne,
      ],
    });
    const weekly = await view('errors', { ...p2, granularity: 'week' });
    expect(weekly.groups[2].series).toEqual([{ date: '2026-11-16', errors: 3 }]);
  });

  it('answers empty figures for a range without samples, crashes or errors', async () => {
    const q = { from: '2026-11-10', to: '2026-11-11', platform: 'platform_2' };
    expect(await view('performance', q)).toMatchObject({
      fps_histogram: histogram([0, 0, 0, 0, 0, 0, 0]),
      samples: 0,
      sessions_sampled: 0,
      fps_avg: pct(null, null, null),
      frame_time_ms_p95: null,
      memory_mb_p50: null,
      by_device: [],
      other_devices: null,
    });
    expect(await view('crashes', q)).toMatchObject({
      crashes: 0,
      groups_total: 0,
      ...share(0, 0, 0, 0, null as never, null as never),
      groups: [],
    });
    expect((await view('errors', q)).groups).toEqual([]);
    const other = await getView(t, team.headers, 'no-such-game', 'crashes', q);
    expect(other.statusCode).toBe(404);
  });
});
