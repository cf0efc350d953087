/* u8x_count: the number of code points u8x_decode_ucs4 writes, per policy,
 * against Python (expected.h); identical results to decoding (with a buffer
 * and measuring) for every prefix of every case, with and without
 * U8X_MORE_INPUT; long random texts against the reference in ref.h. */
#include <stdlib.h>

#include "check.h"
#include "expected.h"
#include "ref.h"

static const uint32_t policies[] = {U8X_STRICT, U8X_REPLACE, U8X_ESCAPE, U8X_LATIN1, U8X_CP1252};
static const char *const policy_names[] = {"strict", "replace", "escape", "latin1", "cp1252"};

static int same_result(u8x_result a, u8x_result b) {
  return a.status == b.status && a.error == b.error && a.read == b.read && a.written == b.written &&
         a.error_len == b.error_len;
}

/* Whole cases: the count Python gives. */
static void against_python(void) {
  size_t i, j, k;
  for (i = 0; i < EXP_DECODE_CASES; i++) {
    const exp_decode *c = &exp_decode_cases[i];
    size_t subpart_bytes = 0;
    for (k = 0; k < c->n_subparts; k++) subpart_bytes += c->subparts[k].len;
    for (j = 0; j < COUNT_OF(policies); j++) {
      u8x_result r = u8x_count(c->input.bytes, c->input.len, policies[j], 0);
      check_context("%s, %s", c->name, policy_names[j]);
      if (policies[j] == U8X_STRICT && c->n_subparts > 0)
        CHECK_RESULT(r, U8X_ILL_FORMED, c->subparts[0].kind, c->subparts[0].start, c->out[0].len,
                     c->subparts[0].len);
      else
        CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, c->input.len, c->out[policies[j]].len, 0);
    }
    /* the header's rule: byte-wise policies count every byte of an
     * ill-formed sequence, U8X_REPLACE each maximal subpart once */
    check_context("%s, counting rule", c->name);
    CHECK_EQ(u8x_count(c->input.bytes, c->input.len, U8X_ESCAPE, 0).written -
                 u8x_count(c->input.bytes, c->input.len, U8X_REPLACE, 0).written,
             subpart_bytes - c->n_subparts);
  }
  check_context("%s", "");
  printf("counts match Python for %u cases x %u policies\n", (unsigned)EXP_DECODE_CASES,
         (unsigned)COUNT_OF(policies));
}

/* Every prefix of every case: count == decode(NULL, 0) == decode(buffer),
 * field by field, with flags 0 and U8X_MORE_INPUT. */
static void same_as_decode(void) {
  size_t i, j, n;
  unsigned long compared = 0;
  uint32_t *buf = (uint32_t *)malloc(256 * sizeof *buf);
  for (i = 0; i < EXP_DECODE_CASES; i++) {
    const exp_decode *c = &exp_decode_cases[i];
    for (n = 0; n <= c->input.len; n++) {
      for (j = 0; j < COUNT_OF(policies); j++) {
        uint32_t flags;
        for (flags = 0; flags <= U8X_MORE_INPUT; flags++) {
          u8x_result cnt = u8x_count(c->input.bytes, n, policies[j], flags);
          u8x_result measured =
              u8x_decode_ucs4(c->input.bytes, n, NULL, 0, policies[j], U8X_REPLACEMENT_CHARACTER, flags);
          u8x_result decoded =
              u8x_decode_ucs4(c->input.bytes, n, buf, 256, policies[j], U8X_REPLACEMENT_CHARACTER, flags);
          check_context("%s, first %u bytes, %s, flags %u", c->name, (unsigned)n, policy_names[j], (unsigned)flags);
          CHECK(same_result(cnt, measured));
          CHECK(same_result(cnt, decoded));
          CHECK(cnt.status != U8X_OUTPUT_FULL);
          compared++;
        }
      }
    }
  }
  check_context("%s", "");
  free(buf);
  printf("count == decode(NULL, 0) == decode(buffer) for %lu prefixes/policies/flags\n", compared);
}

static void streaming(void) {
  /* "ab" then a euro sign cut after 2 of its 3 bytes */
  CHECK_RESULT(u8x_count(LIT("ab\xE2\x82"), U8X_REPLACE, U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT,
               2, 2, 2);
  CHECK_RESULT(u8x_count(LIT("ab\xE2\x82"), U8X_REPLACE, 0), U8X_OK, U8X_ERR_NONE, 4, 3, 0);
  CHECK_RESULT(u8x_count(LIT("ab\xE2\x82"), U8X_ESCAPE, 0), U8X_OK, U8X_ERR_NONE, 4, 4, 0);
  CHECK_RESULT(u8x_count(LIT("ab\xE2\x82"), U8X_STRICT, 0), U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, 2, 2, 2);
  CHECK_RESULT(u8x_count(LIT("ab\xE2\x82"), U8X_LATIN1, U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT,
               2, 2, 2);
  /* an error before the cut is counted, the cut is not */
  CHECK_RESULT(u8x_count(LIT("\xFF" "a\xF0\x9F\x98"), U8X_REPLACE, U8X_MORE_INPUT), U8X_INCOMPLETE,
               U8X_ERR_END_OF_INPUT, 2, 2, 3);
  CHECK_RESULT(u8x_count(NULL, 0, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_count(NULL, 0, U8X_CP1252, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void large(void) {
  size_t n = 1u << 20, i;
  uint8_t *s = (uint8_t *)malloc(n);
  memset(s, 'x', n);
  CHECK_RESULT(u8x_count(s, n, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, n, n, 0);
  for (i = 0; i + 1 < n; i += 2) {
    s[i] = 0xC3; /* U+00E9 */
    s[i + 1] = 0xA9;
  }
  CHECK_RESULT(u8x_count(s, n, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, n, n / 2, 0);
  s[n / 2] = 0xA9; /* now a lone continuation after a complete character */
  s[n / 2 + 1] = 0xA9;
  CHECK_RESULT(u8x_count(s, n, U8X_STRICT, 0), U8X_ILL_FORMED, U8X_ERR_UNEXPECTED_CONTINUATION, n / 2, n / 4, 1);
  CHECK_RESULT(u8x_count(s, n, U8X_REPLACE, 0), U8X_OK, U8X_ERR_NONE, n, n / 2 + 1, 0);
  free(s);
  printf("1 MiB inputs counted\n");
}

/* Long random texts (the vector code): the reference's count and result,
 * for every policy, whole and cut at many places with U8X_MORE_INPUT. */
static void long_texts(void) {
  uint32_t state = 4242;
  unsigned t;
  unsigned long compared = 0;
  for (t = 0; t < 200; t++) {
    uint8_t tmp[2100];
    size_t n = ref_random_text(tmp, ref_rand(&state) % 2048, t % 5 == 0 ? 0 : 2 + t % 60, &state), j, i;
    uint8_t *s = (uint8_t *)malloc(n + 1);
    uint32_t *scratch = (uint32_t *)malloc((n + 1) * sizeof *scratch);
    memcpy(s, tmp, n);
    for (j = 0; j < COUNT_OF(policies); j++) {
      for (i = 0; i * 37 < n + 37; i++) { /* cut at 0, 37, 74, ... and at n */
        size_t k = i * 37 < n ? i * 37 : n;
        int more;
        for (more = 0; more <= 1; more++) {
          u8x_result want = ref_decode(s, k, policies[j], U8X_REPLACEMENT_CHARACTER, more, scratch);
          check_context("random text #%u, first %u bytes, %s, flags %d", t, (unsigned)k, policy_names[j], more);
          CHECK_RESULT(u8x_count(s, k, policies[j], more ? U8X_MORE_INPUT : 0), want.status, want.error, want.read,
                       want.written, want.error_len);
          compared++;
        }
      }
    }
    free(s);
    free(scratch);
  }
  check_context("%s", "");
  printf("long texts: %lu counts match the reference\n", compared);
}

/* u8x_count_valid: on valid text, what u8x_count gives (checked against
 * the reference above); on any bytes, the bytes outside 80..BF. */
static void count_valid(void) {
  uint32_t state = 77;
  unsigned t;
  for (t = 0; t < 300; t++) {
    uint8_t s[2100];
    size_t n = ref_random_text(s, ref_rand(&state) % 2048, 0, &state), i, leads = 0;
    u8x_result strict = u8x_count(s, n, U8X_STRICT, 0);
    check_context("random text #%u", t);
    CHECK_EQ(strict.status, U8X_OK);
    CHECK_EQ(u8x_count_valid(s, n), strict.written);
    for (i = 0; i < n; i++) s[i] = (uint8_t)ref_rand(&state);
    for (i = 0; i < n; i++) leads += s[i] < 0x80 || s[i] > 0xBF;
    CHECK_EQ(u8x_count_valid(s, n), leads);
  }
  check_context("%s", "");
  CHECK_EQ(u8x_count_valid(NULL, 0), 0);
  CHECK_EQ(u8x_count_valid(NULL, 1), U8X_BAD_SIZE);
  printf("count_valid: %u texts\n", t);
}

int main(void) {
  check_begin("count");
  count_valid();
  against_python();
  same_as_decode();
  streaming();
  long_texts();
  large();
  return check_done();
}
