/**
 * The ingest event schemas of interface.md §6 in TypeBox: one source of truth for the OpenAPI
 * document and for validate.ts, which compiles these objects into per-type checkers once at module
 * load (field-rules.ts). Only keywords that compiler understands appear here: type, minLength,
 * maxLength, pattern, minimum, maximum, enum (as a union of literals), format, default.
 *
 * Choices §6 leaves open (also in validate.ts's header):
 * - lengths count Unicode code points, as JSON Schema and Postgres varchar(n) do;
 * - strings without a stated bound have none (the 1 MB body bounds them), except that a required
 *   identifier with no stated minimum (purchase.sku, custom.name) must not be empty, and
 *   custom.name is at most 128 (it is the low-cardinality key dashboards query on);
 * - session_end.duration_s must be >= 0 (a negative duration would corrupt playtime aggregates);
 * - integers must be safe integers (|n| <= 2^53 - 1), numbers finite;
 * - cohort is a string of at most 16 as stated, not an enum ("exposed"/"control" is its usage);
 * - brand_survey_response.answer must match ANSWER_KEY_PATTERN (a fixed-choice key: no spaces or
 *   sentence punctuation), since §6 says it is never free text;
 * - country is an assigned ISO 3166-1 alpha-2 code, accepted in either case, stored upper-case.
 */
import { type Static, Type } from 'typebox';
import Format from 'typebox/format';
import { OneOf } from '../http/schemas.js';
import { canonicalCountry } from './countries.js';
import { parseUtcTimestamp } from './timestamp.js';
import { EVENT_TYPES, type EventType } from './types.js';

export const COUNTRY_FORMAT = 'iso3166-1-alpha2';
export const UTC_TIMESTAMP_FORMAT = 'svc-utc-timestamp';
// Registered so that TypeBox itself (Value.Check, the route's schemas) agrees with validate.ts.
Format.Set(COUNTRY_FORMAT, (value) => canonicalCountry(value) !== null);
Format.Set(UTC_TIMESTAMP_FORMAT, (value) => parseUtcTimestamp(value) !== null);

export const PLATFORMS = ['platform_1', 'platform_2', 'platform_3', 'platform_4'] as const;

const str = (minLength: number, maxLength?: number) =>
  Type.String(maxLength === undefined ? { minLength } : { minLength, maxLength });
const opt = Type.Optional;
const country = opt(Type.String({ maxLength: 8, format: COUNTRY_FORMAT }));
const safeInt = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
/** brand_survey_response.answer is a fixed-choice key, never free text (§6): what a key can be. */
export const ANSWER_KEY_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9_.:-]*[A-Za-z0-9])?$';

/** The envelope (§6 table). `payload` defaults to {} so all-optional payloads may be omitted. */
export const EnvelopeSchema = Type.Object({
  event_id: str(8, 40),
  ts: opt(Type.String({ format: UTC_TIMESTAMP_FORMAT })),
  platform: OneOf(PLATFORMS),
  game_id: str(1, 64),
  // Required (the table does not call it optional, and every player metric keys on it); an empty
  // id would merge every anonymous player into one, so at least one character.
  player_id: str(1, 128),
  session_id: opt(str(0, 64)),
  type: OneOf(EVENT_TYPES),
  payload: opt(Type.Object({}, { additionalProperties: true })),
});

/** Per-type payloads. Extra fields are allowed (and kept): segment conditions use them. */
export const PAYLOAD_SCHEMAS = {
  session_start: Type.Object({
    device: opt(Type.String()),
    os: opt(Type.String()),
    country,
    membership: opt(Type.String()),
  }),
  session_end: Type.Object({
    duration_s: opt(Type.Number({ minimum: 0 })),
    reason: opt(Type.String()),
    country,
  }),
  purchase: Type.Object({
    sku: str(1),
    name: opt(Type.String()),
    currency: opt(Type.String({ default: 'USD' })),
    price: Type.Number({ minimum: 0 }),
    quantity: opt(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 })),
    source: opt(OneOf(['iap', 'gamepass', 'devproduct', 'subscription'], { default: 'iap' })),
    country,
  }),
  ad_impression: Type.Object({
    format: OneOf(['banner', 'interstitial', 'rewarded', 'native']),
    network: str(1, 64),
    placement: opt(str(0, 64)),
    revenue_usd: Type.Number({ minimum: 0 }),
    ecpm: opt(Type.Number({ minimum: 0 })),
    country,
  }),
  level: Type.Object({
    level: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    score: opt(Type.Integer(safeInt)),
    result: opt(OneOf(['win', 'loss', 'quit', 'complete'], { default: 'complete' })),
  }),
  custom: Type.Object({ name: str(1, 128) }),
  performance: Type.Object({
    fps_avg: Type.Number({ minimum: 0, maximum: 1000 }),
    fps_p5: opt(Type.Number({ minimum: 0, maximum: 1000 })),
    frame_time_ms_p95: opt(Type.Number({ minimum: 0, maximum: 10000 })),
    memory_mb: opt(Type.Number({ minimum: 0 })),
    gpu: opt(str(0, 128)),
    device: opt(str(0, 64)),
  }),
  crash: Type.Object({
    stack_trace: str(1, 16000),
    signature: opt(str(0, 255)),
    build: opt(str(0, 64)),
    os: opt(str(0, 64)),
  }),
  error: Type.Object({
    severity: OneOf(['warn', 'error', 'fatal']),
    message: str(1, 2000),
    source: opt(str(0, 128)),
  }),
  brand_zone_enter: Type.Object({ zone_id: str(1, 64), country }),
  brand_zone_exit: Type.Object({
    zone_id: str(1, 64),
    dwell_seconds: Type.Number({ minimum: 0, maximum: 86400 }),
    country,
  }),
  equip: Type.Object({ item_id: str(1, 64), item_name: opt(str(0, 128)), country }),
  share: Type.Object({ share_platform: str(1, 32), item_id: opt(str(0, 64)), country }),
  brand_survey_shown: Type.Object({ survey_id: str(1, 64), cohort: opt(str(0, 16)), country }),
  brand_survey_response: Type.Object({
    survey_id: str(1, 64),
    answer: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: ANSWER_KEY_PATTERN,
      description:
        'The fixed-choice key of the answer, never free text: letters, digits, _ . : and -, starting and ending ' +
        'with a letter or digit' +
        ` (${ANSWER_KEY_PATTERN}); a space or other punctuation is refused (invalid_format).`,
    }),
    favorable: opt(Type.Boolean()),
    cohort: opt(str(0, 16)),
    country,
  }),
} satisfies Record<EventType, unknown>;

export type PayloadOf<T extends EventType> = Static<(typeof PAYLOAD_SCHEMAS)[T]>;
