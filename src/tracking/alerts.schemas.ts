/** TypeBox schemas of the alert endpoints; field names exactly as spec/interface.md §2 spells them. */
import { type Static, Type } from 'typebox';
import { Id } from '../http/schemas.js';
import { ALERT_TYPES, THRESHOLDS } from './rules.js';

const TYPE_MEANINGS: Record<(typeof ALERT_TYPES)[number], string> = {
  ccu_spike: 'the game’s CCU is at or above `threshold`',
  ccu_drop: 'the game’s CCU is at or below `threshold`',
  trend_change:
    'the game’s 24 h trend direction flips (the trend score of GET /api/trending?period=24h; a direction counts only when |trend_score| ≥ `threshold`, and the first one seen is the reference)',
  competitor:
    'another game of the same genre overtakes the game (more CCU) or reaches `threshold` CCU; games already past that line when the rule is first evaluated are the baseline',
  rank_change:
    'the game’s rank by CCU within its genre moves by `threshold` places or more from the rank at the first evaluation (then from the rank at the last firing)',
};

export const ALERT_TYPES_DESCRIPTION = ALERT_TYPES.map(
  (t) => `- \`${t}\`: fires when ${TYPE_MEANINGS[t]}. threshold: ${THRESHOLDS[t].meaning}.`,
).join('\n');

const AlertType = Type.Enum([...ALERT_TYPES], {
  description: 'The alert type (see the operation description)',
});
const GameId = Type.Integer({ description: 'Universe id of the game the rule watches' });
const Threshold = Type.Number({ description: 'The rule’s threshold (its meaning depends on `type`)' });
const CreatedAt = Type.String({
  format: 'date-time',
  description: 'When the rule was created (UTC, ISO 8601)',
});

export const CreateAlertBody = Type.Object({
  game_id: Id('Universe id of a game in the catalogue (it need not be tracked)'),
  type: AlertType,
  threshold: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'Required for ccu_spike, ccu_drop and competitor; defaults: trend_change 10, rank_change 3',
    }),
  ),
});

export const CreatedAlert = Type.Object(
  { id: Type.Integer(), game_id: GameId, type: AlertType, threshold: Threshold, created_at: CreatedAt },
  { $id: 'CreatedAlert', title: 'CreatedAlert', additionalProperties: false },
);

export const ListedAlert = Type.Object(
  {
    id: Type.Integer(),
    message: Type.String({
      description:
        'Before the rule first fires, what it watches ("Watching Blox Fruits for CCU at or above 450,000"); ' +
        'after, what happened last ("Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC")',
    }),
    type: AlertType,
    viewed: Type.Boolean({
      description: 'false when created and after each firing; set with PATCH or POST /api/alerts/viewed',
    }),
    created_at: CreatedAt,
    game_id: GameId,
    threshold: Threshold,
    last_fired_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the rule last fired (UTC, ISO 8601); null until it first fires',
    }),
  },
  { $id: 'Alert', title: 'Alert', additionalProperties: false },
);

export const AlertList = Type.Object(
  {
    alerts: Type.Array(Type.Ref('Alert'), {
      description: 'The caller’s rules, newest first, viewed and unviewed',
    }),
  },
  { additionalProperties: false },
);

export const AlertParams = Type.Object({
  alert_id: Id('Alert id'),
});

export const AlertPatchBody = Type.Object({
  viewed: Type.Optional(Type.Boolean({ description: 'The new viewed flag' })),
  threshold: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'The new threshold, checked per type exactly as at creation (ccu_spike, ccu_drop, competitor ≥ 0; ' +
        'trend_change 0..100; rank_change a whole number ≥ 1)',
    }),
  ),
});

export const ViewedAll = Type.Object(
  {
    status: Type.Literal('viewed'),
    count: Type.Integer({ minimum: 0, description: 'Rules that were unviewed and are now viewed' }),
  },
  { additionalProperties: false },
);

export const Deleted = Type.Object({ status: Type.Literal('deleted') }, { additionalProperties: false });

export const EVENTS_LIMIT_DEFAULT = 100;
export const EVENTS_LIMIT_MAX = 1000;

export const EventsQuery = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: EVENTS_LIMIT_MAX,
    default: EVENTS_LIMIT_DEFAULT,
    description: 'Most recent firings to return',
  }),
});

export const AlertEvents = Type.Object(
  {
    events: Type.Array(
      Type.Object(
        {
          fired_at: Type.String({
            format: 'date-time',
            description: 'When the engine saw the crossing (UTC)',
          }),
          message: Type.String({ description: 'What happened, as the list showed it' }),
          details: Type.Object(
            {},
            {
              additionalProperties: true,
              description:
                'The figures behind the message: universe_id, name, genre, threshold and, per type, ccu; ' +
                'trend_score, direction, previous_direction; previous_rank, rank; competitors [{universe_id, name, ccu, reason}]',
            },
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest first' },
    ),
  },
  { additionalProperties: false },
);

export const alertSchemas = [CreatedAlert, ListedAlert];

export type CreateAlertBodyT = Static<typeof CreateAlertBody>;
export type AlertPatchBodyT = Static<typeof AlertPatchBody>;
export type CreatedAlertT = Static<typeof CreatedAlert>;
export type ListedAlertT = Static<typeof ListedAlert>;
export type AlertEventsT = Static<typeof AlertEvents>;
export type ViewedAllT = Static<typeof ViewedAll>;
export type DeletedT = Static<typeof Deleted>;
