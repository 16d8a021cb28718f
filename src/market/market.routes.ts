/**
 * Market endpoints: thin handlers over the stored views (views.service.ts computes them once per
 * collection). A process keeps the latest copy of each view in memory and asks the database at
 * most once a second whether a newer one was stored, so a request costs no query.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { errorResponses } from '../http/schemas.js';
import { effectivePlan } from '../identity.js';
import type { Entitlements } from '../plans.js';
import { GENRE_KEYS } from '../platform/index.js';
import { BREAKOUT_METHOD } from './breakout.js';
import { freeShape, GENRE_METHOD } from './genres.js';
import * as repo from './market.repo.js';
import {
  BreakoutResponse,
  marketSchemas,
  OverviewResponse,
  TimingResponse,
  TrendingQuery,
  TrendingResponse,
} from './market.schemas.js';
import type { BreakoutView, GenresView, OverviewView, TimingView, TrendingView } from './views.service.js';

export interface MarketRouteDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

const RECHECK_MS = 1000;
const JSON_TYPE = 'application/json; charset=utf-8';

interface Cached<T> {
  computedAt: Date;
  body: T;
  checkedAt: number;
  /** Responses already serialised from this copy, by request shape (plan cap, filter, limit). */
  rendered: Map<string, string>;
}

/** Distinct response shapes kept per view copy (a Studio caller may ask for any limit). */
const MAX_RENDERED = 256;

/** The latest stored copy of each view, re-read only when the database holds a newer one. */
export class ViewCache {
  private readonly entries = new Map<string, Cached<unknown>>();
  private readonly pending = new Map<string, Promise<Cached<unknown> | undefined>>();

  constructor(private readonly db: Db) {}

  async get<T>(name: string): Promise<{ computedAt: Date; body: T }> {
    const hit = this.entries.get(name);
    const fresh = hit && performance.now() - hit.checkedAt < RECHECK_MS ? hit : await this.refresh(name, hit);
    if (!fresh) throw errors.unavailable('Market data is still being collected; try again in a minute.', 30);
    return fresh as Cached<T>;
  }

  /**
   * The JSON of a response built from a view, serialised once per view copy and request shape:
   * most requests then cost no serialisation at all. `build` must return exactly the route's
   * response schema (the objects are ours, stored by views.service.ts).
   */
  async render<T>(
    name: string,
    shape: string,
    build: (view: { computedAt: Date; body: T }) => unknown,
  ): Promise<string> {
    const view = (await this.get<T>(name)) as Cached<T>;
    let json = view.rendered.get(shape);
    if (json === undefined) {
      json = JSON.stringify(build(view));
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
        if (!stamp) return undefined;
        if (hit && hit.computedAt.getTime() === stamp.getTime()) {
          hit.checkedAt = performance.now();
          return hit;
        }
        const view = await repo.loadView<unknown>(this.db, name);
        if (!view) return undefined;
        const entry = { ...view, checkedAt: performance.now(), rendered: new Map<string, string>() };
        this.entries.set(name, entry);
        return entry;
      })().finally(() => this.pending.delete(name));
      this.pending.set(name, p);
    }
    return p;
  }
}

export function registerMarket(app: FastifyInstance, deps: MarketRouteDeps): void {
  for (const schema of marketSchemas) app.addSchema(schema);
  const cache = new ViewCache(deps.db);
  const tags = ['market'];

  app.get(
    '/api/trending',
    {
      config: { access: { auth: 'optional' } },
      schema: {
        tags,
        summary: 'Games ordered by current CCU, with their trend over the period',
        description:
          'Recomputed after every collection (every 5 minutes). `genre` must be a genre key present in the market (422 otherwise).',
        querystring: TrendingQuery,
        response: { 200: TrendingResponse, ...errorResponses(422, 503) },
      },
    },
    async (request, reply) => {
      const q = request.query as TrendingQuery;
      if (q.genre !== undefined && !GENRE_KEYS.includes(q.genre)) {
        const view = await cache.get<TrendingView>(`trending:${q.period}`);
        if (!view.body.games.some((g) => g.genre === q.genre)) {
          throw errors.validation(
            'query.genre',
            `Unknown genre "${q.genre}": use a genre key such as "simulation".`,
          );
        }
      }
      const cap = deps.entitlements.plans[effectivePlan(request.principal)].trendingMax;
      const limit = cap === null ? q.limit : Math.min(q.limit, cap);
      const json = await cache.render<TrendingView>(
        `trending:${q.period}`,
        `${q.genre ?? ''}|${limit}`,
        (view) => {
          const games =
            q.genre === undefined ? view.body.games : view.body.games.filter((g) => g.genre === q.genre);
          return {
            games: games.slice(0, limit),
            total: games.length,
            period: q.period,
            limit,
            computed_at: view.computedAt.toISOString(),
          };
        },
      );
      return reply.type(JSON_TYPE).send(json);
    },
  );

  app.get(
    '/api/genre-opportunities',
    {
      config: { access: { auth: 'optional' } },
      schema: {
        tags,
        summary: 'Opportunity of every genre (recomputed every 6 hours)',
        description: `Anonymous and Explorer callers get the free shape: name, display_name, total_games, total_ccu and locked: true, every other field null.\n\n${GENRE_METHOD}`,
        response: { 200: Type.Array(Type.Ref('GenreOpportunity')), ...errorResponses(503) },
      },
    },
    async (request, reply) => {
      const full = deps.entitlements.plans[effectivePlan(request.principal)].genreOpportunities === 'full';
      const json = await cache.render<GenresView>('genres', full ? 'full' : 'free', (view) =>
        full ? view.body.genres : view.body.genres.map(freeShape),
      );
      return reply.type(JSON_TYPE).send(json);
    },
  );

  app.get(
    '/api/genre-timing',
    {
      config: { access: { auth: 'read' } },
      schema: {
        tags,
        summary: 'When to launch, per genre: calendar windows ranked by their uplift',
        description:
          'Learned from stored history once a genre has a year of it; until then from the documented prior calendar of school breaks, holidays and platform events (each `reason` says which).',
        response: { 200: TimingResponse, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      const json = await cache.render<TimingView>('timing', '', (view) => ({
        ...view.body,
        computed_at: view.computedAt.toISOString(),
      }));
      return reply.type(JSON_TYPE).send(json);
    },
  );

  app.get(
    '/api/breakout-radar',
    {
      config: { access: { auth: 'read' } },
      schema: {
        tags,
        summary: 'Up to 50 young or small games breaking out (recomputed hourly)',
        description: BREAKOUT_METHOD,
        response: { 200: BreakoutResponse, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      const json = await cache.render<BreakoutView>('breakout', '', (view) => ({
        ...view.body,
        computed_at: view.computedAt.toISOString(),
      }));
      return reply.type(JSON_TYPE).send(json);
    },
  );

  app.get(
    '/api/market/overview',
    {
      config: { access: { auth: 'optional' } },
      schema: {
        tags,
        summary: 'The platform at a glance: CCU now and 24 h ago, active games, top genres and games',
        response: { 200: OverviewResponse, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      const json = await cache.render<OverviewView>('overview', '', (view) => ({
        ...view.body,
        computed_at: view.computedAt.toISOString(),
      }));
      return reply.type(JSON_TYPE).send(json);
    },
  );
}
