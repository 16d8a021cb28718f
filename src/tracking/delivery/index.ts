/**
 * Alert delivery beyond the in-app list: e-mail (SMTP, or the outbox table read by `svc outbox`)
 * and HMAC-signed webhooks with retries, per the owner's plan. Owns the webhooks, deliveries and
 * outbox tables. It receives firings through the FiringSink hand-off (it never reads the alert
 * tables) and never logs a secret, an address or a mail body: ids only. Webhook secrets are
 * stored encrypted (secret-box.ts) and decrypted only to sign.
 */
export {
  CLAIM_LEASE_MS,
  createDelivery,
  type Delivery,
  type DeliveryDeps,
  firingPayload,
  RETRY_WINDOW_MS,
  type RunStats,
  retryDelayMs,
} from './delivery.service.js';
export { type MailMessage, type MailTransport, smtpTransport } from './mail.js';
export { OUTBOX_USAGE, type OutboxCliDeps, outboxCommand } from './outbox.cli.js';
export { keyId, SecretBox, type SecretKeys, SecretUnreadable } from './secret-box.js';
export { type ResealStats, rotateSecrets, sealPlainSecrets } from './secrets.service.js';
export { SIGNATURE_HEADER, signPayload, TIMESTAMP_HEADER, verifySignature } from './signature.js';
export { addressRefusal, type Resolver, systemResolver } from './ssrf.js';
export { WEBHOOKS_USAGE, type WebhooksCliDeps, webhooksCommand } from './webhooks.cli.js';
export { registerWebhookRoutes } from './webhooks.routes.js';
export { MAX_WEBHOOKS_PER_USER, type WebhooksDeps } from './webhooks.service.js';
