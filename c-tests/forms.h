/* Helpers for the tests of the forms (utf16.c, latin1.c, classify.c,
 * forms_args.c, forms_overrun.c): a reference for UTF-16 and Latin-1 both
 * ways and for classification, written here from the Unicode standard
 * (section 3.9, D91: UTF-16; ISO-8859-1 byte b is U+00b) and the contract in
 * u8x.h, on top of the UTF-8 reference in ref.h; byte-order helpers that
 * never depend on the host's order; and a comparison of uint16_t arrays.
 * It shares no code with u8x. Each test first checks the parts it relies on
 * against Python (expected.h). */
#ifndef U8X_FORMS_H
#define U8X_FORMS_H

#include <stdlib.h>

#include "check.h"
#include "ref.h"

/* ---- byte orders ---------------------------------------------------------- */

struct order {
  const char *name;
  uint32_t flag; /* 0 (native), U8X_LITTLE_ENDIAN or U8X_BIG_ENDIAN */
};

static const struct order orders[] = {
    {"native", 0},
    {"LE", U8X_LITTLE_ENDIAN},
    {"BE", U8X_BIG_ENDIAN},
};

static inline int host_is_little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

/* Stores unit values in uint16_t memory as `flag` says: UTF-16LE puts the
 * low byte first, UTF-16BE the high byte, native is a plain store. */
static inline void units_to_order(uint16_t *dst, const uint16_t *values, size_t n, uint32_t flag) {
  size_t i;
  for (i = 0; i < n; i++) {
    uint8_t *p = (uint8_t *)(dst + i);
    uint16_t v = values[i];
    if (flag == U8X_LITTLE_ENDIAN) {
      p[0] = (uint8_t)(v & 0xFF);
      p[1] = (uint8_t)(v >> 8);
    } else if (flag == U8X_BIG_ENDIAN) {
      p[0] = (uint8_t)(v >> 8);
      p[1] = (uint8_t)(v & 0xFF);
    } else {
      dst[i] = v;
    }
  }
}

/* The inverse: unit values from memory in order `flag`. */
static inline void units_from_order(uint16_t *values, const uint16_t *src, size_t n, uint32_t flag) {
  size_t i;
  for (i = 0; i < n; i++) {
    const uint8_t *p = (const uint8_t *)(src + i);
    if (flag == U8X_LITTLE_ENDIAN)
      values[i] = (uint16_t)(p[0] | p[1] << 8);
    else if (flag == U8X_BIG_ENDIAN)
      values[i] = (uint16_t)(p[0] << 8 | p[1]);
    else
      values[i] = src[i];
  }
}

/* ---- uint16_t comparison ---------------------------------------------------- */

static inline void check_dump_u16(const char *name, const uint16_t *p, size_t n) {
  size_t i;
  printf("    %s (%llu units):", name, (unsigned long long)n);
  for (i = 0; i < n && i < 24; i++) printf(" %04X", (unsigned)p[i]);
  printf("%s\n", n > 24 ? " ..." : "");
}

static inline int check_u16s(const uint16_t *a, size_t na, const uint16_t *b, size_t nb, const char *file,
                             int line, const char *ea, const char *eb) {
  char what[400];
  size_t d = 0;
  int ok;
  while (d < na && d < nb && a[d] == b[d]) d++;
  ok = na == nb && d == na;
  snprintf(what, sizeof what, "units %s == %s", ea, eb);
  if (check_record(ok, file, line, what)) {
    printf("    first difference at index %llu\n", (unsigned long long)d);
    check_dump_u16(ea, a + (d > 8 ? d - 8 : 0), na - (d > 8 ? d - 8 : 0));
    check_dump_u16(eb, b + (d > 8 ? d - 8 : 0), nb - (d > 8 ? d - 8 : 0));
  }
  return ok;
}

#define CHECK_U16S(a, na, b, nb) \
  check_u16s((const uint16_t *)(a), (na), (const uint16_t *)(b), (nb), __FILE__, __LINE__, #a, #b)

/* ---- UTF-16 ------------------------------------------------------------------ */

static inline int is_high_surrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
static inline int is_low_surrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

/* D91: a code point below U+10000 is one unit (a lone surrogate too, as
 * U8X_ESCAPE writes them); above, the pair D800 + (v >> 10), DC00 + (v & 3FF)
 * of v = cp - 0x10000. */
static inline size_t ref_put_utf16(uint16_t *p, uint32_t cp) {
  if (cp < 0x10000) {
    p[0] = (uint16_t)cp;
    return 1;
  }
  cp -= 0x10000;
  p[0] = (uint16_t)(0xD800 + (cp >> 10));
  p[1] = (uint16_t)(0xDC00 + (cp & 0x3FF));
  return 2;
}

static inline size_t ref_utf8_len(uint32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

/* u8x_decode_utf16 with unlimited room (unit values): the UTF-8 reference's
 * code points written as UTF-16. out must hold 2 * n units. */
static inline u8x_result ref_decode_utf16(const uint8_t *s, size_t n, uint32_t policy, uint32_t replacement,
                                          int more, uint16_t *out) {
  uint32_t *cps = (uint32_t *)malloc((n + 1) * sizeof *cps);
  u8x_result r = ref_decode(s, n, policy, replacement, more, cps);
  size_t i, w = 0;
  for (i = 0; i < r.written; i++) w += ref_put_utf16(out + w, cps[i]);
  r.written = w;
  free(cps);
  return r;
}

/* What starts at unit i of values[0..n): a pair (2 units, *cp its scalar)
 * or one unit (*cp its value, maybe a lone surrogate). */
static inline size_t ref_next16(const uint16_t *values, size_t n, size_t i, uint32_t *cp) {
  if (is_high_surrogate(values[i]) && i + 1 < n && is_low_surrogate(values[i + 1])) {
    *cp = 0x10000 + ((uint32_t)(values[i] - 0xD800) << 10) + (uint32_t)(values[i + 1] - 0xDC00);
    return 2;
  }
  *cp = values[i];
  return 1;
}

/* The UTF-8 bytes the character at unit i becomes under policy (0 if it
 * stops the encoder); *units gets its length in units. */
static inline size_t ref_char16_bytes(const uint16_t *values, size_t n, size_t i, uint32_t policy,
                                      uint32_t replacement, size_t *units) {
  uint32_t cp;
  *units = ref_next16(values, n, i, &cp);
  if (cp < 0xD800 || cp > 0xDFFF) return ref_utf8_len(cp);
  if (policy == U8X_REPLACE) return ref_utf8_len(replacement);
  if (policy == U8X_ESCAPE && cp >= 0xDC80 && cp <= 0xDCFF) return 1;
  return 0;
}

/* u8x_encode_utf16 with unlimited room, on unit values: a pair is one
 * scalar; an unpaired surrogate goes to the policy. out must hold 4 * n
 * bytes. */
static inline u8x_result ref_encode_utf16(const uint16_t *values, size_t n, uint32_t policy, uint32_t replacement,
                                          int more, uint8_t *out) {
  size_t i = 0, w = 0;
  while (i < n) {
    uint32_t cp;
    size_t len = ref_next16(values, n, i, &cp);
    if (more && i + 1 == n && is_high_surrogate(cp)) return ref_result(U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, i, w, 1);
    if (cp < 0xD800 || cp > 0xDFFF)
      w += ref_put_utf8(out + w, cp);
    else if (policy == U8X_REPLACE)
      w += ref_put_utf8(out + w, replacement);
    else if (policy == U8X_ESCAPE && cp >= 0xDC80 && cp <= 0xDCFF)
      out[w++] = (uint8_t)(cp - 0xDC00);
    else
      return ref_result(U8X_ILL_FORMED, U8X_ERR_SURROGATE, i, w, 1);
    i += len;
  }
  return ref_result(U8X_OK, U8X_ERR_NONE, n, w, 0);
}

/* u8x_validate_utf16 on unit values. */
static inline u8x_result ref_validate_utf16(const uint16_t *values, size_t n, int more) {
  size_t i = 0;
  while (i < n) {
    uint32_t cp;
    size_t len = ref_next16(values, n, i, &cp);
    if (more && i + 1 == n && is_high_surrogate(cp)) return ref_result(U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, i, 0, 1);
    if (cp >= 0xD800 && cp <= 0xDFFF) return ref_result(U8X_ILL_FORMED, U8X_ERR_SURROGATE, i, 0, 1);
    i += len;
  }
  return ref_result(U8X_OK, U8X_ERR_NONE, n, 0, 0);
}

/* Random unit values: ASCII, BMP, pairs, and (if damage > 0, about one in
 * `damage`) unpaired surrogates of every kind, escapes among them. */
static inline void ref_random_units(uint16_t *u, size_t n, unsigned damage, uint32_t *state) {
  size_t i = 0;
  while (i < n) {
    uint32_t r = ref_rand(state) % 16;
    if (damage > 0 && ref_rand(state) % damage == 0) {
      static const uint16_t lone[] = {0xD800, 0xDBFF, 0xDC00, 0xDC7F, 0xDC80, 0xDCC3, 0xDCFF, 0xDD00, 0xDFFF};
      u[i++] = lone[ref_rand(state) % COUNT_OF(lone)];
    } else if (r < 7) {
      u[i++] = (uint16_t)(0x20 + ref_rand(state) % 0x5F);
    } else if (r < 9) {
      u[i++] = (uint16_t)(0x80 + ref_rand(state) % 0x780);
    } else if (r < 12) {
      u[i++] = (uint16_t)(0x800 + ref_rand(state) % (0xD800 - 0x800));
    } else if (r < 13) {
      u[i++] = (uint16_t)(0xE000 + ref_rand(state) % 0x2000);
    } else if (i + 1 < n) {
      uint32_t v = (ref_rand(state) << 4 ^ ref_rand(state)) % 0x100000;
      u[i++] = (uint16_t)(0xD800 + (v >> 10));
      u[i++] = (uint16_t)(0xDC00 + (v & 0x3FF));
    } else {
      u[i++] = 'z';
    }
  }
}

/* ---- Latin-1 ------------------------------------------------------------------- */

/* u8x_decode_latin1 with unlimited room: U8X_STRICT, or U8X_REPLACE with the
 * byte rep. A character above U+00FF is U8X_ERR_NOT_REPRESENTABLE (its
 * length), else as ref_decode. out must hold n bytes. */
static inline u8x_result ref_decode_latin1(const uint8_t *s, size_t n, uint32_t policy, uint8_t rep, int more,
                                           uint8_t *out) {
  size_t i = 0, w = 0;
  while (i < n) {
    struct ref_segment seg = ref_next(s + i, n - i);
    u8x_error kind = seg.error;
    if (seg.kind == REF_CHAR && seg.cp <= 0xFF) {
      out[w++] = (uint8_t)seg.cp;
      i += seg.len;
      continue;
    }
    if (seg.kind == REF_CHAR) kind = U8X_ERR_NOT_REPRESENTABLE;
    if (seg.kind == REF_TRUNCATED && more) return ref_result(U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, i, w, seg.len);
    if (policy == U8X_STRICT) return ref_result(U8X_ILL_FORMED, kind, i, w, seg.len);
    out[w++] = rep;
    i += seg.len;
  }
  return ref_result(U8X_OK, U8X_ERR_NONE, n, w, 0);
}

/* ISO-8859-1 byte b is U+00b: its UTF-8. out must hold 2 * n bytes. */
static inline size_t ref_encode_latin1(const uint8_t *s, size_t n, uint8_t *out) {
  size_t i, w = 0;
  for (i = 0; i < n; i++) w += ref_put_utf8(out + w, s[i]);
  return w;
}

/* ---- classification ------------------------------------------------------------- */

/* u8x_classify: u8x_validate's result, and the widest character, the
 * characters and the UTF-16 units of the well-formed prefix. */
static inline u8x_result ref_classify(const uint8_t *s, size_t n, int more, u8x_classification *info) {
  u8x_result r = ref_validate(s, n, more);
  size_t i = 0;
  uint32_t top = 0;
  info->code_points = 0;
  info->utf16_units = 0;
  while (i < r.read) {
    struct ref_segment seg = ref_next(s + i, r.read - i);
    if (seg.cp > top) top = seg.cp;
    info->code_points++;
    info->utf16_units += seg.cp >= 0x10000 ? 2 : 1;
    i += seg.len;
  }
  info->width = top < 0x80 ? U8X_WIDTH_ASCII : top <= 0xFF ? U8X_WIDTH_LATIN1 : top <= 0xFFFF ? U8X_WIDTH_BMP
                                                                                              : U8X_WIDTH_SUPPLEMENTARY;
  return r;
}

#endif /* U8X_FORMS_H */
