/* Runs one u8x operation once over a file, for icount.sh: the difference
 * of two runs' instruction counts is the cost of the extra input. An
 * operation may end in "@" and a u8x_dialect's value ("utf8_to_utf16@768"
 * reads Modified UTF-8) where a dialect applies. */
#include "u8x.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int fd = open(argv[2], O_RDONLY);
  size_t cap = 1 << 22;
  uint8_t *buf = malloc(cap);
  uint8_t *out = malloc(cap * 4);
  ssize_t n = read(fd, buf, cap);
  close(fd);
  if (n < 0) return 2;
  volatile size_t r = 0;
  char op[64];
  strncpy(op, argv[1], sizeof op - 1);
  op[sizeof op - 1] = 0;
  uint32_t d = 0;
  char *at = strchr(op, '@');
  if (at) {
    *at = 0;
    d = (uint32_t)atoi(at + 1);
  }
  if (!strcmp(op, "validate")) r = u8x_validate(buf, n, d).read;
  else if (!strcmp(op, "count")) r = u8x_count(buf, n, 0, 0).written;
  else if (!strcmp(op, "count_valid")) r = u8x_count_valid(buf, n);
  else if (!strcmp(op, "utf8_to_ucs4")) r = u8x_decode_ucs4(buf, n, (uint32_t *)out, cap, d, 0, 0).written;
  else if (!strcmp(op, "ucs4_to_utf8")) r = u8x_encode((const uint32_t *)buf, n / 4, out, cap * 4, 0, 0).written;
  else if (!strcmp(op, "utf8_to_utf16")) r = u8x_decode_utf16(buf, n, (uint16_t *)out, cap * 2, d, 0, 0).written;
  else if (!strcmp(op, "utf16_to_utf8")) r = u8x_encode_utf16((const uint16_t *)buf, n / 2, out, cap * 4, d, 0, 0).written;
  else if (!strcmp(op, "latin1_to_utf8")) r = u8x_encode_latin1(buf, n, out, cap * 4).written;
  else if (!strcmp(op, "utf8_to_latin1")) r = u8x_decode_latin1(buf, n, out, cap * 4, 0, 0, 0).written;
  else if (!strcmp(op, "classify")) {
    struct u8x_classification info;
    r = u8x_classify(buf, n, 0, &info).read;
  } else if (!strcmp(op, "utf8_len_of_utf16")) r = u8x_encoded_len_utf16_valid((const uint16_t *)buf, n / 2, 0);
  else return 2;
  return (int)(r & 1) * 0;
}
