import type { FetchResult, GamePass, GameVotes, PlatformGame, PlatformSource } from '../platform.js';
import { buildCatalogue, type GameSpec } from './catalogue.js';
import { ccuAt, favoritesAt, lastUpdate, visitsAt, votesAt } from './market.js';
import type { MarketShape } from './shape.js';

export interface SimulatedOptions {
  seed: number;
  shape: MarketShape;
}

export interface SimulatedSource extends PlatformSource {
  readonly catalogue: readonly GameSpec[];
  /** The reading of one game at t (undefined before its launch). */
  gameAt(universeId: number, t: Date): PlatformGame | undefined;
}

function collect<T>(ids: readonly number[], read: (id: number) => T | undefined): FetchResult<T> {
  const items = new Map<number, T>();
  const failed: number[] = [];
  for (const id of ids) {
    const v = read(id);
    if (v === undefined) failed.push(id);
    else items.set(id, v);
  }
  return { items, failed };
}

/** The simulated Roblox market as a PlatformSource: every answer is computed for the given `now`. */
export function createSimulatedSource(options: SimulatedOptions): SimulatedSource {
  const { seed, shape } = options;
  const catalogue = buildCatalogue(seed, shape);
  const byUniverse = new Map(catalogue.map((g) => [g.universeId, g]));
  const byPlace = new Map(catalogue.map((g) => [g.placeId, g]));
  const live = (id: number, t: number) => {
    const g = byUniverse.get(id);
    return g && g.launchAt <= t ? g : undefined;
  };

  function gameAt(universeId: number, now: Date): PlatformGame | undefined {
    const t = now.getTime();
    const g = live(universeId, t);
    if (!g) return undefined;
    return {
      universeId: g.universeId,
      rootPlaceId: g.placeId,
      name: g.name,
      description: g.description,
      creator: g.creator,
      genre: g.genre,
      playing: ccuAt(seed, shape, g, t),
      visits: visitsAt(g, t),
      favorites: favoritesAt(g, t),
      maxPlayers: g.maxPlayers,
      created: new Date(g.launchAt),
      updated: new Date(lastUpdate(g, t)),
    };
  }

  return {
    name: 'simulated',
    replaysPast: true,
    catalogue,
    gameAt,
    async discover(now) {
      const t = now.getTime();
      return catalogue.filter((g) => g.launchAt <= t).map((g) => g.universeId);
    },
    async getGames(ids, now) {
      return collect(ids, (id) => gameAt(id, now));
    },
    async getVotes(ids, now): Promise<FetchResult<GameVotes>> {
      const t = now.getTime();
      return collect(ids, (id) => {
        const g = live(id, t);
        if (!g) return undefined;
        const v = votesAt(g, t);
        return { universeId: id, upVotes: v.up, downVotes: v.down };
      });
    },
    async getFavoriteCounts(ids, now) {
      const t = now.getTime();
      return collect(ids, (id) => {
        const g = live(id, t);
        return g ? favoritesAt(g, t) : undefined;
      });
    },
    async getGamePasses(universeId, now): Promise<GamePass[] | undefined> {
      const g = live(universeId, now.getTime());
      return g ? g.passes.map((p) => ({ ...p })) : undefined;
    },
    async placeToUniverse(placeId, now) {
      const g = byPlace.get(placeId);
      return g && g.launchAt <= now.getTime() ? g.universeId : undefined;
    },
  };
}
