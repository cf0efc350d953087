/* The preload library's functions against glibc's own, in one process,
 * under setlocale(LC_ALL, "C.UTF-8"): glibc's from the libc.so.6 handle,
 * the preload's from dlopen(argv[1]). Every call's return value, errno,
 * output and the whole 8-byte mbstate_t are compared. Inputs: every 1-, 2-
 * and 3-byte input (mbrtowc byte by byte and in bulk;
 * mbrlen, mbrtoc32, mbrtoc16 and mbrtoc8 on every 1- and 2-byte input and
 * every 3-byte input with a lead C2..F4), pseudo-random 4- to 8-byte
 * inputs, curated strings and random texts for the string functions with
 * every len and nmc, bytes pending in the state; every wide character for
 * wcrtomb, c32rtomb, wctomb, wctob and every UTF-16 unit and pair for
 * c16rtomb, every byte sequence of up to 3 bytes for c8rtomb; the state
 * handed over between the two in both directions.
 *
 * Where glibc 2.36 differs from RFC 3629 the preload keeps RFC 3629
 * (preload/README.md), and the test asserts the preload's answer instead,
 * checked against the independent reference segmenter (c-tests/ref.h),
 * counting each kind; every kind must be met, so the list cannot go stale:
 * D1 F4 90..BF and leads F5..FD: glibc reads on (-2, then values above
 *    U+10FFFF); the preload: EILSEQ at the byte that rules a character out.
 * D2 overlong and surrogate prefixes (E0 80..9F, F0 80..8F, ED A0..BF):
 *    glibc -2 until the sequence is complete; the preload: EILSEQ at the
 *    second byte.
 * D3 after EILSEQ glibc's state may keep bytes (mbsinit 0); the preload's
 *    is initial.
 * D4 wcrtomb/c32rtomb/wctomb of 0x110000..0x7FFFFFFF: glibc writes 4 to 6
 *    bytes; the preload: EILSEQ, nothing written.
 * D5 mbsrtowcs/mbsnrtowcs where glibc's window cuts an ill-formed
 *    sequence: glibc keeps its first bytes in the state (and *src past
 *    them); the preload: EILSEQ, *src at the sequence.
 * With the preload loaded by LD_PRELOAD too (run.sh runs it both ways), the
 * program's own references must reach the preload's definitions. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

#include "check.h"
#include "ref.h"

#define FAIL ((size_t)-1)
#define MORE ((size_t)-2)
#define HALF ((size_t)-3)
#define SENT 0x5A5A5A5Au

typedef unsigned char c8_t;
struct impl {
  size_t (*mbrtowc)(wchar_t *, const char *, size_t, mbstate_t *);
  size_t (*mbrlen)(const char *, size_t, mbstate_t *);
  size_t (*mbrtoc32)(char32_t *, const char *, size_t, mbstate_t *);
  size_t (*mbrtoc16)(char16_t *, const char *, size_t, mbstate_t *);
  size_t (*mbrtoc8)(c8_t *, const char *, size_t, mbstate_t *);
  size_t (*mbsrtowcs)(wchar_t *, const char **, size_t, mbstate_t *);
  size_t (*mbsnrtowcs)(wchar_t *, const char **, size_t, size_t, mbstate_t *);
  size_t (*mbstowcs)(wchar_t *, const char *, size_t);
  size_t (*wcrtomb)(char *, wchar_t, mbstate_t *);
  size_t (*wcsrtombs)(char *, const wchar_t **, size_t, mbstate_t *);
  size_t (*wcsnrtombs)(char *, const wchar_t **, size_t, size_t, mbstate_t *);
  size_t (*wcstombs)(char *, const wchar_t *, size_t);
  size_t (*c16rtomb)(char *, char16_t, mbstate_t *);
  size_t (*c32rtomb)(char *, char32_t, mbstate_t *);
  size_t (*c8rtomb)(char *, c8_t, mbstate_t *);
  int (*mblen)(const char *, size_t);
  int (*mbtowc)(wchar_t *, const char *, size_t);
  int (*wctomb)(char *, wchar_t);
  wint_t (*btowc)(int);
  int (*wctob)(wint_t);
  int (*mbsinit)(const mbstate_t *);
};
static struct impl P, G; /* preload, glibc */

enum { D1, D2, D3, D4, D5, D_KINDS };
static const char *const diff_names[D_KINDS] = {"D1 above U+10FFFF", "D2 overlong/surrogate prefix",
                                                "D3 state after EILSEQ", "D4 encoding above U+10FFFF",
                                                "D5 *src and state after EILSEQ in a window"};
static unsigned long diffs[D_KINDS], calls;
static int exhaustive, quick;

static void *sym(void *h, const char *name) {
  void *p = dlsym(h, name);
  if (p == NULL) {
    fprintf(stderr, "differential: %s not found: %s\n", name, dlerror());
    exit(2);
  }
  return p;
}

#define LOAD(x, h, f) (x)->f = (__typeof__((x)->f))sym(h, #f)
static void load(struct impl *x, void *h) {
  LOAD(x, h, mbrtowc); LOAD(x, h, mbrlen); LOAD(x, h, mbrtoc32); LOAD(x, h, mbrtoc16); LOAD(x, h, mbrtoc8);
  LOAD(x, h, mbsrtowcs); LOAD(x, h, mbsnrtowcs); LOAD(x, h, mbstowcs); LOAD(x, h, wcrtomb);
  LOAD(x, h, wcsrtombs); LOAD(x, h, wcsnrtombs); LOAD(x, h, wcstombs); LOAD(x, h, c16rtomb);
  LOAD(x, h, c32rtomb); LOAD(x, h, c8rtomb); LOAD(x, h, mblen); LOAD(x, h, mbtowc); LOAD(x, h, wctomb);
  LOAD(x, h, btowc); LOAD(x, h, wctob); LOAD(x, h, mbsinit);
}

static int same_state(const mbstate_t *a, const mbstate_t *b) { return memcmp(a, b, sizeof *a) == 0; }

/* What a state means: __count, and __value while __count says it holds
 * something. glibc's string functions leave stale bits in __value of an
 * initial state (a character its window cut, finished later), which no
 * function reads; the single-character functions are held to all 8 bytes. */
static int same_meaning(const mbstate_t *a, const mbstate_t *b) {
  return a->__count == b->__count && (a->__count == 0 || a->__value.__wch == b->__value.__wch);
}

/* Whether glibc still reads the ill-formed maximal subpart `seg` at `s` as
 * (the start of) a character: the kind of difference, or -1. */
static int glibc_lenient(const uint8_t *s, struct ref_segment seg) {
  if (s[0] >= 0xF5 && s[0] <= 0xFD) return D1;
  if (seg.error == U8X_ERR_ABOVE_MAX) return D1;
  if (seg.error == U8X_ERR_OVERLONG || seg.error == U8X_ERR_SURROGATE) return D2;
  return -1;
}

/* ---- one character at a time --------------------------------------------- */

enum fn { F_MBRTOWC, F_MBRLEN, F_MBRTOC32, F_MBRTOC16, F_MBRTOC8, F_MBTOWC, F_MBLEN, F_COUNT };
static const char *const fn_names[F_COUNT] = {"mbrtowc", "mbrlen", "mbrtoc32", "mbrtoc16",
                                              "mbrtoc8", "mbtowc", "mblen"};

static size_t call1(const struct impl *x, enum fn f, const char *s, size_t n, mbstate_t *st, uint32_t *out) {
  wchar_t wc = (wchar_t)SENT;
  char32_t c32 = SENT;
  char16_t c16 = 0x5A5A;
  c8_t c8 = 0x5A;
  size_t r;
  switch (f) {
    case F_MBRTOWC: r = x->mbrtowc(&wc, s, n, st); *out = (uint32_t)wc; return r;
    case F_MBRLEN: *out = 0; return x->mbrlen(s, n, st);
    case F_MBRTOC32: r = x->mbrtoc32(&c32, s, n, st); *out = c32; return r;
    case F_MBRTOC16: r = x->mbrtoc16(&c16, s, n, st); *out = c16; return r;
    case F_MBRTOC8: r = x->mbrtoc8(&c8, s, n, st); *out = c8; return r;
    case F_MBTOWC: { int i = x->mbtowc(&wc, s, n); *out = (uint32_t)wc; return (size_t)(long)i; }
    default: *out = 0; return (size_t)(long)x->mblen(s, n);
  }
}

/* A caller reading `in` with function f, `chunk` bytes at most per call,
 * the preload and glibc side by side; on (size_t)-1 it resets both states
 * and goes on from the byte after the start of the failed character. The
 * preload's answers drive the caller. */
static void feed(enum fn f, const uint8_t *in, size_t len, size_t chunk) {
  mbstate_t ps, gs;
  size_t pos = 0, seq = 0, held = 0;
  uint8_t held_bytes[8];
  memset(&ps, 0, sizeof ps);
  memset(&gs, 0, sizeof gs);
  if (f == F_MBTOWC) {
    P.mbtowc(NULL, NULL, 0);
    G.mbtowc(NULL, NULL, 0);
  }
  while (pos < len) {
    size_t n = chunk < len - pos ? chunk : len - pos, p, g;
    uint32_t pout, gout;
    int perr, gerr, kind;
    struct ref_segment seg = ref_next(in + seq, pos + n - seq);
    const uint8_t *segp = in + seq;
    uint8_t held_now[16];
    if (f == F_MBTOWC && held) {
      /* mbtowc's hidden state holds bytes an earlier call left, even
       * across a call on a NUL byte, which leaves it alone */
      memcpy(held_now, held_bytes, held);
      memcpy(held_now + held, in + pos, n < 8 ? n : 8);
      seg = ref_next(held_now, held + (n < 8 ? n : 8));
      segp = held_now;
    }
    calls++;
    errno = 0;
    p = call1(&P, f, (const char *)in + pos, n, &ps, &pout);
    perr = errno;
    errno = 0;
    g = call1(&G, f, (const char *)in + pos, n, &gs, &gout);
    gerr = errno;
    if (f == F_MBTOWC || f == F_MBLEN) {
      /* -1 for both -1 and -2, state hidden */
      if (p == FAIL && g != FAIL && seg.kind == REF_INVALID && glibc_lenient(segp, seg) >= 0) {
        diffs[glibc_lenient(segp, seg)]++;
      } else if (p == FAIL && g == FAIL && perr != gerr && perr == EILSEQ && gerr == 0 &&
                 seg.kind == REF_INVALID && glibc_lenient(segp, seg) >= 0) {
        diffs[glibc_lenient(segp, seg)]++; /* glibc: incomplete (errno 0); preload: EILSEQ */
      } else if (!(CHECK_EQ(p, g) & CHECK_EQ(perr, gerr) & CHECK_EQ(pout, gout))) {
        size_t j;
        fprintf(stderr, "  %s, chunk %zu, at %zu of", fn_names[f], chunk, pos);
        for (j = 0; j < len; j++) fprintf(stderr, " %02X", in[j]);
        fprintf(stderr, "\n");
      }
      /* mbtowc keeps an incomplete character in its hidden state: go on */
      if (p == FAIL && perr == EILSEQ) {
        P.mbtowc(NULL, NULL, 0);
        G.mbtowc(NULL, NULL, 0);
        held = 0;
        pos = seq = seq + 1;
      } else if (p == FAIL) {
        if (f == F_MBLEN) {
          pos = seq = seq + 1;
        } else {
          memcpy(held_bytes + held, in + pos, n < 4 ? n : 4);
          held += n < 4 ? n : 4;
          if (held > 4) held = 4;
          pos += n;
        }
      } else {
        if (p != 0) held = 0;
        pos += p == 0 ? 1 : p;
        seq = pos;
      }
      if (check_failed > CHECK_MAX_REPORTS) return;
      continue;
    }
    if (p == FAIL && g == FAIL) {
      CHECK_EQ(perr, EILSEQ);
      CHECK_EQ(gerr, EILSEQ);
      CHECK(P.mbsinit(&ps)); /* D3 */
      if (!G.mbsinit(&gs)) diffs[D3]++;
      else CHECK(ps.__count == gs.__count);
    } else if (p == FAIL && seg.kind == REF_INVALID && (kind = glibc_lenient(in + seq, seg)) >= 0) {
      CHECK(g != FAIL); /* glibc reads on: -2, or a value above U+10FFFF */
      CHECK_EQ(perr, EILSEQ);
      CHECK(P.mbsinit(&ps));
      diffs[kind]++;
    } else if (p == g && perr == gerr && pout == gout && same_state(&ps, &gs) &&
               (p == MORE || p == HALF || p == FAIL || f == F_MBRTOC16 || f == F_MBRTOC8 || f == F_MBRLEN ||
                seg.kind != REF_CHAR || pout == seg.cp)) {
      check_total++; /* the usual case, counted as one check */
    } else {
      CHECK_EQ(p, g);
      CHECK_EQ(perr, gerr);
      CHECK_EQ(pout, gout);
      if (!CHECK(same_state(&ps, &gs)))
        fprintf(stderr, "  state: preload %08x/%08x glibc %08x/%08x\n", (unsigned)ps.__count,
                ps.__value.__wch, (unsigned)gs.__count, gs.__value.__wch);
      /* the answer is RFC 3629's, by the reference segmenter */
      if (p != MORE && p != HALF && p != FAIL && f != F_MBRTOC16 && f != F_MBRTOC8 && f != F_MBRLEN &&
          seg.kind == REF_CHAR)
        CHECK_EQ(pout, seg.cp);
    }
    if (p == FAIL) {
      memset(&ps, 0, sizeof ps);
      memset(&gs, 0, sizeof gs);
      pos = seq = seq + 1;
    } else if (p == MORE) {
      pos += n;
    } else if (p == HALF) {
      /* the same bytes again: the next unit comes from the state */
    } else {
      pos += p == 0 ? 1 : p;
      seq = pos;
    }
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
}

static void feed_chunks(enum fn f, const uint8_t *in, size_t len) {
  size_t chunk;
  for (chunk = 1; chunk <= len; chunk++) feed(f, in, len, chunk);
}

static const char *const strings[] = {
    "", "abc", "\xE2\x82\xAC", "A\xE2\x89\xA2\xCE\x91.", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4",
    "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "\xF0\x90\x8D\x88", "x\xC2\xA2y\xF4\x8F\xBF\xBFz\xEF\xBF\xBD",
    "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80",
    "\xE1\x80\x80\xEC\xBF\xBF\xED\x80\x80\xED\x9F\xBF\xEE\x80\x80\xF1\x80\x80\x80\xF3\xBF\xBF\xBF",
    "\xF0\x9F\x98\x80\xF0\x9F\x98\x81 smile", "\xC0\x80", "a\xC1\xBF", "ab\xE0\x80\xAF", "\xF0\x80\x80\x80z",
    "\xED\xA1\x8C\xED\xBE\xB4", "\xED\xBF\xBF", "x\x80y", "\xBF\x80\xBF", "ab\xE2\x82", "ab\xE2\x82\x41",
    "\xF0\x9F\x98", "\xE2\xC2\x80", "\xFE\xFF", "\xC3(", "\xF4\x90\x80\x80", "a\xF4\xBF\xBF\xBF",
    "\xE2\x82\xAC\xF5\x80\x80\x80", "\xF7\xBF\xBF\xBF.", "\xE2\x82\xAC\xF8\x88\x80\x80\x80",
    "z\xFC\x84\x80\x80\x80\x80", "\xFD\xBF\xBF\xBF\xBF\xBF", "\xF8\x80\x80\x80\x80", "\xE0\x80", "\xE0\x9F\xBF",
    "\xED\xA0", "\xED\xA0\x80", "\xF0\x80\x80", "\xF0\x8F\xBF\xBF", "a\xE0\x80\x80z\xF0\x8F\x80\x80q",
};

static void one_char_at_a_time(void) {
  uint8_t b[16];
  unsigned a, c, d, i, f;
  uint32_t rng = 4242;
  check_context("every 1-byte input");
  for (f = 0; f < F_COUNT; f++)
    for (a = 0; a < 256; a++) {
      b[0] = (uint8_t)a;
      feed((enum fn)f, b, 1, 1);
    }
  for (f = 0; f < F_COUNT; f++)
    for (a = 0, check_context("every 2-byte input: %s", fn_names[f]); a < 65536; a++) {
      b[0] = (uint8_t)(a >> 8);
      b[1] = (uint8_t)a;
      feed_chunks((enum fn)f, b, 2);
    }
  /* A first byte that decides alone (ASCII, or no lead) returns at once
   * with the state initial, and the caller goes on with the 2-byte rest,
   * as above: the leads C2..F4 are the 3-byte inputs that add anything.
   * U8X_PRELOAD_EXHAUSTIVE=1 feeds all 2^24 to mbrtowc all the same. */
  if (quick) return;
  check_context("every 3-byte input: mbrtowc byte by byte and in bulk");
  for (a = exhaustive ? 0 : 0xC20000; a < (exhaustive ? (1u << 24) : 0xF50000); a++) {
    b[0] = (uint8_t)(a >> 16);
    b[1] = (uint8_t)(a >> 8);
    b[2] = (uint8_t)a;
    feed(F_MBRTOWC, b, 3, 1);
    feed(F_MBRTOWC, b, 3, 3);
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  check_context("every 3-byte input with a lead C2..F4: the other functions");
  for (f = 1; f < F_COUNT; f++)
    for (a = 0xC2, check_context("every 3-byte input with a lead C2..F4: %s", fn_names[f]); a <= 0xF4; a++)
      for (c = 0; c < 256; c++)
        for (d = 0; d < 256; d++) {
          b[0] = (uint8_t)a;
          b[1] = (uint8_t)c;
          b[2] = (uint8_t)d;
          feed((enum fn)f, b, 3, 1);
          feed((enum fn)f, b, 3, 3);
        }
  check_context("pseudo-random 4- to 8-byte inputs");
  for (i = 0; i < 300000u; i++) {
    unsigned k, len = 4 + i % 5;
    for (k = 0; k < len; k++)
      b[k] = (uint8_t)(ref_rand(&rng) % 3 == 0 ? 0xF0 + ref_rand(&rng) % 8
                       : ref_rand(&rng) % 2  ? 0x80 + ref_rand(&rng) % 64
                                             : ref_rand(&rng));
    feed_chunks((enum fn)(i % F_COUNT), b, len);
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  for (i = 0; i < COUNT_OF(strings); i++) {
    check_context("string #%u", i);
    for (f = 0; f < F_COUNT; f++)
      feed_chunks((enum fn)f, (const uint8_t *)strings[i], strlen(strings[i]) + 1);
  }
  check_context("%s", "");
}

/* ---- the state handed over ------------------------------------------------- */

/* Every character of 2..4 bytes split at every point: begun by one side,
 * finished by the other, in both directions. */
static void handover(void) {
  uint32_t cp;
  check_context("state handover");
  for (cp = 0x80; cp <= 0x10FFFF; cp += cp < 0x1000 ? 1 : 7) {
    uint8_t b[4];
    size_t len, k, dir;
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    len = ref_put_utf8(b, cp);
    for (k = 1; k < len; k++)
      for (dir = 0; dir < 2; dir++) {
        const struct impl *first = dir ? &G : &P, *second = dir ? &P : &G;
        mbstate_t st;
        wchar_t wc = 0;
        memset(&st, 0, sizeof st);
        CHECK_EQ(first->mbrtowc(&wc, (const char *)b, k, &st), MORE);
        CHECK(!second->mbsinit(&st));
        CHECK_EQ(second->mbrtowc(&wc, (const char *)b + k, len - k, &st), len - k);
        CHECK_EQ((uint32_t)wc, cp);
        CHECK(first->mbsinit(&st));
      }
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  check_context("%s", "");
}

/* ---- wide to multibyte, one at a time ------------------------------------- */

static void one_wide(uint32_t wc) {
  char pb[8], gb[8];
  size_t p, g;
  int perr, gerr, pi, gi;
  mbstate_t ps, gs;
  int above = wc >= 0x110000 && wc <= 0x7FFFFFFF;
  unsigned k;
  for (k = 0; k < 3; k++) {
    memset(pb, 0x5A, sizeof pb);
    memset(gb, 0x5A, sizeof gb);
    memset(&ps, 0, sizeof ps);
    memset(&gs, 0, sizeof gs);
    errno = 0;
    if (k == 0) p = P.wcrtomb(pb, (wchar_t)wc, &ps);
    else if (k == 1) p = P.c32rtomb(pb, wc, &ps);
    else { P.wctomb(NULL, 0); p = (size_t)(long)P.wctomb(pb, (wchar_t)wc); }
    perr = errno;
    errno = 0;
    if (k == 0) g = G.wcrtomb(gb, (wchar_t)wc, &gs);
    else if (k == 1) g = G.c32rtomb(gb, wc, &gs);
    else { G.wctomb(NULL, 0); g = (size_t)(long)G.wctomb(gb, (wchar_t)wc); }
    gerr = errno;
    calls += 2;
    if (above) {
      CHECK(g >= 4 && g <= 6); /* D4 */
      CHECK_EQ(p, FAIL);
      CHECK_EQ(perr, EILSEQ);
      CHECK_EQ((unsigned char)pb[0], 0x5A);
      diffs[D4]++;
    } else {
      CHECK_EQ(p, g);
      CHECK_EQ(perr, gerr);
      CHECK_BYTES((uint8_t *)pb, sizeof pb, (uint8_t *)gb, sizeof gb);
      CHECK(same_state(&ps, &gs));
    }
  }
  pi = P.wctob(wc);
  gi = G.wctob(wc);
  CHECK_EQ(pi, gi);
}

static void wide_chars(void) {
  uint32_t c, lo;
  static const uint32_t above[] = {0x110000, 0x10FFFF + 2, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000, 0x7FFFFFFF};
  static const uint32_t negative[] = {0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u, 0xFFEF0001u};
  size_t i;
  int b;
  check_context("wcrtomb, c32rtomb, wctomb, wctob: every value to 0x10FFFF, and beyond");
  for (c = 0; c <= 0x10FFFF; c += quick ? 13 : 1) one_wide(c);
  for (i = 0; i < COUNT_OF(above); i++) one_wide(above[i]);
  for (i = 0; i < COUNT_OF(negative); i++) one_wide(negative[i]);
  check_context("btowc: every int from -300 to 300");
  for (b = -300; b <= 300; b++) CHECK_EQ(P.btowc(b), G.btowc(b));
  check_context("c16rtomb: every unit alone, every pair");
  for (c = 0; c < 0x10000; c++) {
    char pb[8], gb[8];
    mbstate_t ps, gs;
    size_t p, g;
    int perr, gerr;
    memset(&ps, 0, sizeof ps);
    memset(&gs, 0, sizeof gs);
    memset(pb, 0x5A, sizeof pb);
    memset(gb, 0x5A, sizeof gb);
    errno = 0;
    p = P.c16rtomb(pb, (char16_t)c, &ps);
    perr = errno;
    errno = 0;
    g = G.c16rtomb(gb, (char16_t)c, &gs);
    gerr = errno;
    CHECK_EQ(p, g);
    CHECK_EQ(perr, gerr);
    CHECK_BYTES((uint8_t *)pb, 8, (uint8_t *)gb, 8);
    CHECK(same_state(&ps, &gs));
    if (c >= 0xD800 && c < 0xDC00)
      for (lo = 0; lo < 0x10000; lo += (lo >= 0xDC00 && lo < 0xE000) ? 1 : 97) {
        mbstate_t ps2 = ps, gs2 = gs;
        errno = 0;
        p = P.c16rtomb(pb, (char16_t)lo, &ps2);
        perr = errno;
        errno = 0;
        g = G.c16rtomb(gb, (char16_t)lo, &gs2);
        gerr = errno;
        calls += 2;
        CHECK_EQ(p, g);
        CHECK_EQ(perr, gerr);
        CHECK_BYTES((uint8_t *)pb, 8, (uint8_t *)gb, 8);
        CHECK(same_state(&ps2, &gs2));
      }
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  /* (a first unit that decides alone returns at once, as for mbrtowc) */
  if (quick) return;
  check_context("c8rtomb: every sequence of 1 to 3 units with a lead C2..F4, and 4 with a lead F0..F4");
  for (c = 0xC20000; c < (1u << 24) + (5u << 24); c++) {
    unsigned units = c < (1u << 24) ? 3 : 4, k;
    uint8_t u[4];
    mbstate_t ps, gs;
    if (units == 3 && c >= 0xF50000) { c = (1u << 24) - 1; continue; }
    if (units == 3) {
      u[0] = (uint8_t)(c >> 16); u[1] = (uint8_t)(c >> 8); u[2] = (uint8_t)c;
    } else {
      uint32_t v = c - (1u << 24);
      u[0] = (uint8_t)(0xF0 + (v >> 24)); u[1] = (uint8_t)(v >> 16); u[2] = (uint8_t)(v >> 8); u[3] = (uint8_t)v;
      if ((u[1] & 0xC0) != 0x80 || (u[2] & 0xC0) != 0x80) { c += 0xFF; continue; } /* covered by 3 units */
    }
    memset(&ps, 0, sizeof ps);
    memset(&gs, 0, sizeof gs);
    for (k = 0; k < units; k++) {
      char pb[8], gb[8];
      size_t p, g;
      int perr, gerr;
      memset(pb, 0x5A, sizeof pb);
      memset(gb, 0x5A, sizeof gb);
      errno = 0;
      p = P.c8rtomb(pb, u[k], &ps);
      perr = errno;
      errno = 0;
      g = G.c8rtomb(gb, u[k], &gs);
      gerr = errno;
      calls += 2;
      CHECK_EQ(p, g);
      CHECK_EQ(perr, gerr);
      CHECK_BYTES((uint8_t *)pb, 8, (uint8_t *)gb, 8);
      CHECK(same_state(&ps, &gs));
      if (p == FAIL) break;
    }
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  check_context("%s", "");
}

/* ---- strings ---------------------------------------------------------------- */

#define WCAP 48
#define BCAP 200
#define NMAX 12

/* The text glibc gets: where glibc would read a character above U+10FFFF
 * on (D1), the byte that rules it out becomes FF, which glibc rejects at
 * the same offset. Returns whether anything changed. */
static int glibc_text(const uint8_t *s, uint8_t *out) {
  size_t n = strlen((const char *)s), i = 0;
  int changed = 0;
  memcpy(out, s, n + 1);
  while (i < n) {
    struct ref_segment seg = ref_next(s + i, n - i);
    if (seg.kind == REF_CHAR) {
      i += seg.len;
      continue;
    }
    if (seg.kind == REF_INVALID && glibc_lenient(s + i, seg) == D1) {
      out[s[i] >= 0xF5 ? i : i + seg.len] = 0xFF;
      changed = 1;
    }
    i += seg.len;
  }
  return changed;
}

/* Whether the preload's EILSEQ with *src at offset `off` is RFC 3629's: an
 * ill-formed sequence (or one the terminator cuts) starts there, after
 * characters that (with `out`) it stored, fewer than `len`. */
static int strict_failure(const uint8_t *s, size_t off, const wchar_t *out, size_t len) {
  size_t i = 0, k = 0, n = strlen((const char *)s);
  while (i < off) {
    struct ref_segment seg = ref_next(s + i, n - i);
    if (seg.kind != REF_CHAR) return 0;
    if (out != NULL && (k >= len || (uint32_t)out[k] != seg.cp)) return 0;
    i += seg.len;
    k++;
  }
  return i == off && (out == NULL || k < len) && ref_next(s + off, n + 1 - off).kind != REF_CHAR;
}

/* One call of mbsrtowcs (nmc == 0), mbsnrtowcs (nmc >= 1) or mbstowcs
 * (nmc == -1) on both sides, from `k` bytes of the first character already
 * in the state. */
static void mbs_one(const uint8_t *s, const uint8_t *gtext, size_t k, int with_dst, size_t len, long nmc) {
  wchar_t pbuf[WCAP], gbuf[WCAP];
  mbstate_t ps, gs;
  const char *pp = (const char *)s + k, *gp = (const char *)gtext + k;
  size_t p, g, i;
  int perr, gerr;
  memset(&ps, 0, sizeof ps);
  memset(&gs, 0, sizeof gs);
  if (k) {
    wchar_t wc;
    CHECK_EQ(P.mbrtowc(&wc, (const char *)s, k, &ps), MORE);
    CHECK_EQ(G.mbrtowc(&wc, (const char *)gtext, k, &gs), MORE);
  }
  for (i = 0; i < WCAP; i++) pbuf[i] = gbuf[i] = (wchar_t)SENT;
  calls += 2;
  errno = 0;
  if (nmc < 0) p = P.mbstowcs(with_dst ? pbuf : NULL, pp, len);
  else if (nmc == 0) p = P.mbsrtowcs(with_dst ? pbuf : NULL, &pp, len, &ps);
  else p = P.mbsnrtowcs(with_dst ? pbuf : NULL, &pp, (size_t)nmc, len, &ps);
  perr = errno;
  errno = 0;
  if (nmc < 0) g = G.mbstowcs(with_dst ? gbuf : NULL, gp, len);
  else if (nmc == 0) g = G.mbsrtowcs(with_dst ? gbuf : NULL, &gp, len, &gs);
  else g = G.mbsnrtowcs(with_dst ? gbuf : NULL, &gp, (size_t)nmc, len, &gs);
  gerr = errno;
  {
    long poff = pp ? (long)(pp - (const char *)s) : -1, goff = gp ? (long)(gp - (const char *)gtext) : -1;
    int same = p == g && perr == gerr && poff == goff && same_meaning(&ps, &gs) &&
               memcmp(pbuf, gbuf, sizeof pbuf) == 0;
    if (same) return;
    /* D5 (and D2 in a window): the preload fails where glibc's window cut
     * the ill-formed sequence; RFC 3629 says it is one. */
    if (p == FAIL && perr == EILSEQ && P.mbsinit(&ps) && poff >= 0 &&
        strict_failure(s, (size_t)poff, with_dst ? pbuf : NULL, len)) {
      diffs[D5]++;
      return;
    }
    /* Counting (dst NULL), *src does not move: the window holds an
     * ill-formed sequence that glibc took for a character's beginning. */
    if (!with_dst && p == FAIL && perr == EILSEQ && g != FAIL && nmc > 0) {
      size_t end = k + (size_t)nmc < strlen((const char *)s) ? k + (size_t)nmc : strlen((const char *)s), i = 0;
      int bad = 0;
      while (i < end) {
        struct ref_segment seg = ref_next(s + i, end - i);
        if (seg.kind == REF_INVALID) bad = glibc_lenient(s + i, seg) >= 0;
        if (seg.kind != REF_CHAR) break;
        i += seg.len;
      }
      if (bad) {
        diffs[D5]++;
        return;
      }
    }
    check_context("%s %s k=%zu len=%zu nmc=%ld dst=%d", nmc < 0 ? "mbstowcs" : nmc ? "mbsnrtowcs" : "mbsrtowcs",
                  (const char *)s, k, len, nmc, with_dst);
    CHECK_EQ(p, g);
    CHECK_EQ(perr, gerr);
    CHECK_EQ(poff, goff);
    CHECK(same_meaning(&ps, &gs));
    CHECK_U32S((uint32_t *)pbuf, WCAP, (uint32_t *)gbuf, WCAP);
  }
}

static void mbs_case(const uint8_t *s) {
  uint8_t gtext[BCAP];
  size_t k, len, first, n = strlen((const char *)s);
  long nmc;
  struct ref_segment seg = ref_next(s, n + 1);
  glibc_text(s, gtext);
  first = seg.kind == REF_CHAR ? seg.len : 1;
  for (k = 0; k < first; k++) {
    for (len = 0; len <= NMAX; len++) {
      mbs_one(s, gtext, k, 1, len, 0);
      for (nmc = 1; nmc <= (long)(n - k) + 2; nmc++) mbs_one(s, gtext, k, 1, len, nmc);
      if (k == 0) mbs_one(s, gtext, 0, 1, len, -1);
    }
    mbs_one(s, gtext, k, 0, 0, 0);
    for (nmc = 1; nmc <= (long)(n - k) + 2; nmc++) mbs_one(s, gtext, k, 0, 0, nmc);
    if (k == 0) mbs_one(s, gtext, 0, 0, 0, -1);
  }
}

static void wcs_one(const wchar_t *w, const wchar_t *gw, int with_dst, size_t len, long nwc) {
  char pbuf[BCAP], gbuf[BCAP];
  mbstate_t ps, gs;
  const wchar_t *pp = w, *gp = gw;
  size_t p, g;
  int perr, gerr;
  memset(&ps, 0, sizeof ps);
  memset(&gs, 0, sizeof gs);
  memset(pbuf, 0x5A, sizeof pbuf);
  memset(gbuf, 0x5A, sizeof gbuf);
  calls += 2;
  errno = 0;
  if (nwc < 0) p = P.wcstombs(with_dst ? pbuf : NULL, pp, len);
  else if (nwc == 0) p = P.wcsrtombs(with_dst ? pbuf : NULL, &pp, len, &ps);
  else p = P.wcsnrtombs(with_dst ? pbuf : NULL, &pp, (size_t)nwc, len, &ps);
  perr = errno;
  errno = 0;
  if (nwc < 0) g = G.wcstombs(with_dst ? gbuf : NULL, gp, len);
  else if (nwc == 0) g = G.wcsrtombs(with_dst ? gbuf : NULL, &gp, len, &gs);
  else g = G.wcsnrtombs(with_dst ? gbuf : NULL, &gp, (size_t)nwc, len, &gs);
  gerr = errno;
  CHECK_EQ(p, g);
  CHECK_EQ(perr, gerr);
  CHECK_EQ(pp ? pp - w : -1, gp ? gp - gw : -1);
  CHECK(same_meaning(&ps, &gs));
  CHECK_BYTES((uint8_t *)pbuf, BCAP, (uint8_t *)gbuf, BCAP);
}

static void wcs_case(const uint32_t *u, size_t n) {
  wchar_t w[WCAP], gw[WCAP];
  size_t i, len;
  long nwc;
  for (i = 0; i < n; i++) {
    w[i] = (wchar_t)u[i];
    /* D4: glibc gets a surrogate where it would write a 4- to 6-byte form */
    gw[i] = u[i] >= 0x110000 && u[i] <= 0x7FFFFFFF ? (wchar_t)0xD800 : (wchar_t)u[i];
    if (gw[i] != w[i]) diffs[D4]++;
  }
  w[n] = gw[n] = 0;
  for (len = 0; len <= 3 * NMAX; len++) {
    wcs_one(w, gw, 1, len, 0);
    wcs_one(w, gw, 1, len, -1);
    for (nwc = 1; nwc <= (long)n + 2; nwc++) wcs_one(w, gw, 1, len, nwc);
  }
  wcs_one(w, gw, 0, 0, 0);
  wcs_one(w, gw, 0, 0, -1);
  for (nwc = 1; nwc <= (long)n + 2; nwc++) wcs_one(w, gw, 0, 0, nwc);
}

static void strings_both_ways(void) {
  size_t i;
  unsigned a;
  uint32_t rng = 99;
  uint8_t text[BCAP];
  check_context("mbsrtowcs, mbsnrtowcs, mbstowcs: curated strings");
  for (i = 0; i < COUNT_OF(strings); i++) mbs_case((const uint8_t *)strings[i]);
  check_context("mbsrtowcs, mbsnrtowcs, mbstowcs: every 2-byte string");
  for (a = 0x0101; a < 0x10000; a++) {
    text[0] = (uint8_t)(a >> 8);
    text[1] = (uint8_t)a;
    text[2] = 0;
    if (text[1] == 0) continue;
    mbs_case(text);
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  check_context("mbsrtowcs, mbsnrtowcs, mbstowcs: random texts");
  for (i = 0; i < 3000; i++) {
    size_t n = ref_random_text(text, 8 + i % 24, i % 3, &rng), j;
    for (j = 0; j < n; j++)
      if (text[j] == 0) text[j] = 'x';
    text[n] = 0;
    mbs_case(text);
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
  check_context("wcsrtombs, wcsnrtombs, wcstombs");
  {
    static const uint32_t cases[][6] = {
        {'a', 0xE9, 0x20AC, 0x1F600, 'z', 0}, {0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000},
        {0x10FFFF, 'q', 0, 0, 0, 0},           {'a', 0xD800, 'b', 0, 0, 0},
        {0xDFFF, 0, 0, 0, 0, 0},               {'x', 0x110000, 'y', 0, 0, 0},
        {0x7FFFFFFF, 0, 0, 0, 0, 0},           {'x', 0xFFFFFFFFu, 0, 0, 0, 0},
        {0x4E2D, 0x6587, 0xD83D, 0xDE00, 0, 0}, {0x3FFFFFF, 0x4000000, 0, 0, 0, 0},
    };
    for (i = 0; i < COUNT_OF(cases); i++) {
      size_t n = 0;
      while (n < 6 && cases[i][n] != 0) n++;
      wcs_case(cases[i], n);
    }
    for (i = 0; i < 3000; i++) {
      uint32_t u[12];
      size_t n = 1 + i % 11, j;
      for (j = 0; j < n; j++) {
        uint32_t r = ref_rand(&rng) % 8;
        u[j] = r < 3 ? 1 + ref_rand(&rng) % 0x7F : r < 5 ? 0x80 + ref_rand(&rng) % 0xFF80
               : r < 7 ? 0x10000 + ref_rand(&rng) % 0x100000 : 0xD800 + ref_rand(&rng) % 0x800;
      }
      wcs_case(u, n);
      if (check_failed > CHECK_MAX_REPORTS) return;
    }
  }
  check_context("%s", "");
}

/* ---- the program's own references ------------------------------------------ */

static void interposed(void) {
  const char *pre = getenv("LD_PRELOAD");
  struct impl mine;
  void *self = dlopen(NULL, RTLD_NOW);
  if (pre == NULL || strstr(pre, "libu8x-libc") == NULL) return;
  check_context("LD_PRELOAD: the program's references are the preload's");
  /* RTLD_DEFAULT from the program: the first definition in lookup order */
  load(&mine, self);
  CHECK(memcmp(&mine, &P, sizeof mine) == 0);
  CHECK((void *)&mbrtowc == (void *)P.mbrtowc);
  CHECK((void *)&mbsrtowcs == (void *)P.mbsrtowcs);
  CHECK((void *)&wcrtomb == (void *)P.wcrtomb);
  check_context("%s", "");
}

#include <time.h>
static void stamp(const char *what) {
  static struct timespec last;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (last.tv_sec) printf("differential: %-30s %.1f s\n", what, (now.tv_sec - last.tv_sec) + (now.tv_nsec - last.tv_nsec) / 1e9);
  last = now;
}

int main(int argc, char **argv) {
  void *libc, *pre;
  int i, missing = 0;
  check_begin("preload-differential");
  if (argc != 2) {
    fprintf(stderr, "usage: %s path/to/libu8x-libc.so\n", argv[0]);
    return 2;
  }
  if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
    fprintf(stderr, "differential: no C.UTF-8 locale\n");
    return 2;
  }
  libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  pre = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (libc == NULL || pre == NULL) {
    fprintf(stderr, "differential: dlopen: %s\n", dlerror());
    return 2;
  }
  quick = getenv("U8X_PRELOAD_QUICK") != NULL && getenv("U8X_PRELOAD_QUICK")[0] == '1';
  exhaustive = getenv("U8X_PRELOAD_EXHAUSTIVE") != NULL && getenv("U8X_PRELOAD_EXHAUSTIVE")[0] == '1';
  load(&G, libc);
  load(&P, pre);
  CHECK((void *)P.mbrtowc != (void *)G.mbrtowc);
  interposed();
  stamp("");
  one_char_at_a_time();
  stamp("one character at a time");
  handover();
  wide_chars();
  stamp("handover, wide characters");
  strings_both_ways();
  stamp("strings");
  for (i = 0; i < D_KINDS; i++) {
    printf("differential: %-45s %lu\n", diff_names[i], diffs[i]);
    if (diffs[i] == 0 && !quick) {
      fprintf(stderr, "differential: no case of %s was met: the list of differences is stale\n", diff_names[i]);
      missing++;
    }
  }
  printf("differential: %lu calls compared\n", calls);
  return check_done() || missing ? 1 : 0;
}
