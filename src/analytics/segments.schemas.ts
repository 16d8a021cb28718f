/**
 * Segments' API shapes: the create body (a name and a condition set, conditions.ts), a segment as
 * answered, its detail with its current size, and the team's list.
 */
import { type Static, Type } from 'typebox';
import { IdParams, OneOf } from '../http/schemas.js';
import { EVENT_TYPES } from '../ingest/index.js';
import { Condition, ConditionSet } from './conditions.js';

export const MAX_SEGMENTS_PER_TEAM = 100;
/** The days `size` counts, today included. */
export const SIZE_WINDOW_DAYS = 30;

const Day = (description: string) => Type.String({ format: 'date', description });

export const CreateSegmentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    ...ConditionSet,
  },
  { additionalProperties: false },
);
export type CreateSegmentBodyT = Static<typeof CreateSegmentBody>;

export const SegmentIdParams = IdParams('The segment id.');

const segmentFields = {
  id: Type.Integer(),
  name: Type.String(),
  conditions: Type.Array(Condition),
  match: OneOf(['all', 'any'] as const),
  event_type: Type.Union([OneOf(EVENT_TYPES), Type.Null()], { description: 'null: events of any type.' }),
  created_at: Type.String({ format: 'date-time' }),
};

export const SdkSegment = Type.Object(segmentFields, {
  $id: 'SdkSegment',
  title: 'SdkSegment',
  additionalProperties: false,
});
export type SdkSegmentT = Static<typeof SdkSegment>;

export const SdkSegmentDetail = Type.Object(
  {
    ...segmentFields,
    size: Type.Integer({
      description: "Distinct players of the team's games with a matching event in size_window.",
    }),
    size_window: Type.Object(
      { from: Day('First UTC day counted.'), to: Day('Last UTC day counted (today).') },
      { additionalProperties: false },
    ),
  },
  { $id: 'SdkSegmentDetail', title: 'SdkSegmentDetail', additionalProperties: false },
);
export type SdkSegmentDetailT = Static<typeof SdkSegmentDetail>;

// The items spelled out rather than a Ref to SdkSegment: a component referring to another one is
// something the OpenAPI conformance fuzz cannot resolve.
export const SdkSegments = Type.Object(
  { segments: Type.Array(Type.Object(segmentFields, { additionalProperties: false })) },
  { $id: 'SdkSegments', title: 'SdkSegments', additionalProperties: false },
);
export type SdkSegmentsT = Static<typeof SdkSegments>;

/** Registered with app.addSchema before the routes that refer to them. */
export const segmentSchemas = [SdkSegment, SdkSegmentDetail, SdkSegments];
