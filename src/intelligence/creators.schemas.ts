import { type Static, Type } from 'typebox';
import { LimitCap, NextCursor, PageCursor, PageLimit } from '../http/pages.js';
import { Id, Nullable, OneOf } from '../http/schemas.js';

export const CreatorParams = Type.Object({ creator_id: Id('The creator’s Roblox user or group id.') });

export const CreatorQuery = Type.Object({
  type: OneOf(['user', 'group'] as const, {
    default: 'user',
    description: 'user or group: Roblox users and groups have separate id spaces.',
  }),
  days: Type.Integer({
    minimum: 7,
    maximum: 365,
    default: 90,
    description: 'The history, launches and updates cover the last this many days.',
  }),
  limit: PageLimit('Games'),
  cursor: PageCursor,
});
export type CreatorQueryT = Static<typeof CreatorQuery>;

const Day = Type.String({ format: 'date' });

export const CreatorResponse = Type.Object({
  creator: Type.Object({
    id: Type.Integer(),
    type: OneOf(['User', 'Group'] as const),
    name: Type.String({ description: 'The name on its busiest game.' }),
  }),
  since: Day,
  games_total: Type.Integer({ description: 'Games of the creator the service collects.' }),
  total_ccu: Type.Integer({ description: 'Σ of their latest CCU readings.' }),
  total_visits: Type.Integer({ description: 'Σ of their latest visit counts.' }),
  games: Type.Array(
    Type.Object({
      place_id: Type.Integer(),
      universe_id: Type.Integer(),
      name: Type.String(),
      genre: Type.String(),
      ccu: Nullable(Type.Integer({ description: 'Latest reading; null before the first.' })),
      visits: Nullable(Type.Integer()),
      share_of_ccu: Type.Number({ description: 'ccu / total_ccu, 0–1 (0 when total_ccu is 0).' }),
      created_at: Nullable(Type.String({ format: 'date-time' })),
      updated_at: Nullable(Type.String({ format: 'date-time' })),
    }),
    { description: 'Busiest first (latest CCU), games without a reading last; paged.' },
  ),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  history: Type.Array(
    Type.Object({
      day: Day,
      ccu: Type.Number({ description: 'Σ of the games’ daily mean CCU.' }),
      games: Type.Integer({ description: 'Games with a reading that day.' }),
    }),
    { description: 'The creator’s total, per UTC day since `since`, oldest first.' },
  ),
  game_history: Type.Array(
    Type.Object({
      universe_id: Type.Integer(),
      name: Type.String(),
      days: Type.Array(Type.Object({ day: Day, ccu: Type.Number() })),
    }),
    { description: 'Daily mean CCU of the 10 busiest games, busiest first.' },
  ),
  launches: Type.Array(
    Type.Object({
      place_id: Type.Integer(),
      name: Type.String(),
      genre: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
      ccu: Nullable(Type.Integer()),
    }),
    { description: 'Games created since `since`, newest first.' },
  ),
  updates: Type.Array(
    Type.Object({ place_id: Type.Integer(), name: Type.String(), update: Type.Ref('UpdateImpact') }),
    { description: 'The 50 newest updates of its games released since `since`, newest first.' },
  ),
  method: Type.String(),
});
export type CreatorResponseT = Static<typeof CreatorResponse>;
