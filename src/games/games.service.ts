/**
 * Games rules: what a search matches and how it ranks, what a game's detail holds and which parts
 * of it a plan may see. SQL stays in games.repo.ts; the trend formula and its windows come from
 * the market domain, so game detail and the trending list can never disagree.
 */

import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import {
  type CatalogueGame,
  findGameByPlaceId,
  normaliseSearch,
  periodWindow,
  searchGames,
  trendScore,
} from '../market/index.js';
import type { Entitlements, PlanEntitlements, PlanName } from '../plans.js';
import { findClones } from './clones.service.js';
import * as forecastRepo from './forecast.repo.js';
import * as repo from './games.repo.js';
import {
  DAILY_HISTORY_DAYS,
  type GameDetailT,
  type MlPredictionT,
  type SearchQueryT,
  type SearchResultT,
} from './games.schemas.js';

/**
 * word_similarity from which a game is a fuzzy match. pg_trgm's default (0.6) misses a swapped
 * pair of letters in short names ("adpot me" scores 0.38 against "adopt me …"); fuzzy matches rank
 * after every literal one, so a lower bar costs little precision at the top of the list.
 */
export const FUZZY_THRESHOLD = 0.35;
/** A numeric query tried as an id: at most 15 digits, so it stays below 2^53. */
const ID_QUERY = /^\d{1,15}$/;

export interface GamesServiceDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

export type SearchInput = SearchQueryT;

/** A numeric query also names a place or universe id. */
export function searchId(q: string): number | null {
  return ID_QUERY.test(q) ? Number(q) : null;
}

/** likes / (likes + dislikes) to four decimals; null when nobody voted. */
export function likeRatio(likes: number, dislikes: number): number | null {
  const votes = likes + dislikes;
  return votes > 0 ? Math.round((likes / votes) * 10_000) / 10_000 : null;
}

/**
 * The growth probability a plan may see (DECISIONS §2): the Explorer shape ("score") hides it, the
 * others see whatever the forecaster produced (null while a game has no forecast).
 */
export function visibleGrowthProbability(
  shape: PlanEntitlements['mlPrediction'],
  probability: number | null,
): number | null {
  return shape === 'detailed' ? probability : null;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export class GamesService {
  constructor(private readonly deps: GamesServiceDeps) {}

  async search(input: SearchInput): Promise<{ results: SearchResultT[]; total: number }> {
    const q = input.q.trim();
    if (q === '') throw errors.validation('query.q', 'query.q must not be blank');
    const { rows, total } = await searchGames(this.deps.db, {
      text: normaliseSearch(q),
      id: searchId(q),
      fuzzyThreshold: FUZZY_THRESHOLD,
      limit: input.limit,
      offset: input.offset,
    });
    const results = rows.map((r) => ({
      place_id: r.place_id,
      universe_id: r.universe_id,
      name: r.name,
      creator: r.creator_name,
      genre: r.genre,
      ccu: r.ccu ?? 0,
    }));
    return { results, total };
  }

  /** One game's detail in the data shape of `plan`; 404 for a place the catalogue lacks. */
  async detail(
    placeId: number,
    plan: PlanName,
    history: 'hourly' | 'daily' = 'hourly',
  ): Promise<GameDetailT> {
    const game = await findGameByPlaceId(this.deps.db, placeId);
    if (!game) throw errors.notFound(`No game with place id ${placeId} is known.`);
    const now = this.deps.clock.now();
    const window = periodWindow('24h', now);
    const [points, means] = await Promise.all([
      history === 'daily'
        ? repo
            .dailyCcu(
              this.deps.db,
              game.universe_id,
              new Date(now.getTime() - (DAILY_HISTORY_DAYS - 1) * 86_400_000),
              now,
            )
            .then((rows) => rows.map((r) => ({ at: r.day, ccu_avg: r.ccu_avg })))
        : repo
            .hourlyCcu(this.deps.db, game.universe_id, window.recentStart, window.end)
            .then((rows) => rows.map((r) => ({ at: r.hour, ccu_avg: r.ccu_avg }))),
      repo.trendMeans(this.deps.db, game.universe_id, window),
    ]);
    const trend = means.recent === null ? null : trendScore(means.recent, means.previous);
    const clones = await findClones(this.deps.db, {
      universeId: game.universe_id,
      genre: game.genre,
      name: game.name,
      description: game.description,
    });
    return {
      ...this.facts(game),
      ccu_history: points.map((h) => ({ ts: h.at.toISOString(), ccu: Math.round(h.ccu_avg) })),
      ml_prediction: this.prediction(plan, trend, await this.growthProbability(game.universe_id)),
      clones,
    };
  }

  private facts(g: CatalogueGame): Omit<GameDetailT, 'ccu_history' | 'ml_prediction' | 'clones'> {
    const likes = g.up_votes ?? 0;
    const dislikes = g.down_votes ?? 0;
    return {
      place_id: g.place_id,
      universe_id: g.universe_id,
      name: g.name,
      description: g.description,
      creator: g.creator_name,
      creator_type: g.creator_type,
      creator_id: g.creator_id,
      genre: g.genre,
      ccu: g.ccu ?? 0,
      visits: g.visits ?? 0,
      likes,
      dislikes,
      favorites: g.favorites ?? 0,
      like_ratio: likeRatio(likes, dislikes),
      max_players: g.max_players,
      created: iso(g.created_at),
      updated: iso(g.updated_at),
      gamepass_count: g.gamepass_count,
      observed_at: iso(g.observed_at),
    };
  }

  private prediction(plan: PlanName, trend: number | null, probability: number | null): MlPredictionT {
    const shape = this.deps.entitlements.plans[plan].mlPrediction;
    return { trend_score: trend, growth_probability: visibleGrowthProbability(shape, probability) };
  }

  /** The stored forecast's P(CCU in 7 days > today's mean); null while the game has no forecast. */
  private async growthProbability(universeId: number): Promise<number | null> {
    return forecastRepo.growthProbability(this.deps.db, universeId);
  }
}
