/* Worked examples from the seed documents (../shared/seeds/), byte for
 * byte, the RFC 3629 dangers, and every row of Unicode Table 3-7: its first
 * and last values and the bytes just outside its ranges. */
#include "check.h"

struct example {
  const char *what;
  const uint32_t cps[12];
  size_t n_cps;
  const char *bytes;
  size_t n_bytes;
};

#define EX(what, bytes, ...) \
  { what, {__VA_ARGS__}, sizeof((uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t), bytes, sizeof(bytes) - 1 }

static const struct example examples[] = {
    /* 000: RFC 2044 section 3 (French translation), its three examples */
    EX("RFC 2044: A<NOT IDENTICAL TO><ALPHA>.", "\x41\xE2\x89\xA2\xCE\x91\x2E", 0x0041, 0x2262, 0x0391, 0x002E),
    EX("RFC 2044: Hi Mom <WHITE SMILING FACE>!", "\x48\x69\x20\x4D\x6F\x6D\x20\xE2\x98\xBA\x21", 0x0048, 0x0069,
       0x0020, 0x004D, 0x006F, 0x006D, 0x0020, 0x263A, 0x0021),
    EX("RFC 2044: nihongo", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 0x65E5, 0x672C, 0x8A9E),
    /* RFC 3629 section 7 (not in the seeds): Korean "hangugeo" */
    EX("RFC 3629: hangugeo", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4", 0xD55C, 0xAD6D, 0xC5B4),
    /* 001: the encyclopedia's table and the replacement character */
    EX("$ U+0024", "\x24", 0x24),
    EX("cent U+00A2", "\xC2\xA2", 0xA2),
    EX("euro U+20AC", "\xE2\x82\xAC", 0x20AC),
    EX("hwair U+10348", "\xF0\x90\x8D\x88", 0x10348),
    EX("replacement U+FFFD", "\xEF\xBF\xBD", 0xFFFD),
    /* 002: utf-8(7) */
    EX("copyright U+00A9", "\xC2\xA9", 0xA9),
    EX("not equal U+2260", "\xE2\x89\xA0", 0x2260),
    /* 003: RFC 3629 section 3 (Chinese translation) */
    EX("A U+0041", "\x41", 0x41),
    EX("ni U+4F60", "\xE4\xBD\xA0", 0x4F60),
};

static void worked_examples(void) {
  size_t i;
  for (i = 0; i < COUNT_OF(examples); i++) {
    const struct example *e = &examples[i];
    uint8_t bytes[64];
    uint32_t cps[64];
    u8x_result r;
    check_context("%s", e->what);
    r = u8x_encode(e->cps, e->n_cps, bytes, sizeof bytes, U8X_STRICT, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, e->n_cps, e->n_bytes, 0);
    CHECK_BYTES(bytes, r.written, e->bytes, e->n_bytes);
    CHECK_RESULT(u8x_encoded_len(e->cps, e->n_cps, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, e->n_cps, e->n_bytes, 0);
    CHECK_RESULT(u8x_validate((const uint8_t *)e->bytes, e->n_bytes, 0), U8X_OK, U8X_ERR_NONE, e->n_bytes, 0, 0);
    r = u8x_decode_ucs4((const uint8_t *)e->bytes, e->n_bytes, cps, 64, U8X_STRICT, 0, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, e->n_bytes, e->n_cps, 0);
    CHECK_U32S(cps, r.written, e->cps, e->n_cps);
    CHECK_RESULT(u8x_count((const uint8_t *)e->bytes, e->n_bytes, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE,
                 e->n_bytes, e->n_cps, 0);
    printf("  %-40s %u code points = %u bytes\n", e->what, (unsigned)e->n_cps, (unsigned)e->n_bytes);
  }
  check_context("%s", "");
}

/* Sequences a naive decoder turns into something, with the first maximal
 * subpart (Table 3-7) and the number of U+FFFD (one per maximal subpart). */
struct danger {
  const char *what;
  const char *bytes;
  size_t n;
  u8x_error kind;
  size_t error_len;
  size_t n_fffd;
  uint32_t naive; /* what a naive decoder makes of it: must never appear */
};

static const struct danger dangers[] = {
    /* RFC 3629 section 10 / seed 003 */
    {"C0 80 (overlong U+0000)", "\xC0\x80", 2, U8X_ERR_INVALID_BYTE, 1, 2, 0x0000},
    {"ED A1 8C ED BE B4 (surrogates for U+233B4)", "\xED\xA1\x8C\xED\xBE\xB4", 6, U8X_ERR_SURROGATE, 1, 6,
     0x233B4},
    /* seed 001: the euro sign padded to four bytes */
    {"F0 82 82 AC (overlong euro)", "\xF0\x82\x82\xAC", 4, U8X_ERR_OVERLONG, 1, 4, 0x20AC},
    /* seed 002: the old 5- and 6-byte forms, and FE/FF */
    {"F8 88 80 80 80 (5-byte U+200000)", "\xF8\x88\x80\x80\x80", 5, U8X_ERR_INVALID_BYTE, 1, 5, 0x200000},
    {"FC 84 80 80 80 80 (6-byte U+4000000)", "\xFC\x84\x80\x80\x80\x80", 6, U8X_ERR_INVALID_BYTE, 1, 6, 0x4000000},
    {"FE FF", "\xFE\xFF", 2, U8X_ERR_INVALID_BYTE, 1, 2, 0xFEFF},
    {"F4 90 80 80 (U+110000)", "\xF4\x90\x80\x80", 4, U8X_ERR_ABOVE_MAX, 1, 4, 0x110000},
    {"ED A0 80 (lone surrogate U+D800)", "\xED\xA0\x80", 3, U8X_ERR_SURROGATE, 1, 3, 0xD800},
    {"E2 82 (truncated euro)", "\xE2\x82", 2, U8X_ERR_END_OF_INPUT, 2, 1, 0x20AC},
};

static void rfc3629_dangers(void) {
  static const uint32_t policies[] = {U8X_STRICT, U8X_REPLACE, U8X_ESCAPE, U8X_LATIN1, U8X_CP1252};
  size_t i, j, k;
  for (i = 0; i < COUNT_OF(dangers); i++) {
    const struct danger *d = &dangers[i];
    const uint8_t *s = (const uint8_t *)d->bytes;
    uint32_t out[16];
    u8x_result r;
    check_context("%s", d->what);
    CHECK_RESULT(u8x_validate(s, d->n, 0), U8X_ILL_FORMED, d->kind, 0, 0, d->error_len);
    CHECK_RESULT(u8x_decode_ucs4(s, d->n, out, 16, U8X_STRICT, 0, 0), U8X_ILL_FORMED, d->kind, 0, 0, d->error_len);
    r = u8x_decode_ucs4(s, d->n, out, 16, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, d->n, d->n_fffd, 0);
    for (k = 0; k < r.written && k < 16; k++) CHECK_EQ(out[k], 0xFFFD);
    /* after "x": the offset moves, the rest does not */
    {
      uint8_t t[16];
      t[0] = 'x';
      memcpy(t + 1, s, d->n);
      CHECK_RESULT(u8x_validate(t, d->n + 1, 0), U8X_ILL_FORMED, d->kind, 1, 0, d->error_len);
      CHECK_RESULT(u8x_decode_ucs4(t, d->n + 1, out, 16, U8X_STRICT, 0, 0), U8X_ILL_FORMED, d->kind, 1, 1,
                   d->error_len);
      CHECK_EQ(out[0], 'x');
    }
    /* no policy lets the naive value through */
    for (j = 0; j < COUNT_OF(policies); j++) {
      r = u8x_decode_ucs4(s, d->n, out, 16, policies[j], U8X_REPLACEMENT_CHARACTER, 0);
      for (k = 0; k < r.written && k < 16; k++) CHECK(out[k] != d->naive);
    }
    printf("  rejected: %s (%s, %u-byte maximal subpart, %u x U+FFFD)\n", d->what, u8x_error_name(d->kind),
           (unsigned)d->error_len, (unsigned)d->n_fffd);
  }
  check_context("%s", "");
}

/* Unicode Table 3-7, row by row. */
struct miss {
  uint8_t b[4];
  size_t n;
  u8x_error kind;
  size_t error_len;
};

struct table_row {
  const char *range;
  uint32_t first, last;
  uint8_t first_bytes[4], last_bytes[4];
  size_t n;
  struct miss misses[6];
};

#define T U8X_ERR_TRUNCATED_SEQUENCE
static const struct table_row rows[] = {
    {"U+0000..U+007F   00..7F",
     0x0000, 0x007F, {0x00}, {0x7F}, 1,
     {{{0x80}, 1, U8X_ERR_UNEXPECTED_CONTINUATION, 1}, {{0xBF}, 1, U8X_ERR_UNEXPECTED_CONTINUATION, 1}}},
    {"U+0080..U+07FF   C2..DF 80..BF",
     0x0080, 0x07FF, {0xC2, 0x80}, {0xDF, 0xBF}, 2,
     {{{0xC1, 0xBF}, 2, U8X_ERR_INVALID_BYTE, 1},
      {{0xC0, 0x80}, 2, U8X_ERR_INVALID_BYTE, 1},
      {{0xC2, 0x7F}, 2, T, 1},
      {{0xDF, 0xC0}, 2, T, 1}}},
    {"U+0800..U+0FFF   E0 A0..BF 80..BF",
     0x0800, 0x0FFF, {0xE0, 0xA0, 0x80}, {0xE0, 0xBF, 0xBF}, 3,
     {{{0xE0, 0x9F, 0xBF}, 3, U8X_ERR_OVERLONG, 1},
      {{0xE0, 0xC0, 0x80}, 3, T, 1},
      {{0xE0, 0xA0, 0x7F}, 3, T, 2},
      {{0xE0, 0xBF, 0xC0}, 3, T, 2}}},
    {"U+1000..U+CFFF   E1..EC 80..BF 80..BF",
     0x1000, 0xCFFF, {0xE1, 0x80, 0x80}, {0xEC, 0xBF, 0xBF}, 3,
     {{{0xE1, 0x7F, 0x80}, 3, T, 1},
      {{0xEC, 0xC0, 0x80}, 3, T, 1},
      {{0xE1, 0x80, 0x7F}, 3, T, 2},
      {{0xEC, 0xBF, 0xC0}, 3, T, 2}}},
    {"U+D000..U+D7FF   ED 80..9F 80..BF",
     0xD000, 0xD7FF, {0xED, 0x80, 0x80}, {0xED, 0x9F, 0xBF}, 3,
     {{{0xED, 0xA0, 0x80}, 3, U8X_ERR_SURROGATE, 1},
      {{0xED, 0xBF, 0xBF}, 3, U8X_ERR_SURROGATE, 1},
      {{0xED, 0x7F, 0x80}, 3, T, 1},
      {{0xED, 0x80, 0x7F}, 3, T, 2},
      {{0xED, 0x9F, 0xC0}, 3, T, 2}}},
    {"U+E000..U+FFFF   EE..EF 80..BF 80..BF",
     0xE000, 0xFFFF, {0xEE, 0x80, 0x80}, {0xEF, 0xBF, 0xBF}, 3,
     {{{0xEE, 0x7F, 0x80}, 3, T, 1},
      {{0xEF, 0xC0, 0xBF}, 3, T, 1},
      {{0xEE, 0x80, 0x7F}, 3, T, 2},
      {{0xEF, 0xBF, 0xC0}, 3, T, 2}}},
    {"U+10000..U+3FFFF F0 90..BF 80..BF 80..BF",
     0x10000, 0x3FFFF, {0xF0, 0x90, 0x80, 0x80}, {0xF0, 0xBF, 0xBF, 0xBF}, 4,
     {{{0xF0, 0x8F, 0xBF, 0xBF}, 4, U8X_ERR_OVERLONG, 1},
      {{0xF0, 0xC0, 0x80, 0x80}, 4, T, 1},
      {{0xF0, 0x90, 0x7F, 0x80}, 4, T, 2},
      {{0xF0, 0x90, 0x80, 0x7F}, 4, T, 3},
      {{0xF0, 0xBF, 0xBF, 0xC0}, 4, T, 3}}},
    {"U+40000..U+FFFFF F1..F3 80..BF 80..BF 80..BF",
     0x40000, 0xFFFFF, {0xF1, 0x80, 0x80, 0x80}, {0xF3, 0xBF, 0xBF, 0xBF}, 4,
     {{{0xF1, 0x7F, 0x80, 0x80}, 4, T, 1},
      {{0xF3, 0xC0, 0x80, 0x80}, 4, T, 1},
      {{0xF1, 0x80, 0x7F, 0x80}, 4, T, 2},
      {{0xF1, 0x80, 0x80, 0x7F}, 4, T, 3},
      {{0xF3, 0xBF, 0xBF, 0xC0}, 4, T, 3}}},
    {"U+100000..U+10FFFF F4 80..8F 80..BF 80..BF",
     0x100000, 0x10FFFF, {0xF4, 0x80, 0x80, 0x80}, {0xF4, 0x8F, 0xBF, 0xBF}, 4,
     {{{0xF4, 0x90, 0x80, 0x80}, 4, U8X_ERR_ABOVE_MAX, 1},
      {{0xF5, 0x80, 0x80, 0x80}, 4, U8X_ERR_INVALID_BYTE, 1},
      {{0xF4, 0x7F, 0x80, 0x80}, 4, T, 1},
      {{0xF4, 0x8F, 0x7F, 0x80}, 4, T, 2},
      {{0xF4, 0x8F, 0xBF, 0xC0}, 4, T, 3}}},
};
#undef T

static void valid_value(const char *which, uint32_t cp, const uint8_t *b, size_t n) {
  uint8_t t[8], enc[8];
  uint32_t out[8];
  size_t k;
  u8x_result r;
  check_context("%s value U+%04lX", which, (unsigned long)cp);
  /* decodes, between two ASCII letters */
  t[0] = 'x';
  memcpy(t + 1, b, n);
  t[n + 1] = 'y';
  r = u8x_decode_ucs4(t, n + 2, out, 8, U8X_STRICT, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n + 2, 3, 0);
  CHECK(out[0] == 'x' && out[1] == cp && out[2] == 'y');
  CHECK_RESULT(u8x_validate(t, n + 2, 0), U8X_OK, U8X_ERR_NONE, n + 2, 0, 0);
  /* encodes */
  r = u8x_encode(&cp, 1, enc, 8, U8X_STRICT, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 1, n, 0);
  CHECK_BYTES(enc, r.written, b, n);
  /* every proper prefix is cut: END_OF_INPUT, or INCOMPLETE with more input */
  for (k = 1; k < n; k++) {
    check_context("%s value U+%04lX, first %u bytes", which, (unsigned long)cp, (unsigned)k);
    CHECK_RESULT(u8x_validate(t, k + 1, 0), U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, 1, 0, k);
    CHECK_RESULT(u8x_validate(t, k + 1, U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 1, 0, k);
  }
}

static void table_3_7(void) {
  size_t i, j;
  for (i = 0; i < COUNT_OF(rows); i++) {
    const struct table_row *row = &rows[i];
    valid_value("first", row->first, row->first_bytes, row->n);
    valid_value("last", row->last, row->last_bytes, row->n);
    for (j = 0; j < COUNT_OF(row->misses) && row->misses[j].n; j++) {
      const struct miss *m = &row->misses[j];
      uint8_t t[8];
      uint32_t out[8];
      check_context("row %s, outside: %02X %02X %02X %02X", row->range, m->b[0], m->b[1], m->b[2], m->b[3]);
      t[0] = 'x';
      memcpy(t + 1, m->b, m->n);
      CHECK_RESULT(u8x_validate(m->b, m->n, 0), U8X_ILL_FORMED, m->kind, 0, 0, m->error_len);
      CHECK_RESULT(u8x_validate(t, m->n + 1, 0), U8X_ILL_FORMED, m->kind, 1, 0, m->error_len);
      CHECK_RESULT(u8x_decode_ucs4(t, m->n + 1, out, 8, U8X_STRICT, 0, 0), U8X_ILL_FORMED, m->kind, 1, 1,
                   m->error_len);
      /* the same with more input to come: already certain, not incomplete */
      CHECK_RESULT(u8x_validate(m->b, m->n, U8X_MORE_INPUT), U8X_ILL_FORMED, m->kind, 0, 0, m->error_len);
    }
    printf("  Table 3-7 %-46s first, last and %u near misses\n", row->range, (unsigned)j);
  }
  check_context("%s", "");
}

int main(void) {
  check_begin("seeds");
  printf("worked examples:\n");
  worked_examples();
  printf("RFC 3629 dangers:\n");
  rfc3629_dangers();
  printf("Unicode Table 3-7:\n");
  table_3_7();
  return check_done();
}
