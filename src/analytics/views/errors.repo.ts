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

/** Per group: its sums, first and last, and players (keys compared as bytes, "C": equality is the
 * same, and sorting by the database's locale was most of the time on 180k rows, their size at 10M
 * events); the sample: the C-first message among the group's rows with its latest last_ts (=
 * array_agg ORDER BY last_ts DESC, message COLLATE "C", which sorted every row again), joined for the
 * listed groups only. */
const GROUPS = `WITH g AS (
    SELECT severity COLLATE "C" AS severity, source COLLATE "C" AS source, prefix COLLATE "C" AS prefix,
           sum(errors)::int AS count, count(DISTINCT player_id COLLATE "C")::int AS players,
           min(first_ts) AS first_ts, max(last_ts) AS last_ts
      ${RANGE} GROUP BY 1, 2, 3
  ), top AS (
    SELECT * FROM g ORDER BY ${GROUP_ORDER} LIMIT $7
  ), s AS (
    SELECT e.severity, e.source, e.prefix, min(e.sample_message COLLATE "C") AS sample_message
      FROM sdk_error_days AS e JOIN top AS t
        ON e.severity = t.severity COLLATE "C" AND e.source = t.source COLLATE "C" AND e.prefix = t.prefix COLLATE "C"
          AND e.last_ts = t.last_ts
     WHERE ${scopeSql('e')} AND e.day BETWEEN $5 AND $6 GROUP BY e.severity, e.source, e.prefix
  )
  SELECT severity, source, prefix, count, players,
    to_char(first_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS first_seen,
    to_char(last_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_seen,
    s.sample_message
  FROM top JOIN s USING (severity, source, prefix) ORDER BY ${GROUP_ORDER}`;

/** The first `limit` groups: fatal first, then error, then warn; most errors first within each. */
export async function errorGroups(ctx: ViewContext, limit: number): Promise<ErrorGroupRow[]> {
  const r = await ctx.db.query<ErrorGroupRow>(GROUPS, [...params(ctx), limit]);
  return r.rows.map((row) => ({ ...row, count: num(row.count), players: num(row.players) }));
}

/** Errors per series point (day, or Monday of the ISO week) of the given groups (`rank`: the
 * group's index in `groups`, as errorGroups listed them); points without errors absent. */
export async function errorGroupPoints(
  ctx: ViewContext,
  groups: readonly Pick<ErrorGroupRow, 'severity' | 'source' | 'prefix'>[],
): Promise<{ rank: number; date: string; count: number }[]> {
  if (groups.length === 0) return [];
  const bucket = ctx.granularity === 'week' ? "date_trunc('week', e.day)::date" : 'e.day';
  const r = await ctx.db.query<{ rank: number; date: string; count: number }>(
    `WITH top AS (
       SELECT severity, source, prefix, (n - 1)::int AS rank
         FROM unnest($7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS t (severity, source, prefix, n)
     )
     SELECT t.rank, to_char(${bucket}, 'YYYY-MM-DD') AS date, sum(e.errors)::int AS count
       FROM sdk_error_days AS e JOIN top AS t USING (severity, source, prefix)
      WHERE ${scopeSql('e')} AND e.day BETWEEN $5 AND $6
      GROUP BY 1, 2`,
    [...params(ctx), groups.map((g) => g.severity), groups.map((g) => g.source), groups.map((g) => g.prefix)],
  );
  return r.rows.map((row) => ({ rank: num(row.rank), date: row.date, count: num(row.count) }));
}

/** Per severity: errors, distinct players and groups in the range. */
export async function errorsBySeverity(
  ctx: ViewContext,
): Promise<{ severity: string; count: number; players: number; groups: number }[]> {
  const r = await ctx.db.query<{ severity: string; count: number; players: number; groups: number }>(
    `SELECT severity, g.count, p.players, g.groups
       FROM (SELECT severity, sum(count)::int AS count, count(*)::int AS groups
               FROM (SELECT severity, sum(errors) AS count ${RANGE} GROUP BY severity, source, prefix) AS x
              GROUP BY severity) AS g
       JOIN (SELECT severity, count(*)::int AS players
               FROM (SELECT DISTINCT severity, player_id ${RANGE}) AS d GROUP BY severity) AS p USING (severity)`,
    params(ctx),
  );
  return r.rows.map((row) => ({
    severity: row.severity,
    count: num(row.count),
    players: num(row.players),
    groups: num(row.groups),
  }));
}
