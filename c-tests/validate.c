/* u8x_validate: every 1- and 2-byte input, most 3- and 4-byte ones, against
 * the reference in ref.h (written from Unicode Table 3-7); long random texts
 * and every kind of damage at every offset of a long text, for the vector
 * code; the word-at-a-time ASCII path at every alignment; chunked
 * validation with U8X_MORE_INPUT. */
#include <stdlib.h>

#include "check.h"
#include "ref.h"

static unsigned long compared;

/* check_light(): under valgrind or an emulator, the largest enumerations
 * below take a sample (memory errors depend on lengths, positions and
 * capacities, which the samples keep, not on each value enumerated). */
static int light;
#define SAMPLED (light ? ", sampled under valgrind or an emulator" : "")

/* The value after k in an enumeration ending at `last` (inclusive): every
 * one normally; when light the first five, the last five and every
 * `stride`th between. */
static size_t next_k(size_t k, size_t last, size_t stride) {
  if (!light || k < 4 || k + 5 > last) return k + 1;
  return k + stride < last - 4 ? k + stride : last - 4;
}

static void compare(const uint8_t *s, size_t n, int more) {
  u8x_result want = ref_validate(s, n, more);
  u8x_result got = u8x_validate(s, n, more ? U8X_MORE_INPUT : 0);
  compared++;
  if (got.status != want.status || got.error != want.error || got.read != want.read ||
      got.written != 0 || got.error_len != want.error_len) {
    size_t i;
    char hex[64] = "";
    for (i = 0; i < n && i < 8; i++) sprintf(hex + 3 * i, "%02X ", s[i]);
    check_context("input %s(%s)", hex, more ? "U8X_MORE_INPUT" : "flags 0");
  }
  CHECK_RESULT(got, want.status, want.error, want.read, 0, want.error_len);
  check_context("%s", "");
}

/* The values each trailing byte takes in the 3- and 4-byte sweeps: both
 * ends of every range of Table 3-7 and the bytes just outside them. */
static const uint8_t sample[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF4, 0xFF};

/* When light, the second bytes the 3- and 4-byte sweeps take: those in
 * sample[] and every 17th; all of them otherwise. */
static int second_sampled(unsigned b) {
  size_t i;
  if (!light || b % 17 == 0) return 1;
  for (i = 0; i < COUNT_OF(sample); i++)
    if (b == sample[i]) return 1;
  return 0;
}

static void exhaustive(void) {
  uint8_t s[6];
  unsigned a, b, c, d;
  int more;
  for (more = 0; more <= 1; more++) {
    for (a = 0; a < 256; a++) {
      s[0] = (uint8_t)a;
      compare(s, 1, more);
      for (b = 0; b < 256; b++) {
        s[1] = (uint8_t)b;
        compare(s, 2, more);
        if (a < 0xC0) continue;
        /* light: every 2-byte input, but the longer ones (the same lengths
         * whatever their bytes) after a sample of second bytes */
        if (!second_sampled(b)) continue;
        for (c = 0; c < COUNT_OF(sample); c++) {
          s[2] = sample[c];
          compare(s, 3, more);
          if (a < 0xF0 || a > 0xF7) continue;
          for (d = 0; d < COUNT_OF(sample); d++) {
            s[3] = sample[d];
            compare(s, 4, more);
          }
        }
      }
    }
  }
  /* the same sequences after ASCII and after a complete character: the
   * offset must move with them */
  for (a = 0xC0; a < 256; a++)
    for (b = 0; b < 256; b += 3) {
      uint8_t t[8] = {'x', 0xC3, 0xA9, 0, 0, 0, 'y', 0};
      t[3] = (uint8_t)a;
      t[4] = (uint8_t)b;
      t[5] = 0x80;
      compare(t, 6, 0);
      compare(t, 7, 0);
      compare(t, 5, 1);
    }
  printf("exhaustive: %lu inputs compared with the Table 3-7 reference%s\n", compared, SAMPLED);
}

/* An error at every position of an ASCII run, at every alignment: the
 * word-at-a-time ASCII scan must stop exactly there. */
static void ascii_runs(void) {
  uint64_t storage[16];
  uint8_t *base = (uint8_t *)storage;
  size_t align, len, k;
  for (align = 0; align < 8; align++) {
    uint8_t *s = base + align;
    for (len = 1; len <= 72; len++) {
      memset(s, 'a', len);
      check_context("align %u len %u", (unsigned)align, (unsigned)len);
      CHECK_RESULT(u8x_validate(s, len, 0), U8X_OK, U8X_ERR_NONE, len, 0, 0);
      for (k = 0; k < len; k++) {
        check_context("align %u len %u bad byte at %u", (unsigned)align, (unsigned)len, (unsigned)k);
        s[k] = 0x80;
        CHECK_RESULT(u8x_validate(s, len, 0), U8X_ILL_FORMED, U8X_ERR_UNEXPECTED_CONTINUATION, k, 0, 1);
        s[k] = 0xFF;
        CHECK_RESULT(u8x_validate(s, len, 0), U8X_ILL_FORMED, U8X_ERR_INVALID_BYTE, k, 0, 1);
        s[k] = 0xE2; /* a lead: cut by the next 'a', or by the end */
        if (k + 1 < len)
          CHECK_RESULT(u8x_validate(s, len, 0), U8X_ILL_FORMED, U8X_ERR_TRUNCATED_SEQUENCE, k, 0, 1);
        else {
          CHECK_RESULT(u8x_validate(s, len, 0), U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, k, 0, 1);
          CHECK_RESULT(u8x_validate(s, len, U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, k, 0, 1);
        }
        s[k] = 'a';
      }
      /* and a valid 3-byte character at every position */
      for (k = 0; k + 3 <= len; k++) {
        check_context("align %u len %u euro at %u", (unsigned)align, (unsigned)len, (unsigned)k);
        memcpy(s + k, "\xE2\x82\xAC", 3);
        CHECK_RESULT(u8x_validate(s, len, 0), U8X_OK, U8X_ERR_NONE, len, 0, 0);
        memset(s + k, 'a', 3);
      }
    }
  }
  check_context("%s", "");
  printf("ascii runs: errors found at every offset and alignment\n");
}

/* A long valid text fed in chunks of every size 1..9 with U8X_MORE_INPUT:
 * no chunk is ill-formed, a cut character is U8X_INCOMPLETE with the cut
 * bytes as error_len, and carrying them over validates the whole text. */
static void chunked(void) {
  static const uint32_t cps[] = {'a', 0xE9, 0x20AC, 0x10348, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF, 0xD7FF, 0xE000, ' '};
  uint8_t text[4096];
  size_t n = 0, chunk;
  unsigned i = 0;
  while (n + 4 <= sizeof text) n += ref_put_utf8(text + n, cps[i++ % COUNT_OF(cps)]);
  CHECK_RESULT(u8x_validate(text, n, 0), U8X_OK, U8X_ERR_NONE, n, 0, 0);
  for (chunk = 1; chunk <= 9; chunk++) {
    uint8_t buf[16];
    size_t keep = 0, off = 0, incomplete = 0;
    check_context("chunk size %u", (unsigned)chunk);
    while (off < n) {
      size_t take = n - off < chunk ? n - off : chunk;
      u8x_result r;
      memcpy(buf + keep, text + off, take);
      off += take;
      r = u8x_validate(buf, keep + take, off < n ? U8X_MORE_INPUT : 0);
      if (r.status == U8X_INCOMPLETE) {
        incomplete++;
        CHECK_EQ(r.error, U8X_ERR_END_OF_INPUT);
        CHECK_EQ(r.read + r.error_len, keep + take);
        CHECK(r.error_len >= 1 && r.error_len <= 3);
      } else if (!CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, keep + take, 0, 0)) {
        break;
      }
      keep = keep + take - r.read;
      memmove(buf, buf + r.read, keep);
    }
    CHECK_EQ(keep, 0);
    CHECK(chunk == 1 || incomplete > 0); /* the text has multi-byte characters to cut */
  }
  check_context("%s", "");
  printf("chunked: a %u-byte text validates in chunks of 1..9 bytes\n", (unsigned)n);
}

/* Long random texts, whole and at every prefix length: the vector code
 * must find the same first error as the reference. Each text is in a heap
 * block of exactly its size, so ASan sees any read past it. */
static void long_texts(void) {
  uint32_t state = 7;
  unsigned t;
  unsigned long before = compared;
  for (t = 0; t < 300; t++) {
    uint8_t tmp[1200];
    size_t n = ref_random_text(tmp, 64 + ref_rand(&state) % 1100, t % 3 == 0 ? 0 : 5 + t % 40, &state), k;
    uint8_t *s = (uint8_t *)malloc(n + 1);
    memcpy(s, tmp, n);
    compare(s, n, 0);
    compare(s, n, 1);
    if (t < 30)
      /* light: the prefixes and suffixes near both ends and every 7th */
      for (k = 0; k < n; k = next_k(k, n - 1, 7)) {
        compare(s, k, 0);
        compare(s, k, 1);
        compare(s + k, n - k, 0);
      }
    free(s);
  }
  printf("long texts: %lu validations of random damaged text%s\n", compared - before, SAMPLED);
}

/* Every kind of damage at every offset of a long well-formed text, which
 * has characters of every length straddling every block boundary. */
static void damage_everywhere(void) {
  uint8_t base[320], s[340];
  size_t n = 0, k, j;
  uint32_t cp = 0x41;
  unsigned long before = compared;
  while (n + 4 <= sizeof base) { /* 1-, 2-, 3- and 4-byte characters in turn */
    n += ref_put_utf8(base + n, cp);
    cp = cp == 0x41 ? 0xE9 : cp == 0xE9 ? 0x20AC : cp == 0x20AC ? 0x1F600 : 0x41;
  }
  CHECK_RESULT(u8x_validate(base, n, 0), U8X_OK, U8X_ERR_NONE, n, 0, 0);
  for (j = 0; j < COUNT_OF(ref_bad_pieces); j++) {
    size_t len = strlen(ref_bad_pieces[j]);
    for (k = 0; k + len <= n; k++) {
      memcpy(s, base, n);
      memcpy(s + k, ref_bad_pieces[j], len); /* overwritten */
      compare(s, n, 0);
      memcpy(s, base, k);
      memcpy(s + k, ref_bad_pieces[j], len); /* inserted */
      memcpy(s + k + len, base + k, n - k);
      compare(s, n + len, 0);
      compare(s, k + len, 1); /* and cut right after it */
    }
  }
  printf("damage everywhere: %lu validations\n", compared - before);
}

int main(void) {
  check_begin("validate");
  light = check_light();
  CHECK_RESULT(u8x_validate(NULL, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate(NULL, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate(LIT(""), 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  /* an embedded NUL is an ordinary character */
  CHECK_RESULT(u8x_validate(LIT("a\0b"), 0), U8X_OK, U8X_ERR_NONE, 3, 0, 0);
  /* the example in the header's u8x_error docs */
  CHECK_RESULT(u8x_validate(LIT("ok\xE2\x82\xAC\xF0\x82\x82\xAC"), 0), U8X_ILL_FORMED, U8X_ERR_OVERLONG, 5, 0, 1);
  /* a truncated sequence: END_OF_INPUT with the bytes left, or INCOMPLETE */
  CHECK_RESULT(u8x_validate(LIT("ab\xF0\x9F\x98"), 0), U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, 2, 0, 3);
  CHECK_RESULT(u8x_validate(LIT("ab\xF0\x9F\x98"), U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 2, 0, 3);
  /* MORE_INPUT does not hide an error that is already certain */
  CHECK_RESULT(u8x_validate(LIT("ab\xF0\x9F"), U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 2, 0, 2);
  CHECK_RESULT(u8x_validate(LIT("ab\xF0\x8F"), U8X_MORE_INPUT), U8X_ILL_FORMED, U8X_ERR_OVERLONG, 2, 0, 1);
  CHECK_RESULT(u8x_validate(LIT("ab\xF0\x9F" "c"), U8X_MORE_INPUT), U8X_ILL_FORMED, U8X_ERR_TRUNCATED_SEQUENCE, 2, 0, 2);
  CHECK_RESULT(u8x_validate(LIT("\xC3\xA9\x80"), U8X_MORE_INPUT), U8X_ILL_FORMED, U8X_ERR_UNEXPECTED_CONTINUATION, 2, 0, 1);
  exhaustive();
  long_texts();
  damage_everywhere();
  ascii_runs();
  chunked();
  return check_done();
}
