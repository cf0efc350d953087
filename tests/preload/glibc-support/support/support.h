/* A minimal stand-in for glibc's support/support.h: xsetlocale. */
#ifndef U8X_GLIBC_SUPPORT_SUPPORT_H
#define U8X_GLIBC_SUPPORT_SUPPORT_H
#include <locale.h>
#include <support/check.h>

static inline char *xsetlocale(int category, const char *locale) {
  char *r = setlocale(category, locale);
  if (r == NULL) FAIL_EXIT1("setlocale (%d, \"%s\"): no such locale", category, locale);
  return r;
}
#endif
