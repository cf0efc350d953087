/* A minimal stand-in for glibc's support/test-driver.c: main() runs the
 * test's do_test (or TEST_FUNCTION), and the exit status is its result, or
 * 1 if a TEST_VERIFY / TEST_COMPARE failed; 77 means unsupported. No
 * timeout or forking: run.sh bounds each test with timeout(1). */
#include <stdio.h>
#include <support/check.h>

int support_failures;

#ifndef TEST_FUNCTION
#define TEST_FUNCTION do_test()
#endif
#ifdef PREPARE
#error "PREPARE is not supported by this stand-in"
#endif

int main(void) {
  int status = TEST_FUNCTION;
  fflush(stdout);
  if (support_failures) {
    printf("error: %d test failures\n", support_failures);
    return 1;
  }
  return status;
}
