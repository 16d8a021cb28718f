import { describe, expect, it } from 'vitest';
import { retentionCells } from '../../lib/chart-data';
import {
  countryName,
  errorsBySeverity,
  experimentBody,
  fillDays,
  formatDayYear,
  formatP,
  formatRange,
  formatSeconds,
  fpsBucketLabel,
  funnelBars,
  funnelBody,
  levelOutcomeSeries,
  metricDifference,
  metricLabel,
  metricValue,
  move,
  payloadSummary,
  shareFunnelStages,
  traceTitle,
} from './sdk-data';

describe('retentionCells', () => {
  const cohort = (date: string, size: number, classic: (number | null)[], rolling = classic) => ({
    date,
    size,
    classic,
    rolling,
  });

  it('draws one row per non-empty cohort and one column per day reached, as percentages', () => {
    const map = retentionCells([
      cohort('2026-11-20', 0, [null, null, null]),
      cohort('2026-11-21', 40, [0.425, 0.2, null]),
      cohort('2026-11-22', 8, [0.125, null, null]),
    ]);
    expect(map.rows).toEqual([
      { date: '2026-11-21', size: 40 },
      { date: '2026-11-22', size: 8 },
    ]);
    expect(map.days).toEqual(['D1', 'D2']);
    expect(map.cells).toEqual([
      [0, 0, 42.5],
      [1, 0, 20],
      [0, 1, 12.5],
    ]);
  });

  it('reads rolling retention when asked, and keeps a true 0 as a cell', () => {
    const map = retentionCells([cohort('2026-11-21', 3, [0, 0.3333], [0.6667, 0.3333])], 'rolling');
    expect(map.cells).toEqual([
      [0, 0, 66.7],
      [1, 0, 33.3],
    ]);
    expect(retentionCells([cohort('2026-11-21', 3, [0, null])]).cells).toEqual([[0, 0, 0]]);
  });

  it('has no rows or days without cohorts, and no days while no cohort reached day 1', () => {
    expect(retentionCells([])).toEqual({ rows: [], days: [], cells: [] });
    expect(retentionCells([cohort('2026-11-24', 9, [null, null])])).toEqual({
      rows: [{ date: '2026-11-24', size: 9 }],
      days: [],
      cells: [],
    });
  });
});

describe('funnelBars', () => {
  it('labels each bar with its position and the conversion from the step before', () => {
    expect(
      funnelBars([
        { label: 'level 1', players: 200, conversion_from_first: 1, conversion_from_previous: null },
        { label: 'level 2', players: 150, conversion_from_first: 0.75, conversion_from_previous: 0.75 },
        { label: 'shop_open', players: 0, conversion_from_first: 0, conversion_from_previous: 0 },
        { label: 'purchase', players: 0, conversion_from_first: 0, conversion_from_previous: null },
      ]),
    ).toEqual({
      labels: ['1. level 1', '2. level 2', '3. shop_open', '4. purchase'],
      players: [200, 150, 0, 0],
      notes: ['100%', '75.0%', '0.0%', '–'],
    });
  });
});

describe('errorsBySeverity', () => {
  it('sums the groups’ series per severity and day, always fatal, error, warn', () => {
    const out = errorsBySeverity([
      {
        severity: 'warn',
        series: [
          { date: '2026-11-01', errors: 2 },
          { date: '2026-11-02', errors: 1 },
        ],
      },
      {
        severity: 'warn',
        series: [
          { date: '2026-11-01', errors: 3 },
          { date: '2026-11-02', errors: 0 },
        ],
      },
      {
        severity: 'fatal',
        series: [
          { date: '2026-11-01', errors: 0 },
          { date: '2026-11-02', errors: 4 },
        ],
      },
    ]);
    expect(out).toEqual({
      dates: ['2026-11-01', '2026-11-02'],
      series: [
        { severity: 'fatal', values: [0, 4] },
        { severity: 'error', values: [0, 0] },
        { severity: 'warn', values: [5, 1] },
      ],
    });
  });
});

describe('labels and formats', () => {
  it('names countries and buckets', () => {
    expect(countryName('BR')).toBe('Brazil');
    expect(countryName(null)).toBe('Unknown');
    expect(fpsBucketLabel(50, 60)).toBe('50–60');
    expect(fpsBucketLabel(60, null)).toBe('60+');
  });

  it('shows metrics in their unit: shares as %, revenue as dollars, differences as points', () => {
    expect(metricValue(0.4482, 'share_of_players')).toBe('44.8%');
    expect(metricValue(1.5, 'usd_per_player')).toBe('$1.50');
    expect(metricValue(0.0123, 'usd_per_player')).toBe('$0.0123');
    expect(metricDifference(-0.0082, 'share_of_players')).toBe('−0.8 pts');
    expect(metricDifference(0.25, 'usd_per_player')).toBe('+$0.25');
    expect(metricValue(null, 'share_of_players')).toBe('–');
    expect(metricLabel({ metric: 'custom', event_name: 'shop_open' })).toBe('Reached “shop_open”');
    expect(metricLabel({ metric: 'd7_retention' })).toBe('Day-7 retention');
  });

  it('writes p-values and durations for people', () => {
    expect(formatP(0.0016)).toBe('0.0016');
    expect(formatP(0.074)).toBe('0.074');
    expect(formatP(0.00001)).toBe('< 0.001');
    expect(formatSeconds(4.25)).toBe('4.3 s');
    expect(formatSeconds(200)).toBe('3m 20s');
    expect(formatSeconds(3900)).toBe('1h 05m');
    expect(formatSeconds(200_000)).toBe('2d 7h');
  });

  it('summarises payloads and traces on one line', () => {
    expect(payloadSummary({ level: 3, result: 'win' })).toBe('level=3 · result=win');
    expect(payloadSummary({ stack_trace: 'boom\nat x' })).toBe('stack_trace=boom');
    expect(payloadSummary({ message: 'x'.repeat(200) }, 20)).toHaveLength(20);
    expect(traceTitle('\n  attempt to index nil\nat a:1', [])).toBe('attempt to index nil');
  });
});

describe('stages', () => {
  it('lists the share funnel’s three stages with their conversions', () => {
    expect(
      shareFunnelStages({
        zone_reach: { players: 100 },
        equipped: { players: 40, conversion: 0.4 },
        shared: { players: 10, conversion: 0.25 },
      }).map((s) => [s.players, s.conversion]),
    ).toEqual([
      [100, null],
      [40, 0.4],
      [10, 0.25],
    ]);
  });

  it('turns level outcome shares into percentages per level', () => {
    expect(
      levelOutcomeSeries([
        { level: 2, win_rate: 0.5, loss_rate: 0.3333, quit_rate: 0.1667, complete_rate: 0 },
      ]),
    ).toEqual({ labels: ['Level 2'], win: [50], loss: [33.3], quit: [16.7], complete: [0] });
  });
});

describe('funnelBody', () => {
  it('sends level and custom steps with their conditions and the window', () => {
    expect(
      funnelBody(
        [
          { kind: 'custom', value: ' tutorial_start ', where: [] },
          { kind: 'level', value: '3', where: [{ field: 'payload.result', op: 'eq', value: 'win' }] },
        ],
        '48',
      ),
    ).toEqual({
      body: {
        steps: [
          { custom: 'tutorial_start' },
          { level: 3, where: [{ field: 'payload.result', op: 'eq', value: 'win' }] },
        ],
        window_hours: 48,
      },
    });
  });

  it('refuses fewer than 2 steps, a bad level, an empty name, a bad window or condition', () => {
    const ok = { kind: 'level' as const, value: '1', where: [] };
    expect(funnelBody([ok], '24')).toEqual({ error: 'A funnel has 2 to 10 steps.' });
    expect(funnelBody([ok, { ...ok, value: '1.5' }], '24')).toEqual({
      error: 'Step 2: a level is a whole number (0 or more).',
    });
    expect(funnelBody([ok, { kind: 'custom', value: '', where: [] }], '24')).toHaveProperty('error');
    expect(funnelBody([ok, ok], '721')).toEqual({
      error: 'The window is a whole number of hours from 1 to 720.',
    });
    expect(funnelBody([ok, { ...ok, where: [{ field: 'x', op: 'eq', value: '1' }] }], '24')).toEqual({
      error: 'Step 2: Condition 1: Field: platform, country, game_id or payload.<key>.',
    });
  });
});

describe('move', () => {
  it('moves an item up or down and ignores moves past either end', () => {
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});

describe('experimentBody', () => {
  const draft = {
    key: ' shop_layout ',
    variants: [
      { key: 'control', weight: '1' },
      { key: 'big_buttons', weight: '2' },
    ],
    primary: { metric: 'conversion' as const, event_name: 'ignored' },
    secondary: [{ metric: 'custom' as const, event_name: 'shop_open' }],
    mde: '0.05',
    baseline: '',
    startDay: '2026-11-10',
  };

  it('builds the request with integer weights, the custom event name only where it belongs, and optional figures', () => {
    expect(experimentBody('42', draft)).toEqual({
      body: {
        game_id: '42',
        key: 'shop_layout',
        variants: [
          { key: 'control', weight: 1 },
          { key: 'big_buttons', weight: 2 },
        ],
        primary_metric: { metric: 'conversion' },
        secondary_metrics: [{ metric: 'custom', event_name: 'shop_open' }],
        minimum_detectable_effect: 0.05,
        start_day: '2026-11-10',
      },
    });
  });

  it('refuses duplicate variant keys, fractional weights, a custom metric without a name and a bad effect', () => {
    expect(
      experimentBody('42', {
        ...draft,
        variants: [
          { key: 'a', weight: '1' },
          { key: 'a', weight: '1' },
        ],
      }),
    ).toEqual({ error: 'Variant 2: “a” is used twice.' });
    expect(
      experimentBody('42', { ...draft, variants: [draft.variants[0]!, { key: 'b', weight: '1.5' }] }),
    ).toEqual({
      error: 'Variant 2: the weight is a whole number of 1 or more.',
    });
    expect(experimentBody('42', { ...draft, primary: { metric: 'custom', event_name: ' ' } })).toEqual({
      error: 'Primary metric: name the custom event.',
    });
    expect(experimentBody('42', { ...draft, mde: '-1' })).toEqual({
      error: 'The minimum detectable effect is a positive number.',
    });
    expect(experimentBody('42', { ...draft, variants: [draft.variants[0]!] })).toEqual({
      error: 'An experiment has 2 to 5 variants.',
    });
  });
});

describe('fillDays', () => {
  it('puts every day of the range in order, zero where the API listed none', () => {
    const filled = fillDays(
      [
        { date: '2026-11-02', players: 4 },
        { date: '2026-11-04', players: 7 },
      ],
      '2026-10-31',
      '2026-11-04',
      'day',
      (date) => ({ date, players: 0 }),
    );
    expect(filled.map((p) => `${p.date}:${p.players}`)).toEqual([
      '2026-10-31:0',
      '2026-11-01:0',
      '2026-11-02:4',
      '2026-11-03:0',
      '2026-11-04:7',
    ]);
  });

  it('leaves weekly points alone', () => {
    const weeks = [{ date: '2026-11-02', players: 9 }];
    expect(fillDays(weeks, '2026-10-01', '2026-11-04', 'week', (date) => ({ date, players: 0 }))).toBe(weeks);
  });
});

describe('formatRange', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  it('leaves the year out inside the current year and names it otherwise', () => {
    expect(formatRange('2026-10-26', '2026-11-24', now)).toBe('Oct 26 – Nov 24');
    expect(formatRange('2025-11-25', '2026-11-24', now)).toBe('Nov 25, 2025 – Nov 24, 2026');
    expect(formatRange('2025-01-01', '2025-01-31', now)).toBe('Jan 1, 2025 – Jan 31, 2025');
    expect(formatDayYear('2025-11-25')).toBe('Nov 25, 2025');
  });
});
