/* Bad arguments to the forms' functions (UTF-16, Latin-1, classify, the
 * sizes of valid text): NULL with a non-zero length, misaligned uint16_t
 * and u8x_classification pointers (whatever the length, even 0), unknown
 * policies and flags, both byte-order flags at once, replacements that are
 * not scalar values (or not bytes, for Latin-1), a NULL info, overlapping
 * buffers (within the most the call could write), lengths no object can
 * have and buffers running past the end of the address space. And the
 * legal cases next to them: NULL with length 0, ignored replacements,
 * adjacent buffers, a large capacity whose reachable part does not overlap.
 * A rejected call must leave every buffer untouched. */
#include "check.h"

#define BAD(r) CHECK_RESULT((r), U8X_BAD_ARGUMENT, U8X_ERR_NONE, 0, 0, 0)

/* One block of memory seen as bytes, units and a classification. */
static union {
  uint8_t b[256];
  uint16_t u[128];
  u8x_classification c[4];
  uint64_t align;
} mem;
static uint8_t snapshot[sizeof mem];

#define TOP_ADDRESS (UINTPTR_MAX - 15)
static const uint8_t *const top_bytes = (const uint8_t *)TOP_ADDRESS;
static const uint16_t *const top_units = (const uint16_t *)TOP_ADDRESS;

static void take_snapshot(void) { memcpy(snapshot, &mem, sizeof mem); }
#define UNTOUCHED() CHECK(memcmp(snapshot, &mem, sizeof mem) == 0)

/* "aé€" */
static const uint8_t text[] = {'a', 0xC3, 0xA9, 0xE2, 0x82, 0xAC};
static const uint16_t units[] = {'a', 0xE9, 0x20AC};
/* Inputs whose largest output (the part of an output buffer a call may
 * touch) is more than 16 bytes: against TOP_ADDRESS it runs past the end
 * of the address space. */
static const uint8_t text17[] = "seventeen bytes..";
static const uint16_t units8[] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};

static const uint32_t not_scalars[] = {0xD800, 0xDBFF, 0xDC00, 0xDC80, 0xDFFF, 0x110000, 0x7FFFFFFF, 0xFFFFFFFF};
static const uint32_t not_policies[] = {6, 7, 100, 0x80000000u, 0xFFFFFFFFu};
/* Unknown bits, or both byte orders. */
static const uint32_t not_utf16_flags[] = {U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN,
                                           U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN | U8X_MORE_INPUT,
                                           0x10,
                                           0x20,
                                           U8X_LITTLE_ENDIAN | 0x10,
                                           0x80000000u,
                                           0xFFFFFFFFu};
static const uint32_t utf16_flags[] = {0,
                                       U8X_MORE_INPUT,
                                       U8X_LITTLE_ENDIAN,
                                       U8X_BIG_ENDIAN,
                                       U8X_MORE_INPUT | U8X_LITTLE_ENDIAN,
                                       U8X_MORE_INPUT | U8X_BIG_ENDIAN};
/* For the functions that take only U8X_MORE_INPUT and U8X_SKIP_BOM. */
static const uint32_t not_plain_flags[] = {U8X_LITTLE_ENDIAN, U8X_BIG_ENDIAN, U8X_MORE_INPUT | U8X_LITTLE_ENDIAN, 0x10,
                                           0x80000000u, 0xFFFFFFFFu};

static void decode_utf16_args(void) {
  size_t i, j;
  uint16_t out[16];
  uint32_t p;
  check_context("u8x_decode_utf16");
  BAD(u8x_decode_utf16(NULL, 1, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_utf16(NULL, SIZE_MAX, NULL, 0, U8X_STRICT, 0, 0));
  BAD(u8x_decode_utf16(text, sizeof text, NULL, 1, U8X_STRICT, 0, 0));
  BAD(u8x_decode_utf16(text, sizeof text, NULL, SIZE_MAX, U8X_REPLACE, 0xFFFD, 0));
  BAD(u8x_decode_utf16(text, SIZE_MAX, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_utf16(text, (size_t)PTRDIFF_MAX + 1, NULL, 0, U8X_STRICT, 0, 0));
  BAD(u8x_decode_utf16(top_bytes, 16, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_utf16(text, sizeof text, (uint16_t *)TOP_ADDRESS, 8, U8X_STRICT, 0, 0));
  for (i = 0; i < COUNT_OF(not_policies); i++) {
    check_context("u8x_decode_utf16, policy 0x%lX", (unsigned long)not_policies[i]);
    BAD(u8x_decode_utf16(text, sizeof text, out, 16, not_policies[i], 0xFFFD, 0));
    BAD(u8x_decode_utf16(NULL, 0, NULL, 0, not_policies[i], 0xFFFD, 0));
  }
  for (i = 0; i < COUNT_OF(not_utf16_flags); i++) {
    check_context("u8x_decode_utf16, flags 0x%lX", (unsigned long)not_utf16_flags[i]);
    BAD(u8x_decode_utf16(text, sizeof text, out, 16, U8X_STRICT, 0, not_utf16_flags[i]));
    BAD(u8x_decode_utf16(NULL, 0, NULL, 0, U8X_STRICT, 0, not_utf16_flags[i]));
  }
  for (i = 0; i < COUNT_OF(utf16_flags); i++) {
    check_context("u8x_decode_utf16, flags 0x%lX", (unsigned long)utf16_flags[i]);
    CHECK_RESULT(u8x_decode_utf16(text, sizeof text, out, 16, U8X_STRICT, 0, utf16_flags[i]), U8X_OK, U8X_ERR_NONE,
                 6, 3, 0);
  }
  for (i = 0; i < COUNT_OF(not_scalars); i++) {
    check_context("u8x_decode_utf16, replacement 0x%lX", (unsigned long)not_scalars[i]);
    BAD(u8x_decode_utf16(text, sizeof text, out, 16, U8X_REPLACE, not_scalars[i], 0));
    BAD(u8x_decode_utf16(NULL, 0, NULL, 0, U8X_REPLACE, not_scalars[i], U8X_BIG_ENDIAN));
    for (p = U8X_STRICT; p <= U8X_CP1252; p++)
      if (p != U8X_REPLACE)
        CHECK_RESULT(u8x_decode_utf16(text, sizeof text, out, 16, p, not_scalars[i], 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
  }

  /* misaligned output, whatever the capacity; nothing written */
  check_context("u8x_decode_utf16, misaligned dst");
  memset(&mem, 0x11, sizeof mem);
  take_snapshot();
  for (j = 0; j < 2; j++) {
    uint16_t *odd = (uint16_t *)(void *)(mem.b + 1 + 2 * j);
    BAD(u8x_decode_utf16(text, sizeof text, odd, 16, U8X_STRICT, 0, 0));
    BAD(u8x_decode_utf16(text, sizeof text, odd, 0, U8X_STRICT, 0, 0));
    BAD(u8x_decode_utf16(NULL, 0, odd, 0, U8X_STRICT, 0, 0));
    BAD(u8x_decode_utf16(NULL, 0, odd, 8, U8X_REPLACE, 0xFFFD, U8X_LITTLE_ENDIAN));
  }
  UNTOUCHED();

  /* overlap: src b[32..38) */
  check_context("u8x_decode_utf16, overlap");
  memset(&mem, 0, sizeof mem);
  memcpy(mem.b + 32, text, sizeof text);
  memcpy(mem.b + 8, text, sizeof text);
  take_snapshot();
  BAD(u8x_decode_utf16(mem.b + 32, 6, mem.u + 16, 16, U8X_STRICT, 0, 0)); /* same start */
  BAD(u8x_decode_utf16(mem.b + 32, 6, mem.u + 8, 16, U8X_STRICT, 0, 0));  /* dst b[16..48) */
  BAD(u8x_decode_utf16(mem.b + 32, 6, mem.u + 18, 4, U8X_STRICT, 0, 0));  /* dst inside src */
  BAD(u8x_decode_utf16(mem.b + 8, 6, mem.u, 8, U8X_REPLACE, 0xFFFD, U8X_BIG_ENDIAN));
  /* reachable part: 6 bytes make at most 12 units (24 bytes) */
  BAD(u8x_decode_utf16(mem.b + 32, 6, mem.u + 5, 100, U8X_STRICT, 0, 0)); /* b[10..34) */
  UNTOUCHED();
  check_context("u8x_decode_utf16, adjacent");
  /* dst b[0..32), src b[32..38) */
  CHECK_RESULT(u8x_decode_utf16(mem.b + 32, 6, mem.u, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
  CHECK(mem.u[0] == 'a' && mem.u[1] == 0xE9 && mem.u[2] == 0x20AC);
  /* a capacity reaching src, but not the 12 units 6 bytes can make:
   * dst b[38..) with src b[32..38) is adjacent; dst b[8..) reaches b[32]
   * only after 12 units */
  memcpy(mem.b + 32, text, sizeof text);
  CHECK_RESULT(u8x_decode_utf16(mem.b + 32, 6, mem.u + 4, 12, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
  CHECK_RESULT(u8x_decode_utf16(mem.b + 32, 6, mem.u + 20, 30, U8X_STRICT, 0, U8X_BIG_ENDIAN), U8X_OK, U8X_ERR_NONE,
               6, 3, 0);

  check_context("u8x_decode_utf16, empty");
  CHECK_RESULT(u8x_decode_utf16(NULL, 0, out, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_decode_utf16(text, sizeof text, NULL, 0, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
  CHECK_RESULT(u8x_decode_utf16(text, 0, NULL, 0, U8X_ESCAPE, 0, U8X_MORE_INPUT | U8X_BIG_ENDIAN), U8X_OK,
               U8X_ERR_NONE, 0, 0, 0);
}

static void encode_utf16_args(void) {
  size_t i;
  uint8_t out[16];
  static const uint32_t encode_not[] = {U8X_LATIN1, U8X_CP1252, 6, 0xFFFFFFFFu};
  check_context("u8x_encode_utf16");
  BAD(u8x_encode_utf16(NULL, 1, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16(units, 3, NULL, 1, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16(units, SIZE_MAX, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16(units, (size_t)PTRDIFF_MAX / 2 + 1, NULL, 0, U8X_STRICT, 0, 0)); /* > PTRDIFF_MAX bytes */
  BAD(u8x_encode_utf16(top_units, 8, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16(units8, 8, (uint8_t *)TOP_ADDRESS, 32, U8X_STRICT, 0, 0));
  for (i = 0; i < COUNT_OF(encode_not); i++) {
    check_context("u8x_encode_utf16, policy 0x%lX", (unsigned long)encode_not[i]);
    BAD(u8x_encode_utf16(units, 3, out, 16, encode_not[i], 0xFFFD, 0));
    BAD(u8x_encode_utf16(NULL, 0, NULL, 0, encode_not[i], 0xFFFD, 0));
  }
  for (i = 0; i < COUNT_OF(not_utf16_flags); i++) {
    check_context("u8x_encode_utf16, flags 0x%lX", (unsigned long)not_utf16_flags[i]);
    BAD(u8x_encode_utf16(units, 3, out, 16, U8X_STRICT, 0, not_utf16_flags[i]));
    BAD(u8x_encode_utf16(NULL, 0, NULL, 0, U8X_STRICT, 0, not_utf16_flags[i]));
  }
  for (i = 0; i < COUNT_OF(utf16_flags); i++) {
    check_context("u8x_encode_utf16, flags 0x%lX", (unsigned long)utf16_flags[i]);
    CHECK_EQ(u8x_encode_utf16(units, 3, out, 16, U8X_STRICT, 0, utf16_flags[i]).status, U8X_OK);
  }
  for (i = 0; i < COUNT_OF(not_scalars); i++) {
    check_context("u8x_encode_utf16, replacement 0x%lX", (unsigned long)not_scalars[i]);
    BAD(u8x_encode_utf16(units, 3, out, 16, U8X_REPLACE, not_scalars[i], 0));
    BAD(u8x_encode_utf16(units, 3, NULL, 0, U8X_REPLACE, not_scalars[i], 0));
    CHECK_RESULT(u8x_encode_utf16(units, 3, out, 16, U8X_STRICT, not_scalars[i], 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
    CHECK_RESULT(u8x_encode_utf16(units, 3, NULL, 0, U8X_ESCAPE, not_scalars[i], 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  }

  /* misaligned input, whatever its length */
  check_context("u8x_encode_utf16, misaligned src");
  memset(&mem, 0, sizeof mem);
  memset(out, 0x5A, sizeof out);
  for (i = 0; i < 2; i++) {
    const uint16_t *odd = (const uint16_t *)(const void *)(mem.b + 1 + 2 * i);
    BAD(u8x_encode_utf16(odd, 2, out, 16, U8X_STRICT, 0, 0));
    BAD(u8x_encode_utf16(odd, 2, NULL, 0, U8X_STRICT, 0, 0));
    BAD(u8x_encode_utf16(odd, 0, out, 16, U8X_STRICT, 0, 0));
    BAD(u8x_encode_utf16(odd, 0, NULL, 0, U8X_REPLACE, 0xFFFD, U8X_LITTLE_ENDIAN));
  }
  CHECK_EQ(out[0], 0x5A);

  /* overlap: src u[16..19) = b[32..38); at most 4 bytes a unit */
  check_context("u8x_encode_utf16, overlap");
  memset(&mem, 0, sizeof mem);
  memcpy(mem.u + 16, units, sizeof units);
  take_snapshot();
  BAD(u8x_encode_utf16(mem.u + 16, 3, mem.b + 32, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16(mem.u + 16, 3, mem.b + 21, 16, U8X_STRICT, 0, 0)); /* reachable: b[21..33) */
  BAD(u8x_encode_utf16(mem.u + 16, 3, mem.b + 37, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16(mem.u + 16, 3, mem.b + 24, 200, U8X_REPLACE, 0xFFFD, 0)); /* reachable: 12 bytes */
  UNTOUCHED();
  check_context("u8x_encode_utf16, adjacent");
  CHECK_RESULT(u8x_encode_utf16(mem.u + 16, 3, mem.b + 38, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  CHECK_BYTES(mem.b + 38, 6, text, 6);
  CHECK_RESULT(u8x_encode_utf16(mem.u + 16, 3, mem.b + 16, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  /* a large capacity whose reachable part (12 bytes) ends before src */
  CHECK_RESULT(u8x_encode_utf16(mem.u + 16, 3, mem.b + 20, 100, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  CHECK_BYTES(mem.b + 20, 6, text, 6);

  check_context("u8x_encode_utf16, empty");
  CHECK_RESULT(u8x_encode_utf16(NULL, 0, out, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode_utf16(units, 0, NULL, 0, U8X_STRICT, 0, U8X_BIG_ENDIAN), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void validate_utf16_args(void) {
  size_t i;
  check_context("u8x_validate_utf16");
  BAD(u8x_validate_utf16(NULL, 1, 0));
  BAD(u8x_validate_utf16(NULL, SIZE_MAX, U8X_MORE_INPUT));
  BAD(u8x_validate_utf16(units, SIZE_MAX, 0));
  BAD(u8x_validate_utf16(units, (size_t)PTRDIFF_MAX / 2 + 1, 0));
  BAD(u8x_validate_utf16(top_units, 8, 0));
  for (i = 0; i < COUNT_OF(not_utf16_flags); i++) {
    check_context("u8x_validate_utf16, flags 0x%lX", (unsigned long)not_utf16_flags[i]);
    BAD(u8x_validate_utf16(units, 3, not_utf16_flags[i]));
    BAD(u8x_validate_utf16(NULL, 0, not_utf16_flags[i]));
  }
  for (i = 0; i < COUNT_OF(utf16_flags); i++) {
    check_context("u8x_validate_utf16, flags 0x%lX", (unsigned long)utf16_flags[i]);
    CHECK_RESULT(u8x_validate_utf16(units, 3, utf16_flags[i]), U8X_OK, U8X_ERR_NONE, 3, 0, 0);
  }
  check_context("u8x_validate_utf16, misaligned");
  for (i = 0; i < 2; i++) {
    const uint16_t *odd = (const uint16_t *)(const void *)(mem.b + 1 + 2 * i);
    BAD(u8x_validate_utf16(odd, 2, 0));
    BAD(u8x_validate_utf16(odd, 0, 0));
  }
  check_context("u8x_validate_utf16, empty");
  CHECK_RESULT(u8x_validate_utf16(NULL, 0, U8X_MORE_INPUT | U8X_BIG_ENDIAN), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
}

static void decode_latin1_args(void) {
  size_t i;
  uint8_t out[16];
  static const uint32_t latin1_not[] = {U8X_ESCAPE, U8X_LATIN1, U8X_CP1252, 6, 0x80000000u, 0xFFFFFFFFu};
  static const uint32_t not_bytes[] = {256, 0x3FF, 0xFFFD, 0x10FFFF, 0xFFFFFFFFu};
  static const uint8_t latin[] = {'a', 0xC3, 0xA9};
  check_context("u8x_decode_latin1");
  BAD(u8x_decode_latin1(NULL, 1, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(latin, 3, NULL, 1, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(latin, SIZE_MAX, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(latin, (size_t)PTRDIFF_MAX + 1, NULL, 0, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(top_bytes, 16, out, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(text17, 17, (uint8_t *)TOP_ADDRESS, 32, U8X_STRICT, 0, 0));
  for (i = 0; i < COUNT_OF(latin1_not); i++) {
    check_context("u8x_decode_latin1, policy 0x%lX", (unsigned long)latin1_not[i]);
    BAD(u8x_decode_latin1(latin, 3, out, 16, latin1_not[i], '?', 0));
    BAD(u8x_decode_latin1(NULL, 0, NULL, 0, latin1_not[i], '?', 0));
  }
  for (i = 0; i < COUNT_OF(not_plain_flags); i++) {
    check_context("u8x_decode_latin1, flags 0x%lX", (unsigned long)not_plain_flags[i]);
    BAD(u8x_decode_latin1(latin, 3, out, 16, U8X_STRICT, 0, not_plain_flags[i]));
    BAD(u8x_decode_latin1(NULL, 0, NULL, 0, U8X_REPLACE, '?', not_plain_flags[i]));
  }
  for (i = 0; i < COUNT_OF(not_bytes); i++) {
    check_context("u8x_decode_latin1, replacement 0x%lX", (unsigned long)not_bytes[i]);
    BAD(u8x_decode_latin1(latin, 3, out, 16, U8X_REPLACE, not_bytes[i], 0));
    BAD(u8x_decode_latin1(NULL, 0, NULL, 0, U8X_REPLACE, not_bytes[i], U8X_MORE_INPUT));
    /* ignored by U8X_STRICT */
    CHECK_RESULT(u8x_decode_latin1(latin, 3, out, 16, U8X_STRICT, not_bytes[i], 0), U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  }
  check_context("u8x_decode_latin1, replacement bytes");
  CHECK_RESULT(u8x_decode_latin1(LIT("\xFF"), out, 16, U8X_REPLACE, 0, 0), U8X_OK, U8X_ERR_NONE, 1, 1, 0);
  CHECK_EQ(out[0], 0);
  CHECK_RESULT(u8x_decode_latin1(LIT("\xFF"), out, 16, U8X_REPLACE, 255, 0), U8X_OK, U8X_ERR_NONE, 1, 1, 0);
  CHECK_EQ(out[0], 255);
  CHECK_RESULT(u8x_decode_latin1(latin, 3, out, 16, U8X_STRICT, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 3, 2, 0);

  /* overlap: src b[32..35); at most one byte per byte */
  check_context("u8x_decode_latin1, overlap");
  memset(&mem, 0, sizeof mem);
  memcpy(mem.b + 32, latin, sizeof latin);
  take_snapshot();
  BAD(u8x_decode_latin1(mem.b + 32, 3, mem.b + 32, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(mem.b + 32, 3, mem.b + 30, 16, U8X_STRICT, 0, 0));
  BAD(u8x_decode_latin1(mem.b + 32, 3, mem.b + 34, 16, U8X_REPLACE, '?', 0));
  BAD(u8x_decode_latin1(mem.b + 32, 3, mem.b + 31, 2, U8X_STRICT, 0, 0));
  UNTOUCHED();
  check_context("u8x_decode_latin1, adjacent");
  CHECK_RESULT(u8x_decode_latin1(mem.b + 32, 3, mem.b + 35, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  CHECK_RESULT(u8x_decode_latin1(mem.b + 32, 3, mem.b + 30, 2, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  /* reachable part: 3 bytes */
  CHECK_RESULT(u8x_decode_latin1(mem.b + 32, 3, mem.b + 29, 100, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  CHECK_BYTES(mem.b + 29, 2, "a\xE9", 2);
  check_context("u8x_decode_latin1, empty");
  CHECK_RESULT(u8x_decode_latin1(NULL, 0, out, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_decode_latin1(latin, 3, NULL, 0, U8X_REPLACE, '?', 0), U8X_OK, U8X_ERR_NONE, 3, 2, 0);
}

static void encode_latin1_args(void) {
  uint8_t out[16];
  static const uint8_t latin[] = {'a', 0xE9};
  check_context("u8x_encode_latin1");
  BAD(u8x_encode_latin1(NULL, 1, out, 16));
  BAD(u8x_encode_latin1(latin, 2, NULL, 1));
  BAD(u8x_encode_latin1(latin, SIZE_MAX, out, 16));
  BAD(u8x_encode_latin1(latin, (size_t)PTRDIFF_MAX + 1, NULL, 0));
  BAD(u8x_encode_latin1(top_bytes, 16, out, 16));
  BAD(u8x_encode_latin1(text17, 9, (uint8_t *)TOP_ADDRESS, 32));
  /* overlap: src b[32..34); at most 2 bytes per byte */
  check_context("u8x_encode_latin1, overlap");
  memset(&mem, 0, sizeof mem);
  memcpy(mem.b + 32, latin, sizeof latin);
  take_snapshot();
  BAD(u8x_encode_latin1(mem.b + 32, 2, mem.b + 32, 16));
  BAD(u8x_encode_latin1(mem.b + 32, 2, mem.b + 33, 16));
  BAD(u8x_encode_latin1(mem.b + 32, 2, mem.b + 29, 16));
  BAD(u8x_encode_latin1(mem.b + 32, 2, mem.b + 29, 4));
  UNTOUCHED();
  check_context("u8x_encode_latin1, adjacent");
  CHECK_RESULT(u8x_encode_latin1(mem.b + 32, 2, mem.b + 34, 16), U8X_OK, U8X_ERR_NONE, 2, 3, 0);
  CHECK_RESULT(u8x_encode_latin1(mem.b + 32, 2, mem.b + 28, 4), U8X_OK, U8X_ERR_NONE, 2, 3, 0);
  CHECK_RESULT(u8x_encode_latin1(mem.b + 32, 2, mem.b + 28, 100), U8X_OK, U8X_ERR_NONE, 2, 3, 0); /* reachable: 4 */
  CHECK_BYTES(mem.b + 28, 3, "a\xC3\xA9", 3);
  check_context("u8x_encode_latin1, empty");
  CHECK_RESULT(u8x_encode_latin1(NULL, 0, out, 16), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode_latin1(latin, 2, NULL, 0), U8X_OK, U8X_ERR_NONE, 2, 3, 0);
}

static void classify_args(void) {
  size_t i;
  u8x_classification *info = &mem.c[1];
  check_context("u8x_classify");
  memset(&mem, 0x5A, sizeof mem);
  take_snapshot();
  BAD(u8x_classify(text, sizeof text, 0, NULL));
  BAD(u8x_classify(NULL, 0, 0, NULL));
  BAD(u8x_classify(text, sizeof text, U8X_MORE_INPUT, NULL));
  BAD(u8x_classify(NULL, 1, 0, info));
  BAD(u8x_classify(text, SIZE_MAX, 0, info));
  BAD(u8x_classify(text, (size_t)PTRDIFF_MAX + 1, 0, info));
  BAD(u8x_classify(top_bytes, 16, 0, info));
  for (i = 0; i < COUNT_OF(not_plain_flags); i++) {
    check_context("u8x_classify, flags 0x%lX", (unsigned long)not_plain_flags[i]);
    BAD(u8x_classify(text, sizeof text, not_plain_flags[i], info));
    BAD(u8x_classify(NULL, 0, not_plain_flags[i], info));
  }
  /* a misaligned info, even for an empty input */
  check_context("u8x_classify, misaligned info");
  for (i = 1; i < sizeof(size_t); i++) {
    u8x_classification *odd = (u8x_classification *)(void *)(mem.b + sizeof(u8x_classification) + i);
    BAD(u8x_classify(text, sizeof text, 0, odd));
    BAD(u8x_classify(NULL, 0, 0, odd));
  }
  UNTOUCHED();
  check_context("u8x_classify, fine");
  CHECK_RESULT(u8x_classify(text, sizeof text, 0, info), U8X_OK, U8X_ERR_NONE, 6, 0, 0);
  CHECK(info->width == U8X_WIDTH_BMP && info->code_points == 3 && info->utf16_units == 3);
  /* only *info is written */
  CHECK(memcmp(snapshot, &mem, sizeof mem.c[0]) == 0);
  CHECK(memcmp(snapshot + 2 * sizeof mem.c[0], mem.b + 2 * sizeof mem.c[0], sizeof mem - 2 * sizeof mem.c[0]) == 0);
  CHECK_RESULT(u8x_classify(NULL, 0, U8X_MORE_INPUT, info), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK(info->width == U8X_WIDTH_ASCII && info->code_points == 0 && info->utf16_units == 0);
}

static void sizes_args(void) {
  size_t i;
  check_context("u8x_count_utf16_valid");
  CHECK_EQ(u8x_count_utf16_valid(NULL, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(text, SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(text, (size_t)PTRDIFF_MAX + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(top_bytes, 16), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(NULL, 0), 0);
  CHECK_EQ(u8x_count_utf16_valid(text, sizeof text), 3);

  check_context("u8x_encoded_len_utf16_valid");
  CHECK_EQ(u8x_encoded_len_utf16_valid(NULL, 1, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encoded_len_utf16_valid(units, SIZE_MAX, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encoded_len_utf16_valid(units, (size_t)PTRDIFF_MAX / 2 + 1, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encoded_len_utf16_valid(top_units, 8, 0), U8X_BAD_SIZE);
  for (i = 0; i < 2; i++) {
    const uint16_t *odd = (const uint16_t *)(const void *)(mem.b + 1 + 2 * i);
    CHECK_EQ(u8x_encoded_len_utf16_valid(odd, 2, 0), U8X_BAD_SIZE);
    CHECK_EQ(u8x_encoded_len_utf16_valid(odd, 0, 0), U8X_BAD_SIZE);
  }
  /* 0 or one byte-order flag: not U8X_MORE_INPUT, not both */
  CHECK_EQ(u8x_encoded_len_utf16_valid(units, 3, U8X_MORE_INPUT), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encoded_len_utf16_valid(units, 3, U8X_MORE_INPUT | U8X_BIG_ENDIAN), U8X_BAD_SIZE);
  for (i = 0; i < COUNT_OF(not_utf16_flags); i++) {
    check_context("u8x_encoded_len_utf16_valid, flags 0x%lX", (unsigned long)not_utf16_flags[i]);
    CHECK_EQ(u8x_encoded_len_utf16_valid(units, 3, not_utf16_flags[i]), U8X_BAD_SIZE);
  }
  check_context("u8x_encoded_len_utf16_valid, fine");
  CHECK_EQ(u8x_encoded_len_utf16_valid(units, 3, 0), 6);
  CHECK_EQ(u8x_encoded_len_utf16_valid(NULL, 0, U8X_LITTLE_ENDIAN), 0);
  /* 'a' 00E9 20AC read big-endian on a little-endian machine (or the
   * reverse): 6100 E900 AC20, three bytes each */
  CHECK_EQ(u8x_encoded_len_utf16_valid(units, 3, U8X_LITTLE_ENDIAN) + u8x_encoded_len_utf16_valid(units, 3, U8X_BIG_ENDIAN),
           6 + 9);
}

static void bounds_overflow(void) {
  check_context("bounds");
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX / 3 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX / 2 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_decode_utf16_bound(SIZE_MAX), SIZE_MAX); /* not an overflow: one unit a byte */
  CHECK_EQ(u8x_decode_latin1_bound(SIZE_MAX), SIZE_MAX);
}

static void names(void) {
  const char *n = u8x_error_name(U8X_ERR_NOT_REPRESENTABLE);
  check_context("names");
  CHECK_EQ(U8X_ERR_NOT_REPRESENTABLE, 8);
  CHECK(n != NULL && strcmp(n, "unknown error") != 0);
  CHECK(n != NULL && strcmp(n, u8x_error_name(U8X_ERR_SURROGATE)) != 0);
  CHECK_STR(u8x_error_name(U8X_ERR_NOT_REPRESENTABLE + 1), "unknown error");
  CHECK_EQ(U8X_MORE_INPUT, 1);
  CHECK_EQ(U8X_LITTLE_ENDIAN, 2);
  CHECK_EQ(U8X_BIG_ENDIAN, 4);
  CHECK_EQ(U8X_WIDTH_ASCII, 0);
  CHECK_EQ(U8X_WIDTH_SUPPLEMENTARY, 3);
}

int main(void) {
  check_begin("forms_args");
  decode_utf16_args();
  encode_utf16_args();
  validate_utf16_args();
  decode_latin1_args();
  encode_latin1_args();
  classify_args();
  sizes_args();
  bounds_overflow();
  names();
  check_context("%s", "");
  return check_done();
}
