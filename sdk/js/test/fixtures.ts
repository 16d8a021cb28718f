/** Shared by the SDK's server tests: one valid payload of every event type, and rows per event_id. */
import type { TestApp } from '../../../test/helpers/app.js';
import type { EventPayloads, EventType } from '../src/index.js';

type Sample = { [T in EventType]: [T, EventPayloads[T]] }[EventType];

export const everyType: Sample[] = [
  ['session_start', { device: 'phone', os: 'iOS 18', country: 'de' }],
  ['session_end', { duration_s: 312, reason: 'quit' }],
  ['purchase', { sku: 'gems_100', price: 4.99, currency: 'USD', quantity: 1, source: 'iap' }],
  ['ad_impression', { format: 'rewarded', network: 'net-a', revenue_usd: 0.012 }],
  ['level', { level: 3, score: 1200, result: 'win' }],
  ['custom', { name: 'tutorial_done', step: 4 }],
  ['performance', { fps_avg: 58.5, fps_p5: 31, memory_mb: 812 }],
  ['crash', { stack_trace: 'Error: boom\n  at main (game.lua:12)', build: '1.2.3' }],
  ['error', { severity: 'warn', message: 'texture missing' }],
  ['brand_zone_enter', { zone_id: 'zone-1' }],
  ['brand_zone_exit', { zone_id: 'zone-1', dwell_seconds: 42 }],
  ['equip', { item_id: 'hat-7', item_name: 'Red hat' }],
  ['share', { share_platform: 'x', item_id: 'hat-7' }],
  ['brand_survey_shown', { survey_id: 'survey-1', cohort: 'exposed' }],
  ['brand_survey_response', { survey_id: 'survey-1', answer: 'very_likely', favorable: true }],
];

/** How many rows the store holds per event_id for the team. */
export async function storedCounts(t: TestApp, teamId: number): Promise<Map<string, number>> {
  const r = await t.testDb.db.query<{ event_id: string; n: number }>(
    'SELECT event_id, count(*)::int AS n FROM events WHERE team_id = $1 GROUP BY event_id',
    [teamId],
  );
  return new Map(r.rows.map((row) => [row.event_id, Number(row.n)]));
}
