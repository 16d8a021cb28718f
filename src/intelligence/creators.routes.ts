import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { effectivePlan } from '../identity.js';
import { CreatorParams, CreatorQuery, CreatorResponse } from './creators.schemas.js';
import type { CreatorService } from './creators.service.js';

export function registerCreatorRoutes(app: App, creators: CreatorService): void {
  app.get(
    '/api/intelligence/creators/:creator_id',
    {
      config: { access: { auth: 'read' } },
      schema: {
        tags: ['intelligence'],
        summary: "A creator's games, their total and per-game CCU history, launches and updates",
        description:
          '`type` says whether the id is a user’s or a group’s. 404 not_found when the service collects no game ' +
          'of that creator. The games are paged with a cursor (limit clamped to the plan cap).',
        params: CreatorParams,
        querystring: CreatorQuery,
        response: { 200: CreatorResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) =>
      creators.creator(request.params.creator_id, request.query, effectivePlan(request.principal)),
  );
}
