import { describe, expect, it } from 'vitest';
import { addDays, analyticsQuery, exportHref, isDay, readFilters, spanDays, withFilters } from './range';

const NOW = new Date('2026-11-24T18:05:00Z');
const read = (q: string) => readFilters(new URLSearchParams(q), NOW);

describe('readFilters', () => {
  it('defaults to the 30 UTC days ending today, daily, every platform, no segment', () => {
    expect(read('')).toEqual({
      from: '2026-10-26',
      to: '2026-11-24',
      days: 30,
      granularity: 'day',
      platform: null,
      segment: null,
    });
  });

  it('reads a preset of 7 or 90 days and ignores one it does not offer', () => {
    expect(read('days=7')).toMatchObject({ from: '2026-11-18', to: '2026-11-24', days: 7 });
    expect(read('days=90')).toMatchObject({ from: '2026-08-27', days: 90 });
    expect(read('days=12').days).toBe(30);
  });

  it('takes a custom from/to over the preset, and falls back when a date is not a real day', () => {
    expect(read('days=7&from=2026-01-01&to=2026-01-31')).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-31',
      days: null,
    });
    expect(read('from=2026-02-30&to=2026-03-01')).toMatchObject({ days: 30, to: '2026-11-24' });
  });

  it('keeps a known platform, a positive segment id and weekly granularity', () => {
    expect(read('platform=platform_2&segment=4&granularity=week')).toMatchObject({
      platform: 'platform_2',
      segment: 4,
      granularity: 'week',
    });
    expect(read('platform=xbox&segment=-1&granularity=month')).toMatchObject({
      platform: null,
      segment: null,
      granularity: 'day',
    });
  });
});

describe('analyticsQuery', () => {
  it('sends only the filters that are set', () => {
    expect(analyticsQuery(read('days=7'))).toEqual({ from: '2026-11-18', to: '2026-11-24' });
    expect(analyticsQuery(read('days=7&platform=platform_1&segment=3&granularity=week'))).toEqual({
      from: '2026-11-18',
      to: '2026-11-24',
      platform: 'platform_1',
      segment: 3,
      granularity: 'week',
    });
  });
});

describe('withFilters', () => {
  it('drops from/to when a preset is chosen, and the preset when a full custom range is set', () => {
    const custom = withFilters(new URLSearchParams('from=2026-01-01&to=2026-01-05&segment=2'), { days: '7' });
    expect(custom.toString()).toBe('segment=2&days=7');
    const back = withFilters(new URLSearchParams('days=7'), { from: '2026-01-01', to: '2026-01-05' });
    expect(back.toString()).toBe('from=2026-01-01&to=2026-01-05');
  });

  it('removes a key set to null or empty', () => {
    expect(
      withFilters(new URLSearchParams('segment=2&platform=platform_1'), { segment: null }).toString(),
    ).toBe('platform=platform_1');
  });
});

describe('dates', () => {
  it('moves and counts UTC days across month ends and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(spanDays('2026-01-01', '2026-12-31')).toBe(365);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-12-01')).toBe(true);
  });
});

describe('exportHref', () => {
  it('carries the game, range, platform, format and types', () => {
    expect(
      exportHref('g 1', { from: '2026-11-01', to: '2026-11-24', platform: 'platform_2' }, 'csv', [
        'purchase',
        'ad_impression',
      ]),
    ).toBe(
      '/api/sdk/export?game_id=g+1&from=2026-11-01&to=2026-11-24&format=csv&platform=platform_2&types=purchase%2Cad_impression',
    );
    expect(exportHref('42', { from: '2026-11-01', to: '2026-11-24', platform: null }, 'ndjson', [])).toBe(
      '/api/sdk/export?game_id=42&from=2026-11-01&to=2026-11-24&format=ndjson',
    );
  });
});
