/** Alert SQL: a team's rules (always scoped by team, so another team's rule is never found) and firings. */
import type { Queryable } from '../db/index.js';
import { findGameByUniverseId } from '../market/index.js';
import type { AlertType } from './rules.js';

export interface AlertRow {
  id: number;
  universe_id: number;
  type: AlertType;
  threshold: number;
  message: string;
  viewed: boolean;
  created_at: Date;
  last_fired_at: Date | null;
}

const COLUMNS = 'id, universe_id, type, threshold, message, viewed, created_at, last_fired_at';

export async function catalogueGame(
  db: Queryable,
  universeId: number,
): Promise<{ name: string; genre: string } | undefined> {
  const game = await findGameByUniverseId(db, universeId);
  return game && { name: game.name, genre: game.genre };
}

export async function countAlerts(db: Queryable, teamId: number): Promise<number> {
  const res = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alerts WHERE team_id = $1', [
    teamId,
  ]);
  return res.rows[0]!.n;
}

export interface NewAlert {
  userId: number;
  teamId: number;
  universeId: number;
  type: AlertType;
  threshold: number;
  message: string;
  createdAt: Date;
}

export async function insertAlert(tx: Queryable, a: NewAlert): Promise<AlertRow> {
  const res = await tx.query<AlertRow>(
    `INSERT INTO alerts (user_id, team_id, universe_id, type, threshold, message, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [a.userId, a.teamId, a.universeId, a.type, a.threshold, a.message, a.createdAt],
  );
  return res.rows[0]!;
}

/** Newest first. */
export async function listAlerts(db: Queryable, teamId: number): Promise<AlertRow[]> {
  const res = await db.query<AlertRow>(
    `SELECT ${COLUMNS} FROM alerts WHERE team_id = $1 ORDER BY created_at DESC, id DESC`,
    [teamId],
  );
  return res.rows;
}

export async function ownAlert(db: Queryable, teamId: number, id: number): Promise<AlertRow | undefined> {
  const res = await db.query<AlertRow>(`SELECT ${COLUMNS} FROM alerts WHERE id = $1 AND team_id = $2`, [
    id,
    teamId,
  ]);
  return res.rows[0];
}

/** The team's rule, locked until the transaction ends (an edit reads, checks and writes it). */
export async function lockOwnAlert(tx: Queryable, teamId: number, id: number): Promise<AlertRow | undefined> {
  const res = await tx.query<AlertRow>(
    `SELECT ${COLUMNS} FROM alerts WHERE id = $1 AND team_id = $2 FOR UPDATE`,
    [id, teamId],
  );
  return res.rows[0];
}

/**
 * A new threshold starts the rule over as if created now: armed, no reference state, and a new
 * version, so an engine run that read the old threshold cannot write its decision. The message
 * follows the threshold only while it still says what the rule watches (it has never fired).
 */
export async function changeThreshold(
  tx: Queryable,
  id: number,
  threshold: number,
  watching: string | null,
): Promise<AlertRow> {
  const res = await tx.query<AlertRow>(
    `UPDATE alerts SET threshold = $2, armed = true, state = NULL, version = version + 1,
            message = CASE WHEN last_fired_at IS NULL AND $3::text IS NOT NULL THEN $3::text ELSE message END
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, threshold, watching],
  );
  return res.rows[0]!;
}

export async function deleteAlert(db: Queryable, teamId: number, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM alerts WHERE id = $1 AND team_id = $2', [id, teamId])).rowCount === 1;
}

export async function setViewed(
  db: Queryable,
  teamId: number,
  id: number,
  viewed: boolean,
): Promise<AlertRow | undefined> {
  const res = await db.query<AlertRow>(
    `UPDATE alerts SET viewed = $3 WHERE id = $1 AND team_id = $2 RETURNING ${COLUMNS}`,
    [id, teamId, viewed],
  );
  return res.rows[0];
}

/** Marks every unviewed rule of the team viewed; returns how many changed. */
export async function markAllViewed(db: Queryable, teamId: number): Promise<number> {
  return (await db.query('UPDATE alerts SET viewed = true WHERE team_id = $1 AND NOT viewed', [teamId]))
    .rowCount;
}

export interface FiringRow {
  fired_at: Date;
  message: string;
  details: Record<string, unknown>;
}

/** A rule's firings, newest first. */
export async function listFirings(db: Queryable, alertId: number, limit: number): Promise<FiringRow[]> {
  const res = await db.query<FiringRow>(
    `SELECT fired_at, message, details FROM alert_firings WHERE alert_id = $1
      ORDER BY fired_at DESC, id DESC LIMIT $2`,
    [alertId, limit],
  );
  return res.rows;
}
