/** UGC catalog reads: the item lists (one keyset query per order), one item, its daily history, a creator. */
import type { Queryable } from '../db/index.js';
import type { CatalogItemType } from '../platform/index.js';

export type ItemSort = 'trending' | 'new' | 'price' | 'favorites';

export interface ItemRow {
  item_type: CatalogItemType;
  item_id: number;
  name: string;
  category: string;
  creator_type: 'User' | 'Group';
  creator_id: number;
  creator_name: string;
  price: number | null;
  on_sale: boolean;
  favorites: number;
  created_at: Date | null;
  listed_at: Date;
  first_seen_at: Date;
  last_seen_at: Date;
  gain_24h: number;
  gain_7d: number;
  trending_score: number;
}

const COLUMNS = `item_type, item_id::float8 AS item_id, name, category, creator_type, creator_id::float8 AS creator_id,
  creator_name, price, on_sale, favorites::float8 AS favorites, created_at, listed_at, first_seen_at, last_seen_at,
  gain_24h::float8 AS gain_24h, gain_7d::float8 AS gain_7d, trending_score`;

/** The sort key of each order: its column, direction and how a cursor's first number maps to it. */
const ORDERS: Record<ItemSort, { key: string; desc: boolean; where?: string; cast: string }> = {
  trending: { key: 'trending_score', desc: true, cast: '::float8' },
  new: { key: 'listed_at', desc: true, cast: '' },
  price: { key: 'price', desc: false, where: 'price IS NOT NULL', cast: '::int' },
  favorites: { key: 'favorites', desc: true, cast: '::bigint' },
};

export interface ListParams {
  category: string | undefined;
  sort: ItemSort;
  /** The last row of the previous page: its sort value, item type and id. */
  after: { value: number | Date; itemType: CatalogItemType; id: number } | undefined;
  limit: number;
}

/** One page of items in `sort` order, after the cursor's row (each filter written only when it applies). */
export async function listItems(db: Queryable, p: ListParams): Promise<ItemRow[]> {
  const o = ORDERS[p.sort];
  const dir = o.desc ? 'DESC' : 'ASC';
  const params: unknown[] = [p.limit];
  const where: string[] = [];
  if (o.where) where.push(o.where);
  if (p.category !== undefined) {
    params.push(p.category);
    where.push(`category = $${params.length}`);
  }
  if (p.after) {
    params.push(p.after.value, p.after.itemType, p.after.id);
    const n = params.length;
    const cast = p.sort === 'new' ? '::timestamptz' : o.cast;
    where.push(
      `(${o.key}, item_type, item_id) ${o.desc ? '<' : '>'} ($${n - 2}${cast}, $${n - 1}::text, $${n}::bigint)`,
    );
  }
  const res = await db.query<ItemRow>(
    `SELECT ${COLUMNS} FROM ugc_items ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${o.key} ${dir}, item_type ${dir}, item_id ${dir} LIMIT $1`,
    params,
  );
  return res.rows;
}

/** One item; without a type, the asset first, then the bundle with that id. */
export async function findItem(
  db: Queryable,
  id: number,
  itemType: CatalogItemType | undefined,
): Promise<ItemRow | undefined> {
  const res = await db.query<ItemRow>(
    `SELECT ${COLUMNS} FROM ugc_items WHERE item_id = $1 AND ($2::text IS NULL OR item_type = $2)
      ORDER BY item_type LIMIT 1`,
    [id, itemType ?? null],
  );
  return res.rows[0];
}

export interface DailyRow {
  day: string;
  price_min: number | null;
  price_max: number | null;
  price_last: number | null;
  on_sale_last: boolean;
  favorites_last: number;
}

/** An item's daily rollups from `fromDay` on, oldest first. */
export async function itemDaily(
  db: Queryable,
  itemType: CatalogItemType,
  id: number,
  fromDay: string,
): Promise<DailyRow[]> {
  const res = await db.query<DailyRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, price_min, price_max, price_last, on_sale_last,
            favorites_last::float8 AS favorites_last
       FROM ugc_daily WHERE item_type = $1 AND item_id = $2 AND day >= $3::date ORDER BY day`,
    [itemType, id, fromDay],
  );
  return res.rows;
}

export interface CreatorRow {
  creator_type: 'User' | 'Group';
  creator_id: number;
  creator_name: string;
  items: number;
  on_sale: number;
  favorites: number;
  gain_7d: number;
  gain_24h: number;
  first_listed_at: Date;
  last_listed_at: Date;
}

/** A creator's totals over the items the service collects; without a type, users before groups. */
export async function findCreator(
  db: Queryable,
  id: number,
  creatorType: 'User' | 'Group' | undefined,
): Promise<CreatorRow | undefined> {
  const res = await db.query<CreatorRow>(
    `SELECT creator_type, creator_id::float8 AS creator_id, (array_agg(creator_name ORDER BY last_seen_at DESC))[1] AS creator_name,
            count(*)::int AS items, count(*) FILTER (WHERE on_sale)::int AS on_sale,
            sum(favorites)::float8 AS favorites, sum(gain_7d)::float8 AS gain_7d, sum(gain_24h)::float8 AS gain_24h,
            min(listed_at) AS first_listed_at, max(listed_at) AS last_listed_at
       FROM ugc_items WHERE creator_id = $1 AND ($2::text IS NULL OR creator_type = $2)
      GROUP BY creator_type, creator_id ORDER BY creator_type DESC LIMIT 1`,
    [id, creatorType ?? null],
  );
  return res.rows[0];
}

/** A creator's items, most favourited first, after the cursor's (favourites, type, id). */
export async function creatorItems(
  db: Queryable,
  creatorType: 'User' | 'Group',
  creatorId: number,
  after: { favorites: number; itemType: CatalogItemType; id: number } | undefined,
  limit: number,
): Promise<ItemRow[]> {
  const res = await db.query<ItemRow>(
    `SELECT ${COLUMNS} FROM ugc_items
      WHERE creator_type = $1 AND creator_id = $2
        AND ($3::bigint IS NULL OR (favorites, item_type, item_id) < ($3::bigint, $4::text, $5::bigint))
      ORDER BY favorites DESC, item_type DESC, item_id DESC LIMIT $6`,
    [creatorType, creatorId, after?.favorites ?? null, after?.itemType ?? null, after?.id ?? null, limit],
  );
  return res.rows;
}
