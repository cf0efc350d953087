/* mbstowcs: UTF-8 <-> wchar_t without depending on the locale.
 *
 *   $ ./mbstowcs 'h\303\251llo'
 *   68 c3 a9 6c 6c 6f: 5 wide characters U+0068 U+00E9 U+006C U+006C U+006F; round trip ok; libc agrees
 *
 * mbstowcs(3) and wcstombs(3) convert in the encoding of the current locale
 * (LC_CTYPE): in the default "C" locale they do not decode UTF-8 at all, and
 * calling setlocale changes them for every thread of the process.
 * u8x_mbstowcs and u8x_wcstombs take the same arguments and return the same
 * things, but always use UTF-8, and are thread-safe. This program shows the
 * usual two steps: a size query (dest NULL) then the conversion into a
 * buffer of that size plus the terminator, both ways. Then, if the system
 * has a UTF-8 locale, it compares with the libc functions in that locale.
 *
 * For each argument (or a few built-in samples) it prints the bytes in hex,
 * then the wide characters, or "not UTF-8 (EILSEQ)"; then whether
 * u8x_wcstombs gave the same bytes back, and whether libc agrees (or "no
 * UTF-8 locale"). Exits 1 if a round trip fails. libc may differ on bytes
 * that are not UTF-8: glibc, for one, still decodes the 5- and 6-byte forms
 * of the old RFC 2279 and values above U+10FFFF (F4 90 80 80 to U+110000).
 *
 * Build:  cc mbstowcs.c $(pkg-config --cflags --libs u8x) -o mbstowcs
 * (wchar_t must be 32 bits: Linux, macOS, the BSDs; not Windows.)
 */
#define _POSIX_C_SOURCE 200809L /* nl_langinfo */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <u8x.h>

/* Converts s with u8x; returns a malloc'ed wide string, or NULL with errno
 * set (EILSEQ: s is not valid UTF-8). */
static wchar_t *to_wide(const char *s, size_t *count) {
    wchar_t *w;
    size_t need = u8x_mbstowcs(NULL, s, 0); /* size query: characters, no terminator */
    if (need == (size_t)-1)
        return NULL;
    w = malloc((need + 1) * sizeof *w);
    if (w == NULL)
        return NULL;
    *count = u8x_mbstowcs(w, s, need + 1); /* room for L'\0' too: it is written */
    return w;
}

/* And back: a malloc'ed UTF-8 string, or NULL with errno set. */
static char *to_utf8(const wchar_t *w) {
    char *s;
    size_t need = u8x_wcstombs(NULL, w, 0); /* size query: bytes, no terminator */
    if (need == (size_t)-1)
        return NULL;
    s = malloc(need + 1);
    if (s != NULL)
        u8x_wcstombs(s, w, need + 1);
    return s;
}

/* Prints whether mbstowcs (in a UTF-8 locale) gives the same answer. */
static void compare_with_libc(const char *s, const wchar_t *w, size_t count) {
    wchar_t *lw;
    size_t need = mbstowcs(NULL, s, 0), j;
    if (need == (size_t)-1) {
        printf(w == NULL ? "; libc agrees" : "; libc differs: EILSEQ");
        return;
    }
    if ((lw = malloc((need + 1) * sizeof *lw)) == NULL)
        return;
    mbstowcs(lw, s, need + 1);
    if (w != NULL && need == count && wmemcmp(lw, w, count) == 0) {
        printf("; libc agrees");
    } else {
        printf("; libc differs: %lu wide characters", (unsigned long)need);
        for (j = 0; j < need; j++)
            printf(" U+%04lX", (unsigned long)lw[j]);
    }
    free(lw);
}

/* Sets LC_CTYPE to a UTF-8 locale if the system has one. */
static int utf8_locale(void) {
    static const char *const names[] = {"", "C.UTF-8", "C.utf8", "en_US.UTF-8"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *codeset;
        if (setlocale(LC_CTYPE, names[i]) == NULL)
            continue;
        codeset = nl_langinfo(CODESET);
        if (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0)
            return 1;
    }
    setlocale(LC_CTYPE, "C");
    return 0;
}

int main(int argc, char **argv) {
    static const char *const samples[] = {
        "hello", "h\xC3\xA9llo w\xC3\xB6rld", "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80!",
        "overlong \xC0\xAF", "cut \xE2\x82", "surrogate \xED\xA0\x80",
    };
    const char *const *strings = argc > 1 ? (const char *const *)argv + 1 : samples;
    int n = argc > 1 ? argc - 1 : (int)(sizeof samples / sizeof samples[0]);
    int have_libc = utf8_locale(), failures = 0, i;

    for (i = 0; i < n; i++) {
        const char *s = strings[i];
        size_t count = 0, j;
        wchar_t *w;

        for (j = 0; s[j] != '\0'; j++)
            printf("%s%02x", j ? " " : "", (unsigned)(unsigned char)s[j]);
        errno = 0;
        w = to_wide(s, &count);
        if (w == NULL && errno != EILSEQ) {
            perror("u8x_mbstowcs");
            return 2;
        }
        if (w == NULL) {
            printf(": not UTF-8 (EILSEQ)");
        } else {
            char *back = to_utf8(w);
            printf(": %lu wide characters", (unsigned long)count);
            for (j = 0; j < count; j++)
                printf(" U+%04lX", (unsigned long)w[j]);
            if (back != NULL && strcmp(back, s) == 0) {
                printf("; round trip ok");
            } else {
                printf("; round trip FAILED");
                failures++;
            }
            free(back);
        }
        if (have_libc)
            compare_with_libc(s, w, count);
        else
            printf("; no UTF-8 locale");
        putchar('\n');
        free(w);
    }
    return failures ? 1 : 0;
}
