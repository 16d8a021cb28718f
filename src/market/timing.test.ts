import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GenreDay, genreTiming } from './timing.js';

const OBBY = { key: 'obby_platformer', name: 'Obby & platformer' };
const SIM = { key: 'simulation', name: 'Simulation' };
const AWAIT_YEAR = 'Learned figures replace this once a year of history is stored.';

function periodsAt(now: string, genre = SIM): string[] {
  const [rec] = genreTiming(new Map(), [genre], new Date(now)).recommendations;
  return [...rec!.best_windows.map((w) => `${w.event}: ${w.period}`), ...rec!.avoid.map((p) => `avoid ${p}`)];
}

describe('genreTiming on the prior calendar', () => {
  it('ranks the next occurrence of each window by the prior uplift for the genre', () => {
    // Obby: summer 1.15 × 1.1 = 1.265, winter 1.25, spring 1.08 × 1.05 = 1.134, Halloween 1.05,
    // back to school 0.9. score = 50 + 50·tanh(4·ln u): summer tanh(0.940290) = 0.735383 → 86.8,
    // winter tanh(0.892574) = 0.712669 → 85.6, spring tanh(0.503004) = 0.464477 → 73.2,
    // Halloween tanh(0.195161) = 0.192721 → 59.6. Spring 2026 ended on Apr 10, so the next is 2027.
    const { recommendations } = genreTiming(new Map(), [OBBY], new Date('2026-05-01T12:00:00Z'));
    expect(recommendations).toEqual([
      {
        theme: 'Obby & platformer',
        genre: 'obby_platformer',
        best_windows: [
          {
            period: '2026-06-15 – 2026-08-31',
            event: 'Summer break',
            score: 86.8,
            reason:
              'Prior calendar: during Summer break platform CCU moves +15.0% and Obby & platformer a further ' +
              `+10.0%; expected +26.5% CCU. ${AWAIT_YEAR}`,
          },
          {
            period: '2026-12-20 – 2027-01-05',
            event: 'Winter holidays',
            score: 85.6,
            reason: `Prior calendar: during Winter holidays platform CCU moves +25.0%; expected +25.0% CCU. ${AWAIT_YEAR}`,
          },
          expect.objectContaining({ period: '2027-03-15 – 2027-04-10', event: 'Spring break', score: 73.2 }),
          expect.objectContaining({ period: '2026-10-20 – 2026-11-01', event: 'Halloween', score: 59.6 }),
        ],
        avoid: ['2026-09-01 – 2026-09-15'],
      },
    ]);
  });

  it('counts the window in force as the next one, up to its last day', () => {
    expect(periodsAt('2026-07-10T00:00:00Z')[1]).toBe('Summer break: 2026-06-15 – 2026-08-31');
    expect(periodsAt('2026-08-31T23:59:59Z')[1]).toBe('Summer break: 2026-06-15 – 2026-08-31');
    expect(periodsAt('2026-09-01T00:00:00Z')[1]).toBe('Summer break: 2027-06-15 – 2027-08-31');
  });

  it('labels the winter holidays across the year boundary', () => {
    // Simulation: winter 1.25 first, summer 1.15 × 1.08 = 1.242 second.
    expect(periodsAt('2026-12-01T00:00:00Z')[0]).toBe('Winter holidays: 2026-12-20 – 2027-01-05');
    expect(periodsAt('2027-01-03T18:00:00Z')[0]).toBe('Winter holidays: 2026-12-20 – 2027-01-05');
    expect(periodsAt('2027-01-05T23:00:00Z')[0]).toBe('Winter holidays: 2026-12-20 – 2027-01-05');
    expect(periodsAt('2027-01-06T00:00:00Z')[0]).toBe('Winter holidays: 2027-12-20 – 2028-01-05');
  });

  it('turns back to school into a best window for education (0.9 × 1.2 = 1.08)', () => {
    const edu = periodsAt('2026-05-01T00:00:00Z', { key: 'education', name: 'Education' });
    expect(edu).toContain('Back to school: 2026-09-01 – 2026-09-15');
    expect(edu.filter((p) => p.startsWith('avoid'))).toEqual([]);
  });
});

/** 400 days (2025-04-27 … 2026-05-31) of 1000 CCU, with summer break at 1400 and back to school at 800. */
function plantedHistory(skip: (day: string) => boolean = () => false): GenreDay[] {
  const days: GenreDay[] = [];
  const start = Date.UTC(2025, 3, 27);
  for (let i = 0; i < 400; i++) {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    const md = day.slice(5);
    const ccu = md >= '06-15' && md <= '08-31' ? 1400 : md >= '09-01' && md <= '09-15' ? 800 : 1000;
    if (!skip(day)) days.push({ day, ccu });
  }
  return days;
}

describe('genreTiming learned from history', () => {
  const NOW = new Date('2026-06-01T12:00:00Z');

  it('finds a planted +40% window and a −20% dip, and says the figures are learned', () => {
    // Summer: 1400 / 1000 on the clear days either side = 1.4 → 50 + 50·tanh(4·ln 1.4) = 93.7.
    // Back to school: 800 / 1000 (its clear baseline is the days after it) = 0.8 → avoid.
    // Every other window sits at 1.0: neither best nor avoid.
    const [sim, obby] = genreTiming(
      new Map([['simulation', plantedHistory()]]),
      [SIM, OBBY],
      NOW,
    ).recommendations;
    expect(sim).toEqual({
      theme: 'Simulation',
      genre: 'simulation',
      best_windows: [
        {
          period: '2026-06-15 – 2026-08-31',
          event: 'Summer break',
          score: 93.7,
          reason:
            "Learned from 13 months of history: +40.0% against the genre's baseline (mean CCU in the window " +
            'vs the 30 days either side, 1 season observed).',
        },
      ],
      avoid: ['2026-09-01 – 2026-09-15'],
    });
    // A genre without a year of history stays on the prior.
    expect(obby!.best_windows[0]!.reason).toMatch(/^Prior calendar:/);
  });

  it('falls back to the prior for a window the stored history never covered', () => {
    const gap = (day: string) => day >= '2025-10-01' && day <= '2025-11-30';
    const [sim] = genreTiming(new Map([['simulation', plantedHistory(gap)]]), [SIM], NOW).recommendations;
    expect(sim!.best_windows.map((w) => [w.event, w.reason])).toEqual([
      ['Summer break', expect.stringMatching(/^Learned from 13 months of history: \+40\.0%/)],
      [
        'Halloween',
        'Prior calendar: during Halloween platform CCU moves +5.0%; expected +5.0% CCU. ' +
          'The stored history has no usable season of this window yet.',
      ],
    ]);
  });

  it('needs a full year: 364 days of history still use the prior', () => {
    const short = plantedHistory().slice(0, 364);
    const [sim] = genreTiming(new Map([['simulation', short]]), [SIM], NOW).recommendations;
    expect(sim!.best_windows.every((w) => w.reason.startsWith('Prior calendar:'))).toBe(true);
    expect(sim!.best_windows.map((w) => w.event)).toEqual([
      'Winter holidays',
      'Summer break',
      'Spring break',
      'Halloween',
    ]);
  });
});

describe('properties', () => {
  it('keeps scores in 0..100 and labels well formed, for arbitrary histories and dates', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -10, max: 1e6 }), fc.constant(0)), {
          minLength: 300,
          maxLength: 500,
        }),
        fc.date({ min: new Date('2024-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        (values, now) => {
          const start = Date.UTC(2024, 0, 1);
          const history = values.map((ccu, i) => ({
            day: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
            ccu,
          }));
          const [rec] = genreTiming(new Map([['simulation', history]]), [SIM], now).recommendations;
          for (const w of rec!.best_windows) {
            expect(w.score).toBeGreaterThanOrEqual(50);
            expect(w.score).toBeLessThanOrEqual(100);
            expect(w.reason).not.toMatch(/NaN|Infinity|undefined/);
          }
          for (const p of [...rec!.avoid, ...rec!.best_windows.map((w) => w.period)]) {
            expect(p).toMatch(/^\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}$/);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
