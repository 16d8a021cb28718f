/**
 * The Roblox SDK (sdk/roblox/Svc.lua) under Debian's lua5.1 (scripts/ensure-lua.mjs installs it):
 * every test of sdk/roblox/tests/*_test.lua as one vitest test (its own lua5.1 process, stand-in
 * Roblox services and a virtual clock), HMAC-SHA256 against Node's, and an end-to-end run against
 * the real server: the module's requests go out through curl and the events land in the store.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { type IngestKey, ingestKey } from '../../test/helpers/ingest.js';
import { until } from '../../test/helpers/until.js';

const LUA = process.env.LUA_PATH_BIN ?? 'lua5.1';
const here = dirname(fileURLToPath(import.meta.url));
const testsDir = join(here, 'tests');
const run = promisify(execFile);

function lua(args: string[]) {
  const r = spawnSync(LUA, args, { encoding: 'utf8', timeout: 20_000 });
  if (r.error)
    throw new Error(
      `${LUA} could not run (npm test installs it: scripts/ensure-lua.mjs): ${r.error.message}`,
    );
  return r;
}

const files = readdirSync(testsDir)
  .filter((f) => f.endsWith('_test.lua'))
  .sort();

// Each file runs once (its tests are independent: fresh stand-ins and clock each); every test is
// then reported as its own vitest test from its result line.
describe.each(files)('sdk/roblox/tests/%s', (file) => {
  const path = join(testsDir, file);
  const names = lua([path, '--list'])
    .stdout.split('\n')
    .filter((n) => n !== '');
  const results = new Map<string, string>();
  let outcome: ReturnType<typeof lua>;

  beforeAll(() => {
    outcome = lua([path]);
    for (const line of outcome.stdout.split('\n').filter((l) => l !== '')) {
      results.set(line.split('\t')[1] ?? '', line);
    }
  });

  it('runs each of its tests once, in order, and exits 0', () => {
    expect(names.length).toBeGreaterThan(0);
    expect(outcome.stderr).toBe('');
    expect(
      outcome.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[1]),
    ).toEqual(names);
    expect(outcome.status).toBe(0);
  });
  it.each(names)('%s', (name) => {
    expect(results.get(name)).toBe(`ok\t${name}`);
  });
});

describe('Svc.lua', () => {
  const source = readFileSync(join(here, 'Svc.lua'), 'utf8');

  it('is valid Lua 5.1 without what Luau refuses (goto, labels, //, attributes) and without a raw bit32 call', () => {
    expect(spawnSync('luac5.1', ['-p', join(here, 'Svc.lua')], { encoding: 'utf8' }).stderr).toBe('');
    const code = source.replace(/--\[\[[\s\S]*?\]\]/g, '').replace(/--[^\n]*/g, '');
    expect(code).not.toMatch(/\bgoto\b|::\w+::|\/\/|<const>|<close>/);
    expect(code.match(/\bbit32\b/g)).toEqual(['bit32']); // only `bit32 or makeShim()`
  });

  it('computes HMAC-SHA256 and SHA-256 exactly as Node does', () => {
    const cases: [string, string][] = [
      ['per-game-salt-0001', '987654321'],
      ['k', ''],
      ['x'.repeat(64), '-1'],
      ['y'.repeat(65), 'a'.repeat(200)],
      ['sel\u00e9-\u4e2d', '\u00fcnicode \u2603'],
    ];
    for (const [key, msg] of cases) {
      const r = lua([join(testsDir, 'hash_test.lua'), '--print', key, msg]);
      const hmac = createHmac('sha256', key).update(msg).digest('hex');
      const digest = createHash('sha256').update(msg).digest('hex');
      expect(r.stdout).toBe(`${hmac}\n${digest}\n`);
    }
  });
});

interface E2eResult {
  closed: boolean;
  stats: Record<string, number>;
  requests: number;
  statuses: number[];
  player_ids: { alice: string; bruno: string };
  bodies: string[];
}

describe('end to end: Svc.lua → POST /api/sdk/events on the real server', () => {
  let t: TestApp;
  let k: IngestKey;
  let base: string;
  const salt = 'e2e-per-game-salt-0123456789';
  const game = '5550001';

  beforeAll(async () => {
    t = await buildTestApp();
    k = await ingestKey(t);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('delivers every event with hashed player ids, gzip-compressed, and nothing carries a UserId', async () => {
    const { stdout } = await run(LUA, [join(testsDir, 'e2e.lua')], {
      env: { ...process.env, SVC_URL: base, SVC_KEY: k.key, SVC_SALT: salt, SVC_GAME: game },
      timeout: 20_000,
    });
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    const result = JSON.parse(line!.slice('RESULT '.length)) as E2eResult;
    const hmac = (userId: number) => createHmac('sha256', salt).update(String(userId)).digest('hex');
    expect(result.player_ids).toEqual({ alice: hmac(987654321), bruno: hmac(1234567890) });
    expect(result.closed).toBe(true);
    // 2 session_start, 3 level, 1 custom, 1 purchase, 1 error, 2 performance, 2 session_end
    expect(result.stats).toMatchObject({
      queued: 0,
      sent: 12,
      dropped: 0,
      rejected: 0,
      deduped: 0,
      retries: 0,
    });
    expect(result.statuses.every((s) => s === 200 || s === 202)).toBe(true);
    for (const body of result.bodies) {
      expect(body).not.toContain('987654321');
      expect(body).not.toContain('1234567890');
    }

    const rows = async () =>
      (
        await t.testDb.db.query<{
          type: string;
          player_id: string;
          session_id: string | null;
          game_id: string;
          platform: string;
          sdk_version: string | null;
          country: string | null;
          payload: Record<string, unknown>;
        }>(
          `SELECT type, player_id, session_id, game_id, platform, sdk_version, country, payload
             FROM events WHERE team_id = $1 ORDER BY ts, event_id`,
          [k.teamId],
        )
      ).rows;
    await until('the 12 events in the store', 10_000, async () => (await rows()).length === 12);
    const stored = await rows();
    const count = (type: string) => stored.filter((r) => r.type === type).length;
    expect(
      Object.fromEntries(
        ['session_start', 'level', 'custom', 'purchase', 'error', 'performance', 'session_end'].map((x) => [
          x,
          count(x),
        ]),
      ),
    ).toEqual({
      session_start: 2,
      level: 3,
      custom: 1,
      purchase: 1,
      error: 1,
      performance: 2,
      session_end: 2,
    });
    expect(new Set(stored.map((r) => r.player_id))).toEqual(
      new Set([hmac(987654321), hmac(1234567890), 'server']),
    );
    expect(stored.every((r) => r.game_id === game && r.platform === 'platform_1')).toBe(true);
    expect(new Set(stored.map((r) => r.sdk_version))).toEqual(new Set(['svc-roblox/1.0.0']));
    const start = stored.find((r) => r.type === 'session_start' && r.player_id === hmac(987654321));
    expect(start?.country).toBe('US');
    const purchase = stored.find((r) => r.type === 'purchase');
    expect(purchase?.payload).toMatchObject({
      sku: '1010',
      price: 25,
      currency: 'ROBUX',
      source: 'devproduct',
    });
    const end = stored.find((r) => r.type === 'session_end' && r.player_id === hmac(1234567890));
    expect(end?.payload).toMatchObject({ reason: 'left', duration_s: 61 });
    expect(JSON.stringify(stored)).not.toMatch(/987654321|1234567890|AliceBuilds|BrunoPlays/);
  });
});
