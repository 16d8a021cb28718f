import { Type } from 'typebox';
import { type App, requireUser } from '../../http/index.js';
import { errorResponses } from '../../http/schemas.js';
import {
  CreateWebhookBody,
  DeletedStatus,
  DeliveriesQuery,
  type WebhookDeliveryT,
  WebhookIdParams,
  type WebhookT,
  webhookSchemas,
} from './webhooks.schemas.js';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  sendTestDelivery,
  type WebhooksDeps,
} from './webhooks.service.js';

const PAYLOAD_NOTE =
  'Each firing is POSTed as JSON `{event: "alert.fired", alert_id, firing_id, type, universe_id, message, fired_at, details}` with `X-Svc-Timestamp` (unix seconds) and `X-Svc-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>`; 10 s timeout; a 2xx delivers, 408/429/5xx/timeouts retry (1 min doubling to 1 h, for 24 h after the firing), other 4xx fail at once. POST /api/webhooks/{id}/test sends a sample marked `"test": true`.';

const tags = ['webhooks'];
const access = { auth: 'user' as const, team: 'content' as const };

/** The webhook endpoints; the caller's principal decides whose webhooks they see. */
export function registerWebhookRoutes(app: App, deps: WebhooksDeps): void {
  for (const schema of webhookSchemas) app.addSchema(schema);
  registerCreateRoute(app, deps);
  registerListRoute(app, deps);
  registerDeleteRoute(app, deps);
  registerDeliveriesRoute(app, deps);
  registerTestRoute(app, deps);
}

function registerCreateRoute(app: App, deps: WebhooksDeps): void {
  app.post(
    '/api/webhooks',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Register a webhook for alert firings (Studio and Enterprise)',
        description: `${PAYLOAD_NOTE} The URL is checked now and again at every send. At most 10 webhooks per user (409 limit_reached). Plans without webhook delivery get 403 plan_upgrade_required.`,
        body: CreateWebhookBody,
        response: { 201: Type.Ref('Webhook'), ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const created = await createWebhook(deps, requireUser(request.principal), request.body);
      return reply.code(201).send(created);
    },
  );
}

function registerListRoute(app: App, deps: WebhooksDeps): void {
  app.get(
    '/api/webhooks',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Your webhooks (never their secrets)',
        response: { 200: Type.Array(Type.Ref('Webhook')) },
      },
    },
    async (request): Promise<WebhookT[]> => listWebhooks(deps, requireUser(request.principal).teamId),
  );
}

function registerDeleteRoute(app: App, deps: WebhooksDeps): void {
  app.delete(
    '/api/webhooks/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Delete a webhook (its pending deliveries are dropped)',
        params: WebhookIdParams,
        response: { 200: DeletedStatus, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      await deleteWebhook(deps, requireUser(request.principal).teamId, request.params.id);
      return { status: 'deleted' as const };
    },
  );
}

function registerDeliveriesRoute(app: App, deps: WebhooksDeps): void {
  app.get(
    '/api/webhooks/:id/deliveries',
    {
      config: { access },
      schema: {
        tags,
        summary: "A webhook's delivery log, newest first",
        params: WebhookIdParams,
        querystring: DeliveriesQuery,
        response: { 200: Type.Array(Type.Ref('WebhookDelivery')), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<WebhookDeliveryT[]> => {
      const { teamId } = requireUser(request.principal);
      return listDeliveries(deps, teamId, request.params.id, request.query.limit);
    },
  );
}

const TEST_DESCRIPTION =
  'Queues a test delivery to the webhook: a sample firing of the same shape as real ones, with `"test": true`, `alert_id` and `firing_id` 0 and a made-up game (universe_id 0), ' +
  'e.g. `{event: "alert.fired", alert_id: 0, firing_id: 0, type: "ccu_spike", universe_id: 0, message: "Sample Game passed 1,250 CCU (threshold 1,000) at 18:05 UTC", fired_at, details: {universe_id: 0, name: "Sample Game", genre: "simulation", threshold: 1000, ccu: 1250}, test: true}`. ' +
  'It is signed, sent (within a minute, by the same runner as real firings), retried and logged like a real one: GET /api/webhooks/{id}/deliveries lists it with `test: true` and null `alert_id` and `firing_id`. ' +
  'Answers 202 with the queued delivery as the log shows it. Another user’s webhook → 404 not_found; plans without webhook delivery → 403 plan_upgrade_required.';

function registerTestRoute(app: App, deps: WebhooksDeps): void {
  app.post(
    '/api/webhooks/:id/test',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Send a test delivery to a webhook',
        description: TEST_DESCRIPTION,
        params: WebhookIdParams,
        response: { 202: Type.Ref('WebhookDelivery'), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const queued = await sendTestDelivery(deps, requireUser(request.principal), request.params.id);
      return reply.code(202).send(queued);
    },
  );
}
