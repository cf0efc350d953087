/* A reference UTF-8 codec for differential tests, written here from RFC 3629,
 * Unicode Table 3-7 and the contract in u8x.h, as plainly as possible: one
 * byte at a time, no cleverness. It shares no code with u8x. decode.c checks
 * it against Python's codec (expected.h) before trusting it.
 */
#ifndef U8X_REF_H
#define U8X_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "u8x.h"

/* Table 3-7: one row per range of lead bytes. */
struct ref_row {
  uint8_t lead_lo, lead_hi; /* lead byte range */
  size_t len;               /* sequence length */
  uint8_t lo2, hi2;         /* allowed second byte */
  u8x_error out_of_range;   /* when the second byte is a continuation byte outside lo2..hi2 */
};

static const struct ref_row ref_table_3_7[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF, U8X_ERR_NONE},      {0xE0, 0xE0, 3, 0xA0, 0xBF, U8X_ERR_OVERLONG},
    {0xE1, 0xEC, 3, 0x80, 0xBF, U8X_ERR_NONE},      {0xED, 0xED, 3, 0x80, 0x9F, U8X_ERR_SURROGATE},
    {0xEE, 0xEF, 3, 0x80, 0xBF, U8X_ERR_NONE},      {0xF0, 0xF0, 4, 0x90, 0xBF, U8X_ERR_OVERLONG},
    {0xF1, 0xF3, 4, 0x80, 0xBF, U8X_ERR_NONE},      {0xF4, 0xF4, 4, 0x80, 0x8F, U8X_ERR_ABOVE_MAX},
};

/* windows-1252 bytes 80..9F, WHATWG index-windows-1252 (the five holes map
 * to the C1 control of the same value). */
static const uint32_t ref_cp1252_80_9f[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

enum ref_kind { REF_CHAR, REF_INVALID, REF_TRUNCATED };

/* What starts at s[0] (n >= 1): a character, a maximal subpart that is
 * ill-formed, or one cut by the end of the input. */
struct ref_segment {
  enum ref_kind kind;
  uint32_t cp;      /* REF_CHAR */
  size_t len;       /* bytes */
  u8x_error error;  /* REF_INVALID */
};

static inline struct ref_segment ref_next(const uint8_t *s, size_t n) {
  struct ref_segment seg;
  const struct ref_row *row = NULL;
  size_t j, k;
  uint8_t b = s[0];
  seg.cp = 0;
  seg.error = U8X_ERR_NONE;
  if (b < 0x80) {
    seg.kind = REF_CHAR;
    seg.cp = b;
    seg.len = 1;
    return seg;
  }
  for (j = 0; j < sizeof ref_table_3_7 / sizeof ref_table_3_7[0]; j++)
    if (b >= ref_table_3_7[j].lead_lo && b <= ref_table_3_7[j].lead_hi) row = &ref_table_3_7[j];
  if (row == NULL) {
    seg.kind = REF_INVALID;
    seg.error = b <= 0xBF ? U8X_ERR_UNEXPECTED_CONTINUATION : U8X_ERR_INVALID_BYTE;
    seg.len = 1;
    return seg;
  }
  seg.cp = b & (row->len == 2 ? 0x1F : row->len == 3 ? 0x0F : 0x07);
  for (k = 1; k < row->len; k++) {
    uint8_t lo = k == 1 ? row->lo2 : 0x80, hi = k == 1 ? row->hi2 : 0xBF;
    if (k == n) {
      seg.kind = REF_TRUNCATED;
      seg.error = U8X_ERR_END_OF_INPUT;
      seg.len = k;
      return seg;
    }
    if (s[k] < lo || s[k] > hi) {
      seg.kind = REF_INVALID;
      seg.error = s[k] >= 0x80 && s[k] <= 0xBF ? row->out_of_range : U8X_ERR_TRUNCATED_SEQUENCE;
      seg.len = k;
      return seg;
    }
    seg.cp = seg.cp << 6 | (s[k] & 0x3Fu);
  }
  seg.kind = REF_CHAR;
  seg.len = row->len;
  return seg;
}

static inline u8x_result ref_result(u8x_status status, u8x_error error, size_t read, size_t written,
                                    size_t error_len) {
  u8x_result r;
  memset(&r, 0, sizeof r);
  r.status = status;
  r.error = error;
  r.read = read;
  r.written = written;
  r.error_len = error_len;
  return r;
}

/* u8x_decode_ucs4 with unlimited room: out must hold n code points. */
static inline u8x_result ref_decode(const uint8_t *s, size_t n, uint32_t policy, uint32_t replacement, int more,
                                    uint32_t *out) {
  size_t i = 0, w = 0, k;
  while (i < n) {
    struct ref_segment seg = ref_next(s + i, n - i);
    if (seg.kind == REF_CHAR) {
      out[w++] = seg.cp;
      i += seg.len;
      continue;
    }
    if (seg.kind == REF_TRUNCATED && more) return ref_result(U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, i, w, seg.len);
    switch (policy) {
      case U8X_STRICT:
        return ref_result(U8X_ILL_FORMED, seg.error, i, w, seg.len);
      case U8X_REPLACE:
        out[w++] = replacement;
        break;
      default:
        for (k = 0; k < seg.len; k++) {
          uint8_t b = s[i + k];
          if (policy == U8X_ESCAPE)
            out[w++] = 0xDC00u + b;
          else if (policy == U8X_CP1252 && b >= 0x80 && b <= 0x9F)
            out[w++] = ref_cp1252_80_9f[b - 0x80];
          else
            out[w++] = b; /* latin1, and cp1252 from A0 on */
        }
    }
    i += seg.len;
  }
  return ref_result(U8X_OK, U8X_ERR_NONE, n, w, 0);
}

/* u8x_validate. */
static inline u8x_result ref_validate(const uint8_t *s, size_t n, int more) {
  size_t i = 0;
  while (i < n) {
    struct ref_segment seg = ref_next(s + i, n - i);
    if (seg.kind == REF_TRUNCATED && more) return ref_result(U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, i, 0, seg.len);
    if (seg.kind != REF_CHAR) return ref_result(U8X_ILL_FORMED, seg.error, i, 0, seg.len);
    i += seg.len;
  }
  return ref_result(U8X_OK, U8X_ERR_NONE, n, 0, 0);
}

/* RFC 3629 section 3: the bytes of scalar value cp. */
static inline size_t ref_put_utf8(uint8_t *p, uint32_t cp) {
  if (cp < 0x80) {
    p[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    p[0] = (uint8_t)(0xC0 | (cp >> 6));
    p[1] = (uint8_t)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    p[0] = (uint8_t)(0xE0 | (cp >> 12));
    p[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    p[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
  }
  p[0] = (uint8_t)(0xF0 | (cp >> 18));
  p[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
  p[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
  p[3] = (uint8_t)(0x80 | (cp & 0x3F));
  return 4;
}

static inline int ref_is_scalar(uint32_t u) { return u <= 0x10FFFF && (u < 0xD800 || u > 0xDFFF); }

/* u8x_encode with unlimited room: out must hold 4 * n bytes. */
static inline u8x_result ref_encode(const uint32_t *units, size_t n, uint32_t policy, uint32_t replacement,
                                    uint8_t *out) {
  size_t i, w = 0;
  for (i = 0; i < n; i++) {
    uint32_t u = units[i];
    if (ref_is_scalar(u))
      w += ref_put_utf8(out + w, u);
    else if (policy == U8X_REPLACE)
      w += ref_put_utf8(out + w, replacement);
    else if (policy == U8X_ESCAPE && u >= 0xDC80 && u <= 0xDCFF)
      out[w++] = (uint8_t)(u - 0xDC00);
    else
      return ref_result(U8X_ILL_FORMED, u <= 0x10FFFF ? U8X_ERR_SURROGATE : U8X_ERR_ABOVE_MAX, i, w, 1);
  }
  return ref_result(U8X_OK, U8X_ERR_NONE, n, w, 0);
}

/* A small deterministic generator (the tests must be reproducible). */
static inline uint32_t ref_rand(uint32_t *state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 16;
}

/* Pieces of text for random long inputs: well-formed characters of every
 * length (Table 3-7 edges included) and damage of every kind. */
static const char *const ref_good_pieces[] = {
    "a", "Zz", " ", "\xC3\xA9", "\xC2\x80", "\xDF\xBF", "\xE2\x82\xAC", "\xE0\xA0\x80", "\xED\x9F\xBF",
    "\xEE\x80\x80", "\xEF\xBF\xBD", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF0\x9F\x98\x80", "\xF3\xBF\xBF\xBF",
    "\xF4\x8F\xBF\xBF"};
static const char *const ref_bad_pieces[] = {
    "\x80", "\xBF", "\xC0", "\xC1", "\xF5", "\xFF", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\xF0\x9F", "\xE0\x9F",
    "\xED\xA0", "\xF0\x8F", "\xF4\x90", "\xE0\x80\x80", "\xED\xBF\xBF", "\xC0\x80", "\xF8\x88\x80\x80\x80"};

/* Fills buf with about len bytes (never more than len) of random text:
 * ASCII runs long enough for vector code, multi-byte characters, and, if
 * damage > 0, one bad piece in about every `damage` pieces. Returns the
 * length. */
static inline size_t ref_random_text(uint8_t *buf, size_t len, unsigned damage, uint32_t *state) {
  size_t n = 0;
  for (;;) {
    const char *piece;
    size_t k;
    if (ref_rand(state) % 4 == 0) { /* an ASCII run */
      size_t run = ref_rand(state) % 90;
      if (n + run > len) break;
      for (k = 0; k < run; k++) buf[n++] = (uint8_t)('a' + ref_rand(state) % 26);
      continue;
    }
    if (damage > 0 && ref_rand(state) % damage == 0)
      piece = ref_bad_pieces[ref_rand(state) % (sizeof ref_bad_pieces / sizeof ref_bad_pieces[0])];
    else
      piece = ref_good_pieces[ref_rand(state) % (sizeof ref_good_pieces / sizeof ref_good_pieces[0])];
    k = strlen(piece);
    if (n + k > len) break;
    memcpy(buf + n, piece, k);
    n += k;
  }
  return n;
}

#endif /* U8X_REF_H */
