DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq, ok = H.test, H.eq, H.ok

local function level(i)
	return { level = i % 50 }
end

test("a full batch of 500 goes at once; never more than 500 events per request", function()
	local c, sched, s = F.client(Svc)
	for i = 1, 1201 do
		c:track("level", level(i), nil)
	end
	sched:advance(0)
	local reqs = s.HttpService.requests
	eq(#reqs, 2, "requests before the timer")
	eq(#reqs[1].body.events, 500)
	eq(#reqs[2].body.events, 500)
	eq(c:stats().queued, 201)
	sched:advance(10)
	eq(#reqs, 3, "requests after the timer")
	eq(#reqs[3].body.events, 201)
	eq(c:stats(), { queued = 0, sent = 1201, dropped = 0, rejected = 0, deduped = 0, retries = 0, requests = 3, invalid = 0 })
end)

test("a partial batch waits for the 10 s timer", function()
	local c, sched, s = F.client(Svc)
	c:track("level", level(1), nil)
	sched:advance(4)
	c:track("level", level(2), nil)
	c:track("level", level(3), nil)
	sched:advance(5.9)
	eq(#s.HttpService.requests, 0, "before 10 s")
	sched:advance(0.1)
	eq(#s.HttpService.requests, 1, "at 10 s")
	eq(#s.HttpService.requests[1].body.events, 3)
	eq(s.HttpService.requests[1].at, 10)
	sched:advance(30)
	eq(#s.HttpService.requests, 1, "nothing queued: no empty request")
end)

test("batch_size is capped at 500 and honoured below it", function()
	local c = F.client(Svc, { batch_size = 5000 })
	eq(c.cfg.batch_size, 500)
	local c2, sched, s = F.client(Svc, { batch_size = 50 })
	for i = 1, 120 do
		c2:track("level", level(i), nil)
	end
	sched:advance(0)
	eq(#s.HttpService.requests, 2)
	eq(#s.HttpService.requests[2].body.events, 50)
end)

test("the request: URL, method, headers, body with api_key; gzip when the platform offers it", function()
	local c, sched, s = F.client(Svc, { compression = "Enum.HttpCompression.Gzip" })
	c:track("custom", { name = "opened_shop", tab = "gems" }, nil)
	ok(c:flush(5), "flushed")
	local r = s.HttpService.requests[1]
	eq(r.request.Url, "http://svc.test/api/sdk/events")
	eq(r.request.Method, "POST")
	eq(r.request.Headers["Content-Type"], "application/json")
	eq(r.request.Headers["X-Svc-SDK-Version"], "svc-roblox/" .. Svc.VERSION)
	eq(r.request.Compress, "Enum.HttpCompression.Gzip")
	eq(r.body.api_key, "svc_test_key")
	local e = r.body.events[1]
	eq(e.type, "custom")
	eq(e.payload, { name = "opened_shop", tab = "gems" })
	eq(e.platform, "platform_1")
	eq(e.game_id, "4242")
	eq(e.player_id, "server")
	eq(e.ts, "2026-09-21T14:13:20.000Z")
	local c2, _, s2 = F.client(Svc, { gzip = false, compression = "Enum.HttpCompression.Gzip" })
	c2:track("level", level(1), nil)
	c2:flush(5)
	eq(s2.HttpService.requests[1].request.Compress, nil, "gzip = false")
end)

test("event ids are unique, 8 to 40 characters, and differ between servers", function()
	local c = F.client(Svc)
	local seen = {}
	for i = 1, 2000 do
		local id = c:track("level", level(i), nil)
		ok(#id >= 8 and #id <= 40, "length of " .. id)
		ok(not seen[id], "duplicate " .. id)
		seen[id] = true
	end
	local other = F.client(Svc)
	other.http.guid = 7 -- another server draws another GUID
	local c3 = Svc.new({ api_key = "k", game_id = 1, base_url = "http://x", salt = F.SALT, services = other.services,
		scheduler = other.scheduler, clock = other.clock })
	ok(c3.idPrefix ~= c.idPrefix, "prefixes differ")
end)

test("an empty payload is left out (JSONEncode would write [])", function()
	local c, _, s = F.client(Svc)
	c:track("session_end", {}, nil)
	c:flush(5)
	eq(s.HttpService.requests[1].body.events[1].payload, nil)
end)

test("an unknown type is refused and counted, never sent", function()
	local c, _, s, logs = F.client(Svc)
	eq(c:track("purchse", { sku = "x" }, nil), nil)
	c:flush(5)
	eq(#s.HttpService.requests, 0)
	eq(c:stats().invalid, 1)
	ok(string.find(logs[1], "unknown event type", 1, true), logs[1])
end)

test("timestamps are ISO 8601 UTC with milliseconds", function()
	eq(Svc.isoUtc(0), "1970-01-01T00:00:00.000Z")
	eq(Svc.isoUtc(1790000000.25), "2026-09-21T14:13:20.250Z")
	eq(Svc.isoUtc(1709251199.9996), "2024-03-01T00:00:00.000Z")
end)

test("config is checked: key, game, URL and a salt of 16+ characters", function()
	local base = { api_key = "k", game_id = "1", base_url = "http://x", salt = F.SALT, services = F.services(nil),
		scheduler = F.scheduler().api }
	ok(pcall(Svc.new, base))
	for _, field in ipairs({ "api_key", "game_id", "base_url", "salt" }) do
		local cfg = {}
		for k, v in pairs(base) do
			cfg[k] = v
		end
		cfg[field] = nil
		local good, err = pcall(Svc.new, cfg)
		ok(not good and string.find(err, field, 1, true), field .. ": " .. tostring(err))
	end
	base.salt = "short"
	ok(not pcall(Svc.new, base), "short salt")
end)

test("an event JSON cannot carry (NaN) is refused at track, the rest still go", function()
	local c, _, s, logs = F.client(Svc)
	eq(c:track("level", { level = 0 / 0 }, nil), nil)
	ok(c:track("level", { level = 1 }, nil))
	c:flush(5)
	eq(#s.HttpService.requests[1].body.events, 1)
	eq(c:stats().invalid, 1)
	ok(string.find(logs[1], "cannot be encoded", 1, true), logs[1])
end)

H.run(arg)
