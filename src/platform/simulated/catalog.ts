/**
 * The simulated UGC catalog: avatar items (accessories, clothing, bundles) whose every reading is a
 * pure function of (seed, item, time), like the simulated market. Items launch over time (so "new"
 * moves on), favourites grow towards each item's popularity with occasional bursts (what "trending"
 * finds), prices change now and then (weekly sales, one repricing) and some items go off sale.
 */
import type { CatalogFetch, CatalogItem, CatalogRef, CatalogSource } from '../catalog.js';
import { refKey } from '../catalog.js';
import { creatorName } from './names.js';
import { hash, normal, pick, uniform, weightedIndex } from './random.js';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export interface CatalogShape {
  items: number;
  /** Items launch from 540 days before to 540 days after this moment. */
  epoch: number;
}

export const DEFAULT_CATALOG_SHAPE: CatalogShape = { items: 2000, epoch: Date.UTC(2026, 0, 1) };

const ASSET_CATEGORIES: readonly [string, number, readonly number[]][] = [
  ['hat', 0.12, [50, 75, 100, 150, 250]],
  ['hair', 0.14, [40, 60, 75, 100, 150]],
  ['face_accessory', 0.06, [30, 50, 75, 100]],
  ['neck', 0.03, [25, 50, 75]],
  ['shoulder', 0.04, [50, 75, 100, 200]],
  ['front', 0.03, [40, 75, 100]],
  ['back', 0.07, [75, 100, 150, 250, 400]],
  ['waist', 0.03, [30, 50, 80]],
  ['t_shirt', 0.03, [25, 40, 60]],
  ['shirt', 0.05, [30, 50, 75]],
  ['pants', 0.04, [30, 50, 75]],
  ['jacket', 0.05, [60, 90, 125, 175]],
  ['sweater', 0.02, [45, 70, 100]],
  ['shorts', 0.02, [25, 40, 60]],
  ['dress_skirt', 0.03, [50, 75, 110]],
  ['shoes', 0.03, [40, 60, 90]],
  ['classic_t_shirt', 0.06, [5, 10, 15]],
  ['classic_shirt', 0.06, [5, 10, 15, 25]],
  ['classic_pants', 0.05, [5, 10, 15, 25]],
  ['head', 0.01, [100, 250, 500]],
  ['face', 0.02, [50, 100, 250, 500]],
  ['emote', 0.02, [100, 150, 250]],
  ['animation', 0.01, [250, 500, 750]],
];
const BUNDLE_CATEGORIES: readonly [string, number, readonly number[]][] = [
  ['bundle_body', 0.5, [250, 350, 500, 750, 1000]],
  ['bundle_animation', 0.2, [250, 500, 750]],
  ['bundle_shoes', 0.15, [75, 125, 150]],
  ['bundle_head', 0.15, [150, 250, 400]],
];
const ADJECTIVES = [
  'Neon',
  'Frosty',
  'Golden',
  'Shadow',
  'Pastel',
  'Cyber',
  'Royal',
  'Cozy',
  'Starry',
  'Crimson',
  'Midnight',
  'Sakura',
  'Retro',
  'Glitch',
  'Cloudy',
  'Emerald',
  'Sunset',
  'Arctic',
  'Velvet',
  'Lunar',
];
const NOUNS: Record<string, readonly string[]> = {
  hat: ['Beanie', 'Top Hat', 'Crown', 'Cap', 'Fedora'],
  hair: ['Ponytail', 'Messy Hair', 'Buns', 'Curls', 'Braids'],
  face_accessory: ['Shades', 'Mask', 'Glasses', 'Blush'],
  neck: ['Scarf', 'Chain', 'Choker'],
  shoulder: ['Pet Cat', 'Parrot', 'Pauldron'],
  front: ['Badge', 'Necklace', 'Bow'],
  back: ['Wings', 'Backpack', 'Cape', 'Sword'],
  waist: ['Belt', 'Tail', 'Pouch'],
  t_shirt: ['Tee'],
  shirt: ['Shirt', 'Blouse'],
  pants: ['Jeans', 'Cargo Pants'],
  jacket: ['Hoodie', 'Puffer', 'Bomber'],
  sweater: ['Sweater', 'Cardigan'],
  shorts: ['Shorts'],
  dress_skirt: ['Dress', 'Skirt'],
  shoes: ['Sneakers', 'Boots'],
  classic_t_shirt: ['T-Shirt'],
  classic_shirt: ['Outfit Top'],
  classic_pants: ['Outfit Pants'],
  head: ['Head'],
  face: ['Smile', 'Face'],
  emote: ['Dance', 'Wave', 'Pose'],
  animation: ['Walk', 'Idle'],
  bundle_body: ['Avatar', 'Knight', 'Robot'],
  bundle_animation: ['Animation Pack'],
  bundle_shoes: ['Shoe Pack'],
  bundle_head: ['Dynamic Head'],
};

export interface CatalogItemSpec {
  index: number;
  ref: CatalogRef;
  name: string;
  category: string;
  creator: { id: number; name: string; type: 'User' | 'Group' };
  launchAt: number;
  /** Favourites the item settles towards, and how fast (days). */
  popularity: number;
  settleDays: number;
  burst: { at: number; size: number; days: number } | null;
  basePrice: number;
  /** One repricing: at this time the price becomes basePrice × factor. */
  reprice: { at: number; factor: number } | null;
  /** A limited item leaves sale for good at this time. */
  offSaleFrom: number | null;
}

function pickCategory(list: readonly [string, number, readonly number[]][], u: number) {
  return list[
    weightedIndex(
      list.map((c) => c[1]),
      u,
    )
  ]!;
}

export function buildCatalog(seed: number, shape: CatalogShape): CatalogItemSpec[] {
  const creators = Math.max(30, Math.round(shape.items * 0.08));
  const out: CatalogItemSpec[] = [];
  for (let i = 0; i < shape.items; i++) {
    const bundle = uniform(seed, i, 101) < 0.08;
    const [category, , prices] = pickCategory(
      bundle ? BUNDLE_CATEGORIES : ASSET_CATEGORIES,
      uniform(seed, i, 102),
    );
    const creatorIdx = Math.floor(uniform(seed, i, 103) ** 1.8 * creators);
    const isGroup = uniform(seed, creatorIdx, 104) < 0.4;
    const id = bundle
      ? 100_000 + i * 10 + (hash(seed, i, 105) % 10)
      : 10_000_000_000 + i * 100 + (hash(seed, i, 105) % 100);
    const launchAt = shape.epoch + (uniform(seed, i, 106) * 2 - 1) * 540 * DAY_MS;
    const free = uniform(seed, i, 107) < 0.03;
    out.push({
      index: i,
      ref: { itemType: bundle ? 'Bundle' : 'Asset', id },
      name: `${pick(ADJECTIVES, uniform(seed, i, 108))} ${pick(NOUNS[category] ?? ['Item'], uniform(seed, i, 109))}`,
      category,
      creator: {
        id: 2_000_000 + creatorIdx * 7,
        name: creatorName(seed, creatorIdx + 50_000, isGroup),
        type: isGroup ? 'Group' : 'User',
      },
      launchAt,
      popularity: Math.round(150 * Math.exp(2 * normal(seed, i, 110))),
      settleDays: 10 + uniform(seed, i, 111) * 80,
      burst:
        uniform(seed, i, 112) < 0.15
          ? {
              at: launchAt + (2 + uniform(seed, i, 113) * 400) * DAY_MS,
              size: 0,
              days: 1 + uniform(seed, i, 114) * 4,
            }
          : null,
      basePrice: free ? 0 : pick(prices, uniform(seed, i, 115)),
      reprice:
        !free && uniform(seed, i, 116) < 0.3
          ? {
              at: launchAt + (5 + uniform(seed, i, 117) * 200) * DAY_MS,
              factor: pick([0.75, 1.25, 1.5], uniform(seed, i, 118)),
            }
          : null,
      offSaleFrom: uniform(seed, i, 119) < 0.05 ? launchAt + (3 + uniform(seed, i, 120) * 60) * DAY_MS : null,
    });
    const b = out[i]!.burst;
    if (b) b.size = Math.round(out[i]!.popularity * (1 + uniform(seed, i, 121) * 4));
  }
  return out;
}

/** Favourites at t: settling towards popularity, plus a burst's smooth step (never decreasing). */
export function favoritesAt(s: CatalogItemSpec, t: number): number {
  const age = Math.max(0, t - s.launchAt) / DAY_MS;
  let f = s.popularity * (1 - Math.exp(-age / s.settleDays));
  if (s.burst && t > s.burst.at) {
    const x = Math.min(1, (t - s.burst.at) / (s.burst.days * DAY_MS));
    f += s.burst.size * x * x * (3 - 2 * x);
  }
  return Math.floor(f);
}

/** Price and sale state at t: the base (or repriced) price, a sale some weeks, off sale some weeks. */
export function priceAt(
  seed: number,
  s: CatalogItemSpec,
  t: number,
): { price: number | null; onSale: boolean } {
  if (s.offSaleFrom !== null && t >= s.offSaleFrom) return { price: null, onSale: false };
  const week = Math.floor((t - s.launchAt) / WEEK_MS);
  if (week > 0 && uniform(seed, s.index, 301, week) < 0.03) return { price: null, onSale: false };
  let price = s.reprice && t >= s.reprice.at ? Math.round(s.basePrice * s.reprice.factor) : s.basePrice;
  if (week > 0 && price > 0 && uniform(seed, s.index, 302, week) < 0.08) {
    price = Math.max(1, Math.round(price * pick([0.5, 0.6, 0.75, 0.8], uniform(seed, s.index, 303, week))));
  }
  return { price, onSale: true };
}

export interface SimulatedCatalog extends CatalogSource {
  readonly items: readonly CatalogItemSpec[];
  itemAt(ref: CatalogRef, t: Date): CatalogItem | undefined;
}

export function createSimulatedCatalog(options: { seed: number; shape?: CatalogShape }): SimulatedCatalog {
  const { seed } = options;
  const items = buildCatalog(seed, options.shape ?? DEFAULT_CATALOG_SHAPE);
  const byKey = new Map(items.map((s) => [refKey(s.ref), s]));

  function itemAt(ref: CatalogRef, now: Date): CatalogItem | undefined {
    const t = now.getTime();
    const s = byKey.get(refKey(ref));
    if (!s || s.launchAt > t) return undefined;
    const { price, onSale } = priceAt(seed, s, t);
    return {
      ...s.ref,
      name: s.name,
      category: s.category,
      creator: s.creator,
      price,
      onSale,
      favorites: favoritesAt(s, t),
      created: new Date(s.launchAt),
    };
  }

  return {
    name: 'simulated',
    replaysPast: true,
    items,
    itemAt,
    async discover(now) {
      const t = now.getTime();
      return items.filter((s) => s.launchAt <= t).map((s) => s.ref);
    },
    async getItems(refs, now): Promise<CatalogFetch> {
      const found = new Map<string, CatalogItem>();
      const failed: CatalogRef[] = [];
      for (const r of refs) {
        const item = itemAt(r, now);
        if (item) found.set(refKey(r), item);
        else failed.push(r);
      }
      return { items: found, failed };
    },
  };
}
