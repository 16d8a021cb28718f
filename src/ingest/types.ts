/**
 * The shapes shared by ingest validation (validate.ts: envelope, the 15 payload schemas, the
 * personal-data guard) and the ingest pipeline (route, dedupe, quota, queue, writer).
 */

export const EVENT_TYPES = [
  'session_start',
  'session_end',
  'purchase',
  'ad_impression',
  'level',
  'custom',
  'performance',
  'crash',
  'error',
  'brand_zone_enter',
  'brand_zone_exit',
  'equip',
  'share',
  'brand_survey_shown',
  'brand_survey_response',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One rejected event of a batch (DECISIONS §1): never the offending value, so nothing personal reflects back. */
export interface IngestError {
  index: number;
  event_id: string | null;
  /** JSON path of the field at fault, e.g. "payload.price", "event_id", "type". */
  field: string;
  /** Stable snake_case code, e.g. "required", "too_long", "out_of_range", "not_allowed_value", "personal_data", "unknown_type". */
  code: string;
  message: string;
}

/** An event that passed every rule, with defaults applied (payload extra fields preserved). */
export interface ValidEvent {
  event_id: string;
  /** The event's own time; null when omitted (the pipeline fills in the receipt time). */
  ts: Date | null;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string | null;
  type: EventType;
  payload: Record<string, unknown>;
}

export interface ValidatedBatch {
  valid: { index: number; event: ValidEvent }[];
  errors: IngestError[];
}
