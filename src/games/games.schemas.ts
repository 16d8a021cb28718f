/**
 * TypeBox schemas of the games endpoints: one declaration gives validation, serialisation, static
 * types and the OpenAPI document. Field names are exactly the interface's (spec/interface.md §2).
 */
import { type Static, Type } from 'typebox';
import { Id } from '../http/schemas.js';
import { GameIdentity } from '../market/index.js';

/** A trimmed query may not be longer than this (the schema checks the raw length). */
export const SEARCH_Q_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;

const Ccu = Type.Integer({
  minimum: 0,
  description:
    'Concurrent users at the latest successful reading. A game the platform could not read at the ' +
    'last collection keeps its last known value; 0 only for a game that was never read (then `observed_at` is null).',
});

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: SEARCH_Q_MAX,
    description:
      'Words of a game name or creator (case-, accent- and typo-tolerant), or a numeric place id or universe id. ' +
      'Surrounding spaces are ignored; an empty or blank query is refused (422 validation_failed, field `query.q`).',
  }),
  limit: Type.Integer({
    minimum: 1,
    maximum: SEARCH_LIMIT_MAX,
    default: SEARCH_LIMIT_DEFAULT,
    description: 'Results per page.',
  }),
  offset: Type.Integer({
    minimum: 0,
    // Past every safe integer PostgreSQL's bigint OFFSET overflows (it answered 500).
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description:
      'Matches to skip (pagination); past the end the page is empty and `total` still counts every match.',
  }),
});
export type SearchQueryT = Static<typeof SearchQuery>;

export const SearchResult = Type.Object(
  {
    ...GameIdentity,
    ccu: Ccu,
  },
  { $id: 'GameSearchResult', title: 'GameSearchResult', additionalProperties: false },
);
export type SearchResultT = Static<typeof SearchResult>;

export const SearchResponse = Type.Object(
  {
    results: Type.Array(Type.Ref('GameSearchResult'), { description: 'This page of matches, best first' }),
    total: Type.Integer({ minimum: 0, description: 'Number of matches across all pages' }),
  },
  { additionalProperties: false },
);

export const PlaceParams = Type.Object({
  place_id: Id('Root place id of the game'),
});

/** Days of daily history GET /api/game/{place_id}?history=daily answers (today included). */
export const DAILY_HISTORY_DAYS = 30;

export const DetailQuery = Type.Object({
  history: Type.Optional(
    Type.Enum(['hourly', 'daily'], {
      default: 'hourly',
      description: `\`hourly\`: the 24 hourly means of the last day; \`daily\`: the daily means of the last ${DAILY_HISTORY_DAYS} UTC days (today so far included)`,
    }),
  ),
});

const CcuPoint = Type.Object(
  {
    ts: Type.String({
      format: 'date-time',
      description: 'Start of the hour, or of the UTC day with history=daily (ISO 8601)',
    }),
    ccu: Type.Integer({ minimum: 0, description: 'Mean concurrent users over that hour (or day), rounded' }),
  },
  { additionalProperties: false },
);

const MlPrediction = Type.Object(
  {
    trend_score: Type.Union([Type.Number({ minimum: -100, maximum: 100 }), Type.Null()], {
      description:
        '24 h trend, the same score as GET /api/trending?period=24h: 100·tanh(ln((mean hourly CCU over the ' +
        'current hour and the 23 before it + 1) / (mean over the 24 hours before those + 1))), two decimals. ' +
        'null when either window has no reading.',
    }),
    growth_probability: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description:
        "Forecast probability that CCU in 7 days exceeds today's mean CCU. Always null on the Explorer plan " +
        '(and for callers with its data shape); null on every plan until a forecast exists for the game.',
    }),
  },
  { additionalProperties: false },
);

const CloneMatch = Type.Object(
  {
    place_id: Type.Integer({ description: 'Root place id of the look-alike game' }),
    name: Type.String({ description: 'Its name' }),
    creator: Type.String({ description: 'Its creator' }),
    similarity: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'Jaccard index of the character trigrams of the normalised names, or of the descriptions without the games’ own names (listed from 0.8), four decimals',
    }),
  },
  { additionalProperties: false },
);

const Timestamp = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const GameDetail = Type.Object(
  {
    place_id: Type.Integer({ description: 'Root place id' }),
    universe_id: Type.Integer({ description: 'Experience (universe) id; tracking and alerts use it' }),
    name: Type.String({ description: 'Game name' }),
    description: Type.String({ description: 'Game description as the platform shows it (may be empty)' }),
    creator: Type.String({ description: 'Creator (user or group) name' }),
    creator_type: Type.String({ description: '`User` or `Group`' }),
    creator_id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The creator’s user or group id (see creator_type); null when the platform gave none',
    }),
    genre: Type.String({ description: 'Genre key (lower snake case of the Roblox genre_l1 name)' }),
    ccu: Ccu,
    visits: Type.Integer({ minimum: 0, description: 'Total visits (0 until first read)' }),
    likes: Type.Integer({ minimum: 0, description: 'Up-votes (0 until votes were first read)' }),
    dislikes: Type.Integer({ minimum: 0, description: 'Down-votes (0 until votes were first read)' }),
    favorites: Type.Integer({ minimum: 0, description: 'Favourites (0 until first read)' }),
    like_ratio: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'likes / (likes + dislikes), four decimals; null when the game has no votes',
    }),
    max_players: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Server size; null when unknown',
    }),
    created: Timestamp('When the game was created (UTC, ISO 8601); null when unknown'),
    updated: Timestamp('When the game was last updated by its creator (UTC, ISO 8601); null when unknown'),
    gamepass_count: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Game passes on sale; null until the pass list was first read',
    }),
    observed_at: Timestamp('When the numbers above were read from the platform; null if never read'),
    ccu_history: Type.Array(CcuPoint, {
      description:
        'Hourly mean CCU over the last 24 hours (the current, partial hour and the 23 before it), oldest first; ' +
        'hours without a reading are absent, so it may be shorter than 24 or empty',
    }),
    ml_prediction: MlPrediction,
    clones: Type.Array(CloneMatch, {
      description:
        'Other games of the same genre whose normalised name or description is a near-duplicate (similarity ≥ 0.8), most similar first, then busiest; at most 10',
    }),
  },
  { $id: 'GameDetail', title: 'GameDetail', additionalProperties: false },
);
export type GameDetailT = Static<typeof GameDetail>;
export type MlPredictionT = Static<typeof MlPrediction>;

/** Shared schemas the routes reference by $id (components in /openapi.json). */
export const gameSchemas = [SearchResult, GameDetail];
