/**
 * The whole calibration of the cycle, noise and ratio knobs from the real files, as one pure
 * function of the loaded data (scripts/calibrate.ts prints it; calibration.test.ts checks that
 * DEFAULT_SHAPE still agrees with it). The head/tail match through the simulator is separate
 * (calibration-market.ts matchHeadAndTail) because it depends on the rest of the shape.
 */
import {
  alignHarmonics,
  amplitudeRange,
  dailyLevels,
  dailyNoise,
  fitDailyHarmonics,
  median,
  phaseSd,
  poolHarmonics,
  profileFromHarmonics,
  shortNoise,
  weeklyEffects,
  weeklyProfile,
} from './calibration.js';
import type { GameSeries, RealData } from './calibration-data.js';
import {
  type ChartSizes,
  chartSizes,
  fitRankLaw,
  type RankLaw,
  type VoteRatios,
  visitsPerCcuDay,
  voteRatios,
} from './calibration-market.js';

/** Below this median CCU, zeros and counting noise swamp the cycles (most of the small 4-hourly games). */
export const MIN_MEDIAN_CCU = 20;
/** Counting noise is still a large share of the variance below this; the noise estimates skip them. */
export const MIN_NOISE_CCU = 100;
/** Harmonics of the day: the 15-minute series gain < 0.01 in residual sd from a third one. */
export const HARMONICS = 2;
const MIN_PER_DAY = { '15min': 48, '4h': 4 } as const;

export interface GameFit {
  id: string;
  source: '15min' | '4h';
  medianCcu: number;
  coeffs: number[];
  amplitude: number;
  /** Hours by which the game's cycle runs ahead (+) of the common one. */
  phase: number;
  weekly: number[] | null;
  noiseShort: number | null;
  noiseDaily: number | null;
  visitsPerCcuDay: number | null;
}

export interface Calibration {
  games: GameFit[];
  /** Mean of the games' Fourier coefficients: the market-wide hour-of-day effect, as measured. */
  marketHarmonics: number[];
  /** The typical game's own shape, phase spread taken out (what dailyProfile holds). */
  harmonics: number[];
  dailyProfile: number[];
  dailyAmplitudeRange: [number, number];
  hourShiftSd: number;
  weeklyProfile: number[];
  noiseShort: number;
  noiseDaily: number;
  visitsPerCcuDay: number;
  /** The top-1000 law over all ranks (for the record) and the sizes the simulator is matched to. */
  rankLaw: RankLaw;
  chart: Omit<ChartSizes, 'median'>;
  votes: VoteRatios;
}

function fitGame(
  s: GameSeries,
  source: GameFit['source'],
  data: RealData,
): Omit<GameFit, 'amplitude' | 'phase'> {
  const minPerDay = MIN_PER_DAY[source];
  const medianCcu = median(s.readings.map((r) => r.ccu));
  const coeffs = fitDailyHarmonics(s.readings, HARMONICS, minPerDay);
  const levels = dailyLevels(s.readings, coeffs, minPerDay);
  const weekly = weeklyEffects(levels);
  const big = medianCcu >= MIN_NOISE_CCU;
  const visits = data.visitsDaily.get(s.id);
  return {
    id: s.id,
    source,
    medianCcu,
    coeffs,
    weekly,
    // Only the 15-minute series resolve the 30-minute scale.
    noiseShort: big && source === '15min' ? shortNoise(s.readings, coeffs) : null,
    noiseDaily: big && weekly ? dailyNoise(levels, weekly.map(Math.exp)) : null,
    visitsPerCcuDay: visits ? visitsPerCcuDay(visits, s.readings) : null,
  };
}

const present = <T>(xs: readonly (T | null)[]): T[] => xs.filter((x): x is T => x !== null);

export function calibrate(data: RealData): Calibration {
  const partial = [
    ...data.ccu15.map((s) => ({ s, source: '15min' as const })),
    ...data.ccu4h.map((s) => ({ s, source: '4h' as const })),
  ]
    .filter(({ s }) => median(s.readings.map((r) => r.ccu)) >= MIN_MEDIAN_CCU)
    .map(({ s, source }) => fitGame(s, source, data));
  const chart = [...data.top1000].sort((a, b) => a.rank - b.rank).map((g) => g.ccu);
  const aligned = alignHarmonics(partial.map((g) => g.coeffs));
  const games = partial.map((g, i) => ({
    ...g,
    amplitude: aligned.amplitudes[i]!,
    phase: aligned.phases[i]!,
  }));
  return {
    games,
    marketHarmonics: poolHarmonics(partial.map((g) => g.coeffs)),
    harmonics: aligned.common,
    dailyProfile: profileFromHarmonics(aligned.common),
    dailyAmplitudeRange: amplitudeRange(aligned.amplitudes),
    hourShiftSd: phaseSd(aligned.phases),
    weeklyProfile: weeklyProfile(present(games.map((g) => g.weekly))),
    noiseShort: median(present(games.map((g) => g.noiseShort))),
    noiseDaily: median(present(games.map((g) => g.noiseDaily))),
    visitsPerCcuDay: median(present(games.map((g) => g.visitsPerCcuDay))),
    rankLaw: fitRankLaw(chart, 1, 1000),
    chart: { top10: chartSizes(chart).top10, headAlpha: chartSizes(chart).headAlpha },
    votes: voteRatios(data.top1000),
  };
}
