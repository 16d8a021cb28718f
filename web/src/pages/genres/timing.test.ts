import { describe, expect, it } from 'vitest';
import { formatPeriod, upliftWords } from './timing';

describe('formatPeriod', () => {
  it('writes a window across the new year with both years', () => {
    expect(formatPeriod('2026-12-20 – 2027-01-05')).toBe('Dec 20, 2026 – Jan 5, 2027');
  });

  it('writes the year once for a window inside one year', () => {
    expect(formatPeriod('2027-03-15 – 2027-04-10')).toBe('Mar 15 – Apr 10, 2027');
  });

  it('leaves a period it cannot read as it is', () => {
    expect(formatPeriod('next spring')).toBe('next spring');
    expect(formatPeriod('2027-13-40 – 2027-14-01')).toBe('2027-13-40 – 2027-14-01');
  });
});

describe('upliftWords', () => {
  it('reads the score scale where 50 means no change', () => {
    expect([90, 75.4, 59.6, 50, 14].map(upliftWords)).toEqual([
      'strong lift',
      'good lift',
      'slight lift',
      'no change',
      'drop',
    ]);
  });
});
