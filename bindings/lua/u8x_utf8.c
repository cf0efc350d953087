/* u8x.utf8: Lua 5.4's utf8 library on u8x.
 *
 * The same functions, results and error messages as Lua 5.4.4's own
 * library (char, charpattern, codes, codepoint, len, offset), so that
 * `package.loaded.utf8 = require "u8x.utf8"` can stand in for it. The
 * strict mode is RFC 3629 UTF-8, which u8x validates and decodes a block
 * at a time; the `lax` mode is Lua's original 31-bit UTF-8, which is
 * u8x's legacy dialect (U8X_DIALECT_LEGACY, values up to 0x7FFFFFFF in up
 * to 6 bytes, shortest forms only) plus the encoded surrogates that Lua's
 * lax mode also accepts and the dialect refuses: where u8x reports
 * U8X_ERR_SURROGATE, this file reads the 3-byte form itself.
 *
 * Positions are Lua's: 1-based, negative from the end. utf8.len and
 * utf8.codepoint take the characters that *start* in [i, j]: u8x works on
 * the bytes of [i, j] with U8X_MORE_INPUT, and a character that the end of
 * that range cuts is read from the whole string. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "u8x.h"

#define MAXUTF 0x7FFFFFFFu
#define CONT(c) (((c) & 0xC0) == 0x80)
#define INVALID "invalid UTF-8 code"

/* A relative position (negative: from the end) made absolute; 0 when it
 * falls before the start. */
static lua_Integer absolute(lua_Integer pos, size_t len)
{
    if (pos >= 0)
        return pos;
    if ((size_t)0 - (size_t)pos > len)
        return 0;
    return (lua_Integer)len + pos + 1;
}

static uint32_t policy(int lax)
{
    return U8X_STRICT | (lax ? U8X_DIALECT_LEGACY : U8X_DIALECT_STANDARD);
}

/* ED A0..BF 80..BF at s[p..len): an encoded surrogate, which lax accepts. */
static int surrogate_at(const uint8_t *s, size_t len, size_t p, uint32_t *cp)
{
    if (len - p < 3 || s[p] != 0xED || (s[p + 1] & 0xE0) != 0xA0 || !CONT(s[p + 2]))
        return 0;
    *cp = 0xD000 | ((uint32_t)(s[p + 1] & 0x3F) << 6) | (s[p + 2] & 0x3F);
    return 1;
}

/* The character at s[p..len): its length (and *cp), or 0 if the bytes
 * there are not one. At most 6 bytes are handed to u8x (the longest
 * legacy form), so nothing beyond that character is examined. */
static size_t one(const uint8_t *s, size_t len, size_t p, int lax, uint32_t *cp)
{
    size_t avail = len - p < 6 ? len - p : 6;
    struct u8x_result r = u8x_decode_ucs4(s + p, avail, cp, 1, policy(lax), 0, 0);
    if (r.written == 1)
        return r.read; /* OK, OUTPUT_FULL or an error after it: its end */
    if (lax && r.error == U8X_ERR_SURROGATE && surrogate_at(s, len, p, cp))
        return 3;
    return 0;
}

/* utf8.len(s [, i [, j [, lax]]]) */
static int ulen(lua_State *L)
{
    size_t len;
    const uint8_t *s = (const uint8_t *)luaL_checklstring(L, 1, &len);
    lua_Integer i = absolute(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = absolute(luaL_optinteger(L, 3, -1), len);
    int lax = lua_toboolean(L, 4);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 2, "initial position out of bounds");
    luaL_argcheck(L, --j < (lua_Integer)len, 3, "final position out of bounds");
    lua_Integer n = 0;
    size_t p = (size_t)i;
    while ((lua_Integer)p <= j) {
        size_t end = (size_t)j + 1;
        struct u8x_result r = u8x_count(s + p, end - p, policy(lax), U8X_MORE_INPUT);
        n += (lua_Integer)r.written;
        if (r.status == U8X_OK)
            break;
        size_t q = p + r.read, k = 0;
        uint32_t cp;
        if (r.status == U8X_INCOMPLETE || lax)
            k = one(s, len, q, lax, &cp);
        if (k == 0) {
            luaL_pushfail(L);
            lua_pushinteger(L, (lua_Integer)q + 1);
            return 2;
        }
        n++;
        p = q + k;
    }
    lua_pushinteger(L, n);
    return 1;
}

/* utf8.codepoint(s [, i [, j [, lax]]]) */
static int ucodepoint(lua_State *L)
{
    size_t len;
    const uint8_t *s = (const uint8_t *)luaL_checklstring(L, 1, &len);
    lua_Integer i = absolute(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = absolute(luaL_optinteger(L, 3, i), len);
    int lax = lua_toboolean(L, 4);
    luaL_argcheck(L, i >= 1, 2, "out of bounds");
    luaL_argcheck(L, j <= (lua_Integer)len, 3, "out of bounds");
    if (i > j)
        return 0;
    if (j - i >= INT_MAX)
        return luaL_error(L, "string slice too long");
    int most = (int)(j - i) + 1; /* characters starting in [i, j], at most */
    luaL_checkstack(L, most + 1, "string slice too long");
    /* Up to SMALL code points on the C stack: a userdata for each call (an
     * allocation and later garbage) made short strings 0.6x-0.9x of the
     * built-in's speed. */
    enum { SMALL = 256 };
    uint32_t small[SMALL];
    uint32_t *cps =
        most <= SMALL ? small : lua_newuserdatauv(L, (size_t)most * sizeof(uint32_t), 0);
    size_t p = (size_t)i - 1, end = (size_t)j, n = 0;
    while (p < end) {
        struct u8x_result r = u8x_decode_ucs4(s + p, end - p, cps + n, (size_t)most - n,
                                              policy(lax), 0, U8X_MORE_INPUT);
        n += r.written;
        if (r.status == U8X_OK)
            break;
        size_t q = p + r.read, k = 0;
        if (r.status == U8X_INCOMPLETE || (lax && r.status == U8X_ILL_FORMED))
            k = one(s, len, q, lax, &cps[n]);
        if (k == 0)
            return luaL_error(L, INVALID);
        n++;
        p = q + k;
    }
    for (size_t k = 0; k < n; k++)
        lua_pushinteger(L, (lua_Integer)cps[k]);
    return (int)n;
}

/* utf8.char(...) */
static int uchar(lua_State *L)
{
    int n = lua_gettop(L);
    uint32_t small[8];
    uint32_t *cps = n <= 8 ? small : lua_newuserdatauv(L, (size_t)n * sizeof(uint32_t), 0);
    for (int k = 1; k <= n; k++) {
        lua_Unsigned code = (lua_Unsigned)luaL_checkinteger(L, k);
        luaL_argcheck(L, code <= MAXUTF, k, "value out of range");
        cps[k - 1] = (uint32_t)code;
    }
    size_t cap = u8x_encode_bound_in((size_t)n, U8X_DIALECT_LEGACY), done = 0, at = 0;
    luaL_Buffer b;
    uint8_t *out = (uint8_t *)luaL_buffinitsize(L, &b, cap);
    while (at < (size_t)n) {
        struct u8x_result r = u8x_encode(cps + at, (size_t)n - at, out + done, cap - done,
                                         U8X_STRICT | U8X_DIALECT_LEGACY, 0);
        done += r.written;
        at += r.read;
        if (r.status == U8X_OK)
            break;
        /* A surrogate, which the dialect will not write and Lua does. */
        uint32_t c = cps[at++];
        out[done++] = (uint8_t)(0xE0 | (c >> 12));
        out[done++] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        out[done++] = (uint8_t)(0x80 | (c & 0x3F));
    }
    luaL_pushresultsize(&b, done);
    return 1;
}

/* utf8.offset(s, n [, i]): where the n-th character from i starts. Only
 * continuation bytes matter here, as in Lua: no decoding. (s[len] is the
 * NUL every Lua string ends with.) */
static int uoffset(lua_State *L)
{
    size_t len;
    const uint8_t *s = (const uint8_t *)luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    lua_Integer i = absolute(luaL_optinteger(L, 3, n >= 0 ? 1 : (lua_Integer)len + 1), len);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 3, "position out of bounds");
    if (n == 0) {
        while (i > 0 && CONT(s[i]))
            i--;
    } else if (CONT(s[i])) {
        return luaL_error(L, "initial position is a continuation byte");
    } else if (n < 0) {
        for (; n < 0 && i > 0; n++) {
            do
                i--;
            while (i > 0 && CONT(s[i]));
        }
    } else {
        for (n--; n > 0 && i < (lua_Integer)len; n--) {
            do
                i++;
            while (CONT(s[i]));
        }
    }
    if (n != 0) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, i + 1);
    return 1;
}

/* The iterator utf8.codes returns: the character after the one that starts
 * at the control position (continuation bytes skipped, as Lua 5.4.4). */
static int step(lua_State *L, int lax)
{
    size_t len;
    const uint8_t *s = (const uint8_t *)luaL_checklstring(L, 1, &len);
    lua_Unsigned p = (lua_Unsigned)lua_tointeger(L, 2);
    if (p < len) {
        while (CONT(s[p]))
            p++;
    }
    if (p >= len)
        return 0;
    uint32_t cp;
    if (one(s, len, (size_t)p, lax, &cp) == 0)
        return luaL_error(L, INVALID);
    lua_pushinteger(L, (lua_Integer)p + 1);
    lua_pushinteger(L, (lua_Integer)cp);
    return 2;
}

static int step_strict(lua_State *L)
{
    return step(L, 0);
}

static int step_lax(lua_State *L)
{
    return step(L, 1);
}

/* utf8.codes(s [, lax]) */
static int ucodes(lua_State *L)
{
    int lax = lua_toboolean(L, 2);
    luaL_checkstring(L, 1);
    lua_pushcfunction(L, lax ? step_lax : step_strict);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

/* One character: a lead (or ASCII) byte and its continuation bytes. */
static const char CHARPATTERN[] = "[\0-\x7F\xC2-\xFD][\x80-\xBF]*";

static const luaL_Reg functions[] = {
    {"offset", uoffset}, {"codepoint", ucodepoint}, {"char", uchar},
    {"len", ulen},       {"codes", ucodes},         {"charpattern", NULL},
    {NULL, NULL},
};

int luaopen_u8x_utf8(lua_State *L)
{
    luaL_newlib(L, functions);
    lua_pushlstring(L, CHARPATTERN, sizeof CHARPATTERN - 1);
    lua_setfield(L, -2, "charpattern");
    lua_pushstring(L, u8x_version());
    lua_setfield(L, -2, "u8x_version");
    return 1;
}
