/* u8x_mbstowcs / u8x_wcstombs: the POSIX return conventions, with glibc's
 * own mbstowcs / wcstombs under setlocale(LC_ALL, "C.UTF-8") as the oracle
 * on valid strings (return value and the whole destination buffer, for every
 * n); (size_t)-1 with errno EILSEQ on invalid input; and the same answers
 * after setlocale(LC_ALL, "C"), which changes glibc's but must not change
 * ours. */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <wchar.h>

#include "check.h"

#define FAIL ((size_t)-1)
#define WSENT ((wchar_t)0x5A5A5A5A)
#define BSENT 0x5A
#define WCAP 24 /* wide destination buffer, in wchar_t */
#define BCAP 48 /* narrow destination buffer, in bytes */
#define NMAX 18 /* n goes 0..NMAX */

static const char *const valid[] = {
    "",
    "abc",
    "\xE2\x82\xAC",                                     /* EURO SIGN */
    "A\xE2\x89\xA2\xCE\x91.",                           /* RFC 2044: A<NOT IDENTICAL TO><ALPHA>. */
    "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",             /* RFC 2044: nihongo */
    "\xF0\x90\x8D\x88",                                 /* U+10348 */
    "x\xC2\xA2y\xF4\x8F\xBF\xBFz\xEF\xBF\xBD",          /* 1, 2, 4 and 3 bytes */
    "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80", /* Table 3-7 edges */
};

/* glibc's answers under C.UTF-8, kept for the run under "C" */
static size_t mb_count[COUNT_OF(valid)];
static size_t mb_ret[COUNT_OF(valid)][NMAX + 1];
static wchar_t mb_buf[COUNT_OF(valid)][NMAX + 1][WCAP];
static wchar_t wide[COUNT_OF(valid)][WCAP]; /* each string, widened by glibc */
static size_t wc_count[COUNT_OF(valid)];
static size_t wc_ret[COUNT_OF(valid)][NMAX + 1];
static char wc_buf[COUNT_OF(valid)][NMAX + 1][BCAP];

static void wfill(wchar_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) p[i] = WSENT;
}

/* Ours against glibc, every n; records glibc's answers. */
static void against_glibc(void) {
  size_t i, n;
  for (i = 0; i < COUNT_OF(valid); i++) {
    const char *s = valid[i];
    wchar_t ours[WCAP];
    char bytes[BCAP];
    check_context("mbstowcs, valid string #%u", (unsigned)i);
    mb_count[i] = mbstowcs(NULL, s, 0);
    CHECK(mb_count[i] != FAIL && mb_count[i] <= NMAX - 2);
    CHECK_EQ(u8x_mbstowcs(NULL, s, 0), mb_count[i]);
    CHECK_EQ(u8x_mbstowcs(NULL, s, 1), mb_count[i]); /* n is ignored */
    CHECK_EQ(u8x_mbstowcs(NULL, s, SIZE_MAX), mb_count[i]);
    for (n = 0; n <= NMAX; n++) {
      check_context("mbstowcs, valid string #%u, n = %u", (unsigned)i, (unsigned)n);
      wfill(mb_buf[i][n], WCAP);
      wfill(ours, WCAP);
      mb_ret[i][n] = mbstowcs(mb_buf[i][n], s, n);
      CHECK_EQ(u8x_mbstowcs(ours, s, n), mb_ret[i][n]);
      CHECK(memcmp(ours, mb_buf[i][n], sizeof ours) == 0);
    }
    /* the whole string, widened, for wcstombs */
    wfill(wide[i], WCAP);
    CHECK_EQ(mbstowcs(wide[i], s, WCAP), mb_count[i]);

    check_context("wcstombs, valid string #%u", (unsigned)i);
    wc_count[i] = wcstombs(NULL, wide[i], 0);
    CHECK_EQ(wc_count[i], strlen(s));
    CHECK_EQ(u8x_wcstombs(NULL, wide[i], 0), wc_count[i]);
    CHECK_EQ(u8x_wcstombs(NULL, wide[i], 3), wc_count[i]);
    for (n = 0; n <= NMAX; n++) {
      check_context("wcstombs, valid string #%u, n = %u", (unsigned)i, (unsigned)n);
      memset(wc_buf[i][n], BSENT, BCAP);
      memset(bytes, BSENT, BCAP);
      wc_ret[i][n] = wcstombs(wc_buf[i][n], wide[i], n);
      CHECK_EQ(u8x_wcstombs(bytes, wide[i], n), wc_ret[i][n]);
      CHECK_BYTES(bytes, BCAP, wc_buf[i][n], BCAP);
    }
  }
  check_context("%s", "");
  printf("glibc agrees on %u valid strings, n = 0..%u, both directions\n", (unsigned)COUNT_OF(valid), NMAX);
}

/* The same calls after the locale changed: our answers are glibc's C.UTF-8
 * answers recorded before. */
static void unaffected_by_locale(void) {
  size_t i, n;
  for (i = 0; i < COUNT_OF(valid); i++) {
    wchar_t ours[WCAP];
    char bytes[BCAP];
    check_context("under \"C\": mbstowcs, valid string #%u", (unsigned)i);
    CHECK_EQ(u8x_mbstowcs(NULL, valid[i], 0), mb_count[i]);
    CHECK_EQ(u8x_wcstombs(NULL, wide[i], 0), wc_count[i]);
    for (n = 0; n <= NMAX; n++) {
      check_context("under \"C\": valid string #%u, n = %u", (unsigned)i, (unsigned)n);
      wfill(ours, WCAP);
      CHECK_EQ(u8x_mbstowcs(ours, valid[i], n), mb_ret[i][n]);
      CHECK(memcmp(ours, mb_buf[i][n], sizeof ours) == 0);
      memset(bytes, BSENT, BCAP);
      CHECK_EQ(u8x_wcstombs(bytes, wide[i], n), wc_ret[i][n]);
      CHECK_BYTES(bytes, BCAP, wc_buf[i][n], BCAP);
    }
  }
  check_context("%s", "");
}

/* Conventions checked without glibc: the terminator only when there is
 * room, NULL dest counts. */
static void conventions(void) {
  wchar_t w[8];
  char b[8];
  static const wchar_t euro2[] = {0x20AC, 0x20AC, 0};
  wfill(w, 8);
  CHECK_EQ(u8x_mbstowcs(w, "abc", 3), 3);
  CHECK(w[0] == L'a' && w[1] == L'b' && w[2] == L'c');
  CHECK(w[3] == WSENT); /* n reached: no terminator */
  CHECK_EQ(u8x_mbstowcs(w, "abc", 4), 3);
  CHECK(w[3] == 0);
  CHECK(w[4] == WSENT);
  wfill(w, 8);
  CHECK_EQ(u8x_mbstowcs(w, "abc", 2), 2);
  CHECK(w[2] == WSENT);
  CHECK_EQ(u8x_mbstowcs(w, "abc", 0), 0);
  wfill(w, 8);
  CHECK_EQ(u8x_mbstowcs(w, "", 1), 0);
  CHECK(w[0] == 0 && w[1] == WSENT);

  memset(b, BSENT, 8);
  CHECK_EQ(u8x_wcstombs(b, euro2, 6), 6);
  CHECK_BYTES(b, 7, "\xE2\x82\xAC\xE2\x82\xAC\x5A", 7); /* n reached: no terminator */
  memset(b, BSENT, 8);
  CHECK_EQ(u8x_wcstombs(b, euro2, 7), 6);
  CHECK_BYTES(b, 8, "\xE2\x82\xAC\xE2\x82\xAC\0\x5A", 8);
  memset(b, BSENT, 8);
  CHECK_EQ(u8x_wcstombs(b, euro2, 5), 3); /* the second euro does not fit: never split */
  CHECK_BYTES(b, 8, "\xE2\x82\xAC\x5A\x5A\x5A\x5A\x5A", 8);
  CHECK_EQ(u8x_wcstombs(b, euro2, 2), 0);
  CHECK_EQ(u8x_wcstombs(NULL, euro2, 0), 6);
}

struct bad_mb {
  const char *s;
  size_t k;               /* wide characters before the ill-formed sequence */
  const wchar_t prefix[3]; /* those characters */
};

static const struct bad_mb bad_mbs[] = {
    {"\xC0\x80", 0, {0}},                         /* RFC 3629: overlong NUL */
    {"\xED\xA1\x8C\xED\xBE\xB4", 0, {0}},         /* RFC 3629: surrogate pair for U+233B4 */
    {"ab\xFF", 2, {L'a', L'b'}},                  /* invalid byte */
    {"ab\xE2\x82", 2, {L'a', L'b'}},              /* cut by the terminator */
    {"\xF4\x90\x80\x80", 0, {0}},                 /* U+110000 */
    {"x\x80", 1, {L'x'}},                         /* lone continuation byte */
    {"\xE2\x82\xAC\xF8\x88\x80\x80\x80", 1, {0x20AC}}, /* 5-byte form */
    {"\xE2\x82\xAC\xE0\x80\xAF", 1, {0x20AC}},    /* overlong '/' */
};

struct bad_wc {
  wchar_t s[4];
  size_t k; /* bytes before the invalid unit */
  const char *prefix;
};

static const struct bad_wc bad_wcs[] = {
    {{(wchar_t)0xD800, 0}, 0, ""},
    {{L'a', (wchar_t)0xDFFF, 0}, 1, "a"},
    {{(wchar_t)0x20AC, (wchar_t)0x110000, 0}, 3, "\xE2\x82\xAC"},
    {{(wchar_t)-1, 0}, 0, ""},
    {{L'x', (wchar_t)0x7FFFFFFF, L'y', 0}, 1, "x"},
    {{(wchar_t)0x10348, (wchar_t)0xDC80, 0}, 4, "\xF0\x90\x8D\x88"},
};

static void invalid(const char *when) {
  size_t i, n;
  for (i = 0; i < COUNT_OF(bad_mbs); i++) {
    const struct bad_mb *t = &bad_mbs[i];
    wchar_t w[WCAP];
    check_context("%s: invalid multibyte string #%u", when, (unsigned)i);
    errno = 0;
    CHECK_EQ(u8x_mbstowcs(NULL, t->s, 0), FAIL);
    CHECK_EQ(errno, EILSEQ);
    wfill(w, WCAP);
    errno = 0;
    CHECK_EQ(u8x_mbstowcs(w, t->s, WCAP), FAIL);
    CHECK_EQ(errno, EILSEQ);
    /* what came before the error was converted, nothing after it */
    CHECK(memcmp(w, t->prefix, t->k * sizeof(wchar_t)) == 0);
    CHECK(w[t->k] == WSENT);
    /* an error after n characters is never reached */
    for (n = 0; n <= t->k; n++) {
      check_context("%s: invalid multibyte string #%u, n = %u", when, (unsigned)i, (unsigned)n);
      wfill(w, WCAP);
      CHECK_EQ(u8x_mbstowcs(w, t->s, n), n);
      CHECK(memcmp(w, t->prefix, n * sizeof(wchar_t)) == 0);
      CHECK(w[n] == WSENT);
    }
    check_context("%s: invalid multibyte string #%u, n = %u", when, (unsigned)i, (unsigned)(t->k + 1));
    errno = 0;
    CHECK_EQ(u8x_mbstowcs(w, t->s, t->k + 1), FAIL);
    CHECK_EQ(errno, EILSEQ);
  }
  for (i = 0; i < COUNT_OF(bad_wcs); i++) {
    const struct bad_wc *t = &bad_wcs[i];
    char b[BCAP];
    check_context("%s: invalid wide string #%u", when, (unsigned)i);
    errno = 0;
    CHECK_EQ(u8x_wcstombs(NULL, t->s, 0), FAIL);
    CHECK_EQ(errno, EILSEQ);
    memset(b, BSENT, BCAP);
    errno = 0;
    CHECK_EQ(u8x_wcstombs(b, t->s, BCAP), FAIL);
    CHECK_EQ(errno, EILSEQ);
    CHECK_BYTES(b, t->k, t->prefix, t->k);
    CHECK_EQ(b[t->k], BSENT);
    /* the buffer fills before the invalid unit: no error */
    check_context("%s: invalid wide string #%u, n = %u", when, (unsigned)i, (unsigned)t->k);
    memset(b, BSENT, BCAP);
    CHECK_EQ(u8x_wcstombs(b, t->s, t->k), t->k);
    CHECK_BYTES(b, t->k, t->prefix, t->k);
    CHECK_EQ(b[t->k], BSENT);
    check_context("%s: invalid wide string #%u, n = %u", when, (unsigned)i, (unsigned)t->k + 1);
    errno = 0;
    CHECK_EQ(u8x_wcstombs(b, t->s, t->k + 1), FAIL);
    CHECK_EQ(errno, EILSEQ);
  }
  check_context("%s", "");
}

int main(void) {
  const char *loc;
  check_begin("posix");
  CHECK_EQ(sizeof(wchar_t), 4);
  loc = setlocale(LC_ALL, "C.UTF-8");
  if (!CHECK(loc != NULL)) {
    printf("setlocale(LC_ALL, \"C.UTF-8\") failed: glibc's oracle is unavailable\n");
    return check_done();
  }
  CHECK(MB_CUR_MAX >= 4);
  against_glibc();
  conventions();
  invalid("C.UTF-8");
  printf("invalid input: (size_t)-1 and EILSEQ, prefix written, n respected\n");

  loc = setlocale(LC_ALL, "C");
  CHECK(loc != NULL);
  {
    /* show what the switch does to glibc (informational only: a C library
     * whose "C" locale is UTF-8 is not wrong) */
    wchar_t w[4];
    size_t r = mbstowcs(w, "\xE2\x82\xAC", 4);
    printf("under \"C\", glibc's mbstowcs(\"\\xE2\\x82\\xAC\") = %ld, MB_CUR_MAX = %u\n",
           r == FAIL ? -1L : (long)r, (unsigned)MB_CUR_MAX);
  }
  unaffected_by_locale();
  conventions();
  invalid("C");
  printf("under \"C\": u8x's answers are unchanged\n");
  return check_done();
}
