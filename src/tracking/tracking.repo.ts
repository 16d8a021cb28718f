/** Tracking SQL: a user's tracked games, the catalogue check, and the per-user lock caps rely on. */
import type { Queryable } from '../db/index.js';
import { findGameByUniverseId } from '../market/index.js';

/**
 * Serialises a user's own cap checks (track, create alert) so two concurrent requests cannot both
 * pass a count of cap − 1. Locks the user's row for the rest of the transaction.
 */
export async function lockUser(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

export async function gameExists(db: Queryable, universeId: number): Promise<boolean> {
  return (await findGameByUniverseId(db, universeId)) !== undefined;
}

export async function isTracked(db: Queryable, userId: number, universeId: number): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM tracked_games WHERE user_id = $1 AND universe_id = $2', [
    userId,
    universeId,
  ]);
  return res.rowCount > 0;
}

export async function countTracked(db: Queryable, userId: number): Promise<number> {
  const res = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM tracked_games WHERE user_id = $1',
    [userId],
  );
  return res.rows[0]!.n;
}

export async function insertTracked(
  tx: Queryable,
  userId: number,
  universeId: number,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO tracked_games (user_id, universe_id, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, universe_id) DO NOTHING`,
    [userId, universeId, at],
  );
}

export async function deleteTracked(db: Queryable, userId: number, universeId: number): Promise<number> {
  const res = await db.query('DELETE FROM tracked_games WHERE user_id = $1 AND universe_id = $2', [
    userId,
    universeId,
  ]);
  return res.rowCount;
}
