/* benches/preload.c: the preload benchmark's program (docs/benchmarks-history.md, "Preload: libc's
 * multibyte functions"): reads FILE, then in the locale of the environment
 * (setlocale(LC_ALL, "")) converts it ROUNDS times with MODE:
 *   mbrtowc    one call per character, as a per-character reader does
 *              (n = the bytes left, an explicit state);
 *   mbsrtowcs  the whole file in one call;
 *   u8x        the mbrtowc loop with u8x_mbrtowc itself (built with
 *              -DWITH_U8X and libu8x.a): the library's share of the time.
 * Prints the characters and the nanoseconds per character and per byte of
 * the fastest round. Run it with and without LD_PRELOAD=libu8x-libc.so. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#ifdef WITH_U8X
#include "u8x.h"
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  FILE *f;
  char *buf;
  wchar_t *out;
  long size;
  size_t chars = 0;
  int rounds, r;
  double best = 1e30;
  if (argc != 4 || (strcmp(argv[1], "mbrtowc") != 0 && strcmp(argv[1], "mbsrtowcs") != 0 &&
                    strcmp(argv[1], "u8x") != 0)) {
    fprintf(stderr, "usage: %s mbrtowc|mbsrtowcs|u8x FILE ROUNDS\n", argv[0]);
    return 2;
  }
  setlocale(LC_ALL, "");
  rounds = atoi(argv[3]);
  if ((f = fopen(argv[2], "rb")) == NULL) {
    perror(argv[2]);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  rewind(f);
  buf = malloc((size_t)size + 1);
  out = malloc(((size_t)size + 1) * sizeof *out);
  if (buf == NULL || out == NULL || fread(buf, 1, (size_t)size, f) != (size_t)size) return 1;
  buf[size] = '\0';
  fclose(f);
  for (r = 0; r < rounds; r++) {
    double t0 = now(), t;
    size_t n = 0;
    if (argv[1][0] == 'u') {
#ifdef WITH_U8X
      u8x_mbstate_t st = {0};
      const char *p = buf, *end = buf + size;
      while (p < end) {
        size_t k = u8x_mbrtowc(&out[n], p, (size_t)(end - p), &st);
        if (k == (size_t)-1 || k == (size_t)-2) {
          memset(&st, 0, sizeof st);
          k = 1;
        } else {
          n++;
          if (k == 0) k = 1;
        }
        p += k;
      }
#else
      fprintf(stderr, "built without -DWITH_U8X\n");
      return 2;
#endif
    } else if (strcmp(argv[1], "mbrtowc") == 0) {
      mbstate_t st;
      const char *p = buf, *end = buf + size;
      memset(&st, 0, sizeof st);
      while (p < end) {
        size_t k = mbrtowc(&out[n], p, (size_t)(end - p), &st);
        if (k == (size_t)-1 || k == (size_t)-2) {
          memset(&st, 0, sizeof st);
          k = 1;
        } else {
          n++;
          if (k == 0) k = 1;
        }
        p += k;
      }
    } else {
      const char *p = buf;
      mbstate_t st;
      memset(&st, 0, sizeof st);
      n = mbsrtowcs(out, &p, (size_t)size + 1, &st);
    }
    t = now() - t0;
    if (t < best) best = t;
    chars = n;
  }
  printf("%s %s: %zu chars, %ld bytes, best of %d: %.2f ns/char %.3f ns/byte\n", argv[1], argv[2], chars, size,
         rounds, best * 1e9 / (double)chars, best * 1e9 / (double)size);
  return 0;
}
