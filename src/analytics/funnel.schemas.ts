/**
 * POST /api/sdk/analytics/{game_id}/funnel: the steps asked for and the players who went through
 * them. The query string is a view's (from, to, platform, segment).
 */
import { type Static, Type } from 'typebox';
import { AnalyticsQuery, viewResponse } from './analytics.schemas.js';
import { Condition, MAX_CONDITIONS } from './conditions.js';

export const MIN_STEPS = 2;
export const MAX_STEPS = 10;
export const MAX_WINDOW_HOURS = 720;
export const DEFAULT_WINDOW_HOURS = 24;

export const FunnelQuery = Type.Omit(AnalyticsQuery, ['granularity']);
export type FunnelQueryT = Static<typeof FunnelQuery>;

export const FunnelStep = Type.Object(
  {
    level: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'A `level` event with this payload.level, whatever its result.',
      }),
    ),
    custom: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'A `custom` event with this payload.name.' }),
    ),
    where: Type.Optional(
      Type.Array(Condition, {
        minItems: 1,
        maxItems: MAX_CONDITIONS,
        description: 'Further conditions the event must meet, all of them (as in segments).',
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of level and custom.' },
);
export type FunnelStepT = Static<typeof FunnelStep>;

export const FunnelBody = Type.Object(
  {
    steps: Type.Array(FunnelStep, { minItems: MIN_STEPS, maxItems: MAX_STEPS }),
    window_hours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_WINDOW_HOURS,
        default: DEFAULT_WINDOW_HOURS,
        description: 'Every later step must happen within this many hours of the player’s first step.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FunnelBodyT = Static<typeof FunnelBody>;

const Share = (description: string) =>
  Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description });

export const FunnelResult = viewResponse(
  'SdkFunnel',
  {
    window_hours: Type.Integer(),
    steps: Type.Array(
      Type.Object({
        index: Type.Integer({
          minimum: 0,
          description: 'The step’s position in the request’s steps, from 0.',
        }),
        label: Type.String({ description: '`level <n>` or the custom event’s name (conditions not shown).' }),
        players: Type.Integer({ description: 'Players who reached this step.' }),
        conversion_from_first: Share(
          'players / the first step’s players (4 decimals); null when nobody reached it.',
        ),
        conversion_from_previous: Share(
          'players / the previous step’s players (4 decimals); null on the first step or after an empty step.',
        ),
        median_seconds_from_previous: Type.Union([Type.Number(), Type.Null()], {
          description:
            'Exact median of the seconds from the previous step’s event to this one, over the players who ' +
            'reached it (2 decimals); null on the first step or when nobody reached it.',
        }),
      }),
    ),
  },
  'How many players went through the steps in order, within the window of their first step.',
);
export type FunnelResultT = Static<typeof FunnelResult>;
