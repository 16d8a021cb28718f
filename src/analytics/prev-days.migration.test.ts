/**
 * Migrations 0031, 0032 and 0033 give the rows already rolled up their previous- and next-day
 * columns (rollup.source.ts, PrevDay): the values written out here by hand, for sessions over
 * several days, and for one player's errors (two platforms, groups and severities), zone entries,
 * equips and performance samples (sessions on two devices and platforms). 0033 also turns the
 * performance values per row into value maps per day and device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { loadMigrations, migrate } from '../db/index.js';

const KEY = `1, 'g'`;
const TS = `'2026-11-01T00:00:00Z'`;

describe.each(testEngines())('migrations 0031 to 0033 (previous and next days) on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await emptyDb(engine);
    await migrate(t.db, { migrations: loadMigrations().filter((m) => m.version < 31) });
    await t.db.exec(`
      INSERT INTO sdk_session_days (team_id, game_id, platform, day, player_id, session_id, first_ts, last_ts, events)
      VALUES (${KEY}, 'p1', '2026-11-01', 'a', 's1', ${TS}, ${TS}, 1),
             (${KEY}, 'p1', '2026-11-02', 'a', 's1', ${TS}, ${TS}, 1),
             (${KEY}, 'p1', '2026-11-05', 'a', 's1', ${TS}, ${TS}, 1),
             (${KEY}, 'p2', '2026-11-02', 'a', 's1', ${TS}, ${TS}, 1),
             (${KEY}, 'p1', '2026-11-02', 'a', 's2', ${TS}, ${TS}, 1);
      INSERT INTO sdk_error_days (team_id, game_id, platform, day, player_id, severity, source, prefix, errors,
        first_ts, last_ts, sample_message)
      VALUES (${KEY}, 'p1', '2026-11-01', 'a', 'warn', 'client', 'x', 1, ${TS}, ${TS}, 'x'),
             (${KEY}, 'p2', '2026-11-01', 'a', 'warn', 'client', 'x', 1, ${TS}, ${TS}, 'x'),
             (${KEY}, 'p1', '2026-11-01', 'a', 'warn', 'client', 'y', 1, ${TS}, ${TS}, 'y'),
             (${KEY}, 'p2', '2026-11-03', 'a', 'warn', 'client', 'x', 1, ${TS}, ${TS}, 'x'),
             (${KEY}, 'p1', '2026-11-03', 'a', 'fatal', 'client', 'x', 1, ${TS}, ${TS}, 'x');
      INSERT INTO sdk_brand_zone_days (team_id, game_id, platform, day, player_id, zone_id, entries)
      VALUES (${KEY}, 'p1', '2026-11-01', 'a', 'z1', 1), (${KEY}, 'p1', '2026-11-01', 'a', 'z2', 1),
             (${KEY}, 'p2', '2026-11-01', 'a', 'z1', 1), (${KEY}, 'p1', '2026-11-03', 'a', 'z1', 1);
      INSERT INTO sdk_brand_equip_days (team_id, game_id, platform, day, player_id, item_id, equips)
      VALUES (${KEY}, 'p1', '2026-11-01', 'a', 'i1', 1), (${KEY}, 'p2', '2026-11-02', 'a', 'i1', 1),
             (${KEY}, 'p1', '2026-11-04', 'a', 'i1', 1), (${KEY}, 'p1', '2026-11-02', 'a', 'i2', 1);
      INSERT INTO sdk_perf_days (team_id, game_id, platform, day, player_id, session_id, device, samples, fps,
        frame_time_ms, memory_mb)
      VALUES (${KEY}, 'p1', '2026-11-01', 'a', 's1', 'dA', 2, '{30,40}', '{}', '{500}'),
             (${KEY}, 'p1', '2026-11-01', 'a', 's1', 'dB', 1, '{40}', '{16.5}', '{}'),
             (${KEY}, 'p1', '2026-11-02', 'a', 's1', 'dA', 1, '{50}', '{}', '{}'),
             (${KEY}, 'p2', '2026-11-02', 'a', 's9', 'dA', 1, '{60}', '{}', '{}'),
             (${KEY}, 'p1', '2026-11-03', 'a', 's2', 'dB', 1, '{70}', '{}', '{}');
      INSERT INTO sdk_perf_value_days (team_id, game_id, platform, day, device, metric, value, samples)
      VALUES (${KEY}, 'p1', '2026-11-01', 'dA', 'n', 0, 2), (${KEY}, 'p1', '2026-11-01', 'dA', 'f', 30, 1),
             (${KEY}, 'p1', '2026-11-01', 'dA', 'f', 40, 1), (${KEY}, 'p1', '2026-11-01', 'dA', 'm', 500, 1),
             (${KEY}, 'p1', '2026-11-01', 'dB', 'n', 0, 1), (${KEY}, 'p1', '2026-11-01', 'dB', 'f', 40, 1),
             (${KEY}, 'p1', '2026-11-01', 'dB', 't', 16.5, 1), (${KEY}, 'p2', '2026-11-02', 'dA', 'n', 0, 1),
             (${KEY}, 'p2', '2026-11-02', 'dA', 'f', 60, 1);`);
    await migrate(t.db);
  });
  afterAll(() => t.dispose());

  it('names each session-day its session’s previous day on the platform', async () => {
    const r = await t.db.query<Record<string, string | null>>(
      `SELECT platform, session_id, to_char(day, 'MM-DD') AS day, to_char(prev_day, 'MM-DD') AS prev
         FROM sdk_session_days ORDER BY platform, session_id, day`,
    );
    expect(r.rows).toEqual([
      { platform: 'p1', session_id: 's1', day: '11-01', prev: null },
      { platform: 'p1', session_id: 's1', day: '11-02', prev: '11-01' },
      { platform: 'p1', session_id: 's1', day: '11-05', prev: '11-02' },
      { platform: 'p1', session_id: 's2', day: '11-02', prev: null },
      { platform: 'p2', session_id: 's1', day: '11-02', prev: null },
    ]);
  });

  it('names each error row the player’s previous row of its group and severity, per platform and on any', async () => {
    const r = await t.db.query<Record<string, string | null>>(
      `SELECT platform, to_char(day, 'MM-DD') AS day, severity, prefix, to_char(prev_day, 'MM-DD') AS prev_day,
              to_char(prev_any, 'MM-DD') AS prev_any, to_char(severity_prev_day, 'MM-DD') AS severity_prev_day,
              to_char(severity_prev_any, 'MM-DD') AS severity_prev_any
         FROM sdk_error_days ORDER BY day, platform, severity, prefix`,
    );
    expect(r.rows).toEqual([
      // 11-01: p1 x is the first of everything; p1 y is the second warn row that day on p1.
      {
        platform: 'p1',
        day: '11-01',
        severity: 'warn',
        prefix: 'x',
        prev_day: null,
        prev_any: null,
        severity_prev_day: null,
        severity_prev_any: null,
      },
      {
        platform: 'p1',
        day: '11-01',
        severity: 'warn',
        prefix: 'y',
        prev_day: null,
        prev_any: null,
        severity_prev_day: '11-01',
        severity_prev_any: '11-01',
      },
      // p2 that day: first on its platform, after p1's rows on any platform.
      {
        platform: 'p2',
        day: '11-01',
        severity: 'warn',
        prefix: 'x',
        prev_day: null,
        prev_any: '11-01',
        severity_prev_day: null,
        severity_prev_any: '11-01',
      },
      {
        platform: 'p1',
        day: '11-03',
        severity: 'fatal',
        prefix: 'x',
        prev_day: null,
        prev_any: null,
        severity_prev_day: null,
        severity_prev_any: null,
      },
      {
        platform: 'p2',
        day: '11-03',
        severity: 'warn',
        prefix: 'x',
        prev_day: '11-01',
        prev_any: '11-01',
        severity_prev_day: '11-01',
        severity_prev_any: '11-01',
      },
    ]);
  });

  /** The rows of `table` by day, platform and `thing`, each as one line: its platform, day and
   * `thing`, then its `days` columns (MM-DD, '-' for null). */
  async function lines(table: string, thing: string, days: readonly string[]): Promise<string[]> {
    const md = (c: string) => `to_char(${c}, 'MM-DD') AS ${c}`;
    const r = await t.db.query<Record<string, string | null>>(
      `SELECT platform, ${md('day')}, ${thing}, ${days.map(md).join(', ')}
         FROM ${table} ORDER BY day, platform, ${thing}`,
    );
    return r.rows.map((x) =>
      Object.values(x)
        .map((v) => v ?? '-')
        .join(' '),
    );
  }

  it('names each zone row its player’s previous day with the zone and with any zone', async () => {
    expect(
      await lines('sdk_brand_zone_days', 'zone_id', [
        'prev_day',
        'prev_any',
        'player_prev_day',
        'player_prev_any',
      ]),
    ).toEqual([
      // platform day zone | prev_day prev_any player_prev_day player_prev_any
      'p1 11-01 z1 - - - -',
      'p1 11-01 z2 - - 11-01 11-01',
      'p2 11-01 z1 - 11-01 - 11-01',
      'p1 11-03 z1 11-01 11-01 11-01 11-01',
    ]);
  });

  it('names each equip row its previous and next day with the item and its previous with any item', async () => {
    expect(
      await lines('sdk_brand_equip_days', 'item_id', [
        'prev_day',
        'prev_any',
        'next_day',
        'next_any',
        'player_prev_day',
        'player_prev_any',
      ]),
    ).toEqual([
      // platform day item | prev_day prev_any next_day next_any player_prev_day player_prev_any
      'p1 11-01 i1 - - 11-04 11-02 - -',
      'p1 11-02 i2 - - - - 11-01 11-01',
      'p2 11-02 i1 - 11-01 - 11-04 - 11-02',
      'p1 11-04 i1 11-01 11-02 - - 11-02 11-02',
    ]);
  });

  it('names each performance row its session’s and player’s previous day, overall and on its device', async () => {
    expect(
      await lines('sdk_perf_days', `session_id || '/' || device`, [
        'session_prev',
        'player_prev_day',
        'player_prev_any',
        'device_session_prev',
        'device_prev_day',
        'device_prev_any',
      ]),
    ).toEqual([
      // platform day session/device | session_prev player_prev_day player_prev_any device_session_prev
      // device_prev_day device_prev_any
      'p1 11-01 s1/dA - - - - - -',
      'p1 11-01 s1/dB 11-01 11-01 11-01 - - -',
      'p1 11-02 s1/dA 11-01 11-01 11-01 11-01 11-01 11-01',
      'p2 11-02 s9/dA - - 11-02 - - 11-02',
      'p1 11-03 s2/dB - 11-02 11-02 - 11-01 11-01',
    ]);
  });

  it('turns the values per day, device and value into value maps per day and device, and every device', async () => {
    const r = await t.db.query<Record<string, unknown>>(
      `SELECT platform, to_char(day, 'MM-DD') AS day, every_device, device, samples, fps, fps_n, frame_time_ms,
              frame_time_n, memory_mb, memory_n
         FROM sdk_perf_maps ORDER BY platform, day, every_device DESC, device`,
    );
    const map = (platform: string, device: string | null, samples: number, maps: number[][]) => ({
      platform,
      day: platform === 'p1' ? '11-01' : '11-02',
      every_device: device === null,
      device: device ?? '',
      samples,
      fps: maps[0],
      fps_n: maps[1],
      frame_time_ms: maps[2],
      frame_time_n: maps[3],
      memory_mb: maps[4],
      memory_n: maps[5],
    });
    expect(r.rows).toEqual([
      map('p1', null, 3, [[30, 40], [1, 2], [16.5], [1], [500], [1]]),
      map('p1', 'dA', 2, [[30, 40], [1, 1], [], [], [500], [1]]),
      map('p1', 'dB', 1, [[40], [1], [16.5], [1], [], []]),
      map('p2', null, 1, [[60], [1], [], [], [], []]),
      map('p2', 'dA', 1, [[60], [1], [], [], [], []]),
    ]);
    const gone = await t.db.query(`SELECT 1 FROM pg_tables WHERE tablename = 'sdk_perf_value_days'`);
    expect(gone.rows).toEqual([]);
  });
});
