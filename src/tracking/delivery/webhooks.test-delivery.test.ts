import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../../test/helpers/auth.js';
import { testEngines } from '../../../test/helpers/db.js';
import { startReceiver, TEST_SECRETS_KEY, testSecrets } from '../../../test/helpers/delivery.js';
import { fixedClock } from '../../clock.js';
import { createDelivery } from './index.js';

const SECRET = 'whsec_0123456789abcdef';
const T0 = '2025-06-01T18:05:00.000Z';

/** POST /api/webhooks/{id}/test: a sample firing through the real queue, signer, retries and log. */
describe.each(testEngines())('webhook test deliveries on %s', (engine) => {
  let t: TestApp;
  let owner: LoggedIn;
  /** The app's clock stays at T0 (moving it back would trip the rate limiter); the runner's moves. */
  const clock = fixedClock(T0);
  const runner = fixedClock(T0);
  const receivers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    // Private targets allowed: the receiver listens on 127.0.0.1 (nothing leaves the machine).
    t = await buildTestApp({
      engine,
      clock,
      env: { SECRETS_KEY: TEST_SECRETS_KEY, WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    owner = await signedIn(t, { plan: 'Studio' });
  });
  afterAll(async () => t.close());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await t.testDb.db.exec('DELETE FROM deliveries; DELETE FROM webhooks;');
    runner.set(T0);
  });

  async function hook(status: (n: number) => number) {
    const receiver = await startReceiver(status);
    receivers.push(receiver);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: bearer(owner),
      payload: { url: receiver.url, secret: SECRET },
    });
    return { receiver, id: res.json().id as number };
  }
  const sendTest = (id: number, who: LoggedIn = owner) =>
    t.app.inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers: bearer(who) });
  const log = async (id: number) =>
    (await t.app.inject({ url: `/api/webhooks/${id}/deliveries`, headers: bearer(owner) })).json();
  /** The deliver-alerts job's runner, as services.ts builds it, on the runner's clock. */
  const run = () =>
    createDelivery({
      db: t.testDb.db,
      clock: runner,
      entitlements: t.config.entitlements,
      webhookAllowPrivate: true,
      secrets: testSecrets,
    }).runPending(runner.now());

  it('answers 202 with the queued delivery, lists it, then sends it signed and logs the answer', async () => {
    const { receiver, id } = await hook(() => 204);
    const res = await sendTest(id);
    expect(res.statusCode).toBe(202);
    const queued = {
      id: res.json().id as number,
      firing_id: null,
      alert_id: null,
      test: true,
      status: 'pending',
      attempts: 0,
      next_attempt_at: T0,
      last_status: null,
      last_error: null,
      created_at: T0,
      delivered_at: null,
    };
    expect(res.json()).toEqual(queued);
    expect(await log(id)).toEqual([queued]);
    expect(receiver.requests).toEqual([]);

    runner.advance(30_000);
    expect(await run()).toEqual({ delivered: 1, failed: 0, gaveUp: 0, retrying: 0 });
    expect(receiver.requests).toHaveLength(1);
    const sent = receiver.requests[0]!;
    expect(JSON.parse(sent.body)).toEqual({
      event: 'alert.fired',
      alert_id: 0,
      firing_id: 0,
      type: 'ccu_spike',
      universe_id: 0,
      message: 'Sample Game passed 1,250 CCU (threshold 1,000) at 18:05 UTC',
      fired_at: T0,
      details: { universe_id: 0, name: 'Sample Game', genre: 'simulation', threshold: 1000, ccu: 1250 },
      test: true,
    });
    expect(sent.headers['x-svc-timestamp']).toBe(String(Date.parse(T0) / 1000 + 30));
    const mac = createHmac('sha256', SECRET).update(`${sent.headers['x-svc-timestamp']}.${sent.body}`);
    expect(sent.headers['x-svc-signature']).toBe(`sha256=${mac.digest('hex')}`);
    expect(await log(id)).toEqual([
      {
        ...queued,
        status: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_status: 204,
        delivered_at: '2025-06-01T18:05:30.000Z',
      },
    ]);
    expect(t.logs.text).not.toContain(SECRET);
  });

  it('retries a test the receiver failed, like a real delivery, and keeps each test as its own entry', async () => {
    const { receiver, id } = await hook((n) => (n === 0 ? 503 : 200));
    const first = (await sendTest(id)).json().id as number;
    expect(await run()).toEqual({ delivered: 0, failed: 0, gaveUp: 0, retrying: 1 });
    const second = (await sendTest(id)).json().id as number;
    expect(second).toBeGreaterThan(first);
    expect(await log(id)).toMatchObject([
      { id: second, status: 'pending', attempts: 0, test: true },
      {
        id: first,
        status: 'pending',
        attempts: 1,
        last_status: 503,
        last_error: 'receiver answered HTTP 503',
        next_attempt_at: '2025-06-01T18:06:00.000Z',
      },
    ]);
    runner.advance(60_000);
    expect(await run()).toEqual({ delivered: 2, failed: 0, gaveUp: 0, retrying: 0 });
    expect(receiver.requests).toHaveLength(3);
    expect((await log(id)).map((d: { status: string }) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('answers 404 for someone else’s webhook or one that does not exist, queuing nothing', async () => {
    const { id } = await hook(() => 200);
    const stranger = await signedIn(t, { plan: 'Enterprise' });
    for (const [target, who] of [
      [id, stranger],
      [id + 1000, owner],
    ] as const) {
      const res = await sendTest(target, who);

      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', detail: 'No such webhook.' });
    }
    expect(await log(id)).toEqual([]);
  });

  it('is for plans with webhook delivery: Builder gets 403 plan_upgrade_required', async () => {
    const builder = await signedIn(t, { plan: 'Builder' });
    const res = await sendTest(1, builder);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      detail: 'Webhook delivery needs the Studio plan or higher.',
      code: 'plan_upgrade_required',
      required_plan: 'Studio',
    });
  });

  it('documents the 202 answer in /openapi.json', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api' })).json();
    const op = doc.paths['/api/webhooks/{id}/test'].post;
    expect(op.summary).toBe('Send a test delivery to a webhook');
    expect(Object.keys(op.responses)).toContain('202');
    expect(op.responses['202'].content['application/json'].schema.$ref).toContain('WebhookDelivery');
  });
});
