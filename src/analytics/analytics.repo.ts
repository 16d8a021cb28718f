/** SQL of the analytics service itself (the team's games); each view's SQL is in its views/ file. */
import type { Queryable } from '../db/index.js';
import { EVENT_TYPES } from '../ingest/index.js';

/** Every type: lets the (team_id, game_id, type, ts) index range on ts. */
const EVENT_TYPE_LIST: readonly string[] = EVENT_TYPES;

export interface SdkGameRow {
  platform: string;
  game_id: string;
  first_seen: string;
  last_seen: string;
  events_24h: number;
  players_24h: number;
}

/** The team's games, busiest in the last 24 hours first; `since` starts the 24 hours. Batches not
 * yet folded into the rollups count too (sdk_rollup_inbox), so a game is listed as soon as its first
 * event is stored. */
export async function teamGames(q: Queryable, teamId: number, since: Date): Promise<SdkGameRow[]> {
  const r = await q.query<SdkGameRow>(
    `WITH g AS (
       SELECT platform, game_id, min(first_day) AS first_day, max(last_day) AS last_day FROM (
         SELECT platform, game_id, first_day, last_day FROM sdk_games WHERE team_id = $1
         UNION ALL
         SELECT platform, game_id, day, day FROM sdk_rollup_inbox WHERE team_id = $1
       ) AS a GROUP BY platform, game_id
     )
     SELECT g.platform, g.game_id, to_char(g.first_day, 'YYYY-MM-DD') AS first_seen,
            to_char(g.last_day, 'YYYY-MM-DD') AS last_seen,
            COALESCE(e.n, 0)::int AS events_24h, COALESCE(e.players, 0)::int AS players_24h
       FROM g LEFT JOIN LATERAL (
         SELECT count(*) AS n, count(DISTINCT player_id) AS players FROM events
          WHERE team_id = $1 AND game_id = g.game_id AND type = ANY($3::text[]) AND ts >= $2
            AND platform = g.platform
       ) AS e ON true
      ORDER BY events_24h DESC, g.game_id, g.platform`,
    [teamId, since, EVENT_TYPE_LIST],
  );
  return r.rows;
}

/** Whether the team has events for the game (on `platform`, when given). */
export async function hasGame(
  q: Queryable,
  teamId: number,
  gameId: string,
  platform: string | null,
): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM sdk_games WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3)
     UNION ALL
     SELECT 1 FROM sdk_rollup_inbox WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3)
     LIMIT 1`,
    [teamId, gameId, platform],
  );
  return (r.rowCount ?? 0) > 0;
}
