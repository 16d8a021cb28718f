/** The trends view: categories, price bands and creators rising, computed after each collection. */
import type { Queryable } from '../db/index.js';
import { catalogCategoryName } from '../platform/index.js';
import { growthPercent, MIN_CREATOR_GAIN, RISING_CREATORS } from './scores.js';
import * as trendsRepo from './trends.repo.js';
import { type GainRow, PRICE_BANDS } from './trends.repo.js';

const DAY_MS = 86_400_000;
const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Rising {
  items: number;
  new_items_7d: number;
  favorites_gain_7d: number;
  favorites_gain_prev_7d: number;
  growth_percent: number;
  avg_price: number | null;
}

export interface TrendsView {
  /** The UTC days whose last readings the gains are measured against. */
  compared_days: { day_7: string; day_14: string };
  categories: (Rising & { category: string; name: string })[];
  price_bands: (Rising & { band: string; min_price: number; max_price: number | null })[];
  creators: (Rising & { creator: { id: number; type: 'User' | 'Group'; name: string } })[];
}

function rising(r: GainRow): Rising {
  return {
    items: r.items,
    new_items_7d: r.new_items,
    favorites_gain_7d: r.gain_7d,
    favorites_gain_prev_7d: r.gain_prev_7d,
    growth_percent: growthPercent(r.gain_7d, r.gain_prev_7d),
    avg_price: r.avg_price === null ? null : Math.round(r.avg_price),
  };
}

/** Highest growth first; ties: larger gain, then the key. */
const byRising =
  <T extends { growth_percent: number; favorites_gain_7d: number }>(key: (x: T) => string) =>
  (a: T, b: T) =>
    b.growth_percent - a.growth_percent ||
    b.favorites_gain_7d - a.favorites_gain_7d ||
    key(a).localeCompare(key(b));

/** The UTC days 7 and 14 days before `now`'s. */
export function comparedDays(now: Date): TrendsView['compared_days'] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { day_7: dayKey(today - 7 * DAY_MS), day_14: dayKey(today - 14 * DAY_MS) };
}

export async function computeTrends(db: Queryable, now: Date): Promise<TrendsView> {
  const days = comparedDays(now);
  const w = { day7: days.day_7, day14: days.day_14, weekAgo: new Date(now.getTime() - 7 * DAY_MS) };
  const [cats, bands, creators] = await Promise.all([
    trendsRepo.categoryGains(db, w),
    trendsRepo.priceBandGains(db, w),
    trendsRepo.creatorGains(db, w, MIN_CREATOR_GAIN),
  ]);
  return {
    compared_days: days,
    categories: cats
      .map((r) => ({ category: r.key, name: catalogCategoryName(r.key), ...rising(r) }))
      .sort(byRising((x) => x.category)),
    price_bands: bands
      .map((r) => {
        const band = PRICE_BANDS.find((b) => b.key === r.key)!;
        return { band: r.key, min_price: band.min, max_price: band.max, ...rising(r) };
      })
      .sort(byRising((x) => x.band)),
    creators: creators
      .map((r) => ({
        creator: { id: r.creator_id, type: r.creator_type, name: r.creator_name },
        ...rising(r),
      }))
      .sort(byRising((x) => `${x.creator.type}:${x.creator.id}`))
      .slice(0, RISING_CREATORS),
  };
}
