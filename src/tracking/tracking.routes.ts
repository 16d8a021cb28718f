import { Type } from 'typebox';
import { errors } from '../errors.js';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import type { Principal } from '../identity.js';
import {
  type TrackedListT,
  type TrackResultT,
  UniverseParams,
  type UntrackResultT,
} from './tracking.schemas.js';
import type { Caller, TrackingService } from './tracking.service.js';

const TRACK_DESCRIPTION = [
  'Adds a game to the caller’s tracked list (GET /api/auth/me lists it in `tracked_games`).',
  'Tracking a game already tracked is idempotent: the same 200 answer, even at the cap. Past the plan’s cap ' +
    '(Explorer 5, Builder 25, Studio 100, Enterprise 500) → 409 limit_reached.',
  'A universe the catalogue lacks is read from the platform and added to the catalogue (collected from then on); ' +
    'one the platform does not know either → 404 not_found; 503 temporarily_unavailable when the platform cannot be reached.',
].join('\n\n');

const UNTRACK_DESCRIPTION =
  'Removes a game from the caller’s tracked list. Idempotent: untracking a game that is not tracked ' +
  '(or not known at all) answers the same 200, so a retried request never fails. Alerts on the game are kept.';

/** The signed-in user behind a request; `auth: 'user'` routes only ever see users. */
export function caller(p: Principal): Caller {
  if (p.kind !== 'user') throw errors.notAuthenticated();
  return { userId: p.userId, teamId: p.teamId, plan: p.plan };
}

export function registerTrackingRoutes(app: App, tracking: TrackingService): void {
  const tags = ['tracking'];
  const config = { access: { auth: 'user' as const, team: 'content' as const } };

  app.get(
    '/api/track',
    {
      config,
      schema: {
        tags,
        summary: 'The games tracked in the team the request acts in, with its plan caps',
        description:
          "X-Team-Id picks the team (your personal team without it, whose list /api/auth/me's tracked_games also shows). The caps are the plan's that applies there: inside a shared team, the team's.",
        response: { 200: Type.Ref('TrackedList') },
      },
    },
    async (request): Promise<TrackedListT> => tracking.list(caller(request.principal)),
  );

  app.post(
    '/api/track/:universe_id',
    {
      config,
      schema: {
        tags,
        summary: 'Track a game',
        description: TRACK_DESCRIPTION,
        params: UniverseParams,
        response: { 200: Type.Ref('TrackResult'), ...errorResponses(404, 409, 422, 503) },
      },
    },
    async (request): Promise<TrackResultT> =>
      tracking.track(caller(request.principal), request.params.universe_id),
  );

  app.delete(
    '/api/track/:universe_id',
    {
      config,
      schema: {
        tags,
        summary: 'Stop tracking a game',
        description: UNTRACK_DESCRIPTION,
        params: UniverseParams,
        response: { 200: Type.Ref('UntrackResult'), ...errorResponses(422) },
      },
    },
    async (request): Promise<UntrackResultT> =>
      tracking.untrack(caller(request.principal), request.params.universe_id),
  );
}
