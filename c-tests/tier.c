/* u8x_tier_name and u8x_tier_forced agree with U8X_TIER, whatever the
 * harness set it to: a static, known name; 0 when unset or empty; 1 only
 * with the name that runs; on a refusal (-1 unavailable, -2 unknown) the
 * calls still work. With U8X_EXPECT_TIER set (the harness's per-tier and
 * valgrind runs) that tier must be the one running, so a run that meant
 * to exercise a tier cannot quietly exercise another. */
#include <ctype.h>
#include <stdlib.h>

#include "check.h"

static const char *const names[] = {"scalar", "sse42", "avx2", "avx512", "neon"};
static const uint32_t ete[] = {0xE9, 't', 0xE9};

static int same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

int main(void) {
  const char *env = getenv("U8X_TIER");
  const char *expect = getenv("U8X_EXPECT_TIER");
  const char *name;
  int forced, known = 0;
  size_t i;
  uint32_t out[4];
  check_begin("tier");
  /* a conversion first: the tier is chosen by the first call that needs it */
  CHECK_RESULT(u8x_decode_ucs4(LIT("\xC3\xA9t\xC3\xA9"), out, 4, U8X_STRICT, 0, 0), U8X_OK, U8X_ERR_NONE, 5, 3, 0);
  CHECK_U32S(out, 3, ete, 3);
  name = u8x_tier_name();
  forced = u8x_tier_forced();
  printf("tier: %s, U8X_TIER=%s, u8x_tier_forced()=%d\n", name ? name : "(null)", env ? env : "(unset)", forced);
  CHECK(name != NULL);
  CHECK(u8x_tier_name() == name); /* static, and fixed */
  CHECK_EQ(u8x_tier_forced(), forced);
  for (i = 0; name && i < COUNT_OF(names); i++) known |= strcmp(name, names[i]) == 0;
  CHECK(known);
  if (env == NULL || *env == '\0') {
    CHECK_EQ(forced, 0);
  } else if (forced == 1) {
    CHECK(name != NULL && same_ignoring_case(env, name));
  } else {
    CHECK(forced == -1 || forced == -2);
  }
  if (expect != NULL) {
    check_context("U8X_EXPECT_TIER=%s", expect);
    CHECK_STR(name, expect);
    CHECK_EQ(forced, 1);
  }
  check_context("%s", "");
  return check_done();
}
