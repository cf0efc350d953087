/* The bad-argument matrix of args.c and forms_args.c with every buffer
 * flush against inaccessible guard pages (guard.h), for every function of
 * u8x.h. A refused call must read and write nothing, so most of them get
 * buffers lying entirely inside a guard page: any access at all crashes.
 * The others get accessible buffers that end at a guard page, filled with a
 * sentinel, and must leave them untouched. Next to each refusal, the legal
 * edge cases: NULL with length 0, a capacity of 0 (on a pointer into a
 * guard page: nothing may be written), a zero-length buffer at the very end
 * of the arena.
 *
 * Kinds of bad argument: NULL with a non-zero length, misaligned
 * uint16_t / uint32_t / wchar_t / u8x_classification pointers, overlapping
 * input and output, unknown policies and flags, invalid replacements, a
 * position beyond the length, lengths over PTRDIFF_MAX bytes, a buffer
 * running past the end of the address space, a corrupt u8x_mbstate_t.
 * Functions returning u8x_result must give U8X_BAD_ARGUMENT (all other
 * fields 0), those returning a size U8X_BAD_SIZE, the POSIX drop-ins
 * (size_t)-1 and EINVAL.
 *
 * `functions` lists every function of the header; each test marks the ones
 * it covered, and the program fails if one was not. tests/c_harness.rs
 * checks that the list is exactly the header's functions. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS under -std=c99 */
#include <errno.h>
#include <wchar.h>

#include "check.h"
#include "guard.h"

#define BAD(r) CHECK_RESULT((r), U8X_BAD_ARGUMENT, U8X_ERR_NONE, 0, 0, 0)
#define FAIL ((size_t)-1)
#define HUGE_LEN ((size_t)PTRDIFF_MAX + 1)
#define TOP_ADDRESS (UINTPTR_MAX - 15)
#define SENTINEL 0x5A

typedef void (*any_function)(void);
#define FN(f) {#f, (any_function)f, 0}
/* Every function declared in u8x.h (tests/c_harness.rs compares). */
static struct {
  const char *name;
  any_function address;
  int covered;
} functions[] = {
    FN(u8x_validate),
    FN(u8x_decode_ucs4),
    FN(u8x_count),
    FN(u8x_count_valid),
    FN(u8x_encode),
    FN(u8x_encoded_len),
    FN(u8x_next_boundary),
    FN(u8x_prev_boundary),
    FN(u8x_next_boundary_in),
    FN(u8x_prev_boundary_in),
    FN(u8x_encode_bound_in),
    FN(u8x_decode_ucs4_bound),
    FN(u8x_encode_bound),
    FN(u8x_decode_utf16),
    FN(u8x_encode_utf16),
    FN(u8x_validate_utf16),
    FN(u8x_decode_latin1),
    FN(u8x_encode_latin1),
    FN(u8x_classify),
    FN(u8x_count_utf16_valid),
    FN(u8x_encoded_len_utf16_valid),
    FN(u8x_decode_utf16_bound),
    FN(u8x_encode_utf16_bound),
    FN(u8x_decode_latin1_bound),
    FN(u8x_encode_latin1_bound),
    FN(u8x_version),
    FN(u8x_status_name),
    FN(u8x_error_name),
    FN(u8x_tier_name),
    FN(u8x_tier_forced),
    FN(u8x_mbstowcs),
    FN(u8x_wcstombs),
    FN(u8x_mbrtowc),
    FN(u8x_mbrlen),
    FN(u8x_wcrtomb),
    FN(u8x_mbsinit),
    FN(u8x_mbsrtowcs),
    FN(u8x_wcsrtombs),
    FN(u8x_convert_latin1_to_utf16),
    FN(u8x_convert_latin1_to_ucs4),
    FN(u8x_convert_utf16_to_latin1),
    FN(u8x_convert_ucs4_to_latin1),
    FN(u8x_convert_utf16_to_ucs4),
    FN(u8x_convert_ucs4_to_utf16),
    FN(u8x_validate_ucs4),
    FN(u8x_validate_ascii),
    FN(u8x_validate_ascii_utf16),
    FN(u8x_classify_utf16),
    FN(u8x_to_well_formed_utf16),
    FN(u8x_swap_utf16),
    FN(u8x_ucs4_len_utf16_valid),
    FN(u8x_utf16_len_ucs4_valid),
    FN(u8x_detect_encoding),
};

static void cover(any_function f) {
  size_t i;
  for (i = 0; i < COUNT_OF(functions); i++)
    if (functions[i].address == f) functions[i].covered = 1;
}
#define COVER(f) cover((any_function)f)

static struct arena in, out;
/* Inaccessible: the guard page after each arena. */
static uint8_t *gs, *gd;

static void fill(void) {
  memset(in.start, SENTINEL, (size_t)(in.end - in.start));
  memset(out.start, SENTINEL, (size_t)(out.end - out.start));
}
/* Both arenas still hold the sentinel, except `keep` bytes at the end of
 * the input arena (the input placed there). */
static int untouched(size_t keep) {
  const uint8_t *p;
  for (p = in.start; p < in.end - keep; p++)
    if (*p != SENTINEL) return 0;
  for (p = out.start; p < out.end; p++)
    if (*p != SENTINEL) return 0;
  return 1;
}
#define UNTOUCHED(keep) CHECK(untouched(keep))

/* `n` bytes flush against the guard page after the input arena. */
static uint8_t *input_at_end(const void *bytes, size_t n) {
  uint8_t *p = place(in, n, 0);
  memcpy(p, bytes, n);
  return p;
}

/* "aé€" */
static const uint8_t text[] = {'a', 0xC3, 0xA9, 0xE2, 0x82, 0xAC};
static const uint32_t cps[] = {'a', 0xE9, 0x20AC};
static const uint16_t units[] = {'a', 0xE9, 0x20AC};

static const uint32_t not_policies[] = {6, 7, 100, 0x80000000u, 0xFFFFFFFFu, 0x600, 0xFF00, 0x10000};
static const uint32_t not_scalars[] = {0xD800, 0xDFFF, 0x110000, 0xFFFFFFFFu};
static const uint32_t not_flags[] = {2, 4, 16, 0x80000000u, 0xFFFFFFFFu, 0x600, 0xFF00};
static const uint32_t not_utf16_flags[] = {U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN, 16, 0x80000000u, 0xFFFFFFFFu};

/* ---- UTF-8 in, no output -------------------------------------------------- */

static void validate_count(void) {
  size_t i;
  const uint8_t *top = (const uint8_t *)TOP_ADDRESS;
  COVER(u8x_validate);
  COVER(u8x_count);
  COVER(u8x_count_valid);
  COVER(u8x_count_utf16_valid);
  check_context("validate, count: refused, nothing read");
  BAD(u8x_validate(NULL, 1, 0));
  BAD(u8x_count(NULL, 1, U8X_STRICT, 0));
  CHECK_EQ(u8x_count_valid(NULL, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(NULL, 1), U8X_BAD_SIZE);
  BAD(u8x_validate(gs, HUGE_LEN, 0));
  BAD(u8x_validate(gs, SIZE_MAX, 0));
  BAD(u8x_count(gs, HUGE_LEN, U8X_REPLACE, 0));
  CHECK_EQ(u8x_count_valid(gs, HUGE_LEN), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(gs, SIZE_MAX), U8X_BAD_SIZE);
  BAD(u8x_validate(top, 16, 0));
  BAD(u8x_count(top, 16, U8X_STRICT, 0));
  CHECK_EQ(u8x_count_valid(top, 16), U8X_BAD_SIZE);
  CHECK_EQ(u8x_count_utf16_valid(top, 16), U8X_BAD_SIZE);
  for (i = 0; i < COUNT_OF(not_flags); i++) {
    BAD(u8x_validate(gs, 16, not_flags[i]));
    BAD(u8x_count(gs, 16, U8X_STRICT, not_flags[i]));
  }
  for (i = 0; i < COUNT_OF(not_policies); i++) BAD(u8x_count(gs, 16, not_policies[i], 0));

  check_context("validate, count: legal edges");
  CHECK_RESULT(u8x_validate(NULL, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate(gs, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0); /* empty, at the very end */
  CHECK_RESULT(u8x_count(gs, 0, U8X_CP1252, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(u8x_count_valid(gs, 0), 0);
  CHECK_EQ(u8x_count_utf16_valid(NULL, 0), 0);
  fill();
  {
    const uint8_t *s = input_at_end(text, sizeof text);
    CHECK_RESULT(u8x_validate(s, sizeof text, 0), U8X_OK, U8X_ERR_NONE, 6, 0, 0);
    CHECK_RESULT(u8x_count(s, sizeof text, U8X_ESCAPE, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
    CHECK_EQ(u8x_count_valid(s, sizeof text), 3);
    CHECK_EQ(u8x_count_utf16_valid(s, sizeof text), 3);
  }
  UNTOUCHED(sizeof text);
}

static void boundaries(void) {
  const uint8_t *top = (const uint8_t *)TOP_ADDRESS;
  COVER(u8x_next_boundary);
  COVER(u8x_prev_boundary);
  check_context("boundaries: refused, nothing read");
  CHECK_EQ(u8x_next_boundary(NULL, 1, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(NULL, 1, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(gs, 16, 17), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(gs, 16, 17), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(gs, 0, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(gs, 16, SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(gs, HUGE_LEN, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(gs, SIZE_MAX, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(top, 16, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(top, 16, 8), U8X_BAD_SIZE);
  check_context("boundaries: legal edges");
  CHECK_EQ(u8x_next_boundary(NULL, 0, 0), 0);
  CHECK_EQ(u8x_prev_boundary(gs, 0, 0), 0);
  fill();
  {
    const uint8_t *s = input_at_end(text, sizeof text);
    CHECK_EQ(u8x_next_boundary(s, sizeof text, 4), 6);
    CHECK_EQ(u8x_prev_boundary(s, sizeof text, 5), 3);
    CHECK_EQ(u8x_next_boundary(s, sizeof text, 6), 6);
  }
  UNTOUCHED(sizeof text);

  COVER(u8x_next_boundary_in);
  COVER(u8x_prev_boundary_in);
  check_context("boundaries in a dialect: refused, nothing read");
  CHECK_EQ(u8x_next_boundary_in(NULL, 1, 0, U8X_DIALECT_CESU8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary_in(NULL, 1, 1, U8X_DIALECT_LEGACY), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary_in(gs, 16, 17, U8X_DIALECT_WTF8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary_in(gs, 16, SIZE_MAX, U8X_DIALECT_MUTF8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary_in(gs, HUGE_LEN, 0, U8X_DIALECT_CESU8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary_in(top, 16, 8, U8X_DIALECT_GENERALIZED), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary_in(gs, 16, 0, 0x600), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary_in(gs, 16, 0, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary_in(gs, 16, 0, 0xFFFFFFFFu), U8X_BAD_SIZE);
  check_context("boundaries in a dialect: legal edges");
  CHECK_EQ(u8x_next_boundary_in(NULL, 0, 0, U8X_DIALECT_CESU8), 0);
  CHECK_EQ(u8x_prev_boundary_in(gs, 0, 0, U8X_DIALECT_LEGACY), 0);
  fill();
  {
    const uint8_t *s = input_at_end(text, sizeof text);
    CHECK_EQ(u8x_next_boundary_in(s, sizeof text, 4, U8X_DIALECT_STANDARD), 6);
    CHECK_EQ(u8x_prev_boundary_in(s, sizeof text, 5, U8X_DIALECT_WTF8), 3);
    CHECK_EQ(u8x_next_boundary_in(s, sizeof text, 6, U8X_DIALECT_CESU8), 6);
  }
  UNTOUCHED(sizeof text);
}

/* ---- decoders: UTF-8 in, UCS-4 / UTF-16 / Latin-1 out ---------------------- */

/* What the three decoders share: each call through one function. */
enum decoder { UCS4, UTF16, LATIN1 };
static const char *const decoder_names[] = {"u8x_decode_ucs4", "u8x_decode_utf16", "u8x_decode_latin1"};
static const size_t unit_size[] = {4, 2, 1};

static u8x_result decode(enum decoder d, const uint8_t *src, size_t len, void *dst, size_t cap, uint32_t policy,
                         uint32_t replacement, uint32_t flags) {
  switch (d) {
    case UCS4:
      return u8x_decode_ucs4(src, len, (uint32_t *)dst, cap, policy, replacement, flags);
    case UTF16:
      return u8x_decode_utf16(src, len, (uint16_t *)dst, cap, policy, replacement, flags);
    default:
      return u8x_decode_latin1(src, len, (uint8_t *)dst, cap, policy, replacement, flags);
  }
}

static void decoders(void) {
  enum decoder d;
  size_t i;
  COVER(u8x_decode_ucs4);
  COVER(u8x_decode_utf16);
  COVER(u8x_decode_latin1);
  for (d = UCS4; d <= LATIN1; d++) {
    const size_t us = unit_size[d];
    const uint32_t repl = d == LATIN1 ? '?' : U8X_REPLACEMENT_CHARACTER;
    check_context("%s: refused, nothing read or written", decoder_names[d]);
    BAD(decode(d, NULL, 1, gd, 8, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, 16, NULL, 1, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, 16, NULL, SIZE_MAX, U8X_REPLACE, repl, 0));
    BAD(decode(d, gs, HUGE_LEN, gd, 8, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, SIZE_MAX, NULL, 0, U8X_STRICT, 0, 0));
    BAD(decode(d, (const uint8_t *)TOP_ADDRESS, 16, gd, 8, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, 64, (void *)(TOP_ADDRESS & ~(uintptr_t)3), 64, U8X_STRICT, 0, 0));
    /* a capacity no buffer can have, however little of it the input needs:
     * refused as an input length is, not clamped to the 1-4 units the call
     * would write (a page from the top, 4096 units, would otherwise be
     * written) */
    BAD(decode(d, gs, 1, (void *)((UINTPTR_MAX - 63) & ~(uintptr_t)3), 4096, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, 1, gd, SIZE_MAX, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, 1, gd, HUGE_LEN / us, U8X_REPLACE, repl, 0));
    for (i = 0; i < COUNT_OF(not_policies); i++) BAD(decode(d, gs, 16, gd, 16, not_policies[i], repl, 0));
    if (d == LATIN1) {
      BAD(decode(d, gs, 16, gd, 16, U8X_ESCAPE, repl, 0));
      BAD(decode(d, gs, 16, gd, 16, U8X_CP1252, repl, 0));
      BAD(decode(d, gs, 16, gd, 16, U8X_REPLACE, 256, 0));
      BAD(decode(d, gs, 16, gd, 16, U8X_REPLACE, 0xFFFD, 0));
    }
    for (i = 0; i < COUNT_OF(not_scalars); i++) BAD(decode(d, gs, 16, gd, 16, U8X_REPLACE, not_scalars[i], 0));
    for (i = 0; i < COUNT_OF(not_flags); i++) {
      /* UTF-16 takes byte-order flags; everything else is unknown */
      if (d == UTF16 && (not_flags[i] == U8X_LITTLE_ENDIAN || not_flags[i] == U8X_BIG_ENDIAN)) continue;
      BAD(decode(d, gs, 16, gd, 16, U8X_STRICT, 0, not_flags[i]));
    }
    if (d == UTF16)
      for (i = 0; i < COUNT_OF(not_utf16_flags); i++) BAD(decode(d, gs, 16, gd, 16, U8X_STRICT, 0, not_utf16_flags[i]));
    /* misaligned output, whatever the capacity */
    if (us > 1) {
      BAD(decode(d, gs, 16, gd + 1, 16, U8X_STRICT, 0, 0));
      BAD(decode(d, gs, 16, gd + 1, 0, U8X_STRICT, 0, 0));
      BAD(decode(d, NULL, 0, gd + 1, 0, U8X_STRICT, 0, 0));
      BAD(decode(d, gs, 0, gd + us - 1, 4, U8X_REPLACE, repl, U8X_MORE_INPUT));
    }
    /* overlap, inside a guard page: nothing may be touched */
    BAD(decode(d, gs, 16, gs, 16, U8X_STRICT, 0, 0));
    BAD(decode(d, gs + 4, 8, gs, 16, U8X_STRICT, 0, 0));
    BAD(decode(d, gs, 8, gs + 4, 1, U8X_STRICT, 0, 0));

    check_context("%s: refused, accessible buffers untouched", decoder_names[d]);
    fill();
    {
      uint8_t *s = input_at_end(text, sizeof text);
      uint8_t *dst = out.end - 8 * us;
      BAD(decode(d, NULL, 6, dst, 8, U8X_STRICT, 0, 0));
      BAD(decode(d, s, 6, dst, 8, 77, 0, 0));
      BAD(decode(d, s, 6, dst, 8, U8X_REPLACE, 0xD800, 0));
      BAD(decode(d, s, 6, dst, 8, U8X_STRICT, 0, 0x100));
      BAD(decode(d, s, HUGE_LEN, dst, 8, U8X_STRICT, 0, 0));
      if (us > 1) BAD(decode(d, s, 6, dst - 1, 8, U8X_STRICT, 0, 0));
      /* overlap: the output's reachable part covers the input's end */
      BAD(decode(d, s, 6, in.end - 4 * us, 8, U8X_STRICT, 0, 0));
      BAD(decode(d, s, 6, in.end - 4, 1, U8X_STRICT, 0, 0));
    }
    UNTOUCHED(sizeof text);

    check_context("%s: legal edges", decoder_names[d]);
    CHECK_RESULT(decode(d, NULL, 0, NULL, 0, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
    CHECK_RESULT(decode(d, NULL, 0, gd, 16, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0); /* nothing to write */
    CHECK_RESULT(decode(d, gs, 0, gd, 0, U8X_REPLACE, repl, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
    fill();
    {
      uint8_t *s = input_at_end(text, sizeof text);
      uint8_t *dst = out.end - 3 * us;
      /* capacity 0, the pointer at the guard page: full at once */
      CHECK_RESULT(decode(d, s, 6, gd, 0, U8X_STRICT, 0, 0), U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
      CHECK_RESULT(decode(d, s, 6, NULL, 0, U8X_REPLACE, repl, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
      UNTOUCHED(sizeof text);
      if (d != LATIN1) {
        /* the output exactly as long as needed, flush against the guard page */
        CHECK_RESULT(decode(d, s, 6, dst, 3, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 6, 3, 0);
      } else {
        CHECK_RESULT(decode(d, s, 3, out.end - 2, 2, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 2, 0);
      }
    }
  }
}

/* ---- encoders: UCS-4 / UTF-16 / Latin-1 in, UTF-8 out ----------------------- */

static void encoders(void) {
  size_t i;
  const uint32_t *gs32 = (const uint32_t *)(const void *)gs;
  const uint16_t *gs16 = (const uint16_t *)(const void *)gs;
  uint8_t *top = (uint8_t *)TOP_ADDRESS;
  static const uint32_t encode_not[] = {U8X_LATIN1, U8X_CP1252, 6, 0xFFFFFFFFu};
  COVER(u8x_encode);
  COVER(u8x_encoded_len);
  COVER(u8x_encode_utf16);
  COVER(u8x_validate_utf16);
  COVER(u8x_encode_latin1);
  COVER(u8x_encoded_len_utf16_valid);

  check_context("encoders: refused, nothing read or written");
  BAD(u8x_encode(NULL, 1, gd, 16, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(NULL, 1, gd, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_latin1(NULL, 1, gd, 16));
  BAD(u8x_encoded_len(NULL, 1, U8X_STRICT, 0));
  BAD(u8x_validate_utf16(NULL, 1, 0));
  CHECK_EQ(u8x_encoded_len_utf16_valid(NULL, 1, 0), U8X_BAD_SIZE);
  BAD(u8x_encode(gs32, 4, NULL, 1, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(gs16, 4, NULL, 1, U8X_STRICT, 0, 0));
  BAD(u8x_encode_latin1(gs, 4, NULL, 1));
  /* misaligned input, even when empty */
  BAD(u8x_encode((const uint32_t *)(const void *)(gs + 2), 2, gd, 16, U8X_STRICT, 0));
  BAD(u8x_encode((const uint32_t *)(const void *)(gs + 1), 0, gd, 16, U8X_STRICT, 0));
  BAD(u8x_encoded_len((const uint32_t *)(const void *)(gs + 3), 1, U8X_STRICT, 0));
  BAD(u8x_encode_utf16((const uint16_t *)(const void *)(gs + 1), 2, gd, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_utf16((const uint16_t *)(const void *)(gs + 1), 0, NULL, 0, U8X_STRICT, 0, 0));
  BAD(u8x_validate_utf16((const uint16_t *)(const void *)(gs + 1), 2, 0));
  BAD(u8x_validate_utf16((const uint16_t *)(const void *)(gs + 1), 0, 0));
  CHECK_EQ(u8x_encoded_len_utf16_valid((const uint16_t *)(const void *)(gs + 1), 2, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encoded_len_utf16_valid((const uint16_t *)(const void *)(gs + 1), 0, 0), U8X_BAD_SIZE);
  /* sizes */
  BAD(u8x_encode(gs32, HUGE_LEN / 4, gd, 16, U8X_STRICT, 0));
  BAD(u8x_encode(gs32, SIZE_MAX, NULL, 0, U8X_STRICT, 0));
  BAD(u8x_encoded_len(gs32, HUGE_LEN / 4, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(gs16, HUGE_LEN / 2, gd, 16, U8X_STRICT, 0, 0));
  BAD(u8x_validate_utf16(gs16, HUGE_LEN / 2, 0));
  CHECK_EQ(u8x_encoded_len_utf16_valid(gs16, SIZE_MAX, 0), U8X_BAD_SIZE);
  BAD(u8x_encode_latin1(gs, HUGE_LEN, gd, 16));
  /* past the end of the address space, input or output */
  BAD(u8x_encode((const uint32_t *)TOP_ADDRESS, 8, gd, 16, U8X_STRICT, 0));
  BAD(u8x_encoded_len((const uint32_t *)TOP_ADDRESS, 8, U8X_STRICT, 0));
  BAD(u8x_encode_utf16((const uint16_t *)TOP_ADDRESS, 8, gd, 16, U8X_STRICT, 0, 0));
  BAD(u8x_validate_utf16((const uint16_t *)TOP_ADDRESS, 8, 0));
  CHECK_EQ(u8x_encoded_len_utf16_valid((const uint16_t *)TOP_ADDRESS, 8, 0), U8X_BAD_SIZE);
  BAD(u8x_encode_latin1((const uint8_t *)TOP_ADDRESS, 16, gd, 16));
  BAD(u8x_encode(gs32, 8, top, 32, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(gs16, 8, top, 32, U8X_STRICT, 0, 0));
  BAD(u8x_encode_latin1(gs, 16, top, 32));
  /* a capacity no buffer can have, though the input needs 1-4 bytes */
  BAD(u8x_encode(gs32, 1, top - 48, 4096, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(gs16, 1, top - 48, 4096, U8X_STRICT, 0, 0));
  BAD(u8x_encode_latin1(gs, 1, top - 48, 4096));
  BAD(u8x_encode(gs32, 1, gd, SIZE_MAX, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(gs16, 1, gd, SIZE_MAX, U8X_STRICT, 0, 0));
  BAD(u8x_encode_latin1(gs, 1, gd, HUGE_LEN));
  /* policies, replacements, flags */
  for (i = 0; i < COUNT_OF(encode_not); i++) {
    BAD(u8x_encode(gs32, 4, gd, 16, encode_not[i], U8X_REPLACEMENT_CHARACTER));
    BAD(u8x_encoded_len(gs32, 4, encode_not[i], U8X_REPLACEMENT_CHARACTER));
    BAD(u8x_encode_utf16(gs16, 4, gd, 16, encode_not[i], U8X_REPLACEMENT_CHARACTER, 0));
  }
  for (i = 0; i < COUNT_OF(not_scalars); i++) {
    BAD(u8x_encode(gs32, 4, gd, 16, U8X_REPLACE, not_scalars[i]));
    BAD(u8x_encoded_len(gs32, 4, U8X_REPLACE, not_scalars[i]));
    BAD(u8x_encode_utf16(gs16, 4, gd, 16, U8X_REPLACE, not_scalars[i], 0));
  }
  for (i = 0; i < COUNT_OF(not_utf16_flags); i++) {
    BAD(u8x_encode_utf16(gs16, 4, gd, 16, U8X_STRICT, 0, not_utf16_flags[i]));
    BAD(u8x_validate_utf16(gs16, 4, not_utf16_flags[i]));
    CHECK_EQ(u8x_encoded_len_utf16_valid(gs16, 4, not_utf16_flags[i]), U8X_BAD_SIZE);
  }
  CHECK_EQ(u8x_encoded_len_utf16_valid(gs16, 4, U8X_MORE_INPUT), U8X_BAD_SIZE);
  /* overlap inside a guard page */
  BAD(u8x_encode(gs32, 4, gs, 16, U8X_STRICT, 0));
  BAD(u8x_encode(gs32 + 1, 4, gs, 8, U8X_STRICT, 0));
  BAD(u8x_encode_utf16(gs16, 4, gs + 4, 16, U8X_STRICT, 0, 0));
  BAD(u8x_encode_latin1(gs, 4, gs + 3, 16));

  check_context("encoders: refused, accessible buffers untouched");
  fill();
  {
    const uint32_t *s32 = (const uint32_t *)(const void *)input_at_end(cps, sizeof cps);
    uint8_t *dst = out.end - 16;
    BAD(u8x_encode(s32, 3, dst, 16, U8X_LATIN1, 0));
    BAD(u8x_encode(s32, 3, dst, 16, U8X_REPLACE, 0xDC80));
    BAD(u8x_encode(s32, 3, (uint8_t *)s32 - 4, 16, U8X_STRICT, 0)); /* reachable: 12 bytes, into the input */
    UNTOUCHED(sizeof cps);
  }
  fill();
  {
    const uint16_t *s16 = (const uint16_t *)(const void *)input_at_end(units, sizeof units);
    uint8_t *dst = out.end - 16;
    BAD(u8x_encode_utf16(s16, 3, dst, 16, U8X_STRICT, 0, U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN));
    BAD(u8x_encode_utf16(s16, 3, (uint8_t *)s16 - 8, 16, U8X_STRICT, 0, 0));
    BAD(u8x_validate_utf16(s16, 3, 16));
    UNTOUCHED(sizeof units);
  }
  fill();
  {
    const uint8_t *s = input_at_end("a\xE9", 2);
    BAD(u8x_encode_latin1(s, 2, (uint8_t *)s - 3, 4));
    BAD(u8x_encode_latin1(NULL, 2, out.end - 4, 4));
    UNTOUCHED(2);
  }

  check_context("encoders: legal edges");
  CHECK_RESULT(u8x_encode(NULL, 0, NULL, 0, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode(gs32, 0, gd, 16, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encoded_len(gs32, 0, U8X_REPLACE, 0x41), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode_utf16(gs16, 0, gd, 16, U8X_STRICT, 0, U8X_BIG_ENDIAN), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate_utf16(gs16, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate_utf16(NULL, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(u8x_encoded_len_utf16_valid(gs16, 0, U8X_LITTLE_ENDIAN), 0);
  CHECK_RESULT(u8x_encode_latin1(gs, 0, gd, 16), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode_latin1(NULL, 0, NULL, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  fill();
  {
    const uint32_t *s32 = (const uint32_t *)(const void *)input_at_end(cps, sizeof cps);
    CHECK_RESULT(u8x_encode(s32, 3, gd, 0, U8X_STRICT, 0), U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
    CHECK_RESULT(u8x_encode(s32, 3, out.end - 6, 6, U8X_STRICT, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
    CHECK_BYTES(out.end - 6, 6, text, 6);
  }
  fill();
  {
    const uint16_t *s16 = (const uint16_t *)(const void *)input_at_end(units, sizeof units);
    CHECK_RESULT(u8x_encode_utf16(s16, 3, gd, 0, U8X_STRICT, 0, 0), U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
    CHECK_RESULT(u8x_encode_utf16(s16, 3, out.end - 6, 6, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 6, 0);
    CHECK_RESULT(u8x_validate_utf16(s16, 3, 0), U8X_OK, U8X_ERR_NONE, 3, 0, 0);
    CHECK_EQ(u8x_encoded_len_utf16_valid(s16, 3, 0), 6);
  }
  fill();
  {
    const uint8_t *s = input_at_end("a\xE9", 2);
    CHECK_RESULT(u8x_encode_latin1(s, 2, gd, 0), U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
    CHECK_RESULT(u8x_encode_latin1(s, 2, (uint8_t *)s - 3, 3), U8X_OK, U8X_ERR_NONE, 2, 3, 0); /* adjacent */
  }
}

static void classify(void) {
  size_t i;
  u8x_classification *guarded = (u8x_classification *)(void *)gd;
  COVER(u8x_classify);
  check_context("u8x_classify: refused, nothing read or written");
  BAD(u8x_classify(gs, 16, 0, NULL));
  BAD(u8x_classify(NULL, 0, 0, NULL));
  BAD(u8x_classify(NULL, 1, 0, guarded));
  BAD(u8x_classify(gs, HUGE_LEN, 0, guarded));
  BAD(u8x_classify((const uint8_t *)TOP_ADDRESS, 16, 0, guarded));
  for (i = 0; i < COUNT_OF(not_flags); i++) BAD(u8x_classify(gs, 16, not_flags[i], guarded));
  for (i = 1; i < sizeof(size_t); i++) {
    BAD(u8x_classify(gs, 16, 0, (u8x_classification *)(void *)(gd + i)));
    BAD(u8x_classify(NULL, 0, 0, (u8x_classification *)(void *)(gd + i)));
  }
  check_context("u8x_classify: legal edges");
  fill();
  {
    const uint8_t *s = input_at_end(text, sizeof text);
    u8x_classification *info = (u8x_classification *)(void *)(out.end - sizeof *info);
    BAD(u8x_classify(s, 6, 0, (u8x_classification *)(void *)(out.end - sizeof *info - 1)));
    UNTOUCHED(sizeof text);
    CHECK_RESULT(u8x_classify(s, 6, 0, info), U8X_OK, U8X_ERR_NONE, 6, 0, 0);
    CHECK(info->width == U8X_WIDTH_BMP && info->code_points == 3 && info->utf16_units == 3);
    CHECK_RESULT(u8x_classify(gs, 0, 0, info), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
    CHECK(info->width == U8X_WIDTH_ASCII && info->code_points == 0 && info->utf16_units == 0);
    CHECK_RESULT(u8x_classify(NULL, 0, U8X_MORE_INPUT, info), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  }
}

/* ---- functions without pointers ---------------------------------------------- */

static void no_pointers(void) {
  const char *tier;
  COVER(u8x_decode_ucs4_bound);
  COVER(u8x_encode_bound);
  COVER(u8x_decode_utf16_bound);
  COVER(u8x_encode_utf16_bound);
  COVER(u8x_decode_latin1_bound);
  COVER(u8x_encode_latin1_bound);
  COVER(u8x_version);
  COVER(u8x_status_name);
  COVER(u8x_error_name);
  COVER(u8x_tier_name);
  COVER(u8x_tier_forced);
  COVER(u8x_encode_bound_in);
  check_context("bounds");
  CHECK_EQ(u8x_encode_bound_in(SIZE_MAX / 6 + 1, U8X_DIALECT_CESU8), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_bound_in(SIZE_MAX / 6, U8X_DIALECT_LEGACY), SIZE_MAX / 6 * 6);
  CHECK_EQ(u8x_encode_bound_in(SIZE_MAX / 4, U8X_DIALECT_WTF8), SIZE_MAX / 4 * 4);
  CHECK_EQ(u8x_encode_bound_in(1, 0x600), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_bound(SIZE_MAX / 4 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_bound(SIZE_MAX / 4), SIZE_MAX / 4 * 4);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX / 3 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX / 3), SIZE_MAX / 3 * 3);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX / 2 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX / 2), SIZE_MAX / 2 * 2);
  CHECK_EQ(u8x_decode_ucs4_bound(SIZE_MAX), SIZE_MAX);
  CHECK_EQ(u8x_decode_utf16_bound(SIZE_MAX), SIZE_MAX);
  CHECK_EQ(u8x_decode_latin1_bound(0), 0);
  check_context("names");
  CHECK_STR(u8x_status_name(-1), "unknown status");
  CHECK_STR(u8x_status_name(U8X_INTERNAL_ERROR + 1), "unknown status");
  CHECK_STR(u8x_error_name(-2147483647 - 1), "unknown error");
  CHECK_STR(u8x_error_name(U8X_ERR_NOT_REPRESENTABLE + 1), "unknown error");
  CHECK_STR(u8x_version(), U8X_VERSION_STRING);
  tier = u8x_tier_name();
  CHECK(tier != NULL && tier[0] != '\0');
  CHECK(u8x_tier_forced() >= -2 && u8x_tier_forced() <= 1);
}

/* ---- POSIX drop-ins ------------------------------------------------------------ */

static void posix(void) {
  wchar_t *gw = (wchar_t *)(void *)gd;
  COVER(u8x_mbstowcs);
  COVER(u8x_wcstombs);
  check_context("u8x_mbstowcs: refused");
  errno = 0;
  CHECK_EQ(u8x_mbstowcs(gw, NULL, 8), FAIL); /* the output is in a guard page */
  CHECK_EQ(errno, EINVAL);
  errno = 0;
  CHECK_EQ(u8x_mbstowcs(NULL, NULL, 0), FAIL);
  CHECK_EQ(errno, EINVAL);
  fill();
  {
    const char *s = (const char *)input_at_end("abc", 4); /* the NUL against the guard page */
    size_t i;
    for (i = 1; i < sizeof(wchar_t); i++) {
      errno = 0;
      CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(gd + i), s, 8), FAIL);
      CHECK_EQ(errno, EINVAL);
      errno = 0;
      CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(gd + i), s, 0), FAIL);
      CHECK_EQ(errno, EINVAL);
    }
    /* the output overlaps the string */
    errno = 0;
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(in.end - 8), s, 4), FAIL);
    CHECK_EQ(errno, EINVAL);
    UNTOUCHED(4);
    check_context("u8x_mbstowcs: legal edges");
    CHECK_EQ(u8x_mbstowcs(gw, s, 0), 0); /* no room: nothing written */
    CHECK_EQ(u8x_mbstowcs(NULL, s, 0), 3);
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(out.end - 3 * sizeof(wchar_t)), s, 3), 3); /* no room for L'\0' */
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(in.end - 4 - 4 * sizeof(wchar_t)), s, 4), 3); /* adjacent */
    /* n is a limit, not a buffer's size (POSIX): SIZE_MAX when the string
     * is known to fit */
    CHECK_EQ(u8x_mbstowcs((wchar_t *)(void *)(out.end - 4 * sizeof(wchar_t)), s, SIZE_MAX), 3);
    CHECK_EQ(*(const wchar_t *)(const void *)(out.end - sizeof(wchar_t)), 0);
    CHECK_EQ(u8x_mbstowcs(gw, (const char *)in.end - 1, 0), 0); /* "" at the very end */
  }

  check_context("u8x_wcstombs: refused");
  errno = 0;
  CHECK_EQ(u8x_wcstombs((char *)gd, NULL, 8), FAIL);
  CHECK_EQ(errno, EINVAL);
  {
    size_t i;
    for (i = 1; i < sizeof(wchar_t); i++) {
      /* misaligned, in a guard page: refused before reading */
      errno = 0;
      CHECK_EQ(u8x_wcstombs((char *)gd, (const wchar_t *)(const void *)(gs + i), 8), FAIL);
      CHECK_EQ(errno, EINVAL);
      errno = 0;
      CHECK_EQ(u8x_wcstombs(NULL, (const wchar_t *)(const void *)(gs + i), 0), FAIL);
      CHECK_EQ(errno, EINVAL);
    }
  }
  fill();
  {
    static const wchar_t wide[] = {L'a', 0xE9, 0};
    const wchar_t *w = (const wchar_t *)(const void *)input_at_end(wide, sizeof wide);
    errno = 0;
    CHECK_EQ(u8x_wcstombs((char *)w - 2, w, 8), FAIL);
    CHECK_EQ(errno, EINVAL);
    UNTOUCHED(sizeof wide);
    check_context("u8x_wcstombs: legal edges");
    CHECK_EQ(u8x_wcstombs((char *)gd, w, 0), 0);
    CHECK_EQ(u8x_wcstombs(NULL, w, 0), 3);
    CHECK_EQ(u8x_wcstombs((char *)out.end - 3, w, 3), 3); /* no room for '\0' */
    CHECK_BYTES(out.end - 3, 3, "a\xC3\xA9", 3);
    CHECK_EQ(u8x_wcstombs((char *)w - 4, w, 4), 3); /* adjacent */
    CHECK_EQ(u8x_wcstombs((char *)gd, (const wchar_t *)(const void *)(in.end - sizeof(wchar_t)), 0), 0);
  }
}

/* ---- restartable POSIX drop-ins --------------------------------------------- */

#define EXPECT_EINVAL(call)    \
  do {                         \
    errno = 0;                 \
    CHECK_EQ((call), FAIL);    \
    CHECK_EQ(errno, EINVAL);   \
  } while (0)

static void restartable(void) {
  static const u8x_mbstate_t corrupt = {2, {0xE0, 0x80, 0}};
  u8x_mbstate_t st, pending = {0};
  wchar_t wc;
  size_t i;
  COVER(u8x_mbrtowc);
  COVER(u8x_mbrlen);
  COVER(u8x_wcrtomb);
  COVER(u8x_mbsinit);
  COVER(u8x_mbsrtowcs);
  COVER(u8x_wcsrtombs);
  CHECK_EQ(u8x_mbrlen("\xE2", 1, &pending), (size_t)-2);

  check_context("u8x_mbrtowc, u8x_mbrlen, u8x_wcrtomb: refused before reading or writing");
  for (i = 1; i < sizeof(wchar_t); i++) /* misaligned pwc; the bytes in a guard page */
    EXPECT_EINVAL(u8x_mbrtowc((wchar_t *)(void *)(gd + i), (const char *)gs, 4, NULL));
  st = corrupt;
  EXPECT_EINVAL(u8x_mbrtowc((wchar_t *)(void *)gd, (const char *)gs, 4, &st));
  EXPECT_EINVAL(u8x_mbrlen((const char *)gs, 4, &st));
  EXPECT_EINVAL(u8x_wcrtomb((char *)gd, L'a', &st));
  EXPECT_EINVAL(u8x_wcrtomb(NULL, L'a', &st));
  CHECK(memcmp(&st, &corrupt, sizeof st) == 0);
  CHECK_EQ(u8x_mbsinit(&st), 0);
  st = pending; /* encoding from a state holding decode bytes */
  EXPECT_EINVAL(u8x_wcrtomb((char *)gd, L'a', &st));
  errno = 0;
  CHECK_EQ(u8x_wcrtomb((char *)gd, 0xD800, NULL), FAIL); /* nothing written */
  CHECK_EQ(errno, EILSEQ);

  check_context("u8x_mbrtowc, u8x_mbrlen, u8x_wcrtomb: legal edges");
  fill();
  CHECK_EQ(u8x_mbrtowc((wchar_t *)(void *)gd, (const char *)gs, 0, NULL), (size_t)-2); /* n = 0: nothing read */
  CHECK_EQ(u8x_mbrlen((const char *)gs, 0, NULL), (size_t)-2);
  CHECK_EQ(u8x_mbrtowc((wchar_t *)(void *)gd, NULL, 0, NULL), 0); /* NULL s: pwc ignored */
  /* a generous n (MB_CUR_MAX) never reads past the character, or past a
   * byte that ends it */
  CHECK_EQ(u8x_mbrtowc(&wc, (const char *)input_at_end("a", 1), 4, NULL), 1);
  CHECK_EQ(u8x_mbrtowc(&wc, (const char *)input_at_end("\xF0\x9F\x98\x80", 4), SIZE_MAX, NULL), 4);
  CHECK_EQ(wc, 0x1F600);
  errno = 0;
  CHECK_EQ(u8x_mbrtowc(&wc, (const char *)input_at_end("\xE2", 2), 4, NULL), FAIL); /* E2 then the NUL */
  CHECK_EQ(errno, EILSEQ);
  /* ... nor past the byte that rules a character out, the lead given now
   * or pending in the state: the byte after it is in the guard page */
  {
    static const char *const ruled_out[] = {"\xE0\x80", "\xED\xA0", "\xF4\x90", "\xF0\x8F", "\xC2\x41", "\xF1\x80\xC0"};
    for (i = 0; i < COUNT_OF(ruled_out); i++) {
      const size_t len = strlen(ruled_out[i]);
      errno = 0;
      CHECK_EQ(u8x_mbrtowc(&wc, (const char *)input_at_end(ruled_out[i], len), 4, NULL), FAIL);
      CHECK_EQ(errno, EILSEQ);
      errno = 0;
      CHECK_EQ(u8x_mbrlen((const char *)input_at_end(ruled_out[i], len), SIZE_MAX, NULL), FAIL);
      CHECK_EQ(errno, EILSEQ);
      memset(&st, 0, sizeof st);
      CHECK_EQ(u8x_mbrtowc(&wc, ruled_out[i], 1, &st), (size_t)-2);
      errno = 0;
      CHECK_EQ(u8x_mbrtowc(&wc, (const char *)input_at_end(ruled_out[i] + 1, len - 1), 4, &st), FAIL);
      CHECK_EQ(errno, EILSEQ);
      CHECK(u8x_mbsinit(&st));
    }
  }
  st = pending;
  CHECK_EQ(u8x_mbrtowc((wchar_t *)(void *)(out.end - sizeof(wchar_t)), (const char *)input_at_end("\x82\xAC", 2), 2, &st), 2);
  CHECK_EQ(*(const wchar_t *)(const void *)(out.end - sizeof(wchar_t)), 0x20AC);
  st = pending;
  CHECK_EQ(u8x_mbrlen((const char *)input_at_end("\x82\xAC", 2), 2, &st), 2);
  CHECK_EQ(u8x_wcrtomb((char *)out.end - 4, 0x10FFFF, NULL), 4);
  CHECK_BYTES(out.end - 4, 4, "\xF4\x8F\xBF\xBF", 4);
  CHECK_EQ(u8x_wcrtomb((char *)out.end - 1, L'a', &st), 1);
  st = pending;
  CHECK_EQ(u8x_wcrtomb(NULL, L'a', &st), 1); /* resets */
  CHECK(u8x_mbsinit(&st));
  CHECK(u8x_mbsinit(NULL));
  memset(out.end - sizeof st, 0, sizeof st); /* a state at the very end */
  CHECK(u8x_mbsinit((const u8x_mbstate_t *)(const void *)(out.end - sizeof st)));
  CHECK_EQ(u8x_mbrlen("\xC3", 1, (u8x_mbstate_t *)(void *)(out.end - sizeof st)), (size_t)-2);
  CHECK(!u8x_mbsinit((const u8x_mbstate_t *)(const void *)(out.end - sizeof st)));

  check_context("u8x_mbsrtowcs: refused");
  {
    const char *text = (const char *)input_at_end("abc", 4); /* the NUL against the guard page */
    const char *p = text, *none = NULL;
    EXPECT_EINVAL(u8x_mbsrtowcs((wchar_t *)(void *)gd, NULL, 8, NULL));
    EXPECT_EINVAL(u8x_mbsrtowcs((wchar_t *)(void *)gd, &none, 8, NULL));
    EXPECT_EINVAL(u8x_mbsrtowcs(NULL, &none, 0, NULL));
    EXPECT_EINVAL(u8x_mbsrtowcs(NULL, (const char **)(void *)(gs + 1), 0, NULL)); /* misaligned src */
    for (i = 1; i < sizeof(wchar_t); i++) EXPECT_EINVAL(u8x_mbsrtowcs((wchar_t *)(void *)(gd + i), &p, 8, NULL));
    st = corrupt;
    EXPECT_EINVAL(u8x_mbsrtowcs((wchar_t *)(void *)gd, &p, 8, &st));
    EXPECT_EINVAL(u8x_mbsrtowcs(NULL, &p, 0, &st));
    fill();
    p = (const char *)input_at_end("abc", 4);
    EXPECT_EINVAL(u8x_mbsrtowcs((wchar_t *)(void *)(in.end - 8), &p, 4, NULL)); /* overlaps the string */
    UNTOUCHED(4);
    CHECK(p == (const char *)in.end - 4);

    check_context("u8x_mbsrtowcs: legal edges");
    CHECK_EQ(u8x_mbsrtowcs((wchar_t *)(void *)gd, &p, 0, NULL), 0); /* no room: nothing written */
    CHECK_EQ(u8x_mbsrtowcs(NULL, &p, 0, NULL), 3);
    CHECK(p == (const char *)in.end - 4);
    CHECK_EQ(u8x_mbsrtowcs((wchar_t *)(void *)(out.end - 3 * sizeof(wchar_t)), &p, 3, NULL), 3); /* no room for L'\0' */
    CHECK(p == (const char *)in.end - 1);
    p = (const char *)in.end - 4;
    CHECK_EQ(u8x_mbsrtowcs((wchar_t *)(void *)(out.end - 4 * sizeof(wchar_t)), &p, SIZE_MAX / 8, NULL), 3);
    CHECK(p == NULL);
    p = (const char *)in.end - 1; /* "" at the very end */
    CHECK_EQ(u8x_mbsrtowcs((wchar_t *)(void *)(out.end - sizeof(wchar_t)), &p, 1, NULL), 0);
    CHECK(p == NULL);
    st = pending; /* the character the state began, finished at the very end */
    p = (const char *)input_at_end("\x82\xAC", 3);
    CHECK_EQ(u8x_mbsrtowcs((wchar_t *)(void *)(out.end - 2 * sizeof(wchar_t)), &p, 2, &st), 1);
    CHECK(p == NULL && u8x_mbsinit(&st));
  }

  check_context("u8x_wcsrtombs: refused");
  {
    static const wchar_t wide[] = {L'a', 0xE9, 0};
    const wchar_t *w = (const wchar_t *)(const void *)input_at_end(wide, sizeof wide), *p = w, *none = NULL;
    EXPECT_EINVAL(u8x_wcsrtombs((char *)gd, NULL, 8, NULL));
    EXPECT_EINVAL(u8x_wcsrtombs((char *)gd, &none, 8, NULL));
    for (i = 1; i < sizeof(wchar_t); i++) {
      const wchar_t *mis = (const wchar_t *)(const void *)(gs + i); /* misaligned, in a guard page */
      EXPECT_EINVAL(u8x_wcsrtombs((char *)gd, &mis, 8, NULL));
      EXPECT_EINVAL(u8x_wcsrtombs(NULL, &mis, 0, NULL));
    }
    EXPECT_EINVAL(u8x_wcsrtombs(NULL, (const wchar_t **)(void *)(gs + 1), 0, NULL)); /* misaligned src */
    st = corrupt;
    EXPECT_EINVAL(u8x_wcsrtombs((char *)gd, &p, 8, &st));
    st = pending;
    EXPECT_EINVAL(u8x_wcsrtombs((char *)gd, &p, 8, &st));
    EXPECT_EINVAL(u8x_wcsrtombs(NULL, &p, 0, &st));
    fill();
    w = p = (const wchar_t *)(const void *)input_at_end(wide, sizeof wide);
    EXPECT_EINVAL(u8x_wcsrtombs((char *)w - 2, &p, 8, NULL)); /* overlaps the string */
    UNTOUCHED(sizeof wide);
    CHECK(p == w);

    check_context("u8x_wcsrtombs: legal edges");
    CHECK_EQ(u8x_wcsrtombs((char *)gd, &p, 0, NULL), 0);
    CHECK_EQ(u8x_wcsrtombs(NULL, &p, 0, NULL), 3);
    CHECK_EQ(u8x_wcsrtombs((char *)out.end - 3, &p, 3, NULL), 3); /* no room for '\0' */
    CHECK_BYTES(out.end - 3, 3, "a\xC3\xA9", 3);
    CHECK(p == w + 2);
    p = w;
    CHECK_EQ(u8x_wcsrtombs((char *)out.end - 4, &p, 4, NULL), 3);
    CHECK(p == NULL);
    p = (const wchar_t *)(const void *)(in.end - sizeof(wchar_t)); /* L"" at the very end */
    CHECK_EQ(u8x_wcsrtombs((char *)out.end - 1, &p, 1, NULL), 0);
    CHECK(p == NULL);
  }
  check_context("%s", "");
}

/* ---- Latin-1, UTF-16 and UCS-4 to one another; checks and repairs -------- */

static void matrix(void) {
  size_t i;
  const uint32_t *gs32 = (const uint32_t *)(const void *)gs;
  const uint16_t *gs16 = (const uint16_t *)(const void *)gs;
  uint16_t *gd16 = (uint16_t *)(void *)gd;
  uint32_t *gd32 = (uint32_t *)(void *)gd;
  const uint16_t *odd16 = (const uint16_t *)(const void *)(gs + 1);
  const uint32_t *odd32 = (const uint32_t *)(const void *)(gs + 2);
  u8x_classification info;
  u8x_detection found;
  static const uint32_t not_ucs4_flags[] = {U8X_UCS4_LITTLE_ENDIAN | U8X_UCS4_BIG_ENDIAN, U8X_LITTLE_ENDIAN, U8X_SKIP_BOM, 64, 0xFFFFFFFFu};
  static const uint32_t not_latin1_policies[] = {U8X_ESCAPE, U8X_LATIN1, U8X_CP1252, 6, 0x200, 0xFFFFFFFFu};
  COVER(u8x_convert_latin1_to_utf16);
  COVER(u8x_convert_latin1_to_ucs4);
  COVER(u8x_convert_utf16_to_latin1);
  COVER(u8x_convert_ucs4_to_latin1);
  COVER(u8x_convert_utf16_to_ucs4);
  COVER(u8x_convert_ucs4_to_utf16);
  COVER(u8x_validate_ucs4);
  COVER(u8x_validate_ascii);
  COVER(u8x_validate_ascii_utf16);
  COVER(u8x_classify_utf16);
  COVER(u8x_to_well_formed_utf16);
  COVER(u8x_swap_utf16);
  COVER(u8x_ucs4_len_utf16_valid);
  COVER(u8x_utf16_len_ucs4_valid);
  COVER(u8x_detect_encoding);

  check_context("matrix: refused, nothing read or written");
  /* NULL with a length, input or output */
  BAD(u8x_convert_latin1_to_utf16(NULL, 1, gd16, 8, 0));
  BAD(u8x_convert_latin1_to_ucs4(NULL, 1, gd32, 8, 0));
  BAD(u8x_convert_utf16_to_latin1(NULL, 1, gd, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_latin1(NULL, 1, gd, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_utf16_to_ucs4(NULL, 1, gd32, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_utf16(NULL, 1, gd16, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_latin1_to_utf16(gs, 4, NULL, 8, 0));
  BAD(u8x_convert_utf16_to_ucs4(gs16, 4, NULL, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_utf16(gs32, 4, NULL, 1, U8X_STRICT, 0, 0));
  BAD(u8x_validate_ucs4(NULL, 1, 0));
  BAD(u8x_validate_ascii(NULL, 1));
  BAD(u8x_validate_ascii_utf16(NULL, 1, 0));
  BAD(u8x_classify_utf16(NULL, 1, 0, &info));
  BAD(u8x_to_well_formed_utf16(NULL, 1, gd16, 8, U8X_REPLACEMENT_CHARACTER, 0));
  BAD(u8x_to_well_formed_utf16(gs16, 4, NULL, 8, U8X_REPLACEMENT_CHARACTER, 0));
  BAD(u8x_swap_utf16(NULL, 1, gd16, 8));
  CHECK_EQ(u8x_ucs4_len_utf16_valid(NULL, 1, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_utf16_len_ucs4_valid(NULL, 1, 0), U8X_BAD_SIZE);
  BAD(u8x_detect_encoding(NULL, 1, &found));
  /* misaligned units, even when empty; misaligned info */
  BAD(u8x_convert_utf16_to_ucs4(odd16, 2, gd32, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_utf16_to_latin1(odd16, 0, gd, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_utf16(odd32, 2, gd16, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_latin1(odd32, 0, gd, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_latin1_to_utf16(gs, 4, (uint16_t *)(void *)(gd - 3), 8, 0));
  BAD(u8x_convert_latin1_to_ucs4(gs, 4, (uint32_t *)(void *)(gd - 6), 8, 0));
  BAD(u8x_convert_utf16_to_ucs4(gs16, 4, (uint32_t *)(void *)(gd - 6), 8, U8X_STRICT, 0, 0));
  BAD(u8x_validate_ucs4(odd32, 1, 0));
  BAD(u8x_validate_ascii_utf16(odd16, 1, 0));
  BAD(u8x_classify_utf16(gs16, 2, 0, (u8x_classification *)(void *)(gd + 1)));
  BAD(u8x_classify_utf16(gs16, 2, 0, NULL));
  BAD(u8x_to_well_formed_utf16(odd16, 2, gd16, 8, U8X_REPLACEMENT_CHARACTER, 0));
  BAD(u8x_swap_utf16(odd16, 2, gd16, 8));
  CHECK_EQ(u8x_ucs4_len_utf16_valid(odd16, 2, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_utf16_len_ucs4_valid(odd32, 2, 0), U8X_BAD_SIZE);
  BAD(u8x_detect_encoding(gs, 4, NULL));
  BAD(u8x_detect_encoding(gs, 4, (u8x_detection *)(void *)(gd + 2)));
  /* lengths no buffer can have */
  BAD(u8x_convert_latin1_to_utf16(gs, HUGE_LEN, gd16, 8, 0));
  BAD(u8x_convert_utf16_to_ucs4(gs16, HUGE_LEN / 2, gd32, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_utf16(gs32, HUGE_LEN / 4, gd16, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_utf16(gs32, 1, gd16, SIZE_MAX, U8X_STRICT, 0, 0));
  BAD(u8x_validate_ucs4(gs32, HUGE_LEN / 4, 0));
  BAD(u8x_validate_ascii(gs, SIZE_MAX));
  BAD(u8x_detect_encoding((const uint8_t *)TOP_ADDRESS, 16, &found));
  BAD(u8x_swap_utf16((const uint16_t *)TOP_ADDRESS, 8, gd16, 8));
  CHECK_EQ(u8x_utf16_len_ucs4_valid((const uint32_t *)TOP_ADDRESS, 8, 0), U8X_BAD_SIZE);
  /* flags, policies, replacements */
  for (i = 0; i < COUNT_OF(not_utf16_flags); i++) {
    BAD(u8x_convert_latin1_to_utf16(gs, 4, gd16, 8, not_utf16_flags[i]));
    BAD(u8x_convert_utf16_to_latin1(gs16, 4, gd, 8, U8X_STRICT, 0, not_utf16_flags[i]));
    BAD(u8x_validate_ascii_utf16(gs16, 4, not_utf16_flags[i]));
    BAD(u8x_classify_utf16(gs16, 4, not_utf16_flags[i], &info));
    BAD(u8x_to_well_formed_utf16(gs16, 4, gd16, 8, U8X_REPLACEMENT_CHARACTER, not_utf16_flags[i]));
    CHECK_EQ(u8x_ucs4_len_utf16_valid(gs16, 4, not_utf16_flags[i]), U8X_BAD_SIZE);
  }
  for (i = 0; i < COUNT_OF(not_ucs4_flags); i++) {
    BAD(u8x_convert_latin1_to_ucs4(gs, 4, gd32, 8, not_ucs4_flags[i]));
    BAD(u8x_convert_ucs4_to_latin1(gs32, 4, gd, 8, U8X_STRICT, 0, not_ucs4_flags[i]));
    BAD(u8x_validate_ucs4(gs32, 4, not_ucs4_flags[i]));
    CHECK_EQ(u8x_utf16_len_ucs4_valid(gs32, 4, not_ucs4_flags[i]), U8X_BAD_SIZE);
  }
  BAD(u8x_convert_latin1_to_utf16(gs, 4, gd16, 8, U8X_MORE_INPUT));
  BAD(u8x_convert_utf16_to_ucs4(gs16, 4, gd32, 8, U8X_STRICT, 0, U8X_SKIP_BOM));
  BAD(u8x_convert_ucs4_to_utf16(gs32, 4, gd16, 8, U8X_STRICT, 0, 64));
  for (i = 0; i < COUNT_OF(not_policies); i++) {
    BAD(u8x_convert_utf16_to_ucs4(gs16, 4, gd32, 8, not_policies[i], U8X_REPLACEMENT_CHARACTER, 0));
    BAD(u8x_convert_ucs4_to_utf16(gs32, 4, gd16, 8, not_policies[i], U8X_REPLACEMENT_CHARACTER, 0));
  }
  for (i = 0; i < COUNT_OF(not_latin1_policies); i++) {
    BAD(u8x_convert_utf16_to_latin1(gs16, 4, gd, 8, not_latin1_policies[i], '?', 0));
    BAD(u8x_convert_ucs4_to_latin1(gs32, 4, gd, 8, not_latin1_policies[i], '?', 0));
  }
  for (i = 0; i < COUNT_OF(not_scalars); i++) {
    BAD(u8x_convert_utf16_to_ucs4(gs16, 4, gd32, 8, U8X_REPLACE, not_scalars[i], 0));
    BAD(u8x_convert_ucs4_to_utf16(gs32, 4, gd16, 8, U8X_REPLACE, not_scalars[i], 0));
    BAD(u8x_to_well_formed_utf16(gs16, 4, gd16, 8, not_scalars[i], 0));
  }
  BAD(u8x_to_well_formed_utf16(gs16, 4, gd16, 8, 0x10000, 0)); /* a pair would change the length */
  BAD(u8x_convert_utf16_to_latin1(gs16, 4, gd, 8, U8X_REPLACE, 0x100, 0));
  BAD(u8x_convert_ucs4_to_latin1(gs32, 4, gd, 8, U8X_REPLACE, 0xFFFFFFFFu, 0));
  /* overlap, and in place with too small a capacity */
  BAD(u8x_convert_latin1_to_utf16(gs, 8, (uint16_t *)(void *)(gs + 4), 8, 0));
  BAD(u8x_convert_utf16_to_ucs4(gs16, 4, (uint32_t *)(void *)gs, 8, U8X_STRICT, 0, 0));
  BAD(u8x_convert_ucs4_to_utf16(gs32, 4, (uint16_t *)(void *)(gs + 8), 8, U8X_STRICT, 0, 0));
  BAD(u8x_to_well_formed_utf16(gs16, 4, (uint16_t *)(void *)(gs + 2), 8, U8X_REPLACEMENT_CHARACTER, 0));
  BAD(u8x_to_well_formed_utf16(gs16, 4, (uint16_t *)(void *)gs, 3, U8X_REPLACEMENT_CHARACTER, 0));
  BAD(u8x_swap_utf16(gs16, 4, (uint16_t *)(void *)(gs + 2), 8));
  BAD(u8x_swap_utf16(gs16, 4, (uint16_t *)(void *)gs, 3));

  check_context("matrix: legal edges");
  CHECK_RESULT(u8x_convert_latin1_to_utf16(NULL, 0, NULL, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_convert_utf16_to_ucs4(gs16, 0, gd32, 8, U8X_STRICT, 0, U8X_UCS4_BIG_ENDIAN), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_convert_ucs4_to_utf16(NULL, 0, gd16, 8, U8X_ESCAPE, 0, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate_ucs4(NULL, 0, U8X_UCS4_LITTLE_ENDIAN), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate_ascii(gs, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_to_well_formed_utf16(gs16, 0, (uint16_t *)(void *)gs, 0, U8X_REPLACEMENT_CHARACTER, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_swap_utf16(NULL, 0, NULL, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_swap_utf16(gs16, 5, NULL, 0), U8X_OK, U8X_ERR_NONE, 5, 5, 0); /* measures, reads nothing */
  CHECK_RESULT(u8x_detect_encoding(NULL, 0, &found), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(found.valid, 31);
  CHECK_EQ(found.likely, U8X_ENCODING_UTF8);
  fill();
  {
    /* inputs and outputs flush against the guard pages */
    const uint16_t *s16 = (const uint16_t *)(const void *)input_at_end(units, sizeof units);
    CHECK_RESULT(u8x_convert_utf16_to_ucs4(s16, 3, gd32, 0, U8X_STRICT, 0, 0), U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
    CHECK_RESULT(u8x_convert_utf16_to_ucs4(s16, 3, (uint32_t *)(void *)(out.end - 12), 3, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 3, 0);
    CHECK_BYTES(out.end - 12, 12, cps, 12);
    CHECK_RESULT(u8x_convert_utf16_to_latin1(s16, 3, NULL, 0, U8X_REPLACE, '?', 0), U8X_OK, U8X_ERR_NONE, 3, 3, 0);
    CHECK_RESULT(u8x_convert_utf16_to_latin1(s16, 3, out.end - 3, 3, U8X_STRICT, 0, 0), U8X_ILL_FORMED, U8X_ERR_NOT_REPRESENTABLE, 2, 2, 1);
    CHECK_RESULT(u8x_swap_utf16(s16, 3, (uint16_t *)(void *)(out.end - 6), 3), U8X_OK, U8X_ERR_NONE, 3, 3, 0);
    CHECK_RESULT(u8x_classify_utf16(s16, 3, 0, &info), U8X_OK, U8X_ERR_NONE, 3, 0, 0);
    CHECK_EQ(info.width, U8X_WIDTH_BMP);
    CHECK_EQ(u8x_ucs4_len_utf16_valid(s16, 3, 0), 3);
  }
  fill();
  {
    const uint32_t *s32 = (const uint32_t *)(const void *)input_at_end(cps, sizeof cps);
    CHECK_RESULT(u8x_convert_ucs4_to_utf16(s32, 3, (uint16_t *)(void *)(out.end - 6), 3, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 3, 3, 0);
    CHECK_BYTES(out.end - 6, 6, units, 6);
    CHECK_RESULT(u8x_validate_ucs4(s32, 3, 0), U8X_OK, U8X_ERR_NONE, 3, 0, 0);
    CHECK_EQ(u8x_utf16_len_ucs4_valid(s32, 3, 0), 3);
  }
  check_context("%s", "");
}

int main(void) {
  size_t i, covered = 0;
  check_begin("args_guarded");
  in = arena_new();
  out = arena_new();
  gs = in.end;
  gd = out.end;
  validate_count();
  boundaries();
  decoders();
  encoders();
  classify();
  no_pointers();
  posix();
  restartable();
  matrix();
  check_context("coverage");
  for (i = 0; i < COUNT_OF(functions); i++) {
    if (!functions[i].covered) printf("  not covered: %s\n", functions[i].name);
    covered += (size_t)functions[i].covered;
  }
  printf("args_guarded: %u of %u functions covered\n", (unsigned)covered, (unsigned)COUNT_OF(functions));
  CHECK_EQ(covered, COUNT_OF(functions));
  check_context("%s", "");
  return check_done();
}
