/**
 * How the UGC catalog scores items and trends: plain functions and the sentences the OpenAPI text
 * and every response's `method` field state (the SQL in ugc.repo.ts and trends.repo.ts computes
 * the same figures over the whole catalog).
 */

/** Raw readings are kept this long; daily rollups are kept for good. */
export const RAW_RETENTION_HOURS = 48;
/** trending_score's damping: a brand-new item's first favourites do not outrank everything. */
export const TRENDING_DAMPING = 100;
/** A creator needs this many favourites gained over the last 7 days to be listed as rising. */
export const MIN_CREATOR_GAIN = 10;
/** Rising creators listed. */
export const RISING_CREATORS = 20;
/** Every list's cap on `limit`, for every caller (the group is public). */
export const PUBLIC_LIST_CAP = 100;

/** trending_score = gain_24h / sqrt(favourites 24 h ago + 100). */
export function trendingScore(favoritesNow: number, favorites24hAgo: number): number {
  return Math.max(0, favoritesNow - favorites24hAgo) / Math.sqrt(favorites24hAgo + TRENDING_DAMPING);
}

/** growth_percent = 100 · ((gain_7d + 1) / (gain_prev_7d + 1) − 1), one decimal. */
export function growthPercent(gain7d: number, gainPrev7d: number): number {
  return Math.round(1000 * ((gain7d + 1) / (gainPrev7d + 1) - 1)) / 10;
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

export const TRENDING_METHOD =
  'trending_score = favorites_gain_24h / sqrt(favourites 24 h ago + 100), where favourites 24 h ago is the newest ' +
  'reading at or before now − 24 h (0 for an item created since; else, for an item first read since, its first ' +
  'reading) and favorites_gain_24h is the favourites now minus that (never below 0). The square root damps large ' +
  'items less than a ratio would: 200 new favourites on an item that had 0 score 20, on one that had 10,000 score 2. ' +
  'favorites_gain_7d: favourites now minus the last reading of the UTC day 7 days ago (0 for an item created after ' +
  'that day; else its first daily reading since).';

export const SORT_METHOD: Record<'trending' | 'new' | 'price' | 'favorites', string> = {
  trending: `Ordered by trending_score, highest first. ${TRENDING_METHOD}`,
  new: 'Ordered by created_at (when the catalog gives none, the first time the collector saw the item), newest first.',
  price: 'Items on sale only, ordered by price in Robux, cheapest first (free items first).',
  favorites: 'Ordered by favourites, most first.',
};

export const RISING_METHOD =
  'Favourites gained over the last 7 days (favourites now minus the last reading of the UTC day 7 days ago) against ' +
  'the 7 days before (that reading minus the one of the day 14 days ago), summed over the group’s items; an item ' +
  'created after such a day counts 0 favourites on it, an item with a gap in its history on those days is left out. ' +
  'growth_percent = 100 · ((favorites_gain_7d + 1) / (favorites_gain_prev_7d + 1) − 1); rising = highest ' +
  'growth_percent first (ties: larger gain first). Price bands use the current price of items on sale. Creators: ' +
  `those whose items gained at least ${MIN_CREATOR_GAIN} favourites in the last 7 days, the top ${RISING_CREATORS}.`;
