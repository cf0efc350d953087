// Runs one simdutf 9.1 arm64 kernel once over a file, for icount.sh.
#include "simdutf.h"
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int fd = open(argv[2], O_RDONLY);
  size_t cap = 1 << 22;
  char *buf = (char *)malloc(cap);
  char *out = (char *)malloc(cap * 4);
  ssize_t n = read(fd, buf, cap);
  close(fd);
  if (n < 0) return 2;
  auto impl = simdutf::get_available_implementations()["arm64"];
  volatile size_t r = 0;
  const char *op = argv[1];
  if (!strcmp(op, "validate")) r = impl->validate_utf8(buf, n);
  // No validating count in simdutf: validation, then counting.
  else if (!strcmp(op, "count")) r = impl->validate_utf8(buf, n) + impl->count_utf8(buf, n);
  else if (!strcmp(op, "count_valid")) r = impl->count_utf8(buf, n);
  else if (!strcmp(op, "utf8_to_ucs4")) r = impl->convert_utf8_to_utf32(buf, n, (char32_t *)out);
  else if (!strcmp(op, "ucs4_to_utf8")) r = impl->convert_utf32_to_utf8((const char32_t *)buf, n / 4, out);
  else if (!strcmp(op, "utf8_to_utf16")) r = impl->convert_utf8_to_utf16le(buf, n, (char16_t *)out);
  else if (!strcmp(op, "utf16_to_utf8")) r = impl->convert_utf16le_to_utf8((const char16_t *)buf, n / 2, out);
  else if (!strcmp(op, "latin1_to_utf8")) r = impl->convert_latin1_to_utf8(buf, n, out);
  else if (!strcmp(op, "utf8_to_latin1")) r = impl->convert_utf8_to_latin1(buf, n, out);
  // simdutf has no classification: its nearest is validation, then the
  // UTF-16 length (characters plus 4-byte ones), two passes.
  else if (!strcmp(op, "classify")) r = impl->validate_utf8(buf, n) + impl->utf16_length_from_utf8(buf, n);
  else if (!strcmp(op, "utf8_len_of_utf16")) r = impl->utf8_length_from_utf16le((const char16_t *)buf, n / 2);
  else return 2;
  return (int)(r & 1) * 0;
}
