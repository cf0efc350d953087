/* The version macros, u8x_version(), and the status and error names.
 *
 * The harness passes -DU8X_EXPECTED_VERSION="<version in Cargo.toml>", so the
 * header and the library are both compared with what cargo built. */
#include <ctype.h>

#include "check.h"

#ifndef U8X_EXPECTED_VERSION
#error "compile with -DU8X_EXPECTED_VERSION=\"x.y.z\" (the harness does)"
#endif

/* Non-empty, printable, lower-case: the only capitals allowed are in the
 * names "UTF-8" and "U+<hex>" ("byte never valid in UTF-8" is lower-case
 * English in the header's sense). */
static int lower_case_text(const char *s) {
  if (s == NULL || *s == '\0') return 0;
  while (*s) {
    if (strncmp(s, "UTF-8", 5) == 0) {
      s += 5;
    } else if (s[0] == 'U' && s[1] == '+' && isxdigit((unsigned char)s[2])) {
      for (s += 2; isxdigit((unsigned char)*s);) s++;
    } else {
      if (isupper((unsigned char)*s) || !isprint((unsigned char)*s)) return 0;
      s++;
    }
  }
  return 1;
}

static void version(void) {
  char built[64];
  const char *v = u8x_version();
  CHECK(v != NULL);
  CHECK_STR(v, U8X_VERSION_STRING);
  CHECK_STR(v, U8X_EXPECTED_VERSION);
  CHECK_STR(U8X_VERSION_STRING, U8X_EXPECTED_VERSION);
  snprintf(built, sizeof built, "%d.%d.%d", U8X_VERSION_MAJOR, U8X_VERSION_MINOR, U8X_VERSION_PATCH);
  CHECK_STR(built, U8X_VERSION_STRING);
  CHECK(u8x_version() == v); /* a static string */
  /* the macros are usable in #if */
#if U8X_VERSION_MAJOR < 0 || U8X_VERSION_MINOR < 0 || U8X_VERSION_PATCH < 0
  CHECK(!"negative version number");
#endif
  printf("version: header %s, library %s, Cargo.toml %s\n", U8X_VERSION_STRING, v, U8X_EXPECTED_VERSION);
}

static void constants(void) {
  CHECK_EQ(U8X_REPLACEMENT_CHARACTER, 0xFFFD); /* U+FFFD REPLACEMENT CHARACTER */
  CHECK_EQ(U8X_BAD_SIZE, SIZE_MAX);
  CHECK_EQ(U8X_MORE_INPUT & (U8X_MORE_INPUT - 1), 0); /* a single bit */
  CHECK(U8X_MORE_INPUT != 0);
  /* the byte-order flags: single bits, distinct from it and each other */
  CHECK_EQ(U8X_LITTLE_ENDIAN & (U8X_LITTLE_ENDIAN - 1), 0);
  CHECK_EQ(U8X_BIG_ENDIAN & (U8X_BIG_ENDIAN - 1), 0);
  CHECK_EQ(U8X_MORE_INPUT & U8X_LITTLE_ENDIAN, 0);
  CHECK_EQ(U8X_MORE_INPUT & U8X_BIG_ENDIAN, 0);
  CHECK_EQ(U8X_LITTLE_ENDIAN & U8X_BIG_ENDIAN, 0);
  CHECK(U8X_LITTLE_ENDIAN != 0 && U8X_BIG_ENDIAN != 0);
  /* U8X_SKIP_BOM: a single bit of its own */
  CHECK_EQ(U8X_SKIP_BOM & (U8X_SKIP_BOM - 1), 0);
  CHECK(U8X_SKIP_BOM != 0);
  CHECK_EQ(U8X_SKIP_BOM & (U8X_MORE_INPUT | U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN), 0);
  /* the documented zero values */
  CHECK_EQ(U8X_OK, 0);
  CHECK_EQ(U8X_ERR_NONE, 0);
  CHECK_EQ(U8X_STRICT, 0);
}

static void names(void) {
  static const int statuses[] = {U8X_OK, U8X_ILL_FORMED, U8X_INCOMPLETE, U8X_OUTPUT_FULL, U8X_BAD_ARGUMENT,
                                 U8X_INTERNAL_ERROR};
  static const int errors[] = {U8X_ERR_NONE,     U8X_ERR_UNEXPECTED_CONTINUATION,
                               U8X_ERR_INVALID_BYTE, U8X_ERR_TRUNCATED_SEQUENCE,
                               U8X_ERR_OVERLONG, U8X_ERR_SURROGATE,
                               U8X_ERR_ABOVE_MAX, U8X_ERR_END_OF_INPUT,
                               U8X_ERR_NOT_REPRESENTABLE};
  size_t i, j;
  /* the names the header quotes */
  CHECK_STR(u8x_status_name(U8X_OK), "ok");
  CHECK_STR(u8x_status_name(U8X_ILL_FORMED), "ill-formed");
  CHECK_STR(u8x_error_name(U8X_ERR_OVERLONG), "overlong encoding");
  CHECK_STR(u8x_status_name(-1), "unknown status");
  CHECK_STR(u8x_error_name(-1), "unknown error");
  /* every other one: static, lower-case, distinct, and not "unknown" */
  for (i = 0; i < COUNT_OF(statuses); i++) {
    const char *n = u8x_status_name(statuses[i]);
    check_context("status %d", statuses[i]);
    CHECK(lower_case_text(n));
    CHECK(n != NULL && strcmp(n, "unknown status") != 0);
    CHECK(u8x_status_name(statuses[i]) == n);
    for (j = 0; j < i; j++) CHECK(n != NULL && strcmp(n, u8x_status_name(statuses[j])) != 0);
    printf("  status %d: %s\n", statuses[i], n ? n : "(null)");
  }
  for (i = 0; i < COUNT_OF(errors); i++) {
    const char *n = u8x_error_name(errors[i]);
    check_context("error %d", errors[i]);
    CHECK(lower_case_text(n));
    CHECK(n != NULL && strcmp(n, "unknown error") != 0);
    CHECK(u8x_error_name(errors[i]) == n);
    for (j = 0; j < i; j++) CHECK(n != NULL && strcmp(n, u8x_error_name(errors[j])) != 0);
    printf("  error %d: %s\n", errors[i], n ? n : "(null)");
  }
  check_context("%s", "");
  /* the values are distinct */
  for (i = 0; i < COUNT_OF(statuses); i++)
    for (j = 0; j < i; j++) CHECK(statuses[i] != statuses[j]);
  for (i = 0; i < COUNT_OF(errors); i++)
    for (j = 0; j < i; j++) CHECK(errors[i] != errors[j]);
}

int main(void) {
  check_begin("version");
  version();
  constants();
  names();
  return check_done();
}
