/** Delivery SQL: webhooks, deliveries (log and retry queue), outbox. The only file here with SQL. */
import type { Queryable } from '../../db/index.js';

export type Channel = 'email' | 'webhook';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'gave_up';

export interface WebhookRow {
  id: number;
  url: string;
  created_at: Date;
}

export interface DeliveryLogRow {
  id: number;
  /** Null, with alert_id, for a test delivery (POST /api/webhooks/{id}/test). */
  firing_id: number | null;
  alert_id: number | null;
  channel: Channel;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  last_status: number | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** A delivery claimed for sending, with what sending needs (address, or URL and sealed secret). */
export interface ClaimedRow {
  id: number;
  /** Null for a test delivery. */
  firing_id: number | null;
  channel: Channel;
  webhook_id: number | null;
  payload: Record<string, unknown>;
  fired_at: Date;
  attempts: number;
  email: string;
  url: string | null;
  /** The secret as stored (encrypted; see secret-box.ts). */
  sealed_secret: string | null;
}

export interface StoredSecretRow {
  id: number;
  secret: string;
}

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  created_at: Date;
  sent_at: Date | null;
}

export async function insertWebhook(
  db: Queryable,
  w: { userId: number; teamId: number; url: string; sealedSecret: string; createdAt: Date },
): Promise<WebhookRow> {
  const res = await db.query<WebhookRow>(
    `INSERT INTO webhooks (user_id, team_id, url, secret, created_at) VALUES ($1, $5, $2, $3, $4)
     RETURNING id, url, created_at`,
    [w.userId, w.url, w.sealedSecret, w.createdAt, w.teamId],
  );
  return res.rows[0]!;
}

export async function countWebhooks(db: Queryable, teamId: number): Promise<number> {
  const res = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE team_id = $1', [
    teamId,
  ]);
  return res.rows[0]!.n;
}

export async function listWebhooks(db: Queryable, teamId: number): Promise<WebhookRow[]> {
  return (
    await db.query<WebhookRow>('SELECT id, url, created_at FROM webhooks WHERE team_id = $1 ORDER BY id', [
      teamId,
    ])
  ).rows;
}

export async function webhookIdsOfTeam(db: Queryable, teamId: number): Promise<number[]> {
  return (
    await db.query<{ id: number }>('SELECT id FROM webhooks WHERE team_id = $1 ORDER BY id', [teamId])
  ).rows.map((r) => r.id);
}

/** Deletes the team's webhook (its deliveries go with it); false when it is not the team's. */
export async function deleteWebhook(db: Queryable, teamId: number, id: number): Promise<boolean> {
  const res = await db.query('DELETE FROM webhooks WHERE id = $1 AND team_id = $2', [id, teamId]);
  return res.rowCount > 0;
}

/** The next `limit` webhooks' stored secrets after `afterId` (optionally only `plain:` ones). */
export async function storedSecretsAfter(
  db: Queryable,
  afterId: number,
  limit: number,
  onlyPlain: boolean,
): Promise<StoredSecretRow[]> {
  const res = await db.query<StoredSecretRow>(
    `SELECT id, secret FROM webhooks WHERE id > $1 AND (NOT $3 OR secret LIKE 'plain:%')
     ORDER BY id LIMIT $2`,
    [afterId, limit, onlyPlain],
  );
  return res.rows;
}

/** Replaces a stored secret unless another process changed it meanwhile (compare and set). */
export async function replaceStoredSecret(
  db: Queryable,
  id: number,
  from: string,
  to: string,
): Promise<boolean> {
  const res = await db.query('UPDATE webhooks SET secret = $3 WHERE id = $1 AND secret = $2', [id, from, to]);
  return res.rowCount > 0;
}

export async function isTeamWebhook(db: Queryable, teamId: number, id: number): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM webhooks WHERE id = $1 AND team_id = $2', [id, teamId]);
  return res.rowCount > 0;
}

/** A delivery as the log shows it. */
const LOG_COLUMNS = `id, firing_id, alert_id, channel, status, attempts, next_attempt_at, last_error, last_status,
            created_at, delivered_at`;

export async function listWebhookDeliveries(
  db: Queryable,
  webhookId: number,
  limit: number,
): Promise<DeliveryLogRow[]> {
  const res = await db.query<DeliveryLogRow>(
    `SELECT ${LOG_COLUMNS}
     FROM deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
    [webhookId, limit],
  );
  return res.rows;
}

/**
 * Queues a test delivery (no firing, no alert: both null), due at once, to the team's webhook;
 * undefined when the webhook is not the team's. One statement, so a webhook deleted meanwhile is
 * simply not found.
 */
export async function insertTestDelivery(
  db: Queryable,
  d: { teamId: number; webhookId: number; payload: Record<string, unknown>; now: Date },
): Promise<DeliveryLogRow | undefined> {
  const res = await db.query<DeliveryLogRow>(
    `INSERT INTO deliveries (firing_id, alert_id, user_id, channel, webhook_id, payload, fired_at,
                             next_attempt_at, created_at)
     SELECT NULL, NULL, w.user_id, 'webhook', w.id, $3::jsonb, $4::timestamptz, $4, $4 FROM webhooks w
      WHERE w.id = $2 AND w.team_id = $1
     RETURNING ${LOG_COLUMNS}`,
    [d.teamId, d.webhookId, JSON.stringify(d.payload), d.now],
  );
  return res.rows[0];
}

/** Queues one delivery; a second enqueue of the same firing and target is a no-op. */
export async function insertDelivery(
  db: Queryable,
  d: {
    firingId: number;
    alertId: number;
    userId: number;
    channel: Channel;
    webhookId: number | null;
    payload: Record<string, unknown>;
    firedAt: Date;
    now: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO deliveries (firing_id, alert_id, user_id, channel, webhook_id, payload, fired_at,
                             next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (firing_id, channel, COALESCE(webhook_id, 0)) DO NOTHING`,
    [d.firingId, d.alertId, d.userId, d.channel, d.webhookId, JSON.stringify(d.payload), d.firedAt, d.now],
  );
}

/**
 * Claims up to `limit` due deliveries for this worker: each is leased by pushing next_attempt_at
 * to `leaseUntil` and counting the attempt. SKIP LOCKED lets concurrent workers take disjoint rows
 * instead of waiting; a committed claim is no longer due, so no other worker takes it again.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedRow[]> {
  const res = await db.query<ClaimedRow>(
    `WITH claimed AS (
       UPDATE deliveries d SET next_attempt_at = $2, attempts = d.attempts + 1
       WHERE d.id IN (SELECT id FROM deliveries
                      WHERE status = 'pending' AND next_attempt_at <= $1
                      ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING d.id, d.firing_id, d.channel, d.webhook_id, d.payload, d.fired_at, d.attempts, d.user_id)
     SELECT c.id, c.firing_id, c.channel, c.webhook_id, c.payload, c.fired_at, c.attempts,
            u.email, w.url, w.secret AS sealed_secret
     FROM claimed c JOIN users u ON u.id = c.user_id LEFT JOIN webhooks w ON w.id = c.webhook_id
     ORDER BY c.id`,
    [now, leaseUntil, limit],
  );
  return res.rows;
}

/** Records the outcome of an attempt on a delivery this worker holds. */
export async function recordAttempt(
  db: Queryable,
  id: number,
  r: {
    status: DeliveryStatus;
    nextAttemptAt: Date;
    lastError: string | null;
    lastStatus: number | null;
    deliveredAt: Date | null;
  },
): Promise<void> {
  await db.query(
    `UPDATE deliveries SET status = $2, next_attempt_at = $3, last_error = $4, last_status = $5,
                           delivered_at = $6
     WHERE id = $1 AND status = 'pending'`,
    [id, r.status, r.nextAttemptAt, r.lastError, r.lastStatus, r.deliveredAt],
  );
}

/** Gives back claimed deliveries that were never attempted (the run was stopped). */
export async function releaseClaims(db: Queryable, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE deliveries SET next_attempt_at = $2, attempts = attempts - 1
     WHERE id = ANY($1::bigint[]) AND status = 'pending'`,
    [ids, at],
  );
}

/** Whether the user confirmed their e-mail address (alert e-mail goes to verified addresses only). */
export async function emailVerified(db: Queryable, userId: number): Promise<boolean> {
  const res = await db.query<{ verified: boolean }>(
    'SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1',
    [userId],
  );
  return res.rows[0]?.verified ?? false;
}

export async function insertOutbox(
  db: Queryable,
  m: { deliveryId: number; to: string; subject: string; body: string; createdAt: Date; sentAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO outbox (delivery_id, to_address, subject, body, created_at, sent_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [m.deliveryId, m.to, m.subject, m.body, m.createdAt, m.sentAt],
  );
}

export async function listOutbox(db: Queryable, limit: number): Promise<OutboxRow[]> {
  return (
    await db.query<OutboxRow>(
      `SELECT id, to_address, subject, body, created_at, sent_at FROM outbox
       ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    )
  ).rows;
}
