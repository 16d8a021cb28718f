/**
 * createDelivery: the FiringSink the alert engine hands firings to, and the runner that sends
 * what is due. enqueue() only writes delivery rows inside the engine's transaction (no network),
 * so a firing and its deliveries commit together; runPending() claims due rows in the database
 * (safe with several workers), sends them, and records each outcome with its retry schedule.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db, Queryable } from '../../db/index.js';
import type { Entitlements, PlanName } from '../../plans.js';
import type { Firing, FiringSink } from '../firing.js';
import { firedMessage, firingDetails } from '../messages.js';
import * as repo from './delivery.repo.js';
import {
  composeAlertMail,
  DEFAULT_MAIL_FROM,
  isPermanentMailError,
  type MailTransport,
  smtpTransport,
} from './mail.js';
import { type SecretBox, SecretUnreadable } from './secret-box.js';
import { type Resolver, systemResolver } from './ssrf.js';
import {
  type AttemptOutcome,
  sendWebhook,
  type WebhookSenderOptions,
  webhookAgent,
} from './webhook-sender.js';

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  /** smtp:// or smtps://; unset: e-mail goes to the outbox table (`svc outbox`). */
  smtpUrl?: string | undefined;
  webhookAllowPrivate: boolean;
  /** Decrypts the webhook secrets that sign payloads. */
  secrets: SecretBox;
  /** Overrides the SMTP transport built from smtpUrl (tests pass a stub or jsonTransport). */
  mailTransport?: MailTransport;
  mailFrom?: string;
  /** DNS resolution for the SSRF guard (tests map names to chosen addresses). */
  resolve?: Resolver;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Deliveries claimed per round trip (default 50). */
  batchSize?: number;
}

export interface RunStats {
  delivered: number;
  failed: number;
  gaveUp: number;
  /** Attempts that failed and were rescheduled. */
  retrying: number;
}

export interface Delivery extends FiringSink {
  runPending(now: Date, signal?: AbortSignal): Promise<RunStats>;
}

/** Retries stop this long after the firing: an alert older than a day is no longer news. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** How long a claimed delivery belongs to one worker (far above a 10 s send). */
export const CLAIM_LEASE_MS = 5 * 60_000;
const CONCURRENCY = 8;
const MAX_BATCHES_PER_RUN = 20;

/** Backoff after the n-th failed attempt: 1 min, doubling, capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** The webhook body, also the source of the e-mail: the firing as it was when it fired. */
export function firingPayload(f: Firing): Record<string, unknown> {
  return {
    event: 'alert.fired',
    alert_id: f.alertId,
    firing_id: f.firingId,
    type: f.type,
    universe_id: f.universeId,
    message: f.message,
    fired_at: f.firedAt.toISOString(),
    details: f.details,
  };
}

/** The made-up game a test delivery reports on (universe id 0 names no real game). */
const SAMPLE_GAME = { universeId: 0, name: 'Sample Game', genre: 'simulation', ccu: 1_250 };

/**
 * What POST /api/webhooks/{id}/test sends: a firing payload of the very shape real ones have
 * (written by the same message and details code), marked `test: true`, with alert_id and
 * firing_id 0 (ids start at 1, so no real rule or firing has it).
 */
export function testPayload(at: Date): Record<string, unknown> {
  const event = { type: 'ccu_spike', ccu: SAMPLE_GAME.ccu, threshold: 1_000 } as const;
  return {
    ...firingPayload({
      firingId: 0,
      alertId: 0,
      userId: 0,
      teamId: 0,
      universeId: SAMPLE_GAME.universeId,
      type: event.type,
      message: firedMessage(event, SAMPLE_GAME, at),
      firedAt: at,
      details: firingDetails(event, SAMPLE_GAME),
    }),
    test: true,
  };
}

async function enqueueFiring(
  deps: DeliveryDeps,
  tx: Queryable,
  firing: Firing,
  plan: PlanName,
): Promise<void> {
  const channels = deps.entitlements.plans[plan].alertDelivery;
  const base = {
    firingId: firing.firingId,
    alertId: firing.alertId,
    userId: firing.userId,
    payload: firingPayload(firing),
    firedAt: firing.firedAt,
    now: deps.clock.now(),
  };
  if (channels.includes('email')) {
    // Alert e-mail goes only to a verified address (the user followed the mailed link).
    if (await repo.emailVerified(tx, firing.userId)) {
      await repo.insertDelivery(tx, { ...base, channel: 'email', webhookId: null });
    } else {
      deps.log?.info(
        { firing_id: firing.firingId, skipped_unverified: 1 },
        'alert e-mail skipped: address not verified',
      );
    }
  }
  if (!channels.includes('webhook')) return;
  for (const webhookId of await repo.webhookIdsOfTeam(tx, firing.teamId)) {
    await repo.insertDelivery(tx, { ...base, channel: 'webhook', webhookId });
  }
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

export function createDelivery(deps: DeliveryDeps): Delivery {
  const transport = deps.mailTransport ?? (deps.smtpUrl ? smtpTransport(deps.smtpUrl) : undefined);
  const sender: WebhookSenderOptions = {
    allowPrivate: deps.webhookAllowPrivate,
    resolve: deps.resolve ?? systemResolver,
  };
  const mail = { transport, from: deps.mailFrom ?? DEFAULT_MAIL_FROM };

  return {
    enqueue: (tx, firing, plan) => enqueueFiring(deps, tx, firing, plan),
    async runPending(now, signal) {
      const stats: RunStats = { delivered: 0, failed: 0, gaveUp: 0, retrying: 0 };
      const agent = webhookAgent(sender);
      const run: RunContext = { deps, mail, sender, agent, stats, ...(signal ? { signal } : {}) };
      try {
        for (let batch = 0; batch < MAX_BATCHES_PER_RUN && !signal?.aborted; batch++) {
          const size = deps.batchSize ?? 50;
          const claimed = await repo.claimDueDeliveries(
            deps.db,
            now,
            new Date(now.getTime() + CLAIM_LEASE_MS),
            size,
          );
          await processBatch(run, claimed, now);
          if (claimed.length < size) break;
        }
      } finally {
        await agent.close();
      }
      return stats;
    },
  };
}

interface RunContext {
  deps: DeliveryDeps;
  mail: { transport: MailTransport | undefined; from: string };
  sender: WebhookSenderOptions;
  agent: ReturnType<typeof webhookAgent>;
  stats: RunStats;
  signal?: AbortSignal;
}

async function processBatch(run: RunContext, claimed: repo.ClaimedRow[], now: Date): Promise<void> {
  const untried: number[] = [];
  await eachLimited(claimed, CONCURRENCY, async (row) => {
    if (run.signal?.aborted) {
      untried.push(row.id);
      return;
    }
    await attempt(run, row);
  });
  // A stopped run hands its untried claims straight back rather than leaving them leased.
  await repo.releaseClaims(run.deps.db, untried, now);
}

async function attempt(run: RunContext, row: repo.ClaimedRow): Promise<void> {
  if (row.channel === 'email') {
    await attemptEmail(run, row);
    return;
  }
  if (row.url === null || row.sealed_secret === null) return; // the webhook was deleted meanwhile
  let secret: string;
  try {
    secret = run.deps.secrets.open(row.sealed_secret);
  } catch (err) {
    if (!(err instanceof SecretUnreadable)) throw err;
    // A key missing from the configuration: fail this delivery with the reason, keep the others going.
    await record(run, run.deps.db, row, {
      kind: 'failed',
      status: null,
      error: `webhook secret unreadable: ${err.message}`,
    });
    return;
  }
  const body = JSON.stringify(row.payload);
  const timestamp = Math.floor(run.deps.clock.now().getTime() / 1000);
  const target = { url: row.url, secret };
  const outcome = await sendWebhook(run.agent, run.sender, target, body, timestamp, run.signal);
  await record(run, run.deps.db, row, outcome);
}

async function attemptEmail(run: RunContext, row: repo.ClaimedRow): Promise<void> {
  const { subject, body } = composeAlertMail(row.payload);
  const { db, clock } = run.deps;
  const transport = run.mail.transport;
  if (!transport) {
    // Embedded mode: the outbox row is the delivery, written with its outcome in one transaction.
    await db.transaction(async (tx) => {
      const createdAt = clock.now();
      await repo.insertOutbox(tx, {
        deliveryId: row.id,
        to: row.email,
        subject,
        body,
        createdAt,
        sentAt: null,
      });
      await record(run, tx, row, { kind: 'delivered', status: null });
    });
    return;
  }
  try {
    await transport.sendMail({ from: run.mail.from, to: row.email, subject, text: body });
  } catch (err) {
    // Only the reply code: SMTP server messages often quote the recipient's address.
    const code = (err as { responseCode?: unknown }).responseCode;
    const error = `SMTP error${typeof code === 'number' ? ` ${code}` : ''}: ${err instanceof Error ? err.name : 'unknown'}`;
    await record(run, db, row, { kind: isPermanentMailError(err) ? 'failed' : 'retry', status: null, error });
    return;
  }
  const sentAt = clock.now();
  await db.transaction(async (tx) => {
    await repo.insertOutbox(tx, {
      deliveryId: row.id,
      to: row.email,
      subject,
      body,
      createdAt: sentAt,
      sentAt,
    });
    await record(run, tx, row, { kind: 'delivered', status: null });
  });
}

/** Writes an attempt's outcome: delivered, failed, rescheduled with backoff, or given up. */
async function record(
  run: RunContext,
  db: Queryable,
  row: repo.ClaimedRow,
  o: AttemptOutcome,
): Promise<void> {
  const now = run.deps.clock.now();
  const base = { lastStatus: o.status, deliveredAt: null, nextAttemptAt: now };
  let status: repo.DeliveryStatus;
  if (o.kind === 'delivered') {
    status = 'delivered';
    await repo.recordAttempt(db, row.id, { ...base, status, lastError: null, deliveredAt: now });
    run.stats.delivered++;
  } else if (o.kind === 'failed') {
    status = 'failed';
    await repo.recordAttempt(db, row.id, { ...base, status, lastError: o.error });
    run.stats.failed++;
  } else {
    const next = new Date(now.getTime() + retryDelayMs(row.attempts));
    const giveUp = next.getTime() > row.fired_at.getTime() + RETRY_WINDOW_MS;
    status = giveUp ? 'gave_up' : 'pending';
    const lastError = giveUp ? `${o.error}; gave up 24 h after the firing` : o.error;
    await repo.recordAttempt(db, row.id, { ...base, status, lastError, nextAttemptAt: giveUp ? now : next });
    if (giveUp) run.stats.gaveUp++;
    else run.stats.retrying++;
  }
  const fields = { delivery_id: row.id, firing_id: row.firing_id, channel: row.channel, status };
  if (status === 'failed' || status === 'gave_up')
    run.deps.log?.warn({ ...fields, http_status: o.status }, 'alert delivery ended unsent');
  else run.deps.log?.info({ ...fields, attempts: row.attempts }, 'alert delivery attempted');
}
