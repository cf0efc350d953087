/* Latin-1 both ways: u8x_decode_latin1 under U8X_STRICT (an ill-formed
 * sequence as u8x_decode_ucs4 reports it, a character above U+00FF as
 * U8X_ERR_NOT_REPRESENTABLE with its offset and length) and U8X_REPLACE
 * (one replacement byte per maximal subpart and per character above
 * U+00FF), u8x_encode_latin1, and their bounds. Known answers come from
 * Python's utf-8 and latin-1 codecs (expected.h): whole inputs, measuring,
 * U8X_OUTPUT_FULL at every capacity from 0 (resuming from read gives the
 * one-shot output; a 2-byte character is never cut), U8X_MORE_INPUT at
 * every split point and in chunks of every size. Then every scalar value,
 * every Latin-1 byte, long random texts (the chunked vector path) against
 * the reference in forms.h, which is checked against Python first. */
#include "check.h"
#include "expected.h"
#include "forms.h"

/* check_light(): under valgrind or an emulator, the largest enumerations
 * below take a sample (memory errors depend on lengths, positions and
 * capacities, which the samples keep, not on each value enumerated). */
static int light;

struct mode {
  const char *name;
  uint32_t policy;
  uint32_t replacement;
};

static const struct mode modes[] = {
    {"strict", U8X_STRICT, EXP_QUESTION},
    {"replace '?'", U8X_REPLACE, EXP_QUESTION},
    {"replace 0x1A", U8X_REPLACE, EXP_SUB},
};

/* What decoding an input under one mode must give. */
struct want {
  const char *name;
  const uint8_t *bytes;
  size_t len;
  const uint8_t *out;
  size_t n;
  int stops;
  size_t stop_at, stop_len;
  u8x_error stop_kind;
};

static struct want from_python(const exp_dec1 *c, const struct mode *m) {
  struct want w;
  exp_bytes out = m->policy == U8X_STRICT ? c->strict : m->replacement == EXP_QUESTION ? c->question : c->sub;
  w.name = c->name;
  w.bytes = c->input.bytes;
  w.len = c->input.len;
  w.out = out.bytes;
  w.n = out.len;
  w.stops = m->policy == U8X_STRICT && c->stops;
  w.stop_at = w.stops ? c->stop_at : 0;
  w.stop_len = w.stops ? c->stop_len : 0;
  w.stop_kind = w.stops ? c->stop_kind : U8X_ERR_NONE;
  return w;
}

/* out must hold len bytes. */
static struct want from_reference(const char *name, const uint8_t *bytes, size_t len, const struct mode *m,
                                  uint8_t *out) {
  struct want w;
  u8x_result r = ref_decode_latin1(bytes, len, m->policy, (uint8_t)m->replacement, 0, out);
  w.name = name;
  w.bytes = bytes;
  w.len = len;
  w.out = out;
  w.n = r.written;
  w.stops = r.status == U8X_ILL_FORMED;
  w.stop_at = w.stops ? r.read : 0;
  w.stop_len = r.error_len;
  w.stop_kind = r.error;
  return w;
}

static void check_whole_result(u8x_result r, const struct want *w) {
  if (w->stops)
    CHECK_RESULT(r, U8X_ILL_FORMED, w->stop_kind, w->stop_at, w->n, w->stop_len);
  else
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, w->len, w->n, 0);
}

static void whole(const struct want *w, const struct mode *m) {
  size_t cap = w->n + 8;
  uint8_t *dst = (uint8_t *)malloc(cap + 1);
  u8x_result r;
  check_context("%s, %s, whole", w->name, m->name);
  memset(dst, 0xA5, cap + 1);
  r = u8x_decode_latin1(w->bytes, w->len, dst, cap, m->policy, m->replacement, 0);
  check_whole_result(r, w);
  CHECK_BYTES(dst, r.written, w->out, w->n);
  CHECK_EQ(dst[cap], 0xA5);

  memset(dst, 0xA5, cap + 1);
  r = u8x_decode_latin1(w->bytes, w->len, dst, w->n, m->policy, m->replacement, 0);
  check_whole_result(r, w);
  CHECK_BYTES(dst, r.written, w->out, w->n);
  CHECK_EQ(dst[w->n], 0xA5);

  CHECK(u8x_decode_latin1_bound(w->len) >= w->n);
  check_whole_result(u8x_decode_latin1(w->bytes, w->len, NULL, 0, m->policy, m->replacement, 0), w);

  dst[0] = 0xA5;
  r = u8x_decode_latin1(w->bytes, w->len, dst, 0, m->policy, m->replacement, 0);
  if (w->len == 0)
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  else if (w->stops && w->stop_at == 0)
    CHECK_RESULT(r, U8X_ILL_FORMED, w->stop_kind, 0, 0, w->stop_len);
  else
    CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(dst[0], 0xA5);
  check_context("%s", "");
  free(dst);
}

/* As a stream: `chunk` bytes of input at a time (U8X_MORE_INPUT until the
 * last), `cap` bytes of output per call (0: each call must say it is full,
 * having read and written nothing); each call sees a heap copy of exactly
 * its bytes. */
static void stream(const struct want *w, const struct mode *m, size_t chunk, size_t cap) {
  size_t len = w->len, pos = 0, end = 0, got_len = 0, calls = 0;
  uint8_t *got = (uint8_t *)malloc(w->n + 1);
  uint8_t *dst = (uint8_t *)malloc(cap + 1);
  int need_input = 1, stopped = 0, stuck = 0;
  u8x_result last;
  memset(&last, 0, sizeof last);
  check_context("%s, %s, chunks of %u, cap %u", w->name, m->name, (unsigned)chunk, (unsigned)cap);
  for (;;) {
    int more;
    uint8_t *window;
    u8x_result r;
    if (need_input && end < len) end = end + chunk < len ? end + chunk : len;
    more = end < len;
    if (++calls > 4 * len + 16) {
      CHECK(!"the stream makes no progress");
      break;
    }
    window = (uint8_t *)malloc(end - pos + 1);
    memcpy(window, w->bytes + pos, end - pos);
    memset(dst, 0xA5, cap + 1);
    r = u8x_decode_latin1(end > pos ? window : NULL, end - pos, dst, cap, m->policy, m->replacement,
                          more ? U8X_MORE_INPUT : 0);
    free(window);
    last = r;
    CHECK_EQ(dst[cap], 0xA5);
    if (!CHECK(r.written <= cap && r.read <= end - pos)) break;
    if (got_len + r.written > w->n) {
      CHECK(!"more output than expected");
      break;
    }
    memcpy(got + got_len, dst, r.written);
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
      CHECK_EQ(r.written, cap); /* one byte a character: full means full */
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(r.error_len, 0);
      if (cap == 0) {
        CHECK_EQ(r.read, 0);
        stuck = 1;
        break;
      }
      need_input = 0;
    } else {
      stopped = 1;
      break;
    }
  }
  if (stuck) {
    CHECK(got_len == 0 && w->n > 0);
  } else {
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
    CHECK_BYTES(got, got_len, w->out, w->n);
  }
  check_context("%s", "");
  free(got);
  free(dst);
}

static void split(const struct want *w, const struct mode *m, size_t at) {
  size_t n = w->len, cap = n + 1;
  uint8_t *dst = (uint8_t *)malloc(2 * cap);
  u8x_result a, b;
  check_context("%s, %s, split at %u", w->name, m->name, (unsigned)at);
  a = u8x_decode_latin1(w->bytes, at, dst, cap, m->policy, m->replacement, U8X_MORE_INPUT);
  if (a.status == U8X_ILL_FORMED) {
    CHECK(w->stops);
    CHECK_EQ(a.read, w->stop_at);
    CHECK_EQ(a.error, w->stop_kind);
    CHECK_EQ(a.error_len, w->stop_len);
    CHECK_BYTES(dst, a.written, w->out, w->n);
  } else {
    CHECK(a.status == U8X_OK || a.status == U8X_INCOMPLETE);
    CHECK_EQ(at - a.read, a.error_len);
    b = u8x_decode_latin1(w->bytes + a.read, n - a.read, dst + a.written, cap, m->policy, m->replacement, 0);
    if (w->stops) {
      CHECK_EQ(b.status, U8X_ILL_FORMED);
      CHECK_EQ(a.read + b.read, w->stop_at);
      CHECK_EQ(b.error, w->stop_kind);
      CHECK_EQ(b.error_len, w->stop_len);
    } else {
      CHECK_RESULT(b, U8X_OK, U8X_ERR_NONE, n - a.read, w->n - a.written, 0);
    }
    CHECK_BYTES(dst, a.written + b.written, w->out, w->n);
  }
  check_context("%s", "");
  free(dst);
}

/* Every prefix, flags 0 and U8X_MORE_INPUT, against the reference: with a
 * buffer and measuring. */
static void prefixes(const struct want *w, const struct mode *m) {
  size_t k;
  int more;
  uint8_t *want = (uint8_t *)malloc(w->len + 1), *got = (uint8_t *)malloc(w->len + 1);
  /* light: the prefixes near both ends and every 7th between */
  for (k = 0; k <= w->len; k = check_next(k, w->len, 7)) {
    for (more = 0; more <= 1; more++) {
      u8x_result e = ref_decode_latin1(w->bytes, k, m->policy, (uint8_t)m->replacement, more, want), r;
      check_context("%s, %s, first %u bytes, flags %d", w->name, m->name, (unsigned)k, more);
      r = u8x_decode_latin1(w->bytes, k, got, w->len + 1, m->policy, m->replacement, more ? U8X_MORE_INPUT : 0);
      CHECK_RESULT(r, e.status, e.error, e.read, e.written, e.error_len);
      CHECK_BYTES(got, r.written, want, e.written);
      r = u8x_decode_latin1(w->bytes, k, NULL, 0, m->policy, m->replacement, more ? U8X_MORE_INPUT : 0);
      CHECK_RESULT(r, e.status, e.error, e.read, e.written, e.error_len);
    }
  }
  check_context("%s", "");
  free(want);
  free(got);
}

static void reference_matches_python(void) {
  size_t i, j;
  for (i = 0; i < EXP_DEC1_CASES; i++) {
    const exp_dec1 *c = &exp_dec1_cases[i];
    uint8_t *out = (uint8_t *)malloc(c->input.len + 1);
    for (j = 0; j < COUNT_OF(modes); j++) {
      struct want py = from_python(c, &modes[j]);
      struct want ref = from_reference(c->name, c->input.bytes, c->input.len, &modes[j], out);
      check_context("forms.h vs Python: %s, %s", c->name, modes[j].name);
      CHECK_BYTES(ref.out, ref.n, py.out, py.n);
      CHECK(ref.stops == py.stops && ref.stop_at == py.stop_at && ref.stop_len == py.stop_len &&
            ref.stop_kind == py.stop_kind);
    }
    free(out);
  }
  check_context("%s", "");
  printf("decode: forms.h agrees with Python on every case and policy\n");
}

static void dec_cases(void) {
  size_t i, j, k, q;
  unsigned long streams = 0;
  for (i = 0; i < EXP_DEC1_CASES; i++) {
    const exp_dec1 *c = &exp_dec1_cases[i];
    for (j = 0; j < COUNT_OF(modes); j++) {
      const struct mode *m = &modes[j];
      struct want w = from_python(c, m);
      whole(&w, m);
      /* light: capacities, chunk sizes and split points near both ends
       * and every 7th between; of chunks 1..5 x capacities 1..3, chunk 1
       * at each capacity and each other chunk at one */
      for (k = 0; k <= w.n + 1; k = check_next(k, w.n + 1, 7), streams++) stream(&w, m, w.len + 1, k);
      for (k = 1; k <= w.len; k = check_next(k, w.len, 7), streams++) stream(&w, m, k, w.len + 1);
      for (k = 1; k <= 5; k++)
        for (q = 1; q <= 3; q++)
          if (!light || k == 1 || q == 1 + k % 3) {
            stream(&w, m, k, q);
            streams++;
          }
      for (k = 0; k <= w.len; k = check_next(k, w.len, 7)) split(&w, m, k);
      prefixes(&w, m);
    }
    printf("decode %-18s %3u bytes: every policy, capacity, chunk size, split point and prefix\n", c->name,
           (unsigned)c->input.len);
  }
  printf("decode streams: %lu%s\n", streams, CHECK_SAMPLED);
}

/* Hand-derived answers: the header's rules. */
static void dec_by_hand(void) {
  static const uint32_t replacements[] = {0, 0x3F, 0x7F, 0x80, 0xE9, 0xFF};
  uint8_t out[16];
  u8x_result r;
  size_t i;
  check_context("decode by hand");
  /* U+00E9 C3 A9 -> E9; U+00FF C3 BF -> FF; U+0100 C4 80 is not Latin-1 */
  r = u8x_decode_latin1(LIT("\xC3\xA9\xC3\xBF\xC4\x80z"), out, 16, U8X_STRICT, 0, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_NOT_REPRESENTABLE, 4, 2, 2);
  CHECK_BYTES(out, 2, "\xE9\xFF", 2);
  /* the length is the character's: 3 for U+20AC, 4 for U+1F600 */
  CHECK_RESULT(u8x_decode_latin1(LIT("ab\xE2\x82\xAC"), out, 16, U8X_STRICT, 0, 0), U8X_ILL_FORMED,
               U8X_ERR_NOT_REPRESENTABLE, 2, 2, 3);
  CHECK_RESULT(u8x_decode_latin1(LIT("\xF0\x9F\x98\x80"), NULL, 0, U8X_STRICT, 0, U8X_MORE_INPUT), U8X_ILL_FORMED,
               U8X_ERR_NOT_REPRESENTABLE, 0, 0, 4);
  /* cut with more input to come: incomplete, not yet unrepresentable */
  CHECK_RESULT(u8x_decode_latin1(LIT("a\xE2\x82"), out, 16, U8X_STRICT, 0, U8X_MORE_INPUT), U8X_INCOMPLETE,
               U8X_ERR_END_OF_INPUT, 1, 1, 2);
  CHECK_RESULT(u8x_decode_latin1(LIT("a\xE2\x82"), out, 16, U8X_STRICT, 0, 0), U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT,
               1, 1, 2);
  CHECK_RESULT(u8x_decode_latin1(LIT("a\xC3"), out, 16, U8X_REPLACE, '?', U8X_MORE_INPUT), U8X_INCOMPLETE,
               U8X_ERR_END_OF_INPUT, 1, 1, 1);
  /* ill-formed input is reported as by u8x_decode_ucs4 */
  CHECK_RESULT(u8x_decode_latin1(LIT("\xE9t\xE9"), out, 16, U8X_STRICT, 0, 0), U8X_ILL_FORMED,
               U8X_ERR_TRUNCATED_SEQUENCE, 0, 0, 1);
  CHECK_RESULT(u8x_decode_latin1(LIT("x\xED\xA0\x80"), out, 16, U8X_STRICT, 0, 0), U8X_ILL_FORMED, U8X_ERR_SURROGATE,
               1, 1, 1);
  /* any replacement byte: once per character above U+00FF, once per
   * maximal subpart (E2 82 is one) */
  for (i = 0; i < COUNT_OF(replacements); i++) {
    uint8_t want[6];
    want[0] = 'a';
    want[1] = (uint8_t)replacements[i];
    want[2] = (uint8_t)replacements[i];
    want[3] = 0xE9;
    want[4] = (uint8_t)replacements[i];
    want[5] = (uint8_t)replacements[i];
    check_context("decode by hand, replacement 0x%02X", (unsigned)replacements[i]);
    r = u8x_decode_latin1(LIT("a\xE2\x82\xAC\xE2\x82\xC3\xA9\xF0\x9F\x98\x80\xFF"), out, 16, U8X_REPLACE,
                          replacements[i], 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 13, 6, 0);
    CHECK_BYTES(out, r.written, want, 6);
  }
  check_context("%s", "");
}

/* Every scalar value: itself up to U+00FF; then the replacement, or under
 * U8X_STRICT a stop at U+0100. */
static void all_scalars(void) {
  uint8_t *text = (uint8_t *)malloc(4 * 0x110000);
  uint8_t *want = (uint8_t *)malloc(0x110000), *got = (uint8_t *)malloc(0x110000);
  size_t n = 0, count = 0, k;
  uint32_t cp;
  u8x_result r;
  for (cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp == 0xD800) cp = 0xE000;
    if (!check_scalar_sampled(cp)) continue; /* light: the edges and every 61st */
    n += ref_put_utf8(text + n, cp);
    want[count++] = cp <= 0xFF ? (uint8_t)cp : 0x1A;
  }
  check_context("all scalars");
  r = u8x_decode_latin1(text, n, got, 0x110000, U8X_REPLACE, 0x1A, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, count, 0);
  CHECK_BYTES(got, r.written, want, count);
  CHECK_RESULT(u8x_decode_latin1(text, n, NULL, 0, U8X_REPLACE, 0x1A, 0), U8X_OK, U8X_ERR_NONE, n, count, 0);
  /* U+0100 starts at byte 128 + 2 * 128 */
  r = u8x_decode_latin1(text, n, got, 0x110000, U8X_STRICT, 0, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_NOT_REPRESENTABLE, 384, 256, 2);
  CHECK_BYTES(got, r.written, want, 256);
  /* each scalar alone, under strict: its length when above U+00FF */
  for (k = 0, cp = 0; cp <= 0x10FFFF; cp += cp < 0x1000 ? 1 : 97) {
    uint8_t one[4], b;
    size_t len;
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    len = ref_put_utf8(one, cp);
    check_context("U+%04lX alone", (unsigned long)cp);
    b = 0xA5;
    r = u8x_decode_latin1(one, len, &b, 1, U8X_STRICT, 0, 0);
    if (cp <= 0xFF) {
      CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, len, 1, 0);
      CHECK_EQ(b, cp);
    } else {
      CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_NOT_REPRESENTABLE, 0, 0, len);
      CHECK_EQ(b, 0xA5);
    }
    k++;
  }
  check_context("%s", "");
  printf("decode: %s %u scalar values, and %u one by one%s\n", light ? "a sample of" : "all", (unsigned)count,
         (unsigned)k, CHECK_SAMPLED);
  free(text);
  free(want);
  free(got);
}

/* Random text that is mostly Latin-1 (so that strict goes far): ASCII
 * runs, 2-byte characters up to U+00FF, and, one piece in `wide`, a
 * character above U+00FF; one in `damage` an ill-formed piece. */
static size_t latin1_text(uint8_t *buf, size_t len, unsigned wide, unsigned damage, uint32_t *state) {
  static const char *const wides[] = {"\xC4\x80", "\xC5\x93", "\xDF\xBF", "\xE2\x82\xAC", "\xEF\xBF\xBD",
                                      "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"};
  size_t n = 0;
  for (;;) {
    char piece[8];
    size_t k;
    uint32_t r = ref_rand(state);
    if (r % 5 == 0) {
      size_t run = ref_rand(state) % 80;
      if (n + run > len) break;
      for (k = 0; k < run; k++) buf[n++] = (uint8_t)(' ' + ref_rand(state) % 95);
      continue;
    }
    if (wide > 0 && ref_rand(state) % wide == 0) {
      strcpy(piece, wides[ref_rand(state) % COUNT_OF(wides)]);
    } else if (damage > 0 && ref_rand(state) % damage == 0) {
      strcpy(piece, ref_bad_pieces[ref_rand(state) % COUNT_OF(ref_bad_pieces)]);
    } else {
      uint8_t c = (uint8_t)(0x80 + ref_rand(state) % 0x80);
      piece[0] = (char)(0xC0 | (c >> 6));
      piece[1] = (char)(0x80 | (c & 0x3F));
      piece[2] = 0;
    }
    k = strlen(piece);
    if (n + k > len) break;
    memcpy(buf + n, piece, k);
    n += k;
  }
  return n;
}

/* Long texts (chunks of 1024 code points over the vector kernels): whole,
 * at many capacities, in chunks, split. */
static void long_texts(void) {
  static const size_t caps[] = {1, 7, 63, 64, 65, 1023, 1024, 1025, 2048};
  static const size_t chunks[] = {1, 5, 64, 65, 1000};
  uint32_t state = 8859;
  unsigned t;
  unsigned long streams = 0;
  for (t = 0; t < 40; t++) {
    size_t want_len = 100 + ref_rand(&state) % (t % 2 ? 1500 : 6000), j, k;
    uint8_t *s = (uint8_t *)malloc(want_len + 1), *out = (uint8_t *)malloc(want_len + 1);
    size_t n = t % 3 == 0 ? ref_random_text(s, want_len, t % 4 ? 5 + t : 0, &state)
                          : latin1_text(s, want_len, t % 4 ? 3 * t : 0, t % 5 ? 0 : 40, &state);
    char name[40];
    sprintf(name, "random text #%u", t);
    for (j = 0; j < COUNT_OF(modes); j++) {
      struct want w = from_reference(name, s, n, &modes[j], out);
      /* light: the streams of more than n / 1000 calls (each call costs
       * O(n) here) only on the first 12 texts, which have every t % 2
       * (long or short), t % 3 (kind of text) and t % 4 (cap 1, chunk 1);
       * a quarter of the split points */
      int all = !(light && t >= 12);
      whole(&w, &modes[j]);
      for (k = t % 4 == 0 ? 0 : 1; k < COUNT_OF(caps); k++) {
        if (caps[k] < 1000 && !all) continue;
        stream(&w, &modes[j], n + 1, caps[k]);
        streams++;
      }
      for (k = t % 4 == 1 ? 0 : 1; k < COUNT_OF(chunks); k++) {
        if (chunks[k] < 1000 && !all) continue;
        stream(&w, &modes[j], chunks[k], n + 1);
        streams++;
      }
      for (k = 0; k <= n; k += (1 + k % 37) * (light ? 4 : 1)) split(&w, &modes[j], k);
    }
    free(s);
    free(out);
  }
  printf("decode long texts: 40 random texts, every policy, %lu streams%s\n", streams, CHECK_SAMPLED);
}

/* One character above U+00FF, or one ill-formed piece, at each position
 * of a long Latin-1 text: strict stops exactly there, around the
 * 1024-code-point chunks; replace writes one byte for it. */
static void unrepresentable_everywhere(void) {
  static const char *const pieces[] = {"\xC4\x80", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xC3", "\xFF", "\xE2\x82"};
  enum { CHARS = 2300 };
  uint8_t *base = (uint8_t *)malloc(2 * CHARS), *s = (uint8_t *)malloc(2 * CHARS + 8);
  uint8_t *want = (uint8_t *)malloc(2 * CHARS + 8), *got = (uint8_t *)malloc(2 * CHARS + 8);
  size_t n = 0, p, j, m, offsets[CHARS + 1], c;
  uint32_t state = 1252;
  unsigned long calls = 0;
  for (c = 0; c < CHARS; c++) {
    offsets[c] = n;
    n += ref_put_utf8(base + n, ref_rand(&state) % 3 ? 0x20 + ref_rand(&state) % 0x5F : 0xA0 + ref_rand(&state) % 0x60);
  }
  offsets[CHARS] = n;
  for (c = 0; c <= CHARS; c += c < 60 || (c > 990 && c < 1060) || (c > 2020 && c < 2080) || c > 2280 ? 1 : 41) {
    p = offsets[c];
    for (j = 0; j < COUNT_OF(pieces); j++) {
      size_t len = strlen(pieces[j]);
      /* light: every position still, with one unrepresentable and one
       * ill-formed piece in turn (each piece at every third position) */
      if (light && j != c % 6 && j != (c + 3) % 6) continue;
      memcpy(s, base, p);
      memcpy(s + p, pieces[j], len);
      memcpy(s + p + len, base + p, n - p);
      for (m = 0; m < COUNT_OF(modes); m++) {
        u8x_result full = ref_decode_latin1(s, n + len, modes[m].policy, (uint8_t)modes[m].replacement, 0, want), w;
        u8x_result r;
        check_context("piece %u after %u characters, %s", (unsigned)j, (unsigned)c, modes[m].name);
        r = u8x_decode_latin1(s, n + len, got, 2 * CHARS + 8, modes[m].policy, modes[m].replacement, 0);
        CHECK_RESULT(r, full.status, full.error, full.read, full.written, full.error_len);
        CHECK_BYTES(got, r.written, want, full.written);
        r = u8x_decode_latin1(s, n + len, NULL, 0, modes[m].policy, modes[m].replacement, 0);
        CHECK_RESULT(r, full.status, full.error, full.read, full.written, full.error_len);
        /* the output full just before it: strict reports the piece (it
         * needs no room), replace says full; just after it: full, or done */
        r = u8x_decode_latin1(s, n + len, got, c, modes[m].policy, modes[m].replacement, 0);
        if (modes[m].policy == U8X_STRICT)
          CHECK_RESULT(r, U8X_ILL_FORMED, full.error, p, c, full.error_len);
        else
          CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, p, c, 0);
        if (modes[m].policy == U8X_REPLACE) {
          r = u8x_decode_latin1(s, n + len, got, c + 1, modes[m].policy, modes[m].replacement, 0);
          if (c < CHARS)
            CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, p + len, c + 1, 0);
          else
            CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, p + len, c + 1, 0);
          CHECK_BYTES(got, r.written, want, c + 1);
        }
        /* cut right after it, more to come */
        w = ref_decode_latin1(s, p + len, modes[m].policy, (uint8_t)modes[m].replacement, 1, want);
        r = u8x_decode_latin1(s, p + len, got, 2 * CHARS + 8, modes[m].policy, modes[m].replacement, U8X_MORE_INPUT);
        CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
        CHECK_BYTES(got, r.written, want, w.written);
        calls += 4;
      }
    }
  }
  check_context("%s", "");
  printf("unrepresentable and ill-formed pieces everywhere: %lu decodes%s\n", calls, CHECK_SAMPLED);
  free(base);
  free(s);
  free(want);
  free(got);
}

/* ======================================================================== */
/* Encoding Latin-1 to UTF-8                                                */
/* ======================================================================== */

/* Whole, exact, measured, and every capacity in caps (all from 0 to
 * size + 1 if NULL), resuming from src + read. */
static void enc_check(const char *name, const uint8_t *in, size_t n, const uint8_t *want, size_t want_len,
                      const size_t *caps, size_t n_caps) {
  size_t room = want_len + 16, ci, cap, i;
  uint8_t *dst, *got = (uint8_t *)malloc(want_len + 1);
  u8x_result r;
  for (ci = 0; caps && ci < n_caps; ci++)
    if (caps[ci] + 1 > room) room = caps[ci] + 1;
  dst = (uint8_t *)malloc(room);
  check_context("encode %s, whole", name);
  memset(dst, 0xA5, room);
  r = u8x_encode_latin1(n ? in : NULL, n, dst, want_len + 8);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, want_len, 0);
  CHECK_BYTES(dst, r.written, want, want_len);
  CHECK_EQ(dst[want_len + 8], 0xA5);
  memset(dst, 0xA5, room);
  r = u8x_encode_latin1(n ? in : NULL, n, dst, want_len);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, want_len, 0);
  CHECK_BYTES(dst, r.written, want, want_len);
  CHECK_EQ(dst[want_len], 0xA5);
  CHECK_RESULT(u8x_encode_latin1(n ? in : NULL, n, NULL, 0), U8X_OK, U8X_ERR_NONE, n, want_len, 0);
  CHECK(u8x_encode_latin1_bound(n) >= want_len);
  for (ci = 0; caps ? ci < n_caps : ci <= want_len + 1; ci++) {
    size_t off = 0, got_len = 0, calls = 0;
    int stuck = 0;
    cap = caps ? caps[ci] : ci;
    check_context("encode %s, capacity %u", name, (unsigned)cap);
    for (;;) {
      size_t expect = 0;
      memset(dst, 0xA5, cap + 1);
      r = u8x_encode_latin1(n > off ? in + off : NULL, n - off, dst, cap);
      CHECK_EQ(dst[cap], 0xA5);
      if (!CHECK(r.written <= cap && off + r.read <= n && got_len + r.written <= want_len)) break;
      memcpy(got + got_len, dst, r.written);
      for (i = off; i < off + r.read; i++) expect += in[i] < 0x80 ? 1 : 2;
      CHECK_EQ(r.written, expect); /* whole characters */
      got_len += r.written;
      off += r.read;
      if (r.status != U8X_OUTPUT_FULL) break;
      CHECK(off < n && cap - r.written < (size_t)(in[off] < 0x80 ? 1 : 2));
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(r.error_len, 0);
      if (r.read == 0) {
        stuck = 1;
        CHECK(cap < 2);
        break;
      }
      if (++calls > n + 1) {
        CHECK(!"no progress");
        break;
      }
    }
    if (stuck) {
      CHECK_BYTES(got, got_len, want, got_len);
    } else {
      CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n - (off - r.read), r.written, 0);
      CHECK_EQ(off, n);
      CHECK_BYTES(got, got_len, want, want_len);
    }
  }
  check_context("%s", "");
  free(dst);
  free(got);
}

static void enc_cases(void) {
  size_t i;
  for (i = 0; i < EXP_ENC1_CASES; i++) {
    const exp_enc1 *e = &exp_enc1_cases[i];
    uint8_t *ref = (uint8_t *)malloc(2 * e->input.len + 1), *back = (uint8_t *)malloc(e->input.len + 1);
    u8x_result r;
    check_context("encode %s: forms.h vs Python", e->name);
    CHECK_BYTES(ref, ref_encode_latin1(e->input.bytes, e->input.len, ref), e->utf8.bytes, e->utf8.len);
    enc_check(e->name, e->input.bytes, e->input.len, e->utf8.bytes, e->utf8.len, NULL, 0);
    /* and back */
    check_context("encode %s: and back", e->name);
    r = u8x_decode_latin1(e->utf8.len ? e->utf8.bytes : NULL, e->utf8.len, back, e->input.len + 1, U8X_STRICT, 0, 0);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, e->utf8.len, e->input.len, 0);
    CHECK_BYTES(back, r.written, e->input.bytes, e->input.len);
    free(ref);
    free(back);
    printf("encode %-10s %3u bytes: every capacity, and back\n", e->name, (unsigned)e->input.len);
  }
  check_context("%s", "");
}

/* Every byte, by hand: 00..7F as they are, 80..FF as C2/C3 and 80..BF. */
static void enc_by_hand(void) {
  unsigned b;
  for (b = 0; b < 256; b++) {
    uint8_t in = (uint8_t)b, out[4] = {0xA5, 0xA5, 0xA5, 0xA5};
    check_context("encode byte 0x%02X", b);
    if (b < 0x80) {
      CHECK_RESULT(u8x_encode_latin1(&in, 1, out, 4), U8X_OK, U8X_ERR_NONE, 1, 1, 0);
      CHECK_EQ(out[0], b);
    } else {
      CHECK_RESULT(u8x_encode_latin1(&in, 1, out, 4), U8X_OK, U8X_ERR_NONE, 1, 2, 0);
      CHECK_EQ(out[0], b < 0xC0 ? 0xC2 : 0xC3);
      CHECK_EQ(out[1], 0x80 | (b & 0x3F));
      out[0] = 0xA5;
      CHECK_RESULT(u8x_encode_latin1(&in, 1, out, 1), U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
      CHECK_EQ(out[0], 0xA5);
    }
    CHECK_EQ(out[2], 0xA5);
  }
  check_context("%s", "");
}

/* Long random byte strings (chunks of 1024 over the vector encoder), and
 * back. */
static void enc_long(void) {
  static const size_t caps[] = {0, 1, 2, 3, 127, 128, 129, 1023, 1024, 1025, 2047, 2048, 2049, 4097};
  uint32_t state = 1;
  unsigned t;
  for (t = 0; t < 40; t++) {
    size_t n = ref_rand(&state) % (t % 2 ? 900 : 5000), i;
    uint8_t *in = (uint8_t *)malloc(n + 1), *want = (uint8_t *)malloc(2 * n + 1), *back = (uint8_t *)malloc(n + 1);
    size_t want_len;
    char name[40];
    u8x_result r;
    for (i = 0; i < n; i++) {
      uint32_t x = ref_rand(&state);
      in[i] = (uint8_t)(t % 4 == 0 ? x : x % 3 ? 0x20 + x % 0x5F : 0x80 + x % 0x80);
    }
    want_len = ref_encode_latin1(in, n, want);
    sprintf(name, "random bytes #%u", t);
    /* light: capacities under 127 (up to n calls each) only on the first
     * 12 strings, which have every t % 4 (bytes) and t % 2 (length) */
    if (light && t >= 12)
      enc_check(name, in, n, want, want_len, caps + 4, COUNT_OF(caps) - 4);
    else
      enc_check(name, in, n, want, want_len, caps, COUNT_OF(caps));
    r = u8x_decode_latin1(want_len ? want : NULL, want_len, back, n + 1, U8X_STRICT, 0, 0);
    check_context("%s, and back", name);
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, want_len, n, 0);
    CHECK_BYTES(back, r.written, in, n);
    free(in);
    free(want);
    free(back);
  }
  check_context("%s", "");
  printf("encode long: 40 random byte strings, and back%s\n", CHECK_SAMPLED);
}

static void bounds(void) {
  CHECK_EQ(u8x_decode_latin1_bound(0), 0);
  CHECK_EQ(u8x_decode_latin1_bound(1), 1);
  CHECK_EQ(u8x_decode_latin1_bound(12345), 12345);
  CHECK_EQ(u8x_decode_latin1_bound(SIZE_MAX), SIZE_MAX);
  CHECK_EQ(u8x_encode_latin1_bound(0), 0);
  CHECK_EQ(u8x_encode_latin1_bound(1), 2);
  CHECK_EQ(u8x_encode_latin1_bound(1000), 2000);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX / 2), SIZE_MAX / 2 * 2);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX / 2 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_latin1_bound(SIZE_MAX), U8X_BAD_SIZE);
  printf("bounds: 1 byte per byte, 2 per Latin-1 byte, U8X_BAD_SIZE on overflow\n");
}

int main(void) {
  check_begin("latin1");
  light = check_light();
  CHECK_RESULT(u8x_decode_latin1(NULL, 0, NULL, 0, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_decode_latin1(NULL, 0, NULL, 0, U8X_REPLACE, 255, U8X_MORE_INPUT), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode_latin1(NULL, 0, NULL, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_STR(u8x_error_name(U8X_ERR_NOT_REPRESENTABLE), u8x_error_name(U8X_ERR_NOT_REPRESENTABLE));
  CHECK(strcmp(u8x_error_name(U8X_ERR_NOT_REPRESENTABLE), "unknown error") != 0);
  reference_matches_python();
  dec_cases();
  dec_by_hand();
  all_scalars();
  long_texts();
  unrepresentable_everywhere();
  enc_cases();
  enc_by_hand();
  enc_long();
  bounds();
  return check_done();
}
