DIR = string.match(arg[0], "^(.*/)") or "./"
local H = dofile(DIR .. "harness.lua")
local Svc = dofile(DIR .. "../Svc.lua")
local F = dofile(DIR .. "fakes.lua")
local test, eq, ok = H.test, H.eq, H.ok

local function hex(s)
	return Svc.toHex(Svc.sha256(s))
end

test("SHA-256 of the FIPS 180-4 examples", function()
	eq(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	eq(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
	eq(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
	eq(hex(string.rep("a", 1000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
end)

test("SHA-256 at the padding edges (55, 56, 63, 64 bytes)", function()
	eq(hex(string.rep("a", 55)), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
	eq(hex(string.rep("a", 56)), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
	eq(hex(string.rep("a", 63)), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34")
	eq(hex(string.rep("a", 64)), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
end)

test("HMAC-SHA256 of RFC 4231 test cases 1, 2 and 6 (key longer than a block)", function()
	eq(Svc.hmacSha256Hex(string.rep("\11", 20), "Hi There"),
		"b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
	eq(Svc.hmacSha256Hex("Jefe", "what do ya want for nothing?"),
		"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
	eq(Svc.hmacSha256Hex(string.rep("\170", 131), "Test Using Larger Than Block-Size Key - Hash Key First"),
		"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
end)

test("the bit shim agrees with arithmetic on edge values", function()
	local b = Svc._bitShim()
	local M = 4294967295
	eq(b.bxor(M, 0), M)
	eq(b.bxor(M, M), 0)
	eq(b.band(M, 0x0f0f0f0f), 0x0f0f0f0f)
	eq(b.band(0xf0f0f0f0, 0x0f0f0f0f), 0)
	eq(b.bxor(0x12345678, 0x87654321, 0xffffffff), 0x6aaeeaa6)
	eq(b.bnot(0), M)
	eq(b.bnot(0x80000000), 0x7fffffff)
	eq(b.rrotate(1, 1), 0x80000000)
	eq(b.rrotate(0x12345678, 8), 0x78123456)
	eq(b.rshift(0x80000000, 31), 1)
	eq(b.lshift(0xffffffff, 4), 0xfffffff0)
end)

test("player_id is the salted HMAC of the UserId, never the id, cached per player", function()
	local c = F.client(Svc)
	local p = F.player(987654321, "Builderman")
	local id = c:playerId(p)
	eq(id, Svc.hmacSha256Hex(F.SALT, "987654321"))
	eq(#id, 64)
	ok(not string.find(id, "987654321", 1, true))
	eq(c:playerId(987654321), id, "a UserId gives the same id")
	local other = F.client(Svc, { salt = "another-game-salt-0000" })
	ok(other:playerId(p) ~= id, "another game's salt gives another id")
end)

-- `lua5.1 hash_test.lua --print KEY MSG` prints the HMAC for the vitest's comparison with Node.
if arg[1] == "--print" then
	print(Svc.hmacSha256Hex(arg[2], arg[3]))
	print(hex(arg[3]))
	os.exit(0)
end
H.run(arg)
