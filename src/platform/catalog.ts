/**
 * Where avatar-item (UGC catalog) data comes from. Two sources implement CatalogSource, beside the
 * games' PlatformSource and chosen by the same PLATFORM_SOURCE: the simulated catalog (the
 * default, a pure function of seed and time) and the public Roblox catalog web APIs. The UGC
 * collector only talks to this interface.
 *
 * As for games: an item that could not be read is ABSENT from the result (listed in `failed`),
 * never a zero price or zero favourites.
 */
export type CatalogItemType = 'Asset' | 'Bundle';

/** An item as the catalog names it: asset ids and bundle ids are separate id spaces. */
export interface CatalogRef {
  itemType: CatalogItemType;
  id: number;
}

/** One avatar item (accessory, clothing, bundle …) as the catalog describes it at one moment. */
export interface CatalogItem extends CatalogRef {
  name: string;
  /** Category key (catalog-categories.ts): lower snake case, e.g. `hat`, `jacket`, `bundle_body`. */
  category: string;
  creator: { id: number; name: string; type: 'User' | 'Group' };
  /** Price in Robux while on sale; null when off sale or the catalog states none. */
  price: number | null;
  onSale: boolean;
  /** Favourites (cumulative). */
  favorites: number;
  /** When the item was published; null when the source does not say. */
  created: Date | null;
}

/** The key of a ref in maps and sets: `Asset:123`. */
export const refKey = (r: CatalogRef): string => `${r.itemType}:${r.id}`;

/** What a batch read got: items by refKey, and the refs it could not read (gaps). */
export interface CatalogFetch {
  items: Map<string, CatalogItem>;
  failed: CatalogRef[];
}

export interface CatalogSource {
  readonly name: 'simulated' | 'roblox';
  /** True when readings of past moments can be produced (the simulated catalog). */
  readonly replaysPast: boolean;
  /** Items worth collecting at `now` (search pages / the whole simulated catalog). */
  discover(now: Date, signal?: AbortSignal): Promise<CatalogRef[]>;
  /** Item details for any number of refs, batched inside; keyed by refKey. */
  getItems(refs: readonly CatalogRef[], now: Date, signal?: AbortSignal): Promise<CatalogFetch>;
  close?(): Promise<void>;
}
