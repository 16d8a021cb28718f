/**
 * A signed-in account with something on every page: tracked games, alert rules, a saved Dev Lens
 * report of the real Creator Hub export, SDK events for two games (scripts/sdk-demo.ts), and a
 * shared team (the team page lists it; its creation is in the audit log). Used
 * by the accessibility pass and `npm run screenshots`. Signing in through the API ends the
 * account's other sessions, so call it before the browser signs in.
 */
import { readFileSync } from 'node:fs';
import { seedSdkDemo } from '../../scripts/sdk-demo.js';
import { SDK_VIEW_IDS } from '../../web/src/pages/sdk/view-ids.js';

export const CREATOR_HUB_CSV = new URL(
  '../fixtures/realdata/creator-hub-csv/engagement_daily-active-users_export__rasorite-example.csv',
  import.meta.url,
).pathname;

export interface DemoState {
  /** Place ids of the tracked games, biggest first. */
  games: number[];
  reportId: number;
  /** The SDK games (game_id) with events. */
  sdkGames: string[];
  /** The shared team the account owns. */
  teamId: number;
}

async function call<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function prepareDemo(
  base: string,
  email: string,
  password: string,
  sdk: { days: number; players: number },
): Promise<DemoState> {
  const login = await call<{ access_token: string }>(base, '', 'POST', '/api/auth/login', {
    email,
    password,
  });
  const token = login.access_token;
  const trending = await call<{ games: { place_id: number; universe_id: number }[] }>(
    base,
    token,
    'GET',
    '/api/trending?limit=3',
  );
  for (const g of trending.games) await call(base, token, 'POST', `/api/track/${g.universe_id}`);
  const [first, second] = trending.games;
  await call(base, token, 'POST', '/api/alerts', {
    game_id: first!.universe_id,
    type: 'ccu_drop',
    threshold: 1000,
  });
  await call(base, token, 'POST', '/api/alerts', {
    game_id: second!.universe_id,
    type: 'rank_change',
    threshold: 3,
  });
  const form = new FormData();
  form.append('file', new Blob([readFileSync(CREATOR_HUB_CSV)], { type: 'text/csv' }), 'dau-export.csv');
  const upload = await fetch(`${base}/api/dev-lens/analyze?save=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!upload.ok) throw new Error(`Dev Lens upload answered ${upload.status}: ${await upload.text()}`);
  const reports = await call<{ reports: { id: number }[] }>(base, token, 'GET', '/api/dev-lens/reports');
  const seeded = await seedSdkDemo(
    { base, headers: { authorization: `Bearer ${token}` } },
    { days: sdk.days, players: sdk.players, now: new Date() },
  );
  const team = await call<{ id: number }>(base, token, 'POST', '/api/team', { name: 'Demo Studio' });
  return {
    teamId: team.id,
    games: trending.games.map((g) => g.place_id),
    reportId: reports.reports[0]!.id,
    sdkGames: seeded.games,
  };
}

/** Every page of the app with the demo's data, named for its screenshot: [name, path]. */
export function demoPages(demo: DemoState): [string, string][] {
  const sdk = encodeURIComponent(demo.sdkGames[0]!);
  return [
    ['market', '/market'],
    ['genres', '/genres'],
    ['breakout', '/breakout'],
    ['game', `/games/${demo.games[0]}`],
    ['updates', '/updates'],
    ['game-updates', `/updates/${demo.games[0]}`],
    ['keywords', '/keywords'],
    ['keyword', '/keywords/tycoon'],
    ['intelligence', '/intelligence'],
    ['tracking', '/tracking'],
    ['alerts', '/tracking?tab=rules'],
    ['alert-feed', '/tracking?tab=feed'],
    ['webhooks', '/tracking?tab=webhooks'],
    ['dev-lens', `/dev-lens?report=${demo.reportId}`],
    ['sdk', '/sdk'],
    ...SDK_VIEW_IDS.map((v): [string, string] => [`sdk-${v}`, `/sdk/${sdk}/${v}`]),
    ['account', '/account'],
    ['team', '/team'],
    ['team-audit', '/team/audit'],
    ['admin', '/admin'],
  ];
}
