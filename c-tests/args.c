/* Bad arguments, for every function: NULL with a non-zero length, unknown
 * policies and flags, replacements that are not scalar values, latin1 and
 * cp1252 when encoding, positions past the end, overlapping buffers,
 * misaligned uint32_t / wchar_t pointers (whatever the length, even 0),
 * lengths no object can have, buffers that would run past the end of the
 * address space. And
 * the legal edge cases next to them: NULL with length 0, replacements that
 * are ignored, adjacent (not overlapping) buffers. A rejected call must
 * leave every buffer untouched. */
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>

#include "check.h"

#define BAD(r) CHECK_RESULT((r), U8X_BAD_ARGUMENT, U8X_ERR_NONE, 0, 0, 0)
#define FAIL ((size_t)-1)

/* One block of memory seen as bytes, code points and wide characters. */
static union {
  uint8_t b[128];
  uint32_t u[32];
  wchar_t w[32];
  uint64_t align;
} mem;
static uint8_t snapshot[sizeof mem];

/* 16 bytes below the top of the address space (never dereferenced: each
 * call with it must be refused before reading). */
#define TOP_ADDRESS (UINTPTR_MAX - 15)
static const uint8_t *const top_bytes = (const uint8_t *)TOP_ADDRESS;

static void take_snapshot(void) { memcpy(snapshot, &mem, sizeof mem); }
#define UNTOUCHED() CHECK(memcmp(snapshot, &mem, sizeof mem) == 0)

static const uint8_t text[] = {'a', 0xC3, 0xA9, 0xE2, 0x82, 0xAC};
static const uint32_t units[] = {'a', 0xE9, 0x20AC};

/* Replacement values U8X_REPLACE must refuse: surrogates and values above
 * U+10FFFF. */
static const uint32_t not_scalars[] = {0xD800, 0xDBFF, 0xDC00, 0xDC80, 0xDFFF, 0x110000, 0x7FFFFFFF, 0xFFFFFFFF};
/* Values that are not policies at all. */
static const uint32_t not_policies[] = {6, 7, 100, 0x80000000u, 0xFFFFFFFFu};
/* Values with a bit other than U8X_MORE_INPUT. */
static const uint32_t not_flags[] = {2, 3, 0x80000000u, 0xFFFFFFFFu};

static void validate_args(void) {
  size_t i;
  check_context("u8x_validate");
  BAD(u8x_validate(NULL, 1, 0));
  BAD(u8x_validate(NULL, SIZE_MAX, U8X_MORE_INPUT));
  for (i = 0; i < COUNT_OF(not_flags); i++) {
    BAD(u8x_validate(text, sizeof text, not_flags[i]));
    BAD(u8x_validate(NULL, 0, not_flags[i]));
  }
  /* lengths no object can have (more than PTRDIFF_MAX bytes) */
  BAD(u8x_validate(text, SIZE_MAX, 0));
  BAD(u8x_validate(text, (size_t)PTRDIFF_MAX + 1, 0));
  /* a buffer that would run past the end of the address space */
  BAD(u8x_validate(top_bytes, 16, 0));
  BAD(u8x_count(top_bytes, 16, U8X_STRICT, 0));
  CHECK_EQ(u8x_count_valid(top_bytes, 16), U8X_BAD_SIZE);
  /* fine */
  CHECK_RESULT(u8x_validate(NULL, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate(text, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void decode_args(void) {
  size_t i;
  uint32_t out[8];
  check_context("u8x_decode_ucs4");
  BAD(u8x_decode_ucs4(NULL, 1, out, 8, U8X_STRICT, 0, 0));
  BAD(u8x_decode_ucs4(text, sizeof text, NULL, 1, U8X_STRICT, 0, 0));
  BAD(u8x_decode_ucs4(text, sizeof text, NULL, SIZE_MAX, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0));
  BAD(u8x_decode_ucs4(text, SIZE_MAX, out, 8, U8X_STRICT, 0, 0));
  BAD(u8x_decode_ucs4(text, (size_t)PTRDIFF_MAX + 1, NULL, 0, U8X_STRICT, 0, 0));
  for (i = 0; i < COUNT_OF(not_policies); i++) {
    check_context("u8x_decode_ucs4, policy 0x%lX", (unsigned long)not_policies[i]);
    BAD(u8x_decode_ucs4(text, sizeof text, out, 8, not_policies[i], U8X_REPLACEMENT_CHARACTER, 0));
    BAD(u8x_decode_ucs4(NULL, 0, NULL, 0, not_policies[i], U8X_REPLACEMENT_CHARACTER, 0));
  }
  for (i = 0; i < COUNT_OF(not_flags); i++) {
    check_context("u8x_decode_ucs4, flags 0x%lX", (unsigned long)not_flags[i]);
    BAD(u8x_decode_ucs4(text, sizeof text, out, 8, U8X_STRICT, 0, not_flags[i]));
  }
  for (i = 0; i < COUNT_OF(not_scalars); i++) {
    uint32_t p;
    check_context("u8x_decode_ucs4, replacement 0x%lX", (unsigned long)not_scalars[i]);
    BAD(u8x_decode_ucs4(text, sizeof text, out, 8, U8X_REPLACE, not_scalars[i], 0));
    BAD(u8x_decode_ucs4(NULL, 0, NULL, 0, U8X_REPLACE, not_scalars[i], 0));
    /* ignored by the other policies */
    for (p = U8X_STRICT; p <= U8X_CP1252; p++)
      if (p != U8X_REPLACE)
        CHECK_RESULT(u8x_decode_ucs4(text, sizeof text, out, 8, p, not_scalars[i], 0), U8X_OK, U8X_ERR_NONE, 6,
                     3, 0);
  }

  /* overlapping src and dst: rejected, nothing written */
  check_context("u8x_decode_ucs4, overlap");
  memset(&mem, 0, sizeof mem);
  memcpy(mem.b, text, sizeof text);
  memcpy(mem.b + 8, text, sizeof text);
  memcpy(mem.b + 32, text, sizeof text);
  take_snapshot();
  BAD(u8x_decode_ucs4(mem.b, 6, mem.u, 8, U8X_STRICT, 0, 0));         /* same start */
  BAD(u8x_decode_ucs4(mem.b + 8, 6, mem.u, 8, U8X_STRICT, 0, 0));     /* src inside dst */
  BAD(u8x_decode_ucs4(mem.b, 6, mem.u + 1, 8, U8X_STRICT, 0, 0));     /* dst inside src */
  BAD(u8x_decode_ucs4(mem.b + 8, 6, mem.u + 1, 3, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0));
  UNTOUCHED();
  /* adjacent is fine: dst is b[0..32), src is b[32..38) */
  check_context("u8x_decode_ucs4, adjacent");
  CHECK_RESULT(u8x_decode_ucs4(mem.b + 32, 6, mem.u, 8, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
  CHECK(mem.u[0] == 'a' && mem.u[1] == 0xE9 && mem.u[2] == 0x20AC);

  /* misaligned dst */
  check_context("u8x_decode_ucs4, misaligned dst");
  memset(&mem, 0x11, sizeof mem);
  take_snapshot();
  for (i = 1; i < 4; i++) BAD(u8x_decode_ucs4(text, sizeof text, (uint32_t *)(void *)(mem.b + i), 8, U8X_STRICT, 0, 0));
  UNTOUCHED();
  /* misaligned even with nothing to write or read: still not a uint32_t * */
  for (i = 1; i < 4; i++) {
    uint32_t *odd = (uint32_t *)(void *)(mem.b + i);
    BAD(u8x_decode_ucs4(text, sizeof text, odd, 0, U8X_STRICT, 0, 0));
    BAD(u8x_decode_ucs4(NULL, 0, odd, 0, U8X_STRICT, 0, 0));
    BAD(u8x_decode_ucs4(NULL, 0, odd, 8, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0));
  }
  UNTOUCHED();
  /* an output running past the end of the address space */
  BAD(u8x_decode_ucs4(text, sizeof text, (uint32_t *)TOP_ADDRESS, 8, U8X_STRICT, 0, 0));

  /* fine: NULL with 0, on either side */
  check_context("u8x_decode_ucs4, empty");
  CHECK_RESULT(u8x_decode_ucs4(NULL, 0, out, 8, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_decode_ucs4(text, sizeof text, NULL, 0, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
  CHECK_RESULT(u8x_decode_ucs4(NULL, 0, NULL, 0, U8X_ESCAPE, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void count_args(void) {
  size_t i;
  check_context("u8x_count");
  BAD(u8x_count(NULL, 1, U8X_STRICT, 0));
  BAD(u8x_count(text, SIZE_MAX, U8X_STRICT, 0));
  for (i = 0; i < COUNT_OF(not_policies); i++) BAD(u8x_count(text, sizeof text, not_policies[i], 0));
  for (i = 0; i < COUNT_OF(not_flags); i++) BAD(u8x_count(text, sizeof text, U8X_REPLACE, not_flags[i]));
  CHECK_RESULT(u8x_count(NULL, 0, U8X_LATIN1, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void encode_args(void) {
  size_t i;
  uint8_t out[16];
  static const uint32_t encode_only_not[] = {U8X_LATIN1, U8X_CP1252, 6, 0xFFFFFFFFu};
  check_context("u8x_encode");
  BAD(u8x_encode(NULL, 1, out, 16, U8X_STRICT, 0));
  BAD(u8x_encode(units, 3, NULL, 1, U8X_STRICT, 0));
  BAD(u8x_encode(units, SIZE_MAX, out, 16, U8X_STRICT, 0));
  BAD(u8x_encode(units, SIZE_MAX / 4 + 1, NULL, 0, U8X_STRICT, 0));
  BAD(u8x_encoded_len(NULL, 1, U8X_STRICT, 0));
  BAD(u8x_encoded_len(units, SIZE_MAX / 2, U8X_STRICT, 0));
  for (i = 0; i < COUNT_OF(encode_only_not); i++) {
    check_context("u8x_encode, policy 0x%lX", (unsigned long)encode_only_not[i]);
    BAD(u8x_encode(units, 3, out, 16, encode_only_not[i], U8X_REPLACEMENT_CHARACTER));
    BAD(u8x_encode(NULL, 0, NULL, 0, encode_only_not[i], U8X_REPLACEMENT_CHARACTER));
    BAD(u8x_encoded_len(units, 3, encode_only_not[i], U8X_REPLACEMENT_CHARACTER));
  }
  for (i = 0; i < COUNT_OF(not_scalars); i++) {
    check_context("u8x_encode, replacement 0x%lX", (unsigned long)not_scalars[i]);
    BAD(u8x_encode(units, 3, out, 16, U8X_REPLACE, not_scalars[i]));
    BAD(u8x_encoded_len(units, 3, U8X_REPLACE, not_scalars[i]));
    /* ignored by strict and escape */
    CHECK_RESULT(u8x_encode(units, 3, out, 16, U8X_STRICT, not_scalars[i]), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
    CHECK_RESULT(u8x_encoded_len(units, 3, U8X_ESCAPE, not_scalars[i]), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  }

  /* misaligned src */
  check_context("u8x_encode, misaligned src");
  memset(&mem, 0, sizeof mem);
  for (i = 1; i < 4; i++) {
    const uint32_t *odd = (const uint32_t *)(const void *)(mem.b + i);
    BAD(u8x_encode(odd, 2, out, 16, U8X_STRICT, 0));
    BAD(u8x_encoded_len(odd, 2, U8X_STRICT, 0));
    /* with nothing to read too */
    BAD(u8x_encode(odd, 0, out, 16, U8X_STRICT, 0));
    BAD(u8x_encode(odd, 0, NULL, 0, U8X_STRICT, 0));
    BAD(u8x_encoded_len(odd, 0, U8X_STRICT, 0));
  }
  /* an input running past the end of the address space */
  BAD(u8x_encode((const uint32_t *)TOP_ADDRESS, 8, out, 16, U8X_STRICT, 0));
  BAD(u8x_encoded_len((const uint32_t *)TOP_ADDRESS, 8, U8X_STRICT, 0));

  /* overlapping src and dst */
  check_context("u8x_encode, overlap");
  memset(&mem, 0, sizeof mem);
  memcpy(mem.u, units, sizeof units);
  memcpy(mem.u + 8, units, sizeof units);
  take_snapshot();
  BAD(u8x_encode(mem.u, 3, mem.b, 12, U8X_STRICT, 0));
  BAD(u8x_encode(mem.u, 3, mem.b + 11, 8, U8X_STRICT, 0));
  BAD(u8x_encode(mem.u + 8, 3, mem.b + 24, 16, U8X_STRICT, 0)); /* dst b[24..40) vs src b[32..44) */
  UNTOUCHED();
  /* adjacent: src is u[8..11) = b[32..44), dst is b[44..60) */
  check_context("u8x_encode, adjacent");
  CHECK_RESULT(u8x_encode(mem.u + 8, 3, mem.b + 44, 16, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  CHECK_BYTES(mem.b + 44, 6, text, 6);

  check_context("u8x_encode, empty");
  CHECK_RESULT(u8x_encode(NULL, 0, out, 16, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode(units, 3, NULL, 0, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  CHECK_RESULT(u8x_encoded_len(NULL, 0, U8X_REPLACE, 0x41), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void boundary_args(void) {
  check_context("boundaries");
  CHECK_EQ(u8x_next_boundary(text, sizeof text, sizeof text + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(text, sizeof text, sizeof text + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(NULL, 1, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(NULL, 1, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(NULL, 0, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(text, SIZE_MAX, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(NULL, 0, 0), 0);
  CHECK_EQ(u8x_prev_boundary(NULL, 0, 0), 0);
  CHECK_EQ(u8x_next_boundary(text, sizeof text, 2), 3); /* fine: inside U+00E9 */
}

static void name_args(void) {
  static const int not_status[] = {-1, 6, 100, -2147483647 - 1, 2147483647};
  static const int not_error[] = {-1, 9, 100, -2147483647 - 1, 2147483647};
  size_t i;
  check_context("names");
  for (i = 0; i < COUNT_OF(not_status); i++) CHECK_STR(u8x_status_name(not_status[i]), "unknown status");
  for (i = 0; i < COUNT_OF(not_error); i++) CHECK_STR(u8x_error_name(not_error[i]), "unknown error");
}

static void posix_args(void) {
  wchar_t w[8];
  char b[16];
  size_t i;
  static const wchar_t wide[] = {L'a', 0xE9, 0};
  check_context("u8x_mbstowcs");
  errno = 0;
  CHECK_EQ(u8x_mbstowcs(w, NULL, 8), FAIL);
  CHECK_EQ(errno, EINVAL);
  errno = 0;
  CHECK_EQ(u8x_mbstowcs(NULL, NULL, 0), FAIL);
  CHECK_EQ(errno, EINVAL);
  /* misaligned dest: every offset within one wchar_t (4 bytes; 2 on Windows) */
  memset(&mem, 0, sizeof mem);
  take_snapshot();
  for (i = 1; i < sizeof(wchar_t); i++) {
    errno = 0;
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(mem.b + i), "abc", 4), FAIL);
    CHECK_EQ(errno, EINVAL);
    /* with no room, or nothing to convert, too */
    errno = 0;
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(mem.b + i), "abc", 0), FAIL);
    CHECK_EQ(errno, EINVAL);
    errno = 0;
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(mem.b + i), "", 0), FAIL);
    CHECK_EQ(errno, EINVAL);
  }
  UNTOUCHED();
  /* dest overlapping src (within the 4 wide characters it may write) */
  memset(&mem, 0, sizeof mem);
  memcpy(mem.b + 2 * sizeof(wchar_t), "abc", 4);
  take_snapshot();
  errno = 0;
  CHECK_EQ(u8x_mbstowcs(mem.w, (const char *)mem.b + 2 * sizeof(wchar_t), 8), FAIL);
  CHECK_EQ(errno, EINVAL);
  UNTOUCHED();
  /* adjacent is fine */
  memcpy(mem.b + 32, "abc", 4);
  CHECK_EQ(u8x_mbstowcs(mem.w, (const char *)mem.b + 32, 8), 3);

  check_context("u8x_wcstombs");
  errno = 0;
  CHECK_EQ(u8x_wcstombs(b, NULL, 16), FAIL);
  CHECK_EQ(errno, EINVAL);
  errno = 0;
  CHECK_EQ(u8x_wcstombs(NULL, NULL, 0), FAIL);
  CHECK_EQ(errno, EINVAL);
  /* misaligned src: a valid wide string, off by every offset within a wchar_t */
  memset(&mem, 0, sizeof mem);
  memcpy(mem.b + 1, wide, sizeof wide);
  memset(b, 0x5A, sizeof b);
  for (i = 1; i < sizeof(wchar_t); i++) {
    errno = 0;
    CHECK_EQ(u8x_wcstombs(b, (const wchar_t *)(const void *)(mem.b + i), 16), FAIL);
    CHECK_EQ(errno, EINVAL);
    errno = 0;
    CHECK_EQ(u8x_wcstombs(NULL, (const wchar_t *)(const void *)(mem.b + i), 0), FAIL);
    CHECK_EQ(errno, EINVAL);
  }
  CHECK_EQ(b[0], 0x5A);
  /* dest overlapping src */
  memset(&mem, 0, sizeof mem);
  memcpy(mem.w + 2, wide, sizeof wide);
  take_snapshot();
  errno = 0;
  CHECK_EQ(u8x_wcstombs((char *)mem.b, mem.w + 2, 16), FAIL);
  CHECK_EQ(errno, EINVAL);
  UNTOUCHED();
  /* adjacent is fine: src is w[2..5) = b[8..20), dest is b[20..) */
  CHECK_EQ(u8x_wcstombs((char *)mem.b + 20, mem.w + 2, 16), 3);
  CHECK_BYTES(mem.b + 20, 4, "a\xC3\xA9", 4);
}

int main(void) {
  check_begin("args");
  validate_args();
  decode_args();
  count_args();
  encode_args();
  boundary_args();
  name_args();
  posix_args();
  check_context("%s", "");
  return check_done();
}
