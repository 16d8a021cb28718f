import { PlaceParams } from '../games/index.js';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { sendSerialised } from '../http/serializers.js';
import { effectivePlan } from '../identity.js';
import {
  GameUpdatesQuery,
  GameUpdatesResponse,
  METHOD,
  RecentQuery,
  RecentResponse,
  TimingQuery,
  TimingResponse,
} from './updates.schemas.js';
import { RECENT_CACHE_MS, TIMING_CACHE_MS, type UpdateImpactService } from './updates.service.js';

const access = { auth: 'read' } as const;

export function registerUpdateRoutes(app: App, updates: UpdateImpactService): void {
  // Registered before /:place_id so that the static paths win (they would anyway: find-my-way
  // prefers static segments), and documented in this order.
  app.get(
    '/api/update-impact/recent',
    {
      config: { access },
      schema: {
        tags: ['update impact'],
        summary: 'Biggest gains or losses from game updates across the market',
        description:
          `Measured updates of the last \`days\` days, ranked by impact, with a cursor; a page is served from memory ` +
          `for ${RECENT_CACHE_MS / 1000} s. ${METHOD}`,
        querystring: RecentQuery,
        response: { 200: RecentResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) =>
      sendSerialised(reply, await updates.recent(request.query, effectivePlan(request.principal))),
  );
  app.get(
    '/api/update-impact/timing',
    {
      config: { access },
      schema: {
        tags: ['update impact'],
        summary: 'Which weekday and hour of release did best',
        description:
          'Impact of measured updates by the UTC weekday and hour they were released, with sample sizes; ' +
          `recomputed at most every ${TIMING_CACHE_MS / 60_000} minutes per genre and window. ${METHOD}`,
        querystring: TimingQuery,
        response: { 200: TimingResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) => sendSerialised(reply, await updates.timing(request.query)),
  );
  app.get(
    '/api/update-impact/:place_id',
    {
      config: { access },
      schema: {
        tags: ['update impact'],
        summary: "A game's updates and what each did to its players",
        description:
          'Every update the collector saw (the game’s `updated` time moving on), newest first, each measured once the ' +
          `7 days after its release day have passed. 404 not_found for a game the service does not collect. ${METHOD}`,
        params: PlaceParams,
        querystring: GameUpdatesQuery,
        response: { 200: GameUpdatesResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) =>
      updates.forGame(request.params.place_id, effectivePlan(request.principal), request.query),
  );
}
