/**
 * SQL of the errors view, over sdk_error_days (migration 0025: errors per day, player, severity,
 * source and message prefix, the message normalised by sdk_normalise_line and cut to 80
 * characters). Players affected are distinct over the range: the rows that are their player's first
 * of the group (or severity) from the range's start on (the previous-day columns of migration 0031,
 * firstInRange), counted in one scan; the segment and platform filters apply.
 */
import { firstInRange, num, pointSql, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** How many groups the view lists. */
export const TOP_ERROR_GROUPS = 100;

const RANGE = `FROM sdk_error_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`;
/** fatal first, then error, then warn. */
const SEVERITY_RANK = `CASE severity WHEN 'fatal' THEN 0 WHEN 'error' THEN 1 ELSE 2 END`;
/** A row that counts its player once for its group, or for its severity (migration 0031). */
const GROUP_FIRST = firstInRange('prev_day', 'prev_any');
const SEVERITY_FIRST = firstInRange('severity_prev_day', 'severity_prev_any');
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

/**
 * The range in one scan of its rows (`p`: per group and series point, the errors, the rows that
 * count a player for the group and for the severity, first and last; keys compared as bytes, "C":
 * equality is the same, and sorting by the database's locale was most of the time at 10M events),
 * then: the first $7 groups (`g` summed over the points, ranked) with their sample, the C-first
 * message among the group's rows with its latest last_ts, joined for the listed groups only; those
 * groups' points; and per severity the errors, players and groups. One row shape for the three
 * (`kind`).
 */
const FIGURES = (point: string) => `WITH p AS MATERIALIZED (
    SELECT severity COLLATE "C" AS severity, source COLLATE "C" AS source, prefix COLLATE "C" AS prefix,
           ${point} AS b, sum(errors) AS count, count(*) FILTER (WHERE ${GROUP_FIRST}) AS players,
           count(*) FILTER (WHERE ${SEVERITY_FIRST}) AS severity_players, min(first_ts) AS first_ts,
           max(last_ts) AS last_ts
      ${RANGE} GROUP BY 1, 2, 3, 4
  ), g AS MATERIALIZED (
    SELECT severity, source, prefix, sum(count)::int AS count, sum(players)::int AS players,
           sum(severity_players)::int AS severity_players, min(first_ts) AS first_ts, max(last_ts) AS last_ts
      FROM p GROUP BY 1, 2, 3
  ), top AS (
    SELECT *, (row_number() OVER (ORDER BY ${GROUP_ORDER}) - 1)::int AS rank FROM g ORDER BY ${GROUP_ORDER} LIMIT $7
  ), s AS (
    SELECT e.severity, e.source, e.prefix, min(e.sample_message COLLATE "C") AS sample_message
      FROM sdk_error_days AS e JOIN top AS t
        ON e.severity = t.severity COLLATE "C" AND e.source = t.source COLLATE "C" AND e.prefix = t.prefix COLLATE "C"
          AND e.last_ts = t.last_ts
     WHERE ${scopeSql('e')} AND e.day BETWEEN $5 AND $6 GROUP BY e.severity, e.source, e.prefix
  )
  SELECT 'group' AS kind, rank, severity, source, prefix, NULL AS date, count, players, NULL::int AS groups,
    to_char(first_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS first_seen,
    to_char(last_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_seen,
    s.sample_message
  FROM top JOIN s USING (severity, source, prefix)
  UNION ALL
  SELECT 'point', t.rank, NULL, NULL, NULL, to_char(p.b, 'YYYY-MM-DD'), p.count::int, NULL, NULL, NULL, NULL, NULL
    FROM p JOIN top AS t USING (severity, source, prefix)
  UNION ALL
  SELECT 'severity', NULL, severity, NULL, NULL, NULL, sum(count)::int, sum(severity_players)::int, count(*)::int,
    NULL, NULL, NULL
    FROM g GROUP BY severity`;

export interface ErrorFigures {
  /** The first groups: fatal first, then error, then warn; most errors first within each. */
  groups: ErrorGroupRow[];
  /** Errors per series point (day, or Monday of the ISO week) of the listed groups (`rank`: the
   * group's index in `groups`); points without errors absent. */
  points: { rank: number; date: string; count: number }[];
  /** Per severity with errors: errors, distinct players and groups in the range. */
  severities: { severity: string; count: number; players: number; groups: number }[];
}

/** The errors view's figures, the first `limit` groups listed (one query, one scan of the range). */
export async function errorFigures(ctx: ViewContext, limit: number): Promise<ErrorFigures> {
  const r = await ctx.db.query<{
    kind: 'group' | 'point' | 'severity';
    rank: number | null;
    severity: string | null;
    source: string | null;
    prefix: string | null;
    date: string | null;
    count: number;
    players: number | null;
    groups: number | null;
    first_seen: string | null;
    last_seen: string | null;
    sample_message: string | null;
  }>(FIGURES(pointSql(ctx)), [...params(ctx), limit]);
  const out: ErrorFigures = { groups: [], points: [], severities: [] };
  const ranked: [number, ErrorGroupRow][] = [];
  for (const row of r.rows) {
    if (row.kind === 'group') {
      ranked.push([
        num(row.rank),
        {
          severity: row.severity as ErrorGroupRow['severity'],
          source: row.source!,
          prefix: row.prefix!,
          count: num(row.count),
          players: num(row.players),
          first_seen: row.first_seen!,
          last_seen: row.last_seen!,
          sample_message: row.sample_message!,
        },
      ]);
    } else if (row.kind === 'point') {
      out.points.push({ rank: num(row.rank), date: row.date!, count: num(row.count) });
    } else {
      out.severities.push({
        severity: row.severity!,
        count: num(row.count),
        players: num(row.players),
        groups: num(row.groups),
      });
    }
  }
  out.groups = ranked.sort((a, b) => a[0] - b[0]).map(([, g]) => g);
  return out;
}
