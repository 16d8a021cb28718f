/** Creator SQL: a creator's games in the catalogue and their daily CCU (read-only over the market's tables). */
import type { Queryable } from '../db/index.js';

export type CreatorType = 'User' | 'Group';

export interface CreatorGameRow {
  universe_id: number;
  place_id: number;
  name: string;
  creator_name: string;
  genre: string;
  ccu: number | null;
  visits: number | null;
  created_at: Date | null;
  updated_at: Date | null;
}

const GAME_COLUMNS = `universe_id::float8 AS universe_id, place_id::float8 AS place_id, name, creator_name, genre,
  ccu, visits::float8 AS visits, created_at, updated_at`;

/** Every game of the creator, busiest first (no reading last), then by universe id. */
export async function creatorGames(db: Queryable, type: CreatorType, id: number): Promise<CreatorGameRow[]> {
  const res = await db.query<CreatorGameRow>(
    `SELECT ${GAME_COLUMNS} FROM games WHERE creator_type = $1 AND creator_id = $2
      ORDER BY coalesce(ccu, -1) DESC, universe_id`,
    [type, id],
  );
  return res.rows;
}

/** Daily mean CCU of these games over [from, until), by game, oldest first. */
export async function gamesDailyCcu(
  db: Queryable,
  universeIds: number[],
  from: string,
  until: string,
): Promise<{ universe_id: number; day: string; ccu: number }[]> {
  const res = await db.query<{ universe_id: number; day: string; ccu: number }>(
    `SELECT universe_id::float8 AS universe_id, day::text AS day, ccu_avg::float8 AS ccu FROM ccu_daily
      WHERE universe_id = ANY($1::bigint[]) AND day >= $2::date AND day < $3::date ORDER BY day, universe_id`,
    [universeIds, from, until],
  );
  return res.rows;
}
