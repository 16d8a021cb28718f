/** TypeBox schemas of the webhook endpoints (validation, serialisation and OpenAPI in one place). */
import { type Static, Type } from 'typebox';
import { IdParams } from '../../http/schemas.js';

export const SECRET_MIN = 16;
export const SECRET_MAX = 256;

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'http(s) URL that receives `alert.fired` POSTs. It must resolve to public addresses only and carry no credentials: loopback, private, link-local, unique-local, CGNAT, multicast and reserved ranges are refused (IPv4-mapped `::ffff:0:0/96` is judged as its IPv4), and so is every IPv6 form that embeds an IPv4 address: IPv4-compatible `::/96`, IPv4-translated `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32` and ISATAP interface ids. WEBHOOK_ALLOW_PRIVATE=true lifts the check.',
    }),
    secret: Type.String({
      minLength: SECRET_MIN,
      maxLength: SECRET_MAX,
      description:
        'Signs every payload: `X-Svc-Signature: sha256=<hex HMAC-SHA256(secret, X-Svc-Timestamp + "." + raw body)>`. Stored encrypted (AES-256-GCM); never returned, not even in this answer.',
    }),
  },
  { additionalProperties: false },
);
export type CreateWebhookBodyT = Static<typeof CreateWebhookBody>;

export const Webhook = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Webhook', title: 'Webhook' },
);
export type WebhookT = Static<typeof Webhook>;

export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    firing_id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The alert firing (GET /api/alerts/{id}/events) delivered; null for a test delivery',
    }),
    alert_id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The rule that fired; null for a test delivery',
    }),
    test: Type.Boolean({ description: 'true for a test delivery (POST /api/webhooks/{id}/test)' }),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gave_up')],
      {
        description:
          'pending: waiting for its next attempt; delivered: the receiver answered 2xx; failed: refused for good (4xx other than 408/429, redirect, or a URL that now resolves to a refused address); gave_up: still failing 24 h after the firing (5xx, 408, 429, timeouts and network errors are retried with backoff from 1 min doubling to 1 h).',
      },
    ),
    attempts: Type.Integer(),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the next attempt is due (null unless pending)',
    }),
    last_status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last answer' }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    delivered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);
export type WebhookDeliveryT = Static<typeof WebhookDelivery>;

export const WebhookIdParams = IdParams('Webhook id');

export const DeliveriesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Newest first' }),
});

export const DeletedStatus = Type.Object({ status: Type.Literal('deleted') });

export const webhookSchemas = [Webhook, WebhookDelivery];
