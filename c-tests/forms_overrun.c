/* The forms' functions read and write nothing outside the buffers they
 * are given, however long and wherever they are: every input and output
 * (and u8x_classify's info) is placed flush against an inaccessible guard
 * page, after it or before it, so that an access out of bounds by vector
 * code, which ASan cannot see inside the Rust library, is a crash. Outputs
 * are exactly as long as needed, and shorter. The results are compared
 * with the reference in forms.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS under -std=c99 */
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "guard.h"
#include "forms.h"

static struct arena src_arena, dst_arena;

static const uint32_t dec_policies[] = {U8X_STRICT, U8X_REPLACE, U8X_ESCAPE, U8X_LATIN1, U8X_CP1252};

/* The lengths tried: every one up to 200, then some around vector blocks
 * and chunks, and the most the arena holds of the text. */
static size_t lengths(size_t *lens, size_t total) {
  size_t n = 0, i;
  static const size_t more[] = {255, 256, 257, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 4095};
  for (i = 0; i <= 200; i++) lens[n++] = i;
  for (i = 0; i < COUNT_OF(more); i++)
    if (more[i] <= total) lens[n++] = more[i];
  lens[n++] = total;
  return n;
}

/* UTF-8 in: decode_utf16 (every policy and order), decode_latin1,
 * classify, count_utf16_valid. */
static void utf8_inputs(void) {
  static uint8_t text[6000];
  static uint16_t want16[12000];
  static uint8_t want8[6000];
  static uint8_t latin[6000];
  uint32_t state = 16;
  size_t total = ref_random_text(text, sizeof text, 9, &state), lens[300], n_lens = lengths(lens, total), li, j, o, k;
  size_t latin_total;
  int head;
  /* a mostly-Latin-1 text too, so that decode_latin1 goes far */
  for (latin_total = 0; latin_total + 2 <= sizeof latin;) {
    uint32_t r = ref_rand(&state) % 64;
    latin_total += ref_put_utf8(latin + latin_total, r == 0 ? 0x20AC : r < 40 ? 0x20 + r : 0x80 + ref_rand(&state) % 0x80);
  }
  for (head = 0; head <= 1; head++) {
    for (li = 0; li < n_lens; li++) {
      size_t n = lens[li], start;
      for (start = 0; start + n <= total && start < 2 * 97; start += 97) {
        uint8_t *s = place(src_arena, n, head);
        memcpy(s, text + start, n);
        check_context("%u bytes at the %s guard page, text offset %u", (unsigned)n, head ? "leading" : "trailing",
                      (unsigned)start);
        for (j = 0; j < COUNT_OF(dec_policies); j++) {
          u8x_result w = ref_decode_utf16(s, n, dec_policies[j], U8X_REPLACEMENT_CHARACTER, 0, want16);
          for (o = 0; o < COUNT_OF(orders); o++) {
            if (o > 0 && j > 1) continue;
            CHECK_RESULT(u8x_decode_utf16(s, n, NULL, 0, dec_policies[j], U8X_REPLACEMENT_CHARACTER, orders[o].flag),
                         w.status, w.error, w.read, w.written, w.error_len);
            for (k = 0; k < 3 && k <= w.written; k++) {
              size_t cap = w.written - k;
              uint16_t *dst = (uint16_t *)(void *)place(dst_arena, cap * sizeof *dst, head);
              u8x_result r =
                  u8x_decode_utf16(s, n, dst, cap, dec_policies[j], U8X_REPLACEMENT_CHARACTER, orders[o].flag);
              if (k == 0)
                CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
              else
                CHECK(r.status == U8X_OUTPUT_FULL && r.written <= cap && r.written + 1 >= cap);
              if (o == 0) CHECK_U16S(dst, r.written, want16, r.written);
            }
          }
        }
        {
          u8x_classification want_info, *info;
          u8x_result w = ref_classify(s, n, 0, &want_info), r;
          info = (u8x_classification *)(void *)place(dst_arena, sizeof *info, head);
          r = u8x_classify(s, n, 0, info);
          CHECK_RESULT(r, w.status, w.error, w.read, 0, w.error_len);
          CHECK(info->width == want_info.width && info->code_points == want_info.code_points &&
                info->utf16_units == want_info.utf16_units);
          w = ref_classify(s, n, 1, &want_info);
          r = u8x_classify(s, n, U8X_MORE_INPUT, info);
          CHECK_RESULT(r, w.status, w.error, w.read, 0, w.error_len);
          if (w.status != U8X_ILL_FORMED) {
            u8x_result d = ref_decode_utf16(s, w.read, U8X_STRICT, 0, 0, want16);
            CHECK_EQ(u8x_count_utf16_valid(s, w.read), d.written);
          }
          u8x_count_utf16_valid(s, n); /* any bytes: only that it reads none outside */
        }
        /* the Latin-1 text at the same place */
        if (n <= latin_total) {
          memcpy(s, latin + (start < latin_total - n ? start : 0), n);
          for (j = 0; j < 2; j++) {
            u8x_result w = ref_decode_latin1(s, n, j ? U8X_REPLACE : U8X_STRICT, '?', 0, want8);
            CHECK_RESULT(u8x_decode_latin1(s, n, NULL, 0, j ? U8X_REPLACE : U8X_STRICT, '?', 0), w.status, w.error,
                         w.read, w.written, w.error_len);
            for (k = 0; k < 3 && k <= w.written; k++) {
              size_t cap = w.written - k;
              uint8_t *dst = place(dst_arena, cap, head);
              u8x_result r = u8x_decode_latin1(s, n, dst, cap, j ? U8X_REPLACE : U8X_STRICT, '?', 0);
              if (k == 0)
                CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
              else
                CHECK(r.status == U8X_OUTPUT_FULL && r.written == cap);
              CHECK_BYTES(dst, r.written, want8, r.written);
            }
          }
        }
      }
    }
  }
  check_context("%s", "");
  printf("UTF-8 in (decode_utf16, decode_latin1, classify, count_utf16_valid): %u lengths at both guard pages\n",
         (unsigned)n_lens);
}

/* UTF-16 in: encode_utf16, validate_utf16, encoded_len_utf16_valid. */
static void utf16_inputs(void) {
  static uint16_t values[3000], src_units[3000];
  static uint8_t want[12000];
  uint32_t state = 77;
  size_t n, j, o, k;
  int head;
  ref_random_units(values, COUNT_OF(values), 60, &state);
  for (head = 0; head <= 1; head++) {
    for (n = 0; n <= COUNT_OF(values); n += n < 200 ? 1 : 397) {
      for (o = 0; o < COUNT_OF(orders); o++) {
        uint16_t *src = (uint16_t *)(void *)place(src_arena, n * sizeof *src, head);
        u8x_result v = ref_validate_utf16(values, n, 0);
        units_to_order(src_units, values, n, orders[o].flag);
        memcpy(src, src_units, n * sizeof *src);
        check_context("%u units at the %s guard page, %s", (unsigned)n, head ? "leading" : "trailing", orders[o].name);
        CHECK_RESULT(u8x_validate_utf16(src, n, orders[o].flag), v.status, v.error, v.read, 0, v.error_len);
        v = ref_validate_utf16(values, n, 1);
        CHECK_RESULT(u8x_validate_utf16(src, n, orders[o].flag | U8X_MORE_INPUT), v.status, v.error, v.read, 0,
                     v.error_len);
        u8x_encoded_len_utf16_valid(src, n, orders[o].flag); /* any units: only that it reads none outside */
        if (v.status == U8X_OK)
          CHECK_EQ(u8x_encoded_len_utf16_valid(src, n, orders[o].flag),
                   ref_encode_utf16(values, n, U8X_STRICT, 0, 0, want).written);
        for (j = 0; j < 3; j++) {
          uint32_t policy = j == 0 ? U8X_STRICT : j == 1 ? U8X_REPLACE : U8X_ESCAPE;
          u8x_result w = ref_encode_utf16(values, n, policy, U8X_REPLACEMENT_CHARACTER, 0, want);
          CHECK_RESULT(u8x_encode_utf16(src, n, NULL, 0, policy, U8X_REPLACEMENT_CHARACTER, orders[o].flag), w.status,
                       w.error, w.read, w.written, w.error_len);
          /* exactly as long as needed, and up to 4 bytes shorter */
          for (k = 0; k < 5 && k <= w.written; k++) {
            size_t cap = w.written - k;
            uint8_t *dst = place(dst_arena, cap, head);
            u8x_result r = u8x_encode_utf16(src, n, dst, cap, policy, U8X_REPLACEMENT_CHARACTER, orders[o].flag);
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
  }
  check_context("%s", "");
  printf("UTF-16 in (encode_utf16, validate_utf16, encoded_len_utf16_valid): lengths 0..%u at both guard pages\n",
         (unsigned)COUNT_OF(values));
}

/* Latin-1 in: encode_latin1. */
static void latin1_inputs(void) {
  static uint8_t bytes[5000], want[10000];
  uint32_t state = 5;
  size_t n, i, k;
  int head;
  for (i = 0; i < sizeof bytes; i++) {
    uint32_t x = ref_rand(&state);
    bytes[i] = (uint8_t)(x % 3 ? 0x20 + x % 0x5F : 0x80 + x % 0x80);
  }
  for (head = 0; head <= 1; head++) {
    for (n = 0; n <= sizeof bytes; n += n < 200 ? 1 : 331) {
      uint8_t *src = place(src_arena, n, head);
      size_t want_len = ref_encode_latin1(bytes, n, want);
      memcpy(src, bytes, n);
      check_context("%u Latin-1 bytes at the %s guard page", (unsigned)n, head ? "leading" : "trailing");
      CHECK_RESULT(u8x_encode_latin1(src, n, NULL, 0), U8X_OK, U8X_ERR_NONE, n, want_len, 0);
      for (k = 0; k < 3 && k <= want_len; k++) {
        size_t cap = want_len - k;
        uint8_t *dst = place(dst_arena, cap, head);
        u8x_result r = u8x_encode_latin1(src, n, dst, cap);
        if (k == 0)
          CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, want_len, 0);
        else
          CHECK(r.status == U8X_OUTPUT_FULL && r.written <= cap && r.written + 2 > cap);
        CHECK_BYTES(dst, r.written, want, r.written);
      }
    }
  }
  check_context("%s", "");
  printf("Latin-1 in (encode_latin1): lengths 0..%u at both guard pages\n", (unsigned)sizeof bytes);
}

int main(void) {
  check_begin("forms_overrun");
  src_arena = arena_new();
  dst_arena = arena_new();
  utf8_inputs();
  utf16_inputs();
  latin1_inputs();
  return check_done();
}
