/**
 * The rollup the experiments keep for themselves (migration 0027), rebuilt with every day
 * (rollups.repo.ts REBUILD_ALL; parameters: $1 team, $2 platform, $3 game, $4 day, $5..$6 the day's
 * start and end): the day's custom events per player and name, and for exposures
 * (name experiment_exposure) per experiment and variant. One pass over the day's `custom` events
 * (type = 'custom' lets the (team_id, game_id, type, ts) index range on ts). An exposure without
 * both an `experiment` and a `variant` string names nothing and is left out.
 */

const KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';

/** The custom event name of the SDK's exposure contract (README, SDK analytics). */
export const EXPOSURE_EVENT = 'experiment_exposure';

export const EXPERIMENT_REBUILD: readonly string[] = [
  `DELETE FROM sdk_custom_player_days WHERE ${KEY}`,
  `INSERT INTO sdk_custom_player_days (team_id, platform, game_id, day, player_id, name, experiment, variant,
     events, first_ts, last_ts)
   SELECT $1::bigint, $2::text, $3::text, $4::date, player_id, name, experiment, variant, count(*)::int, min(ts),
     max(ts)
     FROM (
       SELECT player_id, ts, payload->>'name' AS name,
         CASE WHEN payload->>'name' = '${EXPOSURE_EVENT}' THEN payload->>'experiment' ELSE '' END AS experiment,
         CASE WHEN payload->>'name' = '${EXPOSURE_EVENT}' THEN payload->>'variant' ELSE '' END AS variant
         FROM events
        WHERE team_id = $1 AND game_id = $3 AND type = 'custom' AND ts >= $5 AND ts < $6 AND platform = $2
     ) AS c
    WHERE name IS NOT NULL AND experiment IS NOT NULL AND variant IS NOT NULL
    GROUP BY player_id, name, experiment, variant`,
];

/** Tables of its own to ANALYZE after large rebuilds. */
export const EXPERIMENT_TABLES: readonly string[] = ['sdk_custom_player_days'];
