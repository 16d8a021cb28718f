/**
 * The trends' aggregates: favourites gained over the last 7 days and the 7 before, per category,
 * per price band and per creator. An item's favourites at the end of UTC day d are its last reading
 * that day (ugc_daily), or 0 when it was created after that day; an item with neither (a gap in the
 * history) is left out. "Now" is the latest reading (ugc_items).
 */
import type { Queryable } from '../db/index.js';

export interface GainRow {
  key: string;
  items: number;
  new_items: number;
  gain_7d: number;
  gain_prev_7d: number;
  avg_price: number | null;
}

export interface CreatorGainRow extends GainRow {
  creator_type: 'User' | 'Group';
  creator_id: number;
  creator_name: string;
}

/** Price bands (Robux) of items on sale, in order. */
export const PRICE_BANDS = [
  { key: 'free', min: 0, max: 0 },
  { key: '1-50', min: 1, max: 50 },
  { key: '51-100', min: 51, max: 100 },
  { key: '101-250', min: 101, max: 250 },
  { key: '251-500', min: 251, max: 500 },
  { key: '501-1000', min: 501, max: 1000 },
  { key: '1001+', min: 1001, max: null },
] as const;

const BAND_SQL = `CASE ${PRICE_BANDS.map((b) =>
  b.max === null
    ? `WHEN price >= ${b.min} THEN '${b.key}'`
    : `WHEN price BETWEEN ${b.min} AND ${b.max} THEN '${b.key}'`,
).join(' ')} END`;

/** $1, $2: the UTC days 7 and 14 days ago ('YYYY-MM-DD'); $3: now − 7 days; $4, $5: the ends of $1 and $2. */
const PER_ITEM = `
  WITH per AS (
    SELECT i.category, i.price, i.creator_type, i.creator_id, i.creator_name, i.last_seen_at, i.listed_at,
           i.favorites AS f_now,
           CASE WHEN d7.favorites_last IS NOT NULL THEN d7.favorites_last
                WHEN i.created_at >= $4 THEN 0 END AS f_7,
           CASE WHEN d14.favorites_last IS NOT NULL THEN d14.favorites_last
                WHEN i.created_at >= $5 THEN 0 END AS f_14
      FROM ugc_items i
      LEFT JOIN ugc_daily d7 ON d7.item_type = i.item_type AND d7.item_id = i.item_id AND d7.day = $1::date
      LEFT JOIN ugc_daily d14 ON d14.item_type = i.item_type AND d14.item_id = i.item_id AND d14.day = $2::date
  ), known AS (SELECT * FROM per WHERE f_7 IS NOT NULL AND f_14 IS NOT NULL)`;

const AGGREGATES = `count(*)::int AS items, count(*) FILTER (WHERE listed_at >= $3)::int AS new_items,
  sum(greatest(0, f_now - f_7))::float8 AS gain_7d, sum(greatest(0, f_7 - f_14))::float8 AS gain_prev_7d,
  avg(price)::float8 AS avg_price`;

export interface GainWindow {
  day7: string;
  day14: string;
  weekAgo: Date;
}

const DAY_MS = 86_400_000;
const endOf = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
const params = (w: GainWindow) => [w.day7, w.day14, w.weekAgo, endOf(w.day7), endOf(w.day14)];

export async function categoryGains(db: Queryable, w: GainWindow): Promise<GainRow[]> {
  const res = await db.query<GainRow>(
    `${PER_ITEM} SELECT category AS key, ${AGGREGATES} FROM known GROUP BY category`,
    params(w),
  );
  return res.rows;
}

export async function priceBandGains(db: Queryable, w: GainWindow): Promise<GainRow[]> {
  const res = await db.query<GainRow>(
    `${PER_ITEM} SELECT ${BAND_SQL} AS key, ${AGGREGATES} FROM known WHERE price IS NOT NULL GROUP BY 1`,
    params(w),
  );
  return res.rows;
}

/** Creators whose items gained at least `minGain` favourites over the last 7 days. */
export async function creatorGains(db: Queryable, w: GainWindow, minGain: number): Promise<CreatorGainRow[]> {
  const res = await db.query<CreatorGainRow>(
    `${PER_ITEM} SELECT creator_type, creator_id::float8 AS creator_id,
            (array_agg(creator_name ORDER BY last_seen_at DESC))[1] AS creator_name,
            creator_type || ':' || creator_id AS key, ${AGGREGATES}
       FROM known GROUP BY creator_type, creator_id
     HAVING sum(greatest(0, f_now - f_7)) >= $6`,
    [...params(w), minGain],
  );
  return res.rows;
}
