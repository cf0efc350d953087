// simdutf 9.1.0 under a private namespace (see build.rs), with a C entry
// point for each function the benchmarks and tests compare with. Built with
// U8X_SD91_MISSING when the amalgamation is absent: then every entry point
// aborts, and the Rust side never calls one (`AVAILABLE` is false).
#include <stddef.h>
#include <stdlib.h>

#ifdef U8X_SD91_MISSING
#define BODY(...) abort()
#else
#include "simdutf.cpp"
#define BODY(...) return __VA_ARGS__
// validate_utf8_with_errors as an error code (0 = success) and an offset.
static int with_errors(const char *s, size_t n, size_t *where) {
  simdutf::result r = simdutf::validate_utf8_with_errors(s, n);
  *where = r.count;
  return static_cast<int>(r.error);
}
#endif

#define SD91_EXPORT extern "C" __attribute__((visibility("default")))

SD91_EXPORT const char *u8x_sd91_implementation(void) {
  // A string_view of the implementation's static, NUL-terminated name.
  BODY(simdutf::get_active_implementation()->name().data());
}
SD91_EXPORT int u8x_sd91_validate_utf8_with_errors(const char *s, size_t n, size_t *where) {
  BODY(with_errors(s, n, where));
}

SD91_EXPORT bool u8x_sd91_validate_utf8(const char *s, size_t n) {
  BODY(simdutf::validate_utf8(s, n));
}
SD91_EXPORT size_t u8x_sd91_convert_utf8_to_utf32(const char *s, size_t n, char32_t *d) {
  BODY(simdutf::convert_utf8_to_utf32(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_utf32_to_utf8(const char32_t *s, size_t n, char *d) {
  BODY(simdutf::convert_utf32_to_utf8(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_count_utf8(const char *s, size_t n) {
  BODY(simdutf::count_utf8(s, n));
}
SD91_EXPORT size_t u8x_sd91_utf8_length_from_utf32(const char32_t *s, size_t n) {
  BODY(simdutf::utf8_length_from_utf32(s, n));
}
SD91_EXPORT bool u8x_sd91_validate_utf32(const char32_t *s, size_t n) {
  BODY(simdutf::validate_utf32(s, n));
}
SD91_EXPORT size_t u8x_sd91_convert_utf8_to_utf16le(const char *s, size_t n, char16_t *d) {
  BODY(simdutf::convert_utf8_to_utf16le(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_utf16le_to_utf8(const char16_t *s, size_t n, char *d) {
  BODY(simdutf::convert_utf16le_to_utf8(s, n, d));
}
SD91_EXPORT bool u8x_sd91_validate_utf16le(const char16_t *s, size_t n) {
  BODY(simdutf::validate_utf16le(s, n));
}
SD91_EXPORT size_t u8x_sd91_utf16_length_from_utf8(const char *s, size_t n) {
  BODY(simdutf::utf16_length_from_utf8(s, n));
}
SD91_EXPORT size_t u8x_sd91_utf8_length_from_utf16le(const char16_t *s, size_t n) {
  BODY(simdutf::utf8_length_from_utf16le(s, n));
}
SD91_EXPORT size_t u8x_sd91_convert_utf8_to_latin1(const char *s, size_t n, char *d) {
  BODY(simdutf::convert_utf8_to_latin1(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_latin1_to_utf8(const char *s, size_t n, char *d) {
  BODY(simdutf::convert_latin1_to_utf8(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_latin1_to_utf16le(const char *s, size_t n, char16_t *d) {
  BODY(simdutf::convert_latin1_to_utf16le(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_utf16le_to_latin1(const char16_t *s, size_t n, char *d) {
  BODY(simdutf::convert_utf16le_to_latin1(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_latin1_to_utf32(const char *s, size_t n, char32_t *d) {
  BODY(simdutf::convert_latin1_to_utf32(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_utf32_to_latin1(const char32_t *s, size_t n, char *d) {
  BODY(simdutf::convert_utf32_to_latin1(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_utf16le_to_utf32(const char16_t *s, size_t n, char32_t *d) {
  BODY(simdutf::convert_utf16le_to_utf32(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_convert_utf32_to_utf16le(const char32_t *s, size_t n, char16_t *d) {
  BODY(simdutf::convert_utf32_to_utf16le(s, n, d));
}
SD91_EXPORT int u8x_sd91_detect_encodings(const char *s, size_t n) {
  BODY(simdutf::detect_encodings(s, n));
}
SD91_EXPORT bool u8x_sd91_validate_ascii(const char *s, size_t n) {
  BODY(simdutf::validate_ascii(s, n));
}
SD91_EXPORT bool u8x_sd91_validate_utf16le_as_ascii(const char16_t *s, size_t n) {
  BODY(simdutf::validate_utf16le_as_ascii(s, n));
}
SD91_EXPORT void u8x_sd91_to_well_formed_utf16le(const char16_t *s, size_t n, char16_t *d) {
  BODY(simdutf::to_well_formed_utf16le(s, n, d));
}
SD91_EXPORT void u8x_sd91_change_endianness_utf16(const char16_t *s, size_t n, char16_t *d) {
  BODY(simdutf::change_endianness_utf16(s, n, d));
}
SD91_EXPORT size_t u8x_sd91_count_utf16le(const char16_t *s, size_t n) {
  BODY(simdutf::count_utf16le(s, n));
}
SD91_EXPORT size_t u8x_sd91_utf16_length_from_utf32(const char32_t *s, size_t n) {
  BODY(simdutf::utf16_length_from_utf32(s, n));
}
