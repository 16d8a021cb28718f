import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../../test/helpers/auth.js';
import {
  enqueue,
  makeFiring,
  startReceiver,
  storedSecret,
  TEST_SECRETS_KEY,
  testSecrets,
} from '../../../test/helpers/delivery.js';
import { fixedClock } from '../../clock.js';
import { createDelivery } from './index.js';

const SECRET = 'whsec_0123456789abcdef';
const clock = fixedClock('2025-06-01T18:05:00Z');

/** The app encrypts webhook secrets with the delivery tests' key, so a delivery run here can sign. */
async function app(env: Record<string, string>): Promise<TestApp> {
  return buildTestApp({ env: { SECRETS_KEY: TEST_SECRETS_KEY, ...env }, clock });
}

describe('webhook endpoints', () => {
  let t: TestApp;
  let studio: LoggedIn;
  beforeAll(async () => {
    t = await app({});
    studio = await signedIn(t, { plan: 'Studio' });
  });
  afterAll(async () => t.close());

  const post = (who: LoggedIn, payload: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(who), payload });

  it('refuses loopback, private, link-local, embedded-IPv4 and non-http URLs in any notation with 422 naming body.url', async () => {
    const cases: [string, string][] = [
      ['http://127.0.0.1/hook', 'body.url targets a loopback address'],
      ['http://10.0.0.5/hook', 'body.url targets a private network address'],
      ['http://[::1]:8080/hook', 'body.url targets a loopback address'],
      ['http://169.254.169.254/latest/meta-data', 'body.url targets a link-local address'],
      ['ftp://files.example.com/x', 'body.url must use http or https (got ftp)'],
      ['http://localhost:8080/hook', 'body.url has a host name that resolves to a loopback address'],
      ['http://2130706433/hook', 'body.url targets a loopback address'],
      ['http://0x7f.1/hook', 'body.url targets a loopback address'],
      ['http://127.0.0.1./hook', 'body.url targets a loopback address'],
      ['http://[::ffff:127.0.0.1]/hook', 'body.url targets a loopback address'],
      ['http://[0:0:0:0:0:ffff:7f00:1]/hook', 'body.url targets a loopback address'],
      ['http://[fe80::1%25eth0]/hook', 'body.url is not a valid absolute URL'],
      [
        'http://[::127.0.0.1]/hook',
        'body.url targets an IPv4-compatible IPv6 address (::/96), which embeds an IPv4 address',
      ],
      [
        'http://[::8.8.8.8]/hook',
        'body.url targets an IPv4-compatible IPv6 address (::/96), which embeds an IPv4 address',
      ],
      [
        'http://[::ffff:0:a9fe:a9fe]/hook',
        'body.url targets an IPv4-translated IPv6 address (::ffff:0:0:0/96), which embeds an IPv4 address',
      ],
      [
        'http://[64:ff9b::a9fe:a9fe]/hook',
        'body.url targets a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48), which embeds an IPv4 address',
      ],
      [
        'http://[64:ff9b:1::a00:5]/hook',
        'body.url targets a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48), which embeds an IPv4 address',
      ],
      [
        'http://[2002:7f00:1::1]/hook',
        'body.url targets a 6to4 address (2002::/16), which embeds an IPv4 address',
      ],
      [
        'http://[2001:0:7f00:1::1]/hook',
        'body.url targets a Teredo address (2001::/32), which embeds an IPv4 address',
      ],
      [
        'http://[2606:4700::5efe:7f00:1]/hook',
        'body.url targets an ISATAP address (an IPv4 in its interface id), which embeds an IPv4 address',
      ],
    ];
    for (const [url, detail] of cases) {
      const res = await post(studio, { url, secret: SECRET });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        422,
        { detail, code: 'validation_failed', field: 'body.url' },
      ]);
    }
    expect((await t.app.inject({ url: '/api/webhooks', headers: bearer(studio) })).json()).toEqual([]);
  });

  it('is for Studio and up: Builder gets 403 plan_upgrade_required', async () => {
    const builder = await signedIn(t, { plan: 'Builder' });
    const res = await post(builder, { url: 'https://hooks.example.com/x', secret: SECRET });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      detail: 'Webhook delivery needs the Studio plan or higher.',
      code: 'plan_upgrade_required',
      required_plan: 'Studio',
    });
  });

  it('checks the secret length (16 to 256 characters)', async () => {
    const res = await post(studio, { url: 'https://hooks.example.com/x', secret: 'short' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'body.secret' });
  });
});

describe('webhook endpoints with private targets allowed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => t.close());

  it('registers, stores the secret encrypted, signs with it, lists without it, shows the log, deletes only your own', async () => {
    const receiver = await startReceiver(() => 404);
    try {
      const owner = await signedIn(t, { plan: 'Studio' });
      const other = await signedIn(t, { plan: 'Enterprise' });
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(owner),
        payload: { url: receiver.url, secret: SECRET },
      });
      expect(created.statusCode).toBe(201);
      const hook = created.json() as { id: number };
      expect(created.json()).toEqual({
        id: hook.id,
        url: receiver.url,
        created_at: '2025-06-01T18:05:00.000Z',
      });
      const listed = await t.app.inject({ url: '/api/webhooks', headers: bearer(owner) });
      expect(listed.json()).toEqual([created.json()]);
      expect(listed.body).not.toContain(SECRET);
      const stored = await storedSecret(t.testDb.db, hook.id);
      expect(stored).toMatch(new RegExp(`^v1:${testSecrets.currentKeyId}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`));
      expect(stored).not.toContain(SECRET);

      const delivery = createDelivery({
        db: t.testDb.db,
        clock,
        entitlements: t.config.entitlements,
        webhookAllowPrivate: true,
        secrets: testSecrets,
      });
      const firing = makeFiring({ userId: owner.userId, teamId: 1 }, clock.now());
      await enqueue(t.testDb.db, delivery, firing, 'Studio');
      await delivery.runPending(clock.now());
      const sent = receiver.requests[0]!;
      const mac = createHmac('sha256', SECRET).update(`${sent.headers['x-svc-timestamp']}.${sent.body}`);
      expect(sent.headers['x-svc-signature']).toBe(`sha256=${mac.digest('hex')}`);
      const log = await t.app.inject({ url: `/api/webhooks/${hook.id}/deliveries`, headers: bearer(owner) });
      expect(log.json()).toEqual([
        {
          id: expect.any(Number),
          firing_id: firing.firingId,
          alert_id: 7,
          test: false,
          status: 'failed',
          attempts: 1,
          next_attempt_at: null,
          last_status: 404,
          last_error: 'receiver answered HTTP 404',
          created_at: '2025-06-01T18:05:00.000Z',
          delivered_at: null,
        },
      ]);
      expect(t.logs.text).not.toContain(SECRET);

      const url = `/api/webhooks/${hook.id}`;
      for (const path of [url, `${url}/deliveries`]) {
        const res = await t.app.inject({
          method: path === url ? 'DELETE' : 'GET',
          url: path,
          headers: bearer(other),
        });
        expect(res.statusCode).toBe(404);
      }
      const deleted = await t.app.inject({ method: 'DELETE', url, headers: bearer(owner) });
      expect(deleted.json()).toEqual({ status: 'deleted' });
      expect((await t.app.inject({ url: '/api/webhooks', headers: bearer(owner) })).json()).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
