/**
 * Updates of the simulated market measured as the service measures them: daily means of 8
 * readings a day (as the backfill takes them), the 90 days before a release day and the 8 after,
 * against the effect the simulator planted. The calibration test and scripts/fit-update-impact.ts
 * (which fits IMPACT_SD_SCALE) read the same cases.
 */

import { dayKey } from '../../src/games/index.js';
import { buildCatalogue } from '../../src/platform/simulated/catalogue.js';
import { DEFAULT_SHAPE } from '../../src/platform/simulated/defaults.js';
import {
  ccuAt,
  plantedImpact,
  type UpdateKind,
  updateEffect,
  updateIndex,
  updateTime,
} from '../../src/platform/simulated/market.js';
import { type Impact, measureImpact } from '../../src/updates/impact.js';

const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 22);
const START = END - 150 * DAY;

export interface ImpactCase {
  kind: UpdateKind | 'placebo';
  /** The planted effect on the 7 days after (0 for a placebo). */
  truth: number;
  measured: Extract<Impact, { status: 'measured' }>;
}

/**
 * Up to `limit` cases from games launched a month before the 150 days to 2026-11-22 with at least
 * 5 players: `planted` takes their updates with no other update in the 8 days after the release
 * day; `placebo` takes days 17 apart with no update from the day before to 8 days after.
 */
export function impactCases(seed: number, mode: 'planted' | 'placebo', limit = 400): ImpactCase[] {
  const out: ImpactCase[] = [];
  for (const g of buildCatalogue(seed, DEFAULT_SHAPE)) {
    if (out.length >= limit) break;
    if (g.launchAt >= START - 30 * DAY || ccuAt(seed, DEFAULT_SHAPE, g, END - 30 * DAY) < 5) continue;
    const measure = (releaseDay: number) => {
      const history: { day: string; ccu: number }[] = [];
      for (let d = releaseDay - 90 * DAY; d < releaseDay + 8 * DAY; d += DAY) {
        let sum = 0;
        for (let h = 1.5; h < 24; h += 3) sum += ccuAt(seed, DEFAULT_SHAPE, g, d + h * 3_600_000);
        history.push({ day: dayKey(d), ccu: sum / 8 });
      }
      const m = measureImpact(history, dayKey(releaseDay));
      return m.status === 'measured' ? m : undefined;
    };
    if (mode === 'planted') {
      for (let k = Math.max(1, updateIndex(g, START + 40 * DAY)); ; k++) {
        const releaseDay = Math.floor(updateTime(g, k) / DAY) * DAY;
        if (releaseDay + 8 * DAY > END) break;
        if (updateTime(g, k + 1) < releaseDay + 8 * DAY) continue;
        const measured = measure(releaseDay);
        if (measured) {
          out.push({
            kind: updateEffect(seed, g, k).kind,
            truth: plantedImpact(seed, DEFAULT_SHAPE, g, k),
            measured,
          });
        }
      }
    } else {
      for (let day = START + 40 * DAY; day + 8 * DAY <= END; day += 17 * DAY) {
        if (updateIndex(g, day - DAY) !== updateIndex(g, day + 8 * DAY)) continue;
        const measured = measure(day);
        if (measured) out.push({ kind: 'placebo', truth: 0, measured });
      }
    }
  }
  return out;
}

/** Share of cases whose interval at `level` holds the truth. */
export function coverage(cases: readonly ImpactCase[], level: 'ci80' | 'ci95'): number {
  const held = cases.filter((c) => c.truth >= c.measured[level][0] && c.truth <= c.measured[level][1]);
  return held.length / cases.length;
}
