/**
 * Benchmark rules: a collected game against the other games of its genre (DECISIONS §5). The
 * percentile definition lives in benchmark.ts, the counting SQL in market's genre-ranks.repo.ts.
 */
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { findGameByPlaceId, genreRanks } from '../market/index.js';
import { midRankPercentile, roundOrNull } from './benchmark.js';
import type { BenchmarkResultT } from './benchmark.schemas.js';

export class BenchmarkService {
  constructor(private readonly deps: { db: Db }) {}

  /** The game's percentiles within its genre and the genre's means; 404 for a place not collected. */
  async benchmark(placeId: number): Promise<BenchmarkResultT> {
    const game = await findGameByPlaceId(this.deps.db, placeId);
    if (!game) throw errors.notFound(`No game with place id ${placeId} is known.`);
    const likes = game.up_votes ?? 0;
    const votes = likes + (game.down_votes ?? 0);
    // A game never read compares as 0 CCU and 0 visits, as its detail shows it.
    const ranks = await genreRanks(this.deps.db, {
      genre: game.genre,
      universeId: game.universe_id,
      ccu: game.ccu ?? 0,
      visits: game.visits ?? 0,
      likeRatio: votes > 0 ? likes / votes : null,
      gamepassCount: game.gamepass_count,
    });
    const pct = (others: number, below: number, equal: number) => midRankPercentile({ others, below, equal });
    return {
      game: game.name,
      place_id: game.place_id,
      universe_id: game.universe_id,
      genre: game.genre,
      genre_games: ranks.genre_games,
      metrics: {
        ccu_percentile: pct(ranks.ccu_others, ranks.ccu_below, ranks.ccu_equal),
        visits_percentile: pct(ranks.visits_others, ranks.visits_below, ranks.visits_equal),
        like_ratio_percentile:
          votes > 0 ? pct(ranks.ratio_others, ranks.ratio_below, ranks.ratio_equal) : null,
        gamepass_count_percentile:
          game.gamepass_count === null
            ? null
            : pct(ranks.passes_others, ranks.passes_below, ranks.passes_equal),
      },
      genre_averages: {
        avg_ccu: roundOrNull(ranks.avg_ccu, 2),
        avg_visits: roundOrNull(ranks.avg_visits, 2),
        avg_like_ratio: roundOrNull(ranks.avg_like_ratio, 4),
      },
    };
  }
}
