/**
 * Copy-paste examples for sending events to POST /api/sdk/events: a valid batch built from the
 * ingest schemas (src/ingest/schemas.ts: envelope with event_id 8–40 chars, ts ISO 8601 UTC,
 * platform, game_id, player_id, session_id, type, payload), as curl and as a Roblox server script.
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

/** A Luau string literal. */
function luaString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A Roblox server script (ServerScriptService) sending session_start and level events with HttpService. */
export function luauSnippet(origin: string, key: string | null): string {
  return `-- ServerScriptService/SvcAnalytics: a ModuleScript, required once from a server Script
-- (require(game.ServerScriptService.SvcAnalytics)). Server side only: the key must never reach clients.
-- Enable Game Settings > Security > Allow HTTP Requests.
local HttpService = game:GetService("HttpService")
local Players = game:GetService("Players")

local INGEST_URL = ${luaString(`${origin}/api/sdk/events`)}
local API_KEY = ${luaString(key ?? KEY_PLACEHOLDER)} -- scope sdk:ingest; better kept in a secret store

local sessions = {}

local function send(events)
  local ok, response = pcall(HttpService.RequestAsync, HttpService, {
    Url = INGEST_URL,
    Method = "POST",
    Headers = { ["Content-Type"] = "application/json", ["X-Svc-SDK-Version"] = "luau-example/1.0" },
    Body = HttpService:JSONEncode({ api_key = API_KEY, events = events }),
  })
  if not ok or not response.Success then
    warn("svc ingest failed:", ok and response.StatusCode or response)
  end
end

local function event(player, eventType, payload)
  return {
    event_id = HttpService:GenerateGUID(false), -- 36 characters: the idempotency key
    ts = DateTime.now():ToIsoDate(), -- ISO 8601 UTC
    platform = "platform_1",
    game_id = tostring(game.GameId),
    player_id = "p_" .. tostring(player.UserId), -- an opaque id: never a name or e-mail
    session_id = sessions[player],
    type = eventType,
    payload = payload,
  }
end

Players.PlayerAdded:Connect(function(player)
  sessions[player] = HttpService:GenerateGUID(false)
  send({ event(player, "session_start", { device = "unknown", membership = player.MembershipType.Name }) })
end)

Players.PlayerRemoving:Connect(function(player)
  sessions[player] = nil
end)

local SvcAnalytics = {}

-- Call from your game code, e.g. when a round ends.
function SvcAnalytics.levelFinished(player, level, score, won)
  send({ event(player, "level", { level = level, score = score, result = won and "win" or "loss" }) })
end

return SvcAnalytics
`;
}
