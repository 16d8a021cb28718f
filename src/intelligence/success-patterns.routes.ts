import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { sendSerialised } from '../http/serializers.js';
import {
  SuccessPatternsQuery,
  SuccessPatternsResponse,
  successPatternSchemas,
} from './success-patterns.schemas.js';
import { CACHE_MS, PATTERNS_METHOD, type SuccessPatternService } from './success-patterns.service.js';

export function registerSuccessPatternRoutes(app: App, patterns: SuccessPatternService): void {
  for (const schema of successPatternSchemas) app.addSchema(schema);
  app.get(
    '/api/intelligence/success-patterns',
    {
      config: { access: { auth: 'read', plan: 'Builder', feature: 'Success patterns' } },
      schema: {
        tags: ['intelligence'],
        summary: 'What the fastest-growing games of a genre have in common, against the rest',
        description:
          `Computed on request from the stored catalogue and daily rollups and kept ${CACHE_MS / 60_000} minutes ` +
          'per genre and period in each process (the data changes once a day). Every figure is traceable: ' +
          'eligible_games, each group’s games and each feature’s n say on how many games it stands. 200 with ' +
          `features [] and a reason when too few games qualify. ${PATTERNS_METHOD}`,
        querystring: SuccessPatternsQuery,
        response: { 200: SuccessPatternsResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) => sendSerialised(reply, await patterns.patterns(request.query)),
  );
}
