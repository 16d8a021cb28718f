DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq, ok = H.test, H.eq, H.ok

local IDS = { 987654321, 1234567890, 31415926 }

test("no request body ever carries a player's UserId or name, whatever the game does", function()
	local c, sched, s = F.client(Svc, { capture_warnings = true, responder = function(_, body, n)
		if n % 3 == 1 then
			return F.status(503, { ["Retry-After"] = "1" })
		end
		return F.accepted(#body.events)
	end })
	local players = {}
	for i, id in ipairs(IDS) do
		players[i] = F.player(id, "Hero" .. i)
		s.countries[id] = "GB"
		s.Players.join(players[i])
	end
	local handler = c:wrapProcessReceipt(function()
		return "PurchaseGranted"
	end)
	for i, p in ipairs(players) do
		local id = tostring(p.UserId)
		c:track("level", { level = i, result = "win" }, p)
		c:track("custom", { name = "chat_cmd", note = "kick " .. id .. " please", who = p.Name }, p)
		c:track("equip", { item_id = "hat", item_name = p.DisplayName .. "'s hat" }, p.UserId)
		handler({ PlayerId = p.UserId, ProductId = 77, PurchaseId = "pid-" .. id, CurrencySpent = 10 })
		s.LogService.emit("ServerScriptService.Shop:40: no data for " .. id .. " (" .. p.Name .. ")")
		s.LogService.emit("Players." .. p.Name .. ".PlayerGui: Infinite yield", "Enum.MessageType.MessageWarning")
		local fire = s.MarketplaceService.PromptGamePassPurchaseFinished.handlers[1]
		sched.api.spawn(fire, p, 31337, true)
	end
	sched:advance(61)
	for _, p in ipairs(players) do
		s.Players.leave(p)
	end
	sched:runThread(s.closeHandlers[1], 30)
	eq(c:stats().queued, 0)
	ok(#s.HttpService.requests >= 4, "several requests")
	local types = {}
	for _, r in ipairs(s.HttpService.requests) do
		for _, p in ipairs(players) do
			ok(not string.find(r.request.Body, tostring(p.UserId), 1, true), "UserId " .. p.UserId .. " in a body")
			ok(not string.find(r.request.Body, p.Name, 1, true), p.Name .. " in a body")
			ok(not string.find(r.request.Body, p.DisplayName, 1, true), p.DisplayName .. " in a body")
		end
		for _, e in ipairs(r.body.events) do
			types[e.type] = true
			ok(e.player_id == "server" or string.match(e.player_id, "^%x+$") and #e.player_id == 64, e.player_id)
		end
	end
	for _, t in ipairs({ "session_start", "session_end", "level", "custom", "equip", "purchase", "performance", "error" }) do
		ok(types[t], t .. " was sent")
	end
end)

test("scrubbing replaces a UserId only as a whole number", function()
	local c, _, s = F.client(Svc)
	s.Players.join(F.player(4321, "Ann"))
	eq(c:scrub("4321 x54321 43210 id=4321."), "<player> x54321 43210 id=<player>.")
	eq(c:scrub("Ann met Anna"), "<player> met <player>a")
end)

H.run(arg)
