/**
 * POST /api/sdk/analytics/{game_id}/funnel: signed-in users of the team, like the views (a POST
 * because the steps do not fit a query string; it changes nothing). Cookie callers send CSRF.
 */
import { Type } from 'typebox';
import { type App, errorResponses } from '../http/index.js';
import { GameParams } from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';
import {
  FunnelBody,
  FunnelQuery,
  FunnelResult,
  type FunnelResultT,
  MAX_STEPS,
  MAX_WINDOW_HOURS,
  MIN_STEPS,
} from './funnel.schemas.js';
import { funnel } from './funnel.service.js';
import { reader } from './reader.js';

const DESCRIPTION = [
  `From ${MIN_STEPS} to ${MAX_STEPS} steps, each a level (a \`level\` event with that payload.level, any result) or a custom ` +
    'event (a `custom` event with that payload.name), never both (422 validation_failed naming body.steps[i]); ' +
    '`where` narrows a step with conditions as in segments (a bad one → 422 naming it).',
  'A player enters at their first step-0 event in the range, and reaches each next step with the earliest matching ' +
    'event at or after the previous step’s (a different event) and within window_hours (1 to ' +
    `${MAX_WINDOW_HOURS}, default 24) of their step-0 event. Read from the raw events of the range, so only events ` +
    'on from..to count, even when the window reaches past to.',
  'Access, range, platform and segment as for the views: another team’s game → 404; the plan clamps from.',
].join('\n\n');

export function registerFunnelRoutes(app: App, service: AnalyticsService): void {
  app.addSchema(FunnelResult);
  app.post(
    '/api/sdk/analytics/:game_id/funnel',
    {
      config: { access: { auth: 'user' as const, team: 'content.read' as const } },
      schema: {
        tags: ['sdk analytics'],
        summary: 'Players through ordered level and custom-event steps',
        description: DESCRIPTION,
        params: GameParams,
        querystring: FunnelQuery,
        body: FunnelBody,
        response: { 200: Type.Ref('SdkFunnel'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<FunnelResultT> =>
      funnel(service, reader(request), request.params.game_id, request.query, request.body),
  );
}
