/**
 * Market views: trending per period, the genre table, genre timing, the breakout radar and the
 * overview are computed here from the stored history, once per collection (or less often, when
 * their inputs change more slowly), and stored in market_views. Endpoints serve the stored result;
 * nothing here runs per request.
 */
import type { Static } from 'typebox';
import type { Db } from '../db/index.js';
import { GENRE_TAXONOMY, genreDisplayName } from '../platform/index.js';
import { type BreakoutGame, type BreakoutInput, breakoutRadar } from './breakout.js';
import { computeGenreOpportunities, type GenreOpportunity } from './genres.js';
import * as repo from './market.repo.js';
import type {
  OverviewResponse,
  TimingResponse,
  TrendingGame as TrendingGameSchema,
} from './market.schemas.js';
import type { GameSummary } from './summary.js';
import { type GenreDay, genreTiming } from './timing.js';
import { fillBuckets, PERIODS, type Period, periodWindow, trendScore } from './trend.js';
import * as views from './views.repo.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type TrendingGame = Static<typeof TrendingGameSchema>;

export interface TrendingView {
  period: Period;
  games: TrendingGame[];
}

/** The stored views hold the response bodies but for `computed_at` (the view's own time). */
export type OverviewView = Omit<Static<typeof OverviewResponse>, 'computed_at'>;

export interface GenresView {
  genres: GenreOpportunity[];
}

export interface BreakoutView {
  games: BreakoutGame[];
}

export type TimingView = Omit<Static<typeof TimingResponse>, 'computed_at'>;

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** A catalogue row as the fields every game summary carries. */
function summary(g: views.CatalogueRow): GameSummary {
  return {
    place_id: g.place_id,
    universe_id: g.universe_id,
    name: g.name,
    creator: g.creator_name,
    genre: g.genre,
    ccu: g.ccu,
  };
}

/** What several views read, read once per refresh (each compute function reads it alone otherwise). */
export interface SharedReads {
  catalogue(): Promise<views.CatalogueRow[]>;
}

export function sharedReads(db: Db): SharedReads {
  let catalogue: Promise<views.CatalogueRow[]> | undefined;
  return { catalogue: () => (catalogue ??= views.readCatalogue(db)) };
}

export async function computeTrending(
  db: Db,
  period: Period,
  now: Date,
  reads: SharedReads = sharedReads(db),
): Promise<TrendingView> {
  const w = periodWindow(period, now);
  // Two scans rather than one query with both: each is a single aggregation the server can run
  // in parallel, where one query would materialise the window's rows to read them twice.
  const [catalogue, means, buckets] = await Promise.all([
    reads.catalogue(),
    views.readPeriodMeans(db, w),
    views.readPeriodBuckets(db, w),
  ]);
  const meansById = new Map(means.map((r) => [r.universe_id, r]));
  const bucketsById = new Map(buckets.map((r) => [r.universe_id, r]));
  const games = catalogue.map((g): TrendingGame => {
    const m = meansById.get(g.universe_id);
    const r = bucketsById.get(g.universe_id);
    const history: (number | undefined)[] = new Array(24).fill(undefined);
    r?.buckets.forEach((b, i) => {
      if (b >= 0 && b < 24) history[b] = r.values[i];
    });
    return {
      ...summary(g),
      trend_score: m?.recent == null ? null : trendScore(m.recent, m.previous),
      ccu_history: fillBuckets(history),
    };
  });
  return { period, games };
}

export async function computeOverview(
  db: Db,
  now: Date,
  reads: SharedReads = sharedReads(db),
): Promise<OverviewView> {
  const catalogue = await reads.catalogue();
  const totals = await views.platformTotals(db);
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const [current, dayAgo] = await Promise.all([
    views.platformHourlyCcu(db, new Date(hour)),
    views.platformHourlyCcu(db, new Date(hour - DAY_MS)),
  ]);
  const genres = new Map<string, { ccu: number; games: number }>();
  for (const g of catalogue) {
    const s = genres.get(g.genre) ?? { ccu: 0, games: 0 };
    s.ccu += g.ccu;
    s.games += 1;
    genres.set(g.genre, s);
  }
  const top_genres = [...genres]
    .map(([name, s]) => ({
      name,
      display_name: genreDisplayName(name),
      total_ccu: s.ccu,
      share: totals.ccu > 0 ? round(s.ccu / totals.ccu, 4) : 0,
      games: s.games,
    }))
    .sort((a, b) => b.total_ccu - a.total_ccu || a.name.localeCompare(b.name))
    .slice(0, 5);
  return {
    platform_ccu: totals.ccu,
    // Hourly means against hourly means, so a partial hour compares like with like.
    ccu_change_24h: current !== null && dayAgo ? round(current / dayAgo - 1, 4) : null,
    active_games: totals.active,
    total_games: totals.games,
    top_genres,
    top_games: catalogue.slice(0, 5).map(summary),
  };
}

export async function computeGenres(
  db: Db,
  now: Date,
  reads: SharedReads = sharedReads(db),
): Promise<GenresView> {
  const [catalogue, baseline] = await Promise.all([
    reads.catalogue(),
    views.genreCcuNear(db, new Date(now.getTime() - 7 * DAY_MS)),
  ]);
  const names = new Map(GENRE_TAXONOMY.map((g) => [g.key, g.name]));
  for (const g of catalogue) if (!names.has(g.genre)) names.set(g.genre, genreDisplayName(g.genre));
  const genres = computeGenreOpportunities(
    catalogue.map((g) => ({
      universeId: g.universe_id,
      genre: g.genre,
      ccu: g.ccu,
      createdAt: g.created_at,
      gamepassCount: g.gamepass_count,
      gamepassMedianPrice: g.gamepass_median_price,
    })),
    baseline,
    now,
    names,
  );
  return { genres };
}

/** Visits gained per day between two counter readings; null when either is missing. */
function dailyGain(
  later: number | null,
  laterAt: Date | null,
  earlier: number | null,
  earlierAt: Date | null,
): number | null {
  if (later === null || earlier === null || !laterAt || !earlierAt) return null;
  const days = (laterAt.getTime() - earlierAt.getTime()) / DAY_MS;
  return days > 0 ? Math.max(0, later - earlier) / days : null;
}

/**
 * Breakout inputs from the catalogue and the visit counters: visits gained over the last day, and
 * the mean daily gain over the week before it, each scaled by the real time between the readings.
 */
export function breakoutInputs(
  catalogue: views.CatalogueRow[],
  counters: views.VisitsRow[],
): BreakoutInput[] {
  const visits = new Map(counters.map((c) => [c.universe_id, c]));
  return catalogue.map((g): BreakoutInput => {
    const v = visits.get(g.universe_id);
    const gained24h = v ? dailyGain(v.now, v.now_at, v.day_ago, v.day_ago_at) : null;
    const prevWeek = v ? dailyGain(v.day_ago, v.day_ago_at, v.week_ago, v.week_ago_at) : null;
    return {
      universeId: g.universe_id,
      placeId: g.place_id,
      name: g.name,
      creator: g.creator_name,
      genre: g.genre,
      ccu: g.ccu,
      visits: g.visits ?? 0,
      likes: g.up_votes,
      dislikes: g.down_votes,
      createdAt: g.created_at,
      visitsGained24h: gained24h,
      meanDailyVisitsGainedPrev7d: prevWeek,
    };
  });
}

export async function computeBreakout(
  db: Db,
  now: Date,
  reads: SharedReads = sharedReads(db),
): Promise<BreakoutView> {
  const [catalogue, counters] = await Promise.all([reads.catalogue(), views.readVisitCounters(db, now)]);
  return { games: breakoutRadar(breakoutInputs(catalogue, counters), now) };
}

export async function computeTiming(db: Db, now: Date): Promise<TimingView> {
  const history = new Map<string, GenreDay[]>();
  for (const r of await views.genreDailyCcu(db)) {
    const list = history.get(r.genre) ?? [];
    list.push({ day: r.day, ccu: r.ccu });
    history.set(r.genre, list);
  }
  const present = new Set(history.keys());
  const genres = GENRE_TAXONOMY.filter((g) => present.size === 0 || present.has(g.key));
  return genreTiming(history, genres, now);
}

/** How stale each view may get before a collection recomputes it. */
const CADENCE: Record<string, number> = {
  'trending:1h': 0,
  'trending:6h': 0,
  'trending:24h': 0,
  'trending:7d': HOUR_MS,
  'trending:30d': HOUR_MS,
  overview: 0,
  breakout: HOUR_MS,
  timing: DAY_MS,
};

const COMPUTE: Record<string, (db: Db, now: Date, reads: SharedReads) => Promise<unknown>> = {
  ...Object.fromEntries(
    PERIODS.map((p) => [
      `trending:${p}`,
      (db: Db, now: Date, reads: SharedReads) => computeTrending(db, p, now, reads),
    ]),
  ),
  overview: computeOverview,
  genres: computeGenres,
  breakout: computeBreakout,
  timing: computeTiming,
};

export const VIEW_NAMES = Object.keys(COMPUTE);

/** Genre opportunity follows the 6-hourly genre snapshots (DECISIONS §4: recomputed every 6 hours). */
function due(name: string, computedAt: Date | undefined, now: Date): boolean {
  if (!computedAt || computedAt > now) return true;
  if (name === 'genres') {
    const bucket = Math.floor(now.getTime() / (6 * HOUR_MS)) * 6 * HOUR_MS;
    return computedAt.getTime() < bucket;
  }
  return now.getTime() - computedAt.getTime() >= (CADENCE[name] ?? 0);
}

/** Recomputes every view that is due (all of them with `force`); returns the names recomputed. */
export async function refreshViews(db: Db, now: Date, options: { force?: boolean } = {}): Promise<string[]> {
  const stamps = await repo.viewTimes(db);
  const reads = sharedReads(db);
  const done: string[] = [];
  for (const name of VIEW_NAMES) {
    if (!options.force && !due(name, stamps.get(name), now)) continue;
    await repo.saveView(db, name, now, await COMPUTE[name]!(db, now, reads));
    done.push(name);
  }
  return done;
}
