import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CREATOR_HUB_EXPORT, realdataFile } from '../../test/helpers/realdata.js';
import type { Db } from '../db/index.js';
import { advise, type NarrativeProvider } from './advice.js';
import { analyseCsv } from './analysis.js';
import { AnalysisGate, defaultLimits } from './devlens.pool.js';
import { DevLensService, type FormPart, guardFormulas } from './devlens.service.js';
import type { Analysis, Pattern } from './types.js';

const REAL_EXPORT = readFileSync(realdataFile(CREATOR_HUB_EXPORT));

function retentionCsv(d1: number, d7: number, d30: number, days = 35): string {
  const rows = ['Date,D1 Retention,D7 Retention,D30 Retention'];
  for (let i = 0; i < days; i++) {
    rows.push(`${new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10)},${d1},${d7},${d30}`);
  }
  return rows.join('\n');
}

/**
 * Independent of advice.ts's own checker: every number the text cites must be a figure of the analysis
 * as printed — itself, as a percentage with one decimal, or rounded to one decimal — or a number in a
 * pattern's own sentence. Digits inside words ("D7", "day-1") are names; the coverage dates are dates.
 */
function untraceable(text: string, a: Analysis): number[] {
  const allowed = new Set<string>();
  const add = (v: number) => {
    for (const x of [v, v * 100]) {
      allowed.add(Math.abs(x).toFixed(1));
      allowed.add(String(Math.abs(x)));
    }
  };
  const nums = (s: string) => [
    ...s.matchAll(/(?<![A-Za-z0-9_.-])\d[\d,]*(?:\.\d+)?|(?<=-)\d+(?:\.\d+)?(?=%)/g),
  ];
  for (const v of Object.values(a.metrics)) if (v !== null) add(v);
  for (const label of Object.values(a.benchmarks)) add(Number.parseFloat(label) / 100);
  for (const p of a.patterns) {
    for (const v of Object.values(p.figures)) add(v);
    for (const m of nums(p.text)) add(Number(m[0].replace(/,/g, '')));
  }
  for (const v of [a.coverage.rows, a.coverage.days, a.coverage.missing_days]) add(v);
  let rest = text;
  for (const d of [a.coverage.first_day, a.coverage.last_day]) if (d) rest = rest.split(d).join(' ');
  return nums(rest)
    .map((m) => Number(m[0].replace(/,/g, '')))
    .filter((n) => !allowed.has(n.toFixed(1)) && !allowed.has(String(n)));
}

describe('advise on the real Creator Hub export', () => {
  it('writes a narrative whose every number comes from the analysis, coverage first', async () => {
    const a = await analyseCsv(REAL_EXPORT, {});
    const { ai_analysis } = advise(a);
    expect(
      ai_analysis.startsWith(
        'This engagement file covers 90 days, 2024-02-23 to 2024-05-22 (180 rows), with no missing days.',
      ),
    ).toBe(true);
    expect(ai_analysis).toContain('Average DAU 406.4');
    expect(ai_analysis).toContain(
      'Not computable from this file: DAU/MAU stickiness, Average session (minutes).',
    );
    expect(untraceable(ai_analysis, a)).toEqual([]);
  });

  it('ranks recommendations by expected impact, each citing its number', async () => {
    const a = await analyseCsv(REAL_EXPORT, {});
    const { recommendations } = advise(a);
    expect(recommendations).toEqual([
      'Daily active users on weekends run 39.5% above weekdays (Welch t = 6.08, p < 0.001). Ship updates and events just before the strongest days, and run live events on the weakest ones.',
      'Daily active users grow 4.7% a week over 90 days (Theil–Sen slope, Mann–Kendall p < 0.001). Find what drove the growth (an update, a promotion, a trend) and repeat it.',
      'Average DAU is 406.4 against 523.7 for the benchmark in your export (-22.4%): grow reach (thumbnail and icon tests, sponsored placements, a shareable moment in play).',
      'Export DAU/MAU stickiness, Average session (minutes) as well to benchmark them: this file lacks the columns they need.',
    ]);
  });
});

describe('advise on retention', () => {
  it('puts the D1→D7 cliff and the largest weighted gap first and cites the genre benchmark', async () => {
    const a = await analyseCsv(retentionCsv(0.2857, 0.041, 0.012), { genre: 'simulation' });
    const { recommendations, ai_analysis } = advise(a);
    expect(recommendations[0]).toMatch(/^Only 14\.3% of day-1 retention survives to day 7/);
    expect(recommendations[1]).toBe(
      'D7 retention is 4.1% against 8.8% for simulation games (-53.4%): add a reason to return on day 2–7 (daily rewards, streaks, timed events).',
    );
    expect(recommendations.at(-1)).toBe(
      'D1 retention is 28.6% against 27.5% for simulation games (+3.9%): a strength; keep it while you work on the weaker figures.',
    );
    expect(ai_analysis).toContain(
      'Against simulation games: D1 retention +3.9%, D7 retention -53.4%, D30 retention -56.4%.',
    );
    expect(untraceable(ai_analysis, a)).toEqual([]);
  });

  it('says when the export is short or has gaps', async () => {
    const rows = retentionCsv(0.3, 0.1, 0.03, 10).split('\n');
    rows.splice(4, 2); // two days missing inside the range
    const a = await analyseCsv(rows.join('\n'), {});
    const { recommendations, ai_analysis } = advise(a);
    expect(ai_analysis).toContain(
      'covers 8 days, 2024-01-01 to 2024-01-10 (8 rows), with 2 days missing inside that range',
    );
    expect(recommendations).toContain(
      'The export covers 8 days: export at least 28 days so weekly cycles and trends can be read.',
    );
    expect(recommendations).toContain(
      '2 days are missing between 2024-01-01 and 2024-01-10: re-export the full range so gaps do not read as drops.',
    );
    expect(untraceable(ai_analysis, a)).toEqual([]);
  });
});

describe('advise on a funnel', () => {
  it('names the worst step first and speaks of an undated file honestly', async () => {
    const a = await analyseCsv('Step,Users\nJoin,1000\nTutorial,800\nFirst quest,300\nShop,250\n', {});
    const { recommendations, ai_analysis } = advise(a);
    expect(recommendations[0]).toBe(
      'The biggest drop is from step 2 "Tutorial" to step 3 "First quest": 800 → 300 players, 37.5% continue. Redesign that step first: it loses the most players.',
    );
    expect(ai_analysis.startsWith('This funnel file has 4 rows and no dates')).toBe(true);
    expect(untraceable(ai_analysis, a)).toEqual([]);
  });
});

const patternArb: fc.Arbitrary<Pattern> = fc.record({
  kind: fc.constantFrom(
    'weekly_cycle',
    'trend',
    'anomaly',
    'd1_d7_cliff',
    'worst_funnel_step',
    'something_new',
  ),
  text: fc.constantFrom('Sessions dip 12.5% on Mondays.', '=cmd injected', 'Revenue rose 3 days running'),
  weight: fc.double({ min: 0, max: 1, noNaN: true }),
  figures: fc.dictionary(
    fc.constantFrom('a', 'b', 'pct_per_week'),
    fc.double({ min: -5, max: 5000, noNaN: true }),
  ),
});

const analysisArb: fc.Arbitrary<Analysis> = fc.record({
  file_type: fc.constant('retention' as const),
  metrics: fc.record({
    d1_retention: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    d7_retention: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    d30_retention: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
  }),
  benchmarks: fc.record({
    d1_vs_genre: fc
      .double({ min: -0.99, max: 3, noNaN: true })
      .map((x) => `${x < 0 ? '-' : '+'}${Math.abs(x * 100).toFixed(1)}%`),
    d7_vs_genre: fc
      .double({ min: -0.99, max: 3, noNaN: true })
      .map((x) => `${x < 0 ? '-' : '+'}${Math.abs(x * 100).toFixed(1)}%`),
  }),
  benchmark_source: fc.record({ genre: fc.constantFrom('all', 'rpg'), from_file: fc.boolean() }),
  patterns: fc.array(patternArb, { maxLength: 4 }),
  coverage: fc.record({
    rows: fc.nat(100_000),
    days: fc.nat(400),
    missing_days: fc.nat(50),
    first_day: fc.constantFrom('2024-01-01', null),
    last_day: fc.constantFrom('2024-03-31', null),
  }),
});

describe('advise on any analysis', () => {
  it('never cites a number the analysis does not hold, and always recommends something', () => {
    fc.assert(
      fc.property(analysisArb, (a) => {
        const { recommendations, ai_analysis } = advise(a);
        expect(untraceable(ai_analysis, a)).toEqual([]);
        expect(recommendations.length).toBeGreaterThan(0);
        expect(recommendations.length).toBeLessThanOrEqual(6);
      }),
    );
  });
});

describe('the formula-injection pass', () => {
  it('escapes every string that starts like a formula except our benchmark labels', () => {
    const guarded = guardFormulas({
      file_type: 'funnel',
      metrics: { steps: 2 },
      benchmarks: { overall_conversion_vs_genre: '-3.0%', odd: '=1+1' },
      benchmark_source: { genre: '@evil', from_file: false },
      patterns: ['=HYPERLINK("http://x")', '+1 more', 'fine'],
      ai_analysis: '-this starts with a minus',
      recommendations: ['@SUM(A1)', 'Keep going.'],
      coverage: { rows: 2, days: 0, missing_days: 0, first_day: '=x', last_day: null },
    });
    expect(guarded.benchmarks).toEqual({ overall_conversion_vs_genre: '-3.0%', odd: "'=1+1" });
    expect(guarded.benchmark_source.genre).toBe("'@evil");
    expect(guarded.patterns).toEqual(['\'=HYPERLINK("http://x")', "'+1 more", 'fine']);
    expect(guarded.ai_analysis).toBe("'-this starts with a minus");
    expect(guarded.recommendations).toEqual(["'@SUM(A1)", 'Keep going.']);
    expect(guarded.coverage.first_day).toBe("'=x");
  });
});

/** The upload as @fastify/multipart hands it over: a file part whose stream was not truncated. */
async function* form(csv: string): AsyncGenerator<FormPart> {
  yield {
    type: 'file',
    fieldname: 'file',
    file: Object.assign(Readable.from([Buffer.from(csv)]), { truncated: false }),
  };
}

describe('a plugged-in NarrativeProvider', () => {
  const csv = retentionCsv(0.2857, 0.041, 0.012);
  const service = (narrative: NarrativeProvider) =>
    new DevLensService({
      db: {} as Db,
      clock: { now: () => new Date() },
      entitlements: {} as never,
      narrative,
      // The core in this thread: these tests are about the narrative, not where the analysis runs.
      pool: {
        analyse: (file, genre) => analyseCsv(file.chunks(), genre === undefined ? {} : { genre }),
        close: async () => {},
      },
      gate: new AnalysisGate(defaultLimits()),
    });

  it('is used when every number it cites comes from the analysis', async () => {
    const honest: NarrativeProvider = {
      name: 'honest',
      write: async () => 'D7 retention is 4.1%, 48.8% under all genres.',
    };
    const result = await service(honest).analyze({ userId: 1, teamId: 1 }, form(csv), false);
    expect(result.ai_analysis).toBe('D7 retention is 4.1%, 48.8% under all genres.');
  });

  it('is overruled by the offline narrative when it invents a number or fails', async () => {
    const inventive: NarrativeProvider = {
      name: 'inventive',
      write: async () => 'D7 retention will reach 12% next month.',
    };
    const failing: NarrativeProvider = {
      name: 'failing',
      write: async () => Promise.reject(new Error('offline')),
    };
    const offline = advise(await analyseCsv(csv, {})).ai_analysis;
    for (const provider of [inventive, failing]) {
      const result = await service(provider).analyze({ userId: 1, teamId: 1 }, form(csv), false);
      expect(result.ai_analysis).toBe(offline);
    }
  });
});
