/**
 * Games: one game's detail (with its clones), search, forecast, benchmark and revenue simulator. Reads the
 * catalogue and CCU tiers the market domain collects (through market/index.ts for its rules); owns
 * no collection and writes no table.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { Entitlements } from '../plans.js';
import { benchmarkSchemas, registerBenchmarkRoutes } from './benchmark.routes.js';
import { BenchmarkService } from './benchmark.service.js';
import { registerForecastRoutes } from './forecast.routes.js';
import { ForecastService } from './forecast.service.js';
import { registerGameRoutes } from './games.routes.js';
import { gameSchemas } from './games.schemas.js';
import { GamesService } from './games.service.js';
import { registerRevenueRoutes, revenueSchemas } from './revenue.routes.js';
import { RevenueService } from './revenue.service.js';

export {
  CLONE_THRESHOLD,
  type CloneEvidence,
  cloneEvidence,
  cloneProfile,
  MIN_DESCRIPTION_WORDS,
  type NameMatch,
} from './clones.js';
export { findCloneEvidence, findClosestNames } from './clones.service.js';
export { clonesWithin, GenreClones } from './clones-genre.js';
export {
  type DailyValue,
  forecastSeries,
  InsufficientHistoryError,
  MIN_HISTORY_DAYS,
} from './forecast/index.js';
export { dailyHistory } from './forecast.repo.js';
export { dayKey, dayMs, ForecastService } from './forecast.service.js';
export { PlaceParams } from './games.schemas.js';
export { GamesService, visibleGrowthProbability } from './games.service.js';

export interface GamesDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

/** The domain's services, built once by src/services.ts. */
export interface Games {
  games: GamesService;
  benchmark: BenchmarkService;
  revenue: RevenueService;
  /** Also refreshed by the forecast-games job (jobs/catalog.ts). */
  forecast: ForecastService;
}

export function createGames(deps: GamesDeps): Games {
  return {
    games: new GamesService(deps),
    benchmark: new BenchmarkService(deps),
    revenue: new RevenueService(deps),
    forecast: new ForecastService(deps),
  };
}

export function registerGames(app: FastifyInstance, games: Games): void {
  for (const schema of [...gameSchemas, ...benchmarkSchemas, ...revenueSchemas]) app.addSchema(schema);
  registerGameRoutes(app, games.games);
  registerBenchmarkRoutes(app, games.benchmark);
  registerRevenueRoutes(app, games.revenue);
  registerForecastRoutes(app, games.forecast);
}
