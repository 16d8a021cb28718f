import { describe, expect, it } from 'vitest';
import { creatorHistory } from './creator-chart';

describe('creator chart', () => {
  it("draws the creator's total and each charted game on the same days, gaps left empty", () => {
    const option = creatorHistory({
      history: [
        { day: '2026-11-30', ccu: 650, games: 1 },
        { day: '2026-12-01', ccu: 750, games: 2 },
      ],
      game_history: [
        {
          universe_id: 1,
          name: 'Alpha',
          days: [
            { day: '2026-11-30', ccu: 650 },
            { day: '2026-12-01', ccu: 700 },
          ],
        },
        { universe_id: 2, name: 'Beta', days: [{ day: '2026-12-01', ccu: 50 }] },
      ],
    }) as { xAxis: { data: string[] }; series: { name: string; data: (number | null)[] }[] };
    expect(option.xAxis.data).toEqual(['2026-11-30', '2026-12-01']);
    expect(option.series.map((s) => [s.name, s.data])).toEqual([
      ['All games', [650, 750]],
      ['Alpha', [650, 700]],
      ['Beta', [null, 50]],
    ]);
  });
});
