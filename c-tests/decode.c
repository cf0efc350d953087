/* u8x_decode_ucs4 under every policy (strict, replace with U+FFFD and with a
 * custom scalar, escape, latin1, cp1252), compared with Python's codec
 * (expected.h): whole inputs, U8X_MORE_INPUT chunks of every size and at
 * every split point, U8X_OUTPUT_FULL resumption at every capacity,
 * measuring with dst NULL / cap 0, and every scalar value. Then long random
 * texts (the vector code), compared with the reference in ref.h, which is
 * first checked against Python. */
#include <stdlib.h>

#include "check.h"
#include "expected.h"
#include "ref.h"

/* check_light(): under valgrind or an emulator, the largest enumerations
 * below take a sample (memory errors depend on lengths, positions and
 * capacities, which the samples keep, not on each value enumerated). */
static int light;

/* The six ways of decoding a case: a policy, its replacement and the
 * expected output in exp_decode. */
struct mode {
  const char *name;
  uint32_t policy;
  uint32_t replacement;
  int custom; /* expected output is exp_decode.custom, not out[policy] */
};

static const struct mode modes[] = {
    {"strict", U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0},
    {"replace U+FFFD", U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0},
    {"replace U+1F4A9", U8X_REPLACE, EXP_CUSTOM_REPLACEMENT, 1},
    {"escape", U8X_ESCAPE, U8X_REPLACEMENT_CHARACTER, 0},
    {"latin1", U8X_LATIN1, U8X_REPLACEMENT_CHARACTER, 0},
    {"cp1252", U8X_CP1252, U8X_REPLACEMENT_CHARACTER, 0},
};

/* What decoding an input under one mode must give: the code points and,
 * under U8X_STRICT with an ill-formed sequence, where it stops. */
struct want {
  const char *name;
  const uint8_t *bytes;
  size_t len;
  const uint32_t *cps;
  size_t n_cps;
  int stops;
  size_t stop_at, stop_len;
  u8x_error stop_kind;
};

/* From Python's answers. */
static struct want from_python(const exp_decode *c, const struct mode *m) {
  struct want w;
  exp_u32s out = m->custom ? c->custom : c->out[m->policy];
  w.name = c->name;
  w.bytes = c->input.bytes;
  w.len = c->input.len;
  w.cps = out.cps;
  w.n_cps = out.len;
  w.stops = m->policy == U8X_STRICT && c->n_subparts > 0;
  w.stop_at = w.stops ? c->subparts[0].start : 0;
  w.stop_len = w.stops ? c->subparts[0].len : 0;
  w.stop_kind = w.stops ? c->subparts[0].kind : U8X_ERR_NONE;
  return w;
}

/* From the reference decoder; cps must have room for len code points. */
static struct want from_reference(const char *name, const uint8_t *bytes, size_t len, const struct mode *m,
                                  uint32_t *cps) {
  struct want w;
  u8x_result r = ref_decode(bytes, len, m->policy, m->replacement, 0, cps);
  w.name = name;
  w.bytes = bytes;
  w.len = len;
  w.cps = cps;
  w.n_cps = r.written;
  w.stops = r.status == U8X_ILL_FORMED;
  w.stop_at = w.stops ? r.read : 0;
  w.stop_len = r.error_len;
  w.stop_kind = r.error;
  return w;
}

/* The result of decoding the whole input in one call with enough room. */
static void check_whole_result(u8x_result r, const struct want *w, size_t written) {
  if (w->stops)
    CHECK_RESULT(r, U8X_ILL_FORMED, w->stop_kind, w->stop_at, written, w->stop_len);
  else
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, w->len, written, 0);
}

/* One call with room to spare, with exactly the room needed, and measuring
 * with dst NULL and cap 0. */
static void whole(const struct want *w, const struct mode *m) {
  size_t cap = w->n_cps + 8, i;
  uint32_t *dst = (uint32_t *)malloc((cap + 1) * sizeof *dst);
  u8x_result r;
  check_context("%s, %s, whole", w->name, m->name);
  for (i = 0; i <= cap; i++) dst[i] = 0xA5A5A5A5u;
  r = u8x_decode_ucs4(w->bytes, w->len, dst, cap, m->policy, m->replacement, 0);
  check_whole_result(r, w, w->n_cps);
  CHECK_U32S(dst, r.written, w->cps, w->n_cps);
  CHECK_EQ(dst[cap], 0xA5A5A5A5u);

  /* exactly the room needed, not one unit more */
  for (i = 0; i <= cap; i++) dst[i] = 0xA5A5A5A5u;
  r = u8x_decode_ucs4(w->bytes, w->len, dst, w->n_cps, m->policy, m->replacement, 0);
  check_whole_result(r, w, w->n_cps);
  CHECK_U32S(dst, r.written, w->cps, w->n_cps);
  CHECK_EQ(dst[w->n_cps], 0xA5A5A5A5u);

  /* the bound always suffices */
  CHECK(u8x_decode_ucs4_bound(w->len) >= w->n_cps);

  /* measuring: same result, nothing written */
  r = u8x_decode_ucs4(w->bytes, w->len, NULL, 0, m->policy, m->replacement, 0);
  check_whole_result(r, w, w->n_cps);

  /* a real buffer of capacity 0 is not a measurement: nothing fits */
  dst[0] = 0xA5A5A5A5u;
  r = u8x_decode_ucs4(w->bytes, w->len, dst, 0, m->policy, m->replacement, 0);
  if (w->len == 0)
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  else if (w->stops && w->stop_at == 0)
    CHECK_RESULT(r, U8X_ILL_FORMED, w->stop_kind, 0, 0, w->stop_len);
  else
    CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(dst[0], 0xA5A5A5A5u);
  check_context("%s", "");
  free(dst);
}

/* Decodes the case as a stream: input arrives `chunk` bytes at a time (with
 * U8X_MORE_INPUT until the last), each call gets an output buffer of `cap`
 * units. Each call sees a heap copy of exactly the bytes it is given, so a
 * read past them is caught by ASan. Checks every call's result and the
 * concatenated output. */
static void stream(const struct want *w, const struct mode *m, size_t chunk, size_t cap) {
  size_t len = w->len, pos = 0, end = 0, got_len = 0, calls = 0;
  uint32_t *got = (uint32_t *)malloc((w->n_cps + 1) * sizeof *got);
  uint32_t *dst = (uint32_t *)malloc((cap + 1) * sizeof *dst);
  int need_input = 1, stopped = 0;
  u8x_result last;
  memset(&last, 0, sizeof last);
  check_context("%s, %s, chunks of %u, cap %u", w->name, m->name, (unsigned)chunk, (unsigned)cap);
  for (;;) {
    int more;
    uint8_t *window;
    u8x_result r;
    size_t i;
    if (need_input && end < len) end = end + chunk < len ? end + chunk : len;
    more = end < len;
    if (++calls > 4 * len + 16) {
      CHECK(!"the stream makes no progress");
      break;
    }
    window = (uint8_t *)malloc(end - pos + 1);
    memcpy(window, w->bytes + pos, end - pos);
    for (i = 0; i <= cap; i++) dst[i] = 0xA5A5A5A5u;
    r = u8x_decode_ucs4(end > pos ? window : NULL, end - pos, dst, cap, m->policy, m->replacement,
                        more ? U8X_MORE_INPUT : 0);
    free(window);
    last = r;
    CHECK_EQ(dst[cap], 0xA5A5A5A5u); /* never past the capacity */
    if (!CHECK(r.written <= cap && r.read <= end - pos)) break;
    if (got_len + r.written > w->n_cps) {
      CHECK(!"more output than expected");
      break;
    }
    memcpy(got + got_len, dst, r.written * sizeof *dst);
    got_len += r.written;
    pos += r.read;
    if (r.status == U8X_OK) {
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(pos, end);
      if (!more) break;
      need_input = 1;
    } else if (r.status == U8X_INCOMPLETE) {
      CHECK(more);
      CHECK_EQ(r.error, U8X_ERR_END_OF_INPUT);
      CHECK(r.error_len >= 1 && r.error_len <= 3);
      CHECK_EQ(pos + r.error_len, end);
      need_input = 1;
    } else if (r.status == U8X_OUTPUT_FULL) {
      /* every unit is one code point, so "full" means full */
      CHECK_EQ(r.written, cap);
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(r.error_len, 0);
      need_input = 0;
    } else {
      stopped = 1;
      break;
    }
  }
  if (w->stops) {
    CHECK(stopped);
    CHECK_EQ(last.status, U8X_ILL_FORMED);
    CHECK_EQ(last.error, w->stop_kind);
    CHECK_EQ(pos, w->stop_at);
    CHECK_EQ(last.error_len, w->stop_len);
  } else {
    CHECK(!stopped);
    CHECK_EQ(pos, len);
  }
  CHECK_U32S(got, got_len, w->cps, w->n_cps);
  check_context("%s", "");
  free(got);
  free(dst);
}

/* Two chunks, split at `at`: the first with U8X_MORE_INPUT. */
static void split(const struct want *w, const struct mode *m, size_t at) {
  size_t n = w->len, cap = n + 1, carry;
  uint32_t *dst = (uint32_t *)malloc(2 * cap * sizeof *dst);
  u8x_result a, b;
  check_context("%s, %s, split at %u", w->name, m->name, (unsigned)at);
  a = u8x_decode_ucs4(w->bytes, at, dst, cap, m->policy, m->replacement, U8X_MORE_INPUT);
  if (a.status == U8X_ILL_FORMED) {
    CHECK(w->stops);
    CHECK_EQ(a.read, w->stop_at);
    CHECK_EQ(a.error, w->stop_kind);
    CHECK_EQ(a.error_len, w->stop_len);
    CHECK_U32S(dst, a.written, w->cps, w->n_cps);
  } else {
    CHECK(a.status == U8X_OK || a.status == U8X_INCOMPLETE);
    carry = at - a.read;
    CHECK_EQ(carry, a.error_len);
    b = u8x_decode_ucs4(w->bytes + a.read, n - a.read, dst + a.written, cap, m->policy, m->replacement, 0);
    if (w->stops) {
      CHECK_EQ(b.status, U8X_ILL_FORMED);
      CHECK_EQ(a.read + b.read, w->stop_at);
      CHECK_EQ(b.error, w->stop_kind);
      CHECK_EQ(b.error_len, w->stop_len);
    } else {
      CHECK_RESULT(b, U8X_OK, U8X_ERR_NONE, n - a.read, w->n_cps - a.written, 0);
    }
    CHECK_U32S(dst, a.written + b.written, w->cps, w->n_cps);
  }
  check_context("%s", "");
  free(dst);
}

static void cases(void) {
  size_t i, j, k, q;
  unsigned long streams = 0;
  for (i = 0; i < EXP_DECODE_CASES; i++) {
    const exp_decode *c = &exp_decode_cases[i];
    for (j = 0; j < COUNT_OF(modes); j++) {
      const struct mode *m = &modes[j];
      struct want w = from_python(c, m);
      whole(&w, m);
      /* (light: capacities, chunk sizes and split points near both ends
       * and every 7th between; of chunks 1..5 x capacities 1..3, chunk 1
       * at each capacity and each other chunk at one) */
      /* output full at every capacity, one input chunk */
      for (k = 1; k <= w.n_cps + 1; k = check_next(k, w.n_cps + 1, 7), streams++) stream(&w, m, w.len + 1, k);
      /* input in chunks of every size, room to spare */
      for (k = 1; k <= w.len; k = check_next(k, w.len, 7), streams++) stream(&w, m, k, w.len + 1);
      /* both at once */
      for (k = 1; k <= 5; k++)
        for (q = 1; q <= 3; q++)
          if (!light || k == 1 || q == 1 + k % 3) {
            stream(&w, m, k, q);
            streams++;
          }
      for (k = 0; k <= w.len; k = check_next(k, w.len, 7)) split(&w, m, k);
    }
    printf("%-16s %3u bytes: every policy, capacity, chunk size and split point\n", c->name,
           (unsigned)c->input.len);
  }
  printf("streams decoded: %lu%s\n", streams, CHECK_SAMPLED);
}

/* The reference must agree with Python before it is used as an oracle. */
static void reference_matches_python(void) {
  size_t i, j;
  for (i = 0; i < EXP_DECODE_CASES; i++) {
    const exp_decode *c = &exp_decode_cases[i];
    uint32_t *cps = (uint32_t *)malloc((c->input.len + 1) * sizeof *cps);
    for (j = 0; j < COUNT_OF(modes); j++) {
      struct want py = from_python(c, &modes[j]);
      struct want ref = from_reference(c->name, c->input.bytes, c->input.len, &modes[j], cps);
      check_context("ref.h vs Python: %s, %s", c->name, modes[j].name);
      CHECK_U32S(ref.cps, ref.n_cps, py.cps, py.n_cps);
      CHECK(ref.stops == py.stops && ref.stop_at == py.stop_at && ref.stop_len == py.stop_len &&
            ref.stop_kind == py.stop_kind);
    }
    free(cps);
  }
  check_context("%s", "");
  printf("ref.h agrees with Python on every case and policy\n");
}

/* Long random texts: the vector code and its hand-over to the scalar code
 * around each error, against the reference. */
static void long_texts(void) {
  static const size_t caps[] = {1, 7, 16, 63, 64, 65, 257};
  static const size_t chunks[] = {1, 5, 63, 64, 65, 200};
  uint32_t state = 99;
  unsigned t;
  unsigned long streams = 0;
  for (t = 0; t < 40; t++) {
    uint8_t tmp[800];
    size_t n = ref_random_text(tmp, 64 + ref_rand(&state) % 700, t % 4 == 0 ? 0 : 3 + t % 50, &state), j, k;
    uint8_t *s = (uint8_t *)malloc(n + 1);
    uint32_t *cps = (uint32_t *)malloc((n + 1) * sizeof *cps);
    char name[32];
    memcpy(s, tmp, n);
    sprintf(name, "random text #%u", t);
    for (j = 0; j < COUNT_OF(modes); j++) {
      struct want w = from_reference(name, s, n, &modes[j], cps);
      /* light: the streams of more than n / 64 calls (each call costs
       * O(n) here) only on the first 12 texts, which have every t % 4
       * (cap 1, chunk 1, undamaged); a quarter of the split points */
      int all = !(light && t >= 12);
      whole(&w, &modes[j]);
      /* (capacity or chunk 1 costs n calls: only on every fourth text) */
      for (k = t % 4 == 0 ? 0 : 1; k < COUNT_OF(caps); k++) {
        if (caps[k] < 64 && !all) continue;
        stream(&w, &modes[j], n + 1, caps[k]);
        streams++;
      }
      for (k = t % 4 == 1 ? 0 : 1; k < COUNT_OF(chunks); k++) {
        if (chunks[k] < 63 && !all) continue;
        stream(&w, &modes[j], chunks[k], n + 1);
        streams++;
      }
      if (all) stream(&w, &modes[j], 64, 17);
      for (k = 0; k <= n; k += (1 + k % 13) * (light ? 4 : 1)) split(&w, &modes[j], k);
    }
    free(s);
    free(cps);
  }
  printf("long texts: 40 random texts, every policy, %lu streams%s\n", streams, CHECK_SAMPLED);
}

/* A few texts of 300 KB with rare damage, whole: validate, count and
 * decode under every policy against the reference. */
static void huge_texts(void) {
  size_t size = 300000, t, j;
  uint8_t *s = (uint8_t *)malloc(size);
  uint32_t *want = (uint32_t *)malloc(size * sizeof *want), *got = (uint32_t *)malloc(size * sizeof *got);
  uint32_t state = 2718;
  for (t = 0; t < 4; t++) {
    size_t n = ref_random_text(s, size, t == 0 ? 0 : 3000 * (unsigned)t, &state);
    u8x_result w = ref_validate(s, n, 0);
    check_context("huge text #%u (%u bytes)", (unsigned)t, (unsigned)n);
    CHECK_RESULT(u8x_validate(s, n, 0), w.status, w.error, w.read, 0, w.error_len);
    for (j = 0; j < COUNT_OF(modes); j++) {
      u8x_result r;
      w = ref_decode(s, n, modes[j].policy, modes[j].replacement, 0, want);
      check_context("huge text #%u (%u bytes), %s", (unsigned)t, (unsigned)n, modes[j].name);
      r = u8x_decode_ucs4(s, n, got, size, modes[j].policy, modes[j].replacement, 0);
      CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
      CHECK_U32S(got, r.written, want, w.written);
      if (modes[j].replacement == U8X_REPLACEMENT_CHARACTER)
        CHECK_RESULT(u8x_count(s, n, modes[j].policy, 0), w.status, w.error, w.read, w.written, w.error_len);
    }
  }
  check_context("%s", "");
  free(s);
  free(want);
  free(got);
  printf("huge texts: 4 x 300 KB, every policy\n");
}

/* Every kind of damage at every offset of a long well-formed text. */
static void damage_everywhere(void) {
  uint8_t base[200];
  size_t n = 0, k, j, p;
  uint32_t cp = 0x41;
  unsigned long calls = 0;
  while (n + 4 <= sizeof base) {
    n += ref_put_utf8(base + n, cp);
    cp = cp == 0x41 ? 0xE9 : cp == 0xE9 ? 0x20AC : cp == 0x20AC ? 0x1F600 : 0x41;
  }
  for (j = 0; j < COUNT_OF(ref_bad_pieces); j++) {
    size_t len = strlen(ref_bad_pieces[j]);
    for (k = 0; k + len <= n; k++) {
      uint8_t s[320];
      uint32_t want[320], got[320];
      memcpy(s, base, k);
      memcpy(s + k, ref_bad_pieces[j], len);
      memcpy(s + k + len, base + k, n - k);
      for (p = 0; p < COUNT_OF(modes); p++) {
        const struct mode *m = &modes[p];
        u8x_result wr;
        /* light: every piece at every offset still, under two of the six
         * policies in turn (each policy at every third offset) */
        if (light && p != (j + k) % 6 && p != (j + k + 3) % 6) continue;
        wr = ref_decode(s, n + len, m->policy, m->replacement, 0, want);
        u8x_result gr = u8x_decode_ucs4(s, n + len, got, 320, m->policy, m->replacement, 0);
        check_context("damage %u at %u, %s", (unsigned)j, (unsigned)k, m->name);
        CHECK_RESULT(gr, wr.status, wr.error, wr.read, wr.written, wr.error_len);
        CHECK_U32S(got, gr.written, want, wr.written);
        /* and cut right after the damage, with more input to come */
        wr = ref_decode(s, k + len, m->policy, m->replacement, 1, want);
        gr = u8x_decode_ucs4(s, k + len, got, 320, m->policy, m->replacement, U8X_MORE_INPUT);
        CHECK_RESULT(gr, wr.status, wr.error, wr.read, wr.written, wr.error_len);
        CHECK_U32S(got, gr.written, want, wr.written);
        calls += 2;
      }
    }
  }
  check_context("%s", "");
  printf("damage everywhere: %lu decodes%s\n", calls, CHECK_SAMPLED);
}

/* Replacement values: any scalar, used once per maximal subpart. */
static void replacements(void) {
  static const uint32_t ok[] = {0, '?', 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF};
  size_t i;
  for (i = 0; i < COUNT_OF(ok); i++) {
    uint32_t out[8] = {0};
    uint32_t want[5];
    u8x_result r;
    want[0] = 'a';
    want[1] = ok[i];
    want[2] = ok[i];
    want[3] = 'b';
    want[4] = ok[i];
    check_context("replacement 0x%lX", (unsigned long)ok[i]);
    /* "a" C0 "" E2 82 "b" F0 9F: three maximal subparts */
    r = u8x_decode_ucs4(LIT("a\xC0\xE2\x82" "b\xF0\x9F"), out, 8, U8X_REPLACE, ok[i], 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 7, 5, 0);
    CHECK_U32S(out, r.written, want, 5);
  }
  check_context("%s", "");
}

/* Every scalar value, encoded here, decodes to itself under every policy. */
static void all_scalars(void) {
  size_t n = 0, units = 0, j;
  uint32_t cp;
  uint8_t *text = (uint8_t *)malloc(4 * 0x110000);
  uint32_t *want = (uint32_t *)malloc(0x110000 * sizeof *want);
  uint32_t *out = (uint32_t *)malloc(0x110000 * sizeof *out);
  for (cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp == 0xD800) cp = 0xE000;
    if (!check_scalar_sampled(cp)) continue; /* light: the edges and every 61st */
    n += ref_put_utf8(text + n, cp);
    want[units++] = cp;
  }
  for (j = 0; j < COUNT_OF(modes); j++) {
    u8x_result r = u8x_decode_ucs4(text, n, out, 0x110000, modes[j].policy, modes[j].replacement, 0);
    check_context("all scalars, %s", modes[j].name);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, units, 0);
    CHECK_U32S(out, r.written, want, units);
  }
  check_context("%s", "");
  printf("%s %u scalar values decode to themselves (%u bytes)%s\n", light ? "a sample of" : "all", (unsigned)units,
         (unsigned)n, CHECK_SAMPLED);
  free(text);
  free(want);
  free(out);
}

/* U8X_ESCAPE: any bytes decode and encode back to themselves. */
static void escape_round_trip(void) {
  uint8_t in[64], back[64 * 4];
  uint32_t cps[64];
  unsigned t;
  uint32_t state = 12345u;
  /* light: 800 of them (still every length 0..63) */
  for (t = 0; t < (light ? 800u : 4000u); t++) {
    size_t n = ref_rand(&state) % 64, i;
    u8x_result d, e;
    for (i = 0; i < n; i++) {
      uint32_t x = ref_rand(&state);
      /* mostly high bytes, where the errors are */
      in[i] = (uint8_t)(x % 4 == 0 ? ((x >> 3) & 0x7F) : (0x80 | ((x >> 3) & 0x7F)));
    }
    check_context("escape round trip #%u", t);
    d = u8x_decode_ucs4(n ? in : NULL, n, cps, 64, U8X_ESCAPE, 0, 0);
    CHECK_RESULT(d, U8X_OK, U8X_ERR_NONE, n, d.written, 0);
    e = u8x_encode(d.written ? cps : NULL, d.written, back, sizeof back, U8X_ESCAPE, 0);
    CHECK_RESULT(e, U8X_OK, U8X_ERR_NONE, d.written, n, 0);
    CHECK_BYTES(back, e.written, in, n);
  }
  check_context("%s", "");
  printf("escape: %s random byte strings round-trip%s\n", light ? "800" : "4000", CHECK_SAMPLED);
}

int main(void) {
  check_begin("decode");
  light = check_light();
  CHECK_RESULT(u8x_decode_ucs4(NULL, 0, NULL, 0, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_decode_ucs4(NULL, 0, NULL, 0, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, U8X_MORE_INPUT),
               U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  cases();
  reference_matches_python();
  long_texts();
  huge_texts();
  damage_everywhere();
  replacements();
  all_scalars();
  escape_round_trip();
  return check_done();
}
