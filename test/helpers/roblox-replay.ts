/**
 * A local stand-in for the Roblox web APIs: a node:http server on 127.0.0.1 (port 0) that answers
 * each path from a script of replies — the real recorded bodies in realdata/roblox-api (helpers/realdata.ts),
 * or faults (429 + Retry-After, 500, a response that never comes, malformed JSON). It counts the
 * requests in flight so tests can check a concurrency cap. Nothing here reaches the internet.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { needsRealdata, realdataFile } from './realdata.js';

/** The recorded Roblox responses (read-only fixtures; never edit them): realdata/roblox-api/<name>. */
export const roblox = (name: string): string => `roblox-api/${name}`;

/** The exact recorded body of one fixture file (test/fixtures/realdata, else ../shared/realdata). */
export function fixture(name: string): string {
  return readFileSync(realdataFile(roblox(name)), 'utf8');
}

/** Test options for a test that reads these fixtures: skipped when one is not available. */
export const needsFixtures = (...names: string[]) => needsRealdata(...names.map(roblox));

export const FIXTURES = {
  crossroads: 'games.roblox.com__v1_games__alcubierre_crossroads.json',
  rocamping: 'games.roblox.com__v1_games__openblox_rocamping.json',
  selfieMode: 'games.roblox.com__v1_games__recorded-200_selfie-mode__roblox-client-tracker.json',
  badIds400: 'games.roblox.com__v1_games__recorded-400_bad-universe-ids__roblox-client-tracker.json',
  votes: 'games.roblox.com__v1_games_votes__alcubierre.json',
  favoritesCount: 'games.roblox.com__v1_games_favorites_count__openblox.json',
  place1818: 'apis.roblox.com__universes_v1_places_universe__alcubierre_place1818.json',
  recommendations: 'games.roblox.com__v1_games_recommendations_game__openblox.json',
} as const;

export type Reply =
  | { status: number; body: string; headers?: Record<string, string>; delayMs?: number }
  /** Accept the request and never answer (a timeout). */
  | { hang: true };

export interface ReplayRequest {
  path: string;
  query: URLSearchParams;
}

/** Answers one request; may look at it (e.g. echo the requested ids). */
export type Handler = (req: ReplayRequest) => Reply;

export const json = (body: unknown, status = 200): Reply => ({ status, body: JSON.stringify(body) });
export const recorded = (name: string, status = 200): Reply => ({
  status,
  body: fixture(name),
  headers: { 'content-type': 'application/json; charset=utf-8' },
});
export const status = (code: number, headers?: Record<string, string>): Reply => ({
  status: code,
  body: JSON.stringify({ errors: [{ code: 0, message: 'scripted fault' }] }),
  ...(headers ? { headers } : {}),
});
export const malformed: Reply = { status: 200, body: '{"data":[{"id":13058,"playing":21' };
export const hang: Reply = { hang: true };

/** Replies in order, one per request; the last one repeats forever. */
export function sequence(...replies: Reply[]): Handler {
  let i = 0;
  return () => replies[Math.min(i++, replies.length - 1)]!;
}

export interface ReplayServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: ReplayRequest[];
  /** The most requests that were ever in flight at once. */
  readonly maxInFlight: number;
  /** Sets (or replaces) the handler of a path; unknown paths answer 404. */
  route(path: string, handler: Handler | Reply): void;
  close(): Promise<void>;
}

export async function startReplayServer(routes: Record<string, Handler | Reply> = {}): Promise<ReplayServer> {
  const table = new Map<string, Handler>();
  const route = (path: string, h: Handler | Reply) => table.set(path, typeof h === 'function' ? h : () => h);
  for (const [path, h] of Object.entries(routes)) route(path, h);
  const requests: ReplayRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request = { path: url.pathname, query: url.searchParams };
    requests.push(request);
    const handler = table.get(url.pathname);
    const reply: Reply = handler ? handler(request) : status(404);
    if ('hang' in reply) return; // closed by close() below
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const send = () => {
      inFlight -= 1;
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    route,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections(); // including the hanging ones
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
