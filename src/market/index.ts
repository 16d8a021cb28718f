/**
 * The market: collecting platform readings into the catalogue and CCU tiers (collector), writing
 * past history for a fresh install (backfill), and the market views and endpoints built on them.
 * Reads the platform only through PlatformSource; owns the games, ccu_*, genre_snapshots and
 * market_views tables.
 */
import type { Db } from '../db/index.js';
import type { PlatformSource } from '../platform/index.js';
import { backfill } from './backfill.js';
import { type CollectorDeps, collectOnce } from './collector.js';
import { hasCompletedBackfill } from './market.repo.js';
import { refreshViews } from './views.service.js';

export { type BackfillStats, backfill } from './backfill.js';
export { type CandidateRow, descriptionCandidates, nameCandidates } from './clone-candidates.repo.js';
export {
  type CollectorDeps,
  type CollectStats,
  catalogueUpsert,
  collectOnce,
  type SeenUpdate,
} from './collector.js';
export { type GenreDistributionRow, genreDistribution } from './genre-distribution.repo.js';
export { assertKnownGenre, GenreFilter } from './genre-filter.js';
export { type BenchmarkSubject, type GenreRankRow, genreRanks } from './genre-ranks.repo.js';
export { opportunityScore, percentileRanks } from './genres.js';
export { type SearchParams, type SearchRow, searchGames } from './search.repo.js';
export { normaliseSearch } from './search-text.js';

export {
  type BreakoutView,
  computeBreakout,
  computeGenres,
  computeOverview,
  computeTiming,
  computeTrending,
  type GenresView,
  type OverviewView,
  refreshViews,
  type TimingView,
  type TrendingGame,
  type TrendingView,
  VIEW_NAMES,
} from './views.service.js';

export const BACKFILL_DAYS = 35;

/**
 * The collector's dependencies with the market views refreshed after every collection, then
 * `after` (embedded mode evaluates alerts on the fresh data there).
 */
export function collectorDeps(
  db: Db,
  platform: PlatformSource,
  log: CollectorDeps['log'],
  after?: (now: Date) => Promise<void>,
  recordUpdates?: CollectorDeps['recordUpdates'],
): CollectorDeps {
  return {
    db,
    platform,
    log,
    ...(recordUpdates ? { recordUpdates } : {}),
    refreshViews: async (now) => {
      await refreshViews(db, now);
      await after?.(now);
    },
  };
}

/**
 * The scheduled collection: until a backfill has run to its end on a source that can replay the
 * past, a run backfills BACKFILL_DAYS of history (so every endpoint is meaningful at once; one
 * stopped by shutdown starts again next time); every other run collects the present.
 */
export async function scheduledCollection(
  deps: CollectorDeps,
  now: Date,
  signal?: AbortSignal,
): Promise<void> {
  if (deps.platform.replaysPast && !(await hasCompletedBackfill(deps.db))) {
    await backfill(deps, BACKFILL_DAYS, now, signal);
    return;
  }
  await collectOnce(deps, now);
}
export {
  type CatalogueGame,
  findGameByPlaceId,
  findGameByUniverseId,
  type GameReading,
  type GameUpsert,
  gamesByGenresBusiestFirst,
  gamesByUniverseIds,
  lastBackfillAt,
  upsertGames,
} from './market.repo.js';
export { registerMarketRoutes } from './market.routes.js';
export { GameIdentity } from './market.schemas.js';
export { MarketService, type MarketServiceDeps } from './market.service.js';
export { fillBuckets, PERIODS, type Period, type PeriodWindow, periodWindow, trendScore } from './trend.js';
