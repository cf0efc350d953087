/* U8X_IGNORE, the handled count and U8X_SKIP_BOM, against Python
 * (expected.h): the ignore decoding is the input with Python's maximal
 * subparts cut out, then decoded strictly; every non-strict policy reports
 * one handled per subpart, with a buffer, measuring, and resumed through a
 * one-unit buffer. Then the byte order mark, whole and split across two
 * chunks. */
#include <stdlib.h>

#include "check.h"
#include "expected.h"

static const uint32_t policies[] = {U8X_REPLACE, U8X_ESCAPE, U8X_LATIN1, U8X_CP1252, U8X_IGNORE};
static const char *const policy_names[] = {"replace", "escape", "latin1", "cp1252", "ignore"};

/* The input of `c` without its maximal subparts, into `out`: its length. */
static size_t without_subparts(const exp_decode *c, uint8_t *out) {
  size_t at = 0, n = 0, k;
  for (k = 0; k < c->n_subparts; k++) {
    memcpy(out + n, c->input.bytes + at, c->subparts[k].start - at);
    n += c->subparts[k].start - at;
    at = c->subparts[k].start + c->subparts[k].len;
  }
  memcpy(out + n, c->input.bytes + at, c->input.len - at);
  return n + c->input.len - at;
}

static void ignore_against_python(void) {
  size_t i, j;
  for (i = 0; i < EXP_DECODE_CASES; i++) {
    const exp_decode *c = &exp_decode_cases[i];
    size_t len = c->input.len;
    uint8_t *kept = malloc(len + 1);
    uint32_t *want = malloc((len + 1) * sizeof *want);
    uint32_t *got = malloc((len + 1) * sizeof *got);
    uint16_t *units = malloc((2 * len + 1) * sizeof *units);
    uint8_t *bytes = malloc(len + 1);
    size_t n_kept, n_want, total, read;
    u8x_result r, m;
    CHECK(kept && want && got && units && bytes);
    if (!(kept && want && got && units && bytes)) return;
    check_context("%s", c->name);
    n_kept = without_subparts(c, kept);
    r = u8x_decode_ucs4(kept, n_kept, want, len + 1, U8X_STRICT, 0, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n_kept, r.written, 0);
    n_want = r.written;

    r = u8x_decode_ucs4(c->input.bytes, len, got, len + 1, U8X_IGNORE, 0, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, n_want, 0);
    CHECK_U32S(got, r.written, want, n_want);
    CHECK_EQ(r.handled, c->n_subparts);
    /* Latin-1: what is at most U+00FF of the same, the rest counted */
    r = u8x_decode_latin1(c->input.bytes, len, bytes, len + 1, U8X_IGNORE, 0, 0);
    {
      size_t k, n = 0, above = 0;
      int same = 1;
      for (k = 0; k < n_want; k++) {
        if (want[k] > 0xFF)
          above++;
        else if (n >= r.written || bytes[n++] != want[k])
          same = 0;
      }
      CHECK(same && n == r.written);
      CHECK_EQ(r.handled, c->n_subparts + above);
      m = u8x_decode_latin1(c->input.bytes, len, NULL, 0, U8X_IGNORE, 0, 0);
      CHECK_EQ(m.written, r.written);
      CHECK_EQ(m.handled, r.handled);
    }

    for (j = 0; j < COUNT_OF(policies); j++) {
      check_context("%s, %s", c->name, policy_names[j]);
      r = u8x_decode_ucs4(c->input.bytes, len, got, len + 1, policies[j], U8X_REPLACEMENT_CHARACTER, 0);
      CHECK_EQ(r.handled, c->n_subparts);
      m = u8x_decode_ucs4(c->input.bytes, len, NULL, 0, policies[j], U8X_REPLACEMENT_CHARACTER, 0);
      CHECK_EQ(m.handled, c->n_subparts);
      m = u8x_count(c->input.bytes, len, policies[j], 0);
      CHECK_EQ(m.handled, c->n_subparts);
      r = u8x_decode_utf16(c->input.bytes, len, units, 2 * len + 1, policies[j], U8X_REPLACEMENT_CHARACTER,
                           U8X_BIG_ENDIAN);
      CHECK_EQ(r.handled, c->n_subparts);
      m = u8x_decode_utf16(c->input.bytes, len, NULL, 0, policies[j], U8X_REPLACEMENT_CHARACTER, 0);
      CHECK_EQ(m.handled, c->n_subparts);
      /* one code point at a time: whole-subpart policies count exactly */
      if (policies[j] == U8X_REPLACE || policies[j] == U8X_IGNORE) {
        total = 0;
        read = 0;
        do {
          r = u8x_decode_ucs4(c->input.bytes + read, len - read, got, 1, policies[j], U8X_REPLACEMENT_CHARACTER,
                              0);
          read += r.read;
          total += r.handled;
        } while (r.status == U8X_OUTPUT_FULL);
        CHECK_EQ(r.status, U8X_OK);
        CHECK_EQ(read, len);
        CHECK_EQ(total, c->n_subparts);
      }
    }
    r = u8x_count(c->input.bytes, len, U8X_STRICT, 0);
    CHECK_EQ(r.handled, 0);
    free(kept);
    free(want);
    free(got);
    free(units);
    free(bytes);
  }
  check_context("%s", "");
}

static void encode_ignore(void) {
  /* UTF-16: a, lone low, lone high, a pair, lone U+DCFF, b; UCS-4: a,
   * surrogate, above U+10FFFF, U+1F600, U+DCFF, b */
  static const uint16_t u16[] = {0x61, 0xDC00, 0xD800, 0xD83D, 0xDE00, 0xDCFF, 0x62};
  static const uint32_t u32[] = {0x61, 0xD800, 0x110000, 0x1F600, 0xDCFF, 0x62};
  static const uint8_t want16[] = "a\xF0\x9F\x98\x80" "b";
  static const uint8_t want32[] = "a\xF0\x9F\x98\x80" "b";
  uint8_t out[32];
  u8x_result r = u8x_encode_utf16(u16, COUNT_OF(u16), out, sizeof out, U8X_IGNORE, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, COUNT_OF(u16), sizeof want16 - 1, 0);
  CHECK_BYTES(out, r.written, want16, sizeof want16 - 1);
  CHECK_EQ(r.handled, 3);
  r = u8x_encode_utf16(u16, COUNT_OF(u16), NULL, 0, U8X_IGNORE, 0, 0);
  CHECK_EQ(r.written, sizeof want16 - 1);
  CHECK_EQ(r.handled, 3);
  r = u8x_encode(u32, COUNT_OF(u32), out, sizeof out, U8X_IGNORE, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, COUNT_OF(u32), sizeof want32 - 1, 0);
  CHECK_BYTES(out, r.written, want32, sizeof want32 - 1);
  CHECK_EQ(r.handled, 3);
  /* escape: U+DCFF becomes FF, and counts */
  r = u8x_encode(u32 + 3, 3, out, sizeof out, U8X_ESCAPE, 0);
  CHECK_EQ(r.handled, 1);
  r = u8x_encode(u32, COUNT_OF(u32), NULL, 0, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER);
  CHECK_EQ(r.handled, 3);
  /* the policies without a meaning here are still refused */
  r = u8x_encode(u32, COUNT_OF(u32), out, sizeof out, U8X_LATIN1, 0);
  CHECK_EQ(r.status, U8X_BAD_ARGUMENT);
}

/* U8X_SKIP_BOM on every UTF-8 reader, whole and split in two chunks. */
static void bom(void) {
  static const uint8_t text[] = "\xEF\xBB\xBF" "a\xC3\xA9\xEF\xBB\xBF";
  const size_t len = sizeof text - 1;
  uint32_t cps[16];
  uint16_t units[16];
  uint8_t latin1[16];
  u8x_classification info;
  u8x_result r;
  size_t k;

  /* without the flag the mark is a character; with it, only the first is
   * skipped */
  r = u8x_decode_ucs4(text, len, cps, COUNT_OF(cps), U8X_STRICT, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 4, 0);
  CHECK_EQ(cps[0], 0xFEFF);
  CHECK_EQ(r.bom_skipped, 0);
  r = u8x_decode_ucs4(text, len, cps, COUNT_OF(cps), U8X_STRICT, 0, U8X_SKIP_BOM);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 3, 0);
  CHECK_EQ(r.bom_skipped, 3);
  CHECK_EQ(cps[0], 'a');
  CHECK_EQ(cps[2], 0xFEFF);
  r = u8x_decode_ucs4(text, len, NULL, 0, U8X_STRICT, 0, U8X_SKIP_BOM);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 3, 0);
  CHECK_EQ(r.bom_skipped, 3);
  r = u8x_count(text, len, U8X_REPLACE, U8X_SKIP_BOM | U8X_MORE_INPUT);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 3, 0);
  CHECK_EQ(r.bom_skipped, 3);
  r = u8x_decode_utf16(text, len, units, COUNT_OF(units), U8X_STRICT, 0, U8X_SKIP_BOM | U8X_LITTLE_ENDIAN);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 3, 0);
  CHECK_EQ(r.bom_skipped, 3);
  r = u8x_decode_latin1(text, len, latin1, COUNT_OF(latin1), U8X_REPLACE, '?', U8X_SKIP_BOM);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 3, 0);
  CHECK_BYTES(latin1, 3, (const uint8_t *)"a\xE9?", 3);
  CHECK_EQ(r.handled, 1); /* the second U+FEFF, not representable */
  CHECK_EQ(r.bom_skipped, 3);
  r = u8x_validate(text, len, U8X_SKIP_BOM);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 0, 0);
  CHECK_EQ(r.bom_skipped, 3);
  r = u8x_classify(text, len, U8X_SKIP_BOM, &info);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 0, 0);
  CHECK_EQ(info.code_points, 3);
  CHECK_EQ(r.bom_skipped, 3);
  /* offsets stay offsets in src: an error after the mark */
  r = u8x_validate((const uint8_t *)"\xEF\xBB\xBF\x80", 4, U8X_SKIP_BOM);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_UNEXPECTED_CONTINUATION, 3, 0, 1);
  CHECK_EQ(r.bom_skipped, 3);
  /* a full buffer right after the mark: it is read, nothing written */
  r = u8x_decode_ucs4(text, len, cps, 0, U8X_STRICT, 0, U8X_SKIP_BOM);
  CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 3, 0, 0);
  CHECK_EQ(r.bom_skipped, 3);
  /* the flag is a UTF-8 reader's: the others refuse it */
  r = u8x_validate_utf16(units, 1, U8X_SKIP_BOM);
  CHECK_EQ(r.status, U8X_BAD_ARGUMENT);
  r = u8x_encode_utf16(units, 1, latin1, sizeof latin1, U8X_STRICT, 0, U8X_SKIP_BOM);
  CHECK_EQ(r.status, U8X_BAD_ARGUMENT);

  /* streamed: the first chunk ends at k, passed with the flag (again while
   * nothing is read, as when it is just EF or EF BB) */
  for (k = 0; k <= len; k++) {
    size_t read = 0, written = 0;
    size_t skipped = 0;
    uint32_t flags = U8X_SKIP_BOM | U8X_MORE_INPUT;
    check_context("split at %u", (unsigned)k);
    r = u8x_decode_ucs4(text, k, cps, COUNT_OF(cps), U8X_STRICT, 0, flags);
    CHECK(r.status == U8X_OK || r.status == U8X_INCOMPLETE);
    if (k < 3) CHECK_EQ(r.read, 0);
    read = r.read;
    written = r.written;
    skipped += r.bom_skipped;
    if (read > 0) flags = 0;
    r = u8x_decode_ucs4(text + read, len - read, cps + written, COUNT_OF(cps) - written, U8X_STRICT, 0,
                        flags & ~(uint32_t)U8X_MORE_INPUT);
    CHECK_EQ(r.status, U8X_OK);
    CHECK_EQ(read + r.read, len);
    CHECK_EQ(written + r.written, 3);
    CHECK_EQ(skipped + r.bom_skipped, 3);
    CHECK_EQ(cps[0], 'a');
    CHECK_EQ(cps[2], 0xFEFF);
  }
  check_context("%s", "");
}

int main(void) {
  check_begin("ignore_bom");
  ignore_against_python();
  encode_ignore();
  bom();
  return check_done();
}
