/**
 * Update-impact rules: which updates are due for measuring and what counts as overlapping, the
 * per-game list, the market-wide gains and losses, and the weekday and hour of release that did
 * best. The estimator (impact.ts) is pure; this file feeds it from the daily rollups and stores what
 * it says.
 */
import { TtlCache } from '../cache.js';
import type { Clock } from '../clock.js';
import type { Db, Queryable } from '../db/index.js';
import { errors } from '../errors.js';
import { dailyHistory, dayKey } from '../games/index.js';
import { decodeCursor, encodeCursor } from '../http/pages.js';
import { type SerialisedBody, serialise } from '../http/serializers.js';
import { assertKnownGenre, findGameByPlaceId, type SeenUpdate } from '../market/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import { BASELINE_DAYS, measureImpact, WINDOW_DAYS } from './impact.js';
import * as repo from './updates.repo.js';
import {
  type GameUpdatesQueryT,
  type GameUpdatesResponseT,
  METHOD,
  type RecentQueryT,
  type RecentResponseT,
  type TimingQueryT,
  type TimingResponseT,
  type UpdateImpactT,
} from './updates.schemas.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The last collection of a window's final day is rolled up within this after midnight. */
const SETTLE_MS = HOUR_MS;
const BATCH = 200;
/** A run that settles this many updates refreshes the table's planner statistics. */
const ANALYSE_AFTER = 1000;
/** Timing aggregates every measured update: computed at most this often per genre and window. */
export const TIMING_CACHE_MS = 5 * 60_000;
/** Pages of the market-wide list are served from memory this long. */
export const RECENT_CACHE_MS = 60_000;
/** A weekday or hour needs this many measured updates to be named best. */
export const MIN_TIMING_UPDATES = 10;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export interface UpdatesDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const pct = (fraction: number) => Math.round(fraction * 1000) / 10;

/** When an update released at `releasedAt` can be measured: its window's last day rolled up. */
export function measurableFrom(releasedAt: Date): Date {
  return new Date(dayStart(releasedAt.getTime()) + (WINDOW_DAYS + 1) * DAY_MS + SETTLE_MS);
}

/**
 * Whether another update is mixed into this one's impact: the next went out before the window
 * ended, or the previous within the 7 days before the release day (its effect was still settling
 * where the counterfactual is fitted, or the counterfactual never saw it).
 */
export function overlaps(releasedAt: Date, previousAt: Date | null, nextAt: Date | null): boolean {
  const releaseDay = dayStart(releasedAt.getTime());
  if (nextAt && nextAt.getTime() < releaseDay + (WINDOW_DAYS + 1) * DAY_MS) return true;
  return previousAt !== null && previousAt.getTime() >= releaseDay - WINDOW_DAYS * DAY_MS;
}

function toApi(r: repo.UpdateRow): UpdateImpactT {
  const measured = r.status === 'measured' && r.impact !== null;
  return {
    released_at: r.released_at.toISOString(),
    previous_update_at: r.previous_at?.toISOString() ?? null,
    detected_at: r.detected_at.toISOString(),
    status: r.status,
    measurable_from: measurableFrom(r.released_at).toISOString(),
    overlapping_update: r.overlapping,
    impact: measured
      ? {
          percent: pct(r.impact!),
          ci80: { low: pct(r.ci80_low!), high: pct(r.ci80_high!) },
          ci95: { low: pct(r.ci95_low!), high: pct(r.ci95_high!) },
          significant: r.significant!,
          observed_mean_ccu: Math.round(r.observed_mean! * 10) / 10,
          counterfactual_mean_ccu: Math.round(r.counterfactual_mean! * 10) / 10,
          baseline_days: r.baseline_days!,
          window_days: r.window_days!,
          model_version: r.model_version!,
        }
      : null,
  };
}

export class UpdateImpactService {
  private readonly timingCache = new TtlCache<SerialisedBody>(TIMING_CACHE_MS, 200);
  private readonly recentPages = new TtlCache<SerialisedBody>(RECENT_CACHE_MS, 1000);

  constructor(private readonly deps: UpdatesDeps) {}

  /** The collector's and backfill's hook: stores the updates they saw. */
  record = async (db: Queryable, seen: SeenUpdate[]): Promise<void> => {
    await repo.insertUpdates(db, seen);
  };

  /** Measures every update whose window has passed; returns how many it stored. */
  async measureDue(now: Date, signal?: AbortSignal): Promise<{ measured: number; other: number }> {
    const releasedBefore = new Date(dayStart(now.getTime() - SETTLE_MS) - WINDOW_DAYS * DAY_MS);
    const stats = { measured: 0, other: 0 };
    for (;;) {
      const due = await repo.dueUpdates(this.deps.db, releasedBefore, BATCH);
      for (const u of due) {
        if (signal?.aborted) return stats;
        const releaseDay = dayStart(u.released_at.getTime());
        const history = await dailyHistory(
          this.deps.db,
          u.universe_id,
          dayKey(releaseDay - BASELINE_DAYS * DAY_MS),
          dayKey(releaseDay + (WINDOW_DAYS + 1) * DAY_MS),
        );
        const impact = measureImpact(history, dayKey(releaseDay));
        const overlapping = overlaps(u.released_at, u.previous_at, u.next_released_at);
        await repo.saveImpact(this.deps.db, u.id, impact, overlapping, now);
        if (impact.status === 'measured') stats.measured++;
        else stats.other++;
      }
      if (due.length < BATCH) break;
    }
    if (stats.measured + stats.other >= ANALYSE_AFTER) await repo.analyseUpdates(this.deps.db);
    return stats;
  }

  private cap(plan: PlanName, limit: number): { cap: number; limit: number } {
    const cap = this.deps.entitlements.plans[plan].intelligenceListMax;
    return { cap, limit: Math.min(limit, cap) };
  }

  async forGame(placeId: number, plan: PlanName, q: GameUpdatesQueryT): Promise<GameUpdatesResponseT> {
    const game = await findGameByPlaceId(this.deps.db, placeId);
    if (!game) throw errors.notFound('The service does not collect this game.');
    const { cap, limit } = this.cap(plan, q.limit);
    const before = decodeCursor(q.cursor, 1)?.[0];
    const rows = await repo.updatesOfGame(this.deps.db, game.universe_id, before, limit + 1);
    const page = rows.slice(0, limit);
    return {
      place_id: Number(game.place_id),
      universe_id: Number(game.universe_id),
      name: game.name,
      genre: game.genre,
      updates: page.map(toApi),
      next_cursor: rows.length > limit ? encodeCursor([page.at(-1)!.id]) : null,
      limit_cap: cap,
      method: METHOD,
    };
  }

  /** The newest `limit` updates of these games, each with its game's universe id (a creator's page). */
  async newestOf(universeIds: number[], limit: number): Promise<(UpdateImpactT & { universe_id: number })[]> {
    if (universeIds.length === 0) return [];
    const rows = await repo.updatesOfGames(this.deps.db, universeIds, limit);
    return rows.map((r) => ({ universe_id: Number(r.universe_id), ...toApi(r) }));
  }

  /**
   * GET /api/update-impact/recent as serialised JSON: a page is kept RECENT_CACHE_MS per process
   * (impacts are measured every 15 minutes), so a repeated read costs no query.
   */
  async recent(q: RecentQueryT, plan: PlanName): Promise<SerialisedBody> {
    await assertKnownGenre(this.deps.db, q.genre);
    const { cap, limit } = this.cap(plan, q.limit);
    const after = decodeCursor(q.cursor, 2);
    const key = [q.genre ?? '', q.direction, q.days, q.significant_only, q.cursor ?? '', limit, cap].join(
      '|',
    );
    const now = this.deps.clock.now();
    return this.recentPages.get(key, now.getTime(), async () =>
      serialise(await this.computeRecent(q, now, { cap, limit, after })),
    );
  }

  private async computeRecent(
    q: RecentQueryT,
    now: Date,
    { cap, limit, after }: { cap: number; limit: number; after: number[] | undefined },
  ): Promise<RecentResponseT> {
    const since = new Date(now.getTime() - q.days * DAY_MS);
    const rows = await repo.rankedUpdates(this.deps.db, {
      since,
      until: now,
      genre: q.genre,
      direction: q.direction,
      significantOnly: q.significant_only,
      after: after ? { impact: after[0]!, id: after[1]! } : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      direction: q.direction,
      genre: q.genre ?? null,
      since: since.toISOString(),
      items: page.map((r) => ({
        place_id: Number(r.place_id),
        universe_id: Number(r.universe_id),
        name: r.name,
        genre: r.genre,
        update: toApi(r),
      })),
      next_cursor: rows.length > limit && last ? encodeCursor([last.impact!, last.id]) : null,
      limit_cap: cap,
      method:
        `Measured updates released since \`since\` that no other update of the game overlapped, ordered by impact ` +
        `(${q.direction === 'gains' ? 'largest first' : 'most negative first'}). ${METHOD}`,
    };
  }

  /** GET /api/update-impact/timing as serialised JSON, from a per-process cache of TIMING_CACHE_MS
   * (new impacts arrive once per collection): a repeated read costs no query and no serialising. */
  async timing(q: TimingQueryT): Promise<SerialisedBody> {
    await assertKnownGenre(this.deps.db, q.genre);
    const now = this.deps.clock.now();
    return this.timingCache.get(`${q.genre ?? ''}|${q.days}`, now.getTime(), async () =>
      serialise(await this.computeTiming(q, now)),
    );
  }

  private async computeTiming(q: TimingQueryT, now: Date): Promise<TimingResponseT> {
    const since = new Date(now.getTime() - q.days * DAY_MS);
    const range = { since, until: now, genre: q.genre };
    const [weekdays, hours] = await Promise.all([
      repo.impactByReleaseTime(this.deps.db, 'weekday', range),
      repo.impactByReleaseTime(this.deps.db, 'hour', range),
    ]);
    const bucket = (rows: repo.TimingRow[], i: number) => {
      const r = rows.find((x) => x.bucket === i);
      return {
        updates: r?.updates ?? 0,
        mean_percent: r ? pct(r.mean_impact) : 0,
        median_percent: r ? pct(r.median_impact) : 0,
        significant_gain_share: r ? Math.round((r.significant_gains / r.updates) * 1000) / 1000 : 0,
        significant_loss_share: r ? Math.round((r.significant_losses / r.updates) * 1000) / 1000 : 0,
      };
    };
    const best = (rows: repo.TimingRow[]) => {
      const eligible = rows.filter((r) => r.updates >= MIN_TIMING_UPDATES);
      if (eligible.length === 0) return null;
      return eligible.reduce((a, b) => (b.median_impact > a.median_impact ? b : a)).bucket;
    };
    return {
      genre: q.genre ?? null,
      since: since.toISOString(),
      updates: weekdays.reduce((s, r) => s + r.updates, 0),
      min_updates: MIN_TIMING_UPDATES,
      by_weekday: WEEKDAYS.map((name, weekday) => ({ weekday, name, ...bucket(weekdays, weekday) })),
      by_hour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...bucket(hours, hour) })),
      best_weekday: best(weekdays),
      best_hour: best(hours),
      method:
        'Measured updates released since `since` that no other update overlapped, grouped by the UTC weekday and ' +
        `hour of their release time. Best: the highest median impact among weekdays (hours) with at least ` +
        `${MIN_TIMING_UPDATES} updates. ${METHOD}`,
    };
  }
}
