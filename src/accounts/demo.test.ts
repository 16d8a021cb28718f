import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { login } from '../../test/helpers/auth.js';
import { ensureDemoAccounts } from './demo.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('demo accounts', () => {
  it('creates one account per plan once, with a generated password kept in DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
    const first = await ensureDemoAccounts(t.accounts.accounts, dataDir);
    expect(first.accounts).toEqual([
      { email: 'explorer@demo.test', plan: 'Explorer', created: true },
      { email: 'builder@demo.test', plan: 'Builder', created: true },
      { email: 'studio@demo.test', plan: 'Studio', created: true },
      { email: 'enterprise@demo.test', plan: 'Enterprise', created: true },
    ]);
    expect(first.password).toBe(readFileSync(join(dataDir, 'demo-password'), 'utf8').trim());
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const again = await ensureDemoAccounts(t.accounts.accounts, dataDir);
    expect(again.accounts.every((a) => !a.created)).toBe(true);
    expect(again.password).toBe(first.password);

    const s = await login(t.app, 'studio@demo.test', first.password);
    const me = await t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${s.accessToken}` },
    });
    expect(me.json()).toMatchObject({ plan: 'Studio', subscription_status: 'active', is_admin: false });
  });
});
