DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq, ok = H.test, H.eq, H.ok

local function sent(s, eventType)
	local out = {}
	for _, e in ipairs(F.allEvents(s.HttpService, true)) do
		if eventType == nil or e.type == eventType then
			out[#out + 1] = e
		end
	end
	return out
end

test("PlayerAdded sends session_start with country and membership; PlayerRemoving session_end with its duration", function()
	local c, sched, s = F.client(Svc, { performance_delay = false })
	local p = F.player(987654321, "Builderman")
	s.countries[p.UserId] = "us"
	s.Players.join(p)
	sched:advance(95.25)
	s.Players.leave(p)
	c:flush(5)
	local starts, ends = sent(s, "session_start"), sent(s, "session_end")
	eq(#starts, 1)
	eq(#ends, 1)
	eq(starts[1].payload, { country = "US", membership = "Premium" })
	eq(ends[1].payload, { duration_s = 95.25, reason = "left", country = "US" })
	eq(starts[1].player_id, Svc.hmacSha256Hex(F.SALT, "987654321"))
	eq(ends[1].player_id, starts[1].player_id)
	ok(#starts[1].session_id > 8 and #starts[1].session_id <= 64, starts[1].session_id)
	eq(ends[1].session_id, starts[1].session_id)
end)

test("session_start carries the join time even when the player left during the country lookup", function()
	local c, sched, s = F.client(Svc)
	local p = F.player(6600001)
	-- On Roblox the lookup yields; lua5.1 cannot yield across pcall, so the stand-in lets a second
	-- pass and the player leave from inside the call.
	s.LocalizationService.GetCountryRegionForPlayerAsync = function()
		sched.now = sched.now + 1
		s.Players.leave(p)
		return "FR"
	end
	s.Players.join(p)
	sched:advance(70)
	c:flush(5)
	local start, finish = sent(s, "session_start")[1], sent(s, "session_end")[1]
	eq(start.ts, Svc.isoUtc(1790000000))
	eq(finish.ts, Svc.isoUtc(1790000001))
	eq(finish.payload.duration_s, 1)
	eq(#sent(s, "performance"), 0)
end)

test("a failing country lookup leaves country out; session_end can be turned off", function()
	local c, sched, s = F.client(Svc, { session_end = false, performance_delay = false })
	local p = F.player(5550001)
	s.Players.join(p)
	sched:advance(3)
	s.Players.leave(p)
	c:flush(5)
	eq(#sent(s), 1)
	eq(sent(s, "session_start")[1].payload, { membership = "Premium" })
end)

test("players already in the server when Svc starts get their session", function()
	local sched = F.scheduler()
	local services = F.services(sched)
	services.Players.present[42424242] = F.player(42424242)
	local c = Svc.new({ api_key = "k", game_id = "1", base_url = "http://x", salt = F.SALT, services = services,
		scheduler = sched.api, clock = sched.clock, performance_delay = false })
	c:attach()
	c:flush(5)
	eq(#sent(services, "session_start"), 1)
end)

test("one performance sample per session, after performance_delay, only while the player stays", function()
	local c, sched, s = F.client(Svc)
	local stay, go = F.player(7000001), F.player(7000002)
	s.Players.join(stay)
	s.Players.join(go)
	sched:advance(30)
	s.Players.leave(go)
	sched:advance(30)
	eq(c:trackPerformance(stay, { fps_avg = 30 }), nil, "a second sample is refused")
	c:flush(5)
	local perf = sent(s, "performance")
	eq(#perf, 1)
	eq(perf[1].payload, { fps_avg = 59.5, memory_mb = 812.25, device = "server" })
	eq(perf[1].player_id, c:playerId(stay))
	eq(perf[1].ts, Svc.isoUtc(1790000000 + 60))
end)

test("a client's own sample can be sent instead (clamped to the schema's range)", function()
	local c, sched, s = F.client(Svc)
	local p = F.player(7000003)
	s.Players.join(p)
	c:trackPerformance(p, { fps_avg = 2400, fps_p5 = 41, device = "phone" })
	sched:advance(61)
	c:flush(5)
	local perf = sent(s, "performance")
	eq(#perf, 1)
	eq(perf[1].payload, { fps_avg = 1000, fps_p5 = 41, device = "phone" })
end)

test("a game pass bought through PromptGamePassPurchaseFinished is a purchase (price looked up once)", function()
	local c, sched, s = F.client(Svc, { performance_delay = false })
	local p = F.player(8000001)
	s.countries[p.UserId] = "DE"
	s.Players.join(p)
	local fire = s.MarketplaceService.PromptGamePassPurchaseFinished.handlers[1]
	sched.api.spawn(fire, p, 123456, true)
	sched.api.spawn(fire, p, 123456, false)
	sched.api.spawn(fire, p, 123456, true)
	c:flush(5)
	local buys = sent(s, "purchase")
	eq(#buys, 2)
	eq(buys[1].payload, { sku = "123456", price = 199, currency = "ROBUX", source = "gamepass", quantity = 1, country = "DE" })
	eq(s.MarketplaceService.infoCalls, 1)
	local c2, _, s2 = F.client(Svc, { gamepass_prices = { [123456] = 75 } })
	c2:trackPurchase(p, { sku = 123456, price = c2:_gamePassPrice(123456), source = "gamepass" })
	c2:flush(5)
	eq(sent(s2, "purchase")[1].payload.price, 75)
	eq(s2.MarketplaceService.infoCalls, 0)
end)

test("wrapProcessReceipt: a granted receipt is a purchase whose id comes from the receipt", function()
	local c, _, s = F.client(Svc, { performance_delay = false })
	local decisions = { "PurchaseGranted", "NotProcessedYet", "PurchaseGranted" }
	local n = 0
	local handler = c:wrapProcessReceipt(function(receipt)
		n = n + 1
		eq(receipt.ProductId, 555)
		return decisions[n]
	end)
	local receipt = { PlayerId = 9000001, ProductId = 555, PurchaseId = "a1b2c3d4e5f60718293a4b5c6d7e8f90", CurrencySpent = 49,
		CurrencyType = "Robux", PlaceIdWherePurchased = 1 }
	eq(handler(receipt), "PurchaseGranted")
	eq(handler(receipt), "NotProcessedYet")
	eq(handler(receipt), "PurchaseGranted")
	c:flush(5)
	local buys = sent(s, "purchase")
	eq(#buys, 2)
	eq(buys[1].event_id, buys[2].event_id, "the same receipt, the same id (deduped by the server)")
	ok(string.match(buys[1].event_id, "^rcpt%-%x+$") and #buys[1].event_id <= 40, buys[1].event_id)
	eq(buys[1].payload, { sku = "555", price = 49, currency = "ROBUX", source = "devproduct", quantity = 1 })
	eq(buys[1].player_id, Svc.hmacSha256Hex(F.SALT, "9000001"))
end)

test("LogService errors become error events: warnings only when asked, never our own, 30 a minute", function()
	local c, sched, s = F.client(Svc)
	s.LogService.emit("Workspace.Script:12: attempt to index nil with 'Humanoid'")
	s.LogService.emit("Infinite yield possible", "Enum.MessageType.MessageWarning")
	s.LogService.emit("hello", "Enum.MessageType.MessageOutput")
	s.LogService.emit("[Svc] batch of 3 dropped: HTTP 401", "Enum.MessageType.MessageError")
	c:flush(5)
	local errs = sent(s, "error")
	eq(#errs, 1)
	eq(errs[1].payload, { severity = "error", message = "Workspace.Script:12: attempt to index nil with 'Humanoid'", source = "LogService" })
	eq(errs[1].player_id, "server")
	eq(errs[1].session_id, c.serverSession)
	for i = 1, 40 do
		s.LogService.emit("boom " .. i)
	end
	c:flush(5)
	eq(#sent(s, "error"), 30, "the first minute's cap (one already used)")
	sched:advance(60)
	s.LogService.emit("after a minute")
	c:flush(5)
	eq(#sent(s, "error"), 31)
	local c2, _, s2 = F.client(Svc, { capture_warnings = true })
	s2.LogService.emit("Infinite yield possible", "Enum.MessageType.MessageWarning")
	c2:flush(5)
	eq(sent(s2, "error")[1].payload.severity, "warn")
end)

test("BindToClose ends open sessions and sends everything queued, retrying within the time left", function()
	local n = 0
	local c, sched, s = F.client(Svc, { performance_delay = false, responder = function(_, body)
		n = n + 1
		if n == 1 then
			return F.status(503, { ["Retry-After"] = "3" })
		end
		return F.accepted(#body.events)
	end })
	local a, b = F.player(1100001), F.player(1100002)
	s.Players.join(a)
	s.Players.join(b)
	for i = 1, 20 do
		c:track("level", { level = i }, a)
	end
	sched:advance(2)
	eq(#s.HttpService.requests, 0, "before the timer")
	local done, result = sched:runThread(s.closeHandlers[1], 30)
	ok(done, "BindToClose returned")
	eq(result, nil)
	eq(c:stats().queued, 0)
	eq(c:stats().sent, 24)
	local ends = sent(s, "session_end")
	eq(#ends, 2)
	eq(ends[1].payload.reason, "shutdown")
	eq(#s.HttpService.requests, 2)
	ok(sched.now < 2 + 25, "within close_timeout")
end)

test("BindToClose gives up at close_timeout when the server stays down, counting nothing as sent", function()
	local c, sched, s = F.client(Svc, { close_timeout = 25, responder = function()
		return F.status(503, { ["Retry-After"] = "15" })
	end })
	c:track("level", { level = 1 }, nil)
	local started = sched.now
	local done = sched:runThread(function()
		return c:close()
	end, 60)
	ok(done, "returned")
	ok(sched.now - started <= 25, "took " .. (sched.now - started))
	eq(c:stats().sent, 0)
	eq(c:stats().queued, 1)
	eq(#s.HttpService.requests, 2)
end)

test("flush waits for a drain already running (no second request with the same batch at once)", function()
	local c, sched, s = F.client(Svc, { responder = function(_, body, n)
		if n == 1 then
			return F.status(429, { ["Retry-After"] = "2" })
		end
		return F.accepted(#body.events)
	end })
	c:track("level", { level = 1 }, nil)
	sched:advance(10) -- the timer's drain: 429, now waiting 2 s
	local done, all = sched:runThread(function()
		return c:flush(10)
	end, 20)
	ok(done and all, "flushed")
	eq(#s.HttpService.requests, 2)
	eq(c:stats().sent, 1)
end)

H.run(arg)
