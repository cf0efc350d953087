/* libu8x.a and a second Rust static library (other-rust, with std) in one
 * C program: both count the characters of the same strings. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <u8x.h>

int64_t other_rust_count_chars(const uint8_t *ptr, size_t len);

int main(void) {
    static const char *texts[] = {"", "ascii", "na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80",
                                  "bad \xed\xa0\x80 surrogate"};
    size_t i;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        const uint8_t *s = (const uint8_t *)texts[i];
        size_t len = strlen(texts[i]);
        u8x_result r = u8x_count(s, len, U8X_STRICT, 0);
        int64_t ours = r.status == U8X_OK ? (int64_t)r.written : -1;
        int64_t theirs = other_rust_count_chars(s, len);
        if (ours != theirs) {
            fprintf(stderr, "text %zu: u8x %lld, other %lld\n", i, (long long)ours,
                    (long long)theirs);
            return 1;
        }
    }
    printf("two Rust static libraries: ok\n");
    return 0;
}
