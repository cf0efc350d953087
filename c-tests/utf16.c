/* UTF-16 both ways: u8x_decode_utf16 under every policy (strict, replace
 * with U+FFFD and with the supplementary U+1F4A9, escape, latin1, cp1252),
 * u8x_encode_utf16 under strict, replace and escape, u8x_validate_utf16,
 * u8x_count_utf16_valid, u8x_encoded_len_utf16_valid and the two UTF-16
 * bounds, in native, little- and big-endian order. Known answers come from
 * Python's utf-8 and utf-16-le/-be codecs (expected.h): whole inputs,
 * U8X_OUTPUT_FULL at every capacity from 0 (a surrogate pair never split;
 * resuming from read gives the one-shot output), measuring with NULL and
 * capacity 0, U8X_MORE_INPUT at every split point and in chunks of every
 * size. Then every scalar value, every surrogate, long random texts (the
 * vector code) against the reference in forms.h (checked against Python
 * first), and the escape round trip of arbitrary bytes. */
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
  int index; /* into exp_dec16.out/le/be; for encoding, which exp_enc16 output */
};

static const struct mode dec_modes[] = {
    {"strict", U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0},
    {"replace U+FFFD", U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 1},
    {"replace U+1F4A9", U8X_REPLACE, EXP_CUSTOM_REPLACEMENT, 5},
    {"escape", U8X_ESCAPE, U8X_REPLACEMENT_CHARACTER, 2},
    {"latin1", U8X_LATIN1, U8X_REPLACEMENT_CHARACTER, 3},
    {"cp1252", U8X_CP1252, U8X_REPLACEMENT_CHARACTER, 4},
};

enum { E_STRICT, E_REPLACE, E_CUSTOM, E_ESCAPE };
static const struct mode enc_modes[] = {
    {"strict", U8X_STRICT, U8X_REPLACEMENT_CHARACTER, E_STRICT},
    {"replace U+FFFD", U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, E_REPLACE},
    {"replace U+1F4A9", U8X_REPLACE, EXP_CUSTOM_REPLACEMENT, E_CUSTOM},
    {"escape", U8X_ESCAPE, U8X_REPLACEMENT_CHARACTER, E_ESCAPE},
};

/* ======================================================================== */
/* Decoding UTF-8 to UTF-16                                                  */
/* ======================================================================== */

/* What decoding an input under one mode and order must give. */
struct dwant {
  const char *name;
  const uint8_t *bytes;
  size_t len;
  const uint16_t *units; /* the unit values */
  size_t n;
  const uint8_t *image; /* 2 * n bytes: the output memory in the order asked for */
  int stops;            /* U8X_STRICT stops at an ill-formed sequence */
  size_t stop_at, stop_len;
  u8x_error stop_kind;
};

static struct dwant dwant_python(const exp_dec16 *c, const struct mode *m, const struct order *o) {
  struct dwant w;
  int k = m->index;
  w.name = c->name;
  w.bytes = c->input.bytes;
  w.len = c->input.len;
  w.units = c->out[k].units;
  w.n = c->out[k].len;
  w.image = o->flag == U8X_LITTLE_ENDIAN ? c->le[k].bytes
            : o->flag == U8X_BIG_ENDIAN  ? c->be[k].bytes
                                         : (const uint8_t *)c->out[k].units;
  w.stops = m->policy == U8X_STRICT && c->stops;
  w.stop_at = w.stops ? c->stop_at : 0;
  w.stop_len = w.stops ? c->stop_len : 0;
  w.stop_kind = w.stops ? c->stop_kind : U8X_ERR_NONE;
  return w;
}

/* From the reference; units and image must each hold 2 * len units. */
static struct dwant dwant_reference(const char *name, const uint8_t *bytes, size_t len, const struct mode *m,
                                    const struct order *o, uint16_t *units, uint16_t *image) {
  struct dwant w;
  u8x_result r = ref_decode_utf16(bytes, len, m->policy, m->replacement, 0, units);
  units_to_order(image, units, r.written, o->flag);
  w.name = name;
  w.bytes = bytes;
  w.len = len;
  w.units = units;
  w.n = r.written;
  w.image = (const uint8_t *)image;
  w.stops = r.status == U8X_ILL_FORMED;
  w.stop_at = w.stops ? r.read : 0;
  w.stop_len = r.error_len;
  w.stop_kind = r.error;
  return w;
}

static void dec_check_whole_result(u8x_result r, const struct dwant *w) {
  if (w->stops)
    CHECK_RESULT(r, U8X_ILL_FORMED, w->stop_kind, w->stop_at, w->n, w->stop_len);
  else
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, w->len, w->n, 0);
}

/* One call with room to spare, with exactly the room needed, measuring,
 * and with a real buffer of capacity 0. */
static void dec_whole(const struct dwant *w, const struct mode *m, const struct order *o) {
  size_t cap = w->n + 8, i;
  uint16_t *dst = (uint16_t *)malloc((cap + 1) * sizeof *dst);
  u8x_result r;
  check_context("%s, %s, %s, whole", w->name, m->name, o->name);
  for (i = 0; i <= cap; i++) dst[i] = 0xA5A5;
  r = u8x_decode_utf16(w->bytes, w->len, dst, cap, m->policy, m->replacement, o->flag);
  dec_check_whole_result(r, w);
  CHECK_BYTES(dst, 2 * r.written, w->image, 2 * w->n);
  CHECK_EQ(dst[cap], 0xA5A5);

  for (i = 0; i <= cap; i++) dst[i] = 0xA5A5;
  r = u8x_decode_utf16(w->bytes, w->len, dst, w->n, m->policy, m->replacement, o->flag);
  dec_check_whole_result(r, w);
  CHECK_BYTES(dst, 2 * r.written, w->image, 2 * w->n);
  CHECK_EQ(dst[w->n], 0xA5A5);

  if (m->replacement < 0x10000) CHECK(u8x_decode_utf16_bound(w->len) >= w->n);

  r = u8x_decode_utf16(w->bytes, w->len, NULL, 0, m->policy, m->replacement, o->flag);
  dec_check_whole_result(r, w);

  dst[0] = 0xA5A5;
  r = u8x_decode_utf16(w->bytes, w->len, dst, 0, m->policy, m->replacement, o->flag);
  if (w->len == 0)
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  else if (w->stops && w->stop_at == 0)
    CHECK_RESULT(r, U8X_ILL_FORMED, w->stop_kind, 0, 0, w->stop_len);
  else
    CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
  CHECK_EQ(dst[0], 0xA5A5);
  check_context("%s", "");
  free(dst);
}

/* Decodes as a stream: input `chunk` bytes at a time (U8X_MORE_INPUT until
 * the last), an output buffer of `cap` units per call; each call sees a
 * heap copy of exactly its bytes (ASan catches a read past them). Output
 * full must mean full, or one unit short of it with a pair next; a call
 * never ends its output with a high surrogate (half a pair). With cap 0
 * nothing fits, with cap 1 no pair: the stream is stuck there, and each
 * call must say so (OUTPUT_FULL, nothing read or written). */
static void dec_stream(const struct dwant *w, const struct mode *m, const struct order *o, size_t chunk,
                       size_t cap) {
  size_t len = w->len, pos = 0, end = 0, got_len = 0, calls = 0;
  uint16_t *got = (uint16_t *)malloc((w->n + 1) * sizeof *got);
  uint16_t *dst = (uint16_t *)malloc((cap + 1) * sizeof *dst);
  int need_input = 1, stopped = 0, stuck = 0;
  u8x_result last;
  memset(&last, 0, sizeof last);
  check_context("%s, %s, %s, chunks of %u, cap %u", w->name, m->name, o->name, (unsigned)chunk, (unsigned)cap);
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
    for (i = 0; i <= cap; i++) dst[i] = 0xA5A5;
    r = u8x_decode_utf16(end > pos ? window : NULL, end - pos, dst, cap, m->policy, m->replacement,
                         o->flag | (more ? U8X_MORE_INPUT : 0));
    free(window);
    last = r;
    CHECK_EQ(dst[cap], 0xA5A5);
    if (!CHECK(r.written <= cap && r.read <= end - pos)) break;
    if (got_len + r.written > w->n) {
      CHECK(!"more output than expected");
      break;
    }
    memcpy(got + got_len, dst, r.written * sizeof *dst);
    got_len += r.written;
    pos += r.read;
    if (r.written > 0 && !CHECK(!is_high_surrogate(w->units[got_len - 1]))) break; /* half a pair */
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
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(r.error_len, 0);
      /* full, or the pair that comes next does not fit */
      CHECK(r.written == cap ||
            (r.written + 1 == cap && got_len < w->n && is_high_surrogate(w->units[got_len])));
      if (r.read == 0 && r.written == 0) {
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
    /* capacity 0 holds nothing, capacity 1 no pair */
    CHECK(cap == 0 || (cap == 1 && got_len < w->n && is_high_surrogate(w->units[got_len])));
    CHECK(got_len < w->n);
    CHECK_BYTES(got, 2 * got_len, w->image, 2 * got_len);
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
    CHECK_BYTES(got, 2 * got_len, w->image, 2 * w->n);
  }
  check_context("%s", "");
  free(got);
  free(dst);
}

/* Two chunks, split at `at`: the first with U8X_MORE_INPUT. */
static void dec_split(const struct dwant *w, const struct mode *m, const struct order *o, size_t at) {
  size_t n = w->len, cap = 2 * n + 2;
  uint16_t *dst = (uint16_t *)malloc(2 * cap * sizeof *dst);
  u8x_result a, b;
  check_context("%s, %s, %s, split at %u", w->name, m->name, o->name, (unsigned)at);
  a = u8x_decode_utf16(w->bytes, at, dst, cap, m->policy, m->replacement, o->flag | U8X_MORE_INPUT);
  if (a.status == U8X_ILL_FORMED) {
    CHECK(w->stops);
    CHECK_EQ(a.read, w->stop_at);
    CHECK_EQ(a.error, w->stop_kind);
    CHECK_EQ(a.error_len, w->stop_len);
    CHECK_BYTES(dst, 2 * a.written, w->image, 2 * w->n);
  } else {
    CHECK(a.status == U8X_OK || a.status == U8X_INCOMPLETE);
    CHECK_EQ(at - a.read, a.error_len);
    b = u8x_decode_utf16(w->bytes + a.read, n - a.read, dst + a.written, cap, m->policy, m->replacement, o->flag);
    if (w->stops) {
      CHECK_EQ(b.status, U8X_ILL_FORMED);
      CHECK_EQ(a.read + b.read, w->stop_at);
      CHECK_EQ(b.error, w->stop_kind);
      CHECK_EQ(b.error_len, w->stop_len);
    } else {
      CHECK_RESULT(b, U8X_OK, U8X_ERR_NONE, n - a.read, w->n - a.written, 0);
    }
    CHECK_BYTES(dst, 2 * (a.written + b.written), w->image, 2 * w->n);
  }
  check_context("%s", "");
  free(dst);
}

/* Every Python case, mode and order: whole, every capacity, every chunk
 * size, every split point. */
static void dec_cases(void) {
  size_t i, j, o, k, q;
  unsigned long streams = 0;
  for (i = 0; i < EXP_DEC16_CASES; i++) {
    const exp_dec16 *c = &exp_dec16_cases[i];
    for (j = 0; j < COUNT_OF(dec_modes); j++) {
      /* Python's three images agree with each other */
      int kk = dec_modes[j].index;
      check_context("%s, %s, images", c->name, dec_modes[j].name);
      CHECK_EQ(c->le[kk].len, 2 * c->out[kk].len);
      CHECK_EQ(c->be[kk].len, 2 * c->out[kk].len);
      for (o = 0; o < COUNT_OF(orders); o++) {
        const struct mode *m = &dec_modes[j];
        struct dwant w = dwant_python(c, m, &orders[o]);
        dec_whole(&w, m, &orders[o]);
        /* light: capacities, chunk sizes and split points near both ends
         * and every 7th between; of chunks 1..5 x capacities 1..3, chunk 1
         * at each capacity and each other chunk at one */
        for (k = 0; k <= w.n + 1; k = check_next(k, w.n + 1, 7), streams++) dec_stream(&w, m, &orders[o], w.len + 1, k);
        for (k = 1; k <= w.len; k = check_next(k, w.len, 7), streams++) dec_stream(&w, m, &orders[o], k, 2 * w.len + 2);
        for (k = 1; k <= 5; k++)
          for (q = 1; q <= 3; q++)
            if (!light || k == 1 || q == 1 + k % 3) {
              dec_stream(&w, m, &orders[o], k, q);
              streams++;
            }
        for (k = 0; k <= w.len; k = check_next(k, w.len, 7)) dec_split(&w, m, &orders[o], k);
      }
    }
    printf("decode %-18s %3u bytes: every policy, order, capacity, chunk size and split point\n", c->name,
           (unsigned)c->input.len);
  }
  check_context("%s", "");
  printf("decode streams: %lu%s\n", streams, CHECK_SAMPLED);
}

/* The reference must agree with Python before it is used as an oracle. */
static void dec_reference_matches_python(void) {
  size_t i, j, o;
  for (i = 0; i < EXP_DEC16_CASES; i++) {
    const exp_dec16 *c = &exp_dec16_cases[i];
    uint16_t *units = (uint16_t *)malloc((2 * c->input.len + 1) * sizeof *units);
    uint16_t *image = (uint16_t *)malloc((2 * c->input.len + 1) * sizeof *image);
    for (j = 0; j < COUNT_OF(dec_modes); j++) {
      for (o = 0; o < COUNT_OF(orders); o++) {
        struct dwant py = dwant_python(c, &dec_modes[j], &orders[o]);
        struct dwant ref =
            dwant_reference(c->name, c->input.bytes, c->input.len, &dec_modes[j], &orders[o], units, image);
        check_context("forms.h vs Python: %s, %s, %s", c->name, dec_modes[j].name, orders[o].name);
        CHECK_U16S(ref.units, ref.n, py.units, py.n);
        CHECK_BYTES(ref.image, 2 * ref.n, py.image, 2 * py.n);
        CHECK(ref.stops == py.stops && ref.stop_at == py.stop_at && ref.stop_len == py.stop_len &&
              ref.stop_kind == py.stop_kind);
      }
    }
    free(units);
    free(image);
  }
  check_context("%s", "");
  printf("decode: forms.h agrees with Python on every case, policy and order\n");
}

/* Long random texts (the chunked path over the vector kernels: chunks of
 * 1024 code points, pairs and errors around the chunk edges) against the
 * reference; one byte order per text, in turn. */
static void dec_long_texts(void) {
  static const size_t caps[] = {1, 2, 3, 7, 16, 63, 64, 65, 257, 1023, 1024, 1025, 2049};
  static const size_t chunks[] = {1, 5, 63, 64, 65, 200, 1500};
  uint32_t state = 1601;
  unsigned t;
  unsigned long streams = 0;
  for (t = 0; t < 24; t++) {
    size_t want_len = 64 + ref_rand(&state) % (t % 4 == 0 ? 5000 : 1200);
    uint8_t *s = (uint8_t *)malloc(want_len + 1);
    size_t n = ref_random_text(s, want_len, t % 5 == 0 ? 0 : 3 + t % 40, &state), j, k;
    uint16_t *units = (uint16_t *)malloc((2 * n + 1) * sizeof *units);
    uint16_t *image = (uint16_t *)malloc((2 * n + 1) * sizeof *image);
    const struct order *o = &orders[t % 3];
    char name[40];
    sprintf(name, "random text #%u", t);
    for (j = 0; j < COUNT_OF(dec_modes); j++) {
      struct dwant w = dwant_reference(name, s, n, &dec_modes[j], o, units, image);
      /* light: the streams of more than n / 200 calls (each call costs
       * O(n) here) only on the first 12 texts, which have every t % 4
       * (cap 1, chunk 1, up to 5000 bytes) in every byte order; a quarter
       * of the split points */
      int all = !(light && t >= 12);
      dec_whole(&w, &dec_modes[j], o);
      for (k = t % 4 == 0 ? 0 : 1; k < COUNT_OF(caps); k++) {
        if (caps[k] < 1000 && !all) continue;
        dec_stream(&w, &dec_modes[j], o, n + 1, caps[k]);
        streams++;
      }
      for (k = t % 4 == 1 ? 0 : 1; k < COUNT_OF(chunks); k++) {
        if (chunks[k] < 200 && !all) continue;
        dec_stream(&w, &dec_modes[j], o, chunks[k], 2 * n + 2);
        streams++;
      }
      if (all) dec_stream(&w, &dec_modes[j], o, 64, 17);
      for (k = 0; k <= n; k += (1 + k % 29 + n / 64) * (light ? 4 : 1)) dec_split(&w, &dec_modes[j], o, k);
    }
    free(s);
    free(units);
    free(image);
  }
  printf("decode long texts: 24 random texts, every policy, %lu streams%s\n", streams, CHECK_SAMPLED);
}

/* Every scalar value, in one text: UTF-16 by D91, in each order; and back. */
static void all_scalars(void) {
  uint8_t *text = (uint8_t *)malloc(4 * 0x110000);
  uint16_t *units = (uint16_t *)malloc(2 * 0x110000 * sizeof *units);
  uint16_t *image = (uint16_t *)malloc(2 * 0x110000 * sizeof *image);
  uint16_t *out = (uint16_t *)malloc(2 * 0x110000 * sizeof *out);
  uint8_t *back = (uint8_t *)malloc(4 * 0x110000);
  size_t n = 0, u = 0, o, j;
  uint32_t cp;
  for (cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp == 0xD800) cp = 0xE000;
    if (!check_scalar_sampled(cp)) continue; /* light: the edges and every 61st */
    n += ref_put_utf8(text + n, cp);
    u += ref_put_utf16(units + u, cp);
  }
  for (o = 0; o < COUNT_OF(orders); o++) {
    u8x_result r;
    units_to_order(image, units, u, orders[o].flag);
    for (j = 0; j < COUNT_OF(dec_modes); j++) {
      if (o > 0 && j > 0) continue; /* every policy in native order; strict in the others */
      check_context("all scalars, decode, %s, %s", dec_modes[j].name, orders[o].name);
      r = u8x_decode_utf16(text, n, out, 2 * 0x110000, dec_modes[j].policy, dec_modes[j].replacement,
                           orders[o].flag);
      CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, n, u, 0);
      CHECK_BYTES(out, 2 * r.written, image, 2 * u);
    }
    check_context("all scalars, %s", orders[o].name);
    CHECK_RESULT(u8x_decode_utf16(text, n, NULL, 0, U8X_STRICT, 0, orders[o].flag), U8X_OK, U8X_ERR_NONE, n, u, 0);
    CHECK_RESULT(u8x_validate_utf16(image, u, orders[o].flag), U8X_OK, U8X_ERR_NONE, u, 0, 0);
    CHECK_EQ(u8x_encoded_len_utf16_valid(image, u, orders[o].flag), n);
    for (j = 0; j < COUNT_OF(enc_modes); j++) {
      check_context("all scalars, encode, %s, %s", enc_modes[j].name, orders[o].name);
      r = u8x_encode_utf16(image, u, back, 4 * 0x110000, enc_modes[j].policy, enc_modes[j].replacement,
                           orders[o].flag);
      CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, u, n, 0);
      CHECK_BYTES(back, r.written, text, n);
      CHECK_RESULT(u8x_encode_utf16(image, u, NULL, 0, enc_modes[j].policy, enc_modes[j].replacement,
                                    orders[o].flag | U8X_MORE_INPUT),
                   U8X_OK, U8X_ERR_NONE, u, n, 0);
    }
  }
  check_context("%s", "");
  CHECK_EQ(u8x_count_utf16_valid(text, n), u);
  if (light)
    printf("a sample of the scalar values: %u bytes of UTF-8 <-> %u UTF-16 units, every order%s\n", (unsigned)n,
           (unsigned)u, CHECK_SAMPLED);
  else
    printf("all %u scalar values: %u bytes of UTF-8 <-> %u UTF-16 units, every order\n",
           (unsigned)(0x110000 - 0x800), (unsigned)n, (unsigned)u);
  free(text);
  free(units);
  free(image);
  free(out);
  free(back);
}

/* A supplementary replacement takes two units per maximal subpart: more
 * than u8x_decode_utf16_bound, which promises only BMP replacements;
 * measuring says how much. */
static void supplementary_replacement(void) {
  static const uint16_t want[] = {0xD83D, 0xDCA9, 0xD83D, 0xDCA9, 0xD83D, 0xDCA9};
  uint16_t out[8];
  size_t i;
  u8x_result r;
  check_context("supplementary replacement");
  CHECK_EQ(u8x_decode_utf16_bound(3), 3);
  CHECK_RESULT(u8x_decode_utf16(LIT("\xFF\xFE\xC0"), NULL, 0, U8X_REPLACE, 0x1F4A9, 0), U8X_OK, U8X_ERR_NONE, 3, 6,
               0);
  for (i = 0; i < 8; i++) out[i] = 0xA5A5;
  r = u8x_decode_utf16(LIT("\xFF\xFE\xC0"), out, 6, U8X_REPLACE, 0x1F4A9, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 3, 6, 0);
  CHECK_U16S(out, r.written, want, 6);
  /* one unit short: the last pair is left out whole */
  for (i = 0; i < 8; i++) out[i] = 0xA5A5;
  r = u8x_decode_utf16(LIT("\xFF\xFE\xC0"), out, 5, U8X_REPLACE, 0x1F4A9, 0);
  CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 2, 4, 0);
  CHECK_U16S(out, r.written, want, 4);
  CHECK_EQ(out[4], 0xA5A5);
  /* room for one unit: nothing fits */
  r = u8x_decode_utf16(LIT("\xFF\xFE\xC0"), out, 1, U8X_REPLACE, 0x1F4A9, 0);
  CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
  /* big-endian: D8 3D DC A9 */
  r = u8x_decode_utf16(LIT("a\xFF"), out, 8, U8X_REPLACE, 0x1F4A9, U8X_BIG_ENDIAN);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 3, 0);
  CHECK_BYTES(out, 6, "\x00" "a\xD8\x3D\xDC\xA9", 6);
  r = u8x_decode_utf16(LIT("a\xFF"), out, 8, U8X_REPLACE, 0x1F4A9, U8X_LITTLE_ENDIAN);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 3, 0);
  CHECK_BYTES(out, 6, "a\x00\x3D\xD8\xA9\xDC", 6);
  /* a BMP replacement other than U+FFFD, and U+0000 */
  r = u8x_decode_utf16(LIT("a\xE2\x82"), out, 8, U8X_REPLACE, '?', 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  CHECK(out[0] == 'a' && out[1] == '?');
  r = u8x_decode_utf16(LIT("a\xE2\x82"), out, 8, U8X_REPLACE, 0, U8X_BIG_ENDIAN);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  CHECK_BYTES(out, 4, "\x00" "a\x00\x00", 4);
  check_context("%s", "");
}

/* Hand-derived: escape writes lone low surrogates; a 4-byte sequence is a
 * pair in the right order; byte-order flags swap every unit. */
static void dec_by_hand(void) {
  uint16_t out[16];
  u8x_result r;
  check_context("decode by hand");
  /* "é" C3 A9 -> 00E9; "\xC3" alone -> DCC3 under escape */
  r = u8x_decode_utf16(LIT("\xC3\xA9\xC3"), out, 16, U8X_ESCAPE, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 3, 2, 0);
  CHECK(out[0] == 0x00E9 && out[1] == 0xDCC3);
  r = u8x_decode_utf16(LIT("\xC3\xA9\xC3"), out, 16, U8X_ESCAPE, 0, U8X_BIG_ENDIAN);
  CHECK_BYTES(out, 4, "\x00\xE9\xDC\xC3", 4);
  r = u8x_decode_utf16(LIT("\xC3\xA9\xC3"), out, 16, U8X_ESCAPE, 0, U8X_LITTLE_ENDIAN);
  CHECK_BYTES(out, 4, "\xE9\x00\xC3\xDC", 4);
  /* U+1D11E MUSICAL SYMBOL G CLEF: F0 9D 84 9E -> D834 DD1E */
  r = u8x_decode_utf16(LIT("\xF0\x9D\x84\x9E"), out, 16, U8X_STRICT, 0, U8X_BIG_ENDIAN);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 4, 2, 0);
  CHECK_BYTES(out, 4, "\xD8\x34\xDD\x1E", 4);
  r = u8x_decode_utf16(LIT("\xF0\x9D\x84\x9E"), out, 16, U8X_STRICT, 0, U8X_LITTLE_ENDIAN);
  CHECK_BYTES(out, 4, "\x34\xD8\x1E\xDD", 4);
  /* strict: stops at the error with what came before written */
  r = u8x_decode_utf16(LIT("ab\xED\xA0\x80"), out, 16, U8X_STRICT, 0, U8X_LITTLE_ENDIAN);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_SURROGATE, 2, 2, 1);
  CHECK_BYTES(out, 4, "a\x00" "b\x00", 4);
  /* U8X_MORE_INPUT: a cut 4-byte sequence stays unconsumed */
  r = u8x_decode_utf16(LIT("a\xF0\x9F\x98"), out, 16, U8X_STRICT, 0, U8X_MORE_INPUT | U8X_BIG_ENDIAN);
  CHECK_RESULT(r, U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 1, 1, 3);
  r = u8x_decode_utf16(LIT("a\xF0\x9F\x98"), out, 16, U8X_STRICT, 0, U8X_BIG_ENDIAN);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, 1, 1, 3);
  check_context("%s", "");
}

/* ======================================================================== */
/* Encoding UTF-16 to UTF-8                                                  */
/* ======================================================================== */

/* What encoding some units under one mode and order must give. */
struct ewant {
  const char *name;
  const uint16_t *src;    /* the units in memory, in the order asked for */
  const uint16_t *values; /* their values */
  size_t len;
  const uint8_t *out; /* the bytes written */
  size_t out_len;
  size_t stop; /* index of the unit that stops the encoder, or len */
};

/* src must have room for e->len units. */
static struct ewant ewant_python(const exp_enc16 *e, const struct mode *m, const struct order *o, uint16_t *src) {
  struct ewant w;
  w.name = e->name;
  w.values = e->units;
  w.len = e->len;
  /* the memory image Python made for LE and BE; the values for native */
  if (o->flag == U8X_LITTLE_ENDIAN)
    memcpy(src, e->le.bytes, e->le.len);
  else if (o->flag == U8X_BIG_ENDIAN)
    memcpy(src, e->be.bytes, e->be.len);
  else
    memcpy(src, e->units, e->len * sizeof *src);
  w.src = src;
  switch (m->index) {
    case E_STRICT:
      w.out = e->strict.bytes;
      w.out_len = e->strict.len;
      w.stop = e->strict_stop;
      break;
    case E_ESCAPE:
      w.out = e->escape.bytes;
      w.out_len = e->escape.len;
      w.stop = e->escape_stop;
      break;
    case E_REPLACE:
      w.out = e->replace.bytes;
      w.out_len = e->replace.len;
      w.stop = e->len;
      break;
    default:
      w.out = e->custom.bytes;
      w.out_len = e->custom.len;
      w.stop = e->len;
  }
  return w;
}

/* From the reference; src must hold len units, out 4 * len bytes. */
static struct ewant ewant_reference(const char *name, const uint16_t *values, size_t len, const struct mode *m,
                                    const struct order *o, uint16_t *src, uint8_t *out) {
  struct ewant w;
  u8x_result r = ref_encode_utf16(values, len, m->policy, m->replacement, 0, out);
  units_to_order(src, values, len, o->flag);
  w.name = name;
  w.src = src;
  w.values = values;
  w.len = len;
  w.out = out;
  w.out_len = r.written;
  w.stop = r.status == U8X_ILL_FORMED ? r.read : len;
  return w;
}

static void enc_check_whole_result(u8x_result r, const struct ewant *w) {
  if (w->stop < w->len)
    CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_SURROGATE, w->stop, w->out_len, 1);
  else
    CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, w->len, w->out_len, 0);
}

/* Whole, measured, and at each capacity in caps[0..n_caps) (every
 * capacity 0..size+1 if caps is NULL), resuming from src + read until done
 * or until a character longer than the capacity blocks the way. */
static void enc_check(const struct ewant *w, const struct mode *m, const struct order *o, const size_t *caps,
                      size_t n_caps) {
  size_t room = w->out_len + 16, ci, cap, i;
  uint8_t *dst, *got = (uint8_t *)malloc(w->out_len + 1);
  u8x_result r;
  for (ci = 0; caps && ci < n_caps; ci++)
    if (caps[ci] + 1 > room) room = caps[ci] + 1;
  dst = (uint8_t *)malloc(room);

  check_context("%s, %s, %s, whole", w->name, m->name, o->name);
  memset(dst, 0xA5, w->out_len + 16);
  r = u8x_encode_utf16(w->src, w->len, dst, w->out_len + 8, m->policy, m->replacement, o->flag);
  enc_check_whole_result(r, w);
  CHECK_BYTES(dst, r.written, w->out, w->out_len);
  CHECK_EQ(dst[w->out_len + 8], 0xA5);
  memset(dst, 0xA5, w->out_len + 16);
  r = u8x_encode_utf16(w->src, w->len, dst, w->out_len, m->policy, m->replacement, o->flag);
  enc_check_whole_result(r, w);
  CHECK_BYTES(dst, r.written, w->out, w->out_len);
  CHECK_EQ(dst[w->out_len], 0xA5);
  if (m->replacement < 0x10000) CHECK(w->out_len <= u8x_encode_utf16_bound(w->len));

  check_context("%s, %s, %s, measuring", w->name, m->name, o->name);
  enc_check_whole_result(u8x_encode_utf16(w->src, w->len, NULL, 0, m->policy, m->replacement, o->flag), w);

  for (ci = 0; caps ? ci < n_caps : ci <= w->out_len + 1; ci++) {
    size_t off = 0, got_len = 0, calls = 0;
    int stuck = 0;
    cap = caps ? caps[ci] : ci;
    check_context("%s, %s, %s, capacity %u", w->name, m->name, o->name, (unsigned)cap);
    for (;;) {
      size_t expect = 0, units = 0;
      memset(dst, 0xA5, cap + 1);
      r = u8x_encode_utf16(w->len > off ? w->src + off : NULL, w->len - off, dst, cap, m->policy, m->replacement,
                           o->flag);
      CHECK_EQ(dst[cap], 0xA5);
      if (!CHECK(r.written <= cap && off + r.read <= w->len && got_len + r.written <= w->out_len)) break;
      memcpy(got + got_len, dst, r.written);
      /* whole characters only: the bytes are exactly those of the units
       * consumed, and no pair was cut */
      for (i = off; i < off + r.read; i += units)
        expect += ref_char16_bytes(w->values, w->len, i, m->policy, m->replacement, &units);
      CHECK_EQ(i, off + r.read);
      CHECK_EQ(r.written, expect);
      got_len += r.written;
      off += r.read;
      if (r.status != U8X_OUTPUT_FULL) break;
      /* full: the next character's bytes do not fit in what is left */
      CHECK(off < w->len && cap - r.written < ref_char16_bytes(w->values, w->len, off, m->policy, m->replacement, &units));
      CHECK_EQ(r.error, U8X_ERR_NONE);
      CHECK_EQ(r.error_len, 0);
      if (r.read == 0) {
        stuck = 1;
        CHECK_EQ(r.written, 0);
        break;
      }
      if (++calls > w->len + 1) {
        CHECK(!"no progress");
        break;
      }
    }
    if (stuck) {
      CHECK(cap < 4);
      CHECK_BYTES(got, got_len, w->out, got_len < w->out_len ? got_len : w->out_len);
    } else if (w->stop < w->len) {
      CHECK_EQ(r.status, U8X_ILL_FORMED);
      CHECK_EQ(r.error, U8X_ERR_SURROGATE);
      CHECK_EQ(r.error_len, 1);
      CHECK_EQ(off, w->stop);
      CHECK_BYTES(got, got_len, w->out, w->out_len);
    } else {
      CHECK_EQ(r.status, U8X_OK);
      CHECK_EQ(off, w->len);
      CHECK_BYTES(got, got_len, w->out, w->out_len);
    }
  }
  check_context("%s", "");
  free(dst);
  free(got);
}

/* Two calls, split at unit `at`, the first with U8X_MORE_INPUT: a high
 * surrogate ending it is left for the second (U8X_INCOMPLETE, error_len
 * 1); together they give the one-shot output. */
static void enc_split(const struct ewant *w, const struct mode *m, const struct order *o, size_t at) {
  size_t cap = 4 * w->len + 4;
  uint8_t *dst = (uint8_t *)malloc(2 * cap);
  u8x_result a, b;
  check_context("%s, %s, %s, split at %u", w->name, m->name, o->name, (unsigned)at);
  a = u8x_encode_utf16(at ? w->src : NULL, at, dst, cap, m->policy, m->replacement, o->flag | U8X_MORE_INPUT);
  if (a.status == U8X_ILL_FORMED) {
    CHECK_EQ(a.read, w->stop);
    CHECK_EQ(a.error, U8X_ERR_SURROGATE);
    CHECK_EQ(a.error_len, 1);
    CHECK_BYTES(dst, a.written, w->out, w->out_len);
  } else {
    if (a.status == U8X_INCOMPLETE) {
      CHECK_RESULT(a, U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, at - 1, a.written, 1);
      CHECK(at > 0 && is_high_surrogate(w->values[at - 1]));
    } else {
      CHECK_RESULT(a, U8X_OK, U8X_ERR_NONE, at, a.written, 0);
      CHECK(at == 0 || !is_high_surrogate(w->values[at - 1]));
    }
    b = u8x_encode_utf16(w->len > a.read ? w->src + a.read : NULL, w->len - a.read, dst + a.written, cap, m->policy,
                         m->replacement, o->flag);
    if (w->stop < w->len)
      CHECK_RESULT(b, U8X_ILL_FORMED, U8X_ERR_SURROGATE, w->stop - a.read, w->out_len - a.written, 1);
    else
      CHECK_RESULT(b, U8X_OK, U8X_ERR_NONE, w->len - a.read, w->out_len - a.written, 0);
    CHECK_BYTES(dst, a.written + b.written, w->out, w->out_len);
  }
  check_context("%s", "");
  free(dst);
}

/* Every prefix, flags 0 and U8X_MORE_INPUT: encode (with a buffer and
 * measuring) and validate against the reference. */
static void enc_prefixes(const struct ewant *w, const struct mode *m, const struct order *o) {
  size_t k;
  int more;
  uint8_t *want = (uint8_t *)malloc(4 * w->len + 4), *got = (uint8_t *)malloc(4 * w->len + 4);
  for (k = 0; k <= w->len; k++) {
    for (more = 0; more <= 1; more++) {
      uint32_t flags = o->flag | (more ? U8X_MORE_INPUT : 0);
      u8x_result e = ref_encode_utf16(w->values, k, m->policy, m->replacement, more, want), r;
      u8x_result v = ref_validate_utf16(w->values, k, more);
      check_context("%s, %s, %s, first %u units, flags %u", w->name, m->name, o->name, (unsigned)k, (unsigned)flags);
      r = u8x_encode_utf16(k ? w->src : NULL, k, got, 4 * w->len + 4, m->policy, m->replacement, flags);
      CHECK_RESULT(r, e.status, e.error, e.read, e.written, e.error_len);
      CHECK_BYTES(got, r.written, want, e.written);
      r = u8x_encode_utf16(k ? w->src : NULL, k, NULL, 0, m->policy, m->replacement, flags);
      CHECK_RESULT(r, e.status, e.error, e.read, e.written, e.error_len);
      CHECK_RESULT(u8x_validate_utf16(k ? w->src : NULL, k, flags), v.status, v.error, v.read, 0, v.error_len);
    }
  }
  check_context("%s", "");
  free(want);
  free(got);
}

static void enc_cases(void) {
  size_t i, j, o, k;
  for (i = 0; i < EXP_ENC16_CASES; i++) {
    const exp_enc16 *e = &exp_enc16_cases[i];
    uint16_t *src = (uint16_t *)malloc((e->len + 1) * sizeof *src);
    for (o = 0; o < COUNT_OF(orders); o++) {
      for (j = 0; j < COUNT_OF(enc_modes); j++) {
        struct ewant w = ewant_python(e, &enc_modes[j], &orders[o], src);
        enc_check(&w, &enc_modes[j], &orders[o], NULL, 0);
        for (k = 0; k <= w.len; k++) enc_split(&w, &enc_modes[j], &orders[o], k);
        enc_prefixes(&w, &enc_modes[j], &orders[o]);
      }
      /* validate: OK, or the strict stop (a surrogate, one unit) */
      check_context("%s, %s, validate", e->name, orders[o].name);
      if (e->strict_stop < e->len)
        CHECK_RESULT(u8x_validate_utf16(src, e->len, orders[o].flag), U8X_ILL_FORMED, U8X_ERR_SURROGATE,
                     e->strict_stop, 0, 1);
      else
        CHECK_RESULT(u8x_validate_utf16(src, e->len, orders[o].flag), U8X_OK, U8X_ERR_NONE, e->len, 0, 0);
      /* well-formed: the size without checks is the strict size */
      if (e->strict_stop == e->len) CHECK_EQ(u8x_encoded_len_utf16_valid(src, e->len, orders[o].flag), e->strict.len);
    }
    check_context("%s", "");
    free(src);
    printf("encode %-16s %2u units: every policy, order, capacity, split point and prefix\n", e->name,
           (unsigned)e->len);
  }
}

static void enc_reference_matches_python(void) {
  size_t i, j;
  for (i = 0; i < EXP_ENC16_CASES; i++) {
    const exp_enc16 *e = &exp_enc16_cases[i];
    uint16_t *src = (uint16_t *)malloc((e->len + 1) * sizeof *src);
    uint8_t *out = (uint8_t *)malloc(4 * e->len + 4);
    for (j = 0; j < COUNT_OF(enc_modes); j++) {
      struct ewant py = ewant_python(e, &enc_modes[j], &orders[0], src);
      struct ewant ref = ewant_reference(e->name, e->units, e->len, &enc_modes[j], &orders[0], src, out);
      check_context("forms.h vs Python: %s, %s", e->name, enc_modes[j].name);
      CHECK_BYTES(ref.out, ref.out_len, py.out, py.out_len);
      CHECK_EQ(ref.stop, py.stop);
    }
    check_context("forms.h vs Python: %s, validate", e->name);
    CHECK_EQ(ref_validate_utf16(e->units, e->len, 0).read, e->strict_stop);
    free(src);
    free(out);
  }
  check_context("%s", "");
  printf("encode: forms.h agrees with Python on every case and policy\n");
}

/* Hand-derived: the header's examples. */
static void enc_by_hand(void) {
  static const uint16_t trailing[] = {0x61, 0xD83D};
  static const uint16_t completed[] = {0xD83D, 0xDE00};
  static const uint16_t lone_low_end[] = {0x61, 0xDE00};
  uint8_t out[16];
  u8x_result r;
  check_context("encode by hand");
  /* a high surrogate ending the input, more to come: not consumed */
  r = u8x_encode_utf16(trailing, 2, out, 16, U8X_STRICT, 0, U8X_MORE_INPUT);
  CHECK_RESULT(r, U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 1, 1, 1);
  CHECK_EQ(out[0], 'a');
  CHECK_RESULT(u8x_encode_utf16(trailing, 2, NULL, 0, U8X_REPLACE, 0xFFFD, U8X_MORE_INPUT), U8X_INCOMPLETE,
               U8X_ERR_END_OF_INPUT, 1, 1, 1);
  CHECK_RESULT(u8x_encode_utf16(trailing, 2, out, 16, U8X_ESCAPE, 0, U8X_MORE_INPUT), U8X_INCOMPLETE,
               U8X_ERR_END_OF_INPUT, 1, 1, 1);
  CHECK_RESULT(u8x_validate_utf16(trailing, 2, U8X_MORE_INPUT), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 1, 0, 1);
  /* ... and then completed: U+1F600, F0 9F 98 80 */
  r = u8x_encode_utf16(completed, 2, out, 16, U8X_STRICT, 0, U8X_MORE_INPUT);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 4, 0);
  CHECK_BYTES(out, 4, "\xF0\x9F\x98\x80", 4);
  /* the last chunk: unpaired */
  r = u8x_encode_utf16(trailing, 2, out, 16, U8X_STRICT, 0, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 1, 1);
  CHECK_RESULT(u8x_validate_utf16(trailing, 2, 0), U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 0, 1);
  r = u8x_encode_utf16(trailing, 2, out, 16, U8X_REPLACE, 0xFFFD, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 4, 0);
  CHECK_BYTES(out, 4, "a\xEF\xBF\xBD", 4);
  r = u8x_encode_utf16(trailing, 2, out, 16, U8X_ESCAPE, 0, 0);
  CHECK_RESULT(r, U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 1, 1);
  /* a low surrogate at the end is never incomplete */
  CHECK_RESULT(u8x_encode_utf16(lone_low_end, 2, out, 16, U8X_STRICT, 0, U8X_MORE_INPUT), U8X_ILL_FORMED,
               U8X_ERR_SURROGATE, 1, 1, 1);
  CHECK_RESULT(u8x_validate_utf16(lone_low_end, 2, U8X_MORE_INPUT), U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1, 0, 1);
  /* the replacement may be U+0000, or any scalar */
  r = u8x_encode_utf16(lone_low_end, 2, out, 16, U8X_REPLACE, 0, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 2, 0);
  CHECK_BYTES(out, 2, "a\0", 2);
  r = u8x_encode_utf16(lone_low_end, 2, out, 16, U8X_REPLACE, 0x10FFFF, 0);
  CHECK_RESULT(r, U8X_OK, U8X_ERR_NONE, 2, 5, 0);
  CHECK_BYTES(out, 5, "a\xF4\x8F\xBF\xBF", 5);
  /* a pair is one character: never CESU-8's two 3-byte halves, and a pair
   * cut by the capacity is left whole */
  r = u8x_encode_utf16(completed, 2, out, 3, U8X_STRICT, 0, 0);
  CHECK_RESULT(r, U8X_OUTPUT_FULL, U8X_ERR_NONE, 0, 0, 0);
  check_context("%s", "");
}

/* Every surrogate unpaired, between two letters, under every policy. */
static void every_surrogate(void) {
  uint32_t s;
  for (s = 0xD800; s <= 0xDFFF; s++) {
    uint16_t in[3];
    uint8_t out[16];
    size_t o;
    in[0] = 'x';
    in[1] = (uint16_t)s;
    in[2] = 'y';
    for (o = 0; o < COUNT_OF(orders); o++) {
      uint16_t src[3];
      units_to_order(src, in, 3, orders[o].flag);
      check_context("surrogate 0x%lX, %s", (unsigned long)s, orders[o].name);
      CHECK_RESULT(u8x_encode_utf16(src, 3, out, 16, U8X_STRICT, 0, orders[o].flag), U8X_ILL_FORMED, U8X_ERR_SURROGATE,
                   1, 1, 1);
      CHECK_RESULT(u8x_encode_utf16(src, 3, NULL, 0, U8X_STRICT, 0, orders[o].flag), U8X_ILL_FORMED,
                   U8X_ERR_SURROGATE, 1, 1, 1);
      CHECK_RESULT(u8x_validate_utf16(src, 3, orders[o].flag | U8X_MORE_INPUT), U8X_ILL_FORMED, U8X_ERR_SURROGATE, 1,
                   0, 1);
      CHECK_RESULT(u8x_encode_utf16(src, 3, out, 16, U8X_REPLACE, 0xFFFD, orders[o].flag), U8X_OK, U8X_ERR_NONE, 3, 5,
                   0);
      CHECK_BYTES(out, 5, "x\xEF\xBF\xBDy", 5);
      if (s >= 0xDC80 && s <= 0xDCFF) {
        CHECK_RESULT(u8x_encode_utf16(src, 3, out, 16, U8X_ESCAPE, 0, orders[o].flag), U8X_OK, U8X_ERR_NONE, 3, 3, 0);
        CHECK_EQ(out[1], s - 0xDC00);
      } else {
        CHECK_RESULT(u8x_encode_utf16(src, 3, out, 16, U8X_ESCAPE, 0, orders[o].flag), U8X_ILL_FORMED,
                     U8X_ERR_SURROGATE, 1, 1, 1);
      }
      /* at the end, with more input: only a high one waits */
      if (is_high_surrogate(s))
        CHECK_RESULT(u8x_encode_utf16(src, 2, out, 16, U8X_STRICT, 0, orders[o].flag | U8X_MORE_INPUT), U8X_INCOMPLETE,
                     U8X_ERR_END_OF_INPUT, 1, 1, 1);
      else
        CHECK_RESULT(u8x_encode_utf16(src, 2, out, 16, U8X_STRICT, 0, orders[o].flag | U8X_MORE_INPUT), U8X_ILL_FORMED,
                     U8X_ERR_SURROGATE, 1, 1, 1);
    }
  }
  check_context("%s", "");
  printf("every surrogate unpaired, every policy and order\n");
}

/* Long random unit strings (the chunked path: 1024 code points a chunk,
 * 16-unit blocks) against the reference. */
static void enc_long_inputs(void) {
  /* (small capacities only on shorter strings: each call gathers a chunk) */
  static const size_t caps[] = {0, 1, 2, 3, 4, 5, 63, 64, 65, 200, 1023, 1024, 1025, 3071, 3072, 3073};
  uint32_t state = 65521;
  unsigned t;
  for (t = 0; t < 36; t++) {
    size_t n = ref_rand(&state) % (t % 3 == 0 ? 3000 : 900), j, k;
    uint16_t *values = (uint16_t *)malloc((n + 1) * sizeof *values);
    uint16_t *src = (uint16_t *)malloc((n + 1) * sizeof *src);
    uint8_t *out = (uint8_t *)malloc(4 * n + 4);
    const struct order *o = &orders[t % 3];
    char name[40];
    ref_random_units(values, n, t % 4 == 0 ? 0 : 5 + 7 * t, &state);
    sprintf(name, "random units #%u", t);
    for (j = 0; j < COUNT_OF(enc_modes); j++) {
      struct ewant w = ewant_reference(name, values, n, &enc_modes[j], o, src, out);
      /* light: the capacities under 63 only on the first 12 strings (every
       * t % 3 order with every t % 4 damage), a quarter of the splits */
      if (n < 1000 && !(light && t >= 12))
        enc_check(&w, &enc_modes[j], o, caps, COUNT_OF(caps));
      else
        enc_check(&w, &enc_modes[j], o, caps + 6, COUNT_OF(caps) - 6);
      for (k = 0; k <= n; k += (1 + k % 31) * (light ? 4 : 1)) enc_split(&w, &enc_modes[j], o, k);
    }
    {
      u8x_result v = ref_validate_utf16(values, n, 0);
      check_context("%s, %s, validate", name, o->name);
      CHECK_RESULT(u8x_validate_utf16(n ? src : NULL, n, o->flag), v.status, v.error, v.read, 0, v.error_len);
      if (v.status == U8X_OK) CHECK_EQ(u8x_encoded_len_utf16_valid(n ? src : NULL, n, o->flag), ref_encode_utf16(values, n, U8X_STRICT, 0, 0, out).written);
    }
    free(values);
    free(src);
    free(out);
  }
  check_context("%s", "");
  printf("encode long inputs: 36 random unit strings, every policy%s\n", CHECK_SAMPLED);
}

/* One unpaired surrogate at each position of a long well-formed string
 * (pairs before it: the index is in units, not characters), for encode
 * and validate, around 16-unit blocks and 1024-code-point chunks. */
static void surrogate_everywhere(void) {
  static const uint16_t bad[] = {0xD800, 0xDBFF, 0xDC00, 0xDCC3, 0xDFFF};
  enum { N = 2200 };
  uint16_t *base = (uint16_t *)malloc(N * sizeof *base), *values = (uint16_t *)malloc(N * sizeof *values);
  uint16_t *src = (uint16_t *)malloc(N * sizeof *src);
  uint8_t *want = (uint8_t *)malloc(4 * N), *got = (uint8_t *)malloc(4 * N);
  uint32_t state = 31;
  size_t p, b, j;
  unsigned long calls = 0;
  ref_random_units(base, N, 0, &state);
  for (p = 0; p < N; p += p < 70 || (p > 980 && p < 1100) || p > 2100 ? 1 : 37) {
    const struct order *o = &orders[p % 3];
    for (b = 0; b < COUNT_OF(bad); b++) {
      u8x_result v;
      /* light: every position still, two of the five surrogates at each
       * (high and low in turn), each surrogate at every fifth position */
      if (light && b != p % 5 && b != (p + 2) % 5) continue;
      memcpy(values, base, N * sizeof *values);
      values[p] = bad[b];
      units_to_order(src, values, N, o->flag);
      check_context("surrogate 0x%X at %u, %s", (unsigned)bad[b], (unsigned)p, o->name);
      v = ref_validate_utf16(values, N, 0);
      CHECK_RESULT(u8x_validate_utf16(src, N, o->flag), v.status, v.error, v.read, 0, v.error_len);
      for (j = 0; j < COUNT_OF(enc_modes); j++) {
        u8x_result w = ref_encode_utf16(values, N, enc_modes[j].policy, enc_modes[j].replacement, 0, want);
        u8x_result r = u8x_encode_utf16(src, N, got, 4 * N, enc_modes[j].policy, enc_modes[j].replacement, o->flag);
        CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
        CHECK_BYTES(got, r.written, want, w.written);
        r = u8x_encode_utf16(src, N, NULL, 0, enc_modes[j].policy, enc_modes[j].replacement, o->flag);
        CHECK_RESULT(r, w.status, w.error, w.read, w.written, w.error_len);
        calls += 2;
      }
    }
  }
  check_context("%s", "");
  printf("surrogate everywhere: %lu encodes%s\n", calls, CHECK_SAMPLED);
  free(base);
  free(values);
  free(src);
  free(want);
  free(got);
}

/* ======================================================================== */
/* Both ways, sizes, bounds                                                 */
/* ======================================================================== */

/* U8X_ESCAPE: any bytes decode to UTF-16 and encode back to themselves, in
 * every order; Python's escape images encode back to the inputs. */
static void escape_round_trip(void) {
  uint8_t in[80], back[80 * 3];
  uint16_t units[80];
  unsigned t;
  size_t i;
  uint32_t state = 4711;
  /* light: 500 of them (still every length 0..79) */
  for (t = 0; t < (light ? 500u : 3000u); t++) {
    size_t n = ref_rand(&state) % 80;
    const struct order *o = &orders[t % 3];
    u8x_result d, e;
    for (i = 0; i < n; i++) {
      uint32_t x = ref_rand(&state);
      in[i] = (uint8_t)(x % 4 == 0 ? ((x >> 3) & 0x7F) : (0x80 | ((x >> 3) & 0x7F)));
    }
    check_context("escape round trip #%u, %s", t, o->name);
    d = u8x_decode_utf16(n ? in : NULL, n, units, 80, U8X_ESCAPE, 0, o->flag);
    CHECK_RESULT(d, U8X_OK, U8X_ERR_NONE, n, d.written, 0);
    e = u8x_encode_utf16(d.written ? units : NULL, d.written, back, sizeof back, U8X_ESCAPE, 0, o->flag);
    CHECK_RESULT(e, U8X_OK, U8X_ERR_NONE, d.written, n, 0);
    CHECK_BYTES(back, e.written, in, n);
  }
  for (i = 0; i < EXP_DEC16_CASES; i++) {
    const exp_dec16 *c = &exp_dec16_cases[i];
    uint16_t *src = (uint16_t *)malloc((c->out[2].len + 1) * sizeof *src);
    uint8_t *out = (uint8_t *)malloc(3 * c->out[2].len + 1);
    size_t o;
    for (o = 0; o < COUNT_OF(orders); o++) {
      u8x_result e;
      memcpy(src, o == 1 ? c->le[2].bytes : o == 2 ? c->be[2].bytes : (const uint8_t *)c->out[2].units, c->le[2].len);
      check_context("escape round trip of %s, %s", c->name, orders[o].name);
      e = u8x_encode_utf16(src, c->out[2].len, out, 3 * c->out[2].len + 1, U8X_ESCAPE, 0, orders[o].flag);
      CHECK_RESULT(e, U8X_OK, U8X_ERR_NONE, c->out[2].len, c->input.len, 0);
      CHECK_BYTES(out, e.written, c->input.bytes, c->input.len);
    }
    free(src);
    free(out);
  }
  check_context("%s", "");
  printf("escape: %s random byte strings and every Python case round-trip through UTF-16%s\n", light ? "500" : "3000",
         CHECK_SAMPLED);
}

/* The sizes of valid text, without checks. */
static void valid_sizes(void) {
  size_t i, n, o;
  uint32_t state = 99;
  unsigned t;
  /* Python's well-formed cases */
  for (i = 0; i < EXP_DEC16_CASES; i++) {
    const exp_dec16 *c = &exp_dec16_cases[i];
    if (c->stops) continue;
    check_context("count_utf16_valid, %s", c->name);
    CHECK_EQ(u8x_count_utf16_valid(c->input.bytes, c->input.len), c->out[0].len);
  }
  /* random well-formed texts and unit strings, against the reference */
  for (t = 0; t < 100; t++) {
    uint8_t s[3000];
    uint16_t values[1500], src[1500], u16[6000];
    uint8_t utf8[6000];
    u8x_result r;
    n = ref_random_text(s, ref_rand(&state) % 3000, 0, &state);
    r = ref_decode_utf16(s, n, U8X_STRICT, 0, 0, u16);
    check_context("count_utf16_valid, random text #%u", t);
    CHECK_EQ(u8x_count_utf16_valid(n ? s : NULL, n), r.written);
    n = ref_rand(&state) % 1500;
    ref_random_units(values, n, 0, &state);
    r = ref_encode_utf16(values, n, U8X_STRICT, 0, 0, utf8);
    o = t % 3;
    units_to_order(src, values, n, orders[o].flag);
    check_context("encoded_len_utf16_valid, random units #%u, %s", t, orders[o].name);
    CHECK_EQ(r.status, U8X_OK);
    CHECK_EQ(u8x_encoded_len_utf16_valid(n ? src : NULL, n, orders[o].flag), r.written);
  }
  /* long enough for the per-lane counters to be folded many times */
  {
    size_t big = 21845 * 16 * 2 + 37;
    uint16_t *u = (uint16_t *)malloc(big * sizeof *u);
    uint8_t *s = (uint8_t *)malloc(4 * big);
    for (i = 0; i < big; i++) u[i] = 0xFFFF; /* 3 bytes each: the most a lane adds */
    for (o = 0; o < COUNT_OF(orders); o++) {
      check_context("encoded_len_utf16_valid, %u x U+FFFF, %s", (unsigned)big, orders[o].name);
      CHECK_EQ(u8x_encoded_len_utf16_valid(u, big, orders[o].flag), 3 * big);
    }
    for (i = 0; i + 1 < big; i += 2) {
      u[i] = 0xDBFF;
      u[i + 1] = 0xDFFF;
    }
    u[big - 1] = 0x7F;
    check_context("encoded_len_utf16_valid, pairs");
    CHECK_EQ(u8x_encoded_len_utf16_valid(u, big, 0), 2 * (big - 1) + 1);
    /* swapped: DBFF reads as FFDB, DFFF as FFDF, 7F as 7F00 */
    CHECK_EQ(u8x_encoded_len_utf16_valid(u, big, host_is_little_endian() ? U8X_BIG_ENDIAN : U8X_LITTLE_ENDIAN),
             3 * big);
    for (i = 0; i < 4 * big; i++) s[i] = "\xF0\x9F\x98\x80"[i % 4];
    check_context("count_utf16_valid, %u 4-byte characters", (unsigned)big);
    CHECK_EQ(u8x_count_utf16_valid(s, 4 * big), 2 * big);
    memset(s, 'a', 4 * big);
    CHECK_EQ(u8x_count_utf16_valid(s, 4 * big), 4 * big);
    free(u);
    free(s);
  }
  /* defined (not bad arguments) on input that is not well-formed */
  {
    static const uint16_t lone[] = {0xD800, 0x41, 0xDC00};
    check_context("sizes of ill-formed input");
    CHECK(u8x_count_utf16_valid(LIT("\xFF\x80\xF0")) != U8X_BAD_SIZE);
    CHECK(u8x_encoded_len_utf16_valid(lone, 3, 0) != U8X_BAD_SIZE);
  }
  check_context("sizes of nothing");
  CHECK_EQ(u8x_count_utf16_valid(NULL, 0), 0);
  CHECK_EQ(u8x_encoded_len_utf16_valid(NULL, 0, 0), 0);
  CHECK_EQ(u8x_encoded_len_utf16_valid(NULL, 0, U8X_BIG_ENDIAN), 0);
  check_context("%s", "");
  printf("count_utf16_valid, encoded_len_utf16_valid: Python's cases, 100 random texts, folded counters\n");
}

static void bounds(void) {
  CHECK_EQ(u8x_decode_utf16_bound(0), 0);
  CHECK_EQ(u8x_decode_utf16_bound(1), 1);
  CHECK_EQ(u8x_decode_utf16_bound(12345), 12345);
  CHECK_EQ(u8x_decode_utf16_bound(SIZE_MAX), SIZE_MAX);
  CHECK_EQ(u8x_encode_utf16_bound(0), 0);
  CHECK_EQ(u8x_encode_utf16_bound(1), 3);
  CHECK_EQ(u8x_encode_utf16_bound(1000), 3000);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX / 3), SIZE_MAX / 3 * 3);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX / 3 + 1), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX / 2), U8X_BAD_SIZE);
  CHECK_EQ(u8x_encode_utf16_bound(SIZE_MAX), U8X_BAD_SIZE);
  printf("bounds: 1 unit per byte, 3 bytes per unit, U8X_BAD_SIZE on overflow\n");
}

int main(void) {
  check_begin("utf16");
  light = check_light();
  CHECK_RESULT(u8x_decode_utf16(NULL, 0, NULL, 0, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_encode_utf16(NULL, 0, NULL, 0, U8X_STRICT, 0, U8X_MORE_INPUT | U8X_BIG_ENDIAN), U8X_OK,
               U8X_ERR_NONE, 0, 0, 0);
  CHECK_RESULT(u8x_validate_utf16(NULL, 0, U8X_LITTLE_ENDIAN), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
  dec_reference_matches_python();
  enc_reference_matches_python();
  dec_cases();
  dec_by_hand();
  supplementary_replacement();
  dec_long_texts();
  enc_cases();
  enc_by_hand();
  every_surrogate();
  enc_long_inputs();
  surrogate_everywhere();
  all_scalars();
  escape_round_trip();
  valid_sizes();
  bounds();
  return check_done();
}
