/**
 * Typed mapping of Roblox web-API bodies to PlatformSource values. Pure: no I/O. Every field that
 * is used is checked (ids positive safe integers, counts finite integers ≥ 0, strings present,
 * dates parseable); an item that fails a check is a failure of its id, never a crash and never a
 * zero, and an id the response does not mention is a failure too.
 */
import { GENRE_KEYS } from '../genres.js';
import { type FetchResult, type GamePass, type GameVotes, genreKey, type PlatformGame } from '../platform.js';

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isDate = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** Genre keys of the current taxonomy: a legacy `genre` value is kept only when it names one. */
const GENRE_L1_KEYS = new Set(GENRE_KEYS);

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/**
 * The genre key of a game detail. Order: `untranslated_genre_l1` (English whatever the request
 * locale), then `genre_l1` (may be localised), both through genreKey(). Older responses (and
 * unclassified games) have neither, only the legacy `genre` of the retired vocabulary (Fighting,
 * Town and City, All …); it is kept only when it names a genre_l1 genre as well (Adventure, RPG),
 * because mixing the two vocabularies would split one market into look-alike genres. Anything
 * else is 'unknown', which the genre views show as unclassified.
 */
export function genreOf(item: Rec): string {
  const l1 = text(item.untranslated_genre_l1) ?? text(item.genre_l1);
  if (l1 !== undefined) return genreKey(l1);
  const legacy = genreKey(text(item.genre));
  return GENRE_L1_KEYS.has(legacy) ? legacy : 'unknown';
}

/** One item of `GET /v1/games` `data`; undefined when any used field is missing or malformed. */
export function mapGameDetail(item: unknown): PlatformGame | undefined {
  if (!isRecord(item)) return undefined;
  const { id, rootPlaceId, name, creator, playing, visits, favoritedCount, maxPlayers, created, updated } =
    item;
  if (!isId(id) || !isId(rootPlaceId) || typeof name !== 'string') return undefined;
  // A game without a description is common; Roblox sends null or "" for it. That is text, not a metric.
  const description = item.description ?? '';
  if (typeof description !== 'string') return undefined;
  if (!isRecord(creator) || !isId(creator.id) || typeof creator.name !== 'string') return undefined;
  if (creator.type !== 'User' && creator.type !== 'Group') return undefined;
  if (!isCount(playing) || !isCount(visits) || !isCount(favoritedCount) || !isCount(maxPlayers))
    return undefined;
  if (!isDate(created) || !isDate(updated)) return undefined;
  return {
    universeId: id,
    rootPlaceId,
    name,
    description,
    creator: { id: creator.id, name: creator.name, type: creator.type },
    genre: genreOf(item),
    playing,
    visits,
    favorites: favoritedCount,
    maxPlayers,
    created: new Date(created),
    updated: new Date(updated),
  };
}

/** One item of `GET /v1/games/votes` `data`. */
export function mapVotes(item: unknown): GameVotes | undefined {
  if (!isRecord(item)) return undefined;
  const { id, upVotes, downVotes } = item;
  if (!isId(id) || !isCount(upVotes) || !isCount(downVotes)) return undefined;
  return { universeId: id, upVotes, downVotes };
}

/**
 * A `{data: [...]}` batch answer for `requested` ids: each valid item under its id; every
 * requested id without a valid item (absent, malformed, or a body without `data`) is failed.
 */
export function mapBatch<T>(
  body: unknown,
  requested: readonly number[],
  mapItem: (item: unknown) => T | undefined,
  idOf: (value: T) => number,
): FetchResult<T> {
  const found = new Map<number, T>();
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  for (const raw of data) {
    const value = mapItem(raw);
    if (value !== undefined && !found.has(idOf(value))) found.set(idOf(value), value);
  }
  const items = new Map<number, T>();
  const failed: number[] = [];
  for (const id of requested) {
    const value = found.get(id);
    if (value === undefined) failed.push(id);
    else items.set(id, value);
  }
  return { items, failed };
}

/** `GET /v1/games/{universeId}/favorites/count` → `{favoritesCount}`. */
export function mapFavoritesCount(body: unknown): number | undefined {
  return isRecord(body) && isCount(body.favoritesCount) ? body.favoritesCount : undefined;
}

/** `GET apis.roblox.com/universes/v1/places/{placeId}/universe` → `{universeId}` (null for an unknown place). */
export function mapPlaceUniverse(body: unknown): number | undefined {
  return isRecord(body) && isId(body.universeId) ? body.universeId : undefined;
}

/** One pass of the legacy `GET games.roblox.com/v1/games/{universeId}/game-passes`; `price` is null when the pass is not for sale. */
export function mapGamePass(item: unknown): GamePass | undefined {
  if (!isRecord(item) || !('price' in item)) return undefined; // absent is not null: not the body we know
  const { id, name, price } = item;
  if (!isId(id) || typeof name !== 'string') return undefined;
  if (price !== null && !isCount(price)) return undefined;
  return { id, name, price };
}

export interface Page<T> {
  values: T[];
  /** The cursor of the next page; null on the last page. */
  next: string | null;
}

const cursorOf = (v: unknown): string | null | undefined =>
  v === null || v === undefined || v === '' ? null : typeof v === 'string' ? v : undefined;

/**
 * A game-pass page. Undefined when the page or any pass in it is malformed: the collector replaces
 * a game's whole pass list, so a partial list would silently delete the passes it could not read.
 */
export function mapGamePassPage(body: unknown): Page<GamePass> | undefined {
  if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
  const next = cursorOf(body.nextPageCursor);
  if (next === undefined) return undefined;
  const values: GamePass[] = [];
  for (const raw of body.data) {
    const pass = mapGamePass(raw);
    if (!pass) return undefined;
    values.push(pass);
  }
  return { values, next };
}

/**
 * One pass of the current `GET apis.roblox.com/game-passes/v1/universes/{universeId}/game-passes`
 * (passView=Full). No recorded response exists; the shape is RoSeal's typed client
 * (RoSeal-Extension/RoSeal src/ts/helpers/requests/services/passes.ts: `{id, productId, name,
 * displayName, displayDescription, price: number | null, isOwned, creator, created, updated}`),
 * and callers of the live endpoint read `isForSale` from it as well. A pass is off sale when
 * `isForSale` is false or `price` is null: its price is null then, whatever `price` says.
 */
export function mapUniverseGamePass(item: unknown): GamePass | undefined {
  if (!isRecord(item)) return undefined;
  const { id, name, price, isForSale } = item;
  if (!isId(id) || typeof name !== 'string') return undefined;
  if (isForSale !== undefined && typeof isForSale !== 'boolean') return undefined;
  if (price !== undefined && price !== null && !isCount(price)) return undefined; // present, not a price
  if (isForSale === false || price === null) return { id, name, price: null };
  return isCount(price) ? { id, name, price } : undefined; // for sale without a price: not a body we know
}

/**
 * A page of the current endpoint: `{gamePasses: [...], nextPageToken}`, the token empty or null on
 * the last page. Undefined when the page or any pass in it is malformed, as for the legacy pages.
 */
export function mapUniverseGamePassPage(body: unknown): Page<GamePass> | undefined {
  if (!isRecord(body) || !Array.isArray(body.gamePasses)) return undefined;
  const next = cursorOf(body.nextPageToken);
  if (next === undefined) return undefined;
  const values: GamePass[] = [];
  for (const raw of body.gamePasses) {
    const pass = mapUniverseGamePass(raw);
    if (!pass) return undefined;
    values.push(pass);
  }
  return { values, next };
}

/**
 * A page of `GET apis.roblox.com/explore-api/v1/get-sort-content` → the universe ids on it.
 * Discovery is best effort: a malformed tile is skipped, and sponsored tiles (ads, bought
 * placement) are skipped because they are not the charts.
 */
export function mapSortContent(body: unknown): Page<number> | undefined {
  if (!isRecord(body) || !Array.isArray(body.games)) return undefined;
  const next = cursorOf(body.nextPageToken);
  const values: number[] = [];
  for (const tile of body.games) {
    if (isRecord(tile) && isId(tile.universeId) && tile.isSponsored !== true) values.push(tile.universeId);
  }
  return { values, next: next ?? null };
}
