/**
 * UGC catalog reads. Every answer is built from the catalog as the latest collection left it, so a
 * process keeps each answer serialised, by request, until the next collection: it asks the
 * database at most once a second whether a newer collection was stored (the trends view's time),
 * and a repeated request costs neither a query nor a serialisation.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { decodeCursor, encodeCursor } from '../http/pages.js';
import { type SerialisedBody, serialise } from '../http/serializers.js';
import { type CatalogItemType, catalogCategoryName } from '../platform/index.js';
import { TRENDS_VIEW } from './collector.js';
import * as items from './items.repo.js';
import { PUBLIC_LIST_CAP, RISING_METHOD, round3, SORT_METHOD, TRENDING_METHOD } from './scores.js';
import { comparedDays, type TrendsView } from './trends.js';
import * as repo from './ugc.repo.js';
import type {
  CreatorQueryT,
  CreatorResponseT,
  ItemQueryT,
  ItemResponseT,
  ItemsQueryT,
  ItemsResponseT,
  TrendsResponseT,
  UgcItemT,
} from './ugc.schemas.js';

const RECHECK_MS = 1000;
const MAX_CACHED = 2000;
const DAY_MS = 86_400_000;

export interface UgcDeps {
  db: Db;
  clock: Clock;
}

const TYPE_CODE: Record<CatalogItemType, number> = { Asset: 1, Bundle: 2 };
const typeOfCode = (code: number): CatalogItemType | undefined =>
  code === 1 ? 'Asset' : code === 2 ? 'Bundle' : undefined;

export function toApiItem(r: items.ItemRow): UgcItemT {
  return {
    id: r.item_id,
    item_type: r.item_type === 'Asset' ? 'asset' : 'bundle',
    name: r.name,
    category: r.category,
    category_name: catalogCategoryName(r.category),
    creator: { id: r.creator_id, type: r.creator_type, name: r.creator_name },
    price: r.price,
    on_sale: r.on_sale,
    favorites: r.favorites,
    favorites_gain_24h: r.gain_24h,
    favorites_gain_7d: r.gain_7d,
    trending_score: round3(r.trending_score),
    created_at: r.created_at?.toISOString() ?? null,
    listed_at: r.listed_at.toISOString(),
    last_seen_at: r.last_seen_at.toISOString(),
  };
}

/** A cursor's (sort value, item type, id), refused (422 on query.cursor) when it is not one of ours. */
function decodeItemCursor(cursor: string | undefined) {
  const parts = decodeCursor(cursor, 3);
  if (!parts) return undefined;
  const itemType = typeOfCode(parts[1]!);
  if (!itemType)
    throw errors.validation(
      'query.cursor',
      'cursor is not one this endpoint gave out; start again without it.',
    );
  return { value: parts[0]!, itemType, id: parts[2]! };
}

export class UgcService {
  private stamp: { at: number; checkedAt: number } | undefined;
  private pending: Promise<number> | undefined;
  private readonly rendered = new Map<string, SerialisedBody>();

  constructor(private readonly deps: UgcDeps) {}

  /** The latest collection's time (0 before any), re-read at most once a second; clears the cache when it moved. */
  private async version(): Promise<number> {
    const now = performance.now();
    if (this.stamp && now - this.stamp.checkedAt < RECHECK_MS) return this.stamp.at;
    this.pending ??= repo
      .viewTime(this.deps.db, TRENDS_VIEW)
      .then((t) => {
        const at = t?.getTime() ?? 0;
        if (this.stamp?.at !== at) this.rendered.clear();
        this.stamp = { at, checkedAt: performance.now() };
        return at;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** `build()`'s JSON, built once per collection and request key. */
  private async cached(key: string, build: (version: number) => Promise<unknown>): Promise<SerialisedBody> {
    const version = await this.version();
    const hit = this.rendered.get(key);
    if (hit !== undefined) return hit;
    const json = serialise(await build(version));
    if (this.rendered.size >= MAX_CACHED) this.rendered.clear();
    this.rendered.set(key, json);
    return json;
  }

  /** Forgets every cached answer (tests that write the catalog directly). */
  invalidate(): void {
    this.stamp = undefined;
    this.rendered.clear();
  }

  async items(q: ItemsQueryT): Promise<SerialisedBody> {
    const after = decodeItemCursor(q.cursor);
    const limit = Math.min(q.limit, PUBLIC_LIST_CAP);
    return this.cached(`items|${q.category ?? ''}|${q.sort}|${limit}|${q.cursor ?? ''}`, async (version) => {
      const rows = await items.listItems(this.deps.db, {
        category: q.category,
        sort: q.sort,
        after: after && { ...after, value: q.sort === 'new' ? new Date(after.value) : after.value },
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const sortValue = (r: items.ItemRow) =>
        q.sort === 'trending'
          ? r.trending_score
          : q.sort === 'new'
            ? r.listed_at.getTime()
            : q.sort === 'price'
              ? r.price!
              : r.favorites;
      const body: ItemsResponseT = {
        category: q.category ?? null,
        sort: q.sort,
        items: page.map(toApiItem),
        next_cursor:
          rows.length > limit && last
            ? encodeCursor([sortValue(last), TYPE_CODE[last.item_type], last.item_id])
            : null,
        limit_cap: PUBLIC_LIST_CAP,
        computed_at: version ? new Date(version).toISOString() : null,
        method: SORT_METHOD[q.sort],
      };
      return body;
    });
  }

  async item(id: number, q: ItemQueryT): Promise<SerialisedBody> {
    const type = q.type === 'asset' ? 'Asset' : q.type === 'bundle' ? 'Bundle' : undefined;
    return this.cached(`item|${id}|${q.type ?? ''}|${q.days}`, async (version) => {
      const row = await items.findItem(this.deps.db, id, type);
      if (!row) throw errors.notFound('The service does not collect this catalog item.');
      const to = version || this.deps.clock.now().getTime();
      const from = new Date(Math.floor(to / DAY_MS) * DAY_MS - (q.days - 1) * DAY_MS)
        .toISOString()
        .slice(0, 10);
      const days = await items.itemDaily(this.deps.db, row.item_type, row.item_id, from);
      const body: ItemResponseT = {
        item: toApiItem(row),
        price_history: days.map((d) => ({
          day: d.day,
          price: d.price_last,
          price_min: d.price_min,
          price_max: d.price_max,
          on_sale: d.on_sale_last,
        })),
        favorites_history: days.map((d) => ({ day: d.day, favorites: d.favorites_last })),
        method:
          `History: one point per UTC day of the last \`days\` (the day of the latest collection included), from the ` +
          `collector's readings every 15 minutes (raw readings are kept 48 hours, these daily rollups for good). ${TRENDING_METHOD}`,
      };
      return body;
    });
  }

  /** The stored trends view; before the first collection, empty lists (computed_at null). */
  async trends(): Promise<SerialisedBody> {
    return this.cached('trends', async () => {
      const view = await repo.loadView<TrendsView>(this.deps.db, TRENDS_VIEW);
      const body: TrendsResponseT = view
        ? { computed_at: view.computedAt.toISOString(), ...view.body, method: RISING_METHOD }
        : {
            computed_at: null,
            compared_days: comparedDays(this.deps.clock.now()),
            categories: [],
            price_bands: [],
            creators: [],
            method: RISING_METHOD,
          };
      return body;
    });
  }

  async creator(id: number, q: CreatorQueryT): Promise<SerialisedBody> {
    const type = q.type === 'user' ? 'User' : q.type === 'group' ? 'Group' : undefined;
    const after = decodeItemCursor(q.cursor);
    const limit = Math.min(q.limit, PUBLIC_LIST_CAP);
    return this.cached(`creator|${id}|${q.type ?? ''}|${limit}|${q.cursor ?? ''}`, async () => {
      const c = await items.findCreator(this.deps.db, id, type);
      if (!c) throw errors.notFound('The service collects no catalog item of this creator.');
      const rows = await items.creatorItems(
        this.deps.db,
        c.creator_type,
        c.creator_id,
        after && { favorites: after.value, itemType: after.itemType, id: after.id },
        limit + 1,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const body: CreatorResponseT = {
        creator: { id: c.creator_id, type: c.creator_type, name: c.creator_name },
        items_count: c.items,
        on_sale_count: c.on_sale,
        favorites: c.favorites,
        favorites_gain_24h: c.gain_24h,
        favorites_gain_7d: c.gain_7d,
        first_listed_at: c.first_listed_at.toISOString(),
        last_listed_at: c.last_listed_at.toISOString(),
        items: page.map(toApiItem),
        next_cursor:
          rows.length > limit && last
            ? encodeCursor([last.favorites, TYPE_CODE[last.item_type], last.item_id])
            : null,
        limit_cap: PUBLIC_LIST_CAP,
        method: `Totals over the creator's items the service collects; items most favourited first. ${TRENDING_METHOD}`,
      };
      return body;
    });
  }
}
