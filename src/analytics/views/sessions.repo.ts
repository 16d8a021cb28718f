/**
 * Sessions, from their per-day fragments (sdk_session_days): a session starts on its first day,
 * and its length is its session_end's duration_s when one was sent, else the span between its
 * first and last event (platform_1's SDK sends no session_end). Shared by overview and engagement.
 * Fragments are read from 2 days before the range to 1 day after it: a session is taken to last
 * less than two days.
 */
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** The sessions starting in the range, one row each, as a CTE named `sessions` (player_id,
 * start_day, length_s, from_end) over parameters $1..$6 ($5 from, $6 to). */
export const SESSIONS_CTE = `sessions AS (
  SELECT player_id, min(day) AS start_day,
         COALESCE(max(end_duration_s), extract(epoch FROM max(last_ts) - min(first_ts))::float8) AS length_s,
         max(end_duration_s) IS NOT NULL AS from_end
    FROM sdk_session_days
   WHERE ${scopeSql()} AND day >= $5::date - 2 AND day <= $6::date + 1
   GROUP BY platform, player_id, session_id
  HAVING min(day) >= $5::date AND min(day) <= $6::date
)`;

export function sessionParams(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

export interface SessionSummaryRow {
  sessions: number;
  from_end: number;
  length_avg: number | null;
  length_p50: number | null;
  length_p90: number | null;
  playtime_avg: number | null;
  playtime_p50: number | null;
  playtime_p90: number | null;
  player_days: number;
}

/** Sessions in the range, their lengths, and the playtime per player-day (the sum of the lengths
 * of the sessions a player started that day); percentiles are exact (percentile_cont). */
export async function sessionSummary(ctx: ViewContext): Promise<SessionSummaryRow> {
  const r = await ctx.db.query<SessionSummaryRow>(
    `WITH ${SESSIONS_CTE},
     playtime AS (SELECT sum(length_s) AS s FROM sessions GROUP BY player_id, start_day)
     SELECT (SELECT count(*) FROM sessions)::int AS sessions,
            (SELECT count(*) FILTER (WHERE from_end) FROM sessions)::int AS from_end,
            (SELECT avg(length_s) FROM sessions) AS length_avg,
            (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY length_s) FROM sessions) AS length_p50,
            (SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY length_s) FROM sessions) AS length_p90,
            (SELECT avg(s) FROM playtime) AS playtime_avg,
            (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s) FROM playtime) AS playtime_p50,
            (SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY s) FROM playtime) AS playtime_p90,
            (SELECT count(*) FROM playtime)::int AS player_days`,
    sessionParams(ctx),
  );
  return r.rows[0]!;
}

/** Where session lengths came from: every one from session_end, none (the event span), or both. */
export function sessionLengthSource(s: {
  sessions: number;
  from_end: number;
}): 'session_end' | 'event_span' | 'mixed' | 'none' {
  if (s.sessions === 0) return 'none';
  if (s.from_end === s.sessions) return 'session_end';
  return s.from_end === 0 ? 'event_span' : 'mixed';
}
