/* A minimal stand-in for glibc's support/check.h (written for u8x's
 * preload tests; glibc's own is not copied): the macros the multibyte
 * tests of glibc 2.36 use. A failed TEST_VERIFY or TEST_COMPARE is
 * printed and remembered, and the test then exits 1 (support/test-driver.c). */
#ifndef U8X_GLIBC_SUPPORT_CHECK_H
#define U8X_GLIBC_SUPPORT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int support_failures;

static inline void support_record_failure(void) { support_failures++; }

#define FAIL_EXIT(status, ...)                                        \
  do {                                                                \
    printf("error: %s:%d: ", __FILE__, __LINE__);                     \
    printf(__VA_ARGS__);                                              \
    putchar('\n');                                                    \
    exit(status);                                                     \
  } while (0)
#define FAIL_EXIT1(...) FAIL_EXIT(1, __VA_ARGS__)
#define FAIL_RET(...)                                                 \
  do {                                                                \
    printf("error: %s:%d: ", __FILE__, __LINE__);                     \
    printf(__VA_ARGS__);                                              \
    putchar('\n');                                                    \
    return 1;                                                         \
  } while (0)
#define FAIL(...)                                                     \
  do {                                                                \
    printf("error: %s:%d: ", __FILE__, __LINE__);                     \
    printf(__VA_ARGS__);                                              \
    putchar('\n');                                                    \
    support_record_failure();                                         \
  } while (0)

#define TEST_VERIFY(expr)                                                         \
  do {                                                                            \
    if (!(expr)) {                                                                \
      printf("error: %s:%d: not true: %s\n", __FILE__, __LINE__, #expr);          \
      support_record_failure();                                                   \
    }                                                                             \
  } while (0)
#define TEST_VERIFY_EXIT(expr)                                                    \
  do {                                                                            \
    if (!(expr)) {                                                                \
      printf("error: %s:%d: not true: %s\n", __FILE__, __LINE__, #expr);          \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

/* Both sides as integers, compared by value, signedness included, as
 * glibc's support_test_compare_failure does. */
#define TEST_COMPARE(left, right)                                                          \
  do {                                                                                     \
    __typeof__(left) u8x_l = (left);                                                       \
    __typeof__(right) u8x_r = (right);                                                     \
    int u8x_lneg = u8x_l < 0, u8x_rneg = u8x_r < 0;                                        \
    if (u8x_lneg != u8x_rneg || (unsigned long long)u8x_l != (unsigned long long)u8x_r) {  \
      printf("error: %s:%d: numeric comparison failure\n   left: %lld (0x%llx); from: %s\n" \
             "  right: %lld (0x%llx); from: %s\n",                                         \
             __FILE__, __LINE__, (long long)u8x_l, (unsigned long long)u8x_l, #left,       \
             (long long)u8x_r, (unsigned long long)u8x_r, #right);                         \
      support_record_failure();                                                            \
    }                                                                                      \
  } while (0)

#define TEST_COMPARE_BLOB(lp, ll, rp, rl)                                               \
  do {                                                                                  \
    size_t u8x_ll = (ll), u8x_rl = (rl);                                                \
    if (u8x_ll != u8x_rl || memcmp((lp), (rp), u8x_ll) != 0) {                          \
      printf("error: %s:%d: blob comparison failed: %s vs %s\n", __FILE__, __LINE__, #lp, #rp); \
      support_record_failure();                                                         \
    }                                                                                   \
  } while (0)

#endif
