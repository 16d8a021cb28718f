/**
 * The audit log's SQL. Only INSERT and SELECT: the table is append-only (migration 0037's
 * triggers refuse UPDATE, DELETE and TRUNCATE), and nothing here could change a row.
 */
import type { Queryable } from '../db/index.js';

export interface AuditInsert {
  at: Date;
  teamId: number | null;
  actorId: number | null;
  action: string;
  targetType?: string | undefined;
  targetId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  before?: unknown;
  after?: unknown;
}

export interface AuditRow {
  id: number;
  at: Date;
  team_id: number | null;
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  user_agent: string | null;
  before: unknown;
  after: unknown;
}

const COLUMNS =
  'id, at, team_id, actor_id, actor_email, action, target_type, target_id, ip, user_agent, before, after';

function values(e: Omit<AuditInsert, 'teamId'>): unknown[] {
  return [
    e.at,
    e.actorId,
    e.action,
    e.targetType ?? null,
    e.targetId ?? null,
    e.ip ?? null,
    e.userAgent ?? null,
    e.before === undefined ? null : JSON.stringify(e.before),
    e.after === undefined ? null : JSON.stringify(e.after),
  ];
}

/** One entry; the actor's e-mail is copied as it is now (it outlives the account). */
export async function insertAudit(db: Queryable, e: AuditInsert): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (at, actor_id, action, target_type, target_id, ip, user_agent, before, after,
                            team_id, actor_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, (SELECT email FROM users WHERE id = $2))`,
    [...values(e), e.teamId],
  );
}

/**
 * The same entry once for every team `userId` belongs to (their personal team included): a
 * member's sign-in shows in each of their teams' logs. `ownedOnly`: only the teams they own (a
 * plan change, which is the plan of the teams they own).
 */
export async function insertAuditPerTeam(
  db: Queryable,
  userId: number,
  e: Omit<AuditInsert, 'teamId'>,
  ownedOnly = false,
): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (at, actor_id, action, target_type, target_id, ip, user_agent, before, after,
                            team_id, actor_email)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, m.team_id, (SELECT email FROM users WHERE id = $2)
       FROM team_members m
      WHERE m.user_id = $10 AND ($11::boolean IS FALSE OR m.role = 'owner')
      ORDER BY m.team_id`,
    [...values(e), userId, ownedOnly],
  );
}

export interface AuditFilter {
  /** undefined: every team (service administrators). */
  teamId?: number | undefined;
  actorId?: number | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  /** Entries older than this id (the cursor). */
  beforeId?: number | undefined;
  limit: number;
}

/** Newest first. */
export async function listAudit(db: Queryable, f: AuditFilter): Promise<AuditRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.teamId !== undefined) add('team_id = ?', f.teamId);
  if (f.actorId !== undefined) add('actor_id = ?', f.actorId);
  if (f.action !== undefined) add('action = ?', f.action);
  if (f.targetType !== undefined) add('target_type = ?', f.targetType);
  if (f.since !== undefined) add('at >= ?', f.since);
  if (f.until !== undefined) add('at < ?', f.until);
  if (f.beforeId !== undefined) add('id < ?', f.beforeId);
  params.push(f.limit);
  return (
    await db.query<AuditRow>(
      `SELECT ${COLUMNS} FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY id DESC LIMIT $${params.length}`,
      params,
    )
  ).rows;
}
