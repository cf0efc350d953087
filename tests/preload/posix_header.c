/* u8x_posix.h: a program written against libc's names, rebuilt onto u8x's
 * drop-ins. No setlocale: they are UTF-8 in any locale. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "u8x_posix.h"

#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "posix_header.c:%d: %s\n", __LINE__, #cond);    \
      return 1;                                                       \
    }                                                                 \
  } while (0)

int main(void) {
  const char *text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", *p = text;
  mbstate_t st = {0}; /* u8x_mbstate_t */
  wchar_t w[8], wc;
  char back[16];
  size_t i, n, k = 0;
  unsigned int c32;
  CHECK(sizeof st == 4);
  for (i = 0; text[i] != '\0'; i++) { /* byte by byte */
    n = mbrtowc(&wc, text + i, 1, &st);
    if (n == 1) w[k++] = wc;
    else CHECK(n == (size_t)-2 && !mbsinit(&st));
  }
  CHECK(k == 4 && w[0] == L'a' && w[1] == 0xE9 && w[2] == 0x20AC && w[3] == 0x1F600 && mbsinit(&st));
  CHECK(mbsrtowcs(w, &p, 8, &st) == 4 && p == NULL && w[3] == 0x1F600);
  CHECK(mbstowcs(NULL, text, 0) == 4 && wcstombs(back, w, sizeof back) == 10 && strcmp(back, text) == 0);
  CHECK(mblen("\xE2\x82\xAC", 3) == 3 && mblen("\xE0\x80", 2) == -1 && mbtowc(&wc, "\xC3\xA9", 2) == 2);
  CHECK(wctomb(back, 0x20AC) == 3 && wctomb(back, 0x110000) == -1 && btowc('x') == L'x' && btowc(0xE9) == WEOF);
  CHECK(wctob(L'x') == 'x' && wctob(0xE9) == EOF);
  CHECK(mbrtoc32(&c32, "\xF0\x9F\x98\x80", 4, NULL) == 4 && c32 == 0x1F600 && c32rtomb(back, 0x1F600, NULL) == 4);
  CHECK(mbrtowc(&wc, "\xF4\x90\x80\x80", 4, NULL) == (size_t)-1); /* RFC 3629 */
  printf("u8x_posix.h: 19 calls through libc's names answered by u8x\n");
  return 0;
}
