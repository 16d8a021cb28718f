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

/** Per start day of the range, how many sessions took each length and how many player-days each
 * playtime, both in whole seconds: `kind` 'length' rows count sessions (`from_end` of them measured
 * by their session_end, `sum` their exact lengths), 'playtime' rows count player-days (a player's
 * sessions started that day, summed). */
export interface SessionHistogramRow {
  kind: 'length' | 'playtime';
  day: string;
  value: number;
  n: number;
  from_end: number;
  sum: number;
}

export async function sessionHistograms(ctx: ViewContext): Promise<SessionHistogramRow[]> {
  const r = await ctx.db.query<SessionHistogramRow>(
    `WITH ${SESSIONS_CTE},
     playtime AS (SELECT start_day, sum(length_s) AS s FROM sessions GROUP BY player_id, start_day)
     SELECT 'length' AS kind, to_char(start_day, 'YYYY-MM-DD') AS day, round(length_s)::float8 AS value,
            count(*)::int AS n, (count(*) FILTER (WHERE from_end))::int AS from_end, sum(length_s)::float8 AS sum
       FROM sessions GROUP BY start_day, round(length_s)
     UNION ALL
     SELECT 'playtime', to_char(start_day, 'YYYY-MM-DD'), round(s)::float8, count(*)::int, 0, sum(s)::float8
       FROM playtime GROUP BY start_day, round(s)`,
    sessionParams(ctx),
  );
  return r.rows;
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
