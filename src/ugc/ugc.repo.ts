/** UGC catalog SQL: the items, their raw readings and daily rollups, the stored views, backfills. */
import type { Queryable } from '../db/index.js';
import type { CatalogItem, CatalogItemType, CatalogRef } from '../platform/index.js';
import { TRENDING_DAMPING } from './scores.js';

const CHUNK = 5000;

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

/** Stores what a collection read: new items are inserted, known ones take the new values. */
export async function upsertItems(db: Queryable, items: readonly CatalogItem[], now: Date): Promise<void> {
  for (const part of chunks(items)) {
    await db.query(
      `INSERT INTO ugc_items (item_type, item_id, name, category, creator_type, creator_id, creator_name, price,
              on_sale, favorites, created_at, first_seen_at, last_seen_at, listed_at)
       SELECT u.item_type, u.item_id, u.name, u.category, u.creator_type, u.creator_id, u.creator_name, u.price,
              u.on_sale, u.favorites, u.created_at, $12, $12, coalesce(u.created_at, $12)
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[],
                     $8::int[], $9::bool[], $10::bigint[], $11::timestamptz[])
              AS u (item_type, item_id, name, category, creator_type, creator_id, creator_name, price, on_sale,
                    favorites, created_at)
       ON CONFLICT (item_type, item_id) DO UPDATE SET
         name = EXCLUDED.name, category = EXCLUDED.category, creator_type = EXCLUDED.creator_type,
         creator_id = EXCLUDED.creator_id, creator_name = EXCLUDED.creator_name, price = EXCLUDED.price,
         on_sale = EXCLUDED.on_sale, favorites = EXCLUDED.favorites,
         created_at = coalesce(EXCLUDED.created_at, ugc_items.created_at), last_seen_at = EXCLUDED.last_seen_at,
         listed_at = coalesce(EXCLUDED.created_at, ugc_items.created_at, ugc_items.first_seen_at)`,
      [
        part.map((i) => i.itemType),
        part.map((i) => i.id),
        part.map((i) => i.name),
        part.map((i) => i.category),
        part.map((i) => i.creator.type),
        part.map((i) => i.creator.id),
        part.map((i) => i.creator.name),
        part.map((i) => i.price),
        part.map((i) => i.onSale),
        part.map((i) => i.favorites),
        part.map((i) => i.created),
        now,
      ],
    );
  }
}

export interface ItemReading {
  itemType: CatalogItemType;
  id: number;
  ts: Date;
  price: number | null;
  onSale: boolean;
  favorites: number;
}

export async function insertSamples(db: Queryable, rows: readonly ItemReading[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db.query(
      `INSERT INTO ugc_samples (item_type, item_id, ts, price, on_sale, favorites)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::int[], $5::bool[], $6::bigint[])
       ON CONFLICT (item_type, item_id, ts) DO NOTHING`,
      [
        part.map((r) => r.itemType),
        part.map((r) => r.id),
        part.map((r) => r.ts),
        part.map((r) => r.price),
        part.map((r) => r.onSale),
        part.map((r) => r.favorites),
      ],
    );
  }
}

/** Folds readings of one UTC day into its rollups (lowest/highest price so far, the last values). */
export async function foldIntoDaily(db: Queryable, day: string, rows: readonly ItemReading[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db.query(
      `INSERT INTO ugc_daily (item_type, item_id, day, price_min, price_max, price_last, on_sale_last,
              favorites_last, samples)
       SELECT u.item_type, u.item_id, $1::date, u.price, u.price, u.price, u.on_sale, u.favorites, 1
         FROM unnest($2::text[], $3::bigint[], $4::int[], $5::bool[], $6::bigint[])
              AS u (item_type, item_id, price, on_sale, favorites)
       ON CONFLICT (item_type, item_id, day) DO UPDATE SET
         price_min = least(ugc_daily.price_min, EXCLUDED.price_min),
         price_max = greatest(ugc_daily.price_max, EXCLUDED.price_max),
         price_last = EXCLUDED.price_last, on_sale_last = EXCLUDED.on_sale_last,
         favorites_last = EXCLUDED.favorites_last, samples = ugc_daily.samples + 1`,
      [
        day,
        part.map((r) => r.itemType),
        part.map((r) => r.id),
        part.map((r) => r.price),
        part.map((r) => r.onSale),
        part.map((r) => r.favorites),
      ],
    );
  }
}

/** Drops raw readings older than `before` (the daily rollups keep their history). */
export async function pruneSamples(db: Queryable, before: Date): Promise<number> {
  const res = await db.query('DELETE FROM ugc_samples WHERE ts < $1', [before]);
  return res.rowCount;
}

/**
 * Recomputes every item's derived figures at `now` (scores.ts states them): favourites 24 h ago (the
 * newest reading at or before now − 24 h; else 0 for an item created since; else its first reading),
 * favourites 7 days ago (the last reading of the UTC day `day7`; else 0 for an item created after that
 * day; else its first daily reading since), the gains from each and the trending score.
 */
export async function refreshScores(db: Queryable, now: Date, day7: string): Promise<void> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const endOfDay7 = new Date(Date.parse(`${day7}T00:00:00Z`) + 86_400_000);
  await db.query(
    `WITH before AS (
       SELECT DISTINCT ON (item_type, item_id) item_type, item_id, favorites
         FROM ugc_samples WHERE ts <= $1 ORDER BY item_type, item_id, ts DESC
     ), first AS (
       SELECT DISTINCT ON (item_type, item_id) item_type, item_id, favorites
         FROM ugc_samples ORDER BY item_type, item_id, ts ASC
     ), week AS (
       SELECT item_type, item_id, favorites_last FROM ugc_daily WHERE day = $2::date
     ), first_day AS (
       SELECT DISTINCT ON (item_type, item_id) item_type, item_id, favorites_last
         FROM ugc_daily WHERE day > $2::date ORDER BY item_type, item_id, day ASC
     ), base AS (
       SELECT x.item_type, x.item_id,
              coalesce(b.favorites, CASE WHEN x.created_at >= $1 THEN 0 END, f.favorites, x.favorites) AS day_ago,
              coalesce(w.favorites_last, CASE WHEN x.created_at >= $3 THEN 0 END, fd.favorites_last, x.favorites)
                AS week_ago
         FROM ugc_items x
         LEFT JOIN before b ON b.item_type = x.item_type AND b.item_id = x.item_id
         LEFT JOIN first f ON f.item_type = x.item_type AND f.item_id = x.item_id
         LEFT JOIN week w ON w.item_type = x.item_type AND w.item_id = x.item_id
         LEFT JOIN first_day fd ON fd.item_type = x.item_type AND fd.item_id = x.item_id
     )
     UPDATE ugc_items i SET
       favorites_24h_ago = base.day_ago,
       gain_24h = greatest(0, i.favorites - base.day_ago),
       gain_7d = greatest(0, i.favorites - base.week_ago),
       trending_score = greatest(0, i.favorites - base.day_ago)::float8 / sqrt(base.day_ago + ${TRENDING_DAMPING})
       FROM base WHERE base.item_type = i.item_type AND base.item_id = i.item_id`,
    [dayAgo, day7, endOfDay7],
  );
}

/** Stored items the longest unread first (the real source refreshes them within its budget). */
export async function staleRefs(db: Queryable, limit: number): Promise<CatalogRef[]> {
  const res = await db.query<{ item_type: CatalogItemType; id: number }>(
    'SELECT item_type, item_id::float8 AS id FROM ugc_items ORDER BY last_seen_at, item_type, item_id LIMIT $1',
    [limit],
  );
  return res.rows.map((r) => ({ itemType: r.item_type, id: r.id }));
}

export async function analyseCatalog(db: Queryable): Promise<void> {
  await db.query('ANALYZE ugc_items');
  await db.query('ANALYZE ugc_samples');
  await db.query('ANALYZE ugc_daily');
}

export async function saveView(db: Queryable, name: string, at: Date, body: unknown): Promise<void> {
  await db.query(
    `INSERT INTO ugc_views (name, computed_at, body) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (name) DO UPDATE SET computed_at = EXCLUDED.computed_at, body = EXCLUDED.body`,
    [name, at, JSON.stringify(body)],
  );
}

export async function loadView<T>(
  db: Queryable,
  name: string,
): Promise<{ computedAt: Date; body: T } | undefined> {
  const res = await db.query<{ computed_at: Date; body: T }>(
    'SELECT computed_at, body FROM ugc_views WHERE name = $1',
    [name],
  );
  const row = res.rows[0];
  return row ? { computedAt: row.computed_at, body: row.body } : undefined;
}

export async function viewTime(db: Queryable, name: string): Promise<Date | undefined> {
  const res = await db.query<{ computed_at: Date }>('SELECT computed_at FROM ugc_views WHERE name = $1', [
    name,
  ]);
  return res.rows[0]?.computed_at;
}

export async function startBackfill(db: Queryable, days: number, at: Date): Promise<number> {
  const res = await db.query<{ id: number }>(
    'INSERT INTO ugc_backfills (days, started_at) VALUES ($1, $2) RETURNING id::int AS id',
    [days, at],
  );
  return res.rows[0]!.id;
}

export async function completeBackfill(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query('UPDATE ugc_backfills SET completed_at = $2 WHERE id = $1', [id, at]);
}

export async function hasCompletedBackfill(db: Queryable): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM ugc_backfills WHERE completed_at IS NOT NULL LIMIT 1');
  return res.rows.length > 0;
}
