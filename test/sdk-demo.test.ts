/**
 * scripts/sdk-demo.ts: the demo events are deterministic, cover every SDK event type and pass the
 * real ingest; seeding a real server (listening on a port, as the CLI and the screenshots use it)
 * stores them all, defines the experiment and segments once, and a re-run the same day is
 * deduplicated.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_DEMO_GAMES, sdkDemoEvents, seedSdkDemo } from '../scripts/sdk-demo.js';
import { EVENT_TYPES } from '../src/ingest/index.js';
import { validateBatch } from '../src/ingest/validate.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { bearer, createUser, type LoggedIn, login } from './helpers/auth.js';

const NOW = new Date('2026-11-23T15:30:00.000Z');

describe('sdkDemoEvents', () => {
  const events = sdkDemoEvents({ now: NOW });

  it('gives the same events for the same seed and day, and others for another seed', () => {
    expect(sdkDemoEvents({ now: new Date(NOW) })).toEqual(events);
    const other = sdkDemoEvents({ now: NOW, seed: 18 });
    expect(other.map((e) => e.payload)).not.toEqual(events.map((e) => e.payload));
    // Ids carry the seed, so another seed's events are not taken for re-sends of these.
    const ids = new Set(events.map((e) => e.event_id));
    expect(other.filter((e) => ids.has(e.event_id))).toEqual([]);
  });

  it('names events by the seed and UTC day, so a re-run later the same day resends the same ids', () => {
    const later = sdkDemoEvents({ now: new Date('2026-11-23T22:10:00.000Z') });
    expect(events[0]!.event_id).toMatch(/^sd20261123-h-[ab]-[0-9a-z]+$/);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    const ids = new Set(events.map((e) => e.event_id));
    expect(later.filter((e) => ids.has(e.event_id)).length).toBeGreaterThan(0.9 * later.length);
  });

  it('covers every SDK event type of the ingest schema, for both games, over 28 days before now', () => {
    expect([...new Set(events.map((e) => e.type))].sort()).toEqual([...EVENT_TYPES].sort());
    expect(events.length).toBeGreaterThan(15_000);
    expect(events.length).toBeLessThan(25_000);
    expect([...new Set(events.map((e) => e.game_id))].sort()).toEqual([...SDK_DEMO_GAMES].sort());
    const times = events.map((e) => Date.parse(e.ts));
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Date.parse('2026-10-27T00:00:00.000Z'));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('passes the ingest validation rules, every event of the full-size demo', () => {
    const result = validateBatch(events);
    expect(result.errors).toEqual([]);
    expect(result.valid).toHaveLength(events.length);
  });

  it('refuses sizes the demo cannot make', () => {
    expect(() => sdkDemoEvents({ now: NOW, days: 0 })).toThrow('days must be an integer from 1 to 365');
    expect(() => sdkDemoEvents({ now: NOW, players: 1.5 })).toThrow('players must be an integer');
  });
});

describe('seedSdkDemo against a running server', () => {
  let t: TestApp;
  let base: string;
  let user: LoggedIn;
  const options = { players: 40, days: 14, now: new Date() };

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const u = await createUser(t, { plan: 'Studio' });
    user = await login(t.app, u.email, u.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores every event, creates the ingest key, the experiment and the segments', async () => {
    const expected = sdkDemoEvents(options);
    const result = await seedSdkDemo({ base, headers: bearer(user) }, options);
    expect(result).toMatchObject({
      games: ['4924922222', 'com.svc.runner'],
      events: expected.length,
      accepted: expected.length,
      deduped: 0,
      created: [
        'experiment shop_layout',
        'survey sneaker_recall',
        'segment Brazilian players',
        'segment Reached level 5',
      ],
    });
    expect([...new Set(expected.map((e) => e.type))].sort()).toEqual([...EVENT_TYPES].sort());

    const keys = await t.app.inject({ url: '/api/keys', headers: bearer(user) });
    expect(keys.json()).toEqual([
      expect.objectContaining({
        id: result.keyId,
        scopes: ['sdk:ingest'],
        name: `sdk demo ${options.now.toISOString().slice(0, 10)}`,
      }),
    ]);
    await t.app.ingest.writer.flush();
    const stored = await t.testDb.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE key_id = $1',
      [result.keyId],
    );
    expect(stored.rows[0]!.n).toBe(expected.length);
    const experiments = await t.app.inject({ url: '/api/sdk/experiments', headers: bearer(user) });
    expect(experiments.json().experiments).toEqual([
      expect.objectContaining({ game_id: '4924922222', key: 'shop_layout', status: 'running' }),
    ]);
    const segments = await t.app.inject({ url: '/api/sdk/segments', headers: bearer(user) });
    expect(
      segments
        .json()
        .segments.map((s: { name: string }) => s.name)
        .sort(),
    ).toEqual(['Brazilian players', 'Reached level 5']);
  });

  it('a re-run the same day is deduplicated and creates nothing twice', async () => {
    const again = await seedSdkDemo({ base, headers: bearer(user) }, options);
    expect(again).toMatchObject({ accepted: 0, deduped: again.events, created: [] });
  });

  it('fails with the server’s detail when the credentials are refused', async () => {
    await expect(
      seedSdkDemo(
        { base, headers: { authorization: 'Bearer nope' } },
        { players: 2, days: 1, now: new Date() },
      ),
    ).rejects.toThrow(/^POST \/api\/keys answered 401: .+/);
  });
});
