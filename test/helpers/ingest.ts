/** SDK ingest test helpers: keys with scopes, valid events, posting batches, reading the store. */
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ApiKeyScope } from '../../src/accounts/index.js';
import type { EventRow } from '../../src/ingest/ingest.repo.js';
import type { PlanName } from '../../src/plans.js';
import type { TestApp } from './app.js';
import { createUser } from './auth.js';

export interface IngestKey {
  key: string;
  keyId: number;
  userId: number;
  teamId: number;
  email: string;
  password: string;
}

/** A user (with a plan) and an API key of theirs with `scopes` (sdk:ingest unless told). */
export async function ingestKey(
  t: TestApp,
  options: { plan?: PlanName; scopes?: ApiKeyScope[] } = {},
): Promise<IngestKey> {
  const user = await createUser(t, options.plan ? { plan: options.plan } : {});
  const r = await t.testDb.db.query<{ team_id: number }>('SELECT team_id FROM users WHERE id = $1', [
    user.id,
  ]);
  const teamId = r.rows[0]!.team_id;
  const created = await t.accounts.apiKeys.create(
    { userId: user.id, teamId },
    'sdk',
    options.scopes ?? ['sdk:ingest'],
  );
  return {
    key: created.key,
    keyId: created.id,
    userId: user.id,
    teamId,
    email: user.email,
    password: user.password,
  };
}

/** A stored-row shape (what the queue carries and `events` holds): team 1, key 1, a level event
 * numbered `n` (event_id evt-0000000n), with `overrides`. */
export function eventRow(n: number, overrides: Partial<EventRow> = {}): EventRow {
  return {
    team_id: 1,
    key_id: 1,
    sdk_version: null,
    received_at: '2026-11-23T10:00:00.000Z',
    event_id: `evt-${String(n).padStart(8, '0')}`,
    ts: '2026-11-23T09:00:00.000Z',
    platform: 'platform_1',
    game_id: 'g',
    player_id: 'p',
    session_id: null,
    type: 'level',
    payload: { level: n },
    country: null,
    batch: 7,
    ...overrides,
  };
}

/** A valid event; `n` makes its event_id unique (evt-00000001 …). */
export function sdkEvent(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: `evt-${String(n).padStart(8, '0')}`,
    platform: 'platform_1',
    game_id: 'game-1',
    player_id: 'player-hash-0001',
    type: 'level',
    payload: { level: n % 50 },
    ...overrides,
  };
}

export function sdkEvents(from: number, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => sdkEvent(from + i));
}

export function postEvents(
  app: FastifyInstance,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/sdk/events', payload: body as object, headers });
}

export function postGzip(
  app: FastifyInstance,
  raw: Buffer | string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/sdk/events',
    payload: gzipSync(raw),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers },
  });
}

export interface StoredEvent {
  event_id: string;
  type: string;
  ts: Date;
  received_at: Date;
  country: string | null;
  sdk_version: string | null;
  key_id: number;
  player_id: string;
}

export async function storedEvents(t: TestApp, teamId: number): Promise<StoredEvent[]> {
  const r = await t.testDb.db.query<StoredEvent>(
    `SELECT event_id, type, ts, received_at, country, sdk_version, key_id, player_id
       FROM events WHERE team_id = $1 ORDER BY event_id`,
    [teamId],
  );
  return r.rows;
}

export async function monthUsed(t: TestApp, teamId: number): Promise<number> {
  const r = await t.testDb.db.query<{ used: number }>(
    'SELECT COALESCE(SUM(used), 0)::bigint AS used FROM ingest_usage WHERE team_id = $1',
    [teamId],
  );
  return r.rows[0]?.used ?? 0;
}
