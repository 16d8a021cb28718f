/**
 * Rollups the levels view keeps for itself (migration 0022), folded like every rollup
 * (rollup.source.ts), after the core ones: sdk_level_days already holds the day's folded events.
 * The combined ('') reach rows read every platform's rows: the job's lock (one fold at a time)
 * keeps a fold of another platform's day from deriving them from what it saw before this one
 * commits.
 */
import { clearDays, DAY_KEY, FOLDED, ROW_KEY, type RollupSql } from '../rollup.source.js';

/** One player's rows at one level and platform, oldest first. */
const PAIR = 'PARTITION BY platform, player_id, level';

/** The (player, level) pairs of the day's folded level events. */
const FOLDED_PAIRS = `SELECT DISTINCT player_id, (payload->>'level')::bigint AS level ${FOLDED} AND type = 'level'`;

/**
 * The day's level rows per player and the reach counts derived from them, for `pairs` (a query of
 * (player_id, level)): every pair's whole history on this platform and combined is derived again
 * (a finish on this day moves done_day and to_done of the days before it; an attempt moves prev_day
 * of the next day), written where it changed, and the counts of sdk_level_reach move by the
 * difference. Only rows of this day can go: the other days' rows of this platform are read back as
 * they were.
 */
const reach = (pairs: string): string =>
  `WITH pairs AS (
     ${pairs}
   ), old AS (
     -- OFFSET 0 keeps one index probe per pair: the planner, blind to the pairs' count, would
     -- rather hash-join the game's every row.
     SELECT d.* FROM pairs p CROSS JOIN LATERAL (
       SELECT platform, player_id, level, day, attempts, attempts_to_done, prev_day, done_day, to_done
         FROM sdk_level_player_days
        WHERE team_id = $1 AND game_id = $3 AND player_id = p.player_id AND level = p.level
       OFFSET 0) AS d
   ), mine AS (
     SELECT player_id, level, day, attempts, attempts_to_done FROM old WHERE platform = $2::text AND day <> $4::date
     UNION ALL
     SELECT d.player_id, d.level, d.day, d.attempts, d.attempts_to_done
       FROM pairs p JOIN sdk_level_days d
         ON d.team_id = $1 AND d.platform = $2 AND d.game_id = $3 AND d.day = $4 AND d.player_id = p.player_id
        AND d.level = p.level
   ), src AS (
     SELECT $2::text AS platform, player_id, level, day, attempts, attempts_to_done FROM mine
     UNION ALL
     SELECT '', player_id, level, day, sum(attempts)::int, sum(attempts_to_done)::int
       FROM (SELECT player_id, level, day, attempts, attempts_to_done FROM mine
             UNION ALL
             SELECT player_id, level, day, attempts, attempts_to_done FROM old WHERE platform NOT IN ($2::text, '')
            ) AS every_platform
      GROUP BY player_id, level, day
   ), firsts AS (
     SELECT s.*, lag(day) OVER (${PAIR} ORDER BY day) AS prev,
            min(day) FILTER (WHERE attempts_to_done IS NOT NULL) OVER (${PAIR}) AS f
       FROM src s
   ), new AS (
     SELECT platform, player_id, level, day, attempts, attempts_to_done,
            COALESCE(prev, '-infinity') AS prev_day,
            CASE WHEN day <= f THEN f ELSE 'infinity' END AS done_day,
            (CASE WHEN day <= f
               THEN COALESCE(sum(attempts) FILTER (WHERE day < f) OVER (${PAIR} ORDER BY day DESC), 0)
                    + max(attempts_to_done) FILTER (WHERE day = f) OVER (${PAIR})
               ELSE 0 END)::int AS to_done
       FROM firsts
   ), moved AS (
     -- The rows that changed, old and new side by side (a full join: hashed, never a loop over
     -- one side per row of the other).
     SELECT COALESCE(n.platform, o.platform) AS platform, COALESCE(n.player_id, o.player_id) AS player_id,
            COALESCE(n.level, o.level) AS level, COALESCE(n.day, o.day) AS day,
            o.day IS NOT NULL AS was_there, o.prev_day AS was_prev_day, o.done_day AS was_done_day,
            o.to_done AS was_to_done,
            n.day IS NOT NULL AS is_there, n.attempts, n.attempts_to_done, n.prev_day, n.done_day, n.to_done
       FROM (SELECT * FROM old WHERE platform IN ($2::text, '')) AS o
       FULL JOIN new AS n
         ON n.platform = o.platform AND n.player_id = o.player_id AND n.level = o.level AND n.day = o.day
      WHERE (o.attempts, o.attempts_to_done, o.prev_day, o.done_day, o.to_done)
        IS DISTINCT FROM (n.attempts, n.attempts_to_done, n.prev_day, n.done_day, n.to_done)
   ), gone AS (
     DELETE FROM sdk_level_player_days d USING moved m
      WHERE NOT m.is_there AND m.day = $4::date AND d.team_id = $1 AND d.game_id = $3 AND d.platform = m.platform
        AND d.day = $4::date AND d.player_id = m.player_id AND d.level = m.level
   ), put AS (
     INSERT INTO sdk_level_player_days AS d (team_id, game_id, platform, player_id, level, day, attempts,
       attempts_to_done, prev_day, done_day, to_done)
     SELECT $1::bigint, $3::text, platform, player_id, level, day, attempts, attempts_to_done, prev_day, done_day,
       to_done
       FROM moved WHERE is_there
     ON CONFLICT (team_id, game_id, player_id, level, platform, day) DO UPDATE SET
       attempts = EXCLUDED.attempts, attempts_to_done = EXCLUDED.attempts_to_done, prev_day = EXCLUDED.prev_day,
       done_day = EXCLUDED.done_day, to_done = EXCLUDED.to_done
   )
   INSERT INTO sdk_level_reach AS r (team_id, game_id, platform, day, level, prev_day, done_day, to_done, players)
   SELECT $1::bigint, $3::text, platform, day, level, prev_day, done_day, to_done, sum(n)::int
     FROM (SELECT platform, day, level, was_prev_day AS prev_day, was_done_day AS done_day, was_to_done AS to_done,
                  -1 AS n
             FROM moved WHERE was_there
           UNION ALL
           SELECT platform, day, level, prev_day, done_day, to_done, 1 FROM moved WHERE is_there) AS counted
    GROUP BY platform, day, level, prev_day, done_day, to_done
   HAVING sum(n) <> 0
   ON CONFLICT (team_id, game_id, platform, day, level, prev_day, done_day, to_done) DO UPDATE
     SET players = r.players + EXCLUDED.players`;

const LEVEL_OUTCOMES = `INSERT INTO sdk_level_outcomes AS o (team_id, platform, game_id, day, level, attempts, wins, losses, quits,
     completes)
   SELECT ${ROW_KEY}, (payload->>'level')::bigint, count(*)::int,
     (count(*) FILTER (WHERE COALESCE(payload->>'result', 'complete') = 'win'))::int,
     (count(*) FILTER (WHERE payload->>'result' = 'loss'))::int,
     (count(*) FILTER (WHERE payload->>'result' = 'quit'))::int,
     (count(*) FILTER (WHERE COALESCE(payload->>'result', 'complete') = 'complete'))::int
   ${FOLDED} AND type = 'level'
   GROUP BY (payload->>'level')::bigint
   ON CONFLICT (team_id, game_id, platform, day, level) DO UPDATE SET
     attempts = o.attempts + EXCLUDED.attempts, wins = o.wins + EXCLUDED.wins, losses = o.losses + EXCLUDED.losses,
     quits = o.quits + EXCLUDED.quits, completes = o.completes + EXCLUDED.completes`;

const UNREACHED = `DELETE FROM sdk_level_reach WHERE team_id = $1 AND game_id = $3 AND platform IN ($2, '') AND players = 0`;

export const LEVEL_ROLLUP: RollupSql = {
  clear: clearDays(['sdk_level_outcomes']),
  fold: [LEVEL_OUTCOMES, reach(FOLDED_PAIRS), UNREACHED],
  // A rebuild also derives again the pairs the day had before (those it no longer has go).
  refold: [
    LEVEL_OUTCOMES,
    reach(`${FOLDED_PAIRS} UNION SELECT player_id, level FROM sdk_level_player_days WHERE ${DAY_KEY}`),
    UNREACHED,
  ],
  tables: ['sdk_level_outcomes', 'sdk_level_player_days', 'sdk_level_reach'],
};
