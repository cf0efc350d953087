/* libu8x-libc.so: glibc's multibyte conversion functions answered by u8x
 * while the calling thread's locale has the UTF-8 codeset, forwarded to the
 * next definition (glibc's, found with dlsym(RTLD_NEXT, ...)) otherwise.
 * Loaded with LD_PRELOAD, or linked before libc. preload/README.md says
 * what it interposes, what it cannot reach, and the decisions below.
 *
 * The conversion state. glibc's mbstate_t is 8 bytes: int __count and a
 * 4-byte __value. Its UTF-8 converter (iconv/gconv_simple.c, STORE_REST and
 * UNPACK_BYTES) keeps a character begun as
 *     __count = bytes seen (1..3) | bytes the character takes (2..4) << 8
 *     __value.__wch = the bits seen so far, shifted as if the rest were 0
 * and mbsinit() is `__count == 0`. This library keeps u8x's state (the
 * pending bytes, u8x_mbstate_t) in exactly that form, so a state either
 * side left behind means the same to the other: one begun here can be
 * finished by glibc's own converter (after a switch to another UTF-8
 * locale object, or by glibc's mbrtoc8 where it is not interposed) and
 * one begun by glibc is read here. On the way back to the initial state
 * only __count is cleared, as glibc's CLEAR_STATE does, so the whole 8
 * bytes match glibc's after every call the two answer alike. The other
 * states glibc's functions use are kept as glibc keeps them: bit 31 of
 * __count with __value for mbrtoc16's second half, c16rtomb's high
 * surrogate, mbrtoc8's pending bytes and c8rtomb's first bytes.
 *
 * A state this library cannot read as a character begun under RFC 3629
 * (one glibc left holding F5..FD or a 5- or 6-byte form, an overlong or
 * surrogate prefix glibc's mbrtoc8 stored, mbrtoc16's pending half given to
 * mbrtowc, or plain garbage), and any call u8x refuses as ill-posed
 * (EINVAL: a misaligned pointer, overlapping buffers), go to glibc
 * unchanged: glibc's answer is the exact one there.
 *
 * The hidden state for a NULL ps: one per function, as glibc has (mbrlen
 * and __mbrlen share one, as do mbrtowc and __mbrtowc, wctomb and
 * __wctomb_chk), but per thread: POSIX lets these calls be unsafe across
 * threads, and a per-thread object makes them safe at no cost to a
 * single-threaded program, which sees glibc's behaviour. In a non-UTF-8
 * locale a NULL ps is forwarded as NULL: glibc's own hidden state. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

#include "u8x.h"

#if !defined(__GLIBC__)
#error "libu8x-libc interposes glibc's functions and knows glibc's mbstate_t"
#endif

#define EXPORT __attribute__((visibility("default")))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define FAILED ((size_t)-1)
#define MORE ((size_t)-2)
#define SECOND_HALF ((size_t)-3)
#define PENDING_HALF 0x80000000u /* bit 31 of __count: mbrtoc16/c16rtomb/mbrtoc8/c8rtomb */

typedef unsigned char char8_type; /* char8_t, which glibc's header declares only for C2x */

extern void __chk_fail(void) __attribute__((noreturn));

/* ---- the next definitions ------------------------------------------------ */

/* Resolved on first use (a constructor could run after another library's
 * constructor already converts). A race resolves the same pointer twice. */
#define NEXT(name, type)                                                                 \
  static type next_##name(void) {                                                        \
    static type fn;                                                                      \
    type f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);                                     \
    if (UNLIKELY(f == NULL)) {                                                           \
      f = (type)dlsym(RTLD_NEXT, #name);                                                 \
      if (f == NULL) {                                                                   \
        static const char msg[] = "libu8x-libc: no next definition of " #name "\n";      \
        (void)!fwrite(msg, 1, sizeof msg - 1, stderr);                                   \
        abort();                                                                         \
      }                                                                                  \
      __atomic_store_n(&fn, f, __ATOMIC_RELEASE);                                        \
    }                                                                                    \
    return f;                                                                            \
  }

typedef size_t (*mbrtowc_fn)(wchar_t *, const char *, size_t, mbstate_t *);
typedef size_t (*mbrlen_fn)(const char *, size_t, mbstate_t *);
typedef size_t (*mbsrtowcs_fn)(wchar_t *, const char **, size_t, mbstate_t *);
typedef size_t (*mbsnrtowcs_fn)(wchar_t *, const char **, size_t, size_t, mbstate_t *);
typedef size_t (*mbstowcs_fn)(wchar_t *, const char *, size_t);
typedef size_t (*wcrtomb_fn)(char *, wchar_t, mbstate_t *);
typedef size_t (*wcsrtombs_fn)(char *, const wchar_t **, size_t, mbstate_t *);
typedef size_t (*wcsnrtombs_fn)(char *, const wchar_t **, size_t, size_t, mbstate_t *);
typedef size_t (*wcstombs_fn)(char *, const wchar_t *, size_t);
typedef int (*mbsinit_fn)(const mbstate_t *);
typedef wint_t (*btowc_fn)(int);
typedef int (*wctob_fn)(wint_t);
typedef size_t (*mbrtoc16_fn)(char16_t *, const char *, size_t, mbstate_t *);
typedef size_t (*c16rtomb_fn)(char *, char16_t, mbstate_t *);
typedef size_t (*mbrtoc32_fn)(char32_t *, const char *, size_t, mbstate_t *);
typedef size_t (*c32rtomb_fn)(char *, char32_t, mbstate_t *);
typedef size_t (*mbrtoc8_fn)(char8_type *, const char *, size_t, mbstate_t *);
typedef size_t (*c8rtomb_fn)(char *, char8_type, mbstate_t *);
typedef int (*mblen_fn)(const char *, size_t);
typedef int (*mbtowc_fn)(wchar_t *, const char *, size_t);
typedef int (*wctomb_fn)(char *, wchar_t);
typedef size_t (*mbsrtowcs_chk_fn)(wchar_t *, const char **, size_t, mbstate_t *, size_t);
typedef size_t (*mbsnrtowcs_chk_fn)(wchar_t *, const char **, size_t, size_t, mbstate_t *, size_t);
typedef size_t (*mbstowcs_chk_fn)(wchar_t *, const char *, size_t, size_t);
typedef size_t (*wcrtomb_chk_fn)(char *, wchar_t, mbstate_t *, size_t);
typedef size_t (*wcsrtombs_chk_fn)(char *, const wchar_t **, size_t, mbstate_t *, size_t);
typedef size_t (*wcsnrtombs_chk_fn)(char *, const wchar_t **, size_t, size_t, mbstate_t *, size_t);
typedef size_t (*wcstombs_chk_fn)(char *, const wchar_t *, size_t, size_t);
typedef int (*wctomb_chk_fn)(char *, wchar_t, size_t);

NEXT(mbrtowc, mbrtowc_fn)
NEXT(__mbrtowc, mbrtowc_fn)
NEXT(mbrlen, mbrlen_fn)
NEXT(__mbrlen, mbrlen_fn)
NEXT(mbsrtowcs, mbsrtowcs_fn)
NEXT(mbsnrtowcs, mbsnrtowcs_fn)
NEXT(mbstowcs, mbstowcs_fn)
NEXT(wcrtomb, wcrtomb_fn)
NEXT(wcsrtombs, wcsrtombs_fn)
NEXT(wcsnrtombs, wcsnrtombs_fn)
NEXT(wcstombs, wcstombs_fn)
NEXT(btowc, btowc_fn)
NEXT(wctob, wctob_fn)
NEXT(mbrtoc16, mbrtoc16_fn)
NEXT(c16rtomb, c16rtomb_fn)
NEXT(mbrtoc32, mbrtoc32_fn)
NEXT(c32rtomb, c32rtomb_fn)
NEXT(mbrtoc8, mbrtoc8_fn)
NEXT(c8rtomb, c8rtomb_fn)
NEXT(mblen, mblen_fn)
NEXT(mbtowc, mbtowc_fn)
NEXT(wctomb, wctomb_fn)
NEXT(__mbsrtowcs_chk, mbsrtowcs_chk_fn)
NEXT(__mbsnrtowcs_chk, mbsnrtowcs_chk_fn)
NEXT(__mbstowcs_chk, mbstowcs_chk_fn)
NEXT(__wcrtomb_chk, wcrtomb_chk_fn)
NEXT(__wcsrtombs_chk, wcsrtombs_chk_fn)
NEXT(__wcsnrtombs_chk, wcsnrtombs_chk_fn)
NEXT(__wcstombs_chk, wcstombs_chk_fn)
NEXT(__wctomb_chk, wctomb_chk_fn)

/* ---- the locale ------------------------------------------------------------ */

/* Whether the calling thread's locale (its uselocale() object, else the
 * global one) has the UTF-8 codeset. nl_langinfo(CODESET) reads exactly
 * that locale's LC_CTYPE data (a thread-local pointer and two loads in
 * glibc), and every glibc UTF-8 locale names its codeset "UTF-8" (the
 * charmap's <code_set_name>). The string is compared each time rather than
 * cached by address: locale data can be unmapped by freelocale() and
 * another locale loaded at the same address, and the six bytes cost less
 * than a cache's own checks. Any other spelling is forwarded: still exact,
 * just not faster. */
static inline int utf8_locale(void) {
  const char *cs = nl_langinfo(CODESET);
  return cs[0] == 'U' && cs[1] == 'T' && cs[2] == 'F' && cs[3] == '-' && cs[4] == '8' && cs[5] == '\0';
}

/* ---- the state --------------------------------------------------------------- */

/* glibc's form of a character begun: bytes seen, bytes it takes, bits. */
static void store_state(mbstate_t *ps, const u8x_mbstate_t *u) {
  unsigned total, ch, i;
  if (u->count == 0) {
    ps->__count = 0; /* glibc's CLEAR_STATE: __value is left as it is */
    return;
  }
  total = u->bytes[0] < 0xE0 ? 2 : u->bytes[0] < 0xF0 ? 3 : 4;
  ch = u->bytes[0] & (0x7Fu >> total);
  for (i = 1; i < u->count; i++) ch = ch << 6 | (u->bytes[i] & 0x3Fu);
  ch <<= 6 * (total - u->count);
  ps->__count = (int)(u->count | total << 8);
  ps->__value.__wch = ch;
}

/* u8x's state from glibc's: 1 if read, 0 if it is not a form store_state
 * writes (then the call goes to glibc). u8x itself refuses (EINVAL) the
 * pending bytes that begin no character under RFC 3629. */
static int load_state(const mbstate_t *ps, u8x_mbstate_t *u) {
  static const unsigned char leads[3] = {0xC0, 0xE0, 0xF0};
  unsigned c = (unsigned)ps->__count, n, total, wch, i;
  mbstate_t again;
  memset(u, 0, sizeof *u);
  if (LIKELY(c == 0)) return 1;
  n = c & 0xFF;
  total = c >> 8;
  if (total < 2 || total > 4 || n == 0 || n >= total) return 0;
  wch = ps->__value.__wch;
  /* UNPACK_BYTES: the continuation bytes from the low bits up. */
  for (i = total - 1; i > 0; i--) {
    if (i < n) u->bytes[i] = (uint8_t)(0x80 | (wch & 0x3F));
    wch >>= 6;
  }
  u->bytes[0] = (uint8_t)(leads[total - 2] | wch);
  u->count = (uint8_t)n;
  store_state(&again, u);
  return again.__count == ps->__count && again.__value.__wch == ps->__value.__wch;
}

static inline int state_initial(const mbstate_t *ps) { return ps->__count == 0; }

/* ---- the hidden states for a NULL ps ---------------------------------------- */

static __thread mbstate_t hidden_mbrtowc, hidden_mbrlen, hidden_mbsrtowcs, hidden_mbsnrtowcs,
    hidden_wcrtomb, hidden_wcsrtombs, hidden_wcsnrtombs, hidden_mbrtoc16, hidden_c16rtomb,
    hidden_mbrtoc32, hidden_c32rtomb, hidden_mbrtoc8, hidden_c8rtomb, hidden_mblen, hidden_mbtowc,
    hidden_wctomb;

/* ---- decoding one character ---------------------------------------------------- */

enum { ANSWERED, FORWARD };

/* mbrtowc's answer in a UTF-8 locale on the state at `st` (never NULL),
 * or FORWARD (nothing changed, errno kept) when glibc must answer. */
static int decode(wchar_t *pwc, const char *s, size_t n, mbstate_t *st, size_t *ret) {
  u8x_mbstate_t u;
  int saved;
  size_t r;
  if (s == NULL) {
    pwc = NULL;
    s = "";
    n = 1;
  }
  /* An ASCII byte from the initial state is that character, in RFC 3629
   * and glibc alike, and changes no state: answered without the call into
   * u8x (per-character readers meet mostly these). */
  if (LIKELY(st->__count == 0) && n != 0 && (unsigned char)s[0] < 0x80) {
    if (pwc != NULL) *pwc = (unsigned char)s[0];
    *ret = s[0] != '\0';
    return ANSWERED;
  }
  if (UNLIKELY(!load_state(st, &u))) return FORWARD;
  saved = errno;
  r = u8x_mbrtowc(pwc, s, n, &u);
  if (UNLIKELY(r == FAILED) && errno == EINVAL) {
    errno = saved; /* a state u8x calls corrupt, a misaligned pwc */
    return FORWARD;
  }
  store_state(st, &u);
  *ret = r;
  return ANSWERED;
}

EXPORT size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) && decode(pwc, s, n, ps ? ps : &hidden_mbrtowc, &r) == ANSWERED) return r;
  return next_mbrtowc()(pwc, s, n, ps);
}

EXPORT size_t __mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) && decode(pwc, s, n, ps ? ps : &hidden_mbrtowc, &r) == ANSWERED) return r;
  return next___mbrtowc()(pwc, s, n, ps);
}

EXPORT size_t mbrlen(const char *s, size_t n, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) && decode(NULL, s, n, ps ? ps : &hidden_mbrlen, &r) == ANSWERED) return r;
  return next_mbrlen()(s, n, ps);
}

EXPORT size_t __mbrlen(const char *s, size_t n, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) && decode(NULL, s, n, ps ? ps : &hidden_mbrlen, &r) == ANSWERED) return r;
  return next___mbrlen()(s, n, ps);
}

EXPORT size_t mbrtoc32(char32_t *pc32, const char *s, size_t n, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) &&
      decode((wchar_t *)pc32, s, n, ps ? ps : &hidden_mbrtoc32, &r) == ANSWERED)
    return r;
  return next_mbrtoc32()(pc32, s, n, ps);
}

EXPORT int mbsinit(const mbstate_t *ps) { return ps == NULL || ps->__count == 0; }

/* mbrtoc16: glibc's wcsmbs/mbrtoc16.c over u8x's mbrtowc. */
EXPORT size_t mbrtoc16(char16_t *pc16, const char *s, size_t n, mbstate_t *ps) {
  mbstate_t *st = ps ? ps : &hidden_mbrtoc16;
  char16_t *out = pc16;
  const char *in = s;
  size_t in_len = n;
  wchar_t wc;
  size_t r;
  if (!utf8_locale()) return next_mbrtoc16()(pc16, s, n, ps);
  if ((unsigned)st->__count & PENDING_HALF) {
    st->__count = (int)((unsigned)st->__count & ~PENDING_HALF);
    if (pc16 != NULL) *pc16 = (char16_t)st->__value.__wch;
    st->__value.__wch = 0;
    return SECOND_HALF;
  }
  if (s == NULL) {
    pc16 = NULL;
    s = "";
    n = 1;
  }
  if (n == 0) return MORE;
  if (decode(&wc, s, n, st, &r) == FORWARD) return next_mbrtoc16()(out, in, in_len, ps);
  if (r == FAILED || r == MORE) return r;
  if ((uint32_t)wc < 0x10000) {
    if (pc16 != NULL) *pc16 = (char16_t)wc;
  } else {
    if (pc16 != NULL) *pc16 = (char16_t)(0xD7C0 + ((uint32_t)wc >> 10));
    st->__count = (int)((unsigned)st->__count | PENDING_HALF);
    st->__value.__wch = 0xDC00 + ((uint32_t)wc & 0x3FF);
  }
  return r;
}

/* mbrtoc8: glibc's wcsmbs/mbrtoc8.c (2.36) over u8x's mbrtowc: the
 * character's other bytes wait in __value.__wchb[0..2], last first, with
 * their index in __wchb[3]. */
EXPORT size_t mbrtoc8(char8_type *pc8, const char *s, size_t n, mbstate_t *ps) {
  mbstate_t *st = ps ? ps : &hidden_mbrtoc8;
  char8_type *out = pc8;
  const char *in = s;
  size_t in_len = n;
  wchar_t wc = 0;
  size_t r;
  uint32_t c;
  if (!utf8_locale()) return next_mbrtoc8()(pc8, s, n, ps);
  if ((unsigned)st->__count & PENDING_HALF) {
    size_t i = (unsigned char)st->__value.__wchb[3];
    if (i > 2) return next_mbrtoc8()(pc8, s, n, ps); /* not a state mbrtoc8 leaves */
    if (pc8 != NULL) *pc8 = (char8_type)st->__value.__wchb[i];
    if (i == 0) {
      st->__count = (int)((unsigned)st->__count & ~PENDING_HALF);
      st->__value.__wch = 0;
    } else {
      --st->__value.__wchb[3];
    }
    return SECOND_HALF;
  }
  if (s == NULL) {
    pc8 = NULL;
    s = "";
    n = 1;
  }
  if (decode(&wc, s, n, st, &r) == FORWARD) return next_mbrtoc8()(out, in, in_len, ps);
  if (r > n) return r; /* (size_t)-1 or -2 */
  c = (uint32_t)wc;
  if (c <= 0x7F) {
    if (pc8 != NULL) *pc8 = (char8_type)c;
  } else if (c <= 0x7FF) {
    if (pc8 != NULL) *pc8 = (char8_type)(0xC0 + ((c >> 6) & 0x1F));
    st->__value.__wchb[0] = (char)(0x80 + (c & 0x3F));
    st->__value.__wchb[3] = 0;
    st->__count = (int)((unsigned)st->__count | PENDING_HALF);
  } else if (c <= 0xFFFF) {
    if (pc8 != NULL) *pc8 = (char8_type)(0xE0 + ((c >> 12) & 0x0F));
    st->__value.__wchb[1] = (char)(0x80 + ((c >> 6) & 0x3F));
    st->__value.__wchb[0] = (char)(0x80 + (c & 0x3F));
    st->__value.__wchb[3] = 1;
    st->__count = (int)((unsigned)st->__count | PENDING_HALF);
  } else {
    if (pc8 != NULL) *pc8 = (char8_type)(0xF0 + ((c >> 18) & 0x07));
    st->__value.__wchb[2] = (char)(0x80 + ((c >> 12) & 0x3F));
    st->__value.__wchb[1] = (char)(0x80 + ((c >> 6) & 0x3F));
    st->__value.__wchb[0] = (char)(0x80 + (c & 0x3F));
    st->__value.__wchb[3] = 2;
    st->__count = (int)((unsigned)st->__count | PENDING_HALF);
  }
  if (r == 0 && c != 0) r = SECOND_HALF;
  return r;
}

/* ---- encoding one character ---------------------------------------------------- */

/* wcrtomb's answer in a UTF-8 locale into `buf` (4 bytes), or FORWARD.
 * L'\0' (and a NULL s, which means it) resets the whole state and gives
 * one zero byte, whatever the state held, as glibc's flush does. A state
 * still holding a character being decoded is glibc's to answer. */
static int encode(char *buf, wchar_t wc, mbstate_t *st, size_t *ret) {
  int saved;
  size_t r;
  if (wc == L'\0') {
    memset(st, 0, sizeof *st);
    buf[0] = '\0';
    *ret = 1;
    return ANSWERED;
  }
  if (UNLIKELY(!state_initial(st))) return FORWARD;
  saved = errno;
  r = u8x_wcrtomb(buf, wc, NULL);
  if (UNLIKELY(r == FAILED) && errno == EINVAL) {
    errno = saved;
    return FORWARD;
  }
  *ret = r;
  return ANSWERED;
}

static int wcrtomb_into(char *s, wchar_t wc, mbstate_t *st, size_t room, size_t *ret) {
  char buf[U8X_MB_LEN_MAX];
  if (s == NULL) wc = L'\0';
  if (encode(buf, wc, st, ret) == FORWARD) return FORWARD;
  if (*ret != FAILED && s != NULL) {
    if (*ret > room) __chk_fail();
    memcpy(s, buf, *ret);
  }
  return ANSWERED;
}

EXPORT size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) &&
      wcrtomb_into(s, wc, ps ? ps : &hidden_wcrtomb, (size_t)-1, &r) == ANSWERED)
    return r;
  return next_wcrtomb()(s, wc, ps);
}

EXPORT size_t __wcrtomb_chk(char *s, wchar_t wc, mbstate_t *ps, size_t buflen) {
  size_t r;
  if (LIKELY(utf8_locale()) && wcrtomb_into(s, wc, ps ? ps : &hidden_wcrtomb, buflen, &r) == ANSWERED)
    return r;
  return next___wcrtomb_chk()(s, wc, ps, buflen);
}

EXPORT size_t c32rtomb(char *s, char32_t c32, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) &&
      wcrtomb_into(s, (wchar_t)c32, ps ? ps : &hidden_c32rtomb, (size_t)-1, &r) == ANSWERED)
    return r;
  return next_c32rtomb()(s, c32, ps);
}

/* c16rtomb: glibc's wcsmbs/c16rtomb.c over u8x's wcrtomb. */
EXPORT size_t c16rtomb(char *s, char16_t c16, mbstate_t *ps) {
  mbstate_t *st = ps ? ps : &hidden_c16rtomb;
  uint32_t wc = c16;
  size_t r;
  if (!utf8_locale()) return next_c16rtomb()(s, c16, ps);
  if (s == NULL) {
    st->__count = (int)((unsigned)st->__count & ~PENDING_HALF);
    st->__value.__wch = 0;
    wc = 0;
  }
  if ((unsigned)st->__count & PENDING_HALF) {
    st->__count = (int)((unsigned)st->__count & ~PENDING_HALF);
    if (wc >= 0xDC00 && wc < 0xE000)
      wc = 0x10000 + ((st->__value.__wch & 0x3FF) << 10) + (wc & 0x3FF);
    else
      wc = st->__value.__wch; /* a lone high surrogate: EILSEQ below */
    st->__value.__wch = 0;
  } else if (wc >= 0xD800 && wc < 0xDC00) {
    st->__count = (int)((unsigned)st->__count | PENDING_HALF);
    st->__value.__wch = wc;
    return 0;
  }
  if (wcrtomb_into(s, (wchar_t)wc, st, (size_t)-1, &r) == ANSWERED) return r;
  return next_wcrtomb()(s, (wchar_t)wc, st);
}

/* c8rtomb: glibc's wcsmbs/c8rtomb.c (2.36, which checks RFC 3629's bytes
 * itself) over u8x's wcrtomb. */
EXPORT size_t c8rtomb(char *s, char8_type c8, mbstate_t *ps) {
  mbstate_t *st = ps ? ps : &hidden_c8rtomb;
  uint32_t wc;
  size_t r;
  if (!utf8_locale()) return next_c8rtomb()(s, c8, ps);
  if (s == NULL) c8 = 0;
  if (!((unsigned)st->__count & PENDING_HALF)) {
    if ((c8 >= 0x80 && c8 <= 0xC1) || c8 >= 0xF5) {
      errno = EILSEQ;
      return FAILED;
    }
    if (c8 >= 0xC2) {
      st->__count = (int)((unsigned)st->__count | PENDING_HALF);
      st->__value.__wchb[0] = (char)c8;
      st->__value.__wchb[3] = 1;
      return 0;
    }
    wc = c8;
  } else {
    unsigned char cu1 = (unsigned char)st->__value.__wchb[0];
    if (st->__value.__wchb[3] == 1) {
      if (c8 < 0x80 || c8 > 0xBF || (cu1 == 0xE0 && c8 < 0xA0) || (cu1 == 0xED && c8 > 0x9F) ||
          (cu1 == 0xF0 && c8 < 0x90) || (cu1 == 0xF4 && c8 > 0x8F)) {
        errno = EILSEQ;
        return FAILED;
      }
      if (cu1 >= 0xE0) {
        st->__value.__wchb[1] = (char)c8;
        ++st->__value.__wchb[3];
        return 0;
      }
      wc = ((cu1 & 0x1Fu) << 6) + (c8 & 0x3Fu);
    } else {
      unsigned char cu2 = (unsigned char)st->__value.__wchb[1];
      if (c8 < 0x80 || c8 > 0xBF) {
        errno = EILSEQ;
        return FAILED;
      }
      if (st->__value.__wchb[3] == 2 && cu1 >= 0xF0) {
        st->__value.__wchb[2] = (char)c8;
        ++st->__value.__wchb[3];
        return 0;
      }
      if (cu1 < 0xF0) {
        wc = ((cu1 & 0x0Fu) << 12) + ((cu2 & 0x3Fu) << 6) + (c8 & 0x3Fu);
      } else {
        unsigned char cu3 = (unsigned char)st->__value.__wchb[2];
        wc = ((cu1 & 0x07u) << 18) + ((cu2 & 0x3Fu) << 12) + ((cu3 & 0x3Fu) << 6) + (c8 & 0x3Fu);
      }
    }
    st->__count = (int)((unsigned)st->__count & ~PENDING_HALF);
    st->__value.__wch = 0;
  }
  if (wcrtomb_into(s, (wchar_t)wc, st, (size_t)-1, &r) == ANSWERED) return r;
  return next_wcrtomb()(s, (wchar_t)wc, st);
}

/* ---- strings: multibyte to wide ------------------------------------------------ */

/* mbsrtowcs in a UTF-8 locale, or FORWARD. A NULL src or *src, which glibc
 * dereferences, is refused with EINVAL here rather than forwarded. */
static int strings_to_wide(wchar_t *dst, const char **src, size_t len, mbstate_t *st, size_t *ret) {
  u8x_mbstate_t u;
  int saved;
  size_t r;
  if (src == NULL || *src == NULL) {
    errno = EINVAL;
    *ret = FAILED;
    return ANSWERED;
  }
  if (UNLIKELY(!load_state(st, &u))) return FORWARD;
  saved = errno;
  r = u8x_mbsrtowcs(dst, src, len, &u);
  if (UNLIKELY(r == FAILED) && errno == EINVAL) {
    errno = saved;
    return FORWARD;
  }
  if (dst != NULL) store_state(st, &u);
  *ret = r;
  return ANSWERED;
}

EXPORT size_t mbsrtowcs(wchar_t *dst, const char **src, size_t len, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) && strings_to_wide(dst, src, len, ps ? ps : &hidden_mbsrtowcs, &r) == ANSWERED)
    return r;
  return next_mbsrtowcs()(dst, src, len, ps);
}

EXPORT size_t __mbsrtowcs_chk(wchar_t *dst, const char **src, size_t len, mbstate_t *ps, size_t dstlen) {
  size_t r;
  if (dstlen < len) __chk_fail();
  if (LIKELY(utf8_locale()) && strings_to_wide(dst, src, len, ps ? ps : &hidden_mbsrtowcs, &r) == ANSWERED)
    return r;
  return next___mbsrtowcs_chk()(dst, src, len, ps, dstlen);
}

EXPORT size_t mbstowcs(wchar_t *dst, const char *src, size_t len) {
  mbstate_t st;
  size_t r;
  memset(&st, 0, sizeof st);
  if (LIKELY(utf8_locale()) && strings_to_wide(dst, &src, len, &st, &r) == ANSWERED) return r;
  return next_mbstowcs()(dst, src, len);
}

EXPORT size_t __mbstowcs_chk(wchar_t *dst, const char *src, size_t len, size_t dstlen) {
  mbstate_t st;
  size_t r;
  if (dstlen < len) __chk_fail();
  memset(&st, 0, sizeof st);
  if (LIKELY(utf8_locale()) && strings_to_wide(dst, &src, len, &st, &r) == ANSWERED) return r;
  return next___mbstowcs_chk()(dst, src, len, dstlen);
}

/* mbsnrtowcs (a GNU extension u8x has no drop-in for): at most `nmc` bytes
 * of the string, as glibc's wcsmbs/mbsnrtowcs.c reads them: up to and
 * including a terminator found in the first nmc - 1 bytes, else nmc bytes.
 * A character those bytes leave unfinished is consumed into the state
 * (when dst is not NULL), as glibc does; the pending character and the
 * rest are u8x_mbrtowc's and u8x_decode_ucs4's. */
static int strings_n_to_wide(wchar_t *dst, const char **src, size_t nmc, size_t len, mbstate_t *st,
                             size_t *ret) {
  u8x_mbstate_t u;
  const char *p;
  size_t window, body, done = 0;
  int terminated, saved = errno;
  if (nmc == 0) {
    *ret = 0;
    return ANSWERED;
  }
  if (src == NULL || *src == NULL) {
    errno = EINVAL;
    *ret = FAILED;
    return ANSWERED;
  }
  if (UNLIKELY(!load_state(st, &u))) return FORWARD;
  p = *src;
  window = strnlen(p, nmc - 1) + 1; /* glibc's srcend */
  terminated = p[window - 1] == '\0';
  if (dst != NULL && len == 0) {
    *ret = 0;
    return ANSWERED;
  }
  if (u.count != 0) {
    /* The character the state began, finished from the window. */
    wchar_t wc;
    size_t r = u8x_mbrtowc(&wc, p, window, &u);
    if (r == FAILED) {
      if (errno == EINVAL) {
        errno = saved;
        return FORWARD;
      }
      if (dst != NULL) store_state(st, &u);
      *ret = FAILED;
      return ANSWERED;
    }
    if (r == MORE) { /* the whole window went into the state */
      if (dst != NULL) {
        store_state(st, &u);
        *src = p + window;
      }
      *ret = 0;
      return ANSWERED;
    }
    if (wc == L'\0') { /* (u8x never finishes a character with a NUL byte) */
      errno = EILSEQ;
      *ret = FAILED;
      return ANSWERED;
    }
    if (dst != NULL) dst[0] = wc;
    done = 1;
    p += r;
    window -= r;
  }
  /* The window's bytes before its terminator. */
  body = terminated ? window - 1 : window;
  if (dst == NULL) {
    u8x_result c = u8x_count((const uint8_t *)p, body, U8X_STRICT, terminated ? 0 : U8X_MORE_INPUT);
    if (c.status == U8X_ILL_FORMED) {
      errno = EILSEQ;
      *ret = FAILED;
    } else {
      *ret = done + c.written;
    }
    return ANSWERED;
  } else {
    size_t room = len - done;
    u8x_result d = u8x_decode_ucs4((const uint8_t *)p, body, (uint32_t *)(dst + done), room < body ? room : body,
                                   U8X_STRICT, 0, terminated ? 0 : U8X_MORE_INPUT);
    done += d.written;
    if (d.status == U8X_BAD_ARGUMENT) {
      errno = saved;
      return FORWARD; /* (a misaligned or overlapping dst; nothing written) */
    }
    store_state(st, &u); /* initial: any pending character was finished */
    switch (d.status) {
      case U8X_OK:
        if (terminated && done < len) {
          dst[done] = L'\0';
          *src = NULL;
        } else {
          *src = p + d.read;
        }
        *ret = done;
        return ANSWERED;
      case U8X_INCOMPLETE: {
        /* The last bytes begin a character: kept in the state, consumed,
         * unless the output is full (glibc checks for room first). */
        size_t k = body - d.read;
        if (done == len) {
          *src = p + d.read;
          *ret = done;
          return ANSWERED;
        }
        wchar_t wc;
        memset(&u, 0, sizeof u);
        if (u8x_mbrtowc(&wc, p + d.read, k, &u) != MORE) abort(); /* u8x_decode_ucs4 said so */
        store_state(st, &u);
        *src = p + body;
        *ret = done;
        return ANSWERED;
      }
      case U8X_OUTPUT_FULL:
        *src = p + d.read;
        *ret = done;
        return ANSWERED;
      default: /* U8X_ILL_FORMED: the characters before it are stored */
        *src = p + d.read;
        if (done == len) { /* full first: glibc never reaches the sequence */
          *ret = done;
          return ANSWERED;
        }
        errno = EILSEQ;
        *ret = FAILED;
        return ANSWERED;
    }
  }
}

EXPORT size_t mbsnrtowcs(wchar_t *dst, const char **src, size_t nmc, size_t len, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) &&
      strings_n_to_wide(dst, src, nmc, len, ps ? ps : &hidden_mbsnrtowcs, &r) == ANSWERED)
    return r;
  return next_mbsnrtowcs()(dst, src, nmc, len, ps);
}

EXPORT size_t __mbsnrtowcs_chk(wchar_t *dst, const char **src, size_t nmc, size_t len, mbstate_t *ps,
                               size_t dstlen) {
  size_t r;
  if (dstlen < len) __chk_fail();
  if (LIKELY(utf8_locale()) &&
      strings_n_to_wide(dst, src, nmc, len, ps ? ps : &hidden_mbsnrtowcs, &r) == ANSWERED)
    return r;
  return next___mbsnrtowcs_chk()(dst, src, nmc, len, ps, dstlen);
}

/* ---- strings: wide to multibyte ------------------------------------------------ */

/* wcsnrtombs over at most `nwc` wide characters (glibc's window: up to and
 * including a terminator in the first nwc - 1, else nwc). A state still holding a character
 * being decoded is glibc's to answer; UTF-8 has no shift states, so the
 * state is otherwise left alone. */
static int strings_to_multibyte(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *st,
                                size_t *ret) {
  const uint32_t *w;
  size_t window, body;
  int terminated;
  u8x_result e;
  if (nwc == 0) {
    *ret = 0;
    return ANSWERED;
  }
  if (src == NULL || *src == NULL) {
    errno = EINVAL;
    *ret = FAILED;
    return ANSWERED;
  }
  if (UNLIKELY(!state_initial(st)) || UNLIKELY(((uintptr_t)*src & (sizeof(wchar_t) - 1)) != 0))
    return FORWARD;
  w = (const uint32_t *)*src;
  window = wcsnlen(*src, nwc - 1) + 1;
  terminated = w[window - 1] == 0;
  body = terminated ? window - 1 : window;
  if (dst == NULL) {
    e = u8x_encoded_len(w, body, U8X_STRICT, 0);
    if (e.status != U8X_OK) {
      errno = EILSEQ;
      *ret = FAILED;
    } else {
      *ret = e.written;
    }
    return ANSWERED;
  }
  if (len == 0) {
    *ret = 0;
    return ANSWERED;
  }
  e = u8x_encode(w, body, (uint8_t *)dst, len, U8X_STRICT, 0);
  switch (e.status) {
    case U8X_OK:
      if (terminated && e.written < len) {
        dst[e.written] = '\0';
        *src = NULL;
      } else {
        *src = (const wchar_t *)(w + e.read);
      }
      *ret = e.written;
      return ANSWERED;
    case U8X_OUTPUT_FULL:
      *src = (const wchar_t *)(w + e.read);
      *ret = e.written;
      return ANSWERED;
    case U8X_ILL_FORMED:
      *src = (const wchar_t *)(w + e.read);
      if (e.written < len) { /* glibc reaches the bad character only with room left */
        errno = EILSEQ;
        *ret = FAILED;
      } else {
        *ret = e.written;
      }
      return ANSWERED;
    default: /* U8X_BAD_ARGUMENT: overlapping buffers; nothing written */
      return FORWARD;
  }
}

/* wcsrtombs in a UTF-8 locale: u8x_wcsrtombs, which reads no more of the
 * string than `len` bytes can take (a loop with a small buffer stays
 * linear). */
static int whole_to_multibyte(char *dst, const wchar_t **src, size_t len, mbstate_t *st, size_t *ret) {
  int saved;
  size_t r;
  if (src == NULL || *src == NULL) {
    errno = EINVAL;
    *ret = FAILED;
    return ANSWERED;
  }
  if (UNLIKELY(!state_initial(st))) return FORWARD;
  saved = errno;
  r = u8x_wcsrtombs(dst, src, len, NULL);
  if (UNLIKELY(r == FAILED) && errno == EINVAL) {
    errno = saved;
    return FORWARD;
  }
  *ret = r;
  return ANSWERED;
}

EXPORT size_t wcsrtombs(char *dst, const wchar_t **src, size_t len, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) &&
      whole_to_multibyte(dst, src, len, ps ? ps : &hidden_wcsrtombs, &r) == ANSWERED)
    return r;
  return next_wcsrtombs()(dst, src, len, ps);
}

EXPORT size_t __wcsrtombs_chk(char *dst, const wchar_t **src, size_t len, mbstate_t *ps, size_t dstlen) {
  size_t r;
  if (dstlen < len) __chk_fail();
  if (LIKELY(utf8_locale()) &&
      whole_to_multibyte(dst, src, len, ps ? ps : &hidden_wcsrtombs, &r) == ANSWERED)
    return r;
  return next___wcsrtombs_chk()(dst, src, len, ps, dstlen);
}

EXPORT size_t wcsnrtombs(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps) {
  size_t r;
  if (LIKELY(utf8_locale()) &&
      strings_to_multibyte(dst, src, nwc, len, ps ? ps : &hidden_wcsnrtombs, &r) == ANSWERED)
    return r;
  return next_wcsnrtombs()(dst, src, nwc, len, ps);
}

EXPORT size_t __wcsnrtombs_chk(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps,
                               size_t dstlen) {
  size_t r;
  if (dstlen < len) __chk_fail();
  if (LIKELY(utf8_locale()) &&
      strings_to_multibyte(dst, src, nwc, len, ps ? ps : &hidden_wcsnrtombs, &r) == ANSWERED)
    return r;
  return next___wcsnrtombs_chk()(dst, src, nwc, len, ps, dstlen);
}

EXPORT size_t wcstombs(char *dst, const wchar_t *src, size_t len) {
  mbstate_t st;
  size_t r;
  memset(&st, 0, sizeof st);
  if (LIKELY(utf8_locale()) && whole_to_multibyte(dst, &src, len, &st, &r) == ANSWERED) return r;
  return next_wcstombs()(dst, src, len);
}

EXPORT size_t __wcstombs_chk(char *dst, const wchar_t *src, size_t len, size_t dstlen) {
  mbstate_t st;
  size_t r;
  if (dstlen < len) __chk_fail();
  memset(&st, 0, sizeof st);
  if (LIKELY(utf8_locale()) && whole_to_multibyte(dst, &src, len, &st, &r) == ANSWERED) return r;
  return next___wcstombs_chk()(dst, src, len, dstlen);
}

/* ---- single bytes, and the stateful ISO C functions ------------------------------ */

/* In UTF-8 a byte is a character alone exactly when it is ASCII. */
EXPORT wint_t btowc(int c) {
  if (c < SCHAR_MIN || c > UCHAR_MAX || c == EOF) return WEOF;
  if (c >= 0 && c <= 0x7F) return (wint_t)c;
  if (!utf8_locale()) return next_btowc()(c);
  {
    char b = (char)c;
    wchar_t wc;
    u8x_mbstate_t u = {0};
    size_t r = u8x_mbrtowc(&wc, &b, 1, &u);
    return r == 1 ? (wint_t)wc : WEOF;
  }
}

/* In UTF-8 a wide character is one byte exactly when it is ASCII. */
EXPORT int wctob(wint_t c) {
  if (c == WEOF) return EOF;
  if (c <= 0x7F) return (int)c;
  if (!utf8_locale()) return next_wctob()(c);
  {
    char buf[U8X_MB_LEN_MAX];
    int saved = errno;
    size_t r = u8x_wcrtomb(buf, (wchar_t)c, NULL);
    errno = saved;
    return r == 1 ? (unsigned char)buf[0] : EOF;
  }
}

/* mblen: glibc's stdlib/mblen.c: a fresh state every call. */
EXPORT int mblen(const char *s, size_t n) {
  size_t r;
  if (!utf8_locale()) return next_mblen()(s, n);
  if (s == NULL) {
    memset(&hidden_mblen, 0, sizeof hidden_mblen);
    return 0; /* UTF-8 has no shift states */
  }
  if (*s == '\0') return 0;
  memset(&hidden_mblen, 0, sizeof hidden_mblen);
  if (decode(NULL, s, n, &hidden_mblen, &r) == FORWARD) return next_mblen()(s, n);
  return r == FAILED || r == MORE ? -1 : (int)r;
}

/* mbtowc: glibc's stdlib/mbtowc.c: one state kept across calls (an
 * incomplete character is -1 and stays in it). */
EXPORT int mbtowc(wchar_t *pwc, const char *s, size_t n) {
  size_t r;
  if (!utf8_locale()) return next_mbtowc()(pwc, s, n);
  if (s == NULL) {
    memset(&hidden_mbtowc, 0, sizeof hidden_mbtowc);
    return 0;
  }
  if (*s == '\0') {
    if (pwc != NULL) *pwc = L'\0';
    return 0;
  }
  if (decode(pwc, s, n, &hidden_mbtowc, &r) == FORWARD) return next_mbtowc()(pwc, s, n);
  return r == FAILED || r == MORE ? -1 : (int)r;
}

/* wctomb and __wctomb_chk share one state, as in glibc. */
EXPORT int wctomb(char *s, wchar_t wc) {
  size_t r;
  if (!utf8_locale()) return next_wctomb()(s, wc);
  if (s == NULL) {
    memset(&hidden_wctomb, 0, sizeof hidden_wctomb);
    return 0;
  }
  if (wcrtomb_into(s, wc, &hidden_wctomb, (size_t)-1, &r) == FORWARD) return next_wctomb()(s, wc);
  return (int)r;
}

EXPORT int __wctomb_chk(char *s, wchar_t wc, size_t buflen) {
  size_t r;
  if (!utf8_locale()) return next___wctomb_chk()(s, wc, buflen);
  if (buflen < MB_CUR_MAX) __chk_fail();
  if (wcrtomb_into(s, wc, &hidden_wctomb, buflen, &r) == FORWARD) return next___wctomb_chk()(s, wc, buflen);
  return (int)r;
}
