/**
 * Rollups the levels view keeps for itself (migration 0022), rebuilt with every day (rollups.repo.ts
 * REBUILD_ALL; parameters: $1 team, $2 platform, $3 game, $4 day, $5..$6 the day's start and end,
 * $7 event types, $8 virtual currency codes, $9 USD per Robux). They run after the core rebuild, so
 * sdk_level_days already holds the day as rebuilt.
 */

const DAY_KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';
/** One player's rows at one level and platform, oldest first. */
const PAIR = 'PARTITION BY platform, player_id, level';

/** Statements run, in order, after the core rebuild of a day. */
export const LEVEL_REBUILD: readonly string[] = [
  `DELETE FROM sdk_level_outcomes WHERE ${DAY_KEY}`,
  `INSERT INTO sdk_level_outcomes (team_id, game_id, platform, day, level, attempts, wins, losses, quits, completes)
   SELECT $1::bigint, $3::text, $2::text, $4::date, level, sum(attempts)::int, sum(wins)::int, sum(losses)::int,
     sum(quits)::int, sum(completes)::int
     FROM sdk_level_days WHERE ${DAY_KEY}
    GROUP BY level`,
  // The combined ('') rows below read every platform's: a rebuild of another platform's day must
  // not derive them from what it saw before this one commits. ($2 is named only because a
  // statement receives the parameters up to the highest it names.)
  `SELECT pg_advisory_xact_lock(hashtext('sdk_level_reach'), hashtext($1::bigint || ':' || $3::text))
    WHERE $2::text IS NOT NULL`,
  // Every player and level the day had, before or after its rebuild: their whole history on this
  // platform and combined is derived again (a finish on this day moves done_day and to_done of
  // the days before it; an attempt moves prev_day of the next day), written where it changed, and
  // the counts of sdk_level_reach move by the difference. Only rows of this day can go: the other
  // days' rows of this platform are read back as they were.
  `WITH pairs AS (
     SELECT player_id, level FROM sdk_level_days WHERE ${DAY_KEY}
     UNION
     SELECT player_id, level FROM sdk_level_player_days WHERE ${DAY_KEY}
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
     SELECT player_id, level, day, attempts, attempts_to_done FROM sdk_level_days WHERE ${DAY_KEY}
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
     SET players = r.players + EXCLUDED.players`,
  `DELETE FROM sdk_level_reach WHERE team_id = $1 AND game_id = $3 AND platform IN ($2, '') AND players = 0`,
];

/** Tables of its own to ANALYZE after large rebuilds. */
export const LEVEL_TABLES: readonly string[] = [
  'sdk_level_outcomes',
  'sdk_level_player_days',
  'sdk_level_reach',
];
