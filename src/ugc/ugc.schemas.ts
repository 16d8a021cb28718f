import { type Static, Type } from 'typebox';
import { LimitCap, NextCursor, PageCursor, PageLimit } from '../http/pages.js';
import { Id, IdParams, Nullable, OneOf } from '../http/schemas.js';
import { CATALOG_CATEGORY_KEYS } from '../platform/index.js';
import { PUBLIC_LIST_CAP } from './scores.js';

const CAP_TEXT = `the public cap, ${PUBLIC_LIST_CAP} for every caller (signed in or not)`;

export const ItemTypeFilter = Type.Optional(
  OneOf(['asset', 'bundle'] as const, {
    description:
      'Asset and bundle ids are separate id spaces: which one `id` is. Without it, the asset with that id, else the bundle.',
  }),
);

export const CreatorRef = Type.Object({
  id: Type.Integer(),
  type: OneOf(['User', 'Group'] as const),
  name: Type.String(),
});

export const UgcItem = Type.Object(
  {
    id: Type.Integer({ description: 'The catalog id (asset id or bundle id, see item_type).' }),
    item_type: OneOf(['asset', 'bundle'] as const),
    name: Type.String(),
    category: Type.String({ description: 'Category key, e.g. `hat`, `jacket`, `bundle_body`.' }),
    category_name: Type.String(),
    creator: CreatorRef,
    price: Nullable(Type.Integer({ description: 'Robux while on sale; null when off sale.' })),
    on_sale: Type.Boolean(),
    favorites: Type.Integer(),
    favorites_gain_24h: Type.Integer(),
    favorites_gain_7d: Type.Integer(),
    trending_score: Type.Number({ description: 'See method; three decimals.' }),
    created_at: Nullable(
      Type.String({ format: 'date-time', description: 'Published, when the catalog says.' }),
    ),
    listed_at: Type.String({
      format: 'date-time',
      description: 'created_at, else when the collector first saw it.',
    }),
    last_seen_at: Type.String({ format: 'date-time', description: 'The collector’s latest reading.' }),
  },
  { $id: 'UgcItem', title: 'UgcItem' },
);
export type UgcItemT = Static<typeof UgcItem>;

export const ItemsQuery = Type.Object({
  category: Type.Optional(
    OneOf(CATALOG_CATEGORY_KEYS, { description: 'Only items of this category key (422 for another key).' }),
  ),
  sort: OneOf(['trending', 'new', 'price', 'favorites'] as const, {
    default: 'trending',
    description:
      'trending: trending_score first; new: newest first; price: on sale, cheapest first; favorites: most first.',
  }),
  limit: PageLimit('Items', 200, CAP_TEXT),
  cursor: PageCursor,
});
export type ItemsQueryT = Static<typeof ItemsQuery>;

export const ItemsResponse = Type.Object({
  category: Nullable(Type.String()),
  sort: Type.String(),
  items: Type.Array(Type.Ref('UgcItem')),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  computed_at: Nullable(
    Type.String({ format: 'date-time', description: 'The collection these figures come from.' }),
  ),
  method: Type.String({ description: 'The order and how trending_score is computed.' }),
});
export type ItemsResponseT = Static<typeof ItemsResponse>;

export const ItemParams = IdParams('Asset or bundle id.');
export const ItemQuery = Type.Object({
  type: ItemTypeFilter,
  days: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 90,
    description: 'Days of daily history (UTC days).',
  }),
});
export type ItemQueryT = Static<typeof ItemQuery>;

export const ItemResponse = Type.Object({
  item: Type.Ref('UgcItem'),
  price_history: Type.Array(
    Type.Object({
      day: Type.String({ format: 'date' }),
      price: Nullable(Type.Integer({ description: 'The day’s last reading; null when off sale then.' })),
      price_min: Nullable(Type.Integer()),
      price_max: Nullable(Type.Integer()),
      on_sale: Type.Boolean({ description: 'The day’s last reading.' }),
    }),
    { description: 'One point per UTC day with readings, oldest first.' },
  ),
  favorites_history: Type.Array(
    Type.Object({
      day: Type.String({ format: 'date' }),
      favorites: Type.Integer({ description: 'The day’s last reading.' }),
    }),
    { description: 'One point per UTC day with readings, oldest first.' },
  ),
  method: Type.String(),
});
export type ItemResponseT = Static<typeof ItemResponse>;

const RisingFields = {
  items: Type.Integer(),
  new_items_7d: Type.Integer({ description: 'Items listed in the last 7 days.' }),
  favorites_gain_7d: Type.Integer(),
  favorites_gain_prev_7d: Type.Integer(),
  growth_percent: Type.Number(),
  avg_price: Nullable(Type.Integer({ description: 'Mean price of its items on sale, Robux.' })),
};

export const TrendsResponse = Type.Object({
  computed_at: Nullable(
    Type.String({
      format: 'date-time',
      description: 'The collection these come from; null before the first.',
    }),
  ),
  compared_days: Type.Object({
    day_7: Type.String({ format: 'date' }),
    day_14: Type.String({ format: 'date' }),
  }),
  categories: Type.Array(Type.Object({ category: Type.String(), name: Type.String(), ...RisingFields }), {
    description: 'Every category with items, rising first.',
  }),
  price_bands: Type.Array(
    Type.Object({
      band: Type.String(),
      min_price: Type.Integer(),
      max_price: Nullable(Type.Integer()),
      ...RisingFields,
    }),
    { description: 'Every price band with items on sale, rising first.' },
  ),
  creators: Type.Array(Type.Object({ creator: CreatorRef, ...RisingFields }), {
    description: 'Up to 20 rising creators.',
  }),
  method: Type.String(),
});
export type TrendsResponseT = Static<typeof TrendsResponse>;

export const CreatorParams = Type.Object({ id: Id('User or group id.') });
export const CreatorQuery = Type.Object({
  type: Type.Optional(
    OneOf(['user', 'group'] as const, {
      description:
        'User and group ids are separate id spaces. Without it, the user with that id, else the group.',
    }),
  ),
  limit: PageLimit('Items', 200, CAP_TEXT),
  cursor: PageCursor,
});
export type CreatorQueryT = Static<typeof CreatorQuery>;

export const CreatorResponse = Type.Object({
  creator: CreatorRef,
  items_count: Type.Integer(),
  on_sale_count: Type.Integer(),
  favorites: Type.Integer({ description: 'Over all its items.' }),
  favorites_gain_24h: Type.Integer(),
  favorites_gain_7d: Type.Integer(),
  first_listed_at: Type.String({ format: 'date-time' }),
  last_listed_at: Type.String({ format: 'date-time' }),
  items: Type.Array(Type.Ref('UgcItem'), { description: 'Most favourited first.' }),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String(),
});
export type CreatorResponseT = Static<typeof CreatorResponse>;

export const ugcSchemas = [UgcItem];
