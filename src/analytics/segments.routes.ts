/**
 * POST/GET /api/sdk/segments and GET/DELETE /api/sdk/segments/{id}: the team's segments. Signed-in
 * users only (cookie + CSRF or bearer), like the analytics views that read them (`?segment=<id>`).
 */
import { Type } from 'typebox';
import { type App, errorResponses } from '../http/index.js';
import { MAX_CONDITIONS } from './conditions.js';
import { reader } from './reader.js';
import {
  CreateSegmentBody,
  MAX_SEGMENTS_PER_TEAM,
  type SdkSegmentDetailT,
  type SdkSegmentsT,
  type SdkSegmentT,
  SegmentIdParams,
  segmentSchemas,
} from './segments.schemas.js';
import type { SegmentsService } from './segments.service.js';

const tags = ['sdk segments'];
const config = { access: { auth: 'user' as const, team: 'content' as const } };

const CREATE_DESCRIPTION = [
  'A segment is the players with at least one event matching its conditions in the range a view reads (match all: ' +
    'every condition on that one event; any: at least one); event_type keeps events of one type only. Use it as ' +
    '`?segment=<id>` on any GET /api/sdk/analytics view.',
  `Each condition is {field, op, value}: field is platform, country, game_id or payload.<key> (nested: payload.a.b; ` +
    `extra payload fields too); op is eq, neq, in, gt, gte, lt, lte, exists or contains. 1 to ${MAX_CONDITIONS} ` +
    'conditions. A bad field, operator or value → 422 validation_failed naming it (e.g. body.conditions[1].value).',
  `At most ${MAX_SEGMENTS_PER_TEAM} segments per team → 409 limit_reached.`,
].join('\n\n');

const caller = (request: Parameters<typeof reader>[0]) => reader(request).teamId;

export function registerSegmentRoutes(app: App, service: SegmentsService): void {
  for (const schema of segmentSchemas) app.addSchema(schema);
  app.post(
    '/api/sdk/segments',
    {
      config,
      schema: {
        tags,
        summary: 'Define a segment of players by conditions on their events',
        description: CREATE_DESCRIPTION,
        body: CreateSegmentBody,
        response: { 201: Type.Ref('SdkSegment'), ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const created: SdkSegmentT = await service.create(caller(request), request.body);
      return reply.code(201).send(created);
    },
  );
  app.get(
    '/api/sdk/segments',
    {
      config,
      schema: {
        tags,
        summary: "The team's segments, newest first",
        response: { 200: Type.Ref('SdkSegments') },
      },
    },
    async (request): Promise<SdkSegmentsT> => service.list(caller(request)),
  );
  app.get(
    '/api/sdk/segments/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A segment and its size',
        description:
          "size: distinct players of any of the team's games with a matching event in the 30 UTC days ending today " +
          "(size_window). Another team's segment → 404 not_found.",
        params: SegmentIdParams,
        response: { 200: Type.Ref('SdkSegmentDetail'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<SdkSegmentDetailT> => service.get(caller(request), request.params.id),
  );
  app.delete(
    '/api/sdk/segments/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a segment',
        description: "Views asked for it afterwards answer 404. Another team's segment → 404 not_found.",
        params: SegmentIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      await service.remove(caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
