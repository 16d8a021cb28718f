/** TypeBox schemas of the market endpoints (validation, serialisation and OpenAPI in one place). */
import { type Static, Type } from 'typebox';
import { Nullable } from '../http/schemas.js';
import { PERIODS } from './trend.js';

/** The fields every game summary carries (trending, search, radar, overview): one definition. */
export const GameIdentity = {
  place_id: Type.Integer({ description: 'Root place id.' }),
  universe_id: Type.Integer({
    description: 'Universe (experience) id; tracking and alerts are keyed by it.',
  }),
  name: Type.String(),
  creator: Type.String({ description: 'Creator (user or group) name.' }),
  genre: Type.String({ description: 'Genre key (Roblox genre_l1, lower snake case).' }),
  ccu: Type.Integer({ description: 'Concurrent users at the latest collection.' }),
};

/** A game as trending, search, the radar and the overview list it. */
export const GameSummary = Type.Object(GameIdentity);

export const TrendingQuery = Type.Object({
  period: Type.Enum([...PERIODS], {
    default: '24h',
    description: 'Window the trend compares with the one before it.',
  }),
  genre: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Only games of this genre key; an unknown key is refused (422).',
    }),
  ),
  limit: Type.Integer({
    minimum: 1,
    default: 50,
    description:
      'How many games (default 50). Clamped, not refused, above the plan cap: anonymous and Explorer 20, Builder 100, Studio and Enterprise unlimited.',
  }),
});
export type TrendingQuery = Static<typeof TrendingQuery>;

export const TrendingGame = Type.Object(
  {
    ...GameIdentity,
    trend_score: Nullable(
      Type.Number({
        minimum: -100,
        maximum: 100,
        description:
          '100·tanh(ln((mean CCU over the latest period + 1)/(mean CCU over the preceding period + 1))); null when the game has no reading in the preceding period.',
      }),
    ),
    ccu_history: Type.Array(Type.Integer(), {
      description:
        '24 evenly spaced bucket means across the period, oldest first; an empty bucket repeats the reading before it.',
    }),
  },
  { $id: 'TrendingGame', title: 'TrendingGame' },
);

export const TrendingResponse = Type.Object({
  games: Type.Array(Type.Ref('TrendingGame')),
  total: Type.Integer({ description: 'Games matching the filter, before the limit.' }),
  period: Type.String(),
  limit: Type.Integer({ description: 'The limit applied after the plan cap.' }),
  computed_at: Type.String({ format: 'date-time', description: 'When the view was computed (UTC).' }),
});

export const GenreOpportunity = Type.Object(
  {
    name: Type.String({ description: 'Genre key.' }),
    display_name: Type.String(),
    total_games: Type.Integer(),
    total_ccu: Type.Integer(),
    avg_ccu: Nullable(Type.Number({ description: 'total_ccu / total_games.' })),
    growth_rate: Nullable(
      Type.Number({
        description:
          'Genre CCU now / genre CCU at the same time of day 7 days earlier − 1; null when no snapshot lies within 1 hour of that baseline.',
      }),
    ),
    saturation_index: Nullable(
      Type.Number({
        description:
          'R / (R + demand_per_game), R = platform CCU / platform active games: 0.5 is the platform norm, ≥ 0.6 is crowded.',
      }),
    ),
    opportunity_score: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
    monetization_depth: Nullable(
      Type.Number({
        description:
          'Median over active games of (game-pass count × median game-pass price in Robux) per 1,000 CCU.',
      }),
    ),
    demand_per_game: Nullable(Type.Number({ description: 'Genre CCU / active games (CCU ≥ 10).' })),
    top3_share: Nullable(Type.Number({ description: 'Share of genre CCU held by its 3 biggest games.' })),
    newcomer_share: Nullable(
      Type.Number({
        description:
          "Among the genre's top-20 games by CCU, the share of their CCU held by games created in the last 12 months.",
      }),
    ),
    entry_verdict: Nullable(
      Type.Union([
        Type.Literal('strong'),
        Type.Literal('enter_with_edge'),
        Type.Literal('avoid'),
        Type.Literal('unproven'),
      ]),
    ),
    recommendation: Nullable(Type.String()),
    locked: Type.Boolean({
      description: 'True when the analytic fields are withheld for the plan (free shape).',
    }),
  },
  { $id: 'GenreOpportunity', title: 'GenreOpportunity' },
);

/** GET /api/genre-opportunities: every genre, full or in the free shape. */
export const GenreOpportunities = Type.Array(Type.Ref('GenreOpportunity'));

export const BreakoutGame = Type.Object(
  {
    ...GameIdentity,
    score: Type.Number({ minimum: 0, maximum: 100 }),
    visits: Type.Integer(),
    likes: Type.Integer(),
  },
  { $id: 'BreakoutGame', title: 'BreakoutGame' },
);

export const BreakoutResponse = Type.Object({
  games: Type.Array(Type.Ref('BreakoutGame')),
  computed_at: Type.String({ format: 'date-time' }),
});

export const TimingWindow = Type.Object({
  period: Type.String({
    description: 'Date range of the next occurrence, e.g. "2026-12-20 – 2027-01-05".',
  }),
  event: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 100 }),
  reason: Type.String({
    description: 'Whether learned from stored history or from the prior calendar, and the uplift.',
  }),
});

export const GenreTiming = Type.Object({
  theme: Type.String({ description: 'Genre display name.' }),
  genre: Type.String({ description: 'Genre key.' }),
  best_windows: Type.Array(TimingWindow),
  avoid: Type.Array(Type.String(), { description: 'Date ranges of windows that lower the genre’s CCU.' }),
});

export const TimingResponse = Type.Object({
  recommendations: Type.Array(GenreTiming),
  computed_at: Type.String({ format: 'date-time' }),
});

export const OverviewResponse = Type.Object({
  platform_ccu: Type.Integer({ description: 'Sum of every collected game’s CCU at the latest collection.' }),
  ccu_change_24h: Nullable(
    Type.Number({
      description:
        'Platform CCU (hourly mean, this hour) / the same hour yesterday − 1; null without that hour.',
    }),
  ),
  active_games: Type.Integer({ description: 'Games with CCU ≥ 10.' }),
  total_games: Type.Integer({ description: 'Games collected.' }),
  top_genres: Type.Array(
    Type.Object({
      name: Type.String(),
      display_name: Type.String(),
      total_ccu: Type.Integer(),
      share: Type.Number({ description: 'Share of platform CCU.' }),
      games: Type.Integer(),
    }),
  ),
  top_games: Type.Array(GameSummary),
  computed_at: Type.String({ format: 'date-time' }),
});

export const marketSchemas = [TrendingGame, GenreOpportunity, BreakoutGame];
