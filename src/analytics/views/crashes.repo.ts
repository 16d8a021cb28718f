/**
 * SQL of the crashes view, over sdk_crash_days (migration 0025: crashes per day, player, session,
 * group, build and OS) and, for the crash-free shares, the sessions of sdk_session_days (a session
 * counts on each UTC day it has events). Every count of players or sessions is a distinct count over
 * the rows of the range (or series point), so it is exact; the segment and platform filters apply.
 */
import { firstInRange, num, pointSql, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** How many groups the view lists (most crashes first). */
export const TOP_CRASH_GROUPS = 50;

const RANGE = `FROM sdk_crash_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`;

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

export interface CrashGroupRow {
  key_source: 'signature' | 'frames';
  group_key: string;
  crashes: number;
  players: number;
  first_seen: string;
  last_seen: string;
  builds: string[];
  oses: string[];
  sample_trace: string;
  frames: string[];
}

/** The range's groups with the most crashes (then players, then key), at most `limit`: their
 * builds and OSes (sorted, those sent), the latest trace and its normalised frames (sdk_crash_frames,
 * the same function that grouped them). */
export async function crashGroups(ctx: ViewContext, limit: number): Promise<CrashGroupRow[]> {
  const r = await ctx.db.query<CrashGroupRow>(
    `SELECT key_source, group_key, crashes, players, first_seen, last_seen, builds, oses, sample_trace,
            sdk_crash_frames(sample_trace) AS frames
       FROM (
         SELECT key_source, group_key, sum(crashes)::int AS crashes, count(DISTINCT player_id)::int AS players,
                to_char(min(first_ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS first_seen,
                to_char(max(last_ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_seen,
                COALESCE(array_agg(DISTINCT build COLLATE "C") FILTER (WHERE build <> ''), '{}') AS builds,
                COALESCE(array_agg(DISTINCT os COLLATE "C") FILTER (WHERE os <> ''), '{}') AS oses,
                (array_agg(sample_trace ORDER BY last_ts DESC, sample_trace COLLATE "C"))[1] AS sample_trace
           ${RANGE}
          GROUP BY key_source, group_key
          ORDER BY crashes DESC, players DESC, group_key COLLATE "C", key_source
          LIMIT $7
       ) AS g
      ORDER BY crashes DESC, players DESC, group_key COLLATE "C", key_source`,
    [...params(ctx), limit],
  );
  return r.rows.map((row) => ({ ...row, crashes: num(row.crashes), players: num(row.players) }));
}

export interface CrashTotals {
  crashes: number;
  groups: number;
  players: number;
  sessions: number;
}

/** The range's crashes, groups, and distinct players and sessions (with a session_id) that crashed.
 * Each distinct is its own hashed DISTINCT over the range's rows, read once (count(DISTINCT ROW(…))
 * sorted them, a third of the view's time at 10M events). */
export async function crashTotals(ctx: ViewContext): Promise<CrashTotals> {
  const r = await ctx.db.query<CrashTotals>(
    `WITH r AS MATERIALIZED (SELECT key_source, group_key, platform, player_id, session_id, crashes ${RANGE})
     SELECT (SELECT COALESCE(sum(crashes), 0) FROM r)::int AS crashes,
            (SELECT count(*) FROM (SELECT DISTINCT key_source, group_key FROM r) AS g)::int AS groups,
            (SELECT count(*) FROM (SELECT DISTINCT player_id FROM r) AS p)::int AS players,
            (SELECT count(*) FROM (SELECT DISTINCT platform, player_id, session_id FROM r WHERE session_id <> '') AS s)::int
              AS sessions`,
    params(ctx),
  );
  const row = r.rows[0]!;
  return {
    crashes: num(row.crashes),
    groups: num(row.groups),
    players: num(row.players),
    sessions: num(row.sessions),
  };
}

/** Per series point with crashes: the distinct players and sessions (with a session_id) that crashed
 * (hashed, as crashTotals). */
export async function crashedPerPoint(
  ctx: ViewContext,
): Promise<{ date: string; players: number; sessions: number }[]> {
  const r = await ctx.db.query<{ date: string; players: number; sessions: number }>(
    `WITH r AS MATERIALIZED (SELECT ${pointSql(ctx)} AS b, platform, player_id, session_id ${RANGE}),
     p AS (SELECT b, count(*)::int AS players FROM (SELECT DISTINCT b, player_id FROM r) AS d GROUP BY b),
     s AS (SELECT b, count(*)::int AS sessions
             FROM (SELECT DISTINCT b, platform, player_id, session_id FROM r WHERE session_id <> '') AS d GROUP BY b)
     SELECT to_char(b, 'YYYY-MM-DD') AS date, p.players, COALESCE(s.sessions, 0) AS sessions
       FROM p LEFT JOIN s USING (b)`,
    params(ctx),
  );
  return r.rows.map((row) => ({ date: row.date, players: num(row.players), sessions: num(row.sessions) }));
}

/** Distinct sessions per series point (a session counts on each day it has events; per week once),
 * and over the whole range (`date` null). A day's rows are one per session already; a week's and
 * the range's sessions are their rows whose session had no earlier day in the same week (from the
 * range's start on) or range: prev_day null or before it (migration 0031). One scan of the range's
 * rows counts them all, nothing hashed or sorted per session. */
export async function sessionsPerPoint(
  ctx: ViewContext,
): Promise<{ date: string | null; sessions: number }[]> {
  const point = pointSql(ctx);
  const r = await ctx.db.query<{ date: string; sessions: number; first_in_range: number }>(
    `SELECT to_char(${point}, 'YYYY-MM-DD') AS date,
            (count(*) FILTER (WHERE ${firstInRange('prev_day', 'prev_day', `GREATEST(${point}, $5::date)`)}))::int AS sessions,
            (count(*) FILTER (WHERE ${firstInRange('prev_day')}))::int AS first_in_range
       FROM sdk_session_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
      GROUP BY ${point}`,
    params(ctx),
  );
  const points = r.rows.map((row) => ({ date: row.date as string | null, sessions: num(row.sessions) }));
  const range = r.rows.reduce((sum, row) => sum + num(row.first_in_range), 0);
  return [...points, { date: null, sessions: range }];
}
