/**
 * The public Roblox web APIs as a PlatformSource. Batches ids to each endpoint's documented limit,
 * runs the batches through one client (shared concurrency cap, timeouts, retries) and turns every
 * batch it could not read into `failed` ids: a gap, never a zero. The APIs only answer for now,
 * so `now` is ignored and history cannot be replayed.
 */
import { randomUUID } from 'node:crypto';
import type { FetchResult, GamePass, GameVotes, PlatformGame, PlatformSource } from '../platform.js';
import { createRobloxClient, type Fetched, type RobloxClient, type RobloxClientOptions } from './client.js';
import {
  mapBatch,
  mapFavoritesCount,
  mapGameDetail,
  mapGamePassPage,
  mapPlaceUniverse,
  mapSortContent,
  mapVotes,
} from './mapping.js';

/**
 * Ids per request. `GET /v1/games`: "Cannot exceed a maximum of 50 IDs" (Roblox's own OpenAPI,
 * creator-docs openapi.json, copied in realdata/roblox-api/openapi_subset__creator-docs.json; 400
 * code 9 above it). `GET /v1/games/votes`: that OpenAPI gives no limit; the games.roblox.com swagger
 * as generated into AlroviOfficial/RoZod src/endpoints/gamesv1.ts says 50, openblox's docs say 100,
 * so we take the lower, 50.
 */
export const GAMES_BATCH = 50;
export const VOTES_BATCH = 50;
/** Passes per page: the page size every known caller uses; the list is followed by nextPageCursor. */
export const PASSES_PAGE_SIZE = 100;
/** A cursor chain longer than this (10,000 passes) is treated as a loop, not data. */
export const MAX_PASS_PAGES = 100;
/** The explore-api charts that are the same for every visitor (the personal ones are left out). */
export const DISCOVERY_SORTS = ['top-playing-now', 'top-trending', 'up-and-coming'] as const;

export interface RobloxSourceOptions extends RobloxClientOptions {
  /** Default https://games.roblox.com (tests point it at a local replay server). */
  gamesBaseUrl?: string;
  /** Default https://apis.roblox.com (place → universe, explore charts). */
  apisBaseUrl?: string;
  discoverySorts?: readonly string[];
  /** Pages read per chart on each discovery. */
  discoveryPages?: number;
  /** The explore API wants a session id; any UUID does. */
  sessionId?: () => string;
  /** Where failed requests are reported (the collector only sees counts). */
  log?: { warn(obj: Record<string, unknown>, msg: string): void };
  /** A ready client (tests); otherwise one is built from the options above. */
  client?: RobloxClient;
}

export interface RobloxSource extends PlatformSource {
  readonly name: 'roblox';
  /** Closes the HTTP agent. */
  close(): Promise<void>;
}

const chunk = <T>(xs: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
};

/** Positive integer ids, each once; anything else can never be fetched, so it is failed up front. */
function splitIds(ids: readonly number[]): { valid: number[]; invalid: number[] } {
  const valid = new Set<number>();
  const invalid: number[] = [];
  for (const id of ids) {
    if (Number.isSafeInteger(id) && id > 0) valid.add(id);
    else invalid.push(id);
  }
  return { valid: [...valid], invalid };
}

function merge<T>(parts: FetchResult<T>[], failedUpFront: number[]): FetchResult<T> {
  const items = new Map<number, T>();
  const failed = [...failedUpFront];
  for (const p of parts) {
    for (const [id, v] of p.items) items.set(id, v);
    failed.push(...p.failed);
  }
  return { items, failed };
}

export function createRobloxSource(options: RobloxSourceOptions = {}): RobloxSource {
  const client = options.client ?? createRobloxClient(options);
  const base = (url: string) => (url.endsWith('/') ? url : `${url}/`);
  const games = base(options.gamesBaseUrl ?? 'https://games.roblox.com');
  const apis = base(options.apisBaseUrl ?? 'https://apis.roblox.com');
  const sorts = options.discoverySorts ?? DISCOVERY_SORTS;
  const discoveryPages = options.discoveryPages ?? 3;
  const sessionId = options.sessionId ?? randomUUID;

  /** The body on success; undefined (and a log line) on any failure. */
  async function getBody(url: URL, what: string, ids?: readonly number[]): Promise<unknown> {
    const res: Fetched = await client.getJson(url);
    if (res.ok) return res.body;
    options.log?.warn(
      { what, reason: res.reason, status: res.status, detail: res.detail, ids: ids?.length },
      'roblox request failed',
    );
    return undefined;
  }

  /** `{data:[…]}` batch endpoints: ids joined by commas, one request per batch, batches in parallel. */
  async function batched<T>(
    path: string,
    ids: readonly number[],
    size: number,
    mapItem: (item: unknown) => T | undefined,
    idOf: (v: T) => number,
  ): Promise<FetchResult<T>> {
    const { valid, invalid } = splitIds(ids);
    const parts = await Promise.all(
      chunk(valid, size).map(async (batch) => {
        const url = new URL(path, games);
        url.search = `?universeIds=${batch.join(',')}`;
        const body = await getBody(url, path, batch);
        // A failed request fails its whole batch: none of its ids may read as zero.
        if (body === undefined) return { items: new Map<number, T>(), failed: batch };
        return mapBatch(body, batch, mapItem, idOf);
      }),
    );
    return merge(parts, invalid);
  }

  async function favoriteCounts(ids: readonly number[]): Promise<FetchResult<number>> {
    const { valid, invalid } = splitIds(ids);
    const parts = await Promise.all(
      valid.map(async (id): Promise<FetchResult<number>> => {
        const body = await getBody(new URL(`v1/games/${id}/favorites/count`, games), 'favorites/count');
        const count = body === undefined ? undefined : mapFavoritesCount(body);
        return count === undefined
          ? { items: new Map(), failed: [id] }
          : { items: new Map([[id, count]]), failed: [] };
      }),
    );
    return merge(parts, invalid);
  }

  async function gamePasses(universeId: number): Promise<GamePass[] | undefined> {
    if (!Number.isSafeInteger(universeId) || universeId <= 0) return undefined;
    const passes: GamePass[] = [];
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PASS_PAGES; page += 1) {
      const url = new URL(`v1/games/${universeId}/game-passes`, games);
      url.searchParams.set('limit', String(PASSES_PAGE_SIZE));
      url.searchParams.set('sortOrder', 'Asc');
      if (cursor !== null) url.searchParams.set('cursor', cursor);
      const body = await getBody(url, 'game-passes');
      const mapped = body === undefined ? undefined : mapGamePassPage(body);
      // Any page missing means the list is incomplete: report a gap rather than a shorter list.
      if (!mapped) return undefined;
      passes.push(...mapped.values);
      if (mapped.next === null) return passes;
      if (seen.has(mapped.next)) return undefined;
      seen.add(mapped.next);
      cursor = mapped.next;
    }
    options.log?.warn({ universeId, pages: MAX_PASS_PAGES }, 'roblox game-pass list did not end');
    return undefined;
  }

  /** One chart, page after page until it ends, a page fails, or `discoveryPages` are read. */
  async function chart(sortId: string, session: string): Promise<number[]> {
    const ids: number[] = [];
    let token: string | null = null;
    for (let page = 0; page < discoveryPages; page += 1) {
      const url = new URL('explore-api/v1/get-sort-content', apis);
      url.searchParams.set('sessionId', session);
      url.searchParams.set('sortId', sortId);
      if (token !== null) url.searchParams.set('pageToken', token);
      const body = await getBody(url, `explore ${sortId}`);
      const mapped = body === undefined ? undefined : mapSortContent(body);
      if (!mapped) break; // keep what earlier pages gave: discovery is best effort
      ids.push(...mapped.values);
      if (mapped.next === null || mapped.values.length === 0) break;
      token = mapped.next;
    }
    return ids;
  }

  return {
    name: 'roblox',
    replaysPast: false,
    async discover() {
      const session = sessionId();
      const lists = await Promise.all(sorts.map((s) => chart(s, session)));
      return [...new Set(lists.flat())];
    },
    getGames: (ids): Promise<FetchResult<PlatformGame>> =>
      batched('v1/games', ids, GAMES_BATCH, mapGameDetail, (g) => g.universeId),
    getVotes: (ids): Promise<FetchResult<GameVotes>> =>
      batched('v1/games/votes', ids, VOTES_BATCH, mapVotes, (v) => v.universeId),
    getFavoriteCounts: (ids) => favoriteCounts(ids),
    getGamePasses: (universeId) => gamePasses(universeId),
    async placeToUniverse(placeId) {
      if (!Number.isSafeInteger(placeId) || placeId <= 0) return undefined;
      const body = await getBody(new URL(`universes/v1/places/${placeId}/universe`, apis), 'place universe');
      return body === undefined ? undefined : mapPlaceUniverse(body);
    },
    close: () => client.close(),
  };
}
