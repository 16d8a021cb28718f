/**
 * The rollup job's second step: per game, the day stats (sdk_day_stats) of the days its folded or
 * rebuilt days move. A changed day D changes its own actives and revenue, the sessions started up to two
 * days before it (a session's fragments span at most three days), and the WAU and MAU moves of
 * days D .. D + 30 (the stretches it opens and the earlier ones it closes sooner). Each game's
 * span is recomputed with the same code a live request uses (views/daily.ts), for each of its
 * platforms and for all of them combined.
 */
import type { Db } from '../db/index.js';
import { addDays } from './range.js';
import { gamePlatforms, takeDueGame, writeDayStats } from './stats.repo.js';
import { liveDays } from './views/daily.js';

/** Derives every due game's stats, one game per transaction; returns the games done. */
export async function deriveDayStats(db: Db, now: Date, signal?: AbortSignal): Promise<number> {
  let games = 0;
  for (;;) {
    if (signal?.aborted) return games;
    const done = await db.transaction(async (tx) => {
      const due = await takeDueGame(tx);
      if (!due || due.days.length === 0) return due !== null;
      const sorted = [...due.days].sort();
      const from = addDays(sorted[0]!, -2);
      const to = addDays(sorted[sorted.length - 1]!, 30);
      const platforms = await gamePlatforms(tx, due.team_id, due.game_id);
      for (const platform of [...platforms, '']) {
        const ctx = {
          db: tx,
          teamId: due.team_id,
          gameId: due.game_id,
          platform: platform === '' ? null : platform,
          range: { from, to, history_limited_from: null },
          granularity: 'day' as const,
          players: null,
          now,
        };
        const days = (await liveDays(ctx, addDays(from, -30))).filter((d) => d.day >= from);
        await writeDayStats(tx, { team_id: due.team_id, game_id: due.game_id, platform }, from, to, days);
      }
      return true;
    });
    if (!done) return games;
    games += 1;
  }
}
