DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq, ok = H.test, H.eq, H.ok

test("the default budget stays under HttpService's 500 requests a minute", function()
	local c = F.client(Svc)
	eq(c.cfg.requests_per_minute, 300)
	ok(c.cfg.requests_per_minute < 500)
end)

test("no more than requests_per_minute requests in any 60 s window", function()
	local c, sched, s = F.client(Svc, { requests_per_minute = 4, batch_size = 10 })
	for i = 1, 100 do
		c:track("level", { level = i }, nil)
	end
	sched:advance(0)
	eq(#s.HttpService.requests, 4, "the first minute's budget")
	sched:advance(59.9)
	eq(#s.HttpService.requests, 4, "still within the minute")
	sched:advance(0.1)
	eq(#s.HttpService.requests, 8)
	sched:advance(60)
	eq(#s.HttpService.requests, 10)
	eq(c:stats().sent, 100)
	local reqs = s.HttpService.requests
	for i = 1, #reqs do
		local inWindow = 0
		for j = 1, #reqs do
			if reqs[j].at >= reqs[i].at and reqs[j].at < reqs[i].at + 60 then
				inWindow = inWindow + 1
			end
		end
		ok(inWindow <= 4, "window from request " .. i .. " holds " .. inWindow)
	end
end)

test("retries count against the budget too", function()
	local c, sched, s = F.client(Svc, { requests_per_minute = 3, backoff_base = 0.01, responder = function()
		return "HttpError: Timedout"
	end })
	c:track("level", { level = 1 }, nil)
	sched:advance(10)
	sched:advance(59)
	eq(#s.HttpService.requests, 3)
	sched:advance(3)
	eq(#s.HttpService.requests, 6, "three more once the first three are a minute old")
	sched:advance(57.5)
	eq(#s.HttpService.requests, 6, "then none until a minute after those")
end)

H.run(arg)
