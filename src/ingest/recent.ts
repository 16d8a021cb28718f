/** Recent events, for the API (the team's own data, whole) and the CLI (ids shortened). */
import type { RecentEventRow } from './ingest.repo.js';
import type { RecentEventsBody } from './ingest.schemas.js';

export function toRecentEvent(row: RecentEventRow): RecentEventsBody['events'][number] {
  return {
    event_id: row.event_id,
    type: row.type,
    platform: row.platform,
    game_id: row.game_id,
    player_id: row.player_id,
    session_id: row.session_id,
    ts: row.ts.toISOString(),
    received_at: row.received_at.toISOString(),
    country: row.country,
    sdk_version: row.sdk_version,
    payload: row.payload,
  };
}

/** The first 6 characters of a player id and an ellipsis: enough to tell players apart in a tail,
 * not enough to look one up. */
export function shortPlayer(id: string): string {
  return id.length <= 6 ? id : `${id.slice(0, 6)}…`;
}

/** One line of `svc events tail`: received time, event time, type, platform, game, event id,
 * shortened player id, country. Payloads are not printed. */
export function tailLine(row: RecentEventRow): string {
  return [
    row.received_at.toISOString(),
    row.ts.toISOString(),
    row.type.padEnd(21),
    row.platform,
    `game=${row.game_id}`,
    `event=${row.event_id}`,
    `player=${shortPlayer(row.player_id)}`,
    `country=${row.country ?? '-'}`,
  ].join('  ');
}
