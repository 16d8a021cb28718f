/** SDK analytics test helpers: post events for a team, bring the rollups up to date, read a view. */
import type { LightMyRequestResponse } from 'fastify';
import type { SegmentResolver } from '../../src/analytics/analytics.service.js';
import type { TestApp } from './app.js';
import { bearer, login } from './auth.js';
import { type IngestKey, ingestKey, postEvents } from './ingest.js';

export interface AnalyticsTeam extends IngestKey {
  headers: Record<string, string>;
}

/** A user with a plan, an ingest key and a bearer session. */
export async function analyticsTeam(
  t: TestApp,
  plan: 'Explorer' | 'Builder' | 'Studio' | 'Enterprise' = 'Studio',
): Promise<AnalyticsTeam> {
  const k = await ingestKey(t, { plan });
  return { ...k, headers: bearer(await login(t.app, k.email, k.password)) };
}

/** Posts `events` in batches of 500 and fails on anything but 2xx with every event accepted. */
export async function sendEvents(t: TestApp, key: string, events: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < events.length; i += 500) {
    const batch = events.slice(i, i + 500);
    const res = await postEvents(t.app, { api_key: key, events: batch });
    const body = res.json() as { accepted: number; errors: unknown[] };
    if (res.statusCode >= 300 || body.accepted + (body as { deduped?: number }).deduped! !== batch.length) {
      throw new Error(`ingest answered ${res.statusCode} ${res.body.slice(0, 500)}`);
    }
  }
  // Async batches wait in the outbox: store them, then rebuild the rollups of the days touched.
  await t.app.ingest.writer.flush();
  await t.services.analytics.service.rollups.run();
}

export function getView(
  t: TestApp,
  headers: Record<string, string>,
  gameId: string,
  view: string,
  query: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const qs = new URLSearchParams(query).toString();
  return t.app.inject({
    url: `/api/sdk/analytics/${encodeURIComponent(gameId)}/${view}${qs ? `?${qs}` : ''}`,
    headers,
  });
}

/**
 * Numbered events for a fixture: `<prefix>-000001`, … of `player` at `ts`, on game g1 and
 * platform_2 unless `more` says otherwise (session_id, game_id, platform, …).
 */
export function eventFactory(prefix: string) {
  let n = 0;
  return (
    player: string,
    ts: string,
    type: string,
    payload: Record<string, unknown> = {},
    more: Record<string, unknown> = {},
  ): Record<string, unknown> => {
    n += 1;
    return {
      event_id: `${prefix}-${String(n).padStart(6, '0')}`,
      ts,
      platform: 'platform_2',
      game_id: 'g1',
      player_id: player,
      type,
      payload,
      ...more,
    };
  };
}

/** Runs `read` while the app's analytics service resolves any segment to `players` (a view's test
 * fixes the segment's players; the segments' own tests cover how they are resolved). */
export async function withSegment<T>(t: TestApp, players: string[], read: () => Promise<T>): Promise<T> {
  const service = t.services.analytics.service;
  const before: SegmentResolver | undefined = service.segments;
  service.segments = { players: async () => players };
  try {
    return await read();
  } finally {
    service.segments = before;
  }
}

/** One batch of a property test's plan: its size, the ingest mode (unchanged when absent) and
 * whether the rollup job runs after it. */
export interface BatchPlan {
  size: number;
  sync?: boolean;
  rollup: boolean;
}

/** Posts `events` in batches cut by `plan` (cycled), each expected 2xx, storing queued batches and
 * running the rollup job after the batches that ask for it and once at the end. */
export async function sendInBatches(
  t: TestApp,
  key: string,
  events: readonly object[],
  plan: readonly BatchPlan[],
): Promise<void> {
  let at = 0;
  for (let b = 0; at < events.length; b += 1) {
    const step = plan[b % plan.length]!;
    if (step.sync !== undefined) t.app.ingest.service.mode = step.sync ? 'sync' : 'async';
    const res = await postEvents(t.app, { api_key: key, events: events.slice(at, at + step.size) });
    if (res.statusCode >= 300) throw new Error(`ingest answered ${res.statusCode} ${res.body.slice(0, 500)}`);
    at += step.size;
    if (step.rollup) {
      await t.app.ingest.writer.flush();
      await t.services.analytics.service.rollups.run();
    }
  }
  await t.app.ingest.writer.flush();
  await t.services.analytics.service.rollups.run();
}
