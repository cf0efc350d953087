/* validate_file: is a file valid UTF-8, and if not, where is the first error?
 *
 *   $ ./validate_file notes.txt
 *   notes.txt:12:7: overlong encoding at byte offset 318
 *
 * Prints "ok" and exits 0 when the whole file is valid; otherwise prints
 * path:line:column (both 1-based; the column counts characters, not bytes)
 * and the kind of error, and exits 1 (2 if the file cannot be read).
 *
 * Shows: u8x_validate on a file read in fixed-size chunks, with
 * U8X_MORE_INPUT so that a character cut by the end of a chunk is reported
 * as U8X_INCOMPLETE (its bytes are carried over to the next chunk) instead
 * of as an error; u8x_count_valid to count characters in text already known
 * to be valid; u8x_error_name for the message.
 *
 * Build:  cc validate_file.c $(pkg-config --cflags --libs u8x) -o validate_file
 */
#include <stdio.h>
#include <string.h>

#include <u8x.h>

#ifndef CHUNK_SIZE
#define CHUNK_SIZE 65536
#endif

/* Where the text read so far ends: line and column of the next character. */
struct position {
    unsigned long long line, column;
};

/* Advances pos over text that is known to be valid UTF-8. */
static void advance(struct position *pos, const unsigned char *text, size_t len) {
    const unsigned char *nl;
    while ((nl = memchr(text, '\n', len)) != NULL) {
        pos->line++;
        pos->column = 1;
        len -= (size_t)(nl + 1 - text);
        text = nl + 1;
    }
    pos->column += u8x_count_valid(text, len);
}

int main(int argc, char **argv) {
    static unsigned char buf[3 + CHUNK_SIZE]; /* up to 3 carried-over bytes + a chunk */
    struct position pos = {1, 1};
    unsigned long long offset = 0; /* of buf[0] in the file */
    size_t carried = 0;
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    for (;;) {
        size_t len = carried + fread(buf + carried, 1, CHUNK_SIZE, f);
        int last = feof(f);
        u8x_result r;

        if (ferror(f)) {
            perror(argv[1]);
            return 2;
        }
        r = u8x_validate(buf, len, last ? 0 : U8X_MORE_INPUT);
        advance(&pos, buf, r.read); /* the valid part */
        if (r.status == U8X_ILL_FORMED) {
            printf("%s:%llu:%llu: %s at byte offset %llu\n", argv[1], pos.line, pos.column,
                   u8x_error_name((int)r.error), offset + r.read);
            fclose(f);
            return 1;
        }
        if (r.status != U8X_OK && r.status != U8X_INCOMPLETE) {
            fprintf(stderr, "%s: %s\n", argv[1], u8x_status_name((int)r.status));
            return 2;
        }
        /* U8X_INCOMPLETE: the last r.error_len bytes start a character that
         * the next chunk may complete; keep them for the next call. */
        carried = len - r.read;
        memmove(buf, buf + r.read, carried);
        offset += r.read;
        if (last)
            break;
    }
    fclose(f);
    puts("ok");
    return 0;
}
