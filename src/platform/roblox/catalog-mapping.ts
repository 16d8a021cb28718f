/**
 * Typed mapping of the Roblox catalog web-API bodies the UGC catalog source relies on (fixtures in
 * test/fixtures/roblox-catalog): search pages (`GET /v1/search/items`) and the batch details
 * (`POST /v1/catalog/items/details`). Pure: no I/O. Every used field is checked; an item that fails
 * a check, or that the answer does not mention, is a failure of its ref (a gap), never a zero.
 */
import {
  type CatalogFetch,
  type CatalogItem,
  type CatalogItemType,
  type CatalogRef,
  refKey,
} from '../catalog.js';

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isItemType = (v: unknown): v is CatalogItemType => v === 'Asset' || v === 'Bundle';

/** Roblox AssetType ids of avatar items → category keys (catalog-categories.ts). */
export const ASSET_TYPE_CATEGORY: Readonly<Record<number, string>> = {
  2: 'classic_t_shirt',
  8: 'hat',
  11: 'classic_shirt',
  12: 'classic_pants',
  17: 'head',
  18: 'face',
  27: 'body_part',
  28: 'body_part',
  29: 'body_part',
  30: 'body_part',
  31: 'body_part',
  41: 'hair',
  42: 'face_accessory',
  43: 'neck',
  44: 'shoulder',
  45: 'front',
  46: 'back',
  47: 'waist',
  48: 'animation',
  50: 'animation',
  51: 'animation',
  52: 'animation',
  53: 'animation',
  54: 'animation',
  55: 'animation',
  61: 'emote',
  64: 't_shirt',
  65: 'shirt',
  66: 'pants',
  67: 'jacket',
  68: 'sweater',
  69: 'shorts',
  70: 'shoes',
  71: 'shoes',
  72: 'dress_skirt',
  76: 'face_accessory',
  77: 'face_accessory',
  79: 'head',
};

/** Bundle types, by id (the details batch) or name (the bundle endpoints) → category keys. */
export const BUNDLE_TYPE_CATEGORY: Readonly<Record<string, string>> = {
  1: 'bundle_body',
  2: 'bundle_animation',
  3: 'bundle_shoes',
  4: 'bundle_head',
  5: 'bundle_body',
  BodyParts: 'bundle_body',
  AvatarAnimations: 'bundle_animation',
  Animations: 'bundle_animation',
  Shoes: 'bundle_shoes',
  DynamicHead: 'bundle_head',
  DynamicHeadAvatar: 'bundle_body',
};

export function categoryOf(item: Rec): string {
  if (item.itemType === 'Bundle') return BUNDLE_TYPE_CATEGORY[String(item.bundleType)] ?? 'other';
  return typeof item.assetType === 'number' ? (ASSET_TYPE_CATEGORY[item.assetType] ?? 'other') : 'other';
}

/**
 * Price and sale state: off sale when the item says so (`isOffSale`, `priceStatus` "Off Sale" or
 * "No Resellers"), free when `priceStatus` is "Free" (or the price is 0), else its `price` in
 * Robux; undefined when an on-sale item states no usable price.
 */
export function saleOf(item: Rec): { price: number | null; onSale: boolean } | undefined {
  const status = typeof item.priceStatus === 'string' ? item.priceStatus : undefined;
  if (item.isOffSale === true || status === 'Off Sale' || status === 'No Resellers') {
    return { price: null, onSale: false };
  }
  if (status === 'Free') return { price: 0, onSale: true };
  if (isCount(item.price)) return { price: item.price, onSale: true };
  return undefined;
}

/** One item of the details batch's `data`; undefined when a used field is missing or malformed. */
export function mapCatalogItem(raw: unknown): CatalogItem | undefined {
  if (!isRecord(raw)) return undefined;
  const { id, itemType, name, creatorTargetId, creatorName, creatorType, favoriteCount } = raw;
  if (!isId(id) || !isItemType(itemType) || typeof name !== 'string') return undefined;
  if (!isId(creatorTargetId) || typeof creatorName !== 'string') return undefined;
  if (creatorType !== 'User' && creatorType !== 'Group') return undefined;
  if (!isCount(favoriteCount)) return undefined;
  const sale = saleOf(raw);
  if (!sale) return undefined;
  // The batch states no publication date; a later shape may (`itemCreatedUtc`): take it when valid.
  const created = typeof raw.itemCreatedUtc === 'string' ? new Date(raw.itemCreatedUtc) : null;
  return {
    itemType,
    id,
    name,
    category: categoryOf(raw),
    creator: { id: creatorTargetId, name: creatorName, type: creatorType },
    price: sale.price,
    onSale: sale.onSale,
    favorites: favoriteCount,
    created: created && !Number.isNaN(created.getTime()) ? created : null,
  };
}

/** A details batch answer for `asked`: the items it gave, every other asked ref failed. */
export function mapCatalogDetails(body: unknown, asked: readonly CatalogRef[]): CatalogFetch {
  const items = new Map<string, CatalogItem>();
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  const wanted = new Set(asked.map(refKey));
  for (const raw of data) {
    const item = mapCatalogItem(raw);
    if (item && wanted.has(refKey(item))) items.set(refKey(item), item);
  }
  return { items, failed: asked.filter((r) => !items.has(refKey(r))) };
}

/** One search page: the refs it lists (malformed entries skipped) and the next page's cursor. */
export function mapSearchPage(body: unknown): { refs: CatalogRef[]; nextCursor: string | null } | undefined {
  if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
  const refs: CatalogRef[] = [];
  for (const raw of body.data) {
    if (isRecord(raw) && isId(raw.id) && isItemType(raw.itemType))
      refs.push({ itemType: raw.itemType, id: raw.id });
  }
  const next = body.nextPageCursor;
  return { refs, nextCursor: typeof next === 'string' && next !== '' ? next : null };
}
