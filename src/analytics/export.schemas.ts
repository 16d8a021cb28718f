/** The export's query (GET /api/sdk/export) and the content types it answers with. */
import { type Static, Type } from 'typebox';
import { OneOf } from '../http/schemas.js';
import { PLATFORMS } from '../ingest/index.js';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

const Day = (description: string) => Type.String({ format: 'date', description });

export const ExportQuery = Type.Object({
  game_id: Type.String({ minLength: 1, maxLength: 64, description: 'The platform-native game id.' }),
  from: Type.Optional(Day('First UTC day, included (default: 29 days before `to`).')),
  to: Type.Optional(Day('Last UTC day, included (default: today).')),
  types: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'Comma-separated event types (default: every type), e.g. `purchase,ad_impression`.',
    }),
  ),
  format: Type.Optional(
    OneOf(EXPORT_FORMATS, { default: 'ndjson', description: 'ndjson (one JSON object a line) or csv.' }),
  ),
  platform: Type.Optional(OneOf(PLATFORMS, { description: 'Only this platform (default: all).' })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Resume after this event: base64url of "<ts> <event_id>" (one space) of the last complete row received.',
    }),
  ),
});
export type ExportQueryT = Static<typeof ExportQuery>;
