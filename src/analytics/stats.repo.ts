/**
 * SQL of the day stats step (stats.ts): take a game's due days, write its sdk_day_stats rows.
 */
import type { Queryable } from '../db/index.js';
import type { DayFigures } from './views/daily.js';

/**
 * Takes the due days of one game nobody else is deriving: the game of the first due row not
 * locked by another run, then a transaction-scoped lock on the game (runs deriving it wait for
 * each other, so the last to write has read the newest rollups), then its due rows, deleted.
 * Must run inside a transaction; null when nothing is due.
 */
export async function takeDueGame(
  tx: Queryable,
): Promise<{ team_id: number; game_id: string; days: string[] } | null> {
  const first = await tx.query<{ team_id: number; game_id: string }>(
    'SELECT team_id, game_id FROM sdk_stats_due ORDER BY day DESC LIMIT 1 FOR UPDATE SKIP LOCKED',
  );
  const row = first.rows[0];
  if (!row) return null;
  const teamId = Number(row.team_id);
  await tx.query(
    "SELECT pg_advisory_xact_lock(hashtext('sdk_day_stats'), hashtext($1::bigint || ':' || $2::text))",
    [teamId, row.game_id],
  );
  const due = await tx.query<{ day: string }>(
    `DELETE FROM sdk_stats_due WHERE team_id = $1 AND game_id = $2 RETURNING to_char(day, 'YYYY-MM-DD') AS day`,
    [teamId, row.game_id],
  );
  return { team_id: teamId, game_id: row.game_id, days: due.rows.map((r) => r.day) };
}

/** The game's platforms. */
export async function gamePlatforms(q: Queryable, teamId: number, gameId: string): Promise<string[]> {
  const r = await q.query<{ platform: string }>(
    'SELECT platform FROM sdk_games WHERE team_id = $1 AND game_id = $2 ORDER BY platform',
    [teamId, gameId],
  );
  return r.rows.map((row) => row.platform);
}

/** Replaces the game's stored days from `from` to `to` on `platform` ('' = combined) by `days`. */
export async function writeDayStats(
  q: Queryable,
  key: { team_id: number; game_id: string; platform: string },
  from: string,
  to: string,
  days: readonly DayFigures[],
): Promise<void> {
  await q.query(
    'DELETE FROM sdk_day_stats WHERE team_id = $1 AND game_id = $2 AND platform = $3 AND day BETWEEN $4 AND $5',
    [key.team_id, key.game_id, key.platform, from, to],
  );
  if (days.length === 0) return;
  const rows = days.map((d) => ({
    team_id: key.team_id,
    game_id: key.game_id,
    platform: key.platform,
    day: d.day,
    dau: d.dau,
    wau_move: d.wau_move,
    mau_move: d.mau_move,
    revenue_usd: d.revenue_usd,
    sessions: d.sessions,
    sessions_from_end: d.sessions_from_end,
    length_sum: d.length_sum,
    length_values: d.lengths.values,
    length_counts: d.lengths.counts,
    playtime_days: d.playtime_days,
    playtime_sum: d.playtime_sum,
    playtime_values: d.playtimes.values,
    playtime_counts: d.playtimes.counts,
  }));
  await q.query(
    'INSERT INTO sdk_day_stats SELECT * FROM json_populate_recordset(NULL::sdk_day_stats, $1::json)',
    [JSON.stringify(rows)],
  );
}
