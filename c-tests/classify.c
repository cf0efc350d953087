/* u8x_classify: the result u8x_validate gives (U8X_OK, or U8X_ILL_FORMED /
 * U8X_INCOMPLETE with read = the well-formed prefix), and for that prefix
 * the widest character (ASCII, Latin-1, BMP, supplementary), the
 * characters and the UTF-16 units. Known answers from Python
 * (expected.h) and by hand from Table 3-7; every prefix of every case
 * with flags 0 and U8X_MORE_INPUT against u8x_validate and the reference
 * in forms.h; the widest character alone at every position of long ASCII
 * texts (vector blocks, the folding of per-lane counters); random texts.
 * Also u8x_count_utf16_valid and u8x_count_valid on the valid prefix. */
#include "check.h"
#include "expected.h"
#include "forms.h"

static const char *width_name(int w) {
  switch (w) {
    case U8X_WIDTH_ASCII:
      return "ascii";
    case U8X_WIDTH_LATIN1:
      return "latin1";
    case U8X_WIDTH_BMP:
      return "bmp";
    case U8X_WIDTH_SUPPLEMENTARY:
      return "supplementary";
    default:
      return "?";
  }
}

static int check_info(u8x_classification got, u8x_classification want, const char *file, int line) {
  int ok = got.width == want.width && got.code_points == want.code_points && got.utf16_units == want.utf16_units;
  if (check_record(ok, file, line, "classification")) {
    printf("    got:      width=%d (%s) code_points=%llu utf16_units=%llu\n", (int)got.width, width_name(got.width),
           (unsigned long long)got.code_points, (unsigned long long)got.utf16_units);
    printf("    expected: width=%d (%s) code_points=%llu utf16_units=%llu\n", (int)want.width,
           width_name(want.width), (unsigned long long)want.code_points, (unsigned long long)want.utf16_units);
  }
  return ok;
}
#define CHECK_INFO(got, want) check_info((got), (want), __FILE__, __LINE__)

static u8x_classification info_of(u8x_width width, size_t code_points, size_t utf16_units) {
  u8x_classification c;
  memset(&c, 0, sizeof c);
  c.width = width;
  c.code_points = code_points;
  c.utf16_units = utf16_units;
  return c;
}

/* A classification full of garbage, so that a field left unwritten shows. */
static u8x_classification garbage(void) {
  u8x_classification c;
  memset(&c, 0xA5, sizeof c);
  return c;
}

/* classify(s, n, flags) against the reference, and against u8x_validate. */
static void against_reference(const uint8_t *s, size_t n, int more) {
  u8x_classification want, got = garbage();
  u8x_result w = ref_classify(s, n, more, &want);
  u8x_result r = u8x_classify(n ? s : NULL, n, more ? U8X_MORE_INPUT : 0, &got);
  u8x_result v = u8x_validate(n ? s : NULL, n, more ? U8X_MORE_INPUT : 0);
  CHECK_RESULT(r, w.status, w.error, w.read, 0, w.error_len);
  CHECK_RESULT(v, r.status, r.error, r.read, r.written, r.error_len);
  CHECK_INFO(got, want);
}

static void python_cases(void) {
  size_t i, k;
  int more;
  for (i = 0; i < EXP_CLASSIFY_CASES; i++) {
    const exp_classify *c = &exp_classify_cases[i];
    u8x_classification want = info_of(c->width, c->code_points, c->utf16_units), got = garbage(), ref;
    u8x_result r;
    check_context("%s, flags 0", c->name);
    r = u8x_classify(c->input.len ? c->input.bytes : NULL, c->input.len, 0, &got);
    CHECK_RESULT(r, c->status, c->error, c->read, 0, c->error_len);
    CHECK_INFO(got, want);
    check_context("%s, U8X_MORE_INPUT", c->name);
    got = garbage();
    r = u8x_classify(c->input.len ? c->input.bytes : NULL, c->input.len, U8X_MORE_INPUT, &got);
    CHECK_RESULT(r, c->more_status, c->error, c->read, 0, c->error_len);
    CHECK_INFO(got, want);
    /* the reference agrees with Python before it is trusted below */
    check_context("forms.h vs Python: %s", c->name);
    r = ref_classify(c->input.bytes, c->input.len, 0, &ref);
    CHECK_RESULT(r, c->status, c->error, c->read, 0, c->error_len);
    CHECK_INFO(ref, want);
    r = ref_classify(c->input.bytes, c->input.len, 1, &ref);
    CHECK_EQ(r.status, c->more_status);
    /* every prefix, both ways */
    for (k = 0; k <= c->input.len; k++)
      for (more = 0; more <= 1; more++) {
        check_context("%s, first %u bytes, flags %d", c->name, (unsigned)k, more);
        against_reference(c->input.bytes, k, more);
      }
    /* on well-formed input, the counts without checks agree */
    if (c->status == U8X_OK) {
      check_context("%s, counts of valid text", c->name);
      CHECK_EQ(u8x_count_utf16_valid(c->input.len ? c->input.bytes : NULL, c->input.len), c->utf16_units);
      CHECK_EQ(u8x_count_valid(c->input.len ? c->input.bytes : NULL, c->input.len), c->code_points);
    }
  }
  check_context("%s", "");
  printf("%u Python cases, every prefix, flags 0 and U8X_MORE_INPUT\n", (unsigned)EXP_CLASSIFY_CASES);
}

/* Table 3-7 by hand: the widest character decides; only the well-formed
 * prefix counts. */
static void by_hand(void) {
  struct {
    const char *s;
    size_t len;
    u8x_status status;
    size_t read;
    u8x_width width;
    size_t cps, units;
  } t[] = {
      {"", 0, U8X_OK, 0, U8X_WIDTH_ASCII, 0, 0},
      {"\x00", 1, U8X_OK, 1, U8X_WIDTH_ASCII, 1, 1},
      {"\x7F\x7F", 2, U8X_OK, 2, U8X_WIDTH_ASCII, 2, 2},
      {"\xC2\x80", 2, U8X_OK, 2, U8X_WIDTH_LATIN1, 1, 1},     /* U+0080 */
      {"a\xC3\xBF", 3, U8X_OK, 3, U8X_WIDTH_LATIN1, 2, 2},    /* U+00FF */
      {"\xC4\x80", 2, U8X_OK, 2, U8X_WIDTH_BMP, 1, 1},        /* U+0100 */
      {"\xDF\xBF", 2, U8X_OK, 2, U8X_WIDTH_BMP, 1, 1},        /* U+07FF */
      {"\xE0\xA0\x80", 3, U8X_OK, 3, U8X_WIDTH_BMP, 1, 1},    /* U+0800 */
      {"\xED\x9F\xBF", 3, U8X_OK, 3, U8X_WIDTH_BMP, 1, 1},    /* U+D7FF */
      {"\xEF\xBF\xBF", 3, U8X_OK, 3, U8X_WIDTH_BMP, 1, 1},    /* U+FFFF */
      {"\xF0\x90\x80\x80", 4, U8X_OK, 4, U8X_WIDTH_SUPPLEMENTARY, 1, 2}, /* U+10000 */
      {"\xF4\x8F\xBF\xBF", 4, U8X_OK, 4, U8X_WIDTH_SUPPLEMENTARY, 1, 2}, /* U+10FFFF */
      {"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z", 10, U8X_OK, 10, U8X_WIDTH_SUPPLEMENTARY, 4, 5},
      /* after the first error nothing counts */
      {"ab\xC0\xAF\xF0\x9F\x98\x80", 8, U8X_ILL_FORMED, 2, U8X_WIDTH_ASCII, 2, 2},
      {"\xC3\xA9\xED\xA0\x80\xE2\x82\xAC", 8, U8X_ILL_FORMED, 2, U8X_WIDTH_LATIN1, 1, 1},
      {"\xE2\x82\xAC\xF4\x90\x80\x80", 7, U8X_ILL_FORMED, 3, U8X_WIDTH_BMP, 1, 1},
      {"\xF0\x9F\x98\x80\xF0\x9F\x98", 7, U8X_ILL_FORMED, 4, U8X_WIDTH_SUPPLEMENTARY, 1, 2},
      {"\xFF\xC3\xA9", 3, U8X_ILL_FORMED, 0, U8X_WIDTH_ASCII, 0, 0},
      {"\xC4\x80\x80", 3, U8X_ILL_FORMED, 2, U8X_WIDTH_BMP, 1, 1},
  };
  size_t i;
  for (i = 0; i < COUNT_OF(t); i++) {
    u8x_classification got = garbage();
    u8x_result r;
    check_context("by hand #%u", (unsigned)i);
    r = u8x_classify(t[i].len ? (const uint8_t *)t[i].s : NULL, t[i].len, 0, &got);
    CHECK_EQ(r.status, t[i].status);
    CHECK_EQ(r.read, t[i].read);
    CHECK_EQ(r.written, 0);
    CHECK_INFO(got, info_of(t[i].width, t[i].cps, t[i].units));
  }
  /* U8X_MORE_INPUT: a cut character at the end is incomplete, the info is
   * for what comes before it */
  {
    u8x_classification got = garbage();
    check_context("by hand, more input");
    CHECK_RESULT(u8x_classify(LIT("\xC3\xA9\xF0\x9F\x98"), U8X_MORE_INPUT, &got), U8X_INCOMPLETE,
                 U8X_ERR_END_OF_INPUT, 2, 0, 3);
    CHECK_INFO(got, info_of(U8X_WIDTH_LATIN1, 1, 1));
    got = garbage();
    CHECK_RESULT(u8x_classify(LIT("\xC3\xA9\xF0\x9F\x98"), 0, &got), U8X_ILL_FORMED, U8X_ERR_END_OF_INPUT, 2, 0, 3);
    CHECK_INFO(got, info_of(U8X_WIDTH_LATIN1, 1, 1));
    got = garbage();
    CHECK_RESULT(u8x_classify(LIT("\xE2"), U8X_MORE_INPUT, &got), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, 0, 0, 1);
    CHECK_INFO(got, info_of(U8X_WIDTH_ASCII, 0, 0));
    got = garbage();
    CHECK_RESULT(u8x_classify(NULL, 0, U8X_MORE_INPUT, &got), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
    CHECK_INFO(got, info_of(U8X_WIDTH_ASCII, 0, 0));
  }
  check_context("%s", "");
}

/* check_light(): under valgrind or an emulator, the largest enumeration
 * below takes a sample (memory errors depend on lengths and positions,
 * which the sample keeps, not on each character enumerated). */
static int light;

/* The next position to try after p in a text of n bytes: all of them in
 * short texts; in long ones those near the ends, near the 8160-byte runs
 * after which per-lane counters are folded, and a few between. */
static size_t next_position(size_t p, size_t n) {
  size_t next = p + 997, fold = ((p + 40) / 8160 + 1) * 8160 - 40;
  if (n <= 300 || p < 70 || p + 70 > n || (p + 40) % 8160 < 80) return p + 1;
  if (fold < next) next = fold;
  return next < n - 69 ? next : n - 69;
}

/* One character of each width alone in long ASCII texts, at every
 * position near the vector blocks' edges, the text's end, and (for the
 * longest texts) beyond the point where per-lane counters are folded;
 * with an error after it, or before it. */
static void widest_everywhere(void) {
  static const char *const wide[] = {"\xC2\x80", "\xC3\xBF", "\xC4\x80", "\xE2\x82\xAC", "\xEF\xBF\xBF",
                                     "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"};
  static const size_t lens[] = {0, 1, 15, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000, 8159, 8160, 8161,
                                8192, 16320, 16321, 20000};
  size_t li, p, j, calls = 0;
  uint8_t *s = (uint8_t *)malloc(20000 + 16);
  for (li = 0; li < COUNT_OF(lens); li++) {
    size_t n = lens[li];
    for (p = 0; p <= n; p = next_position(p, n)) {
      for (j = 0; j < COUNT_OF(wide); j++) {
        size_t len = strlen(wide[j]);
        int more;
        /* light: every length and position still, with one character of
         * each length at each position in turn (2 bytes: j 0..2, 3 bytes:
         * j 3..4, 4 bytes: j 5..6) */
        if (light && j != p % 3 && j != 3 + p % 2 && j != 5 + p % 2) continue;
        memset(s, 'a' + (int)(p % 26), p);
        memcpy(s + p, wide[j], len);
        memset(s + p + len, 'z', n - p);
        check_context("%s at %u of %u bytes of ASCII", width_name(j < 2 ? 1 : j < 5 ? 2 : 3), (unsigned)p, (unsigned)n);
        against_reference(s, n + len, 0);
        calls++;
        if (p % 5 == 0 || n < 100) {
          /* cut inside it, more to come or not */
          for (more = 0; more <= 1; more++) against_reference(s, p + len - 1, more);
          /* an error just after it, and just before it */
          if (n > p) {
            s[p + len] = 0xFF;
            against_reference(s, n + len, 0);
            s[p + len] = 'z';
          }
          if (p > 0) {
            s[p - 1] = 0x80;
            against_reference(s, n + len, 1);
          }
          calls += 4;
        }
      }
    }
  }
  check_context("%s", "");
  printf("widest character everywhere: %u classifications%s\n", (unsigned)calls,
         light ? ", sampled under valgrind or an emulator" : "");
  free(s);
}

/* Large texts of one kind: every counter folded many times. */
static void large(void) {
  size_t n = 300000, i;
  uint8_t *s = (uint8_t *)malloc(n);
  u8x_classification got;
  memset(s, 0x7F, n);
  check_context("large ASCII");
  got = garbage();
  CHECK_RESULT(u8x_classify(s, n, 0, &got), U8X_OK, U8X_ERR_NONE, n, 0, 0);
  CHECK_INFO(got, info_of(U8X_WIDTH_ASCII, n, n));
  CHECK_EQ(u8x_count_utf16_valid(s, n), n);
  for (i = 0; i < n; i++) s[i] = "\xF0\x9F\x98\x80"[i % 4];
  check_context("large supplementary");
  got = garbage();
  CHECK_RESULT(u8x_classify(s, n, 0, &got), U8X_OK, U8X_ERR_NONE, n, 0, 0);
  CHECK_INFO(got, info_of(U8X_WIDTH_SUPPLEMENTARY, n / 4, n / 2));
  CHECK_EQ(u8x_count_utf16_valid(s, n), n / 2);
  for (i = 0; i < n; i++) s[i] = "\xC3\xBF"[i % 2];
  check_context("large Latin-1");
  got = garbage();
  CHECK_RESULT(u8x_classify(s, n, 0, &got), U8X_OK, U8X_ERR_NONE, n, 0, 0);
  CHECK_INFO(got, info_of(U8X_WIDTH_LATIN1, n / 2, n / 2));
  /* a BMP character in the very last byte's block, then cut */
  s[n - 2] = 0xC4;
  s[n - 1] = 0x80;
  check_context("large Latin-1, U+0100 last");
  got = garbage();
  CHECK_RESULT(u8x_classify(s, n, 0, &got), U8X_OK, U8X_ERR_NONE, n, 0, 0);
  CHECK_INFO(got, info_of(U8X_WIDTH_BMP, n / 2, n / 2));
  got = garbage();
  CHECK_RESULT(u8x_classify(s, n - 1, U8X_MORE_INPUT, &got), U8X_INCOMPLETE, U8X_ERR_END_OF_INPUT, n - 2, 0, 1);
  CHECK_INFO(got, info_of(U8X_WIDTH_LATIN1, n / 2 - 1, n / 2 - 1));
  check_context("%s", "");
  free(s);
  printf("large: 300 KB texts of each kind\n");
}

/* Random texts, whole and cut, against the reference. */
static void random_texts(void) {
  uint32_t state = 2024;
  unsigned t;
  unsigned long calls = 0;
  for (t = 0; t < 150; t++) {
    uint8_t *s = (uint8_t *)malloc(6000);
    size_t n = ref_random_text(s, ref_rand(&state) % (t % 10 == 0 ? 6000 : 1200), t % 3 == 0 ? 0 : 20 + t * 5, &state),
           k;
    for (k = 0; k <= n; k += 1 + (k * 7) % 97) {
      check_context("random text #%u, first %u bytes", t, (unsigned)k);
      against_reference(s, k, (int)(k % 2));
      calls++;
    }
    check_context("random text #%u, whole", t);
    against_reference(s, n, 0);
    free(s);
  }
  check_context("%s", "");
  printf("random texts: %lu classifications\n", calls);
}

int main(void) {
  check_begin("classify");
  light = check_light();
  {
    u8x_classification got = garbage();
    CHECK_RESULT(u8x_classify(NULL, 0, 0, &got), U8X_OK, U8X_ERR_NONE, 0, 0, 0);
    CHECK_INFO(got, info_of(U8X_WIDTH_ASCII, 0, 0));
    /* the widths are ordered, narrowest first */
    CHECK(U8X_WIDTH_ASCII < U8X_WIDTH_LATIN1 && U8X_WIDTH_LATIN1 < U8X_WIDTH_BMP &&
          U8X_WIDTH_BMP < U8X_WIDTH_SUPPLEMENTARY);
  }
  python_cases();
  by_hand();
  widest_everywhere();
  large();
  random_texts();
  return check_done();
}
