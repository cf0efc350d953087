/* Many threads racing the first call: the tier (CPU detection and the
 * U8X_TIER read) is chosen by the first u8x call that needs it and cached
 * in atomics. In a fresh process (a child forked before any u8x call),
 * THREADS threads wait at a barrier and then each makes its first u8x call
 * at the same moment, each starting with a different function; every
 * thread's answers (the tier's name and u8x_tier_forced, and the results
 * and outputs of the conversions) must equal those of a single-threaded
 * fresh process. ROUNDS fresh processes race, then this one does. The
 * harness runs the program with U8X_TIER unset (static, shared, sanitized)
 * and set to each tier (the per-tier and valgrind runs); with
 * U8X_EXPECT_TIER set, that tier must be the one every thread got. */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t, fork, pipe */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define THREADS 24
/* fresh processes that race; fewer when check_light(): under valgrind,
 * which runs one thread at a time and forks slowly, or an emulator */
#define ROUNDS 24
#define ROUNDS_VALGRIND 4
#define TEXT_LEN 3000

/* Everything a thread computes, compared with memcmp (zeroed first, so the
 * padding compares equal too). */
struct answers {
  char tier[16];
  int forced;
  u8x_result validate, count, decode, decode16, classify, encode, latin1;
  u8x_classification info;
  size_t count_valid, count_utf16_valid, next, prev;
  uint32_t decoded_hash, decoded16_hash, encoded_hash, latin1_hash;
};

static uint8_t text[TEXT_LEN];
static pthread_barrier_t barrier;
static struct answers reference;
static struct answers answers[THREADS];

static uint32_t fnv(const void *p, size_t n) {
  const uint8_t *b = (const uint8_t *)p;
  uint32_t h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

/* Mixed text long enough for the vector kernels: ASCII runs, 2-, 3- and
 * 4-byte characters, and ill-formed bytes after the first 2000 bytes. */
static void make_text(void) {
  static const char *const pieces[] = {"plain ascii text ", "\xC3\xA9t\xC3\xA9 ", "\xE2\x82\xAC\xE6\x97\xA5 ",
                                       "\xF0\x9F\x98\x80 ", "0123456789abcdef"};
  size_t n = 0, i = 0;
  while (n < TEXT_LEN) {
    const char *p = pieces[i++ % COUNT_OF(pieces)];
    size_t len = strlen(p);
    if (n + len > TEXT_LEN) len = TEXT_LEN - n;
    memcpy(text + n, p, len);
    n += len;
  }
  text[2001] = 0xFF;
  text[2500] = 0xED; /* a surrogate, or part of one */
  text[2501] = 0xA0;
  text[TEXT_LEN - 1] = 0xC3; /* cut by the end */
}

static void do_tier(struct answers *a, size_t row) {
  (void)row;
  const char *name = u8x_tier_name();
  if (name != NULL) strncpy(a->tier, name, sizeof a->tier - 1);
}
static void do_forced(struct answers *a, size_t row) {
  (void)row;
  a->forced = u8x_tier_forced();
}
static void do_validate(struct answers *a, size_t row) {
  (void)row;
  a->validate = u8x_validate(text, 2000, 0);
}
static void do_count(struct answers *a, size_t row) {
  (void)row;
  a->count = u8x_count(text, TEXT_LEN, U8X_REPLACE, 0);
}
static void do_count_valid(struct answers *a, size_t row) {
  (void)row;
  a->count_valid = u8x_count_valid(text, 2000);
}
static void do_decode(struct answers *a, size_t row) {
  static uint32_t out[THREADS + 1][TEXT_LEN]; /* a row per thread, one for the reference */
  uint32_t *dst = out[row];
  a->decode = u8x_decode_ucs4(text, TEXT_LEN, dst, TEXT_LEN, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0);
  a->decoded_hash = fnv(dst, a->decode.written * sizeof *dst);
}
static void do_decode16(struct answers *a, size_t row) {
  static uint16_t out[THREADS + 1][2 * TEXT_LEN];
  uint16_t *dst = out[row];
  a->decode16 = u8x_decode_utf16(text, TEXT_LEN, dst, 2 * TEXT_LEN, U8X_ESCAPE, 0, U8X_BIG_ENDIAN);
  a->decoded16_hash = fnv(dst, a->decode16.written * sizeof *dst);
}
static void do_classify(struct answers *a, size_t row) {
  (void)row;
  a->classify = u8x_classify(text, TEXT_LEN, 0, &a->info);
}
static void do_count_utf16_valid(struct answers *a, size_t row) {
  (void)row;
  a->count_utf16_valid = u8x_count_utf16_valid(text, 2000);
}
static void do_encode(struct answers *a, size_t row) {
  (void)row;
  static const uint32_t cps[] = {'a', 0xE9, 0x20AC, 0x1F600, 0xD800, 'z', 0x10FFFF, 0x110000, 'q'};
  uint8_t out[64];
  a->encode = u8x_encode(cps, COUNT_OF(cps), out, sizeof out, U8X_REPLACE, '?');
  a->encoded_hash = fnv(out, a->encode.written);
}
static void do_latin1(struct answers *a, size_t row) {
  (void)row;
  uint8_t out[TEXT_LEN];
  a->latin1 = u8x_decode_latin1(text, TEXT_LEN, out, sizeof out, U8X_REPLACE, '?', 0);
  a->latin1_hash = fnv(out, a->latin1.written);
}
static void do_boundaries(struct answers *a, size_t row) {
  (void)row;
  a->next = u8x_next_boundary(text, TEXT_LEN, 1001);
  a->prev = u8x_prev_boundary(text, TEXT_LEN, 1001);
}

typedef void (*call)(struct answers *, size_t);
/* The first call of thread i is calls[i % COUNT_OF(calls)]; the tier
 * queries and the conversions that choose the tier all come first somewhere. */
static const call calls[] = {do_decode,   do_tier,     do_validate,          do_forced,  do_count,
                             do_decode16, do_classify, do_count_utf16_valid, do_encode,  do_latin1,
                             do_count_valid, do_boundaries};

/* Fills *a, starting with calls[first]; `row` (the thread's index, or
 * THREADS) picks the output buffers. */
static void compute(struct answers *a, size_t first, size_t row) {
  size_t i;
  memset(a, 0, sizeof *a);
  calls[first % COUNT_OF(calls)](a, row);
  for (i = 0; i < COUNT_OF(calls); i++)
    if (i != first % COUNT_OF(calls)) calls[i](a, row);
}

/* Threads past the barrier; each spins until all are, so that the first
 * calls start within nanoseconds of each other (as far as the cores go)
 * rather than as the barrier wakes them one by one. */
static int arrived;

static void *racer(void *arg) {
  size_t i = (size_t)(uintptr_t)arg;
  pthread_barrier_wait(&barrier);
  __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < THREADS) sched_yield();
  compute(&answers[i], i, i);
  return NULL;
}

/* Starts THREADS threads together and compares what each computed with the
 * reference. Returns the number of threads that disagree. */
static int race(void) {
  pthread_t threads[THREADS];
  size_t i;
  int bad = 0;
  arrived = 0;
  if (pthread_barrier_init(&barrier, NULL, THREADS) != 0) {
    printf("pthread_barrier_init failed\n");
    return THREADS;
  }
  for (i = 0; i < THREADS; i++)
    if (pthread_create(&threads[i], NULL, racer, (void *)(uintptr_t)i) != 0) {
      printf("pthread_create failed\n");
      exit(1); /* the barrier would never open */
    }
  for (i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
  pthread_barrier_destroy(&barrier);
  for (i = 0; i < THREADS; i++)
    if (memcmp(&answers[i], &reference, sizeof reference) != 0) {
      printf("  thread %u (first call #%u) disagrees: tier %s (forced %d), validate %d/%llu, decode %d/%llu\n",
             (unsigned)i, (unsigned)(i % COUNT_OF(calls)), answers[i].tier, answers[i].forced,
             (int)answers[i].validate.status, (unsigned long long)answers[i].validate.read,
             (int)answers[i].decode.status, (unsigned long long)answers[i].decode.written);
      bad++;
    }
  return bad;
}

/* Runs `f` in a forked child, a process in which no u8x call was made yet;
 * returns its exit status (-1 if it did not exit normally). */
static int in_child(int (*f)(int), int fd) {
  pid_t pid = fork();
  int status;
  if (pid < 0) return -1;
  if (pid == 0) _exit(f(fd));
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

static int single(int fd) {
  struct answers a;
  compute(&a, 0, THREADS);
  return write(fd, &a, sizeof a) == (ssize_t)sizeof a ? 0 : 1;
}

static int racing(int fd) {
  (void)fd;
  return race() == 0 ? 0 : 1;
}

int main(void) {
  const char *expect = getenv("U8X_EXPECT_TIER");
  int fds[2], round, rounds = check_light() ? ROUNDS_VALGRIND : ROUNDS;
  /* nothing here may choose the tier before the children are forked:
   * check_begin calls only u8x_version, which does not */
  check_begin("race");
  make_text();

  /* the single-threaded answer, from a fresh process */
  CHECK(pipe(fds) == 0);
  CHECK_EQ(in_child(single, fds[1]), 0);
  close(fds[1]); /* a child that died has written nothing: read sees the end */
  CHECK(read(fds[0], &reference, sizeof reference) == (ssize_t)sizeof reference);
  close(fds[0]);
  printf("race: tier %s (u8x_tier_forced %d, U8X_TIER=%s); %d threads, %d fresh processes\n", reference.tier,
         reference.forced, getenv("U8X_TIER") ? getenv("U8X_TIER") : "(unset)", THREADS, rounds + 1);
  /* the reference itself is right */
  check_context("reference");
  CHECK(reference.tier[0] != '\0');
  if (expect != NULL) {
    CHECK_STR(reference.tier, expect);
    CHECK_EQ(reference.forced, 1);
  }
  CHECK_RESULT(reference.validate, U8X_OK, U8X_ERR_NONE, 2000, 0, 0);
  CHECK_RESULT(reference.count, U8X_OK, U8X_ERR_NONE, TEXT_LEN, reference.decode.written, 0);
  CHECK_EQ(reference.decode.status, U8X_OK);
  CHECK_EQ(reference.decode.read, TEXT_LEN);
  CHECK_EQ(reference.classify.status, U8X_ILL_FORMED);
  CHECK_EQ(reference.classify.read, 2001);
  CHECK_EQ(reference.info.width, U8X_WIDTH_SUPPLEMENTARY);
  CHECK_RESULT(reference.encode, U8X_OK, U8X_ERR_NONE, 9, 1 + 2 + 3 + 4 + 1 + 1 + 4 + 1 + 1, 0);

  for (round = 0; round < rounds; round++) {
    check_context("fresh process %d", round);
    CHECK_EQ(in_child(racing, -1), 0);
  }
  /* and this process, in which no thread has chosen the tier either */
  check_context("this process");
  CHECK_EQ(race(), 0);
  check_context("%s", "");
  return check_done();
}
