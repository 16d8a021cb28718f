/**
 * GET /api/sdk/export and `svc events export` against a small hand-written fixture: the exact
 * NDJSON and CSV bytes, the types filter, resuming with a cursor, gzip, paging through more rows
 * than one page holds, the plan clamp, 404 for another team's game and the 422s.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { runSvc } from '../../test/helpers/cli.js';
import { freshPostgresDatabase, migratedDataDir, type TestDb, testEngines } from '../../test/helpers/db.js';
import { postEvents } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';
import { migrate, openPglite, openPostgres } from '../db/index.js';

const NOW = '2026-11-20T12:00:00Z';

function ev(
  event_id: string,
  ts: string,
  type: string,
  payload: Record<string, unknown>,
  more: Record<string, unknown> = {},
) {
  return {
    event_id,
    ts,
    platform: 'platform_2',
    game_id: 'g1',
    player_id: 'p1',
    session_id: 's1',
    type,
    payload,
    ...more,
  };
}

/**
 * Game g1 (received at the clock's 2026-11-20 12:00, SDK lua-1.4.0): one event before the 18th,
 * six from the 18th to the 20th (two share a ts; p1's country DE comes from their session_start),
 * and one of another game.
 */
function fixture() {
  return [
    ev('ex-000000', '2026-11-10T08:00:00Z', 'level', { level: 1 }, { session_id: 's0' }),
    ev('ex-000001', '2026-11-18T10:00:00Z', 'session_start', { device: 'pc', country: 'de' }),
    ev('ex-000002', '2026-11-18T10:05:00Z', 'purchase', {
      sku: 'gems',
      price: 4.99,
      name: 'He said "hi", then\nleft',
    }),
    ev('ex-000003', '2026-11-18T10:05:00Z', 'custom', { name: '=HYPERLINK("http://x")', note: 'a,b' }),
    ev(
      '@ex-000004',
      '2026-11-19T09:00:00Z',
      'level',
      { level: 3, result: 'win' },
      { player_id: 'p2', session_id: '-s4' },
    ),
    ev(
      'ex-000005',
      '2026-11-19T23:59:59.999Z',
      'session_end',
      { duration_s: 60 },
      { player_id: 'p2', session_id: undefined, platform: 'platform_3' },
    ),
    ev(
      'ex-000006',
      '2026-11-20T00:00:00Z',
      'purchase',
      { sku: 'coins', price: 1 },
      { session_id: 's5,"x"\ny' },
    ),
    ev('ex-000007', '2026-11-19T10:00:00Z', 'level', { level: 1 }, { game_id: 'g2' }),
  ];
}

/** Posts with an SDK version header, then stores the queued batches (as sendEvents does). */
async function send(t: TestApp, key: string, events: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < events.length; i += 500) {
    const res = await postEvents(
      t.app,
      { api_key: key, events: events.slice(i, i + 500) },
      { 'x-svc-sdk-version': 'lua-1.4.0' },
    );
    expect([res.statusCode < 300, res.json().accepted]).toEqual([true, Math.min(500, events.length - i)]);
  }
  await t.app.ingest.writer.flush();
  await t.services.analytics.service.rollups.run();
}

const RECEIVED = '2026-11-20T12:00:00.000Z';
const NDJSON: Record<string, string> = {
  e1: `{"event_id":"ex-000001","ts":"2026-11-18T10:00:00.000Z","received_at":"${RECEIVED}","platform":"platform_2","game_id":"g1","player_id":"p1","session_id":"s1","type":"session_start","country":"DE","sdk_version":"lua-1.4.0","payload":{"device":"pc","country":"DE"}}\n`,
  e2:
    String.raw`{"event_id":"ex-000002","ts":"2026-11-18T10:05:00.000Z","received_at":"2026-11-20T12:00:00.000Z","platform":"platform_2","game_id":"g1","player_id":"p1","session_id":"s1","type":"purchase","country":"DE","sdk_version":"lua-1.4.0","payload":{"sku":"gems","name":"He said \"hi\", then\nleft","price":4.99,"source":"iap","currency":"USD","quantity":1}}` +
    '\n',
  e3:
    String.raw`{"event_id":"ex-000003","ts":"2026-11-18T10:05:00.000Z","received_at":"2026-11-20T12:00:00.000Z","platform":"platform_2","game_id":"g1","player_id":"p1","session_id":"s1","type":"custom","country":"DE","sdk_version":"lua-1.4.0","payload":{"name":"=HYPERLINK(\"http://x\")","note":"a,b"}}` +
    '\n',
  e4: `{"event_id":"@ex-000004","ts":"2026-11-19T09:00:00.000Z","received_at":"${RECEIVED}","platform":"platform_2","game_id":"g1","player_id":"p2","session_id":"-s4","type":"level","country":null,"sdk_version":"lua-1.4.0","payload":{"level":3,"result":"win"}}\n`,
  e5: `{"event_id":"ex-000005","ts":"2026-11-19T23:59:59.999Z","received_at":"${RECEIVED}","platform":"platform_3","game_id":"g1","player_id":"p2","session_id":null,"type":"session_end","country":null,"sdk_version":"lua-1.4.0","payload":{"duration_s":60}}\n`,
  e6:
    String.raw`{"event_id":"ex-000006","ts":"2026-11-20T00:00:00.000Z","received_at":"2026-11-20T12:00:00.000Z","platform":"platform_2","game_id":"g1","player_id":"p1","session_id":"s5,\"x\"\ny","type":"purchase","country":"DE","sdk_version":"lua-1.4.0","payload":{"sku":"coins","price":1,"source":"iap","currency":"USD","quantity":1}}` +
    '\n',
};
const ALL_NDJSON = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'].map((k) => NDJSON[k]).join('');

// Cells with a comma, quote or line break are quoted; the event id and session id starting with @ and -
// get an apostrophe; the payload's JSON keeps its escapes (\" and \n) inside the quoted cell.
const ALL_CSV = [
  'event_id,ts,received_at,platform,game_id,player_id,session_id,type,country,sdk_version,payload',
  `ex-000001,2026-11-18T10:00:00.000Z,2026-11-20T12:00:00.000Z,platform_2,g1,p1,s1,session_start,DE,lua-1.4.0,"{""device"":""pc"",""country"":""DE""}"`,
  String.raw`ex-000002,2026-11-18T10:05:00.000Z,2026-11-20T12:00:00.000Z,platform_2,g1,p1,s1,purchase,DE,lua-1.4.0,"{""sku"":""gems"",""name"":""He said \""hi\"", then\nleft"",""price"":4.99,""source"":""iap"",""currency"":""USD"",""quantity"":1}"`,
  String.raw`ex-000003,2026-11-18T10:05:00.000Z,2026-11-20T12:00:00.000Z,platform_2,g1,p1,s1,custom,DE,lua-1.4.0,"{""name"":""=HYPERLINK(\""http://x\"")"",""note"":""a,b""}"`,
  `'@ex-000004,2026-11-19T09:00:00.000Z,2026-11-20T12:00:00.000Z,platform_2,g1,p2,'-s4,level,,lua-1.4.0,"{""level"":3,""result"":""win""}"`,
  `ex-000005,2026-11-19T23:59:59.999Z,2026-11-20T12:00:00.000Z,platform_3,g1,p2,,session_end,,lua-1.4.0,"{""duration_s"":60}"`,
  'ex-000006,2026-11-20T00:00:00.000Z,2026-11-20T12:00:00.000Z,platform_2,g1,p1,"s5,""x""\ny",purchase,DE,lua-1.4.0,' +
    `"{""sku"":""coins"",""price"":1,""source"":""iap"",""currency"":""USD"",""quantity"":1}"`,
  '',
].join('\r\n');

const cursorAfter = (ts: string, eventId: string) => Buffer.from(`${ts} ${eventId}`).toString('base64url');

describe.each(testEngines())('GET /api/sdk/export (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { game_id: 'g1', from: '2026-11-18', to: '2026-11-20' };
  const get = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      url: `/api/sdk/export?${new URLSearchParams(query)}`,
      headers: { ...team.headers, ...headers },
    });

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    team = await analyticsTeam(t);
    await send(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('streams every event of the range as NDJSON, in time order, as an attachment', async () => {
    const res = await get(range);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="sdk-events_g1_2026-11-18_2026-11-20.ndjson"',
    );
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['x-svc-history-limited-from']).toBeUndefined();
    expect(res.body).toBe(ALL_NDJSON);
  });

  it('writes RFC 4180 CSV with a header row, quoting and the formula guard', async () => {
    const res = await get({ ...range, format: 'csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="sdk-events_g1_2026-11-18_2026-11-20.csv"',
    );
    expect(res.body).toBe(ALL_CSV);
  });

  it('defaults to the 30 days ending today, which reach back to the 10th', async () => {
    const res = await get({ game_id: 'g1', types: 'level' });
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="sdk-events_g1_2026-10-22_2026-11-20.ndjson"',
    );
    expect(res.body.split('\n').map((l) => (l ? JSON.parse(l).event_id : l))).toEqual([
      'ex-000000',
      '@ex-000004',
      '',
    ]);
  });

  it('keeps only the types asked for, and one platform when asked', async () => {
    expect((await get({ ...range, types: 'purchase,session_end' })).body).toBe(
      NDJSON.e2! + NDJSON.e5! + NDJSON.e6!,
    );
    expect((await get({ ...range, platform: 'platform_3' })).body).toBe(NDJSON.e5);
  });

  it('resumes after the cursor of the last row received, equal times ordered by event id', async () => {
    const afterE2 = await get({ ...range, cursor: cursorAfter('2026-11-18T10:05:00.000Z', 'ex-000002') });
    expect(afterE2.body).toBe(NDJSON.e3! + NDJSON.e4! + NDJSON.e5! + NDJSON.e6!);
    const afterE5 = await get({
      ...range,
      format: 'csv',
      cursor: cursorAfter('2026-11-19T23:59:59.999Z', 'ex-000005'),
    });
    expect(afterE5.body).toBe(
      `${ALL_CSV.split('\r\n')[0]}\r\n${ALL_CSV.split('\r\n').slice(6).join('\r\n')}`,
    );
    const afterLast = await get({ ...range, cursor: cursorAfter('2026-11-20T00:00:00.000Z', 'ex-000006') });
    expect([afterLast.statusCode, afterLast.body]).toEqual([200, '']);
  });

  it('compresses with gzip when the client accepts it', async () => {
    const res = await get(range, { 'accept-encoding': 'br;q=1, gzip;q=0.5' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(ALL_NDJSON);
    const refused = await get(range, { 'accept-encoding': 'gzip;q=0, identity' });
    expect([refused.headers['content-encoding'], refused.body]).toEqual([undefined, ALL_NDJSON]);
  });

  it('reads page after page of every type in order, each row once', async () => {
    // 1,203 level and 601 custom events over 602 seconds, three at a time: pages of 500 rows a type
    // (all 15 types asked) end inside runs of equal ts.
    const many: Record<string, unknown>[] = [];
    for (let i = 0; i < 1804; i++) {
      const ts = new Date(Date.parse('2026-11-19T00:00:00Z') + Math.floor(i / 3) * 1000).toISOString();
      const type = i % 3 === 2 ? 'custom' : 'level';
      const payload = type === 'level' ? { level: i } : { name: 'tick' };
      many.push(ev(`many-${String(1804 - i).padStart(5, '0')}`, ts, type, payload, { game_id: 'g-many' }));
    }
    await send(t, team.key, many);
    const res = await get({ game_id: 'g-many', from: '2026-11-19', to: '2026-11-19' });
    const ids = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).event_id as string);
    expect(ids.length).toBe(1804);
    // Within each second the ids run downwards by creation, so upwards in the export.
    expect(ids.slice(0, 4)).toEqual(['many-01802', 'many-01803', 'many-01804', 'many-01799']);
    expect(ids.at(-1)).toBe('many-00001');
    expect(new Set(ids).size).toBe(1804);
  });

  it('clamps to the plan’s history and says so in a header', async () => {
    const explorer = await analyticsTeam(t, 'Explorer');
    await send(t, explorer.key, [
      ev('old-00001', '2026-10-10T00:00:00Z', 'level', { level: 1 }, { game_id: 'gx' }),
      ev('new-00001', '2026-11-01T00:00:00Z', 'level', { level: 2 }, { game_id: 'gx' }),
    ]);
    const res = await t.app.inject({
      url: '/api/sdk/export?game_id=gx&from=2026-10-01',
      headers: explorer.headers,
    });
    expect(res.headers['x-svc-history-limited-from']).toBe('2026-10-22');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="sdk-events_gx_2026-10-22_2026-11-20.ndjson"',
    );
    expect(
      res.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).event_id),
    ).toEqual(['new-00001']);
  });

  it("answers 404 for another team's game and for a platform the game has no events on", async () => {
    const other = await analyticsTeam(t);
    await send(t, other.key, [
      ev('oth-00001', '2026-11-19T00:00:00Z', 'level', { level: 1 }, { game_id: 'gB' }),
    ]);
    const res = await get({ game_id: 'gB' });
    expect([res.statusCode, res.json()]).toEqual([
      404,
      { detail: 'No SDK events for this game.', code: 'not_found' },
    ]);
    expect((await get({ game_id: 'g1', platform: 'platform_4' })).statusCode).toBe(404);
  });

  it('refuses unknown types, bad ranges and bad cursors with 422 naming the field', async () => {
    const field = async (query: Record<string, string>) => {
      const res = await get(query);
      return [res.statusCode, res.json().code, res.json().field];
    };
    expect(await field({ ...range, types: 'purchase,bogus' })).toEqual([
      422,
      'validation_failed',
      'query.types',
    ]);
    expect(await field({ ...range, types: '' })).toEqual([422, 'validation_failed', 'query.types']);
    expect(await field({ game_id: 'g1', from: '2026-11-20', to: '2026-11-18' })).toEqual([
      422,
      'validation_failed',
      'query.to',
    ]);
    expect(await field({ game_id: 'g1', from: '2025-01-01', to: '2026-11-20' })).toEqual([
      422,
      'validation_failed',
      'query.from',
    ]);
    expect(await field({ ...range, cursor: 'not a cursor' })).toEqual([
      422,
      'validation_failed',
      'query.cursor',
    ]);
    expect(await field({ ...range, cursor: cursorAfter('2026-11-18', 'ex-000002') })).toEqual([
      422,
      'validation_failed',
      'query.cursor',
    ]);
    expect(await field({ ...range, format: 'xml' })).toEqual([422, 'validation_failed', 'query.format']);
  });

  it('documents the query and both content types in OpenAPI', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api/sdk/export' })).json();
    const op = doc.paths['/api/sdk/export'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual([
      'game_id',
      'from',
      'to',
      'types',
      'format',
      'platform',
      'cursor',
      'x-team-id',
    ]);
    expect(Object.keys(op.responses['200'].content)).toEqual(['application/x-ndjson', 'text/csv']);
    expect(Object.keys(op.responses['200'].headers)).toEqual([
      'content-disposition',
      'x-svc-history-limited-from',
    ]);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ url: '/api/sdk/export?game_id=g1' });
    expect(res.statusCode).toBe(401);
  });
});

describe.each(testEngines())('svc events export (%s)', (engine) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let team: AnalyticsTeam;
  let dir: string;

  beforeAll(async () => {
    let testDb: TestDb;
    if (engine === 'pglite') {
      // A migrated database on disk that the CLI opens once the app has closed it.
      dir = await migratedDataDir('svc-export-');
      const db = await openPglite(join(dir, 'pg'));
      testDb = { db, url: undefined, dispose: () => db.close() };
      env = { DATA_DIR: dir };
      cleanup = async () => {};
    } else {
      dir = mkdtempSync(join(tmpdir(), 'svc-export-'));
      const fresh = await freshPostgresDatabase();
      const db = await openPostgres(fresh.url, { max: 5 });
      testDb = { db, url: fresh.url, dispose: () => db.close() };
      env = { DATABASE_URL: fresh.url };
      cleanup = fresh.drop;
    }
    await migrate(testDb.db);
    const t = await buildTestApp({ testDb, clock: fixedClock(NOW) });
    team = await analyticsTeam(t);
    await send(t, team.key, fixture());
    await t.close();
  });
  afterAll(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const args = () => ['events', 'export', '--team', String(team.teamId), '--game', 'g1'];

  it('prints the same NDJSON as the API', async () => {
    const res = await runSvc([...args(), '--from', '2026-11-18', '--to', '2026-11-20'], env);
    expect([res.code, res.err]).toEqual([0, '']);
    expect(`${res.out.join('\n')}\n`).toBe(ALL_NDJSON);
  });

  it('writes CSV of some types to a file', async () => {
    const file = join(dir, 'out.csv');
    const res = await runSvc(
      [
        ...args(),
        '--from',
        '2026-11-18',
        '--to',
        '2026-11-20',
        '--format',
        'csv',
        '--types',
        'level',
        '--out',
        file,
      ],
      env,
    );
    expect([res.code, res.out, res.err]).toEqual([0, [], '']);
    const lines = ALL_CSV.split('\r\n');
    expect(readFileSync(file, 'utf8')).toBe(`${lines[0]}\r\n${lines[4]}\r\n`);
  });

  it('exits 2 with the usage line on bad arguments, 1 for a game the team lacks', async () => {
    const usage =
      'usage: svc events export --team <id> --game <game_id> [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--types a,b] ' +
      '[--format ndjson|csv] [--platform P] [--cursor C] [--out file]';
    expect(await runSvc(['events', 'export', '--game', 'g1'], env)).toMatchObject({
      code: 2,
      err: `svc events export: --team must be a team id (a positive whole number)\n${usage}`,
    });
    expect(await runSvc([...args(), '--format', 'xml'], env)).toMatchObject({
      code: 2,
      err: `svc events export: --format must be ndjson or csv\n${usage}`,
    });
    const badType = await runSvc([...args(), '--types', 'bogus'], env);
    expect([badType.code, badType.err.split('\n')[1]]).toEqual([2, usage]);
    expect(await runSvc([...args().slice(0, -1), 'nope'], env)).toMatchObject({
      code: 1,
      err: 'svc events failed: No SDK events for this game.',
    });
  });
});
