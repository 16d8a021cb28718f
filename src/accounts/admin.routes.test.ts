import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, createUser, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';

interface Page {
  users: {
    id: number;
    email: string;
    plan: string;
    subscription_status: string;
    is_admin: boolean;
    created_at: string;
  }[];
  total: number;
}

describe.each(testEngines())('GET /api/admin/users (%s)', (engine) => {
  let t: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    t = await buildTestApp({ engine });
    admin = await signedIn(t, { isAdmin: true, plan: 'Enterprise' });
  });
  afterAll(() => t.close());

  const list = async (query: string, as: LoggedIn = admin) =>
    t.app.inject({ url: `/api/admin/users${query}`, headers: bearer(as) });

  it('shows administrators every user newest first, without password hashes', async () => {
    const a = await createUser(t, { email: 'list-a@admin-list.test' });
    const b = await createUser(t, { email: 'list-b@admin-list.test', plan: 'Studio' });
    const res = await list('?q=admin-list.test');
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page;
    expect(page).toEqual({
      users: [
        {
          id: b.id,
          email: 'list-b@admin-list.test',
          plan: 'Studio',
          subscription_status: 'active',
          is_admin: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
        {
          id: a.id,
          email: 'list-a@admin-list.test',
          plan: 'Explorer',
          subscription_status: 'none',
          is_admin: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
      total: 2,
    });
    expect(Date.parse(page.users[0]!.created_at)).toBeGreaterThanOrEqual(
      Date.parse(page.users[1]!.created_at),
    );
    const everyone = (await list('')).json() as Page;
    expect(everyone.users[0]!.id).toBe(b.id);
    expect(everyone.users.map((u) => u.email)).toContain(admin.email);
    expect(everyone.users.find((u) => u.email === admin.email)).toMatchObject({
      plan: 'Enterprise',
      is_admin: true,
    });
    expect(res.body).not.toMatch(/password|argon2/);
  });

  it('refuses anyone but an administrator', async () => {
    const anonymous = await t.app.inject({ url: '/api/admin/users' });
    expect(anonymous.statusCode).toBe(401);
    const s = await signedIn(t, { plan: 'Enterprise' });
    const notAdmin = await list('', s);
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json()).toEqual({
      detail: 'This endpoint is for administrators.',
      code: 'admin_required',
    });
    // An administrator's read key is still no admin session.
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(admin),
      payload: { name: 'admin read', scopes: ['read'] },
    });
    const viaKey = await t.app.inject({
      url: '/api/admin/users',
      headers: { 'x-api-key': (key.json() as { key: string }).key },
    });
    expect(viaKey.statusCode).toBe(403);
    expect((viaKey.json() as { code: string }).code).toBe('api_key_read_only');
  });

  it('filters by a substring of the e-mail in any case, with % and _ matching themselves', async () => {
    const pct = await createUser(t, { email: 'promo100%off@wild.test' });
    await createUser(t, { email: 'promo100xoff@wild.test' });
    const under = await createUser(t, { email: 'first_last@wild.test' });
    await createUser(t, { email: 'firstxlast@wild.test' });
    const emails = async (q: string) =>
      ((await list(`?q=${encodeURIComponent(q)}`)).json() as Page).users.map((u) => u.email);
    expect(await emails('100%OFF')).toEqual([pct.email]);
    expect(await emails('%')).toEqual([pct.email]);
    expect(await emails('t_l')).toEqual([under.email]);
    expect(await emails('WILD.TEST')).toHaveLength(4);
    expect(await emails('\\')).toEqual([]);
    expect((await list('?q=nobody-has-this')).json()).toEqual({ users: [], total: 0 });
    // A blank query is no filter.
    expect(((await list('?q=%20%20')).json() as Page).total).toBe(((await list('')).json() as Page).total);
  });

  it('pages with limit and offset while total counts every match', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createUser(t, { email: `page${i}@paging.test` }));
    const newestFirst = made.map((u) => u.email).reverse();
    const page = async (query: string) => (await list(`?q=paging.test&${query}`)).json() as Page;
    expect(await page('limit=2')).toMatchObject({ total: 5 });
    expect((await page('limit=2')).users.map((u) => u.email)).toEqual(newestFirst.slice(0, 2));
    expect((await page('limit=2&offset=2')).users.map((u) => u.email)).toEqual(newestFirst.slice(2, 4));
    expect((await page('limit=2&offset=4')).users.map((u) => u.email)).toEqual(newestFirst.slice(4));
    expect(await page('limit=2&offset=10')).toEqual({ users: [], total: 5 });
    expect((await page('')).users.length).toBe(5);
    for (const bad of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc']) {
      const res = await list(`?${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect((res.json() as { code: string }).code).toBe('validation_failed');
    }
  });

  it('pages 50 users by default and at most 200', async () => {
    for (let i = 0; i < 51; i++)
      await t.accounts.accounts.createUser({ email: `bulk${i}@bulk.test`, password: 'x' });
    expect(((await list('?q=bulk.test')).json() as Page).users).toHaveLength(50);
    const all = (await list('?q=bulk.test&limit=200')).json() as Page;
    expect(all.users).toHaveLength(51);
    expect(all.total).toBe(51);
  });
});
