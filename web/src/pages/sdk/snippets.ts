/**
 * Copy-paste examples for sending events to POST /api/sdk/events: a valid batch built from the
 * ingest schemas (src/ingest/schemas.ts: envelope with event_id 8–40 chars, ts ISO 8601 UTC,
 * platform, game_id, player_id, session_id, type, payload) as curl; and the quick starts of the two
 * SDKs in sdk/: the Svc Luau module for a Roblox server Script and @svc/sdk for TypeScript.
 * Pure: tested in snippets.test.ts.
 */

export const KEY_PLACEHOLDER = 'YOUR_INGEST_KEY';
export const GAME_PLACEHOLDER = '1234567890';

export interface ExampleEvent {
  event_id: string;
  ts: string;
  platform: 'platform_1';
  game_id: string;
  player_id: string;
  session_id: string;
  type: 'session_start' | 'level';
  payload: Record<string, string | number>;
}

/** A session_start and a level event of one player, ids from `tag` (8+ characters), at `now`. */
export function exampleEvents(gameId: string, now: Date, tag: string): ExampleEvent[] {
  const ts = now.toISOString();
  const later = new Date(now.getTime() + 95_000).toISOString();
  const common = {
    platform: 'platform_1' as const,
    game_id: gameId || GAME_PLACEHOLDER,
    player_id: 'p_8f14e45fceea167a',
    session_id: `sess-${tag}`,
  };
  return [
    {
      event_id: `ex-${tag}-1`,
      ts,
      ...common,
      type: 'session_start',
      payload: { device: 'iPhone 15', os: 'iOS 17.5', country: 'US' },
    },
    {
      event_id: `ex-${tag}-2`,
      ts: later,
      ...common,
      type: 'level',
      payload: { level: 1, score: 1200, result: 'win' },
    },
  ];
}

/** A shell-safe single-quoted string. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlSnippet(origin: string, key: string | null, events: ExampleEvent[]): string {
  const body = JSON.stringify({ api_key: key ?? KEY_PLACEHOLDER, events }, null, 2);
  return [
    `curl -sS -X POST ${shellQuote(`${origin}/api/sdk/events`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'X-Svc-SDK-Version: curl-example/1.0' \\`,
    `  --data-binary ${shellQuote(body)}`,
  ].join('\n');
}

/** A Luau string literal: backslash, quote and control characters escaped (\ddd is decimal). */
export function luaString(s: string): string {
  let escaped = '';
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (c === '\\' || c === '"') escaped += `\\${c}`;
    else if (c === '\n') escaped += '\\n';
    else if (c === '\r') escaped += '\\r';
    else if (c === '\t') escaped += '\\t';
    else if (code < 0x20 || code === 0x7f) escaped += `\\${code.toString().padStart(3, '0')}`;
    else escaped += c;
  }
  return `"${escaped}"`;
}

/** Where the web app serves sdk/roblox/Svc.lua (emitted by web/vite.config.ts). */
export const SVC_LUA_PATH = '/downloads/Svc.lua';
/** Shorter than the 16 characters Svc.start asks for, so a snippet left as it is fails loudly. */
export const SALT_PLACEHOLDER = 'REPLACE_ME';

/** The Svc module's quick start (sdk/roblox/README.md) for a server Script, key and origin filled in. */
export function luauSnippet(origin: string, key: string | null): string {
  return `-- 1. Download Svc.lua (${origin}${SVC_LUA_PATH}) and put it in ServerScriptService
--    as a ModuleScript named Svc.
-- 2. Enable Game Settings > Security > Allow HTTP Requests.
-- 3. Paste this into a Script in ServerScriptService (server side only: the key must never reach clients).
local Svc = require(game.ServerScriptService.Svc)

Svc.start({
  api_key = ${luaString(key ?? KEY_PLACEHOLDER)}, -- scope sdk:ingest
  game_id = tostring(game.GameId),
  base_url = ${luaString(origin)},
  -- Replace with your own secret: 16+ random characters, kept private and never changed
  -- (player ids are an HMAC of the UserId with it).
  salt = ${luaString(SALT_PLACEHOLDER)},
})

-- Sessions, purchases (Svc.wrapProcessReceipt), performance and errors are sent on their own.
-- Anything else with Svc.track, e.g. when a player finishes a level:
local function levelFinished(player, level, score, won)
  Svc.track("level", { level = level, score = score, result = won and "win" or "loss" }, player)
end
`;
}

/** The @svc/sdk quick start (sdk/js/README.md), key, origin and game filled in as JSON strings. */
export function typescriptSnippet(origin: string, key: string | null, gameId: string): string {
  return `// npm install ./svc-sdk-0.1.0.tgz (cd sdk/js && npm pack, in the svc repository)
import { SvcClient } from "@svc/sdk";

// The key sends events for your team: keep it on your game server.
const svc = new SvcClient({
  apiKey: ${JSON.stringify(key ?? KEY_PLACEHOLDER)},
  gameId: ${JSON.stringify(gameId || GAME_PLACEHOLDER)},
  platform: "platform_1",
  baseUrl: ${JSON.stringify(origin)},
});

// playerId: an opaque (hashed) id, never a name or e-mail.
svc.track("level", { level: 3, score: 1200, result: "win" }, { playerId: "p_8f14e45fceea167a", sessionId: "s-1" });

await svc.close(); // flushes what is queued; call it when the server shuts down
`;
}
