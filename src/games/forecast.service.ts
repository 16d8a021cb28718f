/**
 * Forecast rules: which history a game's forecast reads, when forecasts are recomputed (daily at
 * 04:00 UTC and after a backfill), what growth_probability means, and what each plan sees. The
 * engine (forecast/) is pure; this file feeds it and stores what it says.
 */

import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { findGameByPlaceId, lastBackfillAt } from '../market/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import {
  type DailyValue,
  forecastSeries,
  InsufficientHistoryError,
  MIN_HISTORY_DAYS,
  probabilityAbove,
} from './forecast/index.js';
import * as repo from './forecast.repo.js';
import type { ForecastResponseT } from './forecast.schemas.js';

const DAY_MS = 86_400_000;
/** Forecasts are fitted on at most this many days: older behaviour says little about next month. */
export const FIT_DAYS = 120;
export const HORIZON_DAYS = 30;
export const LEVEL = 0.8;
/** growth_probability looks this many days past today. */
const GROWTH_DAYS = 7;
const DAILY_RUN_HOUR = 4;

export const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

export interface ForecastDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

/**
 * A game's stored forecast from its complete days of history before `today`: points from the day
 * after the last history day through today + HORIZON_DAYS (so tomorrow is always the first shown),
 * and growth_probability against today's mean so far (else the last day's).
 */
export function forecastRow(
  universeId: number,
  history: readonly { day: string; ccu: number }[],
  today: string,
  todayMean: number | null,
  generatedAt: Date,
): repo.ForecastRow {
  const series: DailyValue[] = history.map((h) => ({ date: h.day, value: Math.max(0, h.ccu) }));
  const lastDay = series[series.length - 1]?.date ?? today;
  const ahead = Math.round((dayMs(today) - dayMs(lastDay)) / DAY_MS); // ≥ 1: history ends before today
  const result = forecastSeries(series, { horizon: ahead + HORIZON_DAYS, level: LEVEL });
  const threshold = todayMean ?? series[series.length - 1]!.value;
  const growthIndex = ahead - 1 + GROWTH_DAYS;
  return {
    universe_id: universeId,
    generated_at: generatedAt,
    model_version: result.modelVersion,
    last_day: lastDay,
    history_days: series.length,
    points: result.points.map((p, i) => ({
      ...p,
      log_mean: result.logMean[i]!,
      log_sd: result.logSd[i]!,
    })),
    growth_probability: Math.round(probabilityAbove(result, growthIndex, threshold) * 10_000) / 10_000,
  };
}

export class ForecastService {
  constructor(private readonly deps: ForecastDeps) {}

  /** The forecast of a collected game as the caller's plan may see it (Builder: 7 points, no bounds). */
  async forGame(placeId: number, plan: PlanName): Promise<ForecastResponseT> {
    const shape = this.deps.entitlements.plans[plan].forecast;
    if (!shape) throw errors.planUpgradeRequired('Builder', 'Forecasts');
    const game = await findGameByPlaceId(this.deps.db, placeId);
    if (!game) throw errors.notFound(`No collected game has place id ${placeId}.`);
    const row = await this.current(game.universe_id);
    const today = dayKey(this.deps.clock.now().getTime());
    const points = row.points.filter((p) => p.date > today).slice(0, shape.points);
    return {
      place_id: game.place_id,
      universe_id: game.universe_id,
      forecast: points.map((p) => ({
        date: p.date,
        predicted_ccu: Math.round(p.point * 100) / 100,
        lower_bound: shape.bounds ? Math.round(p.lower * 100) / 100 : null,
        upper_bound: shape.bounds ? Math.round(p.upper * 100) / 100 : null,
      })),
      model_version: row.model_version,
      generated_at: row.generated_at.toISOString(),
      level: shape.bounds ? LEVEL : null,
      history_days: row.history_days,
    };
  }

  /** The stored forecast while it is from today's history; otherwise one computed (and stored) now. */
  private async current(universeId: number): Promise<repo.ForecastRow> {
    const now = this.deps.clock.now();
    const today = dayKey(now.getTime());
    const stored = await repo.loadForecast(this.deps.db, universeId);
    if (stored && dayKey(stored.generated_at.getTime()) === today) return stored;
    const history = await repo.dailyHistory(
      this.deps.db,
      universeId,
      dayKey(now.getTime() - FIT_DAYS * DAY_MS),
      today,
    );
    try {
      const row = forecastRow(
        universeId,
        history,
        today,
        await repo.dayMean(this.deps.db, universeId, today),
        now,
      );
      await repo.saveForecasts(this.deps.db, [row]);
      return row;
    } catch (err) {
      if (err instanceof InsufficientHistoryError) throw insufficient(history.length);
      throw err;
    }
  }

  /**
   * Due at 04:00 UTC each day, after a backfill completed since the last run, and while the last run
   * found no game to forecast (a fresh install whose history is still being written).
   */
  async due(now: Date): Promise<boolean> {
    const last = await repo.lastRun(this.deps.db);
    if (!last || last.games === 0) return true;
    const todayRun = dayMs(dayKey(now.getTime())) + DAILY_RUN_HOUR * 3_600_000;
    if (now.getTime() >= todayRun && last.ranAt.getTime() < todayRun) return true;
    const backfill = await lastBackfillAt(this.deps.db);
    return backfill !== null && backfill > last.ranAt;
  }

  /** Recomputes every game's forecast; games under MIN_HISTORY_DAYS are skipped. */
  async refreshAll(now: Date, signal?: AbortSignal): Promise<{ games: number; skipped: number; ms: number }> {
    const started = performance.now();
    const today = dayKey(now.getTime());
    const [histories, means] = await Promise.all([
      repo.allDailyHistory(this.deps.db, dayKey(now.getTime() - FIT_DAYS * DAY_MS), today),
      repo.dayMeans(this.deps.db, today),
    ]);
    let batch: repo.ForecastRow[] = [];
    let games = 0;
    let skipped = 0;
    for (const [universeId, history] of histories) {
      // Fitting is CPU work: let requests through between games, and stop when shutdown asks.
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      if (history.length < MIN_HISTORY_DAYS) {
        skipped += 1;
        continue;
      }
      batch.push(forecastRow(universeId, history, today, means.get(universeId) ?? null, now));
      games += 1;
      if (batch.length >= 500) {
        await repo.saveForecasts(this.deps.db, batch);
        batch = [];
      }
    }
    await repo.saveForecasts(this.deps.db, batch);
    const ms = Math.round(performance.now() - started);
    await repo.recordRun(this.deps.db, { ranAt: now, games, skipped, ms });
    return { games, skipped, ms };
  }
}

function insufficient(days: number) {
  return errors.unprocessable(
    'insufficient_history',
    `This game has ${days} complete day${days === 1 ? '' : 's'} of history; forecasts need at least ${MIN_HISTORY_DAYS}.`,
  );
}
