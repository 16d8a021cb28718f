import {
  BENCH_USER,
  compare,
  type Figure,
  load,
  ratio,
  type Suite,
  startTarget,
  TEAM_AUDIT_ROWS,
} from './lib.js';

/**
 * Acting in a shared team costs one membership lookup per request (X-Team-Id): GET /api/alerts/my
 * in the team against the same request in the personal team. The audit log's first page, a
 * filtered page (1 entry in 100 matches) and the CSV export of a team with 100,000 entries,
 * against GET /api/auth/me (the same guard, no team, one small query).
 */
export const teamsSuite: Suite = {
  name: 'teams',
  description: 'team-context overhead and audit log pages/CSV against personal-team and /me floors',
  async run(options) {
    const app = await startTarget('teams');
    try {
      const login = await fetch(`${app.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(BENCH_USER),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const auth = { authorization: `Bearer ${token}` };
      const memberships = (await (
        await fetch(`${app.url}/api/team/memberships`, { headers: auth })
      ).json()) as {
        teams: { id: number; personal: boolean }[];
      };
      const teamId = memberships.teams.find((t) => !t.personal)!.id;
      const inTeam = { ...auth, 'x-team-id': String(teamId) };

      const alerts = await compare(
        () => load(`${app.url}/api/alerts/my`, options, { headers: auth }),
        () => load(`${app.url}/api/alerts/my`, options, { headers: inTeam }),
      );
      const me = () => load(`${app.url}/api/auth/me`, options, { headers: auth });
      const page = await compare(me, () =>
        load(`${app.url}/api/team/audit?limit=50`, options, { headers: inTeam }),
      );
      const filtered = await compare(me, () =>
        load(`${app.url}/api/team/audit?limit=50&action=member.role_changed`, options, { headers: inTeam }),
      );
      for (const [name, r] of [
        ['alerts in team', alerts.subject],
        ['audit page', page.subject],
        ['audit filtered', filtered.subject],
      ] as const) {
        if (r.non2xx > 0 || r.errors > 0)
          throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors under load`);
      }
      // The CSV export of every entry, timed against one JSON page of 50.
      const timed = async (url: string) => {
        const started = performance.now();
        const res = await fetch(url, { headers: inTeam });
        const text = await res.text();
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        return { ms: performance.now() - started, lines: text.split('\r\n').length - 2 };
      };
      const onePage = await timed(`${app.url}/api/team/audit?limit=50`);
      const csv = await timed(`${app.url}/api/team/audit?format=csv`);
      const figures: Figure[] = [
        {
          suite: 'teams',
          name: 'GET /api/alerts/my in a shared team (X-Team-Id) p99',
          value: alerts.subject.p99,
          unit: 'ms',
          floor: { name: 'the same in the personal team p99', value: alerts.floor.p99 },
          ratio: ratio(alerts.subject.p99, alerts.floor.p99),
        },
        {
          suite: 'teams',
          name: 'GET /api/alerts/my in a shared team requests/s',
          value: Math.round(alerts.subject.rps),
          unit: 'req/s',
          floor: { name: 'personal team', value: Math.round(alerts.floor.rps) },
          ratio: ratio(alerts.subject.rps, alerts.floor.rps),
        },
        {
          suite: 'teams',
          name: `GET /api/team/audit first page (${TEAM_AUDIT_ROWS.toLocaleString('en-US')} entries) p99`,
          value: page.subject.p99,
          unit: 'ms',
          floor: { name: 'GET /api/auth/me p99', value: page.floor.p99 },
          ratio: ratio(page.subject.p99, page.floor.p99),
        },
        {
          suite: 'teams',
          name: 'GET /api/team/audit?action=… (1 in 100 match) p99',
          value: filtered.subject.p99,
          unit: 'ms',
          floor: { name: 'GET /api/auth/me p99', value: filtered.floor.p99 },
          ratio: ratio(filtered.subject.p99, filtered.floor.p99),
        },
        {
          suite: 'teams',
          name: `GET /api/team/audit?format=csv (${csv.lines.toLocaleString('en-US')} rows)`,
          value: Math.round(csv.ms),
          unit: 'ms',
          floor: { name: 'one JSON page of 50', value: Math.round(onePage.ms) },
          ratio: ratio(csv.ms, onePage.ms),
        },
      ];
      return figures;
    } finally {
      await app.stop();
    }
  },
};
