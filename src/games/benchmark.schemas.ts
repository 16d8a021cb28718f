/** TypeBox schemas of POST /api/benchmark (spec/interface.md §2 "Benchmark result"). */
import { type Static, Type } from 'typebox';
import { Id } from '../http/schemas.js';

export const BenchmarkBody = Type.Object(
  {
    place_id: Id('Root place id of a game the service collects'),
  },
  { additionalProperties: false },
);
export type BenchmarkBodyT = Static<typeof BenchmarkBody>;

const Percentile = (what: string, extra = '') =>
  Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: `Mid-rank percentile (0..100) of the game's ${what} among the other games of its genre${extra}; null when no other game of the genre has one`,
  });

const Mean = (description: string) => Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description });

export const BenchmarkResult = Type.Object(
  {
    game: Type.String({ description: 'Game name' }),
    place_id: Type.Integer({ description: 'Root place id' }),
    universe_id: Type.Integer({ description: 'Experience (universe) id' }),
    genre: Type.String({ description: 'Genre key the game is compared within' }),
    genre_games: Type.Integer({
      minimum: 1,
      description: 'Games of the genre in the catalogue, this one included',
    }),
    metrics: Type.Object(
      {
        ccu_percentile: Percentile('latest CCU'),
        visits_percentile: Percentile('total visits'),
        like_ratio_percentile: Percentile(
          'like ratio',
          ' that have votes (null too when the game itself has no votes)',
        ),
        gamepass_count_percentile: Percentile(
          'number of game passes',
          ' whose pass list was read (null too while its own list is unread)',
        ),
      },
      { additionalProperties: false },
    ),
    genre_averages: Type.Object(
      {
        avg_ccu: Mean('Mean latest CCU over the games of the genre with a reading, two decimals'),
        avg_visits: Mean('Mean total visits over the games of the genre with a reading, two decimals'),
        avg_like_ratio: Mean(
          'Mean of the per-game like ratios (likes / (likes + dislikes)) over the games of the genre with votes, four decimals',
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'BenchmarkResult', title: 'BenchmarkResult', additionalProperties: false },
);
export type BenchmarkResultT = Static<typeof BenchmarkResult>;
