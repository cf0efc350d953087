/* u8x_next_boundary / u8x_prev_boundary on valid and damaged text.
 *
 * The property from the header: splitting at a boundary and decoding both
 * halves separately (each as a whole input) gives the output of decoding the
 * whole, under every policy. Checked for every position of every case in
 * expected.h and of pseudo-random damaged buffers, by brute force: the set
 * of positions where splitting preserves every policy's output must be
 * exactly the positions Python's codec calls starts (expected.h), and
 * next/prev must return the nearest member of that set. Long random texts
 * are checked against the segment starts of the reference in ref.h. */
#include <stdlib.h>

#include "check.h"
#include "expected.h"
#include "ref.h"

struct mode {
  const char *name;
  uint32_t policy, replacement;
};

static const struct mode modes[] = {
    {"strict", U8X_STRICT, U8X_REPLACEMENT_CHARACTER}, {"replace", U8X_REPLACE, U8X_REPLACEMENT_CHARACTER},
    {"replace U+1F4A9", U8X_REPLACE, 0x1F4A9},         {"escape", U8X_ESCAPE, 0},
    {"latin1", U8X_LATIN1, 0},                         {"cp1252", U8X_CP1252, 0},
};

#define MAXLEN 400

/* check_light(): under valgrind or an emulator, less brute force (memory
 * errors depend on lengths and positions, which stay, not on repeating
 * a decode whose answer is already known). */
static int light;
#define SAMPLED (light ? ", sampled under valgrind or an emulator" : "")

/* What a decoder that stops at the first error produces: the code points
 * and, if it stopped, where, why and how long the maximal subpart is. */
struct outcome {
  uint32_t cps[MAXLEN];
  size_t n;
  int stopped;
  size_t at, error_len;
  int error;
};

static void decode_whole(const uint8_t *s, size_t len, const struct mode *m, struct outcome *o) {
  /* each half is copied to a heap block of exactly its size, for ASan */
  uint8_t *copy = (uint8_t *)malloc(len ? len : 1);
  u8x_result r;
  memcpy(copy, s, len);
  r = u8x_decode_ucs4(len ? copy : NULL, len, o->cps, MAXLEN, m->policy, m->replacement, 0);
  free(copy);
  o->n = r.written;
  o->stopped = r.status == U8X_ILL_FORMED;
  o->at = r.read;
  o->error = (int)r.error;
  o->error_len = r.error_len;
  CHECK(r.status == U8X_OK || (r.status == U8X_ILL_FORMED && m->policy == U8X_STRICT));
}

/* Does splitting s at q give the output of the whole under policy m? Under
 * U8X_STRICT the "output" is the code points before the first error, and
 * that error's offset and maximal-subpart length; its kind is not compared:
 * the header allows it to change to END_OF_INPUT when the byte that decided
 * it is in the other half (ED | A0 80: SURROGATE whole, END_OF_INPUT cut). */
static int split_preserves(const uint8_t *s, size_t len, size_t q, const struct mode *m) {
  struct outcome whole, left, right;
  size_t n;
  decode_whole(s, len, m, &whole);
  decode_whole(s, q, m, &left);
  if (left.stopped)
    return whole.stopped && whole.at == left.at && whole.error_len == left.error_len && whole.n == left.n &&
           memcmp(whole.cps, left.cps, left.n * sizeof left.cps[0]) == 0;
  decode_whole(s + q, len - q, m, &right);
  n = left.n + right.n;
  if (whole.n != n || whole.stopped != right.stopped) return 0;
  if (right.stopped && (whole.at != q + right.at || whole.error_len != right.error_len)) return 0;
  return memcmp(whole.cps, left.cps, left.n * sizeof left.cps[0]) == 0 &&
         memcmp(whole.cps + left.n, right.cps, right.n * sizeof right.cps[0]) == 0;
}

/* All the checks for one buffer. `expected`, if not NULL, flags the
 * boundaries Python's codec gives (len + 1 flags). */
static void check_buffer(const char *name, const uint8_t *s, size_t len, const unsigned char *expected) {
  unsigned char is_boundary[MAXLEN + 1];
  size_t q, pos, j;
  /* brute force: where does splitting preserve every policy's output? */
  for (q = 0; q <= len; q++) {
    is_boundary[q] = 1;
    for (j = 0; j < COUNT_OF(modes); j++)
      if (!split_preserves(s, len, q, &modes[j])) is_boundary[q] = 0;
    check_context("%s: splitting at %u (%s)", name, (unsigned)q, is_boundary[q] ? "preserves" : "changes");
    if (expected) CHECK_EQ(is_boundary[q], expected[q]);
  }
  CHECK(is_boundary[0] && is_boundary[len]);
  for (pos = 0; pos <= len; pos++) {
    size_t next = pos, prev = pos, got_next, got_prev;
    while (!is_boundary[next]) next++;
    while (!is_boundary[prev]) prev--;
    got_next = u8x_next_boundary(s, len, pos);
    got_prev = u8x_prev_boundary(s, len, pos);
    check_context("%s: pos %u", name, (unsigned)pos);
    CHECK_EQ(got_next, next);
    CHECK_EQ(got_prev, prev);
    /* and the split at the returned positions really does preserve every
     * policy's output (redundant with the above when they agree; says which
     * policy breaks when they do not): when light, only when they do not */
    for (j = 0; j < COUNT_OF(modes) && !(light && got_next == next && got_prev == prev); j++) {
      if (got_next <= len) {
        check_context("%s: pos %u, split at next %u, %s", name, (unsigned)pos, (unsigned)got_next, modes[j].name);
        CHECK(split_preserves(s, len, got_next, &modes[j]));
      }
      if (got_prev <= len) {
        check_context("%s: pos %u, split at prev %u, %s", name, (unsigned)pos, (unsigned)got_prev, modes[j].name);
        CHECK(split_preserves(s, len, got_prev, &modes[j]));
      }
    }
    /* constant time: only bytes within 3 of pos matter (and whether the
     * buffer ends within reach). Scrambling everything else changes nothing. */
    if (len > 0) {
      uint8_t copy[MAXLEN];
      size_t k;
      memcpy(copy, s, len);
      for (k = 0; k < len; k++)
        if (k + 3 < pos || k > pos + 3) copy[k] = (uint8_t)(copy[k] ^ 0x5A);
      check_context("%s: pos %u, far bytes scrambled", name, (unsigned)pos);
      CHECK_EQ(u8x_next_boundary(copy, len, pos), got_next);
      CHECK_EQ(u8x_prev_boundary(copy, len, pos), got_prev);
    }
  }
  check_context("%s", "");
}

static void python_cases(void) {
  size_t i;
  for (i = 0; i < EXP_DECODE_CASES; i++) {
    const exp_decode *c = &exp_decode_cases[i];
    check_buffer(c->name, c->input.bytes, c->input.len, c->boundary);
    printf("%-16s %3u bytes: boundaries match Python's maximal subparts\n", c->name, (unsigned)c->input.len);
  }
}

/* Damaged buffers built from pieces of UTF-8: characters, cut characters,
 * lone continuation bytes, invalid bytes and near misses of Table 3-7. */
static void random_buffers(void) {
  static const char *const pieces[] = {
      "a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF", "\xEE\x80\x80",
      "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\xF0\x9F", "\xE0\xA0", "\x80", "\xBF", "\xC0", "\xC1", "\xF5", "\xFF",
      "\xE0\x9F", "\xED\xA0", "\xF0\x8F", "\xF4\x90", "\xE0\x80\x80", "\xF4\x90\x80\x80", "\xED\xBF\xBF"};
  unsigned t;
  uint32_t state = 2024u;
  for (t = 0; t < 60; t++) {
    uint8_t buf[MAXLEN];
    size_t len = 0;
    char name[32];
    while (len < 40) {
      const char *p = pieces[ref_rand(&state) % COUNT_OF(pieces)];
      size_t n = strlen(p);
      memcpy(buf + len, p, n);
      len += n;
    }
    sprintf(name, "random #%u", t);
    check_buffer(name, buf, len, NULL);
  }
  printf("60 random damaged buffers: every position, every policy%s\n", SAMPLED);
}

/* Long random texts: a few by brute force, many against the reference's
 * segment starts. */
static void long_texts(void) {
  uint32_t state = 777;
  unsigned t;
  for (t = 0; t < 50; t++) {
    uint8_t buf[1100];
    unsigned char *starts;
    size_t n = ref_random_text(buf, t < 4 ? MAXLEN - 8 : 1000, 2 + t % 20, &state), i, pos;
    char name[40];
    sprintf(name, "random long text #%u", t);
    starts = (unsigned char *)calloc(n + 1, 1);
    for (i = 0; i < n; i += ref_next(buf + i, n - i).len) starts[i] = 1;
    starts[n] = 1;
    /* light: 2 by brute force (the others against ref.h) */
    if (t < (light ? 2u : 4u)) {
      check_buffer(name, buf, n, starts);
    } else {
      for (pos = 0; pos <= n; pos++) {
        size_t next = pos, prev = pos;
        while (!starts[next]) next++;
        while (!starts[prev]) prev--;
        check_context("%s: pos %u", name, (unsigned)pos);
        CHECK_EQ(u8x_next_boundary(buf, n, pos), next);
        CHECK_EQ(u8x_prev_boundary(buf, n, pos), prev);
      }
    }
    free(starts);
  }
  check_context("%s", "");
  if (light)
    printf("long texts: 2 by brute force, 48 against ref.h%s\n", SAMPLED);
  else
    printf("long texts: 4 by brute force, 46 against ref.h\n");
}

static void valid_text(void) {
  /* RFC 2044's "A<NOT IDENTICAL TO><ALPHA>." and Han "nihongo", U+10348 */
  static const uint8_t s[] = {0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E, 0xE6, 0x97, 0xA5, 0xE6,
                              0x9C, 0xAC, 0xE8, 0xAA, 0x9E, 0xF0, 0x90, 0x8D, 0x88};
  /* character starts, from the byte layout above */
  static const unsigned char starts[] = {1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1};
  size_t n;
  check_buffer("valid text", s, sizeof s, starts);
  /* cutting to at most n bytes with prev_boundary leaves valid UTF-8 */
  for (n = 0; n <= sizeof s; n++) {
    size_t cut = u8x_prev_boundary(s, sizeof s, n);
    check_context("cut to %u bytes", (unsigned)n);
    CHECK(cut <= n && cut + 3 >= n);
    CHECK_RESULT(u8x_validate(s, cut, 0), U8X_OK, U8X_ERR_NONE, cut, 0, 0);
  }
  check_context("%s", "");
  printf("valid text: boundaries are the character starts\n");
}

static void arguments(void) {
  static const uint8_t s[] = {'a', 0xC3, 0xA9};
  CHECK_EQ(u8x_next_boundary(NULL, 0, 0), 0);
  CHECK_EQ(u8x_prev_boundary(NULL, 0, 0), 0);
  CHECK_EQ(u8x_next_boundary(s, 3, 3), 3);
  CHECK_EQ(u8x_prev_boundary(s, 3, 3), 3);
  CHECK_EQ(u8x_next_boundary(s, 3, 4), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(s, 3, 4), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(s, 3, SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(s, 3, SIZE_MAX), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(NULL, 0, 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_next_boundary(NULL, 3, 0), U8X_BAD_SIZE);
  CHECK_EQ(u8x_prev_boundary(NULL, 3, 0), U8X_BAD_SIZE);
  /* a shorter length hides the rest of the buffer */
  CHECK_EQ(u8x_next_boundary(s, 2, 2), 2);
  CHECK_EQ(u8x_next_boundary(s, 3, 2), 3);
}

int main(void) {
  check_begin("boundary");
  light = check_light();
  arguments();
  valid_text();
  python_cases();
  random_buffers();
  long_texts();
  return check_done();
}
