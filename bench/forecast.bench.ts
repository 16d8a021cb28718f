/**
 * Forecast back-test and fitting time. Error is reported as relMASE: the engine's mean MASE over
 * rolling-origin windows ÷ the weekly seasonal-naive forecast's mean MASE on the same windows
 * (the floor, measured in the same run); coverage is the pooled share of outcomes inside the 80%
 * interval. Data: the real 4-hourly CCU histories in ../shared/realdata (read at bench time only)
 * and a sample of the simulated market computed straight from the source (no database).
 */

import { type DailyValue, forecastSeries } from '../src/games/forecast/index.js';
import { createSimulatedSource, DEFAULT_SHAPE, type SimulatedSource } from '../src/platform/index.js';
import { loadRealData } from '../test/helpers/ccu-realdata.js';
import {
  addStats,
  type BacktestStats,
  backtest,
  coverage,
  type DailySeries,
  type Forecaster,
  relMase,
  seasonalNaive,
} from './forecast-backtest.js';
import { type Figure, ratio, type Suite } from './lib.js';

const DAY = 86_400_000;
/** A day of the 4-hourly file counts when it has at least half its 6 readings (else it is a gap). */
const MIN_READINGS = 3;
const SIM_GAMES = 60;
const SIM_DAYS = 150;
/** The simulated market's last day of history (the market bench's moment). */
const SIM_END = Date.UTC(2026, 10, 22);
const ENGINE: Forecaster = (h, n) => forecastSeries(h, { horizon: n, level: 0.8 }).points;
const flat = (values: number[]) => values.map((v) => ({ date: '', point: v, lower: v, upper: v }));
const NAIVE: Forecaster = (h, n) => flat(Array.from({ length: n }, () => h[h.length - 1]!.value));

/** Daily means of each real game: the mean of a UTC day's readings; thin days are gaps. */
function realSeries(): DailySeries[] {
  return loadRealData().ccu4h.flatMap((g) => {
    const byDay = new Map<number, number[]>();
    for (const r of g.readings) {
      const d = Math.floor(r.t / DAY);
      byDay.set(d, [...(byDay.get(d) ?? []), r.ccu]);
    }
    const days = [...byDay].filter(([, rs]) => rs.length >= MIN_READINGS).map(([d]) => d);
    if (days.length === 0) return [];
    const first = Math.min(...days);
    const values = Array.from({ length: Math.max(...days) - first + 1 }, (_, i) => {
      const rs = byDay.get(first + i);
      return rs && rs.length >= MIN_READINGS ? rs.reduce((a, b) => a + b, 0) / rs.length : null;
    });
    return [{ id: g.id, firstDay: first, values }];
  });
}

/** Daily mean of one simulated game: 6 readings, every 4 hours from 02:00 UTC. */
function simDailyMean(source: SimulatedSource, universeId: number, day: number): number | null {
  let sum = 0;
  for (let k = 0; k < 6; k++) {
    const g = source.gameAt(universeId, new Date(day * DAY + (2 + 4 * k) * 3_600_000));
    if (!g) return null;
    sum += g.playing;
  }
  return sum / 6;
}

/** `games` games spread evenly over the catalogue (launched before the span), `days` days each. */
function simSeries(source: SimulatedSource, games: number, days: number): DailySeries[] {
  const firstDay = SIM_END / DAY - days + 1;
  const eligible = source.catalogue.filter((g) => g.launchAt <= firstDay * DAY);
  const step = Math.max(1, Math.floor(eligible.length / games));
  return eligible
    .filter((_, i) => i % step === 0)
    .slice(0, games)
    .map((g) => ({
      id: String(g.universeId),
      firstDay,
      values: Array.from({ length: days }, (_, i) => simDailyMean(source, g.universeId, firstDay + i)),
    }));
}

const GOALS: Record<string, { rel: string; cov: string }> = {
  'real expanding 7': { rel: '≤ 0.76', cov: '0.75–0.85' },
  'real expanding 30': { rel: '≤ 0.88', cov: '0.75–0.85' },
  'real 14-day 7': { rel: '≤ 0.85', cov: '0.72–0.88' },
  'real 14-day 30': { rel: '≤ 0.85', cov: '0.72–0.88' },
};

/** relMASE and coverage for one data set, window kind and horizon; stats returned for totals. */
function backtestFigures(set: string, series: DailySeries[], sliding: boolean, horizon: number) {
  const spec = {
    horizon,
    windows: sliding ? 'sliding' : 'expanding',
    span: sliding ? 14 : 28,
    step: 7,
  } as const;
  const stats = backtest(series, spec, ENGINE);
  const naive = relMase(backtest(series, spec, NAIVE));
  const label = `${set} ${sliding ? '14-day' : 'expanding'} ${horizon}`;
  const goal = GOALS[label];
  const rel = Math.round(relMase(stats) * 1000) / 1000;
  const figures: Figure[] = [
    {
      suite: 'forecast',
      name: `${label} d: mean MASE (${stats.scored} windows; naive ${naive.toFixed(3)}×)`,
      value: Math.round((stats.maseSum / stats.scored) * 1000) / 1000,
      unit: 'MASE',
      floor: {
        name: 'weekly seasonal-naive',
        value: Math.round((stats.naiveMaseSum / stats.scored) * 1000) / 1000,
      },
      ratio: rel,
      goal: `${goal ? `${goal.rel}, ` : ''}< naive ${naive.toFixed(3)}`,
    },
    {
      suite: 'forecast',
      name: `${label} d: 80% interval coverage (${stats.outcomes} outcomes)`,
      value: Math.round(coverage(stats) * 1000) / 1000,
      unit: '',
      ...(goal ? { goal: goal.cov } : {}),
    },
  ];
  return { figures, stats };
}

function dataSetFigures(set: string, series: DailySeries[]): Figure[] {
  const figures: Figure[] = [];
  let total: BacktestStats | undefined;
  for (const sliding of [false, true]) {
    for (const horizon of [7, 30]) {
      const r = backtestFigures(set, series, sliding, horizon);
      figures.push(...r.figures);
      total = total ? addStats(total, r.stats) : r.stats;
    }
  }
  const t = total!;
  figures.push(
    { suite: 'forecast', name: `${set}: windows forecast`, value: t.windows, unit: 'windows' },
    { suite: 'forecast', name: `${set}: failed windows`, value: t.failures, unit: 'windows', goal: '= 0' },
    {
      suite: 'forecast',
      name: `${set}: lowest forecast value`,
      value: t.minValue,
      unit: 'CCU',
      goal: '≥ 0, finite',
    },
  );
  return figures;
}

/** Daily 35-day histories of every simulated game live for at least 14 of those days. */
function marketHistories(source: SimulatedSource): DailyValue[][] {
  const firstDay = SIM_END / DAY - 34;
  return source.catalogue.flatMap((g) => {
    const h: DailyValue[] = [];
    for (let d = firstDay; d <= SIM_END / DAY; d++) {
      const v = simDailyMean(source, g.universeId, d);
      if (v !== null) h.push({ date: new Date(d * DAY).toISOString().slice(0, 10), value: v });
    }
    return h.length >= 14 ? [h] : [];
  });
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** Fitting time for every simulated game's 35-day series, against the seasonal-naive floor. */
function timingFigures(source: SimulatedSource): Figure[] {
  const histories = marketHistories(source);
  forecastSeries(histories[0]!, { horizon: 30, level: 0.8 }); // instantiate the WASM outside the clock
  const engineMs = time(() => {
    for (const h of histories) forecastSeries(h, { horizon: 30, level: 0.8 });
  });
  const floorMs = time(() => {
    for (const h of histories) seasonalNaive(h, 30);
  });
  const n = histories.length;
  return [
    {
      suite: 'forecast',
      name: 'fit + 30-day forecast, per series (35 days of history)',
      value: Math.round((engineMs / n) * 1000) / 1000,
      unit: 'ms',
      floor: { name: 'seasonal-naive forecast', value: Math.round((floorMs / n) * 10_000) / 10_000 },
      ratio: ratio(engineMs, floorMs),
    },
    {
      suite: 'forecast',
      name: `forecast all ${n} simulated games live ≥ 14 of the 35 days (measured)`,
      value: Math.round(engineMs),
      unit: 'ms',
      floor: { name: 'seasonal-naive forecast', value: Math.round(floorMs * 10) / 10 },
      ratio: ratio(engineMs, floorMs),
    },
  ];
}

export const forecastSuite: Suite = {
  name: 'forecast',
  description: `rolling-origin back-test (real 4-hourly histories; ${SIM_GAMES} simulated games × ${SIM_DAYS} days) and fitting time for every simulated game`,
  async run() {
    const source = createSimulatedSource({ seed: 1, shape: DEFAULT_SHAPE });
    return [
      ...dataSetFigures('real', realSeries()),
      ...dataSetFigures('simulated', simSeries(source, SIM_GAMES, SIM_DAYS)),
      ...timingFigures(source),
    ];
  },
};
