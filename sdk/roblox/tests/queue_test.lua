DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq = H.test, H.eq

test("a full queue drops the oldest events first and counts them", function()
	local c, sched, s = F.client(Svc, { max_queue = 5 })
	for i = 1, 8 do
		c:track("level", { level = i }, nil)
	end
	eq(c:stats().queued, 5)
	eq(c:stats().dropped, 3)
	sched:advance(10)
	local levels = {}
	for i, e in ipairs(s.HttpService.requests[1].body.events) do
		levels[i] = e.payload.level
	end
	eq(levels, { 4, 5, 6, 7, 8 })
	eq(c:stats(), { queued = 0, sent = 5, dropped = 3, rejected = 0, deduped = 0, retries = 0, requests = 1, invalid = 0 })
end)

test("while a batch is retried, new events queue behind it and the bound still holds", function()
	local down = true
	local c, sched, s = F.client(Svc, { max_queue = 4, batch_size = 3, responder = function(_, body)
		if down then
			return F.status(503, { ["Retry-After"] = "15" })
		end
		return F.accepted(#body.events)
	end })
	for i = 1, 3 do
		c:track("level", { level = i }, nil)
	end
	sched:advance(0) -- the full batch of 3 goes and fails
	for i = 4, 10 do
		c:track("level", { level = i }, nil)
	end
	eq(c:stats().queued, 3 + 4, "the batch in flight plus a full queue")
	eq(c:stats().dropped, 3)
	down = false
	sched:advance(60)
	local levels = {}
	for i, e in ipairs(F.allEvents(s.HttpService)) do
		levels[i] = e.payload.level
	end
	eq(levels, { 1, 2, 3, 1, 2, 3, 7, 8, 9, 10 })
	eq(c:stats().sent, 7)
	eq(c:stats().queued, 0)
end)

H.run(arg)
