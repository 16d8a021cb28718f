--[[
Svc: the svc analytics SDK for Roblox servers (a ModuleScript; server side only, the ingest key
must never reach a client). It batches typed events (sdk/roblox/README.md) to
POST <base_url>/api/sdk/events through HttpService:RequestAsync.

    local Svc = require(game.ServerScriptService.Svc)
    Svc.start({ api_key = "...", game_id = tostring(game.GameId), base_url = "https://svc.example",
                salt = "a long random per-game secret" })
    Svc.track("level", { level = 3, result = "win" }, player)

Written in the subset of Lua 5.1 that Luau accepts (no goto, no //, bit32 only through the shim
below) so the tests run it under a plain lua5.1 with stand-in services (sdk/roblox/tests).

Player ids: never the UserId. player_id is hex(HMAC-SHA256(salt, tostring(UserId))); the salt is
per game and secret (UserIds are few enough to enumerate, so an unsalted hash would be reversible).
]]

local Svc = {}
Svc.VERSION = "1.0.0"
Svc.SDK_HEADER = "svc-roblox/" .. Svc.VERSION

local floor = math.floor

-- ---------------------------------------------------------------------------------------------
-- 32-bit operations: Luau's bit32, or an arithmetic shim for Lua 5.1 (nibble tables).
-- ---------------------------------------------------------------------------------------------

local TWO32 = 4294967296

local function makeShim()
	local AND, XOR = {}, {}
	for a = 0, 15 do
		AND[a], XOR[a] = {}, {}
		for b = 0, 15 do
			local r_and, r_xor, bitv = 0, 0, 1
			local x, y = a, b
			for _ = 1, 4 do
				local xa, yb = x % 2, y % 2
				if xa == 1 and yb == 1 then
					r_and = r_and + bitv
				end
				if xa ~= yb then
					r_xor = r_xor + bitv
				end
				x, y, bitv = (x - xa) / 2, (y - yb) / 2, bitv * 2
			end
			AND[a][b], XOR[a][b] = r_and, r_xor
		end
	end
	local function op(tbl, a, b)
		a, b = a % TWO32, b % TWO32
		local r, m = 0, 1
		for _ = 1, 8 do
			local na, nb = a % 16, b % 16
			r = r + tbl[na][nb] * m
			a, b, m = (a - na) / 16, (b - nb) / 16, m * 16
		end
		return r
	end
	local shim = {}
	function shim.band(a, b, c)
		local r = op(AND, a, b)
		if c then
			r = op(AND, r, c)
		end
		return r
	end
	function shim.bxor(a, b, c)
		local r = op(XOR, a, b)
		if c then
			r = op(XOR, r, c)
		end
		return r
	end
	function shim.bnot(a)
		return TWO32 - 1 - a % TWO32
	end
	function shim.rshift(a, n)
		return floor((a % TWO32) / 2 ^ n)
	end
	function shim.lshift(a, n)
		return (a * 2 ^ n) % TWO32
	end
	function shim.rrotate(a, n)
		a = a % TWO32
		local low = a % 2 ^ n
		return (a - low) / 2 ^ n + low * 2 ^ (32 - n)
	end
	return shim
end

local bit = bit32 or makeShim() -- luacheck: ignore (bit32 is a Luau global)
Svc._bitShim = makeShim -- the tests compare the shim with reference values

-- ---------------------------------------------------------------------------------------------
-- SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104), pure functions over Lua strings.
-- ---------------------------------------------------------------------------------------------

local K = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

local function bigEndian32(n)
	local b = {}
	for i = 4, 1, -1 do
		b[i] = string.char(n % 256)
		n = floor(n / 256)
	end
	return table.concat(b)
end

--- The SHA-256 digest of `msg` as 32 raw bytes.
function Svc.sha256(msg)
	local band, bxor, bnot, rrot, rsh = bit.band, bit.bxor, bit.bnot, bit.rrotate, bit.rshift
	local len = #msg
	local bitLen = len * 8
	local padded = msg .. "\128" .. string.rep("\0", (55 - len) % 64)
	padded = padded .. bigEndian32(floor(bitLen / TWO32)) .. bigEndian32(bitLen % TWO32)
	local h0, h1, h2, h3 = 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a
	local h4, h5, h6, h7 = 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	local w = {}
	for chunk = 1, #padded, 64 do
		for i = 0, 15 do
			local b1, b2, b3, b4 = string.byte(padded, chunk + i * 4, chunk + i * 4 + 3)
			w[i] = ((b1 * 256 + b2) * 256 + b3) * 256 + b4
		end
		for i = 16, 63 do
			local v15, v2 = w[i - 15], w[i - 2]
			local s0 = bxor(rrot(v15, 7), rrot(v15, 18), rsh(v15, 3))
			local s1 = bxor(rrot(v2, 17), rrot(v2, 19), rsh(v2, 10))
			w[i] = (w[i - 16] + s0 + w[i - 7] + s1) % TWO32
		end
		local a, b, c, d, e, f, g, h = h0, h1, h2, h3, h4, h5, h6, h7
		for i = 0, 63 do
			local S1 = bxor(rrot(e, 6), rrot(e, 11), rrot(e, 25))
			local ch = bxor(band(e, f), band(bnot(e), g))
			local t1 = (h + S1 + ch + K[i + 1] + w[i]) % TWO32
			local S0 = bxor(rrot(a, 2), rrot(a, 13), rrot(a, 22))
			local maj = bxor(band(a, b), band(a, c), band(b, c))
			local t2 = (S0 + maj) % TWO32
			h, g, f, e, d, c, b, a = g, f, e, (d + t1) % TWO32, c, b, a, (t1 + t2) % TWO32
		end
		h0, h1, h2, h3 = (h0 + a) % TWO32, (h1 + b) % TWO32, (h2 + c) % TWO32, (h3 + d) % TWO32
		h4, h5, h6, h7 = (h4 + e) % TWO32, (h5 + f) % TWO32, (h6 + g) % TWO32, (h7 + h) % TWO32
	end
	local out = {}
	for i, v in ipairs({ h0, h1, h2, h3, h4, h5, h6, h7 }) do
		out[i] = bigEndian32(v)
	end
	return table.concat(out)
end

function Svc.toHex(raw)
	return (string.gsub(raw, ".", function(ch)
		return string.format("%02x", string.byte(ch))
	end))
end

local function xorString(s, byteValue)
	local out = {}
	for i = 1, #s do
		out[i] = string.char(bit.bxor(string.byte(s, i), byteValue))
	end
	return table.concat(out)
end

--- HMAC-SHA256(key, msg) as lower-case hex.
function Svc.hmacSha256Hex(key, msg)
	if #key > 64 then
		key = Svc.sha256(key)
	end
	key = key .. string.rep("\0", 64 - #key)
	local inner = Svc.sha256(xorString(key, 0x36) .. msg)
	return Svc.toHex(Svc.sha256(xorString(key, 0x5c) .. inner))
end

-- ---------------------------------------------------------------------------------------------
-- Small pure helpers.
-- ---------------------------------------------------------------------------------------------

Svc.EVENT_TYPES = {
	session_start = true, session_end = true, purchase = true, ad_impression = true, level = true,
	custom = true, performance = true, crash = true, error = true, brand_zone_enter = true,
	brand_zone_exit = true, equip = true, share = true, brand_survey_shown = true,
	brand_survey_response = true,
}

--- ISO 8601 UTC with milliseconds from epoch seconds (fractional allowed).
function Svc.isoUtc(epochSeconds)
	local whole = floor(epochSeconds)
	local ms = floor((epochSeconds - whole) * 1000 + 0.5)
	if ms >= 1000 then
		whole, ms = whole + 1, ms - 1000
	end
	local t = os.date("!*t", whole)
	return string.format("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.year, t.month, t.day, t.hour, t.min, t.sec, ms)
end

--- Seconds from a Retry-After value (delta-seconds only; an HTTP date or junk gives nil).
function Svc.parseRetryAfter(value)
	if value == nil then
		return nil
	end
	local n = tonumber((string.match(tostring(value), "^%s*(%d+%.?%d*)%s*$")))
	if n == nil or n < 0 then
		return nil
	end
	return n
end

local function headerValue(headers, name)
	if type(headers) ~= "table" then
		return nil
	end
	local want = string.lower(name)
	for k, v in pairs(headers) do
		if type(k) == "string" and string.lower(k) == want then
			return v
		end
	end
	return nil
end

local function escapePattern(s)
	return (string.gsub(s, "[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"))
end

local function truncate(s, n)
	if #s > n then
		return string.sub(s, 1, n)
	end
	return s
end

--- The delay before retry `attempt` (1-based): exponential with equal jitter, in
--- [exp/2, exp] where exp = min(cap, base * 2^(attempt-1)); with a Retry-After of `ra` seconds the
--- delay is in [ra, ra * 1.2] (at least what the server asked, spread so servers do not return in step).
function Svc.backoffDelay(attempt, retryAfter, rand, base, cap)
	if retryAfter ~= nil then
		return retryAfter + retryAfter * 0.2 * rand
	end
	local exp = base * 2 ^ (attempt - 1)
	if exp > cap then
		exp = cap
	end
	return exp / 2 + exp / 2 * rand
end

-- ---------------------------------------------------------------------------------------------
-- The client.
-- ---------------------------------------------------------------------------------------------

local Client = {}
Client.__index = Client

local DEFAULTS = {
	platform = "platform_1",
	batch_size = 500,
	flush_interval = 10,
	max_queue = 10000,
	requests_per_minute = 300,
	max_retries = 8,
	backoff_base = 1,
	backoff_cap = 60,
	close_timeout = 25,
	performance_delay = 60,
	errors_per_minute = 30,
	capture_errors = true,
	capture_warnings = false,
	session_end = true,
	gzip = true,
}

local function defaultServices()
	local services = {}
	for _, name in ipairs({
		"HttpService", "Players", "LogService", "MarketplaceService", "LocalizationService", "Workspace", "Stats",
	}) do
		local ok, service = pcall(function()
			return game:GetService(name) -- luacheck: ignore (Roblox global)
		end)
		if ok then
			services[name] = service
		end
	end
	services.game = game -- luacheck: ignore
	return services
end

local function defaultScheduler()
	assert(task ~= nil, "Svc: config.scheduler required outside Roblox") -- luacheck: ignore
	-- luacheck: ignore (Luau task library)
	return { spawn = task.spawn, defer = task.defer, delay = task.delay, wait = task.wait }
end

local function defaultTime()
	if DateTime then -- luacheck: ignore
		return DateTime.now().UnixTimestampMillis / 1000 -- luacheck: ignore
	end
	return os.time()
end

local function defaultCompression()
	local ok, value = pcall(function()
		return Enum.HttpCompression.Gzip -- luacheck: ignore
	end)
	if ok then
		return value
	end
	return nil
end

--- A client over `config` (see README.md for every field). Svc.start uses one; tests make several.
function Svc.new(config)
	assert(type(config) == "table", "Svc: config table required")
	assert(type(config.api_key) == "string" and config.api_key ~= "", "Svc: config.api_key required")
	assert(config.game_id ~= nil and tostring(config.game_id) ~= "", "Svc: config.game_id required")
	assert(type(config.base_url) == "string" and config.base_url ~= "", "Svc: config.base_url required")
	assert(type(config.salt) == "string" and #config.salt >= 16, "Svc: config.salt (16+ characters, secret) required")
	local self = setmetatable({}, Client)
	self.cfg = {}
	for k, v in pairs(DEFAULTS) do
		self.cfg[k] = v
	end
	for k, v in pairs(config) do
		self.cfg[k] = v
	end
	local cfg = self.cfg
	cfg.batch_size = math.max(1, math.min(500, floor(cfg.batch_size)))
	cfg.game_id = tostring(cfg.game_id)
	self.url = string.gsub(cfg.base_url, "/+$", "") .. "/api/sdk/events"
	self.services = cfg.services or defaultServices()
	self.http = self.services.HttpService
	assert(self.http, "Svc: HttpService unavailable")
	self.scheduler = cfg.scheduler or defaultScheduler()
	self.clock = cfg.clock or os.clock -- Luau's os.clock: a monotonic high-resolution timer
	self.time = cfg.time or defaultTime
	self.random = cfg.random or math.random
	self.log = cfg.log or function(msg)
		(warn or print)("[Svc] " .. msg) -- luacheck: ignore (warn is a Roblox global)
	end
	if cfg.gzip then
		self.compression = cfg.compression or defaultCompression()
	end
	-- A per-server id prefix: event ids are prefix-counter, unique per event, 8 to 40 characters.
	local guid = string.gsub(self.http:GenerateGUID(false), "[^%w]", "")
	self.idPrefix = string.lower(string.sub(guid, 1, 20))
	self.serverSession = "srv-" .. self.idPrefix
	self.counter = 0
	self.queue, self.head, self.tail = {}, 1, 0 -- a deque: queue[head..tail]
	self.pending = nil -- the batch being sent (kept with its ids across retries)
	self.attempt = 0
	self.busy = false
	self.flushRequested = false
	self.requestTimes = {} -- clock() of requests in the last minute (the budget)
	self.sessions = {} -- UserId -> session
	self.hashes = {} -- UserId -> hashed id
	self.names = {} -- UserId -> Name / DisplayName, to scrub from error text
	self.errorWindow = { start = -math.huge, count = 0 }
	self.connections = {}
	self.running = true
	self.counts = { sent = 0, dropped = 0, rejected = 0, deduped = 0, retries = 0, requests = 0, invalid = 0 }
	return self
end

-- Hashing and scrubbing ---------------------------------------------------------------------

--- A Player's UserId; a number or string is taken as the UserId itself.
local function userIdOf(player)
	if type(player) == "number" or type(player) == "string" then
		return player
	end
	return player.UserId
end

function Client:playerId(player)
	if player == nil then
		return "server"
	end
	local key = tostring(userIdOf(player))
	local h = self.hashes[key]
	if h == nil then
		h = Svc.hmacSha256Hex(self.cfg.salt, key)
		self.hashes[key] = h
	end
	return h
end

--- Replaces every known player's UserId (as a whole number) and names in `text` with <player>.
function Client:scrub(text)
	for userId, names in pairs(self.names) do
		text = string.gsub(text, "%f[%d%-]" .. escapePattern(userId) .. "%f[%D]", "<player>")
		for _, name in ipairs(names) do
			if #name >= 3 then
				text = string.gsub(text, escapePattern(name), "<player>")
			end
		end
	end
	return text
end

local function scrubValue(self, value, depth)
	if type(value) == "string" then
		return self:scrub(value)
	end
	if type(value) == "table" and depth < 8 then
		local out = {}
		for k, v in pairs(value) do
			out[k] = scrubValue(self, v, depth + 1)
		end
		return out
	end
	return value
end

-- Queue -----------------------------------------------------------------------------------------

function Client:queued()
	local n = self.tail - self.head + 1
	if self.pending then
		n = n + #self.pending
	end
	return n
end

function Client:_queueLength()
	return self.tail - self.head + 1
end

function Client:_push(event)
	if self:_queueLength() >= self.cfg.max_queue then
		self.queue[self.head] = nil -- the oldest goes
		self.head = self.head + 1
		self.counts.dropped = self.counts.dropped + 1
	end
	self.tail = self.tail + 1
	self.queue[self.tail] = event
end

function Client:_take(n)
	local batch = {}
	while #batch < n and self.head <= self.tail do
		batch[#batch + 1] = self.queue[self.head]
		self.queue[self.head] = nil
		self.head = self.head + 1
	end
	return batch
end

function Client:_pushFront(events)
	for i = #events, 1, -1 do
		self.head = self.head - 1
		self.queue[self.head] = events[i]
	end
end

function Client:nextEventId()
	self.counter = self.counter + 1
	return self.idPrefix .. "-" .. tostring(self.counter)
end

--- Queues one event; returns its event_id (nil when refused). `player` is a Player, a UserId, or
--- nil for a server event (player_id "server"). `options.event_id` fixes the id (idempotent
--- sources); `options.ts` the time (epoch seconds).
function Client:track(eventType, payload, player, options)
	if not self.running then
		return nil
	end
	if not Svc.EVENT_TYPES[eventType] then
		self.counts.invalid = self.counts.invalid + 1
		self.log("unknown event type " .. tostring(eventType) .. " (use custom with a name)")
		return nil
	end
	local event = {
		event_id = (options and options.event_id) or self:nextEventId(),
		ts = Svc.isoUtc((options and options.ts) or self.time()),
		platform = self.cfg.platform,
		game_id = self.cfg.game_id,
		player_id = self:playerId(player),
		type = eventType,
	}
	local session
	if player ~= nil then
		session = self.sessions[tostring(userIdOf(player))]
	end
	event.session_id = session and session.id or (player == nil and self.serverSession or nil)
	if type(payload) == "table" and next(payload) ~= nil then
		-- HttpService:JSONEncode writes an empty table as [], so an empty payload is left out.
		event.payload = scrubValue(self, payload, 0)
	end
	-- An event JSONEncode refuses (NaN, a function, mixed keys) would fail its whole batch forever.
	local encodable = pcall(function()
		return self.http:JSONEncode(event)
	end)
	if not encodable then
		self.counts.invalid = self.counts.invalid + 1
		self.log(eventType .. " event refused: its payload cannot be encoded as JSON")
		return nil
	end
	self:_push(event)
	if self:_queueLength() >= self.cfg.batch_size then
		self:_kick(false)
	end
	return event.event_id
end

-- Sending ---------------------------------------------------------------------------------------

--- Seconds to wait before the request budget allows another request (0: now).
function Client:_budgetWait()
	local now = self.clock()
	local times = self.requestTimes
	while #times > 0 and times[1] <= now - 60 do
		table.remove(times, 1)
	end
	if #times < self.cfg.requests_per_minute then
		return 0
	end
	return times[1] + 60 - now
end

--- One request with `batch`: "ok", "retry" (with a delay), "split" or "drop".
function Client:_send(batch)
	local encoded, body = pcall(function()
		return self.http:JSONEncode({ api_key = self.cfg.api_key, events = batch })
	end)
	if not encoded then
		self.log("batch of " .. #batch .. " dropped: " .. tostring(body))
		return "drop"
	end
	local request = {
		Url = self.url,
		Method = "POST",
		Headers = { ["Content-Type"] = "application/json", ["X-Svc-SDK-Version"] = Svc.SDK_HEADER },
		Body = body,
	}
	if self.compression ~= nil then
		request.Compress = self.compression
	end
	self.requestTimes[#self.requestTimes + 1] = self.clock()
	self.counts.requests = self.counts.requests + 1
	local ok, response = pcall(function()
		return self.http:RequestAsync(request)
	end)
	if not ok then
		self.lastError = tostring(response)
		return "retry", nil
	end
	local status = response.StatusCode
	if status == 200 or status == 202 then
		local decoded
		pcall(function()
			decoded = self.http:JSONDecode(response.Body)
		end)
		if type(decoded) == "table" then
			local rejected = tonumber(decoded.rejected) or 0
			self.counts.rejected = self.counts.rejected + rejected
			self.counts.deduped = self.counts.deduped + (tonumber(decoded.deduped) or 0)
			if rejected > 0 and type(decoded.errors) == "table" and decoded.errors[1] then
				local e = decoded.errors[1]
				self.log(string.format("%d event(s) rejected, e.g. %s: %s", rejected, tostring(e.field), tostring(e.code)))
			end
		end
		return "ok"
	end
	self.lastError = "HTTP " .. tostring(status)
	if status == 429 or status == 503 or status == 408 or status == 425 or (status >= 500 and status <= 599) then
		return "retry", Svc.parseRetryAfter(headerValue(response.Headers, "Retry-After"))
	end
	if status == 413 and #batch > 1 then
		return "split"
	end
	self.log("batch of " .. #batch .. " dropped: HTTP " .. tostring(status) .. " " .. tostring(response.Body))
	return "drop"
end

function Client:_sleep(seconds, deadline)
	if deadline ~= nil then
		local left = deadline - self.clock()
		if left <= 0 then
			return false
		end
		if seconds > left then
			seconds = left
		end
	end
	self.scheduler.wait(seconds)
	return true
end

--- Sends until nothing is due: full batches, or everything once a flush was asked for. Waits (the
--- scheduler's wait) for the budget and between retries; gives up at `deadline` (clock seconds).
function Client:_drain(deadline)
	self.busy = true
	while true do
		if deadline ~= nil and self.clock() >= deadline then
			break
		end
		if self.pending == nil then
			local n = self:_queueLength()
			if n == 0 or (n < self.cfg.batch_size and not self.flushRequested) then
				break
			end
			self.pending = self:_take(self.cfg.batch_size)
			self.attempt = 0
		end
		local budget = self:_budgetWait()
		if budget > 0 then
			if not self:_sleep(budget, deadline) then
				break
			end
		else
			local outcome, retryAfter = self:_send(self.pending)
			if outcome == "ok" then
				self.counts.sent = self.counts.sent + #self.pending
				self.pending = nil
			elseif outcome == "drop" then
				self.counts.dropped = self.counts.dropped + #self.pending
				self.pending = nil
			elseif outcome == "split" then
				local batch, half = self.pending, floor(#self.pending / 2)
				self.pending = nil
				self:_pushFront(batch)
				self.cfg.batch_size = math.max(1, half)
			else
				self.attempt = self.attempt + 1
				if self.attempt > self.cfg.max_retries then
					self.log("batch of " .. #self.pending .. " dropped after " .. self.cfg.max_retries .. " retries: " .. tostring(self.lastError))
					self.counts.dropped = self.counts.dropped + #self.pending
					self.pending = nil
				else
					self.counts.retries = self.counts.retries + 1
					local delay = Svc.backoffDelay(self.attempt, retryAfter, self.random(), self.cfg.backoff_base, self.cfg.backoff_cap)
					if not self:_sleep(delay, deadline) then
						break
					end
				end
			end
		end
	end
	if self:_queueLength() == 0 and self.pending == nil then
		self.flushRequested = false
	end
	self.busy = false
end

--- Starts a background drain unless one runs (`all`: send partial batches too).
function Client:_kick(all)
	if all then
		self.flushRequested = true
	end
	if self.busy then
		return
	end
	local run = self.scheduler.defer or self.scheduler.spawn
	run(function()
		if not self.busy then
			self:_drain(nil)
		end
	end)
end

--- Sends everything queued now, waiting up to `timeout` seconds (default close_timeout); true when
--- nothing is left. Yields (call it from a server thread, e.g. BindToClose).
function Client:flush(timeout)
	local deadline = self.clock() + (timeout or self.cfg.close_timeout)
	self.flushRequested = true
	while self.busy do
		if not self:_sleep(0.05, deadline) then
			return false
		end
	end
	self:_drain(deadline)
	return self:queued() == 0
end

function Client:stats()
	return {
		queued = self:queued(),
		sent = self.counts.sent,
		dropped = self.counts.dropped,
		rejected = self.counts.rejected,
		deduped = self.counts.deduped,
		retries = self.counts.retries,
		requests = self.counts.requests,
		invalid = self.counts.invalid,
	}
end

-- Sessions, purchases, performance, errors ----------------------------------------------------

function Client:_country(player)
	local loc = self.services.LocalizationService
	if loc == nil then
		return nil
	end
	local ok, code = pcall(function()
		return loc:GetCountryRegionForPlayerAsync(player)
	end)
	if ok and type(code) == "string" and string.match(code, "^%a%a$") then
		return string.upper(code)
	end
	return nil
end

function Client:startSession(player)
	local key = tostring(player.UserId)
	if self.sessions[key] then
		return self.sessions[key].id
	end
	local names = {}
	for _, n in ipairs({ player.Name, player.DisplayName }) do
		if type(n) == "string" then
			names[#names + 1] = n
		end
	end
	self.names[key] = names
	local session = { id = "s-" .. string.lower((string.gsub(self.http:GenerateGUID(false), "[^%w]", ""))), start = self.clock() }
	local startedAt = self.time()
	self.sessions[key] = session
	local payload = {}
	local ok, membership = pcall(function()
		return player.MembershipType.Name
	end)
	if ok and type(membership) == "string" then
		payload.membership = membership
	end
	session.country = self:_country(player) -- may yield on Roblox
	payload.country = session.country
	-- Stamped with the join time: the lookup above may yield, and the player may even have left.
	self:track("session_start", payload, player, { ts = startedAt })
	self:_schedulePerformance(player, session)
	return session.id
end

function Client:endSession(player, reason)
	local key = tostring(player.UserId)
	local session = self.sessions[key]
	if session == nil then
		return
	end
	if self.cfg.session_end then
		local duration = self.clock() - session.start
		if duration < 0 then
			duration = 0
		end
		self:track("session_end", {
			duration_s = floor(duration * 1000 + 0.5) / 1000,
			reason = reason or "left",
			country = session.country,
		}, player)
	end
	self.sessions[key] = nil
end

function Client:_schedulePerformance(player, session)
	if self.cfg.performance_delay == false then
		return
	end
	self.scheduler.delay(self.cfg.performance_delay, function()
		if self.sessions[tostring(player.UserId)] ~= session or session.performanceSent then
			return
		end
		self:trackPerformance(player, nil)
	end)
end

--- The default sample: the server's physics rate and memory (a server cannot see a client's frame
--- rate; pass a client's own sample through trackPerformance to report that instead).
function Client:_samplePerformance()
	if self.cfg.performance_sampler then
		return self.cfg.performance_sampler()
	end
	local sample = { device = "server" }
	local ws, stats = self.services.Workspace, self.services.Stats
	pcall(function()
		sample.fps_avg = ws:GetRealPhysicsFPS()
	end)
	pcall(function()
		sample.memory_mb = stats:GetTotalMemoryUsageMb()
	end)
	return sample
end

--- One performance event per session: the given sample, or the server's.
function Client:trackPerformance(player, sample)
	local session = player and self.sessions[tostring(player.UserId)]
	if session then
		if session.performanceSent then
			return nil
		end
		session.performanceSent = true
	end
	sample = sample or self:_samplePerformance()
	if type(sample) ~= "table" or type(sample.fps_avg) ~= "number" then
		return nil
	end
	local copy = {}
	for k, v in pairs(sample) do
		copy[k] = v
	end
	copy.fps_avg = math.max(0, math.min(1000, sample.fps_avg))
	sample = copy
	return self:track("performance", sample, player)
end

--- A purchase; `info` = {sku, price, currency?, source?, quantity?, name?, receipt_id?}.
function Client:trackPurchase(player, info)
	local payload = {
		sku = tostring(info.sku),
		price = info.price or 0,
		currency = info.currency or "ROBUX",
		source = info.source or "devproduct",
		quantity = info.quantity or 1,
		name = info.name,
	}
	local session = player and self.sessions[tostring(userIdOf(player))]
	payload.country = session and session.country or nil
	local options
	if info.receipt_id ~= nil then
		-- The same receipt always gets the same id, so ProcessReceipt calling again is deduped.
		options = { event_id = "rcpt-" .. string.sub(Svc.toHex(Svc.sha256(tostring(info.receipt_id))), 1, 32) }
	end
	return self:track("purchase", payload, player, options)
end

--- Wraps a ProcessReceipt handler: a receipt the handler grants becomes a purchase event.
--- MarketplaceService.ProcessReceipt = Svc.wrapProcessReceipt(myHandler)
function Client:wrapProcessReceipt(handler)
	return function(receiptInfo)
		local decision = handler(receiptInfo)
		local granted = "PurchaseGranted"
		pcall(function()
			granted = Enum.ProductPurchaseDecision.PurchaseGranted -- luacheck: ignore
		end)
		if decision == granted then
			local players = self.services.Players
			local player
			pcall(function()
				player = players:GetPlayerByUserId(receiptInfo.PlayerId)
			end)
			self:trackPurchase(player or receiptInfo.PlayerId, {
				sku = receiptInfo.ProductId,
				price = receiptInfo.CurrencySpent or 0,
				currency = "ROBUX",
				source = "devproduct",
				receipt_id = receiptInfo.PurchaseId,
			})
		end
		return decision
	end
end

function Client:_gamePassPrice(gamePassId)
	local prices = self.cfg.gamepass_prices
	if prices and prices[gamePassId] then
		return prices[gamePassId]
	end
	self.passPrices = self.passPrices or {}
	if self.passPrices[gamePassId] == nil then
		local price = 0
		local infoType = "GamePass"
		pcall(function()
			infoType = Enum.InfoType.GamePass -- luacheck: ignore
		end)
		pcall(function()
			local info = self.services.MarketplaceService:GetProductInfo(gamePassId, infoType)
			price = tonumber(info.PriceInRobux) or 0
		end)
		self.passPrices[gamePassId] = price
	end
	return self.passPrices[gamePassId]
end

function Client:_onMessage(message, messageType)
	local kind = tostring(messageType)
	local severity
	if string.find(kind, "MessageError", 1, true) then
		severity = "error"
	elseif self.cfg.capture_warnings and string.find(kind, "MessageWarning", 1, true) then
		severity = "warn"
	end
	if severity == nil or type(message) ~= "string" or message == "" then
		return
	end
	if string.find(message, "[Svc]", 1, true) then
		return -- our own warnings: never a loop
	end
	local now = self.clock()
	local window = self.errorWindow
	if now - window.start >= 60 then
		window.start, window.count = now, 0
	end
	if window.count >= self.cfg.errors_per_minute then
		return
	end
	window.count = window.count + 1
	self:track("error", { severity = severity, message = truncate(message, 2000), source = "LogService" }, nil)
end

local function connect(self, signal, fn)
	if signal ~= nil then
		self.connections[#self.connections + 1] = signal:Connect(fn)
	end
end

--- Connects the automatic events and the flush timer.
function Client:attach()
	local s = self.services
	local players = s.Players
	if players then
		connect(self, players.PlayerAdded, function(player)
			self:startSession(player)
		end)
		connect(self, players.PlayerRemoving, function(player)
			self:endSession(player, "left")
		end)
		local ok, present = pcall(function()
			return players:GetPlayers()
		end)
		if ok and type(present) == "table" then
			for _, player in ipairs(present) do
				self.scheduler.spawn(function()
					self:startSession(player)
				end)
			end
		end
	end
	if s.MarketplaceService then
		connect(self, s.MarketplaceService.PromptGamePassPurchaseFinished, function(player, gamePassId, purchased)
			if purchased then
				self:trackPurchase(player, { sku = gamePassId, price = self:_gamePassPrice(gamePassId), source = "gamepass" })
			end
		end)
	end
	if s.LogService and self.cfg.capture_errors then
		connect(self, s.LogService.MessageOut, function(message, messageType)
			self:_onMessage(message, messageType)
		end)
	end
	if s.game and s.game.BindToClose then
		s.game:BindToClose(function()
			self:close()
		end)
	end
	local function tick()
		if not self.running then
			return
		end
		if self:queued() > 0 then
			self:_kick(true)
		end
		self.scheduler.delay(self.cfg.flush_interval, tick)
	end
	self.scheduler.delay(self.cfg.flush_interval, tick)
	return self
end

--- Shutdown: ends every open session, then sends what is queued within close_timeout.
function Client:close()
	for key, _ in pairs(self.sessions) do
		self:endSession({ UserId = key }, "shutdown")
	end
	local done = self:flush(self.cfg.close_timeout)
	self.running = false
	for _, c in ipairs(self.connections) do
		pcall(function()
			c:Disconnect()
		end)
	end
	return done
end

-- ---------------------------------------------------------------------------------------------
-- The module-level API over one client.
-- ---------------------------------------------------------------------------------------------

local default

function Svc.start(config)
	if default ~= nil then
		return default
	end
	default = Svc.new(config):attach()
	return default
end

local function client()
	assert(default ~= nil, "Svc: call Svc.start(config) first")
	return default
end

function Svc.track(eventType, payload, player)
	return client():track(eventType, payload, player)
end

function Svc.trackPurchase(player, info)
	return client():trackPurchase(player, info)
end

function Svc.trackPerformance(player, sample)
	return client():trackPerformance(player, sample)
end

function Svc.wrapProcessReceipt(handler)
	return client():wrapProcessReceipt(handler)
end

function Svc.playerId(player)
	return client():playerId(player)
end

function Svc.flush(timeout)
	return client():flush(timeout)
end

function Svc.stats()
	return client():stats()
end

return Svc
