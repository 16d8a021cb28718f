/**
 * Revenue simulator SQL: the distribution of a genre's CCU, pass counts and pass prices (the games
 * domain's revenue simulator asks here: market owns the games table).
 */
import type { Queryable } from '../db/index.js';

export interface GenreDistributionRow {
  /** Games of the genre with a CCU reading. */
  games: number;
  ccu_p10: number | null;
  ccu_p50: number | null;
  ccu_p90: number | null;
  ccu_min: number | null;
  ccu_max: number | null;
  passes_p10: number | null;
  passes_p50: number | null;
  passes_p90: number | null;
  passes_min: number | null;
  passes_max: number | null;
  price_p10: number | null;
  price_p50: number | null;
  price_p90: number | null;
  price_min: number | null;
  price_max: number | null;
}

/**
 * Interpolated 10th, 50th and 90th percentiles and the range of each input over the genre's games:
 * latest CCU (games with a reading), pass count (games whose pass list was read) and median pass
 * price (games with a priced pass). Aggregates skip NULLs, so each uses the games that have it.
 */
export async function genreDistribution(db: Queryable, genre: string): Promise<GenreDistributionRow> {
  const stats = (col: string, name: string) =>
    [0.1, 0.5, 0.9]
      .map((q) => `percentile_cont(${q}) WITHIN GROUP (ORDER BY ${col})::float8 AS ${name}_p${q * 100}`)
      .concat([`min(${col})::float8 AS ${name}_min`, `max(${col})::float8 AS ${name}_max`])
      .join(', ');
  const res = await db.query<GenreDistributionRow>(
    `SELECT count(ccu)::int AS games, ${stats('ccu', 'ccu')}, ${stats('gamepass_count', 'passes')},
            ${stats('gamepass_median_price', 'price')}
       FROM games WHERE genre = $1`,
    [genre],
  );
  return res.rows[0]!;
}
