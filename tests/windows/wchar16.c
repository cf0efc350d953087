/* The POSIX drop-ins where wchar_t is 16 bits (Windows): UTF-16, a
 * character above U+FFFF as a surrogate pair, as Windows' own CRT has it in
 * a UTF-8 locale; one character at a time as C11's mbrtoc16 and c16rtomb
 * (the pair's second half owed, or its first held, in the u8x_mbstate_t).
 * Built with MinGW-w64 and run under Wine by tests/windows/run.sh. */
#include <errno.h>
#include <wchar.h>

#include "../../c-tests/check.h"

#if WCHAR_MAX != 0xFFFF
#error "this test is for a 16-bit wchar_t"
#endif

/* "a é € 😀 z" and U+10000, U+10FFFF: every length of UTF-8, both ends of
 * the supplementary planes. */
static const char text[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z\xF0\x90\x80\x80\xF4\x8F\xBF\xBF";
static const wchar_t units[] = {0x61, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0x7A, 0xD800, 0xDC00, 0xDBFF, 0xDFFF, 0};
#define UNITS (sizeof units / sizeof units[0] - 1)

static void bulk(void) {
  wchar_t buf[16];
  char bytes[32];
  size_t r;
  check_context("mbstowcs");
  CHECK_EQ(u8x_mbstowcs(NULL, text, 0), UNITS);
  r = u8x_mbstowcs(buf, text, 16);
  CHECK_EQ(r, UNITS);
  CHECK(memcmp(buf, units, sizeof units) == 0);
  /* Room for 4 units: a pair is never split, so 3. */
  memset(buf, 0x5A, sizeof buf);
  CHECK_EQ(u8x_mbstowcs(buf, text, 4), 3);
  CHECK_EQ(buf[3], 0x5A5A);
  CHECK_EQ(u8x_mbstowcs(buf, text, 5), 5);

  check_context("wcstombs");
  CHECK_EQ(u8x_wcstombs(NULL, units, 0), strlen(text));
  r = u8x_wcstombs(bytes, units, sizeof bytes);
  CHECK_EQ(r, strlen(text));
  CHECK(strcmp(bytes, text) == 0);
  {
    static const wchar_t lone_high[] = {0x61, 0xD83D, 0x7A, 0};
    static const wchar_t lone_low[] = {0x61, 0xDE00, 0};
    static const wchar_t high_last[] = {0x61, 0xD83D, 0};
    errno = 0;
    CHECK_EQ(u8x_wcstombs(bytes, lone_high, sizeof bytes), (size_t)-1);
    CHECK_EQ(errno, EILSEQ);
    errno = 0;
    CHECK_EQ(u8x_wcstombs(NULL, lone_low, 0), (size_t)-1);
    CHECK_EQ(errno, EILSEQ);
    errno = 0;
    CHECK_EQ(u8x_wcstombs(bytes, high_last, sizeof bytes), (size_t)-1);
    CHECK_EQ(errno, EILSEQ);
  }
}

static void one_at_a_time(void) {
  u8x_mbstate_t st;
  wchar_t wc = 0;
  char out[8];
  size_t i;
  check_context("mbrtowc, whole character");
  memset(&st, 0, sizeof st);
  CHECK_EQ(u8x_mbrtowc(&wc, "\xF0\x9F\x98\x80", 4, &st), 4);
  CHECK_EQ(wc, 0xD83D);
  CHECK_EQ(u8x_mbsinit(&st), 0);
  CHECK_EQ(u8x_mbrtowc(&wc, "z", 1, &st), (size_t)-3);
  CHECK_EQ(wc, 0xDE00);
  CHECK(u8x_mbsinit(&st) != 0);
  CHECK_EQ(u8x_mbrtowc(&wc, "z", 1, &st), 1);
  CHECK_EQ(wc, 0x7A);

  check_context("mbrtowc, byte by byte");
  for (i = 0; i < 3; i++) CHECK_EQ(u8x_mbrtowc(&wc, "\xF4\x8F\xBF\xBF" + i, 1, &st), (size_t)-2);
  CHECK_EQ(u8x_mbrtowc(&wc, "\xBF", 1, &st), 1);
  CHECK_EQ(wc, 0xDBFF);
  CHECK_EQ(u8x_mbrtowc(&wc, NULL, 0, &st), (size_t)-3);
  CHECK_EQ(wc, 0xDFFF);
  CHECK(u8x_mbsinit(&st) != 0);

  check_context("mbrtowc and mbrlen without a place for the second half");
  errno = 0;
  CHECK_EQ(u8x_mbrtowc(&wc, "\xF0\x90\x80\x80", 4, NULL), (size_t)-1);
  CHECK_EQ(errno, EILSEQ);
  CHECK_EQ(u8x_mbrlen("\xF0\x90\x80\x80", 4, &st), 4);
  CHECK(u8x_mbsinit(&st) != 0);
  CHECK_EQ(u8x_mbrtowc(&wc, "\xE2\x82\xAC", 3, NULL), 3);
  CHECK_EQ(wc, 0x20AC);

  check_context("wcrtomb");
  memset(out, 0, sizeof out);
  CHECK_EQ(u8x_wcrtomb(out, 0xD83D, &st), 0);
  CHECK_EQ(u8x_mbsinit(&st), 0);
  CHECK_EQ(u8x_wcrtomb(out, 0xDE00, &st), 4);
  CHECK(memcmp(out, "\xF0\x9F\x98\x80", 4) == 0);
  CHECK(u8x_mbsinit(&st) != 0);
  errno = 0;
  CHECK_EQ(u8x_wcrtomb(out, 0xD83D, NULL), (size_t)-1);
  CHECK_EQ(errno, EILSEQ);
  errno = 0;
  CHECK_EQ(u8x_wcrtomb(out, 0xDE00, &st), (size_t)-1);
  CHECK_EQ(errno, EILSEQ);
  CHECK_EQ(u8x_wcrtomb(out, 0xDBFF, &st), 0);
  errno = 0;
  CHECK_EQ(u8x_wcrtomb(out, 0x61, &st), (size_t)-1);
  CHECK_EQ(errno, EILSEQ);
  CHECK(u8x_mbsinit(&st) != 0);
  CHECK_EQ(u8x_wcrtomb(out, 0xFFFF, &st), 3);
  CHECK(memcmp(out, "\xEF\xBF\xBF", 3) == 0);

  check_context("the two kinds of state are not mixed up");
  CHECK_EQ(u8x_mbrtowc(&wc, "\xF0\x9F\x98\x80", 4, &st), 4);
  errno = 0;
  CHECK_EQ(u8x_wcrtomb(out, 0x61, &st), (size_t)-1);
  CHECK_EQ(errno, EINVAL);
  CHECK_EQ(u8x_mbrtowc(&wc, "", 1, &st), (size_t)-3);
  CHECK_EQ(u8x_wcrtomb(out, 0xD83D, &st), 0);
  errno = 0;
  CHECK_EQ(u8x_mbrtowc(&wc, "a", 1, &st), (size_t)-1);
  CHECK_EQ(errno, EINVAL);
  CHECK_EQ(u8x_wcrtomb(NULL, 0, &st), 1);
  CHECK(u8x_mbsinit(&st) != 0);
}

/* A caller's loop with a small buffer gets every unit, in order, whatever
 * the buffer's size, one unit included. */
static void strings_in_pieces(void) {
  size_t len;
  for (len = 1; len <= 6; len++) {
    wchar_t got[32];
    char back[64];
    size_t n = 0, m = 0;
    const char *p = text;
    const wchar_t *w;
    u8x_mbstate_t st;
    int rounds = 0;
    check_context("mbsrtowcs, len %u", (unsigned)len);
    memset(&st, 0, sizeof st);
    while (p != NULL && rounds++ < 64) {
      wchar_t buf[8];
      size_t r = u8x_mbsrtowcs(buf, &p, len, &st);
      if (!CHECK(r != (size_t)-1 && r <= len)) break;
      memcpy(got + n, buf, (p == NULL ? r + 1 : r) * sizeof buf[0]);
      n += r;
    }
    CHECK_EQ(n, UNITS);
    CHECK(memcmp(got, units, sizeof units) == 0);

    check_context("wcsrtombs, len %u", (unsigned)len + 3);
    w = units;
    rounds = 0;
    while (w != NULL && rounds++ < 64) {
      char buf[16];
      size_t r = u8x_wcsrtombs(buf, &w, len + 3, NULL);
      if (!CHECK(r != (size_t)-1 && r <= len + 3)) break;
      memcpy(back + m, buf, w == NULL ? r + 1 : r);
      m += r;
    }
    CHECK_EQ(m, strlen(text));
    CHECK(strcmp(back, text) == 0);
  }
  {
    const char *p = "\xF0\x9F\x98\x80";
    wchar_t buf[2];
    check_context("mbsrtowcs, one unit of room and no state");
    errno = 0;
    CHECK_EQ(u8x_mbsrtowcs(buf, &p, 1, NULL), (size_t)-1);
    CHECK_EQ(errno, EILSEQ);
    check_context("mbsrtowcs, counting");
    CHECK_EQ(u8x_mbsrtowcs(NULL, &p, 0, NULL), 2);
  }
}

int main(void) {
  check_begin("wchar16");
  bulk();
  one_at_a_time();
  strings_in_pieces();
  return check_done();
}
