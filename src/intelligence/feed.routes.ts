import { Type } from 'typebox';
import { errors } from '../errors.js';
import { type App, requireUser } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { effectivePlan } from '../identity.js';
import {
  FeedQuery,
  FeedResponse,
  FollowBody,
  type FollowBodyT,
  FollowsResponse,
  UnfollowQuery,
  type UnfollowQueryT,
} from './feed.schemas.js';
import { FEED_METHOD, type FeedService } from './feed.service.js';

const tags = ['intelligence'];
const user = { auth: 'user' } as const;

/** The unfollow query as a follow body, or 422 naming the missing field. */
function unfollowTarget(q: UnfollowQueryT): FollowBodyT {
  if (q.kind === 'game') {
    if (q.place_id === undefined) throw errors.validation('query.place_id', 'kind=game needs place_id.');
    return { kind: 'game', place_id: q.place_id };
  }
  if (q.creator_type === undefined) {
    throw errors.validation('query.creator_type', 'kind=creator needs creator_type (user or group).');
  }
  if (q.creator_id === undefined)
    throw errors.validation('query.creator_id', 'kind=creator needs creator_id.');
  return { kind: 'creator', creator_type: q.creator_type, creator_id: q.creator_id };
}

export function registerFeedRoutes(app: App, feed: FeedService): void {
  app.get(
    '/api/intelligence/follows',
    {
      config: { access: user },
      schema: {
        tags,
        summary: 'The games and creators you follow',
        response: { 200: FollowsResponse },
      },
    },
    async (request) => feed.follows(requireUser(request.principal).userId, effectivePlan(request.principal)),
  );
  app.post(
    '/api/intelligence/follows',
    {
      config: { access: user },
      schema: {
        tags,
        summary: 'Follow a game or a creator',
        description:
          '201 with the follow; 200 when you already follow it (idempotent, even at the cap). 404 not_found for a ' +
          'game or creator the service collects nothing of; 409 limit_reached past the plan’s cap (Explorer 10, ' +
          'Builder 50, Studio 200, Enterprise 1,000).',
        body: FollowBody,
        response: { 200: Type.Ref('Follow'), 201: Type.Ref('Follow'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { created, follow } = await feed.follow(
        requireUser(request.principal).userId,
        effectivePlan(request.principal),
        request.body,
      );
      return reply.code(created ? 201 : 200).send(follow);
    },
  );
  app.delete(
    '/api/intelligence/follows',
    {
      config: { access: user },
      schema: {
        tags,
        summary: 'Stop following a game or a creator',
        description: '204 whether or not you followed it (idempotent).',
        querystring: UnfollowQuery,
        response: { 204: Type.Null(), ...errorResponses(422) },
      },
    },
    async (request, reply) => {
      await feed.unfollow(requireUser(request.principal).userId, unfollowTarget(request.query));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/intelligence/feed',
    {
      config: { access: user },
      schema: {
        tags,
        summary: 'What happened to the games and creators you follow, newest first',
        description: `Paged with a cursor; limit clamped to the plan cap. ${FEED_METHOD}`,
        querystring: FeedQuery,
        response: { 200: FeedResponse, ...errorResponses(422) },
      },
    },
    async (request) =>
      feed.feed(requireUser(request.principal).userId, effectivePlan(request.principal), request.query),
  );
}
