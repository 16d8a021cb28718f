/** Tracking SQL: a team's tracked games, the catalogue check, and the per-team lock caps rely on. */
import type { Queryable } from '../db/index.js';
import { findGameByUniverseId } from '../market/index.js';

/**
 * Serialises a team's cap checks (track, create alert) so two concurrent requests cannot both
 * pass a count of cap − 1. Locks the team's row for the rest of the transaction.
 */
export async function lockTeam(tx: Queryable, teamId: number): Promise<void> {
  await tx.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
}

export async function gameExists(db: Queryable, universeId: number): Promise<boolean> {
  return (await findGameByUniverseId(db, universeId)) !== undefined;
}

export async function isTracked(db: Queryable, teamId: number, universeId: number): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM tracked_games WHERE team_id = $1 AND universe_id = $2', [
    teamId,
    universeId,
  ]);
  return res.rowCount > 0;
}

export async function countTracked(db: Queryable, teamId: number): Promise<number> {
  const res = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM tracked_games WHERE team_id = $1',
    [teamId],
  );
  return res.rows[0]!.n;
}

export async function insertTracked(
  tx: Queryable,
  owner: { teamId: number; userId: number },
  universeId: number,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO tracked_games (team_id, user_id, universe_id, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (team_id, universe_id) DO NOTHING`,
    [owner.teamId, owner.userId, universeId, at],
  );
}

export async function deleteTracked(db: Queryable, teamId: number, universeId: number): Promise<number> {
  const res = await db.query('DELETE FROM tracked_games WHERE team_id = $1 AND universe_id = $2', [
    teamId,
    universeId,
  ]);
  return res.rowCount;
}

/** The team's tracked universes, oldest first (the order /api/auth/me lists them in). */
export async function listTracked(db: Queryable, teamId: number): Promise<number[]> {
  return (
    await db.query<{ universe_id: number }>(
      'SELECT universe_id FROM tracked_games WHERE team_id = $1 ORDER BY created_at, universe_id',
      [teamId],
    )
  ).rows.map((r) => r.universe_id);
}
