import { type Static, Type } from 'typebox';
import { LimitCap, NextCursor, PageCursor, PageLimit } from '../http/pages.js';
import { Id, Nullable, OneOf } from '../http/schemas.js';

const GameFollow = Type.Object(
  {
    kind: Type.Literal('game'),
    place_id: Id('The game’s place id.'),
  },
  { additionalProperties: false },
);
const CreatorFollow = Type.Object(
  {
    kind: Type.Literal('creator'),
    creator_type: OneOf(['user', 'group'] as const, {
      description: 'Roblox users and groups have separate id spaces.',
    }),
    creator_id: Id('The creator’s user or group id.'),
  },
  { additionalProperties: false },
);
export const FollowBody = Type.Union([GameFollow, CreatorFollow], {
  description: 'A game (by place id) or a creator (a user or group id).',
});
export type FollowBodyT = Static<typeof FollowBody>;

export const UnfollowQuery = Type.Object({
  kind: OneOf(['game', 'creator'] as const),
  place_id: Type.Optional(Id('With kind=game.')),
  creator_type: Type.Optional(OneOf(['user', 'group'] as const, { description: 'With kind=creator.' })),
  creator_id: Type.Optional(Id('With kind=creator.')),
});
export type UnfollowQueryT = Static<typeof UnfollowQuery>;

export const Follow = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('game'),
      place_id: Type.Integer(),
      universe_id: Type.Integer(),
      name: Nullable(Type.String()),
      since: Type.String({ format: 'date-time' }),
    }),
    Type.Object({
      kind: Type.Literal('creator'),
      creator_type: OneOf(['user', 'group'] as const),
      creator_id: Type.Integer(),
      name: Nullable(Type.String({ description: 'The creator name on its busiest collected game.' })),
      since: Type.String({ format: 'date-time' }),
    }),
  ],
  { $id: 'Follow', title: 'Follow' },
);
export type FollowT = Static<typeof Follow>;

export const FollowsResponse = Type.Object({
  follows: Type.Array(Type.Ref('Follow'), { description: 'Newest first.' }),
  limit: Type.Integer({ description: 'How many your plan may follow.' }),
});
export type FollowsResponseT = Static<typeof FollowsResponse>;

export const FeedQuery = Type.Object({ limit: PageLimit('Items'), cursor: PageCursor });
export type FeedQueryT = Static<typeof FeedQuery>;

export const FEED_KINDS = [
  'launch',
  'update',
  'ccu_record',
  'top100_entry',
  'genre_top10_entry',
  'clone',
] as const;

export const FeedItem = Type.Object({
  id: Type.Integer(),
  kind: OneOf(FEED_KINDS),
  occurred_at: Type.String({
    format: 'date-time',
    description: 'launch: the creation date; update: the new `updated` time; others: when it was seen.',
  }),
  detected_at: Type.String({ format: 'date-time', description: 'When the collector saw it.' }),
  game: Type.Object({
    place_id: Type.Integer(),
    universe_id: Type.Integer(),
    name: Type.String(),
    genre: Type.String(),
    creator: Type.Object({
      id: Nullable(Type.Integer()),
      type: OneOf(['User', 'Group'] as const),
      name: Type.String(),
    }),
  }),
  reasons: Type.Array(OneOf(['follows_game', 'follows_creator', 'clone_of_tracked_game'] as const), {
    description: 'Why the item is in your feed.',
  }),
  message: Type.String({ description: 'One sentence a person can read.' }),
  details: Type.Object({
    ccu: Nullable(
      Type.Integer({ description: 'launch: CCU when seen; ccu_record: the record; rank entries: CCU.' }),
    ),
    previous_record: Nullable(Type.Integer({ description: 'ccu_record: the record it beat.' })),
    rank: Nullable(Type.Integer({ description: 'top100_entry / genre_top10_entry: the rank entered at.' })),
    similarity: Nullable(Type.Number({ description: 'clone: similarity to the original, 0–1.' })),
    original: Nullable(
      Type.Object(
        { place_id: Type.Integer(), name: Type.String() },
        { description: 'clone: the game it copies.' },
      ),
    ),
  }),
});
export type FeedItemT = Static<typeof FeedItem>;

export const FeedResponse = Type.Object({
  items: Type.Array(FeedItem, { description: 'Newest first.' }),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String(),
});
export type FeedResponseT = Static<typeof FeedResponse>;

export const feedSchemas = [Follow];
