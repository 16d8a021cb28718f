import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../../test/helpers/db.js';
import {
  deliveryRows,
  enqueue,
  insertUser,
  insertWebhook,
  makeFiring,
  startReceiver,
  storedSecret,
  testSecrets,
} from '../../../test/helpers/delivery.js';
import { fixedClock } from '../../clock.js';
import { DEFAULT_ENTITLEMENTS } from '../../plans.js';
import {
  createDelivery,
  type DeliveryDeps,
  keyId,
  rotateSecrets,
  SecretBox,
  sealPlainSecrets,
} from './index.js';

const SECRET = 'whsec_0123456789abcdef';
const T0 = new Date('2025-06-01T18:05:00Z');
const MIN = 60_000;

describe.each(testEngines())('webhook delivery (%s)', (engine) => {
  let t: TestDb;
  const receivers: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    t = await migratedDb(engine);
  });
  afterAll(async () => t.dispose());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await t.db.exec('DELETE FROM deliveries; DELETE FROM webhooks; DELETE FROM outbox;');
  });

  function setup(extra: Partial<DeliveryDeps> = {}) {
    const clock = fixedClock(T0);
    const delivery = createDelivery({
      db: t.db,
      clock,
      entitlements: DEFAULT_ENTITLEMENTS,
      webhookAllowPrivate: true,
      secrets: testSecrets,
      ...extra,
    });
    return { clock, delivery };
  }

  async function studioWithHook(status: (n: number) => number) {
    const r = await startReceiver(status);
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    const webhookId = await insertWebhook(t.db, owner.userId, r.url, SECRET);
    return { r, owner, webhookId };
  }

  it('posts the firing as signed JSON the receiver can verify', async () => {
    const { clock, delivery } = setup();
    const { r, owner } = await studioWithHook(() => 200);
    const firing = makeFiring(owner, T0);
    await enqueue(t.db, delivery, firing, 'Studio');
    expect(await delivery.runPending(clock.now())).toEqual({
      delivered: 2,
      failed: 0,
      gaveUp: 0,
      retrying: 0,
    });

    expect(r.requests).toHaveLength(1);
    const req = r.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      event: 'alert.fired',
      alert_id: 7,
      firing_id: firing.firingId,
      type: 'ccu_spike',
      universe_id: 994732206,
      message: 'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
      fired_at: '2025-06-01T18:05:00.000Z',
      details: { ccu: 512345, threshold: 450000 },
    });
    const timestamp = req.headers['x-svc-timestamp'];
    expect(timestamp).toBe(String(T0.getTime() / 1000));
    const expected = createHmac('sha256', SECRET).update(`${timestamp}.${req.body}`).digest('hex');
    expect(req.headers['x-svc-signature']).toBe(`sha256=${expected}`);
    const hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    expect(hook).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200, last_error: null });
  });

  function signedWith(secret: string, req: { headers: Record<string, unknown>; body: string }): boolean {
    const expected = createHmac('sha256', secret)
      .update(`${req.headers['x-svc-timestamp']}.${req.body}`)
      .digest('hex');
    return req.headers['x-svc-signature'] === `sha256=${expected}`;
  }

  const OLD_KEY = Buffer.alloc(32, 0x0a);
  const NEW_KEY = Buffer.alloc(32, 0x0b);

  it('keeps signing with a secret encrypted under the previous key after a rotation, and re-encrypts it', async () => {
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    const oldBox = new SecretBox({ current: OLD_KEY, previous: [] });
    const id = await insertWebhook(t.db, owner.userId, r.url, SECRET, oldBox);
    expect(await storedSecret(t.db, id)).toMatch(new RegExp(`^v1:${keyId(OLD_KEY)}:`));

    const rotated = new SecretBox({ current: NEW_KEY, previous: [OLD_KEY] });
    const { clock, delivery } = setup({ secrets: rotated });
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ delivered: 2, failed: 0 });
    expect(signedWith(SECRET, r.requests[0]!)).toBe(true);

    expect(await rotateSecrets(t.db, rotated)).toEqual({ resealed: 1, current: 0, unreadable: [] });
    expect(await rotateSecrets(t.db, rotated)).toEqual({ resealed: 0, current: 1, unreadable: [] });
    const stored = await storedSecret(t.db, id);
    expect(stored).toMatch(new RegExp(`^v1:${keyId(NEW_KEY)}:`));
    expect(stored).not.toContain(SECRET);

    // The old key can now be dropped: the new one alone signs.
    const after = setup({ secrets: new SecretBox({ current: NEW_KEY, previous: [] }) });
    await enqueue(t.db, after.delivery, makeFiring(owner, T0), 'Studio');
    expect(await after.delivery.runPending(T0)).toMatchObject({ delivered: 2, failed: 0 });
    expect(signedWith(SECRET, r.requests[1]!)).toBe(true);
  });

  it('fails only the webhook delivery, with the reason, when no configured key opens its secret', async () => {
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    const id = await insertWebhook(
      t.db,
      owner.userId,
      r.url,
      SECRET,
      new SecretBox({ current: OLD_KEY, previous: [] }),
    );
    const { clock, delivery } = setup({ secrets: new SecretBox({ current: NEW_KEY, previous: [] }) });
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toEqual({
      delivered: 1,
      failed: 1,
      gaveUp: 0,
      retrying: 0,
    });
    expect((await deliveryRows(t.db)).map((d) => [d.channel, d.status, d.last_error])).toEqual([
      ['email', 'delivered', null],
      [
        'webhook',
        'failed',
        `webhook secret unreadable: it was encrypted with key ${keyId(OLD_KEY)}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
      ],
    ]);
    expect(r.requests).toHaveLength(0);
    expect(await rotateSecrets(t.db, new SecretBox({ current: NEW_KEY, previous: [] }))).toEqual({
      resealed: 0,
      current: 0,
      unreadable: [
        {
          id,
          reason: `it was encrypted with key ${keyId(OLD_KEY)}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
        },
      ],
    });
  });

  it('refuses to sign with a secret whose ciphertext was altered in the database', async () => {
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    const id = await insertWebhook(t.db, owner.userId, r.url, SECRET);
    const stored = await storedSecret(t.db, id);
    const last = stored.at(-5) === 'A' ? 'B' : 'A';
    await t.db.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [
      id,
      `${stored.slice(0, -5)}${last}${stored.slice(-4)}`,
    ]);
    const { clock, delivery } = setup();
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ delivered: 1, failed: 1 });
    const hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    expect(hook.last_error).toBe(
      `webhook secret unreadable: it does not authenticate under key ${testSecrets.currentKeyId} (altered or corrupted)`,
    );
    expect(r.requests).toHaveLength(0);
  });

  it('signs with a secret stored in plain text before encryption, and encrypts it at start', async () => {
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    const res = await t.db.query<{ id: number }>(
      `INSERT INTO webhooks (user_id, team_id, url, secret, created_at)
       SELECT id, team_id, $2, $3, now() FROM users WHERE id = $1 RETURNING id`,
      [owner.userId, r.url, `plain:${SECRET}`],
    );
    const id = res.rows[0]!.id;
    const { clock, delivery } = setup();
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ delivered: 2 });
    expect(signedWith(SECRET, r.requests[0]!)).toBe(true);

    expect(await sealPlainSecrets(t.db, testSecrets)).toEqual({ resealed: 1, current: 0, unreadable: [] });
    expect(await sealPlainSecrets(t.db, testSecrets)).toEqual({ resealed: 0, current: 0, unreadable: [] });
    expect(testSecrets.open(await storedSecret(t.db, id))).toBe(SECRET);
    expect(await storedSecret(t.db, id)).toMatch(new RegExp(`^v1:${testSecrets.currentKeyId}:`));
  });

  it('retries a 500 after one minute and delivers on the 200 that follows', async () => {
    const { clock, delivery } = setup();
    const { r, owner } = await studioWithHook((n) => (n === 0 ? 500 : 200));
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect((await delivery.runPending(clock.now())).retrying).toBe(1);
    let hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    expect(hook).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 });
    expect(hook.last_error).toBe('receiver answered HTTP 500');
    expect(hook.next_attempt_at.toISOString()).toBe('2025-06-01T18:06:00.000Z');

    clock.advance(59_000);
    expect(await delivery.runPending(clock.now())).toEqual({
      delivered: 0,
      failed: 0,
      gaveUp: 0,
      retrying: 0,
    });
    clock.advance(1_000);
    expect(await delivery.runPending(clock.now())).toMatchObject({ delivered: 1 });
    hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    expect(hook).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200, last_error: null });
    expect(r.requests).toHaveLength(2);
  });

  it('gives up on a receiver that keeps failing for 24 hours after the firing', async () => {
    const { clock, delivery } = setup();
    const { r, owner } = await studioWithHook(() => 503);
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    let hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    for (let i = 0; i < 40 && hook.status === 'pending'; i++) {
      clock.set(hook.next_attempt_at);
      await delivery.runPending(clock.now());
      hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    }
    // Attempts at 0, 1, 3, 7, 15, 31, 63 min, then hourly: the 29th (at 23 h 03 min) would next
    // retry at 24 h 03 min, past the 24 h window.
    expect(hook).toMatchObject({ status: 'gave_up', attempts: 29, last_status: 503 });
    expect(hook.last_error).toBe('receiver answered HTTP 503; gave up 24 h after the firing');
    expect(clock.now().getTime() - T0.getTime()).toBe(1383 * MIN);
    expect(r.requests).toHaveLength(29);
  });

  it('fails a 404 at once, without retrying', async () => {
    const { clock, delivery } = setup();
    const { r, owner } = await studioWithHook(() => 404);
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ failed: 1, retrying: 0 });
    clock.advance(2 * 3_600_000);
    await delivery.runPending(clock.now());
    const hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    expect(hook).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status: 404,
      last_error: 'receiver answered HTTP 404',
    });
    expect(r.requests).toHaveLength(1);
  });

  it('refuses at send time a stored URL that now resolves to a private address', async () => {
    const resolve = async (host: string) => (host === 'hooks.example.com' ? ['10.0.0.5'] : ['93.184.216.34']);
    const { clock, delivery } = setup({ webhookAllowPrivate: false, resolve });
    const r = await startReceiver();
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    await insertWebhook(t.db, owner.userId, 'http://hooks.example.com/alerts', SECRET);
    await insertWebhook(t.db, owner.userId, r.url, SECRET);
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ failed: 2, retrying: 0 });
    const hooks = (await deliveryRows(t.db)).filter((d) => d.channel === 'webhook');
    expect(hooks.map((h) => [h.status, h.last_status, h.last_error])).toEqual([
      ['failed', null, 'URL refused: it has a host name that resolves to a private network address'],
      ['failed', null, 'URL refused: it targets a loopback address'],
    ]);
    expect(r.requests).toHaveLength(0);
  });

  it('refuses at send time a name that resolves to an IPv6 form embedding an IPv4 address', async () => {
    const answers: Record<string, string[]> = {
      'compat.example.com': ['::8.8.8.8'],
      'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
      'sixtofour.example.com': ['2002:a00:5::1'],
    };
    const resolve = async (host: string) => answers[host] ?? [];
    const { clock, delivery } = setup({ webhookAllowPrivate: false, resolve });
    const owner = await insertUser(t.db, 'Studio');
    for (const host of Object.keys(answers))
      await insertWebhook(t.db, owner.userId, `http://${host}/alerts`, SECRET);
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ failed: 3, retrying: 0 });
    const hooks = (await deliveryRows(t.db)).filter((d) => d.channel === 'webhook');
    const refused = (what: string) =>
      `URL refused: it has a host name that resolves to ${what}, which embeds an IPv4 address`;
    expect(hooks.map((h) => [h.status, h.last_error])).toEqual([
      ['failed', refused('an IPv4-compatible IPv6 address (::/96)')],
      ['failed', refused('a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48)')],
      ['failed', refused('a 6to4 address (2002::/16)')],
    ]);
  });

  it('refuses a name re-bound to a private address between the check and the connection', async () => {
    let lookups = 0;
    const resolve = async () => (lookups++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']);
    const { clock, delivery } = setup({ webhookAllowPrivate: false, resolve });
    const r = await startReceiver();
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    await insertWebhook(t.db, owner.userId, r.url.replace('127.0.0.1', 'rebind.example.com'), SECRET);
    await enqueue(t.db, delivery, makeFiring(owner, T0), 'Studio');
    expect(await delivery.runPending(clock.now())).toMatchObject({ failed: 1, retrying: 0 });
    const hook = (await deliveryRows(t.db)).find((d) => d.channel === 'webhook')!;
    expect(hook.last_error).toBe('URL refused: it has a host name that resolves to a loopback address');
    expect(lookups).toBe(2);
    expect(r.requests).toHaveLength(0);
  });

  it('sends each delivery once when two workers run at the same moment', async () => {
    const a = setup({ batchSize: 3 });
    const b = setup({ batchSize: 3 });
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const owner = await insertUser(t.db, 'Studio');
    await insertWebhook(t.db, owner.userId, r.url, SECRET);
    const firings = Array.from({ length: 12 }, () => makeFiring(owner, T0));
    for (const f of firings) await enqueue(t.db, a.delivery, f, 'Studio');
    const [ra, rb] = await Promise.all([a.delivery.runPending(T0), b.delivery.runPending(T0)]);
    expect(ra.delivered + rb.delivered).toBe(24);
    const sent = r.requests.map((q) => (JSON.parse(q.body) as { firing_id: number }).firing_id).sort();
    expect(sent).toEqual(firings.map((f) => f.firingId).sort());
    expect(await t.db.query('SELECT 1 FROM outbox')).toMatchObject({ rowCount: 12 });
  });

  it('queues by plan: Explorer nothing, Builder e-mail, Studio e-mail and each webhook, once', async () => {
    const { delivery } = setup();
    const explorer = await insertUser(t.db, 'Explorer');
    const builder = await insertUser(t.db, 'Builder');
    const studio = await insertUser(t.db, 'Studio');
    for (const u of [explorer, builder]) await insertWebhook(t.db, u.userId, 'http://a.example/', SECRET);
    const hooks = [
      await insertWebhook(t.db, studio.userId, 'http://a.example/', SECRET),
      await insertWebhook(t.db, studio.userId, 'http://b.example/', SECRET),
    ];
    const fe = makeFiring(explorer, T0);
    const fb = makeFiring(builder, T0);
    const fs = makeFiring(studio, T0);
    await enqueue(t.db, delivery, fe, 'Explorer');
    await enqueue(t.db, delivery, fb, 'Builder');
    await enqueue(t.db, delivery, fs, 'Studio');
    await enqueue(t.db, delivery, fs, 'Studio'); // a repeated hand-off adds nothing
    const rows = await deliveryRows(t.db);
    expect(rows.map((d) => [d.firing_id, d.channel, d.webhook_id])).toEqual([
      [fb.firingId, 'email', null],
      [fs.firingId, 'email', null],
      [fs.firingId, 'webhook', hooks[0]],
      [fs.firingId, 'webhook', hooks[1]],
    ]);
    expect(rows.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
  });
});
