/**
 * Helpers for alert-delivery tests: users with a plan, hand-built firings (the alert engine's
 * tables need not exist), a local webhook receiver on 127.0.0.1, and the delivery rows.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../src/db/index.js';
import type { PlanName } from '../../src/plans.js';
import { SecretBox } from '../../src/tracking/delivery/secret-box.js';
import type { Firing, FiringSink } from '../../src/tracking/firing.js';

let users = 0;
let firings = 0;

/** A user with a verified address (alert e-mail goes to verified addresses only); `verified: false`
 * for an unverified one. On a database migrated only part-way (before 0036) the column is absent. */
export async function insertUser(
  db: Db,
  plan: PlanName,
  options: { verified?: boolean } = {},
): Promise<{ userId: number; teamId: number; email: string }> {
  users += 1;
  const email = `delivery${users}-${Date.now()}@example.com`;
  const team = await db.query<{ id: number }>("INSERT INTO teams (name) VALUES ('t') RETURNING id");
  const teamId = team.rows[0]!.id;
  const user = await db.query<{ id: number }>(
    "INSERT INTO users (email, password_hash, plan, team_id) VALUES ($1, 'x', $2, $3) RETURNING id",
    [email, plan, teamId],
  );
  const hasColumn = await db.query(
    "SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'email_verified_at'",
  );
  // On a database migrated past 0037 the user owns their personal team (team_members).
  const hasMembers = await db.query(
    "SELECT 1 FROM information_schema.tables WHERE table_name = 'team_members'",
  );
  if (hasMembers.rowCount > 0) {
    await db.query(
      `INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES ($1, $2, 'owner', now())`,
      [teamId, user.rows[0]!.id],
    );
  }
  if (hasColumn.rows.length > 0 && options.verified !== false) {
    await db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [user.rows[0]!.id]);
  }
  return { userId: user.rows[0]!.id, teamId, email };
}

/** The key webhook secrets are encrypted with in delivery tests (64 hex digits, as SECRETS_KEY takes it). */
export const TEST_SECRETS_KEY = '5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7';
export const testSecrets = new SecretBox({ current: Buffer.from(TEST_SECRETS_KEY, 'hex'), previous: [] });

/** A webhook row, its secret encrypted as the service stores it (with `box`, the test key by default). */
export async function insertWebhook(
  db: Db,
  userId: number,
  url: string,
  secret: string,
  box: SecretBox = testSecrets,
): Promise<number> {
  const res = await db.query<{ id: number }>(
    `INSERT INTO webhooks (user_id, team_id, url, secret, created_at)
     SELECT id, team_id, $2, $3, now() FROM users WHERE id = $1 RETURNING id`,
    [userId, url, box.seal(secret)],
  );
  return res.rows[0]!.id;
}

/** The secret column as stored. */
export async function storedSecret(db: Db, webhookId: number): Promise<string> {
  return (await db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [webhookId]))
    .rows[0]!.secret;
}

export function makeFiring(owner: { userId: number; teamId: number }, firedAt: Date): Firing {
  firings += 1;
  return {
    firingId: 1000 + firings,
    alertId: 7,
    userId: owner.userId,
    teamId: owner.teamId,
    universeId: 994732206,
    type: 'ccu_spike',
    message: 'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
    firedAt,
    details: { ccu: 512_345, threshold: 450_000 },
  };
}

export function enqueue(db: Db, sink: FiringSink, firing: Firing, plan: PlanName): Promise<void> {
  return db.transaction((tx) => sink.enqueue(tx, firing, plan));
}

export interface DeliveryRow {
  id: number;
  firing_id: number;
  channel: string;
  webhook_id: number | null;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  last_status: number | null;
}

export async function deliveryRows(db: Db): Promise<DeliveryRow[]> {
  return (
    await db.query<DeliveryRow>(
      `SELECT id, firing_id, channel, webhook_id, status, attempts, next_attempt_at, last_error, last_status
       FROM deliveries ORDER BY id`,
    )
  ).rows;
}

export interface ReceivedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 answering `status(n)` to its n-th request (0-based). */
export async function startReceiver(status: (n: number) => number = () => 200) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = requests.length;
      requests.push({
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.statusCode = status(n);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
