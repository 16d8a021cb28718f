import { Type } from 'typebox';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import {
  ALERT_TYPES_DESCRIPTION,
  AlertEvents,
  AlertList,
  AlertParams,
  AlertPatchBody,
  CreateAlertBody,
  Deleted,
  EventsQuery,
  type ListedAlertT,
  ViewedAll,
} from './alerts.schemas.js';
import type { AlertsService } from './alerts.service.js';
import { caller } from './tracking.routes.js';

const CREATE_DESCRIPTION = [
  'Creates an alert rule on one game (a universe in the catalogue, 404 not_found otherwise; the game need not be ' +
    'tracked). The engine evaluates every rule every 15 minutes and after each collection; a rule fires once per ' +
    'crossing and re-arms only after its condition clears, so it never fires on every evaluation. A firing sets the ' +
    'rule’s `message` to what happened, `viewed` to false, and is listed by GET /api/alerts/{alert_id}/events.',
  `Types:\n${ALERT_TYPES_DESCRIPTION}`,
  'An unknown type, a missing game_id, a negative or non-numeric threshold, or a threshold missing where the type ' +
    'needs one → 422 validation_failed naming the field. Past the plan’s alert cap (Explorer 5, Builder 25, ' +
    'Studio 100, Enterprise 500) → 409 limit_reached; after a downgrade, the rules past the cap (newest first) stay ' +
    'but are not evaluated.',
].join('\n\n');

const PATCH_DESCRIPTION = [
  'Sets the rule’s `viewed` flag, its `threshold`, or both (at least one: an empty body → 422 validation_failed, ' +
    'field `body`). Answers the rule as GET /api/alerts/my lists it. Another user’s rule → 404 not_found.',
  'A threshold is checked against the rule’s type exactly as at creation (422 validation_failed, field ' +
    '`body.threshold`, nothing changed): ccu_spike, ccu_drop and competitor take any number ≥ 0, trend_change 0..100, ' +
    'rank_change a whole number ≥ 1. A different threshold starts the rule over as if it were created now: ' +
    'ccu_spike and ccu_drop are armed again (so CCU already past the new line fires at the next evaluation); ' +
    'trend_change, rank_change and competitor forget their reference (the direction, the rank, the games already ' +
    'past the line) and take a new one at the next evaluation, without firing. The firing history and the viewed flag ' +
    'are kept; until the rule first fires, its `message` says what it watches with the new threshold. Sending the ' +
    'threshold it already has changes nothing.',
].join('\n\n');

const tags = ['tracking'];
const config = { access: { auth: 'user' as const, team: 'content' as const } };

export function registerAlertRoutes(app: App, alerts: AlertsService): void {
  registerRuleRoutes(app, alerts);
  registerRuleChangeRoutes(app, alerts);
}

/** Creating and listing the caller's rules. */
function registerRuleRoutes(app: App, alerts: AlertsService): void {
  app.post(
    '/api/alerts',
    {
      config,
      schema: {
        tags,
        summary: 'Create an alert rule',
        description: CREATE_DESCRIPTION,
        body: CreateAlertBody,
        response: { 201: Type.Ref('CreatedAlert'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const created = await alerts.create(caller(request.principal), request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/alerts/my',
    {
      config,
      schema: {
        tags,
        summary: 'The caller’s alert rules',
        description: 'Every rule of the caller (never another user’s), newest first, viewed and unviewed.',
        response: { 200: AlertList },
      },
    },
    async (request) => alerts.list(caller(request.principal)),
  );
}

/** One rule (viewed flag, threshold, deletion, firings), or all of the caller's marked viewed. */
function registerRuleChangeRoutes(app: App, alerts: AlertsService): void {
  app.post(
    '/api/alerts/viewed',
    {
      config,
      schema: {
        tags,
        summary: 'Mark every alert viewed',
        description: '`count` is the number of rules that were unviewed and are now viewed.',
        response: { 200: ViewedAll },
      },
    },
    async (request) => alerts.markAllViewed(caller(request.principal)),
  );

  app.patch(
    '/api/alerts/:alert_id',
    {
      config,
      schema: {
        tags,
        summary: 'Mark an alert viewed or unviewed, or change its threshold',
        description: PATCH_DESCRIPTION,
        params: AlertParams,
        body: AlertPatchBody,
        response: { 200: Type.Ref('Alert'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<ListedAlertT> =>
      alerts.update(caller(request.principal), request.params.alert_id, request.body),
  );

  app.delete(
    '/api/alerts/:alert_id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an alert rule',
        description: 'Deletes the rule and its firing history. Another user’s rule → 404 not_found.',
        params: AlertParams,
        response: { 200: Deleted, ...errorResponses(404, 422) },
      },
    },
    async (request) => alerts.remove(caller(request.principal), request.params.alert_id),
  );

  app.get(
    '/api/alerts/:alert_id/events',
    {
      config,
      schema: {
        tags,
        summary: 'An alert rule’s firings',
        description: 'Every time the rule fired, newest first. Another user’s rule → 404 not_found.',
        params: AlertParams,
        querystring: EventsQuery,
        response: { 200: AlertEvents, ...errorResponses(404, 422) },
      },
    },
    async (request) => alerts.events(caller(request.principal), request.params.alert_id, request.query.limit),
  );
}
