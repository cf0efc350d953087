/* u8x_encode and u8x_encoded_len under strict, replace (U+FFFD and a custom
 * scalar) and escape, compared with Python (expected.h) and with the RFC 3629
 * reference encoder in ref.h (every scalar value, long random inputs for
 * the vector code); output full at every capacity never splits a character;
 * the bound helpers, including overflow. */
#include <stdlib.h>

#include "check.h"
#include "expected.h"
#include "ref.h"

enum which { STRICT, REPLACE_FFFD, REPLACE_CUSTOM, ESCAPE };

struct mode {
  const char *name;
  uint32_t policy;
  uint32_t replacement;
  size_t replacement_len; /* UTF-8 length of the replacement */
  enum which which;
};

static const struct mode modes[] = {
    {"strict", U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0, STRICT},
    {"replace U+FFFD", U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 3, REPLACE_FFFD},
    {"replace U+1F4A9", U8X_REPLACE, EXP_CUSTOM_REPLACEMENT, 4, REPLACE_CUSTOM},
    {"escape", U8X_ESCAPE, U8X_REPLACEMENT_CHARACTER, 0, ESCAPE},
};

static int is_scalar(uint32_t u) { return u <= 0x10FFFF && (u < 0xD800 || u > 0xDFFF); }

/* Bytes unit u becomes under mode m (0 if it stops the encoder). */
static size_t unit_len(uint32_t u, const struct mode *m) {
  if (is_scalar(u)) return u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
  if (m->which == ESCAPE) return u >= 0xDC80 && u <= 0xDCFF ? 1 : 0;
  return m->replacement_len;
}

/* Expected: output bytes, index of the stopping unit (len if none), kind. */
static exp_bytes want_bytes(const exp_encode *c, const struct mode *m, size_t *stop, u8x_error *kind) {
  switch (m->which) {
    case STRICT:
      *stop = c->strict_stop;
      *kind = c->strict_kind;
      return c->strict;
    case ESCAPE:
      *stop = c->escape_stop;
      *kind = c->escape_kind;
      return c->escape;
    case REPLACE_FFFD:
      *stop = c->len;
      *kind = U8X_ERR_NONE;
      return c->replace;
    default:
      *stop = c->len;
      *kind = U8X_ERR_NONE;
      return c->custom;
  }
}

/* What encoding some units under one mode must give. */
struct want {
  const char *name;
  const uint32_t *units;
  size_t len;
  exp_bytes out; /* the bytes written */
  size_t stop;   /* the index of the unit that stops the encoder, or len */
  u8x_error kind;
};

static void check_full_result(u8x_result r, const struct want *c, size_t stop, u8x_error kind, size_t written) {
  if (stop < c->len)
    CHECK_RESULT(r, U8X_ILL_FORMED, kind, stop, written, 1);
  else
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, c->len, written, 0);
}

/* Checks one encoding: with room, measuring, and at each capacity in
 * caps[0..n_caps) (every capacity 0..size+1 if caps is NULL). */
static void check_encoding(const struct want *c, const struct mode *m, const size_t *caps, size_t n_caps) {
  size_t stop = c->stop, cap, i, ci;
  u8x_error kind = c->kind;
  exp_bytes want = c->out;
  size_t room = want.len + 16;
  uint8_t *dst, *got = (uint8_t *)malloc(want.len + 1);
  u8x_result r;
  for (ci = 0; caps && ci < n_caps; ci++)
    if (caps[ci] + 1 > room) room = caps[ci] + 1;
  dst = (uint8_t *)malloc(room);

  check_context("%s, %s, whole", c->name, m->name);
  memset(dst, 0xA5, want.len + 16);
  r = u8x_encode(c->units, c->len, dst, want.len + 8, m->policy, m->replacement);
  check_full_result(r, c, stop, kind, want.len);
  CHECK_BYTES(dst, r.written, want.bytes, want.len);
  CHECK_EQ(dst[want.len + 8], 0xA5);
  CHECK(want.len <= u8x_encode_bound(c->len));

  check_context("%s, %s, measuring", c->name, m->name);
  check_full_result(u8x_encoded_len(c->units, c->len, m->policy, m->replacement), c, stop, kind, want.len);
  check_full_result(u8x_encode(c->units, c->len, NULL, 0, m->policy, m->replacement), c, stop, kind, want.len);

  /* every capacity from 0: resume from src + read until done, or until a
   * character larger than the capacity blocks the way */
  for (ci = 0; caps ? ci < n_caps : ci <= want.len + 1; ci++) {
    size_t off = 0, got_len = 0, calls = 0;
    cap = caps ? caps[ci] : ci;
    int stuck = 0;
    check_context("%s, %s, capacity %u", c->name, m->name, (unsigned)cap);
    for (;;) {
      memset(dst, 0xA5, cap + 1);
      r = u8x_encode(c->len > off ? c->units + off : NULL, c->len - off, dst, cap, m->policy, m->replacement);
      CHECK_EQ(dst[cap], 0xA5); /* nothing past the capacity */
      if (!CHECK(r.written <= cap && off + r.read <= c->len && got_len + r.written <= want.len)) break;
      memcpy(got + got_len, dst, r.written);
      /* whole characters only: the bytes so far are exactly those of the
       * units consumed so far */
      {
        size_t expect_written = 0;
        for (i = off; i < off + r.read; i++) expect_written += unit_len(c->units[i], m);
        CHECK_EQ(r.written, expect_written);
      }
      got_len += r.written;
      off += r.read;
      if (r.status != U8X_OUTPUT_FULL) break;
      /* full: the next unit's bytes do not fit in what is left */
      CHECK(off < c->len && cap - r.written < unit_len(c->units[off], m));
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(r.error_len, 0);
      if (r.read == 0) {
        stuck = 1; /* the next character is longer than cap */
        CHECK_EQ(r.written, 0);
        break;
      }
      if (++calls > c->len + 1) {
        CHECK(!"no progress");
        break;
      }
    }
    if (stuck) {
      CHECK(cap < 4);
      CHECK_BYTES(got, got_len, want.bytes, got_len < want.len ? got_len : want.len);
    } else if (stop < c->len) {
      CHECK_EQ(r.status, U8X_ILL_FORMED);
      CHECK_EQ(r.error, kind);
      CHECK_EQ(r.error_len, 1);
      CHECK_EQ(off, stop);
      CHECK_BYTES(got, got_len, want.bytes, want.len);
    } else {
      CHECK_EQ(r.status, U8X_OK);
      CHECK_EQ(off, c->len);
      CHECK_BYTES(got, got_len, want.bytes, want.len);
    }
  }
  check_context("%s", "");
  free(dst);
  free(got);
}

static void one_case(const exp_encode *e, const struct mode *m) {
  struct want w;
  w.name = e->name;
  w.units = e->units;
  w.len = e->len;
  w.out = want_bytes(e, m, &w.stop, &w.kind);
  check_encoding(&w, m, NULL, 0);
}

static void cases(void) {
  size_t i, j;
  for (i = 0; i < EXP_ENCODE_CASES; i++) {
    for (j = 0; j < COUNT_OF(modes); j++) one_case(&exp_encode_cases[i], &modes[j]);
    printf("%-16s %2u units: every policy and capacity\n", exp_encode_cases[i].name, (unsigned)exp_encode_cases[i].len);
  }
}

/* Every scalar value at once, against the reference; every surrogate and
 * some values above U+10FFFF one by one. */
static void all_units(void) {
  uint32_t *units = (uint32_t *)malloc(0x110000 * sizeof *units);
  uint8_t *want = (uint8_t *)malloc(4 * 0x110000);
  uint8_t *got = (uint8_t *)malloc(4 * 0x110000);
  size_t n = 0, bytes = 0, j;
  uint32_t u;
  static const uint32_t above[] = {0x110000, 0x1FFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF};
  for (u = 0; u <= 0x10FFFF; u++) {
    if (u == 0xD800) u = 0xE000;
    units[n++] = u;
    bytes += ref_put_utf8(want + bytes, u);
  }
  for (j = 0; j < COUNT_OF(modes); j++) {
    u8x_result r;
    check_context("all scalars, %s", modes[j].name);
    r = u8x_encode(units, n, got, 4 * 0x110000, modes[j].policy, modes[j].replacement);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, bytes, 0);
    CHECK_BYTES(got, r.written, want, bytes);
    CHECK_RESULT(u8x_encoded_len(units, n, modes[j].policy, modes[j].replacement), U8X_OK, U8X_ERR_NONE, n,
                 bytes, 0);
  }
  printf("all %u scalar values encode as RFC 3629 says (%u bytes)\n", (unsigned)n, (unsigned)bytes);

  for (u = 0xD800; u <= 0xDFFF; u++) {
    uint32_t one[2];
    uint8_t out[8] = {0};
    one[0] = 'x';
    one[1] = u;
    check_context("surrogate 0x%lX", (unsigned long)u);
    CHECK_RESULT(u8x_encode(one, 2, out, 8, U8X_STRICT, 0), U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 1, 1);
    CHECK_RESULT(u8x_encoded_len(one, 2, U8X_STRICT, 0), U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 1, 1);
    CHECK_RESULT(u8x_encode(one, 2, out, 8, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER), U8X_OK, U8X_ERR_NONE, 2, 4, 0);
    CHECK_BYTES(out, 4, "x\xEF\xBF\xBD", 4);
    if (u >= 0xDC80 && u <= 0xDCFF) {
      CHECK_RESULT(u8x_encode(one, 2, out, 8, U8X_ESCAPE, 0), U8X_OK, U8X_ERR_NONE, 2, 2, 0);
      CHECK_EQ(out[1], u - 0xDC00);
    } else {
      CHECK_RESULT(u8x_encode(one, 2, out, 8, U8X_ESCAPE, 0), U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 1, 1);
    }
  }
  for (j = 0; j < COUNT_OF(above); j++) {
    uint8_t out[8];
    check_context("above max 0x%lX", (unsigned long)above[j]);
    CHECK_RESULT(u8x_encode(&above[j], 1, out, 8, U8X_STRICT, 0), U8X_ILL_FORMED, U8X_ERR_ABOVE_MAX, 0, 0, 1);
    CHECK_RESULT(u8x_encode(&above[j], 1, out, 8, U8X_ESCAPE, 0), U8X_ILL_FORMED, U8X_ERR_ABOVE_MAX, 0, 0, 1);
    CHECK_RESULT(u8x_encode(&above[j], 1, out, 8, U8X_REPLACE, '?'), U8X_OK, U8X_ERR_NONE, 1, 1, 0);
    CHECK_EQ(out[0], '?');
  }
  /* the replacement may be U+0000 */
  {
    static const uint32_t in[] = {'a', 0xDFFF, 'b'};
    uint8_t out[4];
    CHECK_RESULT(u8x_encode(in, 3, out, 4, U8X_REPLACE, 0), U8X_OK, U8X_ERR_NONE, 3, 3, 0);
    CHECK_BYTES(out, 3, "a\0b", 3);
  }
  check_context("%s", "");
  free(units);
  free(want);
  free(got);
}

/* Long random inputs (the vector code): runs of scalar values of every
 * length with, in most, a few surrogates and values above U+10FFFF. */
static void long_inputs(void) {
  static const size_t caps[] = {0, 1, 3, 4, 5, 63, 64, 65, 200};
  static const uint32_t invalid[] = {0xD800, 0xDBFF, 0xDC00, 0xDC80, 0xDCC3, 0xDCFF, 0xDFFF, 0x110000, 0xFFFFFFFF};
  uint32_t state = 31337;
  unsigned t;
  for (t = 0; t < 80; t++) {
    size_t n = ref_rand(&state) % 900, i, j;
    uint32_t *units = (uint32_t *)malloc((n + 1) * sizeof *units);
    uint8_t *bytes = (uint8_t *)malloc(4 * n + 1);
    char name[32];
    for (i = 0; i < n; i++) {
      uint32_t r = ref_rand(&state) % 16;
      if (t % 4 != 0 && ref_rand(&state) % (8 + t) == 0)
        units[i] = invalid[ref_rand(&state) % COUNT_OF(invalid)];
      else if (r < 8)
        units[i] = 0x20 + ref_rand(&state) % 0x5F; /* ASCII, mostly */
      else if (r < 10)
        units[i] = 0x80 + ref_rand(&state) % 0x780;
      else if (r < 13)
        units[i] = 0x800 + ref_rand(&state) % 0xD000; /* below the surrogates */
      else if (r < 14)
        units[i] = 0xE000 + ref_rand(&state) % 0x2000;
      else
        units[i] = 0x10000 + (ref_rand(&state) << 4 ^ ref_rand(&state)) % 0x100000;
    }
    sprintf(name, "random units #%u", t);
    for (j = 0; j < COUNT_OF(modes); j++) {
      struct want w;
      u8x_result r = ref_encode(units, n, modes[j].policy, modes[j].replacement, bytes);
      w.name = name;
      w.units = units;
      w.len = n;
      w.out.bytes = bytes;
      w.out.len = r.written;
      w.stop = r.status == U8X_ILL_FORMED ? r.read : n;
      w.kind = r.error;
      check_encoding(&w, &modes[j], caps, COUNT_OF(caps));
    }
    free(units);
    free(bytes);
  }
  printf("long inputs: 80 random unit strings, every policy\n");
}

static void bounds(void) {
  CHECK_EQ(U8X_BAD_SIZE, SIZE_MAX);
  CHECK_EQ(u8x_encode_bound(0), 0);
  CHECK_EQ(u8x_encode_bound(1), 4);
  CHECK_EQ(u8x_encode_bound(1000), 4000);
  CHECK_EQ(u8x_encode_bound(SIZE_MAX / 4), SIZE_MAX / 4 * 4);
  CHECK_EQ(u8x_encode_bound(SIZE_MAX / 4 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_bound(SIZE_MAX / 2), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_bound(SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_decode_ucs4_bound(0), 0);
  CHECK_EQ(u8x_decode_ucs4_bound(1), 1);
  CHECK_EQ(u8x_decode_ucs4_bound(12345), 12345);
  CHECK_EQ(u8x_decode_ucs4_bound(SIZE_MAX), SIZE_MAX);
  printf("bounds: 4 bytes per unit, U8X_BAD_SIZE on overflow\n");
}

int main(void) {
  check_begin("encode");
  CHECK_RESULT(u8x_encode(NULL, 0, NULL, 0, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encoded_len(NULL, 0, U8X_ESCAPE, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  cases();
  all_units();
  long_inputs();
  bounds();
  return check_done();
}
