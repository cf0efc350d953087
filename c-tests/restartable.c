/* u8x_mbrtowc, u8x_mbrlen, u8x_wcrtomb, u8x_mbsrtowcs, u8x_wcsrtombs and
 * u8x_mbsinit against glibc's own functions under setlocale(LC_ALL,
 * "C.UTF-8"): return values, the wide character or bytes written, errno,
 * *src, and mbsinit after every call. Inputs: every 1- and 2-byte input,
 * every 3-byte input with a lead E0..F4, a pseudo-random sample of 4-byte
 * inputs and curated strings (RFC 2044 examples, Table 3-7 edges, every
 * kind of ill-formed sequence), fed byte at a time and in chunks of every
 * size; the string functions with every `len`, in restartable loops, with
 * bytes already pending in the state, and on long texts (the bulk paths).
 *
 * Where glibc's C.UTF-8 differs from RFC 3629 (glibc 2.36 here), u8x
 * follows RFC 3629 and the test asserts u8x's answer instead of glibc's,
 * counting each difference; every kind must be met at least once, so this
 * list cannot go stale (include/u8x.h documents the same points at
 * u8x_mbrtowc):
 *
 * D1 values above U+10FFFF: glibc decodes F4 90..BF and the leads F5..F7 as
 *    4-byte characters up to 0x1FFFFF and F8..FD as 5- and 6-byte ones up
 *    to 0x7FFFFFFF, and meanwhile returns (size_t)-2 for their prefixes.
 *    u8x: (size_t)-1 and EILSEQ at the first byte that rules a character
 *    out (F4's second byte 90..BF, the lead F5..FD). In strings, the test
 *    gives glibc the text with that byte replaced by FF, which glibc
 *    rejects at the same offset.
 * D2 overlongs and surrogates: glibc rejects E0 80..9F xx, F0 80..8F xx xx
 *    and ED A0..BF xx only once the sequence is complete, returning
 *    (size_t)-2 after E0 80, F0 80, ED A0 fed in pieces. u8x: EILSEQ at the
 *    second byte (Table 3-7: no well-formed sequence starts so). Whole
 *    strings agree: both reject at the sequence's first byte.
 * D3 the state after EILSEQ: glibc keeps the bytes pending before the bad
 *    one (mbsinit 0, and every later call fails until the caller resets
 *    it); u8x's state is initial again. POSIX leaves it unspecified.
 * D4 encoding 0x110000..0x7FFFFFFF: glibc's wcrtomb and wcsrtombs write 4-
 *    to 6-byte forms; u8x: EILSEQ. In wide strings the test gives glibc
 *    0xD800 there instead, which it rejects.
 * API differences, by design, checked in conventions(): a NULL ps is a
 * fresh state for one call (glibc: a hidden static state); encoding from a
 * state holding decode bytes is EINVAL (glibc: EILSEQ).
 *
 * Every u8x answer also goes into a digest; the whole run is repeated after
 * setlocale(LC_ALL, "C"), without glibc, and must give the same digest. */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <wchar.h>

#include "check.h"
#include "ref.h"

#define FAIL ((size_t)-1)
#define MORE ((size_t)-2)
#define WSENT ((wchar_t)0x5A5A5A5A)
#define BSENT 0x5A
#define WCAP 40  /* wide buffers, in wchar_t */
#define BCAP 160 /* narrow buffers, in bytes */
#define NMAX 20  /* len goes 0..NMAX */
#define LONG_LEN 6000

enum { D1_ABOVE_MAX, D2_LATE_PREFIX, D3_STATE_AFTER_EILSEQ, D4_ENCODE_ABOVE_MAX, D5_SRC_AFTER_EILSEQ, D_KINDS };
static const char *const diff_names[D_KINDS] = {"D1 above U+10FFFF", "D2 overlong/surrogate prefix",
                                                "D3 state after EILSEQ", "D4 encoding above 0x10FFFF",
                                                "D5 mbsrtowcs *src after EILSEQ"};
static unsigned long diffs[D_KINDS];

static int oracle;       /* compare with glibc (only under C.UTF-8) */
static int light;        /* under valgrind or qemu: a sample of the largest spaces */
static uint64_t digest;  /* FNV-1a of every u8x answer */

static void mix(uint64_t v) {
  int i;
  for (i = 0; i < 8; i++) {
    digest ^= (v >> (8 * i)) & 0xFF;
    digest *= 1099511628211ull;
  }
}

static void wfill(wchar_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) p[i] = WSENT;
}

/* ---- byte at a time: mbrtowc, mbrlen ------------------------------------- */

/* Whether glibc still reads the ill-formed maximal subpart `seg` at `s` as
 * (the start of) a character: the kind of difference, or -1. */
static int glibc_lenient(const uint8_t *s, struct ref_segment seg) {
  if (s[0] >= 0xF5 && s[0] <= 0xFD) return D1_ABOVE_MAX;
  if (seg.error == U8X_ERR_ABOVE_MAX) return D1_ABOVE_MAX;
  if (seg.error == U8X_ERR_OVERLONG || seg.error == U8X_ERR_SURROGATE) return D2_LATE_PREFIX;
  return -1;
}

/* A caller reading `in` with mbrtowc (or mbrlen), `chunk` bytes at most per
 * call, u8x and glibc side by side. On (size_t)-1 it resets its states and
 * goes on from the byte after the start of the failed character. */
static void feed(const uint8_t *in, size_t len, size_t chunk, int use_mbrlen) {
  mbstate_t gst;
  u8x_mbstate_t ust = {0};
  size_t pos = 0, seq = 0; /* seq: where the current character began */
  memset(&gst, 0, sizeof gst);
  while (pos < len) {
    size_t n = chunk < len - pos ? chunk : len - pos, u;
    wchar_t uwc = WSENT;
    int uerr, uinit;
    errno = 0;
    u = use_mbrlen ? u8x_mbrlen((const char *)in + pos, n, &ust)
                   : u8x_mbrtowc(&uwc, (const char *)in + pos, n, &ust);
    uerr = errno;
    uinit = u8x_mbsinit(&ust);
    mix(u);
    mix((uint64_t)uwc);
    mix((uint64_t)uerr);
    mix((uint64_t)uinit);
    if (oracle) {
      wchar_t gwc = WSENT;
      int gerr, ginit, kind;
      size_t g;
      struct ref_segment seg = ref_next(in + seq, pos + n - seq);
      errno = 0;
      g = use_mbrlen ? mbrlen((const char *)in + pos, n, &gst) : mbrtowc(&gwc, (const char *)in + pos, n, &gst);
      gerr = errno;
      ginit = mbsinit(&gst);
      if (g == FAIL && u == FAIL) {
        CHECK_EQ(uerr, EILSEQ);
        CHECK_EQ(gerr, EILSEQ);
        CHECK(uinit); /* D3 */
        if (!ginit) diffs[D3_STATE_AFTER_EILSEQ]++;
      } else if (u == FAIL && seg.kind == REF_INVALID && (kind = glibc_lenient(in + seq, seg)) >= 0) {
        CHECK(g != FAIL); /* glibc reads on: -2, or a value above U+10FFFF */
        CHECK_EQ(uerr, EILSEQ);
        CHECK(uinit);
        diffs[kind]++;
      } else {
        CHECK_EQ(u, g);
        CHECK_EQ(uerr, gerr);
        CHECK_EQ(uwc, gwc);
        CHECK_EQ(uinit, ginit);
      }
    }
    if (u == FAIL) {
      CHECK(uinit);
      memset(&gst, 0, sizeof gst);
      memset(&ust, 0, sizeof ust);
      pos = seq = seq + 1;
    } else if (u == MORE) {
      pos += n;
    } else {
      pos += u == 0 ? 1 : u;
      seq = pos;
    }
    if (check_failed > CHECK_MAX_REPORTS) return;
  }
}

/* Every chunk size from 1 to the whole input. */
static void feed_all_chunks(const uint8_t *in, size_t len, int use_mbrlen) {
  size_t chunk;
  for (chunk = 1; chunk <= len; chunk++) feed(in, len, chunk, use_mbrlen);
}

/* When light, the bytes taken in the 2- and 3-byte spaces: every 17th and
 * the edges of Table 3-7's ranges and of its leads; every byte otherwise.
 * Those inputs have the same lengths and chunks whatever their values. */
static int byte_sampled(unsigned b) {
  static const uint8_t edges[] = {0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1,
                                  0xC2, 0xDF, 0xE0, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  size_t i;
  if (!light || b % 17 == 0) return 1;
  for (i = 0; i < COUNT_OF(edges); i++)
    if (b == edges[i]) return 1;
  return 0;
}

static const char *const strings[] = {
    "",
    "abc",
    "\xE2\x82\xAC",                                                 /* EURO SIGN */
    "A\xE2\x89\xA2\xCE\x91.",                                       /* RFC 2044: A<NOT IDENTICAL TO><ALPHA>. */
    "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4",                         /* RFC 2044: hangugeo */
    "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",                         /* RFC 2044: nihongo */
    "\xF0\x90\x8D\x88",                                             /* U+10348 */
    "x\xC2\xA2y\xF4\x8F\xBF\xBFz\xEF\xBF\xBD",                      /* 1, 2, 4 and 3 bytes */
    "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80", /* Table 3-7 edges */
    "\xE1\x80\x80\xEC\xBF\xBF\xED\x80\x80\xED\x9F\xBF\xEE\x80\x80\xF1\x80\x80\x80\xF3\xBF\xBF\xBF",
    /* ill-formed; both agree */
    "\xC0\x80",                         /* RFC 3629: overlong NUL */
    "a\xC1\xBF",                        /* overlong */
    "ab\xE0\x80\xAF",                   /* overlong '/' */
    "\xF0\x80\x80\x80z",                /* overlong NUL, 4 bytes */
    "\xED\xA1\x8C\xED\xBE\xB4",         /* RFC 3629: surrogate pair for U+233B4 */
    "\xED\xBF\xBF",                     /* U+DFFF */
    "x\x80y",                           /* lone continuation byte */
    "\xBF\x80\xBF",                     /* continuation bytes */
    "ab\xE2\x82",                       /* cut by the terminator */
    "ab\xE2\x82\x41",                    /* cut by 'A' */
    "\xF0\x9F\x98",                     /* cut */
    "\xE2\xC2\x80",                     /* cut by a lead */
    "\xFE\xFF",                         /* never in UTF-8 */
    "\xC3(",                            /* cut after one byte */
    /* ill-formed; glibc reads on (D1) */
    "\xF4\x90\x80\x80",                 /* U+110000 */
    "a\xF4\xBF\xBF\xBF",                /* 0x13FFFF */
    "\xE2\x82\xAC\xF5\x80\x80\x80",     /* 0x140000 */
    "\xF7\xBF\xBF\xBF.",                /* 0x1FFFFF */
    "\xE2\x82\xAC\xF8\x88\x80\x80\x80", /* 5-byte form */
    "z\xFC\x84\x80\x80\x80\x80",        /* 6-byte form */
    "\xFD\xBF\xBF\xBF\xBF\xBF",         /* 0x7FFFFFFF */
    "\xF8\x80\x80\x80\x80",             /* overlong 5-byte form */
    /* ill-formed; glibc rejects late (D2) */
    "\xE0\x80",
    "\xE0\x9F\xBF",
    "\xED\xA0",
    "\xED\xA0\x80",
    "\xF0\x80\x80",
    "\xF0\x8F\xBF\xBF",
};

static void short_inputs(void) {
  uint8_t b[8];
  unsigned a, c, d, i;
  uint32_t rng = 12345;
  check_context("every 1-byte input");
  for (a = 0; a < 256; a++) {
    b[0] = (uint8_t)a;
    feed(b, 1, 1, 0);
    feed(b, 1, 1, 1);
  }
  check_context("every 2-byte input%s", light ? " (second byte sampled)" : "");
  for (a = 0; a < 256; a++)
    for (c = 0; c < 256; c++) {
      if (!byte_sampled(c)) continue; /* light: every lead, a sample of what follows */
      b[0] = (uint8_t)a;
      b[1] = (uint8_t)c;
      feed_all_chunks(b, 2, 0);
      feed_all_chunks(b, 2, 1);
    }
  check_context("every 3-byte input with a lead E0..F4%s", light ? " (second and third bytes sampled)" : "");
  for (a = 0xE0; a <= 0xF4; a++)
    for (c = 0; c < 256; c++)
      for (d = 0; d < 256; d++) {
        /* light: every lead, its second and third bytes at the edges and
         * every 17th */
        if (!byte_sampled(c) || !byte_sampled(d)) continue;
        b[0] = (uint8_t)a;
        b[1] = (uint8_t)c;
        b[2] = (uint8_t)d;
        feed_all_chunks(b, 3, 0);
      }
  check_context("pseudo-random 4-byte inputs");
  for (i = 0; i < (light ? 5000u : 200000u); i++) {
    unsigned k;
    /* leads mostly F0..F7, the rest mostly continuation bytes: deep paths */
    b[0] = (uint8_t)(ref_rand(&rng) % 4 ? 0xF0 + ref_rand(&rng) % 8 : ref_rand(&rng));
    for (k = 1; k < 4; k++) b[k] = (uint8_t)(ref_rand(&rng) % 4 ? 0x80 + ref_rand(&rng) % 64 : ref_rand(&rng));
    feed_all_chunks(b, 4, i % 2);
  }
  for (i = 0; i < COUNT_OF(strings); i++) {
    check_context("string #%u", i);
    /* the terminator too */
    feed_all_chunks((const uint8_t *)strings[i], strlen(strings[i]) + 1, 0);
    feed_all_chunks((const uint8_t *)strings[i], strlen(strings[i]) + 1, 1);
  }
  check_context("%s", "");
}

/* ---- wcrtomb -------------------------------------------------------------- */

static void one_wcrtomb(wchar_t wc) {
  char ub[8], gb[8];
  u8x_mbstate_t ust = {0};
  size_t u, g;
  int uerr, gerr;
  memset(ub, BSENT, sizeof ub);
  errno = 0;
  u = u8x_wcrtomb(ub, wc, &ust);
  uerr = errno;
  mix(u);
  mix((uint64_t)uerr);
  mix((uint64_t)(unsigned char)ub[0] | (uint64_t)(unsigned char)ub[3] << 8);
  CHECK(u8x_mbsinit(&ust));
  if (!oracle) return;
  {
    mbstate_t gst;
    memset(&gst, 0, sizeof gst);
    memset(gb, BSENT, sizeof gb);
    errno = 0;
    g = wcrtomb(gb, wc, &gst);
    gerr = errno;
    if ((unsigned long)wc >= 0x110000 && (unsigned long)wc <= 0x7FFFFFFF) {
      CHECK(g >= 4 && g <= 6); /* D4 */
      CHECK_EQ(u, FAIL);
      CHECK_EQ(uerr, EILSEQ);
      CHECK_EQ((unsigned char)ub[0], BSENT);
      diffs[D4_ENCODE_ABOVE_MAX]++;
      return;
    }
    CHECK_EQ(u, g);
    CHECK_EQ(uerr, gerr);
    CHECK_BYTES(ub, sizeof ub, gb, sizeof gb);
  }
}

static void wide_chars(void) {
  unsigned long c;
  static const unsigned long above[] = {0x110000, 0x10FFFF + 2, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000, 0x7FFFFFFF};
  static const long negative[] = {-1, -2, -0x10FFFF, -2147483647L - 1};
  size_t i;
  check_context("wcrtomb: every scalar value%s", light ? " (sampled)" : "");
  for (c = 0; c <= 0x10FFFF; c++) {
    /* light: every 61st, all up to U+087F (0x7F/0x80, 0x7FF/0x800) and the
     * first and last 8 of every 1024 (0xD7FF, 0xE000, 0xFFFF/0x10000,
     * 0x10FFFF): each length of output, at its edges */
    if (light && c % 61 != 0 && c >= 0x880 && (c & 0x3FF) >= 8 && (c & 0x3FF) < 0x3F8) continue;
    one_wcrtomb((wchar_t)c);
    if (check_failed > CHECK_MAX_REPORTS) break;
  }
  check_context("wcrtomb: surrogates and above U+10FFFF");
  for (c = 0xD800; c <= 0xDFFF; c++) one_wcrtomb((wchar_t)c);
  for (i = 0; i < COUNT_OF(above); i++) one_wcrtomb((wchar_t)above[i]);
  for (i = 0; i < COUNT_OF(negative); i++) one_wcrtomb((wchar_t)negative[i]);
  check_context("%s", "");
}

/* ---- strings: mbsrtowcs --------------------------------------------------- */

/* The text glibc gets for `s` (NUL-terminated, at most BCAP bytes): the
 * byte that rules out a character glibc would still read (D1) replaced by
 * FF, which glibc rejects at the same offset. */
static void glibc_text(const uint8_t *s, uint8_t *out) {
  size_t n = strlen((const char *)s), i = 0;
  memcpy(out, s, n + 1);
  while (i < n) {
    struct ref_segment seg = ref_next(s + i, n - i);
    if (seg.kind == REF_CHAR) {
      i += seg.len;
      continue;
    }
    if (seg.kind == REF_INVALID && glibc_lenient(s + i, seg) == D1_ABOVE_MAX) {
      out[s[i] >= 0xF5 ? i : i + seg.len] = 0xFF;
      diffs[D1_ABOVE_MAX]++;
    }
    return;
  }
}

/* The states after feeding `s[0..k)` byte at a time (a prefix that must be
 * incomplete). */
static void prime(const uint8_t *s, size_t k, mbstate_t *gst, u8x_mbstate_t *ust) {
  size_t i;
  memset(gst, 0, sizeof *gst);
  memset(ust, 0, sizeof *ust);
  for (i = 0; i < k; i++) {
    CHECK_EQ(u8x_mbrtowc(NULL, (const char *)s + i, 1, ust), MORE);
    if (oracle) CHECK_EQ(mbrtowc(NULL, (const char *)s + i, 1, gst), MORE);
  }
}

/* *src after mbsrtowcs on both sides: the same offset (-1 for NULL), except
 * D5: glibc, given a small `len`, may fail with *src past the first bytes of
 * the ill-formed sequence, which it keeps in its state. */
static void src_after(size_t u, size_t g, int with_dst, long uoff, long goff, int ginit) {
  if (u == FAIL && g == FAIL && with_dst && goff > uoff && uoff >= 0 && !ginit) {
    CHECK(goff - uoff <= 5);
    diffs[D5_SRC_AFTER_EILSEQ]++;
    return;
  }
  CHECK_EQ(uoff, goff);
}

/* One mbsrtowcs call on each side, compared; returns u8x's answer. `*up`
 * and `*gp` advance in their texts `ubase` and `gbase`. */
static size_t mbs_call(int with_dst, size_t len, const char **up, const char *ubase, u8x_mbstate_t *ust,
                       const char **gp, const char *gbase, mbstate_t *gst) {
  wchar_t ubuf[WCAP], gbuf[WCAP];
  size_t u, g;
  int uerr, gerr, uinit, ginit;
  long uoff = *up ? (long)(*up - ubase) : -1;
  wfill(ubuf, WCAP);
  errno = 0;
  u = u8x_mbsrtowcs(with_dst ? ubuf : NULL, up, len, ust);
  uerr = errno;
  uinit = u8x_mbsinit(ust);
  mix(u);
  mix((uint64_t)uerr);
  mix((uint64_t)uinit);
  mix((uint64_t)(*up ? *up - ubase : -1));
  if (with_dst && u != FAIL && u < WCAP) mix((uint64_t)ubuf[0] ^ (uint64_t)ubuf[u] << 32);
  if (!with_dst) CHECK_EQ(*up ? *up - ubase : -1, uoff); /* *src never moves */
  if (!oracle) return u;
  wfill(gbuf, WCAP);
  errno = 0;
  g = mbsrtowcs(with_dst ? gbuf : NULL, gp, len, gst);
  gerr = errno;
  ginit = mbsinit(gst);
  CHECK_EQ(u, g);
  CHECK_EQ(uerr, gerr);
  CHECK(memcmp(ubuf, gbuf, sizeof ubuf) == 0);
  src_after(u, g, with_dst, *up ? *up - ubase : -1, *gp ? *gp - gbase : -1, ginit);
  if (u == FAIL && with_dst) {
    CHECK(uinit); /* D3 */
    if (!ginit) diffs[D3_STATE_AFTER_EILSEQ]++;
  } else {
    CHECK_EQ(uinit, ginit);
  }
  return u;
}

/* `s` from offset k, with the bytes of the character that began before k
 * pending in the state: every len, NULL dst, and restartable loops. */
static void mbs_case(const uint8_t *s, const uint8_t *gs, size_t k, size_t lens_max) {
  size_t len, j = 0;
  mbstate_t gst;
  u8x_mbstate_t ust;
  const char *ubase = (const char *)s + k, *gbase = (const char *)gs + k;
  /* the start of the character k is in */
  while (j < k) {
    struct ref_segment seg = ref_next(s + j, strlen((const char *)s + j));
    if (j + seg.len > k) break;
    j += seg.len;
  }
  if (j < k && ref_next(s + j, k - j).kind != REF_TRUNCATED) return; /* nothing to keep pending */
  for (len = 0; len <= lens_max; len++) {
    const char *up = ubase, *gp = gbase;
    check_context("mbsrtowcs \"%.24s\" from %u (pending %u), len %u", (const char *)s, (unsigned)k, (unsigned)(k - j),
                  (unsigned)len);
    prime(s + j, k - j, &gst, &ust);
    mbs_call(1, len, &up, ubase, &ust, &gp, gbase, &gst);
    prime(s + j, k - j, &gst, &ust);
    up = ubase;
    gp = gbase;
    mbs_call(0, len, &up, ubase, &ust, &gp, gbase, &gst);
    if (len == 0) continue;
    /* restartable: until the terminator or an error */
    prime(s + j, k - j, &gst, &ust);
    up = ubase;
    gp = gbase;
    while (up != NULL) {
      size_t r = mbs_call(1, len, &up, ubase, &ust, &gp, gbase, &gst);
      if (r == FAIL || check_failed > CHECK_MAX_REPORTS) break;
      if (oracle && gp == NULL) CHECK(up == NULL);
      if (oracle && gp == NULL) break;
    }
  }
}

static void mb_strings(void) {
  size_t i, k;
  uint8_t gs[BCAP];
  for (i = 0; i < COUNT_OF(strings); i++) {
    const uint8_t *s = (const uint8_t *)strings[i];
    glibc_text(s, gs);
    for (k = 0; k <= strlen(strings[i]); k++) mbs_case(s, gs, k, NMAX);
  }
  check_context("%s", "");
}

/* ---- strings: wcsrtombs --------------------------------------------------- */

static size_t wcs_call(int with_dst, size_t len, const wchar_t **up, const wchar_t *ubase, const wchar_t **gp,
                       const wchar_t *gbase) {
  char ubuf[BCAP], gbuf[BCAP];
  size_t u, g;
  int uerr, gerr;
  u8x_mbstate_t ust = {0};
  mbstate_t gst;
  long uoff = *up ? (long)(*up - ubase) : -1;
  memset(ubuf, BSENT, BCAP);
  errno = 0;
  u = u8x_wcsrtombs(with_dst ? ubuf : NULL, up, len, &ust);
  uerr = errno;
  mix(u);
  mix((uint64_t)uerr);
  mix((uint64_t)(*up ? *up - ubase : -1));
  if (with_dst && u != FAIL && u < BCAP) mix((uint64_t)(unsigned char)ubuf[u] << 8 | (unsigned char)ubuf[0]);
  CHECK(u8x_mbsinit(&ust));
  if (!with_dst) CHECK_EQ(*up ? *up - ubase : -1, uoff);
  if (!oracle) return u;
  memset(&gst, 0, sizeof gst);
  memset(gbuf, BSENT, BCAP);
  errno = 0;
  g = wcsrtombs(with_dst ? gbuf : NULL, gp, len, &gst);
  gerr = errno;
  CHECK_EQ(u, g);
  CHECK_EQ(uerr, gerr);
  CHECK_BYTES(ubuf, BCAP, gbuf, BCAP);
  CHECK_EQ(*up ? *up - ubase : -1, *gp ? *gp - gbase : -1);
  return u;
}

/* `w` (terminated) and the text glibc gets (D4: 0xD800 for the first unit
 * above 0x10FFFF that glibc would encode). */
static void wcs_case(const wchar_t *w, size_t lens_max) {
  wchar_t gw[WCAP];
  size_t n = 0, len;
  while (w[n] != 0) n++;
  memcpy(gw, w, (n + 1) * sizeof *w);
  for (len = 0; len < n; len++) {
    unsigned long c = (unsigned long)w[len];
    if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x7FFFFFFF) break;
    if (c > 0x10FFFF) {
      gw[len] = (wchar_t)0xD800;
      diffs[D4_ENCODE_ABOVE_MAX]++;
      break;
    }
  }
  for (len = 0; len <= lens_max; len++) {
    const wchar_t *up = w, *gp = gw;
    check_context("wcsrtombs, wide string starting %lX, len %u", (unsigned long)w[0], (unsigned)len);
    wcs_call(1, len, &up, w, &gp, gw);
    up = w;
    gp = gw;
    wcs_call(0, len, &up, w, &gp, gw);
    if (len == 0) continue;
    up = w;
    gp = gw;
    while (up != NULL) {
      size_t r = wcs_call(1, len, &up, w, &gp, gw);
      if (r == FAIL || check_failed > CHECK_MAX_REPORTS) break;
      if (r == 0 && up != NULL) break; /* the next character needs more than len bytes */
    }
  }
}

static void wc_strings(void) {
  size_t i;
  static const wchar_t bad[][5] = {
      {(wchar_t)0xD800, 0},
      {L'a', (wchar_t)0xDFFF, L'b', 0},
      {(wchar_t)0x20AC, (wchar_t)0xD800, 0}, /* an exactly full buffer stops before the error */
      {L'x', (wchar_t)-1, 0},
      {(wchar_t)0x20AC, (wchar_t)0x110000, L'y', 0}, /* D4 */
      {L'a', L'b', (wchar_t)0x7FFFFFFF, 0},          /* D4 */
      {(wchar_t)0x10348, (wchar_t)0x200000, 0},       /* D4 */
  };
  for (i = 0; i < COUNT_OF(strings); i++) {
    /* the well-formed prefix of each string, widened by the reference */
    const uint8_t *s = (const uint8_t *)strings[i];
    uint32_t cps[BCAP];
    wchar_t w[WCAP];
    size_t k;
    u8x_result r = ref_decode(s, strlen(strings[i]), U8X_STRICT, 0, 0, cps);
    for (k = 0; k < r.written; k++) w[k] = (wchar_t)cps[k];
    w[r.written] = 0;
    wcs_case(w, NMAX);
  }
  for (i = 0; i < COUNT_OF(bad); i++) wcs_case(bad[i], 14);
  check_context("%s", "");
}

/* ---- long texts: the bulk paths ------------------------------------------ */

/* (the buffers have room for `len` more after anything converted) */
static uint8_t long_text[LONG_LEN + 1], long_glibc[LONG_LEN + 1];
static wchar_t long_ubuf[2 * LONG_LEN + 2], long_gbuf[2 * LONG_LEN + 2];
static wchar_t long_wide[LONG_LEN + 1];
static char long_bytes_u[8 * LONG_LEN + 2], long_bytes_g[8 * LONG_LEN + 2];

static void long_texts(void) {
  static const size_t lens[] = {1, 2, 3, 7, 64, 333, 4096, LONG_LEN + 1};
  uint32_t rng = 777;
  unsigned round;
  for (round = 0; round < (light ? 4u : 24u); round++) {
    /* no damage, then damage ever more often */
    size_t n = ref_random_text(long_text, LONG_LEN, round % 4 == 0 ? 0 : 400 / round, &rng), li, k;
    long_text[n] = 0;
    /* glibc_text, for texts longer than its buffer */
    memcpy(long_glibc, long_text, n + 1);
    for (k = 0; k < n;) {
      struct ref_segment seg = ref_next(long_text + k, n - k);
      if (seg.kind == REF_CHAR) {
        k += seg.len;
        continue;
      }
      if (seg.kind == REF_INVALID && glibc_lenient(long_text + k, seg) == D1_ABOVE_MAX)
        long_glibc[long_text[k] >= 0xF5 ? k : k + seg.len] = 0xFF;
      break;
    }
    for (li = 0; li < COUNT_OF(lens); li++) {
      const char *up = (const char *)long_text, *gp = (const char *)long_glibc;
      u8x_mbstate_t ust = {0};
      mbstate_t gst;
      size_t total = 0;
      memset(&gst, 0, sizeof gst);
      check_context("long text %u (%u bytes), mbsrtowcs len %u", round, (unsigned)n, (unsigned)lens[li]);
      while (up != NULL) {
        size_t u, g = 0;
        int uerr;
        errno = 0;
        u = u8x_mbsrtowcs(long_ubuf + total, &up, lens[li], &ust);
        uerr = errno;
        mix(u);
        mix((uint64_t)uerr);
        if (oracle) {
          errno = 0;
          g = mbsrtowcs(long_gbuf + total, &gp, lens[li], &gst);
          CHECK_EQ(u, g);
          CHECK_EQ(uerr, errno);
          src_after(u, g, 1, up ? up - (const char *)long_text : -1, gp ? gp - (const char *)long_glibc : -1,
                    mbsinit(&gst));
        }
        if (u == FAIL || check_failed > CHECK_MAX_REPORTS) break;
        total += u;
      }
      mix(total);
      if (oracle) CHECK(memcmp(long_ubuf, long_gbuf, total * sizeof(wchar_t)) == 0);
      if (up == NULL && li + 1 == COUNT_OF(lens)) {
        /* the whole text converted: back again */
        static const size_t blens[] = {4, 5, 7, 64, 1000, 4 * LONG_LEN + 1};
        const wchar_t *uw, *gw;
        size_t bi;
        memcpy(long_wide, long_ubuf, (total + 1) * sizeof(wchar_t));
        for (bi = 0; bi < COUNT_OF(blens); bi++) {
          size_t done = 0, bl = blens[bi];
          uw = gw = long_wide;
          check_context("long text %u, wcsrtombs len %u", round, (unsigned)bl);
          while (uw != NULL) {
            size_t u, g;
            errno = 0;
            u = u8x_wcsrtombs(long_bytes_u + done, &uw, bl, NULL);
            mix(u);
            if (oracle) {
              mbstate_t st;
              memset(&st, 0, sizeof st);
              g = wcsrtombs(long_bytes_g + done, &gw, bl, &st);
              CHECK_EQ(u, g);
              CHECK_EQ(uw ? uw - long_wide : -1, gw ? gw - long_wide : -1);
            }
            if (u == FAIL || (u == 0 && uw != NULL) || check_failed > CHECK_MAX_REPORTS) break;
            done += u;
          }
          CHECK(uw == NULL);
          CHECK_BYTES(long_bytes_u, done, long_text, n);
        }
      }
    }
  }
  check_context("%s", "");
}

/* ---- conventions ----------------------------------------------------------- */

static void conventions(void) {
  u8x_mbstate_t st = {0}, keep;
  mbstate_t gst;
  wchar_t wc;
  char b[8];
  check_context("conventions");
  CHECK(u8x_mbsinit(NULL) != 0);
  CHECK(u8x_mbsinit(&st) != 0);
  CHECK_EQ(sizeof(u8x_mbstate_t), 4);
  CHECK_EQ(U8X_MB_LEN_MAX, 4);
  /* NULL s: the end of the conversion */
  CHECK_EQ(u8x_mbrtowc(&wc, NULL, 5, &st), 0);
  CHECK_EQ(u8x_mbrtowc(NULL, "\xE2", 1, &st), MORE);
  CHECK(!u8x_mbsinit(&st));
  keep = st;
  CHECK_EQ(u8x_mbrtowc(&wc, "\x82\xAC", 0, &st), MORE); /* n = 0: nothing changes */
  CHECK(memcmp(&st, &keep, sizeof st) == 0);
  errno = 0;
  CHECK_EQ(u8x_mbrtowc(&wc, NULL, 0, &st), FAIL); /* pending bytes, then "" */
  CHECK_EQ(errno, EILSEQ);
  CHECK(u8x_mbsinit(&st)); /* D3 */
  /* a copy of a state is a copy of the conversion */
  CHECK_EQ(u8x_mbrtowc(NULL, "\xF0\x9F", 2, &st), MORE);
  keep = st;
  wc = WSENT;
  CHECK_EQ(u8x_mbrtowc(&wc, "\x98\x80zz", 4, &st), 2);
  CHECK_EQ(wc, 0x1F600);
  wc = WSENT;
  CHECK_EQ(u8x_mbrlen("\x98\x80", 2, &keep), 2);
  CHECK_EQ(wc, WSENT);
  CHECK(u8x_mbsinit(&keep));
  /* the NUL character */
  wc = WSENT;
  CHECK_EQ(u8x_mbrtowc(&wc, "", 1, &st), 0);
  CHECK_EQ(wc, 0);
  /* a NULL state: fresh for each call, nothing kept (glibc keeps it in a
   * hidden static state) */
  CHECK_EQ(u8x_mbrtowc(&wc, "\xE2", 1, NULL), MORE);
  errno = 0;
  CHECK_EQ(u8x_mbrtowc(&wc, "\x82\xAC", 2, NULL), FAIL);
  CHECK_EQ(errno, EILSEQ);
  CHECK_EQ(u8x_mbrlen("\xE2\x82\xAC", 3, NULL), 3);
  CHECK_EQ(u8x_mbrlen("\xE2\x82", 2, NULL), MORE);
  if (oracle) {
    CHECK_EQ(mbrtowc(&wc, "\xE2", 1, NULL), MORE);
    CHECK_EQ(mbrtowc(&wc, "\x82\xAC", 2, NULL), 2);
  }
  /* wcrtomb: NULL s resets, pending bytes or not */
  CHECK_EQ(u8x_mbrtowc(NULL, "\xE2", 1, &st), MORE);
  CHECK_EQ(u8x_wcrtomb(NULL, 0x20AC, &st), 1);
  CHECK(u8x_mbsinit(&st));
  memset(b, BSENT, sizeof b);
  CHECK_EQ(u8x_wcrtomb(b, 0, &st), 1);
  CHECK_EQ(b[0], 0);
  CHECK_EQ(u8x_wcrtomb(b, 0x10FFFF, NULL), 4);
  CHECK_BYTES(b, 5, "\xF4\x8F\xBF\xBF\x5A", 5);
  if (oracle) {
    memset(&gst, 0, sizeof gst);
    CHECK_EQ(mbrtowc(NULL, "\xE2", 1, &gst), MORE);
    CHECK_EQ(wcrtomb(NULL, 0x20AC, &gst), 1);
    CHECK(mbsinit(&gst));
  }
  /* encoding from a state holding decode bytes: EINVAL (glibc: EILSEQ) */
  CHECK_EQ(u8x_mbrtowc(NULL, "\xE2", 1, &st), MORE);
  keep = st;
  memset(b, BSENT, sizeof b);
  errno = 0;
  CHECK_EQ(u8x_wcrtomb(b, L'A', &st), FAIL);
  CHECK_EQ(errno, EINVAL);
  CHECK_EQ(b[0], BSENT);
  CHECK(memcmp(&st, &keep, sizeof st) == 0);
  {
    static const wchar_t wa[] = {L'a', 0};
    const wchar_t *p = wa;
    errno = 0;
    CHECK_EQ(u8x_wcsrtombs(b, &p, 8, &st), FAIL);
    CHECK_EQ(errno, EINVAL);
    CHECK(p == wa);
    errno = 0;
    CHECK_EQ(u8x_wcsrtombs(NULL, &p, 0, &st), FAIL);
    CHECK_EQ(errno, EINVAL);
    if (oracle) {
      memset(&gst, 0, sizeof gst);
      CHECK_EQ(mbrtowc(NULL, "\xE2", 1, &gst), MORE);
      errno = 0;
      CHECK_EQ(wcrtomb(b, L'A', &gst), FAIL);
      CHECK_EQ(errno, EILSEQ);
    }
  }
  /* corrupt states: EINVAL, nothing changed; mbsinit says "not initial" */
  {
    static const uint8_t corrupt[][4] = {{4, 0, 0, 0}, {0, 0xE2, 0, 0}, {1, 0x41, 0, 0}, {1, 0x80, 0, 0},
                                         {2, 0xE0, 0x80, 0}, {1, 0xE2, 0x82, 0}, {3, 0xE2, 0x82, 0xAC},
                                         {1, 0xC0, 0, 0}, {255, 255, 255, 255}};
    size_t i;
    for (i = 0; i < COUNT_OF(corrupt); i++) {
      const char *src = "abc";
      static const wchar_t wsrc[] = {L'a', 0};
      const wchar_t *wp = wsrc;
      wchar_t w[4];
      check_context("corrupt state #%u", (unsigned)i);
      memcpy(&st, corrupt[i], sizeof st);
      CHECK_EQ(u8x_mbsinit(&st), 0);
      errno = 0;
      CHECK_EQ(u8x_mbrtowc(&wc, "a", 1, &st), FAIL);
      CHECK_EQ(errno, EINVAL);
      errno = 0;
      CHECK_EQ(u8x_mbrlen(NULL, 0, &st), FAIL);
      CHECK_EQ(errno, EINVAL);
      errno = 0;
      CHECK_EQ(u8x_wcrtomb(NULL, 0, &st), FAIL);
      CHECK_EQ(errno, EINVAL);
      errno = 0;
      CHECK_EQ(u8x_mbsrtowcs(w, &src, 4, &st), FAIL);
      CHECK_EQ(errno, EINVAL);
      errno = 0;
      CHECK_EQ(u8x_mbsrtowcs(NULL, &src, 0, &st), FAIL);
      CHECK_EQ(errno, EINVAL);
      CHECK(src[0] == 'a');
      errno = 0;
      CHECK_EQ(u8x_wcsrtombs(b, &wp, 4, &st), FAIL);
      CHECK_EQ(errno, EINVAL);
      CHECK(memcmp(&st, corrupt[i], sizeof st) == 0);
    }
  }
  check_context("%s", "");
}

static void run_all(void) {
  conventions();
  short_inputs();
  wide_chars();
  mb_strings();
  wc_strings();
  long_texts();
}

int main(void) {
  const char *loc;
  uint64_t utf8_digest;
  size_t i;
  check_begin("restartable");
  /* under valgrind or qemu-user (.ci/run sets U8X_EMULATED), where the
   * full spaces took 54-120 s a run: a sample of them */
  light = check_light();
  CHECK_EQ(sizeof(wchar_t), 4);
  loc = setlocale(LC_ALL, "C.UTF-8");
  if (!CHECK(loc != NULL)) {
    printf("setlocale(LC_ALL, \"C.UTF-8\") failed: glibc's oracle is unavailable\n");
    return check_done();
  }
  CHECK(MB_CUR_MAX >= 4);
  oracle = 1;
  digest = 14695981039346656037ull;
  run_all();
  utf8_digest = digest;
  printf("against glibc (C.UTF-8)%s: %lu checks so far\n", light ? ", sampled under valgrind or an emulator" : "", check_total);
  for (i = 0; i < D_KINDS; i++) {
    printf("  documented difference %s: met %lu times\n", diff_names[i], diffs[i]);
    check_context("documented difference %s", diff_names[i]);
    CHECK(diffs[i] > 0);
  }
  check_context("%s", "");

  loc = setlocale(LC_ALL, "C");
  CHECK(loc != NULL);
  {
    wchar_t w = 0;
    mbstate_t gst;
    size_t r;
    memset(&gst, 0, sizeof gst);
    r = mbrtowc(&w, "\xE2\x82\xAC", 3, &gst);
    printf("under \"C\", glibc's mbrtowc(\"\\xE2\\x82\\xAC\") = %ld, MB_CUR_MAX = %u\n", r == FAIL ? -1L : (long)r,
           (unsigned)MB_CUR_MAX);
  }
  oracle = 0;
  digest = 14695981039346656037ull;
  run_all();
  check_context("under \"C\"");
  CHECK_EQ(digest, utf8_digest);
  printf("under \"C\": every u8x answer unchanged (digest %016llx)\n", (unsigned long long)digest);
  check_context("%s", "");
  return check_done();
}
