/* glibc's older test-skeleton.c, reached as "../test-skeleton.c": the
 * same as support/test-driver.c here. */
#include <support/test-driver.c>
