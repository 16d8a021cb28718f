-- JSON for the stand-in HttpService, as Roblox's JSONEncode behaves: a table whose keys are
-- exactly 1..n is an array, an EMPTY table is "[]", any other table an object.
local json = {}

local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

local function encodeString(s)
	return '"' .. string.gsub(s, '[%c"\\]', function(c)
		return escapes[c] or string.format("\\u%04x", string.byte(c))
	end) .. '"'
end

local function isArray(t)
	local n = 0
	for k in pairs(t) do
		if type(k) ~= "number" or k < 1 or k % 1 ~= 0 then
			return false
		end
		n = n + 1
	end
	for i = 1, n do
		if t[i] == nil then
			return false
		end
	end
	return true
end

function json.encode(v)
	local t = type(v)
	if t == "nil" then
		return "null"
	elseif t == "boolean" then
		return tostring(v)
	elseif t == "number" then
		if v ~= v or v == math.huge or v == -math.huge then
			error("json: cannot encode " .. tostring(v))
		end
		if v % 1 == 0 and math.abs(v) < 2 ^ 53 then
			return string.format("%.0f", v)
		end
		return string.format("%.14g", v)
	elseif t == "string" then
		return encodeString(v)
	elseif t == "table" then
		local parts = {}
		if isArray(v) then
			for i = 1, #v do
				parts[i] = json.encode(v[i])
			end
			return "[" .. table.concat(parts, ",") .. "]"
		end
		local keys = {}
		for k in pairs(v) do
			if type(k) ~= "string" then
				error("json: mixed table")
			end
			keys[#keys + 1] = k
		end
		table.sort(keys)
		for i, k in ipairs(keys) do
			parts[i] = encodeString(k) .. ":" .. json.encode(v[k])
		end
		return "{" .. table.concat(parts, ",") .. "}"
	end
	error("json: cannot encode a " .. t)
end

function json.decode(s)
	local pos = 1
	local function ws()
		pos = string.find(s, "[^ \t\r\n]", pos) or #s + 1
	end
	local value
	local function str()
		local out = {}
		pos = pos + 1
		while true do
			local c = string.sub(s, pos, pos)
			if c == '"' then
				pos = pos + 1
				return table.concat(out)
			elseif c == "\\" then
				local e = string.sub(s, pos + 1, pos + 1)
				if e == "u" then
					local code = tonumber(string.sub(s, pos + 2, pos + 5), 16)
					out[#out + 1] = code < 128 and string.char(code) or "?"
					pos = pos + 6
				else
					local map = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
					out[#out + 1] = map[e] or e
					pos = pos + 2
				end
			elseif c == "" then
				error("json: unterminated string")
			else
				out[#out + 1] = c
				pos = pos + 1
			end
		end
	end
	function value()
		ws()
		local c = string.sub(s, pos, pos)
		if c == "{" then
			local obj = {}
			pos = pos + 1
			ws()
			if string.sub(s, pos, pos) == "}" then
				pos = pos + 1
				return obj
			end
			while true do
				ws()
				local k = str()
				ws()
				pos = pos + 1 -- :
				obj[k] = value()
				ws()
				local d = string.sub(s, pos, pos)
				pos = pos + 1
				if d == "}" then
					return obj
				end
			end
		elseif c == "[" then
			local arr = {}
			pos = pos + 1
			ws()
			if string.sub(s, pos, pos) == "]" then
				pos = pos + 1
				return arr
			end
			while true do
				arr[#arr + 1] = value()
				ws()
				local d = string.sub(s, pos, pos)
				pos = pos + 1
				if d == "]" then
					return arr
				end
			end
		elseif c == '"' then
			return str()
		elseif string.sub(s, pos, pos + 3) == "true" then
			pos = pos + 4
			return true
		elseif string.sub(s, pos, pos + 4) == "false" then
			pos = pos + 5
			return false
		elseif string.sub(s, pos, pos + 3) == "null" then
			pos = pos + 4
			return nil
		end
		local num = string.match(s, "^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
		if not num then
			error("json: unexpected " .. c .. " at " .. pos)
		end
		pos = pos + #num
		return tonumber(num)
	end
	return value()
end

return json
