/* Memory flush against inaccessible guard pages, for the overrun tests: an
 * access out of bounds by vector code (which ASan cannot see inside the
 * Rust library) is a crash. Include after defining _DEFAULT_SOURCE (for
 * MAP_ANONYMOUS under -std=c99). */
#ifndef U8X_TEST_GUARD_H
#define U8X_TEST_GUARD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define ARENA_PAGES 8

/* An accessible region between two inaccessible pages. */
struct arena {
  uint8_t *start, *end;
};

static struct arena arena_new(void) {
  struct arena a;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uint8_t *base = (uint8_t *)mmap(NULL, (ARENA_PAGES + 2) * page, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == (uint8_t *)MAP_FAILED) {
    printf("mmap failed\n");
    exit(1);
  }
  if (mprotect(base, page, PROT_NONE) != 0 || mprotect(base + (ARENA_PAGES + 1) * page, page, PROT_NONE) != 0) {
    printf("mprotect failed\n");
    exit(1);
  }
  a.start = base + page;
  a.end = base + (ARENA_PAGES + 1) * page;
  return a;
}

/* n bytes ending at the guard page after the arena (tail) or starting at
 * the one before it (head). For units, n is a multiple of the unit size,
 * so both placements are aligned. */
static uint8_t *place(struct arena a, size_t n, int head) { return head ? a.start : a.end - n; }

#endif
