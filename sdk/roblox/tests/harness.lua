-- A tiny test harness for lua5.1: H.test(name, fn), assertions, and H.run(arg).
-- `lua5.1 x_test.lua --list` prints the test names; `--only NAME` runs one; no argument runs all.
-- Each result is one line: "ok<TAB>name" or "not ok<TAB>name<TAB>message".
local H = { tests = {} }

function H.test(name, fn)
	H.tests[#H.tests + 1] = { name = name, fn = fn }
end

local function show(v, depth)
	depth = depth or 0
	if type(v) == "string" then
		return string.format("%q", v)
	end
	if type(v) ~= "table" or depth > 3 then
		return tostring(v)
	end
	local keys = {}
	for k in pairs(v) do
		keys[#keys + 1] = k
	end
	table.sort(keys, function(a, b)
		return tostring(a) < tostring(b)
	end)
	local parts = {}
	for _, k in ipairs(keys) do
		parts[#parts + 1] = tostring(k) .. "=" .. show(v[k], depth + 1)
	end
	return "{" .. table.concat(parts, ", ") .. "}"
end
H.show = show

local function deepEqual(a, b)
	if type(a) ~= type(b) then
		return false
	end
	if type(a) ~= "table" then
		return a == b
	end
	for k, v in pairs(a) do
		if not deepEqual(v, b[k]) then
			return false
		end
	end
	for k in pairs(b) do
		if a[k] == nil then
			return false
		end
	end
	return true
end
H.deepEqual = deepEqual

function H.eq(actual, expected, what)
	if not deepEqual(actual, expected) then
		error((what and (what .. ": ") or "") .. "expected " .. show(expected) .. ", got " .. show(actual), 2)
	end
end

function H.ok(cond, what)
	if not cond then
		error("assertion failed" .. (what and (": " .. what) or ""), 2)
	end
end

function H.between(v, lo, hi, what)
	if type(v) ~= "number" or v < lo or v > hi then
		error((what and (what .. ": ") or "") .. "expected in [" .. lo .. ", " .. hi .. "], got " .. tostring(v), 2)
	end
end

--- Numbers (or lists of numbers) equal within 1e-9.
function H.near(actual, expected, what)
	local a = type(actual) == "table" and actual or { actual }
	local e = type(expected) == "table" and expected or { expected }
	local same = #a == #e
	for i = 1, #e do
		same = same and type(a[i]) == "number" and math.abs(a[i] - e[i]) < 1e-9
	end
	if not same then
		error((what and (what .. ": ") or "") .. "expected " .. show(expected) .. ", got " .. show(actual), 2)
	end
end

function H.run(args)
	args = args or {}
	if args[1] == "--list" then
		for _, t in ipairs(H.tests) do
			print(t.name)
		end
		return
	end
	local only = args[1] == "--only" and args[2] or nil
	local failed, ran = 0, 0
	for _, t in ipairs(H.tests) do
		if only == nil or only == t.name then
			ran = ran + 1
			local ok, err = pcall(t.fn)
			if ok then
				print("ok\t" .. t.name)
			else
				failed = failed + 1
				print("not ok\t" .. t.name .. "\t" .. string.gsub(tostring(err), "\n", " | "))
			end
		end
	end
	if ran == 0 then
		print("not ok\t" .. tostring(only) .. "\tno such test")
		os.exit(1)
	end
	os.exit(failed > 0 and 1 or 0)
end

return H
