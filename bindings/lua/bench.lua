-- utf8.len and utf8.codepoint of u8x.utf8 against Lua's built-in utf8
-- library, over each lipsum file and on short strings:
--
--   make && LUA_CPATH="$PWD/?.so;;" lua5.4 bench.lua [DIR] [ROUNDS]
--
-- DIR holds the lipsum files (default ../../../shared/corpus/lipsum).
-- MB/s of UTF-8 read, best of ROUNDS (default 5) timings of enough calls
-- to fill 0.1 s of CPU time (os.clock); ratio = u8x / built-in.
-- codepoint(s, 1, -1) returns every code point of the string as values
-- on Lua's stack, so for whole files it measures that too, alike for both.

local builtin = utf8
local u8x = require "u8x.utf8"
local dir = arg[1] or "../../../shared/corpus/lipsum"
local rounds = tonumber(arg[2]) or 5
local names = { "Arabic", "Chinese", "Emoji", "Hebrew", "Hindi", "Japanese", "Korean", "Latin", "Russian" }

local function best(f, s)
  local n = 1
  while true do
    local t0 = os.clock()
    for _ = 1, n do f(s) end
    local t = os.clock() - t0
    if t >= 0.01 then n = math.max(1, math.floor(n * 0.1 / t)) break end
    n = n * 4
  end
  local b = math.huge
  for _ = 1, rounds do
    local t0 = os.clock()
    for _ = 1, n do f(s) end
    b = math.min(b, (os.clock() - t0) / n)
  end
  return b
end

local function row(name, s, ratios)
  -- Same answers first.
  assert(u8x.len(s) == builtin.len(s), name)
  assert(select("#", u8x.codepoint(s, 1, -1)) == select("#", builtin.codepoint(s, 1, -1)), name)
  local mb = #s / 1e6
  local t = {
    best(function(x) return builtin.len(x) end, s),
    best(function(x) return u8x.len(x) end, s),
    best(function(x) return builtin.codepoint(x, 1, -1) end, s),
    best(function(x) return u8x.codepoint(x, 1, -1) end, s),
  }
  ratios.len[#ratios.len + 1] = t[1] / t[2]
  ratios.cp[#ratios.cp + 1] = t[3] / t[4]
  print(string.format("%-14s %7d | %9.0f %9.0f %6.2fx | %9.0f %9.0f %6.2fx",
    name, #s, mb / t[1], mb / t[2], t[1] / t[2], mb / t[3], mb / t[4], t[3] / t[4]))
end

local function cut(s, n)
  -- The longest prefix of at most n bytes that ends at a character boundary.
  while n > 0 and n < #s and (s:byte(n + 1) & 0xC0) == 0x80 do n = n - 1 end
  return s:sub(1, n)
end

print(_VERSION .. ", u8x " .. u8x.u8x_version)
print(string.format("MB/s of UTF-8, best of %d; ratio = u8x.utf8 / built-in utf8", rounds))
print(string.format("%-14s %7s | %9s %9s %7s | %9s %9s %7s",
  "input", "bytes", "len", "u8x len", "ratio", "codepoint", "u8x cp", "ratio"))
local ratios = { len = {}, cp = {} }
local texts = {}
for _, name in ipairs(names) do
  local f = assert(io.open(dir .. "/" .. name .. "-Lipsum.utf8.txt", "rb"))
  texts[name] = f:read("a")
  f:close()
  row(name, texts[name], ratios)
end
for _, n in ipairs({ 8, 16, 64, 256 }) do row("Latin, " .. n .. " B", cut(texts.Latin, n), ratios) end
for _, n in ipairs({ 8, 16, 64, 256 }) do row("Russian, " .. n .. " B", cut(texts.Russian, n), ratios) end
local function geo(v)
  local s = 0
  for _, x in ipairs(v) do s = s + math.log(x) end
  return math.exp(s / #v)
end
local function low(v) return math.min(table.unpack(v)) end
print(string.format("geometric mean: len %.2fx, codepoint %.2fx; lowest: len %.2fx, codepoint %.2fx",
  geo(ratios.len), geo(ratios.cp), low(ratios.len), low(ratios.cp)))
