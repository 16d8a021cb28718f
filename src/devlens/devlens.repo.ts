/** Dev Lens SQL: saved reports, always scoped by owner so another user's report is never read. */
import type { Queryable } from '../db/index.js';

export interface ReportRow {
  id: number;
  file_type: string;
  genre: string;
  /** The stored DevLensResult (jsonb comes back parsed). */
  result: unknown;
  created_at: Date;
}

export interface NewReport {
  userId: number;
  teamId: number;
  fileType: string;
  genre: string;
  result: unknown;
  createdAt: Date;
}

export async function insertReport(db: Queryable, r: NewReport): Promise<number> {
  const res = await db.query<{ id: number }>(
    `INSERT INTO devlens_reports (user_id, team_id, file_type, genre, result, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING id`,
    [r.userId, r.teamId, r.fileType, r.genre, JSON.stringify(r.result), r.createdAt],
  );
  return res.rows[0]!.id;
}

/** Newest first, at most `limit`. */
export async function listReports(db: Queryable, teamId: number, limit: number): Promise<ReportRow[]> {
  const res = await db.query<ReportRow>(
    `SELECT id, file_type, genre, result, created_at FROM devlens_reports
     WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [teamId, limit],
  );
  return res.rows;
}
