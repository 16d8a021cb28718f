import type { FetchResult, PlatformGame, PlatformSource } from '../../src/platform/index.js';
import type { MarketShape } from '../../src/platform/simulated/shape.js';
import { createSimulatedSource, type SimulatedSource } from '../../src/platform/simulated/source.js';

/** A small market for tests: a fixed shape, so expected values do not move with the calibration. */
export const TEST_SHAPE: MarketShape = {
  games: 200,
  epoch: Date.UTC(2026, 0, 1),
  lateLaunchShare: 0.2,
  topCcu: 200_000,
  headAlpha: 0.9,
  tailBreakRank: 50,
  tailAlpha: 2,
  breakoutShare: 0.1,
  cloneShare: 0.05,
  dailyProfile: Array.from({ length: 24 }, (_, h) => 1 + 0.3 * Math.sin(((h - 12) / 24) * 2 * Math.PI)),
  dailyAmplitudeRange: [0.5, 1.5],
  weeklyProfile: [0.95, 0.94, 0.95, 0.97, 1.02, 1.08, 1.09],
  noiseShort: 0.05,
  noiseDaily: 0.1,
  visitsPerCcuDay: 60,
  likeRatioMedian: 0.85,
  votesPerVisit: 0.0003,
  favoritesPerVisit: 0.0004,
};

export function testMarket(shape: Partial<MarketShape> = {}, seed = 7): SimulatedSource {
  return createSimulatedSource({ seed, shape: { ...TEST_SHAPE, ...shape } });
}

/** Wraps a source so chosen universes fail to fetch (a gap), as a flaky API would. */
export function withFailures(source: PlatformSource, failing: Set<number>): PlatformSource {
  const drop = <T>(r: FetchResult<T>): FetchResult<T> => {
    const items = new Map([...r.items].filter(([id]) => !failing.has(id)));
    return { items, failed: [...r.failed, ...[...r.items.keys()].filter((id) => failing.has(id))] };
  };
  return {
    ...source,
    name: source.name,
    replaysPast: source.replaysPast,
    discover: (now) => source.discover(now),
    getGames: async (ids, now) => drop<PlatformGame>(await source.getGames(ids, now)),
    getVotes: async (ids, now) => drop(await source.getVotes(ids, now)),
    getFavoriteCounts: async (ids, now) => drop(await source.getFavoriteCounts(ids, now)),
    getGamePasses: async (id, now) => (failing.has(id) ? undefined : source.getGamePasses(id, now)),
    placeToUniverse: (id, now) => source.placeToUniverse(id, now),
  };
}
