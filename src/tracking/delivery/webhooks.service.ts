/**
 * Webhook registration: who may register (plans whose alertDelivery includes `webhook`), where
 * to (the SSRF guard), how many, and the per-webhook delivery log. The secret must sign, so it is
 * stored encrypted (secret-box.ts), not hashed; it is never returned, not even at creation, nor logged.
 */

import type { Clock } from '../../clock.js';
import type { Db } from '../../db/index.js';
import { errors } from '../../errors.js';
import { type Entitlements, PLANS, type PlanName } from '../../plans.js';
import * as repo from './delivery.repo.js';
import { testPayload } from './delivery.service.js';
import type { SecretBox } from './secret-box.js';
import { checkWebhookTarget, parseWebhookUrl, type Resolver, systemResolver, UrlRefused } from './ssrf.js';
import type { CreateWebhookBodyT, WebhookDeliveryT, WebhookT } from './webhooks.schemas.js';

export interface WebhooksDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  webhookAllowPrivate: boolean;
  /** Encrypts webhook secrets at rest. */
  secrets: SecretBox;
  /** DNS resolution for the SSRF guard (tests map names to chosen addresses). */
  resolve?: Resolver;
}

/** Enough for staging + production + a chat relay; more is usually a loop. */
export const MAX_WEBHOOKS_PER_USER = 10;

function webhook(row: repo.WebhookRow): WebhookT {
  return { id: row.id, url: row.url, created_at: row.created_at.toISOString() };
}

function logEntry(row: repo.DeliveryLogRow): WebhookDeliveryT {
  return {
    id: row.id,
    firing_id: row.firing_id,
    alert_id: row.alert_id,
    test: row.firing_id === null,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    last_status: row.last_status,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    delivered_at: row.delivered_at ? row.delivered_at.toISOString() : null,
  };
}

/** The lowest plan that delivers webhooks under the configured entitlements. */
function webhookPlan(entitlements: Entitlements): PlanName {
  return PLANS.find((p) => entitlements.plans[p].alertDelivery.includes('webhook')) ?? 'Enterprise';
}

/** Refuses a URL the guard would not send to, as a 422 naming body.url. */
async function validateUrl(deps: WebhooksDeps, raw: string): Promise<string> {
  try {
    const url = parseWebhookUrl(raw);
    if (!deps.webhookAllowPrivate) await checkWebhookTarget(url, deps.resolve ?? systemResolver);
    return url.toString();
  } catch (err) {
    if (err instanceof UrlRefused) throw errors.validation('body.url', `body.url ${err.message}`);
    throw err;
  }
}

export async function createWebhook(
  deps: WebhooksDeps,
  owner: { userId: number; teamId: number; plan: PlanName },
  body: CreateWebhookBodyT,
): Promise<WebhookT> {
  if (!deps.entitlements.plans[owner.plan].alertDelivery.includes('webhook')) {
    throw errors.planUpgradeRequired(webhookPlan(deps.entitlements), 'Webhook delivery');
  }
  const url = await validateUrl(deps, body.url);
  if ((await repo.countWebhooks(deps.db, owner.teamId)) >= MAX_WEBHOOKS_PER_USER) {
    throw errors.conflict('limit_reached', `You can register at most ${MAX_WEBHOOKS_PER_USER} webhooks.`);
  }
  const row = await repo.insertWebhook(deps.db, {
    userId: owner.userId,
    teamId: owner.teamId,
    url,
    sealedSecret: deps.secrets.seal(body.secret),
    createdAt: deps.clock.now(),
  });
  return webhook(row);
}

export async function listWebhooks(deps: WebhooksDeps, teamId: number): Promise<WebhookT[]> {
  return (await repo.listWebhooks(deps.db, teamId)).map(webhook);
}

export async function deleteWebhook(deps: WebhooksDeps, teamId: number, id: number): Promise<void> {
  if (!(await repo.deleteWebhook(deps.db, teamId, id))) throw errors.notFound('No such webhook.');
}

export async function listDeliveries(
  deps: WebhooksDeps,
  teamId: number,
  id: number,
  limit: number,
): Promise<WebhookDeliveryT[]> {
  if (!(await repo.isTeamWebhook(deps.db, teamId, id))) throw errors.notFound('No such webhook.');
  return (await repo.listWebhookDeliveries(deps.db, id, limit)).map(logEntry);
}

/**
 * Queues a sample firing (marked `test: true`) to one of the owner's webhooks. It goes through the
 * same queue as real firings (signed, retried, logged), so the next deliver-alerts run, within a
 * minute, sends it. Plans without webhook delivery get 403, someone else's webhook 404.
 */
export async function sendTestDelivery(
  deps: WebhooksDeps,
  owner: { teamId: number; plan: PlanName },
  id: number,
): Promise<WebhookDeliveryT> {
  if (!deps.entitlements.plans[owner.plan].alertDelivery.includes('webhook')) {
    throw errors.planUpgradeRequired(webhookPlan(deps.entitlements), 'Webhook delivery');
  }
  const now = deps.clock.now();
  const row = await repo.insertTestDelivery(deps.db, {
    teamId: owner.teamId,
    webhookId: id,
    payload: testPayload(now),
    now,
  });
  if (!row) throw errors.notFound('No such webhook.');
  return logEntry(row);
}
