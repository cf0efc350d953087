// The header is valid C++11 and its extern "C" guards work: this file
// includes it, calls a few functions (unmangled names, or it would not link)
// and uses the types the C++ way. Compiled with
// g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror.
#include "u8x.h"
#include "u8x.h"  // include guard

#include <type_traits>

#include "check.h"

static_assert(std::is_standard_layout<u8x_result>::value, "u8x_result is a C struct");
static_assert(std::is_trivially_copyable<u8x_result>::value, "u8x_result is a C struct");
static_assert(U8X_REPLACEMENT_CHARACTER == 0xFFFD, "U+FFFD");
static_assert(U8X_BAD_SIZE == SIZE_MAX, "SIZE_MAX");

// Function pointers with the declared C signatures.
static u8x_result (*const validate_fn)(const uint8_t *, size_t, uint32_t) = &u8x_validate;
static size_t (*const mbstowcs_fn)(wchar_t *, const char *, size_t) = &u8x_mbstowcs;

int main() {
  check_begin("cpp_header");
  // "A<NOT IDENTICAL TO><ALPHA>." from RFC 2044
  constexpr uint8_t bytes[] = {0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E};
  constexpr uint32_t cps[] = {0x41, 0x2262, 0x391, 0x2E};

  u8x_result r = validate_fn(bytes, sizeof bytes, 0);
  CHECK(r.status == U8X_OK);
  CHECK_STR(u8x_status_name(r.status), "ok");

  uint32_t out[sizeof bytes];
  CHECK_EQ(u8x_decode_ucs4_bound(sizeof bytes), COUNT_OF(out));
  r = u8x_decode_ucs4(bytes, sizeof bytes, out, COUNT_OF(out), U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, sizeof bytes, COUNT_OF(cps), 0);
  CHECK_U32S(out, r.written, cps, COUNT_OF(cps));

  uint8_t back[4 * COUNT_OF(cps)];
  CHECK_EQ(u8x_encode_bound(COUNT_OF(cps)), sizeof back);
  r = u8x_encode(cps, COUNT_OF(cps), back, sizeof back, U8X_STRICT, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, COUNT_OF(cps), sizeof bytes, 0);
  CHECK_BYTES(back, r.written, bytes, sizeof bytes);

  // the enums are distinct C++ types that still convert to int
  u8x_error e = U8X_ERR_OVERLONG;
  u8x_policy p = U8X_REPLACE;
  const uint8_t overlong[] = {0xC0, 0xAF};
  r = u8x_decode_ucs4(overlong, sizeof overlong, nullptr, 0, p, U8X_REPLACEMENT_CHARACTER, U8X_MORE_INPUT);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 2, 0);
  CHECK_STR(u8x_error_name(e), "overlong encoding");
  CHECK(u8x_count(overlong, 2, U8X_STRICT, 0).error == U8X_ERR_INVALID_BYTE);

  wchar_t w[8];
  CHECK_EQ(mbstowcs_fn(w, "\xE2\x82\xAC", 8), 1);
  CHECK(w[0] == 0x20AC && w[1] == 0);
  CHECK_EQ(u8x_next_boundary(bytes, sizeof bytes, 2), 4);
  CHECK_STR(u8x_version(), U8X_VERSION_STRING);
  return check_done();
}
