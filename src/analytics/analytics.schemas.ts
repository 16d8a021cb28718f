/**
 * Schemas shared by every SDK analytics endpoint: the game path, the range query, the fields each
 * view answers with, and the team's games. Each view's own fields are in views/<view>.view.ts.
 */
import { type Static, type TObject, type TProperties, Type } from 'typebox';
import { Id, OneOf } from '../http/schemas.js';
import { PLATFORMS } from '../ingest/index.js';

const Day = (description: string) => Type.String({ format: 'date', description });

export const GameParams = Type.Object({
  game_id: Type.String({ minLength: 1, maxLength: 64, description: 'The platform-native game id.' }),
});
export type GameParamsT = Static<typeof GameParams>;

export const AnalyticsQuery = Type.Object({
  from: Type.Optional(Day('First UTC day, included (default: 29 days before `to`).')),
  to: Type.Optional(Day('Last UTC day, included (default: today).')),
  platform: Type.Optional(OneOf(PLATFORMS, { description: 'Only this platform (default: all combined).' })),
  segment: Type.Optional(Id('Only the players of this segment (GET /api/sdk/segments).')),
  granularity: Type.Optional(
    OneOf(['day', 'week'] as const, {
      default: 'day',
      description: 'Series points per UTC day, or per ISO week (Monday first).',
    }),
  ),
});
export type AnalyticsQueryT = Static<typeof AnalyticsQuery>;

/** The fields every view answers with, before its own. */
export const viewHeader = {
  game_id: Type.String(),
  platform: Type.Union([OneOf(PLATFORMS), Type.Null()], { description: 'null: every platform combined.' }),
  from: Day('First day read (after the plan clamp).'),
  to: Day('Last day read.'),
  granularity: OneOf(['day', 'week'] as const),
  segment: Type.Union([Type.Integer(), Type.Null()]),
  history_limited_from: Type.Union([Day('The earliest day the plan reads.'), Type.Null()], {
    description: 'Set when the plan’s history limit moved `from` later.',
  }),
};

/** A view's response: the header fields, then its own. */
export function viewResponse<P extends TProperties>(id: string, own: P, description: string) {
  return Type.Object(
    { ...viewHeader, ...own },
    { $id: id, title: id, description, additionalProperties: false },
  );
}
export type ViewHeader = Static<TObject<typeof viewHeader>>;

export const SdkGame = Type.Object({
  platform: OneOf(PLATFORMS),
  game_id: Type.String(),
  first_seen: Day('First UTC day with events.'),
  last_seen: Day('Last UTC day with events.'),
  events_24h: Type.Integer({ description: 'Events with a ts in the last 24 hours.' }),
  players_24h: Type.Integer({ description: 'Distinct players among them.' }),
});

export const SdkGames = Type.Object(
  { games: Type.Array(SdkGame) },
  { $id: 'SdkGames', title: 'SdkGames', additionalProperties: false },
);
export type SdkGamesT = Static<typeof SdkGames>;
