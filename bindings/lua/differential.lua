-- u8x.utf8 against the interpreter's own utf8 library, call by call:
-- random strings (random bytes, bytes biased to lead and continuation
-- bytes, valid text of each length, legacy 5- and 6-byte forms, encoded
-- surrogates), random positions (in range, out of range, negative), both
-- modes. Every function's results, or its error message, must be equal.
-- Usage: lua5.4 differential.lua [count]   (u8x.utf8 on package.cpath)

local builtin = utf8
local mine = require "u8x.utf8"
assert(mine ~= builtin and mine.u8x_version, "u8x.utf8 is not loaded")

local count = tonumber(arg and arg[1]) or 20000
math.randomseed(0x5538)
local rnd = math.random

local pieces = {
  "a", "\0", "\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xef\xbf\xbf",
  "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xed\xa0\x80", "\xed\xbf\xbf",
  "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80",
  "\xfd\xbf\xbf\xbf\xbf\xbf", "\xc0\x80", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
  "\xf8\x87\xbf\xbf\xbf", "\x80", "\xbf", "\xfe", "\xff", "\xc3", "\xe2\x82",
  "\xf0\x9f\x98", "汉字", "é", "😀",
}

local function random_string()
  local t, kind = {}, rnd(3)
  local n = rnd(0, 24)
  for i = 1, n do
    if kind == 1 then
      t[i] = string.char(rnd(0, 255))
    elseif kind == 2 then
      local r = rnd()
      t[i] = string.char(r < 0.4 and rnd(0x80, 0xBF) or r < 0.8 and rnd(0xC0, 0xFF) or rnd(0, 0x7F))
    else
      t[i] = pieces[rnd(#pieces)]
    end
  end
  return table.concat(t)
end

local function pos(s)
  local r = rnd(6)
  if r == 1 then return nil end
  if r == 2 then return -rnd(0, #s + 2) end
  if r == 3 then return ({0, #s + 1, #s + 2, math.mininteger, math.maxinteger})[rnd(5)] end
  return rnd(1, #s + 1)
end

-- Everything a call gives back, as one string; error messages without the
-- function's name (which depends on how each was reached).
local function outcome(f, ...)
  local r = table.pack(pcall(f, ...))
  if not r[1] then return "error: " .. tostring(r[2]):gsub("to '[^']*'", "to '?'") end
  local out = {}
  for i = 2, r.n do
    out[#out + 1] = type(r[i]) == "function" and "function" or tostring(r[i])
  end
  return table.concat(out, ",")
end

local function iterate(lib, s, lax)
  return function()
    local out = {}
    for p, c in lib.codes(s, lax) do out[#out + 1] = p .. ":" .. c end
    return table.concat(out, " ")
  end
end

local calls, failures = 0, 0
local function same(what, a, b)
  calls = calls + 1
  if a ~= b then
    failures = failures + 1
    if failures <= 10 then print(("MISMATCH %s\n  built-in: %s\n  u8x:      %s"):format(what, a, b)) end
  end
end

for _ = 1, count do
  local s = random_string()
  local i, j, lax = pos(s), pos(s), rnd(2) == 1
  local q = ("%q, %s, %s, %s"):format(s, i, j, lax)
  same("len(" .. q .. ")", outcome(builtin.len, s, i, j, lax), outcome(mine.len, s, i, j, lax))
  same("codepoint(" .. q .. ")", outcome(builtin.codepoint, s, i, j, lax),
       outcome(mine.codepoint, s, i, j, lax))
  local n = rnd(-5, 5)
  same(("offset(%q, %d, %s)"):format(s, n, i), outcome(builtin.offset, s, n, i), outcome(mine.offset, s, n, i))
  same(("codes(%q, %s)"):format(s, lax), outcome(iterate(builtin, s, lax)), outcome(iterate(mine, s, lax)))
  local f1, f2 = builtin.codes(s, lax), mine.codes(s, lax)
  local k = pos(s) or 0
  same(("codes step(%q, %d)"):format(s, k), outcome(f1, s, k), outcome(f2, s, k))
  local cps = {}
  for m = 1, rnd(0, 5) do
    local r = rnd(5)
    cps[m] = r == 1 and rnd(0, 0x7F) or r == 2 and rnd(0xD800, 0xDFFF) or r == 3 and rnd(0, 0x10FFFF)
      or r == 4 and rnd(0, 0x7FFFFFFF) or ({-1, 0x80000000, 0x7FFFFFFF, 1.5, "x", "65"})[rnd(6)]
  end
  same("char(" .. table.concat(cps, ",") .. ")", outcome(builtin.char, table.unpack(cps)),
       outcome(mine.char, table.unpack(cps)))
end
-- Slices on both sides of u8x_utf8.c's SMALL (256 code points on the C
-- stack, a userdata above), whole and cut, ASCII and mixed.
for _, n in ipairs({255, 256, 257, 258, 600}) do
  for _, piece in ipairs({"a", "é", "汉", "😀", "\xff"}) do
    local s = ("a"):rep(n // 2) .. piece:rep(n - n // 2)
    for _, ij in ipairs({ {1, -1}, {1, n}, {2, n + 1}, {n // 2, -2}, {1, 256}, {1, 257} }) do
      local i, j = ij[1], ij[2]
      same(("codepoint(%d x %q, %d, %d)"):format(n, piece, i, j),
           outcome(builtin.codepoint, s, i, j), outcome(mine.codepoint, s, i, j))
    end
  end
end
-- Argument errors.
for _, args in ipairs({ {}, {nil}, {1}, {{}}, {"abc", "x"}, {"abc", 1.5}, {"abc", 1, {}} }) do
  for _, name in ipairs({"len", "codepoint", "offset", "codes"}) do
    same(name .. " bad args", outcome(builtin[name], table.unpack(args, 1, 3)),
         outcome(mine[name], table.unpack(args, 1, 3)))
  end
end
same("charpattern", builtin.charpattern, mine.charpattern)
print(("%d passed, %d failed"):format(calls - failures, failures))
os.exit(failures == 0 and 0 or 1)
