/**
 * The public Roblox web APIs as a PlatformSource. Batches ids to each endpoint's documented limit,
 * runs the batches through one client (shared concurrency cap, timeouts, retries) and turns every
 * batch it could not read into `failed` ids: a gap, never a zero. The APIs only answer for now,
 * so history cannot be replayed; `now` names the collection a read belongs to, and a collection's
 * reads share one time budget (budget.ts). Game passes come from the current apis.roblox.com
 * endpoint, with the legacy games.roblox.com one as the fallback.
 */
import { randomUUID } from 'node:crypto';
import type { FetchResult, GamePass, GameVotes, PlatformGame, PlatformSource } from '../platform.js';
import { type BudgetLog, collectionBudgetMs, createCollectionBudgets } from './budget.js';
import { createRobloxClient, type RobloxClient, type RobloxClientOptions } from './client.js';
import {
  mapBatch,
  mapFavoritesCount,
  mapGameDetail,
  mapGamePassPage,
  mapPlaceUniverse,
  mapSortContent,
  mapUniverseGamePassPage,
  mapVotes,
  type Page,
} from './mapping.js';

export { BUDGET_SHARE_OF_INTERVAL, collectionBudgetMs, DEFAULT_COLLECT_INTERVAL_MS } from './budget.js';

/**
 * Ids per request. `GET /v1/games`: "Cannot exceed a maximum of 50 IDs" (Roblox's own OpenAPI,
 * creator-docs openapi.json, copied in realdata/roblox-api/openapi_subset__creator-docs.json; 400
 * code 9 above it). `GET /v1/games/votes`: that OpenAPI gives no limit; the games.roblox.com swagger
 * as generated into AlroviOfficial/RoZod src/endpoints/gamesv1.ts says 50, openblox's docs say 100,
 * so we take the lower, 50.
 */
export const GAMES_BATCH = 50;
export const VOTES_BATCH = 50;
/** Passes per page on both endpoints: the page size every known caller uses. */
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
  /** Where failed requests and budget cuts are reported (the collector only sees counts). */
  log?: BudgetLog;
  /** How often the collector runs (COLLECT_INTERVAL_SEC × 1000); default 300,000. */
  collectIntervalMs?: number;
  /**
   * Wall-clock time for all the reads of one collection (discover and the reads with its `now`);
   * default 80 % of collectIntervalMs (240 s at the default interval). Per-request timeouts stay.
   */
  collectionBudgetMs?: number;
  /** A ready client (tests); otherwise one is built from the options above. */
  client?: RobloxClient;
}

export interface RobloxSource extends PlatformSource {
  readonly name: 'roblox';
  /** Closes the HTTP agent. */
  close(): Promise<void>;
}

/** A read's body (undefined on failure), and whether the collection's time budget cut it. */
interface Read {
  body: unknown;
  cut: boolean;
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
  const budgetMs = collectionBudgetMs(options);
  const budgets = createCollectionBudgets(budgetMs, options.log);

  /**
   * One GET for the collection of `now`. The body on success; undefined on any failure, with
   * `cut` set when the collection's budget ended it (counted, logged once by the budget) and a
   * log line for every other failure.
   */
  async function read(now: Date, url: URL, what: string, ids?: readonly number[]): Promise<Read> {
    const signal = budgets.signalFor(now);
    const res = await client.getJson(url, signal ? { signal } : {});
    if (res.ok) return { body: res.body, cut: false };
    if (res.reason === 'aborted' && budgets.noteCut(now)) return { body: undefined, cut: true };
    options.log?.warn(
      { what, reason: res.reason, status: res.status, detail: res.detail, ids: ids?.length },
      'roblox request failed',
    );
    return { body: undefined, cut: res.reason === 'aborted' };
  }
  const getBody = async (now: Date, url: URL, what: string, ids?: readonly number[]) =>
    (await read(now, url, what, ids)).body;

  /** `{data:[…]}` batch endpoints: ids joined by commas, one request per batch, batches in parallel. */
  async function batched<T>(
    now: Date,
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
        const body = await getBody(now, url, path, batch);
        // A failed request fails its whole batch: none of its ids may read as zero.
        if (body === undefined) return { items: new Map<number, T>(), failed: batch };
        return mapBatch(body, batch, mapItem, idOf);
      }),
    );
    return merge(parts, invalid);
  }

  async function favoriteCounts(ids: readonly number[], now: Date): Promise<FetchResult<number>> {
    const { valid, invalid } = splitIds(ids);
    const parts = await Promise.all(
      valid.map(async (id): Promise<FetchResult<number>> => {
        const url = new URL(`v1/games/${id}/favorites/count`, games);
        const body = await getBody(now, url, 'favorites/count');
        const count = body === undefined ? undefined : mapFavoritesCount(body);
        return count === undefined
          ? { items: new Map(), failed: [id] }
          : { items: new Map([[id, count]]), failed: [] };
      }),
    );
    return merge(parts, invalid);
  }

  /**
   * A whole pass list read page by page from one endpoint: the passes, or why not. Any page
   * missing means the list is incomplete: a failure, never a shorter list.
   */
  async function passPages(
    now: Date,
    universeId: number,
    what: string,
    urlFor: (cursor: string | null) => URL,
    mapPage: (body: unknown) => Page<GamePass> | undefined,
  ): Promise<GamePass[] | 'failed' | 'cut'> {
    const passes: GamePass[] = [];
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PASS_PAGES; page += 1) {
      const { body, cut } = await read(now, urlFor(cursor), what);
      if (cut) return 'cut';
      if (body === undefined) return 'failed'; // read() logged why
      const mapped = mapPage(body);
      if (!mapped) {
        // A 200 we cannot read: how a changed endpoint shows itself, so it is worth a line.
        options.log?.warn({ what, universeId, page }, 'roblox game-pass page malformed');
        return 'failed';
      }
      passes.push(...mapped.values);
      if (mapped.next === null) return passes;
      if (seen.has(mapped.next)) return 'failed'; // a cursor loop
      seen.add(mapped.next);
      cursor = mapped.next;
    }
    options.log?.warn({ what, universeId, pages: MAX_PASS_PAGES }, 'roblox game-pass list did not end');
    return 'failed';
  }

  /** `GET apis.roblox.com/game-passes/v1/universes/{id}/game-passes`, paged by pageToken. */
  const currentPassesUrl = (universeId: number) => (token: string | null) => {
    const url = new URL(`game-passes/v1/universes/${universeId}/game-passes`, apis);
    url.searchParams.set('passView', 'Full');
    url.searchParams.set('pageSize', String(PASSES_PAGE_SIZE));
    if (token !== null) url.searchParams.set('pageToken', token);
    return url;
  };

  /** The legacy `GET games.roblox.com/v1/games/{id}/game-passes`, paged by cursor. */
  const legacyPassesUrl = (universeId: number) => (cursor: string | null) => {
    const url = new URL(`v1/games/${universeId}/game-passes`, games);
    url.searchParams.set('limit', String(PASSES_PAGE_SIZE));
    url.searchParams.set('sortOrder', 'Asc');
    if (cursor !== null) url.searchParams.set('cursor', cursor);
    return url;
  };

  /**
   * The current endpoint first; when it fails in any way (404, 5xx, a malformed page, an
   * unreachable host) the legacy one. Not after a budget cut: the collection has no time left.
   */
  async function gamePasses(universeId: number, now: Date): Promise<GamePass[] | undefined> {
    if (!Number.isSafeInteger(universeId) || universeId <= 0) return undefined;
    const current = await passPages(
      now,
      universeId,
      'game-passes',
      currentPassesUrl(universeId),
      mapUniverseGamePassPage,
    );
    if (Array.isArray(current)) return current;
    if (current === 'cut') return undefined;
    const legacy = await passPages(
      now,
      universeId,
      'legacy game-passes',
      legacyPassesUrl(universeId),
      mapGamePassPage,
    );
    return Array.isArray(legacy) ? legacy : undefined;
  }

  /** One chart, page after page until it ends, a page fails, or `discoveryPages` are read. */
  async function chart(sortId: string, session: string, now: Date): Promise<number[]> {
    const ids: number[] = [];
    let token: string | null = null;
    for (let page = 0; page < discoveryPages; page += 1) {
      const url = new URL('explore-api/v1/get-sort-content', apis);
      url.searchParams.set('sessionId', session);
      url.searchParams.set('sortId', sortId);
      if (token !== null) url.searchParams.set('pageToken', token);
      const body = await getBody(now, url, `explore ${sortId}`);
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
    /** Opens the collection of `now`: it and every read with the same `now` share one budget. */
    async discover(now) {
      budgets.open(now);
      const session = sessionId();
      const lists = await Promise.all(sorts.map((s) => chart(s, session, now)));
      return [...new Set(lists.flat())];
    },
    getGames: (ids, now): Promise<FetchResult<PlatformGame>> =>
      batched(now, 'v1/games', ids, GAMES_BATCH, mapGameDetail, (g) => g.universeId),
    getVotes: (ids, now): Promise<FetchResult<GameVotes>> =>
      batched(now, 'v1/games/votes', ids, VOTES_BATCH, mapVotes, (v) => v.universeId),
    getFavoriteCounts: (ids, now) => favoriteCounts(ids, now),
    getGamePasses: (universeId, now) => gamePasses(universeId, now),
    async placeToUniverse(placeId, now) {
      if (!Number.isSafeInteger(placeId) || placeId <= 0) return undefined;
      const url = new URL(`universes/v1/places/${placeId}/universe`, apis);
      const body = await getBody(now, url, 'place universe');
      return body === undefined ? undefined : mapPlaceUniverse(body);
    },
    async close() {
      budgets.closeAll(); // logs the last collection's cut reads, if any
      await client.close();
    },
  };
}
