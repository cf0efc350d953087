/* u8x_posix.h: libc's multibyte conversion names mapped onto u8x's
 * drop-ins, for C code that can be rebuilt (the preload library,
 * libu8x-libc.so, is for code that cannot). Include it after the system
 * headers (<wchar.h>, <stdlib.h>, <uchar.h>), in C, and link with -lu8x:
 *
 *     #include <wchar.h>
 *     #include <u8x_posix.h>
 *     mbstate_t st = {0};               // u8x_mbstate_t
 *     n = mbrtowc(&wc, s, len, &st);    // u8x_mbrtowc
 *
 * What changes against libc (include/u8x.h documents each function):
 * - Always UTF-8 (RFC 3629), whatever the locale: no setlocale needed, and
 *   a non-UTF-8 locale is not honoured. Code that must follow the locale
 *   wants the preload library instead.
 * - mbstate_t becomes u8x_mbstate_t (4 bytes; zero it for the initial
 *   state). A libc function this header does not map cannot be given one:
 *   the compiler says so, rather than a state being misread.
 * - A NULL state is a fresh state for that call, not a hidden static one:
 *   the functions are thread-safe. So are mblen, mbtowc and wctomb here,
 *   which hold no state (UTF-8 has no shift states; mbtowc with an
 *   incomplete character returns -1 and forgets its bytes).
 * - EILSEQ leaves the state initial; a corrupt state is EINVAL.
 * Not mapped (no u8x drop-in keeps their state): mbsnrtowcs, wcsnrtombs,
 * mbrtoc16, c16rtomb, mbrtoc8, c8rtomb. Define U8X_POSIX_KEEP_MBSTATE_T to
 * keep libc's mbstate_t and map the functions only (then pass them
 * u8x_mbstate_t objects yourself). */
#ifndef U8X_POSIX_H
#define U8X_POSIX_H

#include <stdlib.h>
#include <wchar.h>

#include "u8x.h"

#ifdef __cplusplus
#error "u8x_posix.h maps C library names with macros, which would break <cwchar>; call u8x_* directly in C++"
#endif

static inline wint_t u8x_posix_btowc(int c) { return c >= 0 && c <= 0x7F ? (wint_t)c : WEOF; }

static inline int u8x_posix_wctob(wint_t c) { return c <= 0x7F ? (int)c : EOF; }

static inline int u8x_posix_mblen(const char *s, size_t n) {
  size_t r;
  if (s == NULL) return 0;
  r = u8x_mbrlen(s, n, NULL);
  return r > n ? -1 : (int)r;
}

static inline int u8x_posix_mbtowc(wchar_t *pwc, const char *s, size_t n) {
  size_t r;
  if (s == NULL) return 0;
  r = u8x_mbrtowc(pwc, s, n, NULL);
  return r > n ? -1 : (int)r;
}

static inline int u8x_posix_wctomb(char *s, wchar_t wc) {
  return s == NULL ? 0 : (int)u8x_wcrtomb(s, wc, NULL);
}

/* char32_t is wchar_t's 32 bits on glibc (UCS-4 both). */
static inline size_t u8x_posix_mbrtoc32(unsigned int *pc32, const char *s, size_t n, u8x_mbstate_t *ps) {
  return u8x_mbrtowc((wchar_t *)(void *)pc32, s, n, ps);
}

static inline size_t u8x_posix_c32rtomb(char *s, unsigned int c32, u8x_mbstate_t *ps) {
  return u8x_wcrtomb(s, (wchar_t)c32, ps);
}

#ifndef U8X_POSIX_KEEP_MBSTATE_T
#define mbstate_t u8x_mbstate_t
#endif
#define mbrtowc u8x_mbrtowc
#define mbrlen u8x_mbrlen
#define wcrtomb u8x_wcrtomb
#define mbsrtowcs u8x_mbsrtowcs
#define wcsrtombs u8x_wcsrtombs
#define mbsinit u8x_mbsinit
#define mbstowcs u8x_mbstowcs
#define wcstombs u8x_wcstombs
#define btowc u8x_posix_btowc
#define wctob u8x_posix_wctob
#define mblen u8x_posix_mblen
#define mbtowc u8x_posix_mbtowc
#define wctomb u8x_posix_wctomb
#define mbrtoc32(pc32, s, n, ps) u8x_posix_mbrtoc32((unsigned int *)(pc32), (s), (n), (ps))
#define c32rtomb u8x_posix_c32rtomb

#endif /* U8X_POSIX_H */
