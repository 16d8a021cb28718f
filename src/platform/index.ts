/**
 * Market data sources: the PlatformSource interface, the Roblox web-API client (roblox/) and the
 * deterministic simulated market (simulated/). Owns no tables: the collector (market/) stores what
 * a source returns.
 */
import type { Config } from '../config.js';
import type { CatalogSource } from './catalog.js';
import type { PlatformSource } from './platform.js';
import { createRobloxCatalogSource } from './roblox/catalog-source.js';
import { createRobloxSource } from './roblox/source.js';
import { createSimulatedCatalog, type SimulatedCatalog } from './simulated/catalog.js';
import { DEFAULT_SHAPE } from './simulated/defaults.js';
import type { MarketShape } from './simulated/shape.js';
import { createSimulatedSource, type SimulatedSource } from './simulated/source.js';

export { SEASONAL_WINDOWS, type SeasonalWindow, seasonalMultiplier } from './calendar.js';
export * from './catalog.js';
export {
  CATALOG_CATEGORIES,
  CATALOG_CATEGORY_KEYS,
  type CatalogCategory,
  catalogCategoryName,
} from './catalog-categories.js';
export * from './platform.js';
export { createRobloxCatalogSource, type RobloxCatalogOptions } from './roblox/catalog-source.js';
export { createRobloxSource, type RobloxSourceOptions } from './roblox/source.js';
export {
  type CatalogShape,
  createSimulatedCatalog,
  DEFAULT_CATALOG_SHAPE,
  type SimulatedCatalog,
} from './simulated/catalog.js';
export { DEFAULT_SHAPE } from './simulated/defaults.js';
export type { MarketShape } from './simulated/shape.js';
export { createSimulatedSource, type SimulatedSource } from './simulated/source.js';

const simulated = new Map<string, SimulatedSource>();

/** The calibrated default market with the configured number of games (SIMULATION_GAMES). */
export function simulatedShape(config: Pick<Config, 'simulationGames'>): MarketShape {
  return config.simulationGames === DEFAULT_SHAPE.games
    ? DEFAULT_SHAPE
    : { ...DEFAULT_SHAPE, games: config.simulationGames };
}

/** The source PLATFORM_SOURCE names; the simulated catalogue is built once per seed. The Roblox
 * source's reads of one collection stop at 80 % of the collection interval, and it logs once per
 * collection how many the budget cut. */
export function createPlatformSource(
  config: Pick<Config, 'platformSource' | 'simulationSeed' | 'simulationGames' | 'collectIntervalSec'>,
  log?: { warn(obj: Record<string, unknown>, msg: string): void },
): PlatformSource {
  // The real hosts; nothing is shared between calls, so each caller owns (and may close) its agent.
  if (config.platformSource === 'roblox') {
    return createRobloxSource({
      collectIntervalMs: config.collectIntervalSec * 1000,
      ...(log ? { log } : {}),
    });
  }
  const key = `${config.simulationSeed}:${config.simulationGames}`;
  let source = simulated.get(key);
  if (!source) {
    source = createSimulatedSource({ seed: config.simulationSeed, shape: simulatedShape(config) });
    simulated.set(key, source);
  }
  return source;
}
export { GENRE_KEYS, GENRE_TAXONOMY, genreDisplayName } from './genres.js';

const simulatedCatalogs = new Map<number, SimulatedCatalog>();

/** The UGC catalog source the same PLATFORM_SOURCE names (the simulated catalog is built once per seed). */
export function createCatalogSource(
  config: Pick<Config, 'platformSource' | 'simulationSeed'>,
  log?: { warn(obj: Record<string, unknown>, msg: string): void },
): CatalogSource {
  if (config.platformSource === 'roblox') return createRobloxCatalogSource(log ? { log } : {});
  let source = simulatedCatalogs.get(config.simulationSeed);
  if (!source) {
    source = createSimulatedCatalog({ seed: config.simulationSeed });
    simulatedCatalogs.set(config.simulationSeed, source);
  }
  return source;
}
