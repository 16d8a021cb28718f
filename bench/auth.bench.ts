import { BENCH_USER, compare, type Figure, load, ratio, type Suite, startTarget } from './lib.js';

/**
 * Login throughput (argon2id verification dominates, by design) and the authenticated
 * GET /api/auth/me (JWT check, token-version cache, rate limit, one user query), both as ratios
 * to GET /healthz on the same server in the same run.
 */
export const authSuite: Suite = {
  name: 'auth',
  description: 'login requests/s and GET /api/auth/me p99 against GET /healthz',
  async run(options) {
    const app = await startTarget('app');
    try {
      const loginBody = JSON.stringify(BENCH_USER);
      const json = { 'content-type': 'application/json' };
      const res = await fetch(`${app.url}/api/auth/login`, {
        method: 'POST',
        headers: json,
        body: loginBody,
      });
      const { access_token: token } = (await res.json()) as { access_token: string };
      const healthz = () => load(`${app.url}/healthz`, options);
      const login = await compare(healthz, () =>
        load(`${app.url}/api/auth/login`, options, { method: 'POST', body: loginBody, headers: json }),
      );
      // Logins above bumped the token version: sign in once more for the /me figure.
      const again = await fetch(`${app.url}/api/auth/login`, {
        method: 'POST',
        headers: json,
        body: loginBody,
      });
      const fresh = ((await again.json()) as { access_token: string }).access_token ?? token;
      const me = await compare(healthz, () =>
        load(`${app.url}/api/auth/me`, options, { headers: { authorization: `Bearer ${fresh}` } }),
      );
      for (const [name, r] of [
        ['login', login.subject],
        ['me', me.subject],
      ] as const) {
        if (r.non2xx > 0 || r.errors > 0)
          throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors under load`);
      }
      const figures: Figure[] = [
        {
          suite: 'auth',
          name: 'POST /api/auth/login requests/s',
          value: Math.round(login.subject.rps),
          unit: 'req/s',
          floor: { name: 'GET /healthz', value: Math.round(login.floor.rps) },
          ratio: ratio(login.subject.rps, login.floor.rps),
        },
        {
          suite: 'auth',
          name: 'GET /api/auth/me requests/s',
          value: Math.round(me.subject.rps),
          unit: 'req/s',
          floor: { name: 'GET /healthz', value: Math.round(me.floor.rps) },
          ratio: ratio(me.subject.rps, me.floor.rps),
        },
        {
          suite: 'auth',
          name: 'GET /api/auth/me p99 latency',
          value: me.subject.p99,
          unit: 'ms',
          floor: { name: 'GET /healthz p99', value: me.floor.p99 },
          ratio: ratio(me.subject.p99, me.floor.p99),
        },
      ];
      return figures;
    } finally {
      await app.stop();
    }
  },
};
