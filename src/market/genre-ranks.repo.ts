/**
 * Benchmark SQL: one aggregate over a genre, counting the games below and level with one game (the
 * games domain's benchmark asks here: market owns the games table).
 */
import type { Queryable } from '../db/index.js';

export interface BenchmarkSubject {
  genre: string;
  universeId: number;
  ccu: number;
  visits: number;
  /** likes / (likes + dislikes) as float8 arithmetic gives it (the SQL repeats that division), or null. */
  likeRatio: number | null;
  gamepassCount: number | null;
}

export interface GenreRankRow {
  ccu_others: number;
  ccu_below: number;
  ccu_equal: number;
  visits_others: number;
  visits_below: number;
  visits_equal: number;
  ratio_others: number;
  ratio_below: number;
  ratio_equal: number;
  passes_others: number;
  passes_below: number;
  passes_equal: number;
  genre_games: number;
  avg_ccu: number | null;
  avg_visits: number | null;
  avg_like_ratio: number | null;
}

/** Votes as a ratio, null without votes: the same float8 division the service compares with. */
const RATIO = `(up_votes::float8 / NULLIF(up_votes + down_votes, 0))`;

/**
 * Percentile counts among the OTHER games of the genre that have the value (ccu and visits: a
 * reading; like ratio: votes; passes: a pass list read), and the genre means over every game of the
 * genre that has the value, the subject included. One pass over the genre (genre index).
 */
export async function genreRanks(db: Queryable, s: BenchmarkSubject): Promise<GenreRankRow> {
  const res = await db.query<GenreRankRow>(
    `SELECT count(ccu) FILTER (WHERE o)::int AS ccu_others,
            count(*) FILTER (WHERE o AND ccu < $3)::int AS ccu_below,
            count(*) FILTER (WHERE o AND ccu = $3)::int AS ccu_equal,
            count(visits) FILTER (WHERE o)::int AS visits_others,
            count(*) FILTER (WHERE o AND visits < $4)::int AS visits_below,
            count(*) FILTER (WHERE o AND visits = $4)::int AS visits_equal,
            count(ratio) FILTER (WHERE o)::int AS ratio_others,
            count(*) FILTER (WHERE o AND ratio < $5)::int AS ratio_below,
            count(*) FILTER (WHERE o AND ratio = $5)::int AS ratio_equal,
            count(gamepass_count) FILTER (WHERE o)::int AS passes_others,
            count(*) FILTER (WHERE o AND gamepass_count < $6)::int AS passes_below,
            count(*) FILTER (WHERE o AND gamepass_count = $6)::int AS passes_equal,
            count(*)::int AS genre_games,
            avg(ccu)::float8 AS avg_ccu,
            avg(visits)::float8 AS avg_visits,
            avg(ratio)::float8 AS avg_like_ratio
       FROM (SELECT universe_id <> $2 AS o, ccu, visits, ${RATIO} AS ratio, gamepass_count
               FROM games WHERE genre = $1) AS g`,
    [s.genre, s.universeId, s.ccu, s.visits, s.likeRatio, s.gamepassCount],
  );
  return res.rows[0]!;
}
