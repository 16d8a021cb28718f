/**
 * The trend score of spec/DECISIONS.md §4, one formula for trending, game detail and alerts:
 * 100·tanh(ln((mean CCU over the latest period + 1) / (mean CCU over the preceding period + 1))),
 * in −100..100. A game with no reading in the preceding period has no baseline: its score is null
 * rather than a made-up surge.
 */
export function trendScore(recentMean: number, previousMean: number | null): number | null {
  if (previousMean === null || !Number.isFinite(previousMean) || !Number.isFinite(recentMean)) return null;
  const s = 100 * Math.tanh(Math.log((Math.max(0, recentMean) + 1) / (Math.max(0, previousMean) + 1)));
  return Math.round(s * 100) / 100;
}

/**
 * `n` evenly spaced values across a period from bucket means (bucket i of n, oldest first; a missing
 * bucket is undefined). Gaps are filled from the nearest earlier bucket (the latest known reading),
 * leading gaps from the first known one; an all-empty series gives [].
 */
export function fillBuckets(buckets: readonly (number | undefined)[]): number[] {
  const first = buckets.find((v) => v !== undefined);
  if (first === undefined) return [];
  let last = first;
  return buckets.map((v) => {
    if (v !== undefined) last = v;
    return Math.round(last);
  });
}

export const PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PERIOD_MS: Record<Period, number> = {
  '1h': HOUR_MS,
  '6h': 6 * HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
};
/** Which CCU tier a period reads: raw samples are kept 48 h, hourly rollups 90 days, daily forever. */
const SOURCE: Record<Period, 'samples' | 'hourly' | 'daily'> = {
  '1h': 'samples',
  '6h': 'samples',
  '24h': 'hourly',
  '7d': 'hourly',
  '30d': 'daily',
};
const RESOLUTION_MS = { samples: 0, hourly: HOUR_MS, daily: DAY_MS } as const;

export interface PeriodWindow {
  source: 'samples' | 'hourly' | 'daily';
  /** Rows stamped in [recentStart, end) make the latest period, [previousStart, recentStart) the one before. */
  previousStart: Date;
  recentStart: Date;
  end: Date;
  /** Width of each of the 24 ccu_history buckets. */
  bucketMs: number;
}

/**
 * The two windows a period's trend compares. Rollup rows are stamped with the start of their hour or
 * day, so the latest window ends after the current (partial) hour or day: "24h" is the current hour
 * and the 23 before it.
 */
export function periodWindow(period: Period, now: Date): PeriodWindow {
  const source = SOURCE[period];
  const res = RESOLUTION_MS[source];
  const p = PERIOD_MS[period];
  const end = res === 0 ? now.getTime() + 1 : Math.floor(now.getTime() / res) * res + res;
  return {
    source,
    previousStart: new Date(end - 2 * p),
    recentStart: new Date(end - p),
    end: new Date(end),
    bucketMs: p / 24,
  };
}
