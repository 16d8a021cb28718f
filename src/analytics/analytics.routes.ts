/**
 * GET /api/sdk/games and GET /api/sdk/analytics/{game_id}/{view} (one route per view, each with its
 * own response schema). Signed-in users only (cookie + CSRF or bearer); their team's games.
 */
import { Type } from 'typebox';
import { type App, errorResponses } from '../http/index.js';
import { AnalyticsQuery, GameParams } from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';
import { registerFunnelRoutes } from './funnel.routes.js';
import { MAX_RANGE_DAYS } from './range.js';
import { reader } from './reader.js';
import type { View } from './views/index.js';

const tags = ['sdk analytics'];
const config = { access: { auth: 'user' as const, team: 'content' as const } };

const VIEW_DESCRIPTION = [
  'Reads the rollups of one game of the caller’s team (kept within seconds of the raw events by the rollup job); a game ' +
    'the team has no events for answers 404 not_found, whoever owns it.',
  `from and to are UTC dates, both included (default: the 30 days ending today); to before from, or more than ` +
    `${MAX_RANGE_DAYS} days → 422 validation_failed. The plan reads Explorer 30 days back, Builder 90, Studio 365, ` +
    'Enterprise unlimited: an earlier from is moved to the first day it may read, and history_limited_from says so.',
  'platform keeps one platform (default: every platform of the game id combined); segment keeps the players of a ' +
    'segment (any of their events in the range matches it; an unknown segment → 404); granularity groups series ' +
    'by day or ISO week.',
].join('\n\n');

export function registerAnalyticsRoutes(app: App, service: AnalyticsService, views: readonly View[]): void {
  app.get(
    '/api/sdk/games',
    {
      config,
      schema: {
        tags,
        summary: "The team's games with SDK events",
        description:
          'Each (platform, game_id) the team has sent events for, busiest in the last 24 hours first.',
        response: { 200: Type.Ref('SdkGames') },
      },
    },
    async (request) => service.games(reader(request)),
  );
  for (const view of views) registerView(app, service, view);
  registerFunnelRoutes(app, service);
}

function registerView(app: App, service: AnalyticsService, view: View): void {
  app.get(
    `/api/sdk/analytics/:game_id/${view.name}`,
    {
      config,
      schema: {
        tags,
        summary: view.summary,
        description: VIEW_DESCRIPTION,
        params: GameParams,
        querystring: AnalyticsQuery,
        response: {
          200: Type.Ref((view.schema as { $id?: string }).$id ?? view.name),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => service.view(view, reader(request), request.params.game_id, request.query),
  );
}
