-- End to end: the SDK over stand-in Roblox services whose HttpService:RequestAsync posts to a real
-- svc server with curl (gzip-compressed, as Roblox does with Compress = Gzip). Run by
-- roblox-sdk.test.ts with SVC_URL, SVC_KEY, SVC_SALT, SVC_GAME; prints one line "RESULT <json>".
DIR = string.match(arg[0], "^(.*/)") or "./"
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local json = dofile(DIR .. "json.lua")

local function env(name)
	local v = os.getenv(name)
	assert(v and v ~= "", name .. " required")
	return v
end

local function sh(s)
	return "'" .. string.gsub(s, "'", "'\\''") .. "'"
end

local function readFile(path)
	local f = io.open(path, "rb")
	if not f then
		return ""
	end
	local s = f:read("*a")
	f:close()
	return s
end

--- RequestAsync over curl: status, headers and body, or an error as Roblox raises one.
local function curlRequest(request)
	local base = os.tmpname()
	local bodyFile, outFile, headerFile = base .. ".json", base .. ".out", base .. ".hdr"
	local f = assert(io.open(bodyFile, "wb"))
	f:write(request.Body)
	f:close()
	local dataFile = bodyFile
	local args = { "curl", "-sS", "--max-time", "20", "-o", sh(outFile), "-D", sh(headerFile), "-w", "'%{http_code}'",
		"-X", request.Method }
	for k, v in pairs(request.Headers) do
		args[#args + 1] = "-H " .. sh(k .. ": " .. v)
	end
	if request.Compress ~= nil then
		dataFile = bodyFile .. ".gz"
		assert(os.execute("gzip -c " .. sh(bodyFile) .. " > " .. sh(dataFile)) == 0, "gzip failed")
		args[#args + 1] = "-H 'Content-Encoding: gzip'"
	end
	args[#args + 1] = "--data-binary @" .. sh(dataFile)
	args[#args + 1] = sh(request.Url)
	local p = assert(io.popen(table.concat(args, " ") .. " 2>/dev/null"))
	local code = tonumber(p:read("*a"))
	p:close()
	local headers = {}
	for line in string.gmatch(readFile(headerFile), "[^\r\n]+") do
		local k, v = string.match(line, "^([%w%-]+):%s*(.*)$")
		if k then
			headers[string.lower(k)] = v
		end
	end
	local body = readFile(outFile)
	for _, path in ipairs({ base, bodyFile, outFile, headerFile, bodyFile .. ".gz" }) do
		os.remove(path)
	end
	if code == nil or code == 0 then
		error("HttpError: ConnectFail", 0)
	end
	return { Success = code >= 200 and code < 300, StatusCode = code, Headers = headers, Body = body }
end

local sched = F.scheduler()
local services = F.services(sched)
local http = services.HttpService
local bodies = {}
function http:RequestAsync(request)
	bodies[#bodies + 1] = request.Body
	local response = curlRequest(request)
	self.requests[#self.requests + 1] = { status = response.StatusCode }
	return response
end
-- Real GUIDs: this run's ids must not collide with another run's on the same database.
math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
function http:GenerateGUID()
	return (string.gsub("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", "[xy]", function(ch)
		return string.format("%x", ch == "x" and math.random(0, 15) or math.random(8, 11))
	end))
end

local client = Svc.new({
	api_key = env("SVC_KEY"),
	game_id = env("SVC_GAME"),
	base_url = env("SVC_URL"),
	salt = env("SVC_SALT"),
	services = services,
	scheduler = sched.api,
	clock = sched.clock,
	time = function()
		return os.time() - 120 + sched.now
	end,
	compression = "Gzip",
	log = function(m)
		io.stderr:write("[Svc] " .. m .. "\n")
	end,
})
client:attach()

local alice, bruno = F.player(987654321, "AliceBuilds"), F.player(1234567890, "BrunoPlays")
services.countries[alice.UserId] = "US"
services.countries[bruno.UserId] = "BR"
services.Players.join(alice)
services.Players.join(bruno)
for i = 1, 3 do
	client:track("level", { level = i, score = i * 100, result = "win" }, alice)
end
client:track("custom", { name = "shop_opened", tab = "gems" }, bruno)
local receipt = client:wrapProcessReceipt(function()
	return "PurchaseGranted"
end)
receipt({ PlayerId = bruno.UserId, ProductId = 1010, PurchaseId = "e2e-" .. http:GenerateGUID(), CurrencySpent = 25 })
services.LogService.emit("ServerScriptService.Round:7: attempt to call a nil value")
sched:advance(61) -- performance samples; the 10 s timer sends on the way
services.Players.leave(bruno)
local done = sched:runThread(services.closeHandlers[1], 30)

local result = {
	closed = done,
	stats = client:stats(),
	requests = #http.requests,
	statuses = {},
	player_ids = { alice = client:playerId(alice), bruno = client:playerId(bruno) },
	bodies = bodies,
}
for i, r in ipairs(http.requests) do
	result.statuses[i] = r.status
end
print("RESULT " .. json.encode(result))
