/**
 * Market reads: the stored views (views.service.ts computes them once per collection) as the
 * market endpoints answer them, already serialised. A process keeps the latest copy of each view in
 * memory and asks the database at most once a second whether a newer one was stored, so a request
 * costs no query; each answer is serialised once per view copy and request shape (plan cap, filter,
 * limit), so most requests cost no serialisation either.
 *
 * The bodies skip Fastify's serialiser: each builder below is typed by its route's response schema,
 * and market.service.test.ts holds every body it can serve against that schema.
 */

import type { Static } from 'typebox';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { type SerialisedBody, serialise } from '../http/serializers.js';
import type { Entitlements, PlanName } from '../plans.js';
import { GENRE_KEYS } from '../platform/index.js';
import { freeShape } from './genres.js';
import * as repo from './market.repo.js';
import type {
  BreakoutResponse,
  GenreOpportunities,
  OverviewResponse,
  TimingResponse,
  TrendingQuery,
  TrendingResponse,
} from './market.schemas.js';
import type { Period } from './trend.js';
import type { BreakoutView, GenresView, OverviewView, TimingView, TrendingView } from './views.service.js';

export interface MarketServiceDeps {
  db: Db;
  entitlements: Entitlements;
}

/** A response body serialised to JSON, sent as it is with `application/json; charset=utf-8`. */
export type { SerialisedBody };

const RECHECK_MS = 1000;

/** Distinct response shapes kept per view copy (a Studio caller may ask for any limit). */
const MAX_RENDERED = 256;

/** The stored views by name, as views.service.ts computes and stores them. */
type Views = { [P in Period as `trending:${P}`]: TrendingView } & {
  genres: GenresView;
  timing: TimingView;
  breakout: BreakoutView;
  overview: OverviewView;
};
type ViewName = keyof Views;

interface StoredView<T> {
  computedAt: Date;
  body: T;
}

interface Cached<T> extends StoredView<T> {
  checkedAt: number;
  /** Responses already serialised from this copy, by request shape. */
  rendered: Map<string, SerialisedBody>;
}

/** The latest stored copy of each view, re-read only when the database holds a newer one. */
class ViewCache {
  private readonly entries = new Map<string, Cached<unknown>>();
  private readonly pending = new Map<string, Promise<Cached<unknown> | undefined>>();
  /** When the database last held no copy of a view (performance.now()): until the first
   * collection, a view is looked for at most once per RECHECK_MS, not on every request. */
  private readonly missing = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** The view's latest copy (its body as views.service.ts stored it under `name`). */
  async get<K extends ViewName>(name: K): Promise<Cached<Views[K]>> {
    const hit = this.entries.get(name);
    const now = performance.now();
    let fresh: Cached<unknown> | undefined;
    if (hit && now - hit.checkedAt < RECHECK_MS) fresh = hit;
    else if (!hit && now - (this.missing.get(name) ?? Number.NEGATIVE_INFINITY) < RECHECK_MS)
      fresh = undefined;
    else fresh = await this.refresh(name, hit);
    if (!fresh) throw errors.unavailable('Market data is still being collected; try again in a minute.', 30);
    // The body is what views.service.ts stored under this name (the database holds only ours).
    return fresh as Cached<Views[K]>;
  }

  /** The JSON of `build(view)`, serialised once per view copy and request shape. */
  async render<K extends ViewName, R>(
    name: K,
    shape: string,
    build: (view: StoredView<Views[K]>) => R,
  ): Promise<SerialisedBody> {
    const view = await this.get(name);
    let json = view.rendered.get(shape);
    if (json === undefined) {
      json = serialise(build(view));
      if (view.rendered.size >= MAX_RENDERED) view.rendered.clear();
      view.rendered.set(shape, json);
    }
    return json;
  }

  private refresh(name: string, hit: Cached<unknown> | undefined): Promise<Cached<unknown> | undefined> {
    let p = this.pending.get(name);
    if (!p) {
      p = (async () => {
        const stamp = await repo.viewTime(this.db, name);
        if (!stamp) {
          this.missing.set(name, performance.now());
          return undefined;
        }
        this.missing.delete(name);
        if (hit && hit.computedAt.getTime() === stamp.getTime()) {
          hit.checkedAt = performance.now();
          return hit;
        }
        const view = await repo.loadView<unknown>(this.db, name);
        if (!view) return undefined;
        const entry = { ...view, checkedAt: performance.now(), rendered: new Map<string, SerialisedBody>() };
        this.entries.set(name, entry);
        return entry;
      })().finally(() => this.pending.delete(name));
      this.pending.set(name, p);
    }
    return p;
  }
}

export class MarketService {
  private readonly cache: ViewCache;

  constructor(private readonly deps: MarketServiceDeps) {
    this.cache = new ViewCache(deps.db);
  }

  /**
   * GET /api/trending: the period's view, filtered by genre (a key no game of the market has → 422)
   * and cut at the limit clamped to the plan's cap.
   */
  async trending(query: TrendingQuery, plan: PlanName): Promise<SerialisedBody> {
    const { period, genre } = query;
    const name = `trending:${period}` as const;
    if (genre !== undefined && !GENRE_KEYS.includes(genre)) {
      const view = await this.cache.get(name);
      if (!view.body.games.some((g) => g.genre === genre)) {
        throw errors.validation(
          'query.genre',
          `Unknown genre "${genre}": use a genre key such as "simulation".`,
        );
      }
    }
    const cap = this.deps.entitlements.plans[plan].trendingMax;
    const limit = cap === null ? query.limit : Math.min(query.limit, cap);
    return this.cache.render(name, `${genre ?? ''}|${limit}`, (view) => {
      const games = genre === undefined ? view.body.games : view.body.games.filter((g) => g.genre === genre);
      const body: Static<typeof TrendingResponse> = {
        games: games.slice(0, limit),
        total: games.length,
        period,
        limit,
        computed_at: view.computedAt.toISOString(),
      };
      return body;
    });
  }

  /** GET /api/genre-opportunities: the full table, or the free shape for plans without it. */
  async genreOpportunities(plan: PlanName): Promise<SerialisedBody> {
    const full = this.deps.entitlements.plans[plan].genreOpportunities === 'full';
    return this.cache.render('genres', full ? 'full' : 'free', (view) => {
      const body: Static<typeof GenreOpportunities> = full
        ? view.body.genres
        : view.body.genres.map(freeShape);
      return body;
    });
  }

  /** GET /api/genre-timing. */
  async timing(): Promise<SerialisedBody> {
    return this.cache.render('timing', '', (view) => {
      const body: Static<typeof TimingResponse> = {
        ...view.body,
        computed_at: view.computedAt.toISOString(),
      };
      return body;
    });
  }

  /** GET /api/breakout-radar. */
  async breakoutRadar(): Promise<SerialisedBody> {
    return this.cache.render('breakout', '', (view) => {
      const body: Static<typeof BreakoutResponse> = {
        ...view.body,
        computed_at: view.computedAt.toISOString(),
      };
      return body;
    });
  }

  /** GET /api/market/overview. */
  async overview(): Promise<SerialisedBody> {
    return this.cache.render('overview', '', (view) => {
      const body: Static<typeof OverviewResponse> = {
        ...view.body,
        computed_at: view.computedAt.toISOString(),
      };
      return body;
    });
  }
}
