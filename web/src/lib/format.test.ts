import { describe, expect, it } from 'vitest';
import {
  formatAgo,
  formatCompact,
  formatDay,
  formatDuration,
  formatInteger,
  formatLocal,
  formatPercent,
  formatRobux,
  formatScore,
  formatUsd,
  formatUtc,
} from './format';

describe('numbers for people', () => {
  it('compacts large counts and keeps small ones exact', () => {
    expect(formatCompact(1_234_567)).toBe('1.2M');
    expect(formatCompact(9_698_996)).toBe('9.7M');
    expect(formatCompact(445_300)).toBe('445.3K');
    expect(formatCompact(1000)).toBe('1K');
    expect(formatCompact(950)).toBe('950');
    expect(formatCompact(12.34)).toBe('12.3');
    expect(formatCompact(-2_500)).toBe('-2.5K');
    expect(formatCompact(189_200_000_000)).toBe('189.2B');
    expect(formatCompact(null)).toBe('–');
    expect(formatCompact(Number.NaN)).toBe('–');
  });

  it('formats integers, percentages, money and scores', () => {
    expect(formatInteger(4609)).toBe('4,609');
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatPercent(-0.0651)).toBe('-6.5%');
    expect(formatPercent(0.0651, { signed: true })).toBe('+6.5%');
    expect(formatPercent(0, { signed: true })).toBe('0.0%');
    expect(formatPercent(0.72, { digits: 0 })).toBe('72%');
    expect(formatUsd(1234.5)).toBe('$1,235');
    expect(formatUsd(12.5)).toBe('$12.50');
    expect(formatRobux(12500)).toBe('R$ 12,500');
    expect(formatScore(-17.64)).toBe('-17.6');
    expect(formatScore(null)).toBe('–');
  });

  it('formats durations', () => {
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(125_000)).toBe('2m 05s');
    expect(formatDuration(4_320_000)).toBe('1h 12m');
  });
});

describe('times', () => {
  const at = '2026-11-24T18:05:00.000Z';
  it('shows the viewer’s zone and UTC on hover', () => {
    expect(formatLocal(at, 'America/New_York')).toBe('Nov 24, 2026, 13:05');
    expect(formatLocal(at, 'Asia/Tokyo')).toBe('Nov 25, 2026, 03:05');
    expect(formatUtc(at)).toBe('2026-11-24 18:05 UTC');
    expect(formatLocal('not a date')).toBe('–');
  });

  it('says how long ago', () => {
    const now = new Date('2026-11-24T20:00:00Z');
    expect(formatAgo('2026-11-24T19:59:30Z', now)).toBe('just now');
    expect(formatAgo('2026-11-24T19:55:00Z', now)).toBe('5 min ago');
    expect(formatAgo('2026-11-24T17:00:00Z', now)).toBe('3 h ago');
    expect(formatAgo('2026-11-22T20:00:00Z', now)).toBe('2 d ago');
  });

  it('labels a day key in UTC', () => {
    expect(formatDay('2026-11-24')).toBe('Nov 24');
    expect(formatDay('garbage')).toBe('garbage');
  });
});
