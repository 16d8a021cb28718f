/**
 * levels: how each level plays. Per level reached in the range: players, attempts (level events),
 * the share of attempts won, lost, quit and completed, and the exact median number of attempts
 * players needed to finish it the first time.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { round4 } from './figures.js';
import { levelStats } from './levels.repo.js';
import type { View } from './view.js';

const Rate = (what: string) =>
  Type.Number({
    minimum: 0,
    maximum: 1,
    description: `Share of the attempts that ended ${what} (4 decimals).`,
  });

export const LevelsView = viewResponse(
  'SdkLevels',
  {
    levels: Type.Array(
      Type.Object({
        level: Type.Integer({ minimum: 0 }),
        players: Type.Integer({ description: 'Distinct players with a level event for it in the range.' }),
        attempts: Type.Integer({ description: 'Level events for it in the range (each is one attempt).' }),
        win_rate: Rate('in a win'),
        loss_rate: Rate('in a loss'),
        quit_rate: Rate('in a quit'),
        complete_rate: Rate('as complete (the default result)'),
        median_attempts_to_complete: Type.Union([Type.Number(), Type.Null()], {
          description:
            'Over the players whose first win or complete of the level ever falls in the range: the attempts up to ' +
            'and including it, counted inside the range only (attempts before `from` are not read). Exact median; ' +
            'null when no player finished it for the first time in the range.',
        }),
      }),
      { description: 'Levels ascending.' },
    ),
  },
  'Per-level attempts, outcomes and attempts to a first finish over the range.',
);

export const levels: View<typeof LevelsView> = {
  name: 'levels',
  schema: LevelsView,
  summary: 'Per level: players, attempts, win/loss/quit/complete rates, median attempts to complete',
  async load(ctx) {
    const rows = await levelStats(ctx);
    return {
      // A level row exists only with an attempt, so no rate divides by zero.
      levels: rows.map((r) => ({
        level: r.level,
        players: r.players,
        attempts: r.attempts,
        win_rate: round4(r.wins / r.attempts),
        loss_rate: round4(r.losses / r.attempts),
        quit_rate: round4(r.quits / r.attempts),
        complete_rate: round4(r.completes / r.attempts),
        median_attempts_to_complete: r.median_attempts === null ? null : Number(r.median_attempts),
      })),
    };
  },
};
