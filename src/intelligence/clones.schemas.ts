import { type Static, Type } from 'typebox';
import { LimitCap, NextCursor, PageCursor, PageLimit } from '../http/pages.js';
import { Id, Nullable } from '../http/schemas.js';
import { GenreFilter } from '../market/index.js';

const PairGame = Type.Object({
  place_id: Type.Integer(),
  universe_id: Type.Integer(),
  name: Type.String(),
  creator: Type.String(),
  genre: Type.String(),
  ccu: Nullable(Type.Integer({ description: 'Latest reading; null before the first.' })),
  created_at: Nullable(Type.String({ format: 'date-time' })),
});

export const ClonePair = Type.Object(
  {
    original: PairGame,
    clone: PairGame,
    evidence: Type.Object({
      similarity: Type.Number({ description: 'The higher of the name and description similarity, 0.8–1.' }),
      name_similarity: Type.Number({ description: 'Jaccard similarity of the clone keys’ trigrams, 0–1.' }),
      description_similarity: Nullable(
        Type.Number({ description: 'Of the descriptions without the own names; null when not comparable.' }),
      ),
      same_creator: Type.Boolean({ description: 'The same Roblox user or group made both.' }),
      creation_gap_days: Nullable(
        Type.Number({ description: 'Days from the original’s creation to the clone’s; null when unknown.' }),
      ),
    }),
    detected_at: Type.String({ format: 'date-time', description: 'When detection first found the pair.' }),
  },
  { $id: 'ClonePair', title: 'ClonePair' },
);
export type ClonePairT = Static<typeof ClonePair>;

export const GameClonesQuery = Type.Object({
  place_id: Id('The game’s root place id.'),
  limit: PageLimit('Pairs'),
  cursor: PageCursor,
});
export type GameClonesQueryT = Static<typeof GameClonesQuery>;

export const GameClonesResponse = Type.Object({
  game: PairGame,
  total: Type.Integer({ description: 'Stored pairs the game is in.' }),
  pairs: Type.Array(Type.Ref('ClonePair'), {
    description: 'Pairs where the game is the original or the clone, most similar first; paged.',
  }),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String(),
});
export type GameClonesResponseT = Static<typeof GameClonesResponse>;

export const RecentClonesQuery = Type.Object({
  genre: GenreFilter,
  days: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 30,
    description: 'Pairs first detected in the last this many days.',
  }),
  limit: PageLimit('Pairs'),
  cursor: PageCursor,
});
export type RecentClonesQueryT = Static<typeof RecentClonesQuery>;

export const RecentClonesResponse = Type.Object({
  genre: Nullable(Type.String()),
  since: Type.String({ format: 'date-time' }),
  pairs: Type.Array(Type.Ref('ClonePair'), { description: 'Newest detection first; paged.' }),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String(),
});
export type RecentClonesResponseT = Static<typeof RecentClonesResponse>;

/** Shared schemas the routes reference by $id (components in /openapi.json). */
export const cloneSchemas = [ClonePair];
