-- Stand-ins for the Roblox services the SDK uses, a virtual clock and a coroutine scheduler
-- modelled on the task library (spawn runs at once, defer and delay later, wait yields).
local json = dofile(DIR .. "json.lua")

local F = {}

-- Signals --------------------------------------------------------------------------------------
local Signal = {}
Signal.__index = Signal
function F.signal()
	return setmetatable({ handlers = {} }, Signal)
end
function Signal:Connect(fn)
	local handlers = self.handlers
	handlers[#handlers + 1] = fn
	return {
		Disconnect = function()
			for i, h in ipairs(handlers) do
				if h == fn then
					table.remove(handlers, i)
					return
				end
			end
		end,
	}
end

-- Scheduler ------------------------------------------------------------------------------------
local Sched = {}
Sched.__index = Sched

function F.scheduler()
	local s = setmetatable({ now = 0, seq = 0, timers = {} }, Sched)
	s.clock = function()
		return s.now
	end
	-- The table the SDK gets as config.scheduler.
	s.api = {
		spawn = function(fn, ...)
			s:_resume(coroutine.create(fn), ...)
		end,
		defer = function(fn, ...)
			s:_at(s.now, coroutine.create(fn), { ... })
		end,
		delay = function(sec, fn, ...)
			s:_at(s.now + sec, coroutine.create(fn), { ... })
		end,
		wait = function(sec)
			local co = coroutine.running()
			assert(co, "wait outside a coroutine")
			s:_at(s.now + (sec or 0), co, {})
			coroutine.yield()
			return sec
		end,
	}
	return s
end

function Sched:_at(at, co, args)
	self.seq = self.seq + 1
	self.timers[#self.timers + 1] = { at = at, seq = self.seq, co = co, args = args }
end

function Sched:_resume(co, ...)
	local ok, err = coroutine.resume(co, ...)
	if not ok then
		error("scheduled thread failed: " .. tostring(err), 0)
	end
end

--- The earliest timer due at or before `limit`, removed from the list.
function Sched:_next(limit)
	local best, index
	for i, t in ipairs(self.timers) do
		if t.at <= limit and (best == nil or t.at < best.at or (t.at == best.at and t.seq < best.seq)) then
			best, index = t, i
		end
	end
	if index then
		table.remove(self.timers, index)
	end
	return best
end

--- Moves virtual time forward by `dt` seconds, running every thread due on the way.
function Sched:advance(dt)
	local target = self.now + (dt or 0)
	while true do
		local t = self:_next(target)
		if t == nil then
			break
		end
		if t.at > self.now then
			self.now = t.at
		end
		self:_resume(t.co, unpack(t.args))
	end
	self.now = target
end

--- Runs a function as a thread (like a Roblox event handler) and the scheduler until it ends or
--- `limit` seconds pass; returns whether it finished and what it returned.
function Sched:runThread(fn, limit)
	local result = { done = false }
	self.api.spawn(function()
		result.value = fn()
		result.done = true
	end)
	local stop = self.now + (limit or 60)
	while not result.done and self.now < stop do
		local t = self:_next(stop)
		if t == nil then
			self.now = stop
			break
		end
		if t.at > self.now then
			self.now = t.at
		end
		self:_resume(t.co, unpack(t.args))
	end
	return result.done, result.value
end

-- HttpService ------------------------------------------------------------------------------------
--- `responder(request, body)` answers each request: a response table, or a string to raise (a
--- network failure). Every request is recorded with its decoded body and the virtual time.
function F.http(sched, responder)
	local h = { requests = {}, guid = 0 }
	h.responder = responder or function()
		return F.accepted()
	end
	function h:GenerateGUID(braces)
		self.guid = self.guid + 1
		local hex = string.format("%08x", self.guid * 2654435761 % 4294967296) .. "abcdef0123456789abcdef01"
		return string.sub(hex, 1, 8) .. "-" .. string.sub(hex, 9, 12) .. "-" .. string.sub(hex, 13, 16) .. "-"
			.. string.sub(hex, 17, 20) .. "-" .. string.sub(hex, 21, 32)
	end
	function h:JSONEncode(v)
		return json.encode(v)
	end
	function h:JSONDecode(s)
		return json.decode(s)
	end
	function h:RequestAsync(request)
		local body = json.decode(request.Body)
		local entry = { request = request, body = body, at = sched and sched.now or 0, ids = {} }
		for i, e in ipairs(body.events) do
			entry.ids[i] = e.event_id
		end
		self.requests[#self.requests + 1] = entry
		local response = self.responder(request, body, #self.requests)
		entry.response = response
		if type(response) == "string" then
			error(response, 0)
		end
		return response
	end
	return h
end

function F.accepted(n)
	return { Success = true, StatusCode = 200, Headers = { ["content-type"] = "application/json" },
		Body = json.encode({ accepted = n or 1, rejected = 0, deduped = 0, errors = {} }) }
end

function F.status(code, headers, body)
	return { Success = false, StatusCode = code, Headers = headers or {}, Body = body or '{"detail":"x"}' }
end

-- Players, other services ---------------------------------------------------------------------------
function F.player(userId, name)
	return { UserId = userId, Name = name or ("Player" .. userId), DisplayName = (name or "Player") .. "_dn",
		MembershipType = { Name = "Premium" } }
end

function F.services(sched, responder)
	local s = {}
	s.HttpService = F.http(sched, responder)
	local present = {}
	s.Players = { PlayerAdded = F.signal(), PlayerRemoving = F.signal(), present = present }
	function s.Players:GetPlayers()
		local out = {}
		for _, p in pairs(present) do
			out[#out + 1] = p
		end
		return out
	end
	function s.Players:GetPlayerByUserId(id)
		return present[id]
	end
	--- A player joins / leaves: the signal's handlers run as threads, as Roblox runs them.
	function s.Players.join(player)
		present[player.UserId] = player
		for _, h in ipairs(s.Players.PlayerAdded.handlers) do
			sched.api.spawn(h, player)
		end
	end
	function s.Players.leave(player)
		for _, h in ipairs(s.Players.PlayerRemoving.handlers) do
			sched.api.spawn(h, player)
		end
		present[player.UserId] = nil
	end
	s.LogService = { MessageOut = F.signal() }
	function s.LogService.emit(message, kind)
		for _, h in ipairs(s.LogService.MessageOut.handlers) do
			sched.api.spawn(h, message, kind or "Enum.MessageType.MessageError")
		end
	end
	s.MarketplaceService = { PromptGamePassPurchaseFinished = F.signal(), infoCalls = 0 }
	function s.MarketplaceService:GetProductInfo(id)
		self.infoCalls = self.infoCalls + 1
		return { PriceInRobux = 199, Name = "Pass " .. id }
	end
	s.countries = {}
	s.LocalizationService = {}
	function s.LocalizationService:GetCountryRegionForPlayerAsync(player)
		local c = s.countries[player.UserId]
		if c == nil then
			error("HTTP 500 (Internal Server Error)")
		end
		return c
	end
	s.Workspace = {}
	function s.Workspace:GetRealPhysicsFPS()
		return 59.5
	end
	s.Stats = {}
	function s.Stats:GetTotalMemoryUsageMb()
		return 812.25
	end
	s.game = {}
	function s.game:BindToClose(fn)
		s.closeHandlers = s.closeHandlers or {}
		s.closeHandlers[#s.closeHandlers + 1] = fn
	end
	return s
end

F.SALT = "test-salt-0123456789abcdef"

--- A started client over stand-ins; `opts` overrides config fields (and `responder`).
function F.client(Svc, opts)
	opts = opts or {}
	local sched = F.scheduler()
	local services = F.services(sched, opts.responder)
	local logs = {}
	local config = {
		api_key = "svc_test_key",
		game_id = "4242",
		base_url = "http://svc.test/",
		salt = F.SALT,
		services = services,
		scheduler = sched.api,
		clock = sched.clock,
		time = function()
			return 1790000000 + sched.now
		end,
		random = opts.random or function()
			return 0.5
		end,
		log = function(m)
			logs[#logs + 1] = m
		end,
	}
	for k, v in pairs(opts) do
		if k ~= "responder" then
			config[k] = v
		end
	end
	local client = Svc.new(config)
	if opts.attach ~= false then
		client:attach()
	end
	return client, sched, services, logs
end

--- Every event of every request, in order (`delivered`: only of requests answered 200 or 202).
function F.allEvents(http, delivered)
	local out = {}
	for _, r in ipairs(http.requests) do
		local status = type(r.response) == "table" and r.response.StatusCode
		if not delivered or status == 200 or status == 202 then
			for _, e in ipairs(r.body.events) do
				out[#out + 1] = e
			end
		end
	end
	return out
end

return F
