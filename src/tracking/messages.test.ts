import { describe, expect, it } from 'vitest';
import { firedMessage, firingDetails, watchingMessage } from './messages.js';

const blox = { universeId: 994732206, name: 'Blox Fruits', genre: 'rpg', ccu: 500_000 };
const AT = new Date('2026-11-22T18:05:42Z');

describe('alert messages', () => {
  it('says what a rule watches before it first fires', () => {
    expect(watchingMessage('ccu_spike', 450_000, blox)).toBe(
      'Watching Blox Fruits for CCU at or above 450,000',
    );
    expect(watchingMessage('ccu_drop', 1_000, blox)).toBe('Watching Blox Fruits for CCU at or below 1,000');
    expect(watchingMessage('trend_change', 10, blox)).toBe(
      'Watching Blox Fruits for a flip in its 24 h trend direction (trend score beyond ±10)',
    );
    expect(watchingMessage('competitor', 250_000, blox)).toBe(
      'Watching RPG games for one passing 250,000 CCU or overtaking Blox Fruits',
    );
    expect(watchingMessage('rank_change', 3, blox)).toBe(
      'Watching Blox Fruits for a move of 3 or more places in the RPG rank by CCU',
    );
  });

  it('says what happened, with the figures and the UTC time', () => {
    expect(firedMessage({ type: 'ccu_spike', ccu: 500_000, threshold: 450_000 }, blox, AT)).toBe(
      'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
    );
    expect(firedMessage({ type: 'ccu_drop', ccu: 999.5, threshold: 1_000 }, blox, AT)).toBe(
      'Blox Fruits fell to 999.5 CCU (threshold 1,000) at 18:05 UTC',
    );
    expect(
      firedMessage(
        { type: 'trend_change', direction: 'down', previous: 'up', trendScore: -59.68, threshold: 10 },
        blox,
        AT,
      ),
    ).toBe(
      'The 24 h trend of Blox Fruits turned down: trend score -59.68 (was up; minimum ±10) at 18:05 UTC',
    );
    expect(firedMessage({ type: 'rank_change', from: 5, to: 2, threshold: 3 }, blox, AT)).toBe(
      'Blox Fruits moved up from #5 to #2 in RPG by CCU at 18:05 UTC',
    );
  });

  it('names the busiest newcomer of a competitor firing and counts the others', () => {
    const event = {
      type: 'competitor' as const,
      ccu: 500_000,
      threshold: 600_000,
      competitors: [
        { universeId: 2, name: 'Anime Quest', ccu: 610_000, reason: 'overtook' as const },
        { universeId: 3, name: 'Sword Saga', ccu: 505_000, reason: 'overtook' as const },
      ],
    };
    expect(firedMessage(event, blox, AT)).toBe(
      'Anime Quest overtook Blox Fruits in RPG: 610,000 CCU against 500,000 at 18:05 UTC (and 1 other RPG game)',
    );
    expect(
      firedMessage(
        { ...event, competitors: [{ universeId: 4, name: 'Tiny RPG', ccu: 600_000, reason: 'threshold' }] },
        blox,
        AT,
      ),
    ).toBe('Tiny RPG passed 600,000 CCU in RPG (threshold 600,000) at 18:05 UTC');
    expect(firingDetails(event, blox)).toEqual({
      universe_id: 994732206,
      name: 'Blox Fruits',
      genre: 'rpg',
      threshold: 600_000,
      ccu: 500_000,
      competitors: [
        { universe_id: 2, name: 'Anime Quest', ccu: 610_000, reason: 'overtook' },
        { universe_id: 3, name: 'Sword Saga', ccu: 505_000, reason: 'overtook' },
      ],
    });
  });
});
