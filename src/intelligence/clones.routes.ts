import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { sendSerialised } from '../http/serializers.js';
import { effectivePlan } from '../identity.js';
import { CLONES_METHOD } from './clone-pairs.js';
import {
  cloneSchemas,
  GameClonesQuery,
  GameClonesResponse,
  RecentClonesQuery,
  RecentClonesResponse,
} from './clones.schemas.js';
import type { ClonePairService } from './clones.service.js';

const access = { auth: 'read' } as const;
const tags = ['intelligence'];

export function registerCloneRoutes(app: App, clones: ClonePairService): void {
  for (const schema of cloneSchemas) app.addSchema(schema);
  app.get(
    '/api/intelligence/clones',
    {
      config: { access },
      schema: {
        tags,
        summary:
          "A game's clone pairs: the look-alikes it was copied from or that copy it, with the evidence",
        description:
          '404 not_found for a game the service does not collect. Pairs are paged with a cursor (limit clamped to ' +
          `the plan cap). ${CLONES_METHOD}`,
        querystring: GameClonesQuery,
        response: { 200: GameClonesResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) => clones.forGame(request.query, effectivePlan(request.principal)),
  );
  app.get(
    '/api/intelligence/clones/recent',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Clone pairs detected lately across the market, newest first, with the evidence',
        description:
          'Pairs first detected in the last `days` days, optionally of one genre; paged with a cursor (limit ' +
          `clamped to the plan cap). ${CLONES_METHOD}`,
        querystring: RecentClonesQuery,
        response: { 200: RecentClonesResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) =>
      sendSerialised(reply, await clones.recent(request.query, effectivePlan(request.principal))),
  );
}
