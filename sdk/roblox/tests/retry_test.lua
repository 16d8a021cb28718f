DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq, ok, between = H.test, H.eq, H.ok, H.between

--- Answers with `script[n]` for the n-th request (then 200).
local function scripted(script)
	return function(_, body, n)
		local r = script[n]
		if r == nil then
			return F.accepted(#body.events)
		end
		return r
	end
end

local function fill(c, n)
	for i = 1, n do
		c:track("level", { level = i }, nil)
	end
end

test("a failed request is retried with the same events and the same event ids", function()
	local c, sched, s = F.client(Svc, {
		responder = scripted({ "HttpError: ConnectFail", F.status(500), F.status(502) }),
	})
	fill(c, 7)
	sched:advance(10)
	sched:advance(60)
	local reqs = s.HttpService.requests
	eq(#reqs, 4)
	for i = 2, 4 do
		eq(reqs[i].ids, reqs[1].ids, "ids of attempt " .. i)
		eq(reqs[i].request.Body, reqs[1].request.Body, "body of attempt " .. i)
	end
	eq(c:stats(), { queued = 0, sent = 7, dropped = 0, rejected = 0, deduped = 0, retries = 3, requests = 4, invalid = 0 })
end)

test("429 waits for its Retry-After (within 20% more), then sends the same ids", function()
	local c, sched, s = F.client(Svc, {
		responder = scripted({ F.status(429, { ["retry-after"] = "7" }) }),
		random = function()
			return 0.999
		end,
	})
	fill(c, 3)
	sched:advance(10)
	eq(#s.HttpService.requests, 1)
	sched:advance(7)
	eq(#s.HttpService.requests, 1, "nothing before Retry-After")
	sched:advance(1.5)
	eq(#s.HttpService.requests, 2)
	between(s.HttpService.requests[2].at - s.HttpService.requests[1].at, 7, 8.4, "wait after 429")
	eq(s.HttpService.requests[2].ids, s.HttpService.requests[1].ids)
end)

test("503 quota_exceeded with Retry-After: 15 waits 15 s (header name in any case)", function()
	local c, sched, s = F.client(Svc, {
		responder = scripted({ F.status(503, { ["Retry-After"] = "15" }, '{"detail":"quota","code":"quota_exceeded"}'),
			F.status(503, { ["RETRY-AFTER"] = "15" }) }),
		random = function()
			return 0
		end,
	})
	fill(c, 2)
	sched:advance(10)
	sched:advance(14.99)
	eq(#s.HttpService.requests, 1)
	sched:advance(0.01)
	eq(#s.HttpService.requests, 2)
	sched:advance(15)
	eq(#s.HttpService.requests, 3)
	eq(s.HttpService.requests[3].at - s.HttpService.requests[2].at, 15)
	eq(c:stats().sent, 2)
end)

test("backoff doubles per attempt with jitter bounded to [exp/2, exp], capped", function()
	for attempt = 1, 10 do
		local exp = math.min(60, 2 ^ (attempt - 1))
		eq(Svc.backoffDelay(attempt, nil, 0, 1, 60), exp / 2, "low end of attempt " .. attempt)
		eq(Svc.backoffDelay(attempt, nil, 1, 1, 60), exp, "high end of attempt " .. attempt)
		between(Svc.backoffDelay(attempt, nil, 0.37, 1, 60), exp / 2, exp)
	end
	eq(Svc.backoffDelay(3, 15, 0, 1, 60), 15)
	eq(Svc.backoffDelay(3, 15, 1, 1, 60), 18)
	eq(Svc.parseRetryAfter("15"), 15)
	eq(Svc.parseRetryAfter(" 2.5 "), 2.5)
	eq(Svc.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"), nil)
	eq(Svc.parseRetryAfter(nil), nil)
end)

test("the waits between retries follow the backoff with the random source", function()
	local draws = { 0.1, 0.9, 0.5, 0.0 }
	local n = 0
	local c, sched, s = F.client(Svc, {
		responder = scripted({ F.status(500), F.status(500), F.status(500), F.status(500) }),
		random = function()
			n = n + 1
			return draws[n]
		end,
	})
	fill(c, 1)
	sched:advance(10)
	sched:advance(100)
	local reqs = s.HttpService.requests
	eq(#reqs, 5)
	local gaps = {}
	for i = 2, 5 do
		gaps[i - 1] = reqs[i].at - reqs[i - 1].at
	end
	H.near(gaps, { 0.5 + 0.5 * 0.1, 1 + 1 * 0.9, 2 + 2 * 0.5, 4 })
end)

test("after max_retries the batch is dropped and counted", function()
	local c, sched, s, logs = F.client(Svc, { max_retries = 2, responder = function()
		return F.status(500)
	end })
	fill(c, 4)
	sched:advance(10)
	sched:advance(100)
	eq(#s.HttpService.requests, 3)
	eq(c:stats().dropped, 4)
	eq(c:stats().queued, 0)
	ok(string.find(logs[#logs], "after 2 retries", 1, true), logs[#logs])
end)

test("a 4xx other than 413 drops the batch at once (no retry)", function()
	local c, sched, s = F.client(Svc, { responder = scripted({ F.status(401) }) })
	fill(c, 3)
	sched:advance(10)
	sched:advance(60)
	eq(#s.HttpService.requests, 1)
	eq(c:stats().dropped, 3)
	eq(c:stats().retries, 0)
end)

test("413 splits the batch in halves, all events still sent with their ids", function()
	local c, sched, s = F.client(Svc, { batch_size = 8, responder = scripted({ F.status(413) }) })
	fill(c, 8)
	sched:advance(0)
	local reqs = s.HttpService.requests
	eq(#reqs, 3)
	eq(#reqs[2].ids, 4)
	eq(#reqs[3].ids, 4)
	local again = {}
	for _, id in ipairs(reqs[2].ids) do
		again[#again + 1] = id
	end
	for _, id in ipairs(reqs[3].ids) do
		again[#again + 1] = id
	end
	eq(again, reqs[1].ids)
	eq(c:stats().sent, 8)
end)

test("rejected and deduped counts are read from the answer", function()
	local c, _, _, logs = F.client(Svc, { responder = function()
		return { StatusCode = 200, Headers = {}, Body = '{"accepted":1,"rejected":1,"deduped":1,"errors":[{"index":0,"event_id":"x","field":"payload.sku","code":"required","message":"m"}]}' }
	end })
	fill(c, 3)
	c:flush(5)
	eq(c:stats().rejected, 1)
	eq(c:stats().deduped, 1)
	eq(c:stats().sent, 3)
	ok(string.find(logs[1], "payload.sku: required", 1, true), logs[1])
end)

H.run(arg)
