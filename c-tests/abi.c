/* The ABI of u8x_result and u8x_classification, at run time: the enum
 * typedefs are 4 bytes, the fields are where the header's static checks
 * say, and the library (Rust, #[repr(C)] with #[repr(u32)] enums) writes
 * each field at the offset this compiler reads it from: the raw bytes of
 * a returned struct are compared with fields the library set to distinct
 * values. The enum constants keep their values.
 *
 * The C harness compiles it like every c-test; c-tests/header-matrix.sh,
 * given the library, also builds and runs it with -fshort-enums, under
 * which a plain C enum field would be 1 byte and every offset would move. */
#include "check.h"

/* Whether this compiler makes enums as small as their values. */
enum abi_probe { ABI_PROBE_ONE = 1 };

static uint32_t u32_at(const void *base, size_t offset) {
  uint32_t v;
  memcpy(&v, (const unsigned char *)base + offset, sizeof v);
  return v;
}

static size_t size_at(const void *base, size_t offset) {
  size_t v;
  memcpy(&v, (const unsigned char *)base + offset, sizeof v);
  return v;
}

static void sizes_and_offsets(void) {
  const size_t w = sizeof(size_t);
  printf("abi: sizeof(enum abi_probe) = %u%s, sizeof(size_t) = %u\n", (unsigned)sizeof(enum abi_probe),
         sizeof(enum abi_probe) == 1 ? " (short enums)" : "", (unsigned)w);
  CHECK_EQ(sizeof(u8x_status), 4);
  CHECK_EQ(sizeof(u8x_error), 4);
  CHECK_EQ(sizeof(u8x_policy), 4);
  CHECK_EQ(sizeof(u8x_width), 4);
  CHECK_EQ(offsetof(u8x_result, status), 0);
  CHECK_EQ(offsetof(u8x_result, error), 4);
  CHECK_EQ(offsetof(u8x_result, read), 8);
  CHECK_EQ(offsetof(u8x_result, written), 8 + w);
  CHECK_EQ(offsetof(u8x_result, error_len), 8 + 2 * w);
  CHECK_EQ(offsetof(u8x_result, handled), 8 + 3 * w);
  CHECK_EQ(offsetof(u8x_result, bom_skipped), 8 + 4 * w);
  CHECK_EQ(sizeof(u8x_result), 8 + 5 * w);
  CHECK_EQ(offsetof(u8x_classification, width), 0);
  CHECK_EQ(offsetof(u8x_classification, code_points), w);
  CHECK_EQ(offsetof(u8x_classification, utf16_units), 2 * w);
  CHECK_EQ(sizeof(u8x_classification), 3 * w);
}

static void constants(void) {
  CHECK_EQ(U8X_OK, 0);
  CHECK_EQ(U8X_ILL_FORMED, 1);
  CHECK_EQ(U8X_INCOMPLETE, 2);
  CHECK_EQ(U8X_OUTPUT_FULL, 3);
  CHECK_EQ(U8X_BAD_ARGUMENT, 4);
  CHECK_EQ(U8X_INTERNAL_ERROR, 5);
  CHECK_EQ(U8X_ERR_NONE, 0);
  CHECK_EQ(U8X_ERR_UNEXPECTED_CONTINUATION, 1);
  CHECK_EQ(U8X_ERR_INVALID_BYTE, 2);
  CHECK_EQ(U8X_ERR_TRUNCATED_SEQUENCE, 3);
  CHECK_EQ(U8X_ERR_OVERLONG, 4);
  CHECK_EQ(U8X_ERR_SURROGATE, 5);
  CHECK_EQ(U8X_ERR_ABOVE_MAX, 6);
  CHECK_EQ(U8X_ERR_END_OF_INPUT, 7);
  CHECK_EQ(U8X_ERR_NOT_REPRESENTABLE, 8);
  CHECK_EQ(U8X_STRICT, 0);
  CHECK_EQ(U8X_REPLACE, 1);
  CHECK_EQ(U8X_ESCAPE, 2);
  CHECK_EQ(U8X_LATIN1, 3);
  CHECK_EQ(U8X_CP1252, 4);
  CHECK_EQ(U8X_IGNORE, 5);
  CHECK_EQ(U8X_SKIP_BOM, 8);
  CHECK_EQ(U8X_WIDTH_ASCII, 0);
  CHECK_EQ(U8X_WIDTH_LATIN1, 1);
  CHECK_EQ(U8X_WIDTH_BMP, 2);
  CHECK_EQ(U8X_WIDTH_SUPPLEMENTARY, 3);
  /* the enum names are types too */
  {
    enum u8x_status s = U8X_OUTPUT_FULL;
    enum u8x_error e = U8X_ERR_SURROGATE;
    enum u8x_width wd = U8X_WIDTH_BMP;
    enum u8x_policy p = U8X_ESCAPE;
    CHECK_STR(u8x_status_name(s), "output full");
    CHECK(u8x_error_name(e) != NULL);
    CHECK_EQ(wd + p, 4);
  }
}

/* Every field of a result set by the library, checked by name and in the
 * raw bytes. */
static void result_fields(void) {
  /* "h\u00e9llo" then E2 82 cut short by 'x': ill-formed at byte 6, after
   * 5 code points, a truncated sequence of 2 bytes */
  static const uint8_t text[] = "h\xC3\xA9llo\xE2\x82x";
  uint32_t out[16];
  u8x_result r;
  unsigned char raw[sizeof(u8x_result)];
  const size_t w = sizeof(size_t);

  memset(&r, 0xA5, sizeof r);
  r = u8x_decode_ucs4(text, sizeof text - 1, out, COUNT_OF(out), U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_TRUNCATED_SEQUENCE, 6, 5, 2);
  memcpy(raw, &r, sizeof raw);
  CHECK_EQ(u32_at(raw, 0), U8X_ILL_FORMED);
  CHECK_EQ(u32_at(raw, 4), U8X_ERR_TRUNCATED_SEQUENCE);
  CHECK_EQ(size_at(raw, 8), 6);
  CHECK_EQ(size_at(raw, 8 + w), 5);
  CHECK_EQ(size_at(raw, 8 + 2 * w), 2);

  /* U8X_INCOMPLETE with U8X_MORE_INPUT: the last 2 bytes are left over */
  r = u8x_validate(text, 8, U8X_MORE_INPUT);
  CHECK_RESULT(r, U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 6, 0, 2);
  memcpy(raw, &r, sizeof raw);
  CHECK_EQ(u32_at(raw, 0), U8X_INCOMPLETE);
  CHECK_EQ(u32_at(raw, 4), U8X_ERR_END_OF_INPUT);
  CHECK_EQ(size_at(raw, 8 + 2 * w), 2);

  /* handled and bom_skipped: a mark skipped, then "a", C0 (one maximal
   * subpart), E2 82 (another) and "b", both subparts replaced */
  {
    static const uint8_t marked[] = "\xEF\xBB\xBF" "a\xC0\xE2\x82" "b";
    r = u8x_decode_ucs4(marked, sizeof marked - 1, out, COUNT_OF(out), U8X_REPLACE, U8X_REPLACEMENT_CHARACTER,
                        U8X_SKIP_BOM);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, sizeof marked - 1, 4, 0);
    CHECK_EQ(r.handled, 2);
    CHECK_EQ(r.bom_skipped, 3);
    memcpy(raw, &r, sizeof raw);
    CHECK_EQ(size_at(raw, 8 + 3 * w), 2);
    CHECK_EQ(size_at(raw, 8 + 4 * w), 3);
  }

  /* a bad argument: status 4, every other field 0 */
  r = u8x_validate(NULL, 1, 0);
  CHECK_RESULT(r, U8X_BAD_ARGUMENT, U8X_ERR_NONE, 0, 0, 0);
  memcpy(raw, &r, sizeof raw);
  CHECK_EQ(u32_at(raw, 0), U8X_BAD_ARGUMENT);
  CHECK_EQ(size_at(raw, 8 + 3 * w), 0);
  CHECK_EQ(size_at(raw, 8 + 4 * w), 0);
}

static void classification_fields(void) {
  /* a, e-acute, euro sign, U+1F600: 4 characters, 5 UTF-16 units */
  static const uint8_t text[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  u8x_classification info;
  unsigned char raw[sizeof(u8x_classification)];
  u8x_result r;
  const size_t w = sizeof(size_t);

  memset(&info, 0xA5, sizeof info);
  r = u8x_classify(text, sizeof text - 1, 0, &info);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, sizeof text - 1, 0, 0);
  CHECK_EQ(info.width, U8X_WIDTH_SUPPLEMENTARY);
  CHECK_EQ(info.code_points, 4);
  CHECK_EQ(info.utf16_units, 5);
  memcpy(raw, &info, sizeof raw);
  CHECK_EQ(u32_at(raw, 0), U8X_WIDTH_SUPPLEMENTARY);
  CHECK_EQ(size_at(raw, w), 4);
  CHECK_EQ(size_at(raw, 2 * w), 5);
}

int main(void) {
  check_begin("abi");
  sizes_and_offsets();
  constants();
  result_fields();
  classification_fields();
  return check_done();
}
