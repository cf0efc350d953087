/* A program built with -O2 -D_FORTIFY_SOURCE=2 calls glibc's checked entry
 * points (__mbsrtowcs_chk, __mbsnrtowcs_chk, __mbstowcs_chk, __wcrtomb_chk,
 * __wcsrtombs_chk, __wcsnrtombs_chk, __wcstombs_chk, __wctomb_chk; run.sh
 * checks with nm that it does). Each must reach the preload when it is
 * loaded: the input holds F4 90 80 80 (above U+10FFFF) or the value
 * 0x110000, which glibc 2.36 converts and the preload refuses (EILSEQ).
 * Prints one verdict per function: "strict" or "glibc". */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static const char *v(size_t r) { return r == (size_t)-1 && errno == EILSEQ ? "strict" : "glibc"; }

int main(void) {
  volatile size_t n16v = 16, n3v = 3, n5v = 5;
  size_t n16 = n16v, n3 = n3v, n5 = n5v; /* unknown to the compiler: the _chk calls stay */
  wchar_t w[16];
  char b[16], small[8]; /* smaller than MB_LEN_MAX: wcrtomb and wctomb checked */
  const char *s = "a\xF4\x90\x80\x80";
  const wchar_t big[] = {L'a', 0x110000, 0}, *wp;
  mbstate_t st;
  if (setlocale(LC_ALL, "C.UTF-8") == NULL) return 2;
  memset(&st, 0, sizeof st);
  errno = 0; printf("__mbsrtowcs_chk %s\n", v(mbsrtowcs(w, &s, n16, &st)));
  s = "a\xF4\x90\x80\x80";
  errno = 0; printf("__mbsnrtowcs_chk %s\n", v(mbsnrtowcs(w, &s, n5, n16, &st)));
  errno = 0; printf("__mbstowcs_chk %s\n", v(mbstowcs(w, "a\xF4\x90\x80\x80", n16)));
  errno = 0; printf("__wcrtomb_chk %s\n", v(wcrtomb(small, 0x110000, &st)));
  wp = big;
  errno = 0; printf("__wcsrtombs_chk %s\n", v(wcsrtombs(b, &wp, n16, &st)));
  wp = big;
  errno = 0; printf("__wcsnrtombs_chk %s\n", v(wcsnrtombs(b, &wp, n3, n16, &st)));
  errno = 0; printf("__wcstombs_chk %s\n", v(wcstombs(b, big, n16)));
  errno = 0; printf("__wctomb_chk %s\n", wctomb(small, 0x110000) == -1 && errno == EILSEQ ? "strict" : "glibc");
  return 0;
}
