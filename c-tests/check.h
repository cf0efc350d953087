/* A tiny check library for the u8x C tests.
 *
 * Every CHECK* macro counts one check; a failed one prints file:line, the
 * expression, both values and the current context (set with check_context)
 * and the program goes on, so one run shows every failure. check_done()
 * prints the totals and gives main's exit status: 0 only if nothing failed.
 * Valid C99 and C++11; all functions are static inline so that a program
 * that does not use one gets no warning.
 */
#ifndef U8X_CHECK_H
#define U8X_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u8x.h"

/* Failures printed in full; later ones are only counted. */
#define CHECK_MAX_REPORTS 40

static const char *check_program = "?";
static unsigned long check_total;
static unsigned long check_failed;
static char check_where[512];

/* Call first: names the program and makes stdout unbuffered, so that the
 * lines printed before a crash (or a sanitizer report) are not lost. */
static inline void check_begin(const char *program) {
  setvbuf(stdout, NULL, _IONBF, 0);
  check_program = program;
  printf("%s: u8x %s (header %s)\n", program, u8x_version(), U8X_VERSION_STRING);
}

/* Describes what is being checked, printed with each failure until the
 * next call (printf format). */
static inline void check_context(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(check_where, sizeof check_where, fmt, ap);
  va_end(ap);
}

/* Counts a check; on failure prints its location and returns 1 if the
 * details should be printed too. */
static inline int check_record(int ok, const char *file, int line, const char *what) {
  check_total++;
  if (ok) return 0;
  check_failed++;
  if (check_failed > CHECK_MAX_REPORTS) {
    if (check_failed == CHECK_MAX_REPORTS + 1) printf("  (further failures are only counted)\n");
    return 0;
  }
  printf("%s:%d: FAILED: %s", file, line, what);
  if (check_where[0]) printf("  [%s]", check_where);
  printf("\n");
  return 1;
}

static inline int check_true(int ok, const char *file, int line, const char *expr) {
  check_record(ok, file, line, expr);
  return ok;
}

static inline int check_eq(unsigned long long a, unsigned long long b, const char *file, int line,
                           const char *ea, const char *eb) {
  char what[400];
  snprintf(what, sizeof what, "%s == %s", ea, eb);
  if (check_record(a == b, file, line, what))
    printf("    %s = %llu (0x%llX)\n    %s = %llu (0x%llX)\n", ea, a, a, eb, b, b);
  return a == b;
}

static inline int check_str(const char *a, const char *b, const char *file, int line,
                            const char *ea, const char *eb) {
  char what[400];
  int ok = a != NULL && b != NULL && strcmp(a, b) == 0;
  snprintf(what, sizeof what, "%s equals %s", ea, eb);
  if (check_record(ok, file, line, what))
    printf("    %s = \"%s\"\n    %s = \"%s\"\n", ea, a ? a : "(null)", eb, b ? b : "(null)");
  return ok;
}

static inline void check_dump_bytes(const char *name, const uint8_t *p, size_t n) {
  size_t i;
  printf("    %s (%llu bytes):", name, (unsigned long long)n);
  for (i = 0; i < n && i < 48; i++) printf(" %02X", p[i]);
  printf("%s\n", n > 48 ? " ..." : "");
}

static inline void check_dump_u32(const char *name, const uint32_t *p, size_t n) {
  size_t i;
  printf("    %s (%llu units):", name, (unsigned long long)n);
  for (i = 0; i < n && i < 24; i++) printf(" %04lX", (unsigned long)p[i]);
  printf("%s\n", n > 24 ? " ..." : "");
}

static inline size_t check_first_diff_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  size_t i = 0;
  while (i < na && i < nb && a[i] == b[i]) i++;
  return i;
}

static inline int check_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, const char *file,
                              int line, const char *ea, const char *eb) {
  char what[400];
  size_t d = check_first_diff_bytes(a, na, b, nb);
  int ok = na == nb && d == na;
  snprintf(what, sizeof what, "bytes %s == %s", ea, eb);
  if (check_record(ok, file, line, what)) {
    printf("    first difference at index %llu\n", (unsigned long long)d);
    check_dump_bytes(ea, a, na);
    check_dump_bytes(eb, b, nb);
  }
  return ok;
}

static inline int check_u32s(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, const char *file,
                             int line, const char *ea, const char *eb) {
  char what[400];
  size_t d = 0;
  int ok;
  while (d < na && d < nb && a[d] == b[d]) d++;
  ok = na == nb && d == na;
  snprintf(what, sizeof what, "code points %s == %s", ea, eb);
  if (check_record(ok, file, line, what)) {
    printf("    first difference at index %llu\n", (unsigned long long)d);
    check_dump_u32(ea, a, na);
    check_dump_u32(eb, b, nb);
  }
  return ok;
}

static inline int check_result(u8x_result r, int status, int error, size_t read, size_t written,
                               size_t error_len, const char *file, int line, const char *er) {
  char what[400];
  int ok = (int)r.status == status && (int)r.error == error && r.read == read && r.written == written &&
           r.error_len == error_len;
  snprintf(what, sizeof what, "result of %s", er);
  if (check_record(ok, file, line, what)) {
    printf("    got:      status=%d (%s) error=%d (%s) read=%llu written=%llu error_len=%llu\n",
           (int)r.status, u8x_status_name((int)r.status), (int)r.error, u8x_error_name((int)r.error),
           (unsigned long long)r.read, (unsigned long long)r.written, (unsigned long long)r.error_len);
    printf("    expected: status=%d (%s) error=%d (%s) read=%llu written=%llu error_len=%llu\n", status,
           u8x_status_name(status), error, u8x_error_name(error), (unsigned long long)read,
           (unsigned long long)written, (unsigned long long)error_len);
  }
  return ok;
}

/* Whether to run light: a sample of the largest enumerations instead of
 * all of them. True under valgrind, which loads its preload libraries
 * (vgpreload_*.so) into the program it runs, and under an emulator (.ci/run
 * sets U8X_EMULATED for its qemu-user runs). Memory errors depend on
 * lengths, positions and capacities, not on each enumerated value, so a
 * light run keeps every kind of call and every length class, and thins
 * only repetition: a stride over the middle of a space plus its edges. */
static int check_light_known = -1; /* check_light()'s answer, once asked */
static inline int check_light(void) {
  if (check_light_known < 0) {
    const char *preload = getenv("LD_PRELOAD");
    const char *emulated = getenv("U8X_EMULATED");
    check_light_known =
        (preload != NULL && strstr(preload, "vgpreload") != NULL) || (emulated != NULL && emulated[0] != '\0');
  }
  return check_light_known;
}

/* For a program's summary lines: what a light run says it did. */
#define CHECK_SAMPLED (check_light() ? ", sampled under valgrind or an emulator" : "")

/* The value after k in an enumeration ending at `last` (inclusive): every
 * one normally; when light the first five, the last five (exact need and
 * need-1 among them, for capacities) and every `stride`th between. */
static inline size_t check_next(size_t k, size_t last, size_t stride) {
  if (!check_light() || k < 4 || k + 5 > last) return k + 1;
  return k + stride < last - 4 ? k + stride : last - 4;
}

/* Whether a scalar value is in a light run's sample: every value up to
 * U+087F (0x7F/0x80, 0xFF/0x100, 0x7FF/0x800), the first and last 8 of every
 * 1024 (0xD7FF/0xE000, 0xFFFF/0x10000, 0x10FFFF) and every 61st; every
 * value otherwise. */
static inline int check_scalar_sampled(uint32_t cp) {
  return !check_light() || cp < 0x880 || (cp & 0x3FF) < 8 || (cp & 0x3FF) >= 0x3F8 || cp % 61 == 0;
}

/* Prints the totals; returns main's exit status. */
static inline int check_done(void) {
  printf("%s: %lu checks, %lu failed\n", check_program, check_total, check_failed);
  return check_failed == 0 && check_total > 0 ? 0 : 1;
}

#define CHECK(cond) check_true((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_EQ(a, b) \
  check_eq((unsigned long long)(a), (unsigned long long)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(a, b) check_str((a), (b), __FILE__, __LINE__, #a, #b)
#define CHECK_BYTES(a, na, b, nb) \
  check_bytes((const uint8_t *)(a), (na), (const uint8_t *)(b), (nb), __FILE__, __LINE__, #a, #b)
#define CHECK_U32S(a, na, b, nb) \
  check_u32s((const uint32_t *)(a), (na), (const uint32_t *)(b), (nb), __FILE__, __LINE__, #a, #b)
/* All five fields of a u8x_result. */
#define CHECK_RESULT(r, status, error, read, written, error_len) \
  check_result((r), (int)(status), (int)(error), (read), (written), (error_len), __FILE__, __LINE__, #r)

/* A byte string literal as (const uint8_t *, length), embedded NULs kept. */
#define LIT(s) (const uint8_t *)(s), (sizeof(s) - 1)
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#endif /* U8X_CHECK_H */
