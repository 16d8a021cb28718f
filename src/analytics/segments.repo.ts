/**
 * SQL of segments: the sdk_segments rows, and who matches a segment, read from the raw events
 * (membership depends on the range asked for, so it is never stored). The condition is compiled by
 * conditionSql (conditions.ts) over the alias `e`, its parameters numbered after each query's own.
 */
import type { Queryable } from '../db/index.js';
import { type ConditionT, conditionSql } from './conditions.js';

export interface SegmentRow {
  id: number;
  name: string;
  conditions: ConditionT[];
  match: 'all' | 'any';
  event_type: string | null;
  created_at: Date;
}

const COLUMNS = 'id, name, conditions, match, event_type, created_at';

/** Serialises segment creation per team for the rest of the transaction, so two concurrent
 * creations cannot both pass the cap. An advisory lock keyed by the team: no other domain's rows
 * are locked. */
export async function lockTeamSegments(tx: Queryable, teamId: number): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('sdk_segments', $1::bigint))`, [teamId]);
}

export async function countSegments(q: Queryable, teamId: number): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM sdk_segments WHERE team_id = $1', [
    teamId,
  ]);
  return r.rows[0]!.n;
}

export async function insertSegment(
  q: Queryable,
  s: {
    teamId: number;
    name: string;
    conditions: readonly ConditionT[];
    match: 'all' | 'any';
    eventType: string | null;
    createdAt: Date;
  },
): Promise<SegmentRow> {
  const r = await q.query<SegmentRow>(
    `INSERT INTO sdk_segments (team_id, name, conditions, match, event_type, created_at)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6) RETURNING ${COLUMNS}`,
    [s.teamId, s.name, JSON.stringify(s.conditions), s.match, s.eventType, s.createdAt],
  );
  return r.rows[0]!;
}

/** The team's segments, newest first (id breaks ties within one instant). */
export async function listSegments(q: Queryable, teamId: number): Promise<SegmentRow[]> {
  const r = await q.query<SegmentRow>(
    `SELECT ${COLUMNS} FROM sdk_segments WHERE team_id = $1 ORDER BY created_at DESC, id DESC`,
    [teamId],
  );
  return r.rows;
}

/** The team's segment `id`; null when it does not exist or is another team's. */
export async function findSegment(q: Queryable, teamId: number, id: number): Promise<SegmentRow | null> {
  const r = await q.query<SegmentRow>(`SELECT ${COLUMNS} FROM sdk_segments WHERE team_id = $1 AND id = $2`, [
    teamId,
    id,
  ]);
  return r.rows[0] ?? null;
}

/** Deletes the team's segment `id`; false when there was none. */
export async function deleteSegment(q: Queryable, teamId: number, id: number): Promise<boolean> {
  const r = await q.query('DELETE FROM sdk_segments WHERE team_id = $1 AND id = $2', [teamId, id]);
  return r.rowCount > 0;
}

/** The events a segment reads: the types that can match (every type, or the segment's one — the
 * (team_id, game_id, type, ts) index ranges on ts within each) and [since, until) in UTC. */
export interface MatchScope {
  teamId: number;
  types: readonly string[];
  since: string;
  until: string;
}

/** A segment's condition set, as stored. */
export interface SegmentMatch {
  conditions: readonly ConditionT[];
  match: 'all' | 'any';
  event_type: string | null;
}

function compile(set: SegmentMatch, firstParam: number) {
  return conditionSql(
    { conditions: set.conditions, match: set.match, event_type: set.event_type ?? undefined },
    'e',
    firstParam,
  );
}

/** Players of one game (platform filter: null = all) with an event in the scope that matches. */
export async function segmentPlayers(
  q: Queryable,
  scope: MatchScope & { gameId: string; platform: string | null },
  set: SegmentMatch,
): Promise<string[]> {
  const cond = compile(set, 7);
  const r = await q.query<{ player_id: string }>(
    `SELECT DISTINCT e.player_id FROM events e
      WHERE e.team_id = $1 AND e.game_id = $2 AND ($3::text IS NULL OR e.platform = $3)
        AND e.type = ANY($4::text[]) AND e.ts >= $5::timestamptz AND e.ts < $6::timestamptz
        AND ${cond.sql}
      ORDER BY e.player_id`,
    [scope.teamId, scope.gameId, scope.platform, scope.types, scope.since, scope.until, ...cond.params],
  );
  return r.rows.map((row) => row.player_id);
}

/** How many distinct players of any of the team's games have an event in the scope that matches. */
export async function segmentSize(q: Queryable, scope: MatchScope, set: SegmentMatch): Promise<number> {
  const cond = compile(set, 5);
  const r = await q.query<{ n: number }>(
    `SELECT count(DISTINCT e.player_id)::int AS n FROM events e
      WHERE e.team_id = $1 AND e.type = ANY($2::text[]) AND e.ts >= $3::timestamptz AND e.ts < $4::timestamptz
        AND ${cond.sql}`,
    [scope.teamId, scope.types, scope.since, scope.until, ...cond.params],
  );
  return r.rows[0]!.n;
}
