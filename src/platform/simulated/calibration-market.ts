/**
 * Estimators for the size knobs of MarketShape (head and tail of the CCU distribution, visits per
 * CCU-day, vote and favourite ratios), and measurements of the simulated market used to match it
 * to the real one. Pure functions, no I/O; see docs/calibration.md.
 *
 * topCcu, headAlpha and tailAlpha are parameters of baseCcu(rank), the CCU at a game's lifecycle
 * peak before its genre pull, its personal factor, lifecycle and cycles. A snapshot of real CCU
 * sees all of those, so the real rank law is matched by the law the simulator *shows*
 * (matchHeadAndTail), not copied into baseCcu.
 */

import { percentile } from '../../stats.js';
import {
  DAY_MS,
  dailyLevels,
  dailyNoise,
  fitDailyHarmonics,
  mean,
  median,
  weeklyEffects,
} from './calibration.js';
import type { CcuReading, TopGame, VisitsReading } from './calibration-data.js';
import { buildCatalogue, type GameSpec } from './catalogue.js';
import { ccuAt } from './market.js';
import type { MarketShape } from './shape.js';

export interface RankLaw {
  /** Intercept of the fitted law at rank 1 (not the observed #1, which sits below it). */
  topCcu: number;
  headAlpha: number;
}

/** Least squares of ln CCU on ln rank over ranks fromRank..toRank of a descending list. */
export function fitRankLaw(ccuDesc: readonly number[], fromRank = 1, toRank = 1000): RankLaw {
  const pts: [number, number][] = [];
  for (let r = fromRank; r <= Math.min(toRank, ccuDesc.length); r++) {
    const v = ccuDesc[r - 1]!;
    if (v > 0) pts.push([Math.log(r), Math.log(v)]);
  }
  const mx = mean(pts.map((p) => p[0]));
  const my = mean(pts.map((p) => p[1]));
  const sxy = pts.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = pts.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = sxy / sxx;
  return { topCcu: Math.exp(my - slope * mx), headAlpha: -slope };
}

/** The size of a chart, in the terms the head/tail match uses (see matchHeadAndTail). */
export interface ChartSizes {
  /** Geometric mean CCU of ranks 1–10: where the few games users know sit. */
  top10: number;
  /** Slope of the rank law over ranks 10–1000. */
  headAlpha: number;
  median: number;
}

export function chartSizes(ccuDesc: readonly number[]): ChartSizes {
  return {
    top10: Math.exp(mean(ccuDesc.slice(0, 10).map((v) => Math.log(Math.max(v, 1))))),
    headAlpha: fitRankLaw(ccuDesc, 10, 1000).headAlpha,
    median: median(ccuDesc),
  };
}

/**
 * Visits per CCU-day of one game: the growth of cumulative visits between consecutive daily
 * snapshots over the mean CCU read in between, times the days. The median over intervals is
 * robust to counter glitches. Null when fewer than 10 intervals or the game is nearly empty (at a
 * handful of players the ratio is mostly rounding).
 */
export function visitsPerCcuDay(visits: readonly VisitsReading[], ccu: readonly CcuReading[]): number | null {
  const ratios: number[] = [];
  for (let i = 1; i < visits.length; i++) {
    const [a, b] = [visits[i - 1]!, visits[i]!];
    const days = (b.day - a.day) / DAY_MS;
    if (days < 1 || days > 3 || a.visits <= 0 || b.visits < a.visits) continue;
    const inside = ccu.filter((r) => r.t >= a.day && r.t < b.day).map((r) => r.ccu);
    if (inside.length < 3 * days) continue;
    const m = mean(inside);
    if (m >= 20) ratios.push((b.visits - a.visits) / (m * days));
  }
  return ratios.length < 10 ? null : median(ratios);
}

export interface VoteRatios {
  likeRatioMedian: number;
  /** Robust spread of the like ratio (IQR / 1.349). */
  likeRatioSd: number;
  votesPerVisit: number;
  favoritesPerVisit: number;
  /** Std of ln ratio across games (the catalogue draws each game's ratio log-normally). */
  votesPerVisitLogSd: number;
  favoritesPerVisitLogSd: number;
}

const logSd = (xs: readonly number[]) => {
  const l = xs.filter((x) => x > 0).map(Math.log);
  const m = mean(l);
  return Math.sqrt(mean(l.map((v) => (v - m) ** 2)));
};

/** Lifetime like ratio, votes per visit and favourites per visit: what votesAt/favoritesAt accrue. */
export function voteRatios(games: readonly TopGame[]): VoteRatios {
  const ok = games.filter((g) => g.visits > 0 && g.likes + g.dislikes > 0);
  const like = ok.map((g) => g.likes / (g.likes + g.dislikes));
  const votes = ok.map((g) => (g.likes + g.dislikes) / g.visits);
  const favs = ok.map((g) => g.favourites / g.visits);
  return {
    likeRatioMedian: median(like),
    likeRatioSd: (percentile(like, 0.75) - percentile(like, 0.25)) / 1.349,
    votesPerVisit: median(votes),
    favoritesPerVisit: median(favs),
    votesPerVisitLogSd: logSd(votes),
    favoritesPerVisitLogSd: logSd(favs),
  };
}

/** Each live game's mean CCU over the 24 whole hours of a UTC day (the snapshot's hour is unknown). */
export function dayMeanCcu(
  seed: number,
  shape: MarketShape,
  games: readonly GameSpec[],
  day: number,
): number[] {
  const t0 = day * DAY_MS;
  return games
    .filter((g) => g.launchAt <= t0)
    .map((g) => mean(Array.from({ length: 24 }, (_, h) => ccuAt(seed, shape, g, t0 + h * 3_600_000))));
}

/** The chart the simulator shows on `day` (day-mean CCU of live games), averaged over seeds. */
export function simulatedSizes(shape: MarketShape, seeds: readonly number[], day: number): ChartSizes {
  const per = seeds.map((seed) =>
    chartSizes(dayMeanCcu(seed, shape, buildCatalogue(seed, shape), day).sort((a, b) => b - a)),
  );
  return {
    top10: Math.exp(mean(per.map((p) => Math.log(p.top10)))),
    headAlpha: mean(per.map((p) => p.headAlpha)),
    median: Math.exp(mean(per.map((p) => Math.log(p.median)))),
  };
}

/**
 * Adjusts topCcu, headAlpha and tailAlpha until the simulated chart shows the real top-10 level,
 * the real slope over ranks 10–1000 and the target median. The top-10 level, not the law's
 * intercept, sets topCcu: real charts bend below the law at the very top (#1 had 610k CCU where
 * the law says 1.08M), while the simulator's per-game multipliers push its #1 above its law.
 * Fixed-point steps; the tail slope moves by the log-ratio of medians over the log-distance from
 * the break to the median rank (where baseCcu ∝ (rank / break)^−tailAlpha).
 */
export function matchHeadAndTail(
  start: MarketShape,
  target: ChartSizes,
  seeds: readonly number[],
  day: number,
  iterations = 6,
): { shape: MarketShape; shown: ChartSizes } {
  let shape = start;
  let shown = simulatedSizes(shape, seeds, day);
  for (let i = 0; i < iterations; i++) {
    const medianRank = shape.games / 2;
    shape = {
      ...shape,
      topCcu: shape.topCcu * (target.top10 / shown.top10),
      headAlpha: shape.headAlpha + (target.headAlpha - shown.headAlpha),
      tailAlpha:
        shape.tailAlpha + Math.log(shown.median / target.median) / Math.log(medianRank / shape.tailBreakRank),
    };
    shown = simulatedSizes(shape, seeds, day);
  }
  return { shape, shown };
}

export function pearson(a: readonly number[], b: readonly number[]): number {
  const [ma, mb] = [mean(a), mean(b)];
  let [sab, saa, sbb] = [0, 0, 0];
  a.forEach((x, i) => {
    const y = b[i]!;
    sab += (x - ma) * (y - mb);
    saa += (x - ma) ** 2;
    sbb += (y - mb) ** 2;
  });
  return sab / Math.sqrt(saa * sbb);
}

/**
 * The simulated market's typical hour-of-day effect on `day`, measured like the real one: per game
 * (day-mean CCU ≥ minCcu) ln CCU at each whole hour minus its day mean, averaged over games.
 */
export function simulatedHourEffect(
  seed: number,
  shape: MarketShape,
  games: readonly GameSpec[],
  day: number,
  minCcu = 20,
): number[] {
  const sums = new Array<number>(24).fill(0);
  let n = 0;
  for (const g of games) {
    if (g.launchAt > day * DAY_MS) continue;
    const ccu = Array.from({ length: 24 }, (_, h) => ccuAt(seed, shape, g, day * DAY_MS + h * 3_600_000));
    if (mean(ccu) < minCcu || ccu.some((v) => v <= 0)) continue;
    const logs = ccu.map(Math.log);
    const m = mean(logs);
    logs.forEach((v, h) => {
      sums[h]! += v - m;
    });
    n++;
  }
  return sums.map((s) => s / n);
}

/**
 * dailyNoise as measured on simulated games sampled every 4 hours over [fromDay, toDay), like the
 * 4-hourly file: the simulator's update spikes, lifecycle and seasons show in it as the real ones
 * do in the real series, so noiseDaily is matched on this, not read off the real value directly.
 */
export function simulatedDailyNoise(
  seed: number,
  shape: MarketShape,
  games: readonly GameSpec[],
  fromDay: number,
  toDay: number,
  minCcu = 100,
  maxGames = 300,
): number {
  const found: number[] = [];
  for (const g of games) {
    if (found.length >= maxGames) break;
    if (g.launchAt > fromDay * DAY_MS) continue;
    const readings = [];
    for (let t = fromDay * DAY_MS; t < toDay * DAY_MS; t += 4 * 3_600_000)
      readings.push({ t, ccu: ccuAt(seed, shape, g, t) });
    if (median(readings.map((r) => r.ccu)) < minCcu) continue;
    const coeffs = fitDailyHarmonics(readings, 2, 4);
    const levels = dailyLevels(readings, coeffs, 4);
    const weekly = weeklyEffects(levels);
    const v = weekly ? dailyNoise(levels, weekly.map(Math.exp)) : null;
    if (v !== null) found.push(v);
  }
  return median(found);
}

/** noiseDaily such that the simulator shows `target` (variances add; a few fixed-point steps). */
export function matchDailyNoise(
  shape: MarketShape,
  target: number,
  seed: number,
  fromDay: number,
  toDay: number,
  iterations = 4,
): { noiseDaily: number; shown: number } {
  const games = buildCatalogue(seed, shape);
  let noiseDaily = shape.noiseDaily;
  let shown = simulatedDailyNoise(seed, { ...shape, noiseDaily }, games, fromDay, toDay);
  for (let i = 0; i < iterations; i++) {
    noiseDaily = Math.sqrt(Math.max(0, noiseDaily ** 2 + target ** 2 - shown ** 2));
    shown = simulatedDailyNoise(seed, { ...shape, noiseDaily }, games, fromDay, toDay);
  }
  return { noiseDaily, shown };
}
