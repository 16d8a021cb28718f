/**
 * Where market data comes from. Two sources implement PlatformSource: the simulated market (the
 * default, a pure function of seed and time) and the public Roblox web APIs. The collector only
 * talks to this interface.
 *
 * Rule for every implementation: a value that could not be fetched is ABSENT from the result
 * (its id is listed in `failed`), never a zero. Zeros are real readings; gaps are gaps.
 */

/** One experience as the platform describes it at one moment. */
export interface PlatformGame {
  universeId: number;
  rootPlaceId: number;
  name: string;
  description: string;
  creator: { id: number; name: string; type: 'User' | 'Group' };
  /** Genre key: lower snake case of Roblox's genre_l1 ("Roleplay & Avatar Sim" → roleplay_avatar_sim);
   * 'unknown' when the platform gives none. */
  genre: string;
  /** Concurrent users now. */
  playing: number;
  /** Lifetime visits (cumulative). */
  visits: number;
  favorites: number;
  maxPlayers: number;
  created: Date;
  updated: Date;
}

export interface GameVotes {
  universeId: number;
  upVotes: number;
  downVotes: number;
}

export interface GamePass {
  id: number;
  name: string;
  /** Price in Robux; null when the pass is not for sale. */
  price: number | null;
}

/** What a batch fetch got: values by universe id, and the ids it could not fetch (gaps). */
export interface FetchResult<T> {
  items: Map<number, T>;
  failed: number[];
}

export interface PlatformSource {
  readonly name: 'simulated' | 'roblox';
  /** True when readings for past moments can be produced (the simulated market); the Roblox APIs
   * only answer for now, so history cannot be backfilled from them. */
  readonly replaysPast: boolean;
  /**
   * Universe ids worth collecting at `now` (the top of the charts / the whole simulated catalogue).
   * It opens a collection: the reads that follow with the same `now` belong to it, and a source may
   * bound their total time (the Roblox source does; a read its budget cut is a gap like any other).
   */
  discover(now: Date): Promise<number[]>;
  /** Game details (incl. CCU, visits, favourites) for any number of universes; batched inside. */
  getGames(universeIds: readonly number[], now: Date): Promise<FetchResult<PlatformGame>>;
  getVotes(universeIds: readonly number[], now: Date): Promise<FetchResult<GameVotes>>;
  /** Favourite counts (when a source can give them apart from getGames). */
  getFavoriteCounts(universeIds: readonly number[], now: Date): Promise<FetchResult<number>>;
  /** The game passes of one universe; undefined when the fetch failed. */
  getGamePasses(universeId: number, now: Date): Promise<GamePass[] | undefined>;
  /** The universe of a place; undefined when unknown or the fetch failed. */
  placeToUniverse(placeId: number, now: Date): Promise<number | undefined>;
  /** Releases connections (HTTP sources); called on shutdown. */
  close?(): Promise<void>;
}

/** Roblox genre_l1 display name (any casing) → genre key. */
export function genreKey(displayName: string | null | undefined): string {
  if (!displayName) return 'unknown';
  const key = displayName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return key === '' ? 'unknown' : key;
}
