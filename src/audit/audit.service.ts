/**
 * The audit log: what other domains call to record an action (inside their own transaction, so
 * the entry and the change commit together), and the reads behind GET /api/team/audit and
 * GET /api/admin/audit (JSON pages with a cursor, or a CSV download).
 */

import type { Clock } from '../clock.js';
import { csvCell } from '../csv.js';
import type { Db, Queryable } from '../db/index.js';
import * as repo from './audit.repo.js';
import type { AuditAction, AuditEntryT } from './audit.schemas.js';

/** Who acted and from where: the request's user, IP and user agent. */
export interface AuditActor {
  userId: number | null;
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface AuditRecord {
  action: AuditAction;
  targetType?: 'user' | 'invite' | 'api_key' | 'team';
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
}

export interface AuditQuery {
  teamId?: number | undefined;
  actorId?: number | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export const CSV_COLUMNS = [
  'id',
  'at',
  'team_id',
  'actor_id',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'ip',
  'user_agent',
  'before',
  'after',
] as const;
/** The most rows one CSV export writes. */
export const CSV_MAX_ROWS = 100_000;
const CSV_PAGE = 1_000;
/** User agents are cut to this many characters (a header can be 8 KB). */
const USER_AGENT_MAX = 512;

function entry(row: repo.AuditRow): AuditEntryT {
  return {
    id: row.id,
    at: row.at.toISOString(),
    team_id: row.team_id,
    actor_id: row.actor_id,
    actor_email: row.actor_email,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    ip: row.ip,
    user_agent: row.user_agent,
    before: row.before ?? null,
    after: row.after ?? null,
  };
}

function csvLine(e: AuditEntryT): string {
  const cell = (c: (typeof CSV_COLUMNS)[number]): string | null => {
    const v = e[c];
    if (v === null || v === undefined) return null;
    if (c === 'before' || c === 'after') return JSON.stringify(v);
    return String(v);
  };
  return `${CSV_COLUMNS.map((c) => csvCell(cell(c))).join(',')}\r\n`;
}

export class AuditService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  private insert(actor: AuditActor, r: AuditRecord): Omit<repo.AuditInsert, 'teamId'> {
    return {
      at: this.deps.clock.now(),
      actorId: actor.userId,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId === undefined ? undefined : String(r.targetId),
      ip: actor.ip,
      userAgent: actor.userAgent?.slice(0, USER_AGENT_MAX),
      before: r.before,
      after: r.after,
    };
  }

  /** Records one action in one team's log (null: no team, e.g. a service administrator's act). */
  record(db: Queryable, teamId: number | null, actor: AuditActor, r: AuditRecord): Promise<void> {
    return repo.insertAudit(db, { ...this.insert(actor, r), teamId });
  }

  /** Records one action in the log of every team `userId` is in (or owns, with ownedOnly). */
  recordPerTeam(
    db: Queryable,
    userId: number,
    actor: AuditActor,
    r: AuditRecord,
    ownedOnly = false,
  ): Promise<void> {
    return repo.insertAuditPerTeam(db, userId, this.insert(actor, r), ownedOnly);
  }

  private filter(q: AuditQuery, limit: number, beforeId?: number): repo.AuditFilter {
    return {
      teamId: q.teamId,
      actorId: q.actorId,
      action: q.action,
      targetType: q.targetType,
      since: q.since ? new Date(q.since) : undefined,
      until: q.until ? new Date(q.until) : undefined,
      beforeId: beforeId ?? (q.cursor ? Number(q.cursor) : undefined),
      limit,
    };
  }

  async page(q: AuditQuery): Promise<{ entries: AuditEntryT[]; next_cursor: string | null }> {
    const rows = await repo.listAudit(this.deps.db, this.filter(q, q.limit + 1));
    const more = rows.length > q.limit;
    const entries = rows.slice(0, q.limit).map(entry);
    return { entries, next_cursor: more ? String(entries.at(-1)!.id) : null };
  }

  /** The CSV export: a header line, then every matching entry newest first, page by page. */
  async *csv(q: AuditQuery): AsyncGenerator<string> {
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    let beforeId: number | undefined;
    let written = 0;
    while (written < CSV_MAX_ROWS) {
      const rows = await repo.listAudit(
        this.deps.db,
        this.filter(q, Math.min(CSV_PAGE, CSV_MAX_ROWS - written), beforeId),
      );
      if (rows.length === 0) return;
      yield rows.map((r) => csvLine(entry(r))).join('');
      written += rows.length;
      beforeId = rows.at(-1)!.id;
      if (rows.length < CSV_PAGE) return;
    }
  }
}
