/** TypeBox schemas of the SDK ingest endpoints (validation, serialisation and OpenAPI in one). */
import { type Static, Type } from 'typebox';

export const MAX_BATCH = 500;

export const IngestBody = Type.Object({
  api_key: Type.String({ description: 'An API key with scope sdk:ingest or ingest:telemetry.' }),
  events: Type.Array(Type.Unknown(), {
    minItems: 1,
    maxItems: MAX_BATCH,
    description: 'SDK events (interface §6); each is validated on its own.',
  }),
});

export const IngestErrorItem = Type.Object(
  {
    index: Type.Integer({ description: 'Position of the event in `events`.' }),
    event_id: Type.Union([Type.String(), Type.Null()]),
    field: Type.String({ description: 'The field at fault (e.g. `payload.price`); empty when none is.' }),
    code: Type.String({
      description: 'e.g. required, too_long, personal_data, unknown_type, out_of_range, quota_exceeded.',
    }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const IngestResponse = Type.Object(
  {
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    deduped: Type.Integer(),
    errors: Type.Array(IngestErrorItem),
  },
  { $id: 'IngestResponse', title: 'IngestResponse', additionalProperties: false },
);
export type IngestResponseBody = Static<typeof IngestResponse>;

export const RecentQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

export const RecentEvent = Type.Object(
  {
    event_id: Type.String(),
    type: Type.String(),
    platform: Type.String(),
    game_id: Type.String(),
    player_id: Type.String(),
    session_id: Type.Union([Type.String(), Type.Null()]),
    ts: Type.String({ format: 'date-time' }),
    received_at: Type.String({ format: 'date-time' }),
    country: Type.Union([Type.String(), Type.Null()]),
    sdk_version: Type.Union([Type.String(), Type.Null()]),
    payload: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: false },
);

export const RecentEvents = Type.Object(
  { events: Type.Array(RecentEvent) },
  { $id: 'RecentSdkEvents', title: 'RecentSdkEvents', additionalProperties: false },
);
export type RecentEventsBody = Static<typeof RecentEvents>;

export const ingestSchemas = [IngestResponse, RecentEvents];
