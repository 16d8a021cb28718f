/** SQL of the raw-event export: one page of one event type after a (ts, event_id) keyset cursor. */
import type { Queryable } from '../db/index.js';

export interface ExportRow {
  event_id: string;
  ts: Date;
  received_at: Date;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string | null;
  type: string;
  country: string | null;
  sdk_version: string | null;
  payload: Record<string, unknown>;
}

export interface ExportPage {
  teamId: number;
  gameId: string;
  type: string;
  platform: string | null;
  /** ts >= start, ts < end. */
  start: Date;
  end: Date;
  /** Rows strictly after this (ts, event_id). */
  afterTs: Date;
  afterId: string;
  limit: number;
}

/**
 * The next `limit` events of one type after the cursor, in (ts, event_id) order. One type per
 * query: with type = $3 the (team_id, game_id, type, ts) index returns rows already in ts order
 * (only equal-ts runs are sorted by event_id), so a page costs its own rows; with type = ANY(…)
 * Postgres would fetch and sort the whole rest of the range for every page. event_id compares
 * bytewise (COLLATE "C") so the order does not depend on the server's locale and the caller can
 * merge the types' pages in the same order.
 */
export async function eventsPage(q: Queryable, p: ExportPage): Promise<ExportRow[]> {
  const r = await q.query<ExportRow>(
    `SELECT event_id, ts, received_at, platform, game_id, player_id, session_id, type, country,
            sdk_version, payload
       FROM events
      WHERE team_id = $1 AND game_id = $2 AND type = $3 AND ($4::text IS NULL OR platform = $4)
        AND ts >= $5 AND ts < $6 AND ts >= $7
        AND (ts, event_id COLLATE "C") > ($7::timestamptz, $8::text COLLATE "C")
      ORDER BY ts, event_id COLLATE "C"
      LIMIT $9`,
    [p.teamId, p.gameId, p.type, p.platform, p.start, p.end, p.afterTs, p.afterId, p.limit],
  );
  return r.rows;
}
