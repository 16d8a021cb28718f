/**
 * SQL of the errors view, over sdk_error_days (migration 0025: errors per day, player, severity,
 * source and message prefix, the message normalised by sdk_normalise_line and cut to 80
 * characters). Players affected are distinct over the range; the segment and platform filters apply.
 */
import { num, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** How many groups the view lists. */
export const TOP_ERROR_GROUPS = 100;

const RANGE = `FROM sdk_error_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`;
/** fatal first, then error, then warn. */
const SEVERITY_RANK = `CASE severity WHEN 'fatal' THEN 0 WHEN 'error' THEN 1 ELSE 2 END`;
const GROUP_ORDER = `${SEVERITY_RANK}, count DESC, players DESC, source COLLATE "C", prefix COLLATE "C"`;

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

export interface ErrorGroupRow {
  severity: 'warn' | 'error' | 'fatal';
  source: string;
  prefix: string;
  count: number;
  players: number;
  first_seen: string;
  last_seen: string;
  sample_message: string;
}

const GROUPS = `SELECT severity, source, prefix, sum(errors)::int AS count, count(DISTINCT player_id)::int AS players,
    to_char(min(first_ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS first_seen,
    to_char(max(last_ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_seen,
    (array_agg(sample_message ORDER BY last_ts DESC, sample_message COLLATE "C"))[1] AS sample_message
  ${RANGE} GROUP BY severity, source, prefix ORDER BY ${GROUP_ORDER} LIMIT $7`;

/** The first `limit` groups: fatal first, then error, then warn; most errors first within each. */
export async function errorGroups(ctx: ViewContext, limit: number): Promise<ErrorGroupRow[]> {
  const r = await ctx.db.query<ErrorGroupRow>(GROUPS, [...params(ctx), limit]);
  return r.rows.map((row) => ({ ...row, count: num(row.count), players: num(row.players) }));
}

/** Errors per series point (day, or Monday of the ISO week) of each of the first `limit` groups
 * (`rank`: its index in errorGroups); points without errors absent. */
export async function errorGroupPoints(
  ctx: ViewContext,
  limit: number,
): Promise<{ rank: number; date: string; count: number }[]> {
  const bucket = ctx.granularity === 'week' ? "date_trunc('week', e.day)::date" : 'e.day';
  const r = await ctx.db.query<{ rank: number; date: string; count: number }>(
    `WITH top AS (
       SELECT severity, source, prefix, (row_number() OVER (ORDER BY ${GROUP_ORDER}) - 1)::int AS rank
         FROM (${GROUPS}) AS g
     )
     SELECT t.rank, to_char(${bucket}, 'YYYY-MM-DD') AS date, sum(e.errors)::int AS count
       FROM sdk_error_days AS e JOIN top AS t USING (severity, source, prefix)
      WHERE ${scopeSql('e')} AND e.day BETWEEN $5 AND $6
      GROUP BY 1, 2`,
    [...params(ctx), limit],
  );
  return r.rows.map((row) => ({ rank: num(row.rank), date: row.date, count: num(row.count) }));
}

/** Per severity: errors, distinct players and groups in the range. */
export async function errorsBySeverity(
  ctx: ViewContext,
): Promise<{ severity: string; count: number; players: number; groups: number }[]> {
  const r = await ctx.db.query<{ severity: string; count: number; players: number; groups: number }>(
    `SELECT severity, sum(errors)::int AS count, count(DISTINCT player_id)::int AS players,
            count(DISTINCT ROW(source, prefix))::int AS groups
       ${RANGE} GROUP BY severity`,
    params(ctx),
  );
  return r.rows.map((row) => ({
    severity: row.severity,
    count: num(row.count),
    players: num(row.players),
    groups: num(row.groups),
  }));
}
