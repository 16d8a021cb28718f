/**
 * The rollup the experiments keep for themselves (migration 0027), folded like every rollup
 * (rollup.source.ts): the day's custom events per player and name, and for exposures
 * (name experiment_exposure) per experiment and variant. An exposure without both an `experiment`
 * and a `variant` string names nothing and is left out.
 */
import { clearDays, FOLDED, ROW_KEY, type RollupSql } from '../rollup.source.js';

export const EXPOSURE_EVENT = 'experiment_exposure';

export const EXPERIMENT_ROLLUP: RollupSql = {
  clear: clearDays(['sdk_custom_player_days']),
  fold: [
    `INSERT INTO sdk_custom_player_days AS d (team_id, platform, game_id, day, player_id, name, experiment, variant,
       events, first_ts, last_ts)
     SELECT ${ROW_KEY}, player_id, name, experiment, variant, count(*)::int, min(ts), max(ts)
       FROM (
         SELECT player_id, ts, payload->>'name' AS name,
           CASE WHEN payload->>'name' = '${EXPOSURE_EVENT}' THEN payload->>'experiment' ELSE '' END AS experiment,
           CASE WHEN payload->>'name' = '${EXPOSURE_EVENT}' THEN payload->>'variant' ELSE '' END AS variant
         ${FOLDED} AND type = 'custom'
       ) AS c
      WHERE name IS NOT NULL AND experiment IS NOT NULL AND variant IS NOT NULL
      GROUP BY player_id, name, experiment, variant
     ON CONFLICT (team_id, game_id, name, experiment, day, platform, player_id, variant) DO UPDATE SET
       events = d.events + EXCLUDED.events, first_ts = LEAST(d.first_ts, EXCLUDED.first_ts),
       last_ts = GREATEST(d.last_ts, EXCLUDED.last_ts)`,
  ],
  tables: ['sdk_custom_player_days'],
};
