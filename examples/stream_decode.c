/* stream_decode: decode UTF-8 from standard input, a buffer at a time.
 *
 *   $ ./stream_decode replace < damaged.txt > clean.txt
 *   stream_decode: 5123 code points
 *
 * Decodes standard input to code points (UCS-4) through one fixed-size
 * input buffer, and writes them back out as UTF-8, so the output is the
 * input with each ill-formed sequence handled by the policy:
 *   strict   stop at the first one: print its kind and byte offset, exit 1
 *            (what was decoded before it has been written);
 *   replace  write U+FFFD for it (one per maximal subpart, as Python's
 *            errors="replace", WHATWG and Rust's from_utf8_lossy do).
 * The number of code points decoded goes to standard error.
 *
 * Shows: u8x_decode_ucs4 with U8X_MORE_INPUT, carrying the bytes of a
 * character cut by the end of the buffer (U8X_INCOMPLETE, r.error_len
 * bytes) over to the next read; the final call without the flag, so that
 * a character cut by the end of the input is an error; u8x_encode.
 *
 * Build:  cc stream_decode.c $(pkg-config --cflags --libs u8x) -o stream_decode
 */
#include <stdio.h>
#include <string.h>

#include <u8x.h>

#ifndef BUFFER_SIZE
#define BUFFER_SIZE 4096
#endif
#if BUFFER_SIZE < 4
#error "BUFFER_SIZE must leave room for a new byte after a carried 3-byte tail"
#endif

int main(int argc, char **argv) {
    static uint8_t in[BUFFER_SIZE];
    static uint32_t code_points[BUFFER_SIZE]; /* a byte decodes to at most one */
    static uint8_t out[4 * BUFFER_SIZE];      /* a code point encodes to at most 4 bytes */
    unsigned long long total = 0, offset = 0;
    size_t carried = 0;
    uint32_t policy;

    if (argc == 2 && strcmp(argv[1], "strict") == 0) {
        policy = U8X_STRICT;
    } else if (argc == 2 && strcmp(argv[1], "replace") == 0) {
        policy = U8X_REPLACE;
    } else {
        fprintf(stderr, "usage: %s strict|replace < input > output\n", argv[0]);
        return 2;
    }
    for (;;) {
        size_t len = carried + fread(in + carried, 1, sizeof in - carried, stdin);
        int last = feof(stdin);
        u8x_result r, e;

        if (ferror(stdin)) {
            perror("stdin");
            return 2;
        }
        r = u8x_decode_ucs4(in, len, code_points, BUFFER_SIZE, policy, U8X_REPLACEMENT_CHARACTER,
                            last ? 0 : U8X_MORE_INPUT);
        /* Whatever the status, the r.written code points are good: scalar
         * values, which always encode, and `out` has room for them all. */
        e = u8x_encode(code_points, r.written, out, sizeof out, U8X_STRICT, 0);
        if (fwrite(out, 1, e.written, stdout) != e.written) {
            perror("stdout");
            return 2;
        }
        total += r.written;
        if (r.status == U8X_ILL_FORMED) { /* strict only */
            fflush(stdout);
            fprintf(stderr, "stream_decode: %s at byte offset %llu (after %llu code points)\n",
                    u8x_error_name((int)r.error), offset + r.read, total);
            return 1;
        }
        if (r.status != U8X_OK && r.status != U8X_INCOMPLETE) {
            fprintf(stderr, "stream_decode: %s\n", u8x_status_name((int)r.status));
            return 2;
        }
        /* U8X_INCOMPLETE: keep the r.error_len bytes of the cut character. */
        carried = len - r.read;
        memmove(in, in + r.read, carried);
        offset += r.read;
        if (last)
            break;
    }
    if (fflush(stdout) != 0) {
        perror("stdout");
        return 2;
    }
    fprintf(stderr, "stream_decode: %llu code points\n", total);
    return 0;
}
