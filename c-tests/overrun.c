/* No function reads or writes outside the buffers it is given, however
 * long they are and wherever they sit. Every input and output is placed
 * flush against an inaccessible guard page (after it, or before it), so an
 * out-of-bounds access by vector code, which ASan cannot see inside the
 * Rust library, is a crash. The results are also compared with the
 * reference in ref.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS under -std=c99 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>

#include "check.h"
#include "guard.h"
#include "ref.h"

static struct arena src_arena, dst_arena;

static const uint32_t policies[] = {U8X_STRICT, U8X_REPLACE, U8X_ESCAPE, U8X_LATIN1, U8X_CP1252};

static void bytes_functions(void) {
  static uint8_t text[6000];
  static uint32_t want[6000];
  uint32_t state = 5;
  size_t total = ref_random_text(text, sizeof text, 7, &state);
  size_t lens[300], n_lens = 0, li, j;
  int head;
  for (li = 0; li <= 200; li++) lens[n_lens++] = li;
  lens[n_lens++] = 255;
  lens[n_lens++] = 256;
  lens[n_lens++] = 257;
  lens[n_lens++] = 1000;
  lens[n_lens++] = 4095;
  lens[n_lens++] = total;
  for (head = 0; head <= 1; head++) {
    for (li = 0; li < n_lens; li++) {
      size_t n = lens[li], start;
      /* a few different windows of the random text */
      for (start = 0; start + n <= total && start < 3 * 97; start += 97) {
        uint8_t *s = place(src_arena, n, head);
        memcpy(s, text + start, n);
        check_context("%u bytes at the %s guard page, text offset %u", (unsigned)n, head ? "leading" : "trailing",
                      (unsigned)start);
        {
          u8x_result w = ref_validate(s, n, 0);
          CHECK_RESULT(u8x_validate(s, n, 0), w.status, w.error, w.read, 0, w.error_len);
          w = ref_validate(s, n, 1);
          CHECK_RESULT(u8x_validate(s, n, U8X_MORE_INPUT), w.status, w.error, w.read, 0, w.error_len);
        }
        for (j = 0; j < COUNT_OF(policies); j++) {
          u8x_result w = ref_decode(s, n, policies[j], U8X_REPLACEMENT_CHARACTER, 0, want);
          size_t k;
          CHECK_RESULT(u8x_count(s, n, policies[j], 0), w.status, w.error, w.read, w.written, w.error_len);
          /* the output exactly as long as needed (and 1, 2 units shorter),
           * against a guard page */
          for (k = 0; k < 3 && k <= w.written; k++) {
            size_t cap = w.written - k;
            uint32_t *dst = (uint32_t *)(void *)place(dst_arena, cap * sizeof *dst, head);
            u8x_result r = u8x_decode_ucs4(s, n, dst, cap, policies[j], U8X_REPLACEMENT_CHARACTER, 0);
            if (k == 0) {
              CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
            } else {
              CHECK_EQ(r.status, U8X_OUTPUT_FULL);
              CHECK_EQ(r.written, cap);
            }
            CHECK_U32S(dst, r.written, want, r.written);
          }
        }
        /* every boundary query, including those next to the guard pages */
        {
          size_t pos;
          for (pos = 0; pos <= n && pos < 64; pos++) {
            CHECK(u8x_next_boundary(s, n, pos) <= n);
            CHECK(u8x_prev_boundary(s, n, pos) <= pos);
          }
          for (pos = n > 64 ? n - 64 : 0; pos <= n; pos++) {
            CHECK(u8x_next_boundary(s, n, pos) <= n);
            CHECK(u8x_prev_boundary(s, n, pos) <= pos);
          }
        }
      }
    }
  }
  check_context("%s", "");
  printf("validate, count, decode, boundaries: %u lengths at both guard pages\n", (unsigned)n_lens);
}

static void encode_functions(void) {
  static uint32_t units[3000];
  static uint8_t want[12000];
  uint32_t state = 77;
  size_t n, i, j;
  int head;
  for (i = 0; i < COUNT_OF(units); i++) {
    uint32_t r = ref_rand(&state) % 8;
    units[i] = r < 4 ? 0x20 + ref_rand(&state) % 0x5F
               : r < 5 ? 0x80 + ref_rand(&state) % 0x780
               : r < 6 ? 0xE000 + ref_rand(&state) % 0x1000
               : r < 7 ? 0x10000 + ref_rand(&state) % 0xFFFF
                       : (ref_rand(&state) % 50 == 0 ? 0xDC80 + ref_rand(&state) % 0x80 : 0x4E00);
  }
  for (head = 0; head <= 1; head++) {
    for (n = 0; n <= COUNT_OF(units); n += n < 200 ? 1 : 397) {
      uint32_t *src = (uint32_t *)(void *)place(src_arena, n * sizeof *src, head);
      memcpy(src, units, n * sizeof *src);
      for (j = 0; j < 3; j++) {
        uint32_t policy = j == 0 ? U8X_STRICT : j == 1 ? U8X_REPLACE : U8X_ESCAPE;
        u8x_result w = ref_encode(src, n, policy, U8X_REPLACEMENT_CHARACTER, want);
        size_t k;
        check_context("%u units at the %s guard page, policy %u", (unsigned)n, head ? "leading" : "trailing",
                      (unsigned)policy);
        CHECK_RESULT(u8x_encoded_len(src, n, policy, U8X_REPLACEMENT_CHARACTER), w.status, w.error, w.read,
                     w.written, w.error_len);
        /* the output exactly as long as needed (and up to 4 bytes shorter) */
        for (k = 0; k < 5 && k <= w.written; k++) {
          size_t cap = w.written - k;
          uint8_t *dst = place(dst_arena, cap, head);
          u8x_result r = u8x_encode(src, n, dst, cap, policy, U8X_REPLACEMENT_CHARACTER);
          if (k == 0) {
            CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
          } else {
            CHECK_EQ(r.status, U8X_OUTPUT_FULL);
            CHECK(r.written <= cap && r.written + 4 > cap);
          }
          CHECK_BYTES(dst, r.written, want, r.written);
        }
      }
    }
  }
  check_context("%s", "");
  printf("encode, encoded_len: lengths 0..%u at both guard pages\n", (unsigned)COUNT_OF(units));
}

static void posix_functions(void) {
  static const char *const texts[] = {"", "a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                      "plain ASCII, long enough for a vector block of sixty-four bytes....",
                                      "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
                                      "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
                                      "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
                                      "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"};
  size_t i, n;
  for (i = 0; i < COUNT_OF(texts); i++) {
    size_t len = strlen(texts[i]) + 1, count;
    /* the string's NUL is the last readable byte */
    char *s = (char *)place(src_arena, len, 0);
    uint32_t want[128];
    u8x_result w = ref_decode((const uint8_t *)texts[i], len - 1, U8X_STRICT, 0, 0, want);
    memcpy(s, texts[i], len);
    count = u8x_mbstowcs(NULL, s, 0);
    check_context("mbstowcs, text #%u", (unsigned)i);
    CHECK_EQ(count, w.written);
    /* dest exactly n wide characters long */
    for (n = 0; n <= count + 1; n++) {
      wchar_t *dest = (wchar_t *)(void *)place(dst_arena, n * sizeof(wchar_t), 0);
      CHECK_EQ(u8x_mbstowcs(dest, s, n), n <= count ? n : count);
    }
    /* and back: the wide string's terminator is the last readable unit */
    {
      wchar_t *ws = (wchar_t *)(void *)place(src_arena, (count + 1) * sizeof(wchar_t), 0);
      size_t k, bytes = len - 1;
      for (k = 0; k < count; k++) ws[k] = (wchar_t)want[k];
      ws[count] = 0;
      check_context("wcstombs, text #%u", (unsigned)i);
      CHECK_EQ(u8x_wcstombs(NULL, ws, 0), bytes);
      for (n = 0; n <= bytes + 1; n++) {
        char *dest = (char *)place(dst_arena, n, 0);
        size_t r = u8x_wcstombs(dest, ws, n);
        CHECK(r <= n && r <= bytes);
        if (n >= bytes) CHECK_EQ(r, bytes);
        CHECK(memcmp(dest, texts[i], r) == 0);
      }
    }
  }
  check_context("%s", "");
  printf("mbstowcs, wcstombs: strings and buffers against guard pages\n");
}

int main(void) {
  check_begin("overrun");
  src_arena = arena_new();
  dst_arena = arena_new();
  bytes_functions();
  encode_functions();
  posix_functions();
  return check_done();
}
