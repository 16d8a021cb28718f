/**
 * The UGC catalog's categories: one key per kind of avatar item, grouped as the Marketplace groups
 * them (accessories, clothing, body, animations, bundles). Both catalog sources map onto these keys.
 */

export interface CatalogCategory {
  key: string;
  name: string;
  group: 'accessories' | 'clothing' | 'body' | 'animations' | 'bundles';
}

export const CATALOG_CATEGORIES: readonly CatalogCategory[] = [
  { key: 'hat', name: 'Hats', group: 'accessories' },
  { key: 'hair', name: 'Hair', group: 'accessories' },
  { key: 'face_accessory', name: 'Face accessories', group: 'accessories' },
  { key: 'neck', name: 'Neck accessories', group: 'accessories' },
  { key: 'shoulder', name: 'Shoulder accessories', group: 'accessories' },
  { key: 'front', name: 'Front accessories', group: 'accessories' },
  { key: 'back', name: 'Back accessories', group: 'accessories' },
  { key: 'waist', name: 'Waist accessories', group: 'accessories' },
  { key: 't_shirt', name: 'T-shirts', group: 'clothing' },
  { key: 'shirt', name: 'Shirts', group: 'clothing' },
  { key: 'pants', name: 'Pants', group: 'clothing' },
  { key: 'jacket', name: 'Jackets', group: 'clothing' },
  { key: 'sweater', name: 'Sweaters', group: 'clothing' },
  { key: 'shorts', name: 'Shorts', group: 'clothing' },
  { key: 'dress_skirt', name: 'Dresses & skirts', group: 'clothing' },
  { key: 'shoes', name: 'Shoes', group: 'clothing' },
  { key: 'classic_t_shirt', name: 'Classic T-shirts', group: 'clothing' },
  { key: 'classic_shirt', name: 'Classic shirts', group: 'clothing' },
  { key: 'classic_pants', name: 'Classic pants', group: 'clothing' },
  { key: 'head', name: 'Heads', group: 'body' },
  { key: 'face', name: 'Faces', group: 'body' },
  { key: 'body_part', name: 'Body parts', group: 'body' },
  { key: 'emote', name: 'Emotes', group: 'animations' },
  { key: 'animation', name: 'Animations', group: 'animations' },
  { key: 'bundle_body', name: 'Body bundles', group: 'bundles' },
  { key: 'bundle_animation', name: 'Animation packs', group: 'bundles' },
  { key: 'bundle_shoes', name: 'Shoe bundles', group: 'bundles' },
  { key: 'bundle_head', name: 'Dynamic heads', group: 'bundles' },
  { key: 'other', name: 'Other', group: 'accessories' },
];

export const CATALOG_CATEGORY_KEYS: readonly string[] = CATALOG_CATEGORIES.map((c) => c.key);

export function catalogCategoryName(key: string): string {
  return CATALOG_CATEGORIES.find((c) => c.key === key)?.name ?? key;
}
