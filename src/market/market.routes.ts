/**
 * Market endpoints: one thin handler per route over MarketService, which answers each one with a
 * body already serialised from the stored views (sent as it is: no per-request serialisation).
 */
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { sendSerialised } from '../http/serializers.js';
import { effectivePlan } from '../identity.js';
import { BREAKOUT_METHOD } from './breakout.js';
import { GENRE_METHOD } from './genres.js';
import {
  BreakoutResponse,
  GenreOpportunities,
  marketSchemas,
  OverviewResponse,
  TimingResponse,
  TrendingQuery,
  TrendingResponse,
} from './market.schemas.js';
import type { MarketService } from './market.service.js';

const tags = ['market'];

const send = sendSerialised;

export function registerMarketRoutes(app: App, market: MarketService): void {
  for (const schema of marketSchemas) app.addSchema(schema);
  registerTrending(app, market);
  registerGenreOpportunities(app, market);
  registerGenreTiming(app, market);
  registerBreakoutRadar(app, market);
  registerOverview(app, market);
}

function registerTrending(app: App, market: MarketService): void {
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
    async (request, reply) =>
      send(reply, await market.trending(request.query, effectivePlan(request.principal))),
  );
}

function registerGenreOpportunities(app: App, market: MarketService): void {
  app.get(
    '/api/genre-opportunities',
    {
      config: { access: { auth: 'optional' } },
      schema: {
        tags,
        summary: 'Opportunity of every genre (recomputed every 6 hours)',
        description: `Anonymous and Explorer callers get the free shape: name, display_name, total_games, total_ccu and locked: true, every other field null.\n\n${GENRE_METHOD}`,
        response: { 200: GenreOpportunities, ...errorResponses(503) },
      },
    },
    async (request, reply) => send(reply, await market.genreOpportunities(effectivePlan(request.principal))),
  );
}

function registerGenreTiming(app: App, market: MarketService): void {
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
    async (_request, reply) => send(reply, await market.timing()),
  );
}

function registerBreakoutRadar(app: App, market: MarketService): void {
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
    async (_request, reply) => send(reply, await market.breakoutRadar()),
  );
}

function registerOverview(app: App, market: MarketService): void {
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
    async (_request, reply) => send(reply, await market.overview()),
  );
}
