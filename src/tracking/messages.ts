/**
 * Alert messages a person can act on: what a rule watches before it first fires, and what happened
 * when it fired ("Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC"), plus the
 * figures behind each firing for webhook payloads. Pure formatting, no I/O.
 */
import { genreDisplayName } from '../platform/index.js';
import type { AlertType, FireEvent, Reading } from './rules.js';

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export const formatNumber = (n: number): string => NUMBER.format(n);

/** "18:05" of an instant, in UTC. */
export const utcTime = (t: Date): string => t.toISOString().slice(11, 16);

const signed = (n: number): string => (n > 0 ? `+${formatNumber(n)}` : formatNumber(n));

/** The message of a rule that has not fired yet. */
export function watchingMessage(
  type: AlertType,
  threshold: number,
  game: Pick<Reading, 'name' | 'genre'>,
): string {
  const t = formatNumber(threshold);
  const genre = genreDisplayName(game.genre);
  switch (type) {
    case 'ccu_spike':
      return `Watching ${game.name} for CCU at or above ${t}`;
    case 'ccu_drop':
      return `Watching ${game.name} for CCU at or below ${t}`;
    case 'trend_change':
      return `Watching ${game.name} for a flip in its 24 h trend direction (trend score beyond ±${t})`;
    case 'competitor':
      return `Watching ${genre} games for one passing ${t} CCU or overtaking ${game.name}`;
    case 'rank_change':
      return `Watching ${game.name} for a move of ${t} or more places in the ${genre} rank by CCU`;
  }
}

/** The message of a firing at `at`. */
export function firedMessage(event: FireEvent, game: Pick<Reading, 'name' | 'genre'>, at: Date): string {
  const when = `at ${utcTime(at)} UTC`;
  const t = formatNumber(event.threshold);
  switch (event.type) {
    case 'ccu_spike':
      return `${game.name} passed ${formatNumber(event.ccu)} CCU (threshold ${t}) ${when}`;
    case 'ccu_drop':
      return `${game.name} fell to ${formatNumber(event.ccu)} CCU (threshold ${t}) ${when}`;
    case 'trend_change':
      return (
        `The 24 h trend of ${game.name} turned ${event.direction}: trend score ${signed(event.trendScore)} ` +
        `(was ${event.previous}; minimum ±${t}) ${when}`
      );
    case 'rank_change': {
      const way = event.to < event.from ? 'up' : 'down';
      return `${game.name} moved ${way} from #${event.from} to #${event.to} in ${genreDisplayName(game.genre)} by CCU ${when}`;
    }
    case 'competitor':
      return competitorMessage(event, game, when);
  }
}

function competitorMessage(
  event: Extract<FireEvent, { type: 'competitor' }>,
  game: Pick<Reading, 'name' | 'genre'>,
  when: string,
): string {
  const genre = genreDisplayName(game.genre);
  const [first, ...others] = event.competitors;
  if (!first) return `${genre} competitors of ${game.name} moved ${when}`;
  const core =
    first.reason === 'overtook'
      ? `${first.name} overtook ${game.name} in ${genre}: ${formatNumber(first.ccu)} CCU against ${formatNumber(event.ccu)}`
      : `${first.name} passed ${formatNumber(first.ccu)} CCU in ${genre} (threshold ${formatNumber(event.threshold)})`;
  const more =
    others.length === 0
      ? ''
      : ` (and ${others.length} other ${genre} ${others.length === 1 ? 'game' : 'games'})`;
  return `${core} ${when}${more}`;
}

/** The figures behind a firing, in the API's snake_case (webhook payloads, GET …/events). */
export function firingDetails(event: FireEvent, game: Reading): Record<string, unknown> {
  const base = {
    universe_id: game.universeId,
    name: game.name,
    genre: game.genre,
    threshold: event.threshold,
  };
  switch (event.type) {
    case 'ccu_spike':
    case 'ccu_drop':
      return { ...base, ccu: event.ccu };
    case 'trend_change':
      return {
        ...base,
        trend_score: event.trendScore,
        direction: event.direction,
        previous_direction: event.previous,
      };
    case 'rank_change':
      return { ...base, ccu: game.ccu, previous_rank: event.from, rank: event.to };
    case 'competitor':
      return {
        ...base,
        ccu: event.ccu,
        competitors: event.competitors.map((c) => ({
          universe_id: c.universeId,
          name: c.name,
          ccu: c.ccu,
          reason: c.reason,
        })),
      };
  }
}
