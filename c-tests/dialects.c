/* The dialects through the C ABI: a u8x_dialect OR-ed into the policy of
 * u8x_decode_ucs4, u8x_count, u8x_decode_utf16, u8x_encode and
 * u8x_encode_utf16, into the flags of u8x_validate, and the argument of
 * u8x_next_boundary_in, u8x_prev_boundary_in and u8x_encode_bound_in.
 * Known answers: JNI's Modified UTF-8 (the JNI specification's encoding of
 * U+0000 and of supplementary characters), CESU-8 (TR #26's example
 * U+10400 = ED A0 81 ED B0 80), RFC 2044's table rows, WTF-8 lone
 * surrogates. Then every UTF-16 string of one unit and every pair of a
 * surrogate and a unit through WTF-8 and back, at every output capacity;
 * unknown dialects and Latin-1 with a dialect refused. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t dialects[] = {U8X_DIALECT_STANDARD, U8X_DIALECT_LEGACY, U8X_DIALECT_CESU8,
                                    U8X_DIALECT_MUTF8,    U8X_DIALECT_WTF8,   U8X_DIALECT_GENERALIZED};

static void jni_modified_utf8(void) {
  /* "a", U+0000, U+00E9, U+10400 in UTF-16, as Java holds it */
  static const uint16_t java[] = {0x61, 0x0000, 0x00E9, 0xD801, 0xDC00};
  static const uint8_t mutf8[] = {0x61, 0xC0, 0x80, 0xC3, 0xA9, 0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80};
  uint8_t out[32];
  uint16_t back[16];
  size_t cap;
  u8x_result r = u8x_encode_utf16(java, N(java), out, sizeof out, U8X_STRICT | U8X_DIALECT_MUTF8, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, N(java), sizeof mutf8, 0);
  CHECK_BYTES(out, r.written, mutf8, sizeof mutf8);
  r = u8x_encode_utf16(java, N(java), NULL, 0, U8X_STRICT | U8X_DIALECT_MUTF8, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, N(java), sizeof mutf8, 0);
  r = u8x_decode_utf16(mutf8, sizeof mutf8, back, N(back), U8X_STRICT | U8X_DIALECT_MUTF8, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, sizeof mutf8, N(java), 0);
  CHECK(memcmp(back, java, sizeof java) == 0);
  /* Never half a pair: at capacity 4 the pair does not fit. */
  r = u8x_decode_utf16(mutf8, sizeof mutf8, back, 4, U8X_STRICT | U8X_DIALECT_MUTF8, 0, 0);
  CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 5, 3, 0);
  /* Never a character cut: every capacity gives a prefix of whole ones. */
  for (cap = 0; cap < sizeof mutf8; cap++) {
    r = u8x_encode_utf16(java, N(java), out, cap, U8X_STRICT | U8X_DIALECT_MUTF8, 0, 0);
    CHECK_EQ(r.status, U8X_OUTPUT_FULL);
    CHECK(r.written <= cap);
    CHECK(memcmp(out, mutf8, r.written) == 0);
  }
  /* The byte 00 and a 4-byte form are not Modified UTF-8. */
  r = u8x_validate((const uint8_t *)"a\0b", 3, U8X_DIALECT_MUTF8);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_INVALID_BYTE, 1, 0, 1);
  r = u8x_validate((const uint8_t *)"\xF0\x90\x90\x80", 4, U8X_DIALECT_MUTF8);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_INVALID_BYTE, 0, 0, 1);
  r = u8x_validate(mutf8, sizeof mutf8, U8X_DIALECT_MUTF8);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, sizeof mutf8, 0, 0);
  r = u8x_validate(mutf8, sizeof mutf8, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_INVALID_BYTE, 1, 0, 1);
}

static void cesu8(void) {
  static const uint8_t pair[] = {0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80}; /* U+10400, TR #26 */
  static const uint32_t cp = 0x10400;
  uint32_t cps[8];
  uint8_t out[8];
  size_t i;
  u8x_result r = u8x_decode_ucs4(pair, sizeof pair, cps, N(cps), U8X_STRICT | U8X_DIALECT_CESU8, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 6, 1, 0);
  CHECK_EQ(cps[0], 0x10400);
  r = u8x_encode(&cp, 1, out, sizeof out, U8X_STRICT | U8X_DIALECT_CESU8, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 1, 6, 0);
  CHECK_BYTES(out, r.written, pair, sizeof pair);
  /* u8x_encode_bound is 4 a code point: too little here, and the call
   * says so instead of writing past it. */
  r = u8x_encode(&cp, 1, out, u8x_encode_bound(1), U8X_STRICT | U8X_DIALECT_CESU8, 0);
  CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(u8x_encode_bound_in(1, U8X_DIALECT_CESU8), 6);
  CHECK_EQ(u8x_encode_bound_in(1, U8X_DIALECT_WTF8), 4);
  CHECK_EQ(u8x_encode_bound_in(SIZE_MAX / 5, U8X_DIALECT_LEGACY), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_bound_in(1, 0x600), U8X_BAD_SIZE);
  /* Streaming: the pair in chunks of one byte. */
  {
    size_t have = 0, done = 0, written = 0;
    uint8_t buf[8];
    for (i = 0; i < sizeof pair; i++) {
      buf[have++] = pair[i];
      r = u8x_decode_ucs4(buf, have, cps + written, N(cps) - written, U8X_STRICT | U8X_DIALECT_CESU8, 0,
                          i + 1 < sizeof pair ? U8X_MORE_INPUT : 0);
      written += r.written;
      done += r.read;
      memmove(buf, buf + r.read, have - r.read);
      have -= r.read;
      CHECK_EQ(r.status, i + 1 < sizeof pair ? U8X_INCOMPLETE : U8X_OK);
    }
    CHECK_EQ(written, 1);
    CHECK_EQ(done, 6);
    CHECK_EQ(cps[0], 0x10400);
  }
  /* Boundaries: not between the halves. */
  for (i = 1; i < sizeof pair; i++) {
    CHECK_EQ(u8x_next_boundary_in(pair, sizeof pair, i, U8X_DIALECT_CESU8), 6);
    CHECK_EQ(u8x_prev_boundary_in(pair, sizeof pair, i, U8X_DIALECT_CESU8), 0);
  }
  CHECK_EQ(u8x_next_boundary_in(pair, sizeof pair, 3, U8X_DIALECT_GENERALIZED), 3);
  CHECK_EQ(u8x_next_boundary_in(pair, sizeof pair, 7, U8X_DIALECT_CESU8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary_in(NULL, 1, 0, U8X_DIALECT_CESU8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary_in(pair, sizeof pair, 0, 0x700), U8X_BAD_SIZE);
  /* A lone high surrogate: one U+FFFD for its 3 bytes under replace. */
  r = u8x_decode_ucs4(pair, 3, cps, N(cps), U8X_REPLACE | U8X_DIALECT_CESU8, 0xFFFD, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 3, 1, 0);
  CHECK_EQ(cps[0], 0xFFFD);
  r = u8x_count(pair, 3, U8X_STRICT | U8X_DIALECT_CESU8, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, 0, 0, 3);
}

static void legacy(void) {
  static const struct {
    uint32_t value;
    uint8_t len;
    uint8_t bytes[6];
  } rows[] = {
      {0x7F, 1, {0x7F}},
      {0x80, 2, {0xC2, 0x80}},
      {0x7FF, 2, {0xDF, 0xBF}},
      {0x800, 3, {0xE0, 0xA0, 0x80}},
      {0xFFFF, 3, {0xEF, 0xBF, 0xBF}},
      {0x10000, 4, {0xF0, 0x90, 0x80, 0x80}},
      {0x1FFFFF, 4, {0xF7, 0xBF, 0xBF, 0xBF}},
      {0x200000, 5, {0xF8, 0x88, 0x80, 0x80, 0x80}},
      {0x3FFFFFF, 5, {0xFB, 0xBF, 0xBF, 0xBF, 0xBF}},
      {0x4000000, 6, {0xFC, 0x84, 0x80, 0x80, 0x80, 0x80}},
      {0x7FFFFFFF, 6, {0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF}},
  };
  size_t i;
  for (i = 0; i < N(rows); i++) {
    uint32_t cp = 0;
    uint8_t out[8];
    u8x_result r;
    check_context("legacy row %lX", (unsigned long)rows[i].value);
    r = u8x_decode_ucs4(rows[i].bytes, rows[i].len, &cp, 1, U8X_STRICT | U8X_DIALECT_LEGACY, 0, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, rows[i].len, 1, 0);
    CHECK_EQ(cp, rows[i].value);
    r = u8x_encode(&rows[i].value, 1, out, sizeof out, U8X_STRICT | U8X_DIALECT_LEGACY, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 1, rows[i].len, 0);
    CHECK_BYTES(out, r.written, rows[i].bytes, rows[i].len);
    /* Cut by the end with more input to come: all but the lead waits. */
    if (rows[i].len > 1) {
      r = u8x_decode_ucs4(rows[i].bytes, rows[i].len - 1u, &cp, 1, U8X_STRICT | U8X_DIALECT_LEGACY, 0,
                          U8X_MORE_INPUT);
      CHECK_RESULT(r, U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 0, 0, rows[i].len - 1u);
    }
    /* Standard UTF-8 refuses what is above U+10FFFF. */
    CHECK_EQ(u8x_validate(rows[i].bytes, rows[i].len, 0).status,
             rows[i].value > 0x10FFFF ? U8X_ILL_FORMED : U8X_OK);
  }
  check_context("legacy");
  {
    /* An overlong 6-byte form, and a value with no UTF-16 form. */
    static const uint8_t overlong[] = {0xFC, 0x80, 0x80, 0x80, 0x80, 0xAF};
    uint16_t units[4];
    u8x_result r = u8x_validate(overlong, sizeof overlong, U8X_DIALECT_LEGACY);
    CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_OVERLONG, 0, 0, 1);
    r = u8x_decode_utf16(rows[7].bytes, rows[7].len, units, N(units), U8X_STRICT | U8X_DIALECT_LEGACY, 0, 0);
    CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_NOT_REPRESENTABLE, 0, 0, 5);
    r = u8x_decode_utf16(rows[7].bytes, rows[7].len, units, N(units), U8X_REPLACE | U8X_DIALECT_LEGACY,
                         0xFFFD, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 5, 1, 0);
    CHECK_EQ(units[0], 0xFFFD);
  }
}

/* Every UTF-16 string of one unit, and each unit followed by each of the
 * units at the edges of every class, through WTF-8 and back unchanged.
 * (tests/dialects.rs takes every string of two units, in batches; here the
 * point is the C ABI.) Under valgrind, every 7th first unit. */
static void wtf8_round_trips(void) {
  static const uint32_t edges[] = {0,      0x41,   0x7F,   0x80,   0x7FF,  0x800,  0xD7FF, 0xD800,
                                   0xD801, 0xDBFE, 0xDBFF, 0xDC00, 0xDC01, 0xDFFE, 0xDFFF, 0xE000,
                                   0xFFFD, 0xFFFF, 0x10000 /* none: a one-unit string */};
  const char *preload = getenv("LD_PRELOAD");
  const uint32_t step = preload != NULL && strstr(preload, "vgpreload") != NULL ? 7 : 1;
  uint16_t src[2];
  uint8_t bytes[8];
  uint16_t back[4];
  uint32_t first;
  size_t e;
  unsigned long bad = 0, tried = 0;
  for (first = 0; first <= 0xFFFF; first += step) {
    for (e = 0; e < N(edges); e++) {
      size_t n = edges[e] == 0x10000 ? 1 : 2;
      u8x_result r, q;
      src[0] = (uint16_t)first;
      src[1] = (uint16_t)edges[e];
      r = u8x_encode_utf16(src, n, bytes, sizeof bytes, U8X_STRICT | U8X_DIALECT_WTF8, 0, 0);
      q = u8x_decode_utf16(bytes, r.written, back, N(back), U8X_STRICT | U8X_DIALECT_WTF8, 0, 0);
      tried++;
      if (r.status != U8X_OK || q.status != U8X_OK || q.written != n || memcmp(back, src, n * 2) != 0) {
        if (bad++ < 5) printf("    WTF-8 round trip of %04lX %04lX fails\n", (unsigned long)first, (unsigned long)edges[e]);
      }
    }
  }
  CHECK(tried > 100000);
  CHECK_EQ(bad, 0);
}

static void bad_arguments(void) {
  static const uint8_t a[] = {0x61};
  uint32_t cp;
  uint8_t b;
  size_t d;
  for (d = 0; d < N(dialects); d++) {
    check_context("dialect %lX", (unsigned long)dialects[d]);
    CHECK_EQ(u8x_validate(a, 1, dialects[d]).status, U8X_OK);
    CHECK_EQ(u8x_count(a, 1, U8X_REPLACE | dialects[d], 0).written, 1);
    /* Latin-1 decoding is RFC 3629 only. */
    CHECK_EQ(u8x_decode_latin1(a, 1, &b, 1, U8X_STRICT | dialects[d], 0, 0).status,
             dialects[d] ? U8X_BAD_ARGUMENT : U8X_OK);
  }
  check_context("unknown dialects");
  CHECK_EQ(u8x_validate(a, 1, 0x600).status, U8X_BAD_ARGUMENT);
  CHECK_EQ(u8x_validate(a, 1, 0xFF00).status, U8X_BAD_ARGUMENT);
  CHECK_EQ(u8x_decode_ucs4(a, 1, &cp, 1, U8X_STRICT | 0x800, 0, 0).status, U8X_BAD_ARGUMENT);
  CHECK_EQ(u8x_decode_ucs4(a, 1, &cp, 1, U8X_STRICT | 0x10000, 0, 0).status, U8X_BAD_ARGUMENT);
  CHECK_EQ(u8x_encode(&cp, 0, &b, 1, U8X_STRICT | 0x600, 0).status, U8X_BAD_ARGUMENT);
  /* The dialect goes in the policy, not the flags, of a conversion. */
  CHECK_EQ(u8x_decode_ucs4(a, 1, &cp, 1, U8X_STRICT, 0, U8X_DIALECT_CESU8).status, U8X_BAD_ARGUMENT);
}

int main(void) {
  check_begin("dialects");
  jni_modified_utf8();
  cesu8();
  legacy();
  wtf8_round_trips();
  bad_arguments();
  return check_done();
}
