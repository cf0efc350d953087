/* Threads, locale switches and a setlocale after load, with or without the
 * preload library (argv[1] "preload" when LD_PRELOAD has it, "glibc" when
 * not). Needs the de_DE.ISO-8859-1 locale (run.sh generates it, LOCPATH).
 *
 * 1. setlocale after load: in the "C" locale the program starts in, then
 *    C.UTF-8, then de_DE.ISO-8859-1, then C.UTF-8 again, the same calls
 *    give each locale's answer (UTF-8, or glibc's Latin-1 when forwarded);
 *    F4 90 tells who answered in UTF-8 (RFC 3629's EILSEQ at the second
 *    byte from the preload, glibc's -2).
 * 2. Threads: four threads decode a text byte by byte with mbrtowc, mbrlen,
 *    mbrtoc16, mbrtoc32 and mbsrtowcs, each with NULL states, while their
 *    explicit states run alongside; each thread's explicit-state results
 *    must be exact, and with the preload the NULL-state ones too (its
 *    hidden states are per thread; glibc's are one per process, so without
 *    the preload they are only required not to crash).
 * 3. A locale switch in the middle of a run: threads switch their own
 *    locale (uselocale) between C.UTF-8 and de_DE.ISO-8859-1 objects every
 *    few characters, in the middle of a string too, while others stay in the
 *    global one; every answer is that of the locale in force. */
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

static int preload, failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      pthread_mutex_lock(&lock);                           \
      if (failures++ < 20) {                               \
        fprintf(stderr, "threads: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__);                      \
        fputc('\n', stderr);                               \
      }                                                    \
      pthread_mutex_unlock(&lock);                         \
    }                                                      \
  } while (0)

/* "aé€😀z" and its code points */
static const char text[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z";
static const wchar_t wide[] = {L'a', 0xE9, 0x20AC, 0x1F600, L'z', 0};

static void setlocale_after_load(void) {
  mbstate_t st;
  wchar_t wc = 0;
  size_t r;
  /* "C" (no setlocale yet): glibc 2.36's C locale rejects bytes >= 80 */
  memset(&st, 0, sizeof st);
  errno = 0;
  r = mbrtowc(&wc, "\xC3\xA9", 2, &st);
  CHECK(r == (size_t)-1 && errno == EILSEQ, "C: r=%zd errno=%d", r, errno);
  CHECK(setlocale(LC_ALL, "C.UTF-8") != NULL, "no C.UTF-8");
  memset(&st, 0, sizeof st);
  r = mbrtowc(&wc, "\xC3\xA9", 2, &st);
  CHECK(r == 2 && wc == 0xE9, "C.UTF-8: r=%zd wc=%x", r, (unsigned)wc);
  memset(&st, 0, sizeof st);
  r = mbrtowc(&wc, "\xF4", 1, &st);
  CHECK(r == (size_t)-2, "F4: %zd", r);
  errno = 0;
  r = mbrtowc(&wc, "\x90", 1, &st);
  if (preload)
    CHECK(r == (size_t)-1 && errno == EILSEQ && mbsinit(&st), "preload, F4 90: r=%zd", r);
  else
    CHECK(r == (size_t)-2 && !mbsinit(&st), "glibc, F4 90: r=%zd", r);
  CHECK(setlocale(LC_ALL, "de_DE.ISO-8859-1") != NULL, "no de_DE.ISO-8859-1 (LOCPATH?)");
  memset(&st, 0, sizeof st);
  r = mbrtowc(&wc, "\xC3\xA9", 2, &st);
  CHECK(r == 1 && wc == 0xC3, "Latin-1: r=%zd wc=%x", r, (unsigned)wc);
  r = mbrtowc(&wc, "\xF4", 1, &st);
  CHECK(r == 1 && wc == 0xF4, "Latin-1 F4: r=%zd wc=%x", r, (unsigned)wc);
  CHECK(btowc(0xE9) == 0xE9, "Latin-1 btowc");
  CHECK(wctob(0xE9) == 0xE9, "Latin-1 wctob");
  CHECK(setlocale(LC_ALL, "C.UTF-8") != NULL, "no C.UTF-8");
  CHECK(btowc(0xE9) == WEOF, "UTF-8 btowc");
  CHECK(wctob(0xE9) == EOF, "UTF-8 wctob");
  memset(&st, 0, sizeof st);
  r = mbrtowc(&wc, "\xE2\x82\xAC", 3, &st);
  CHECK(r == 3 && wc == 0x20AC, "C.UTF-8 again: r=%zd wc=%x", r, (unsigned)wc);
}

/* One pass over `text` with the thread's functions: byte by byte with
 * the explicit state `st` (checked), and with NULL (checked when the hidden
 * states are per thread). */
static void utf8_pass(int check_null) {
  mbstate_t st;
  size_t i, k = 0, r;
  wchar_t wc, out[8];
  char16_t c16;
  const char *p;
  memset(&st, 0, sizeof st);
  for (i = 0; i < sizeof text - 1; i++) {
    r = mbrtowc(&wc, text + i, 1, &st);
    if (r == 1) CHECK(wc == wide[k++], "explicit: %x at %zu", (unsigned)wc, i);
    else CHECK(r == (size_t)-2, "explicit: r=%zd at %zu", r, i);
  }
  CHECK(k == 5 && mbsinit(&st), "explicit: %zu characters", k);
  if (!check_null) return; /* glibc's hidden states are shared: see main */
  k = 0;
  for (i = 0; i < sizeof text - 1; i++) {
    r = mbrtowc(&wc, text + i, 1, NULL);
    if (r == 1) CHECK(wc == wide[k++], "NULL state: %x at %zu", (unsigned)wc, i);
    else CHECK(r == (size_t)-2, "NULL state: r=%zd at %zu", r, i);
    r = mbrlen(text + i, 1, NULL);
    (void)r;
  }
  if (check_null) CHECK(k == 5, "NULL state: %zu characters", k);
  for (i = 0; i < sizeof text - 1;) {
    r = mbrtoc16(&c16, text + i, sizeof text - 1 - i, NULL);
    if (r == (size_t)-3) continue;
    if (r > 4) {
      CHECK(!check_null, "mbrtoc16 NULL state: r=%zd at %zu", r, i);
      break;
    }
    i += r;
  }
  p = text;
  r = mbsrtowcs(out, &p, 8, NULL);
  CHECK(r == 5 && p == NULL && memcmp(out, wide, sizeof wide) == 0, "mbsrtowcs: %zd", r);
}

/* The same bytes in the thread's Latin-1 locale object: one character each. */
static void latin1_pass(void) {
  mbstate_t st;
  size_t i, r;
  wchar_t wc;
  memset(&st, 0, sizeof st);
  for (i = 0; i < sizeof text - 1; i++) {
    r = mbrtowc(&wc, text + i, 1, &st);
    CHECK(r == 1 && wc == (unsigned char)text[i], "Latin-1: r=%zd wc=%x at %zu", r, (unsigned)wc, i);
  }
}

static locale_t utf8_loc, latin1_loc;

static void *null_states(void *arg) {
  int n;
  (void)arg;
  for (n = 0; n < 20000; n++) utf8_pass(1);
  return NULL;
}

static void *switching(void *arg) {
  int n, id = (int)(long)arg;
  for (n = 0; n < 20000; n++) {
    int latin = (n / 7 + id) % 2;
    uselocale(latin ? latin1_loc : utf8_loc);
    if (latin) latin1_pass(); else utf8_pass(preload);
    if (n % 13 == 0) {
      /* half a string in one locale, the rest in the other: the state is
       * not carried over (POSIX makes it undefined); each half is exact */
      mbstate_t st;
      wchar_t wc;
      size_t r;
      memset(&st, 0, sizeof st);
      uselocale(utf8_loc);
      r = mbrtowc(&wc, "\xE2\x82\xAC", 3, &st);
      CHECK(r == 3 && wc == 0x20AC, "switch: UTF-8 half r=%zd", r);
      uselocale(latin1_loc);
      r = mbrtowc(&wc, "\xE2\x82\xAC", 3, &st);
      CHECK(r == 1 && wc == 0xE2, "switch: Latin-1 half r=%zd", r);
      uselocale(LC_GLOBAL_LOCALE);
      r = mbrtowc(&wc, "\xE2\x82\xAC", 3, &st);
      CHECK(r == 3 && wc == 0x20AC, "switch: global half r=%zd", r);
    }
  }
  uselocale(LC_GLOBAL_LOCALE);
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t t[6];
  int i;
  if (argc != 2) {
    fprintf(stderr, "usage: %s preload|glibc\n", argv[0]);
    return 2;
  }
  preload = strcmp(argv[1], "preload") == 0;
  setlocale_after_load();
  utf8_loc = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
  latin1_loc = newlocale(LC_ALL_MASK, "de_DE.ISO-8859-1", (locale_t)0);
  if (utf8_loc == (locale_t)0 || latin1_loc == (locale_t)0) {
    fprintf(stderr, "threads: newlocale failed (LOCPATH?)\n");
    return 2;
  }
  /* Without the preload the NULL-state threads are not run: glibc 2.36's
   * hidden states are one per process, and threads sharing them made glibc
   * abort on an assertion (iconv/loop.c:470, utf8_internal_loop_single)
   * when this test was written. POSIX allows that (these calls need not be
   * thread-safe with a NULL state); the preload's states are per thread. */
  for (i = 0; i < 3; i++)
    if (preload) pthread_create(&t[i], NULL, null_states, NULL);
  for (i = 3; i < 6; i++) pthread_create(&t[i], NULL, switching, (void *)(long)i);
  for (i = preload ? 0 : 3; i < 6; i++) pthread_join(t[i], NULL);
  printf("threads (%s): %d failures\n", argv[1], failures);
  return failures != 0;
}
