/* A program as a user writes it against an installed u8x: validates and
 * decodes a string with an error, checks every result, prints one line.
 * Built by run.sh through pkg-config (shared and static) and CMake. */
#include <stdio.h>
#include <string.h>
#include <u8x.h>

int main(void) {
    static const char text[] = "na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80 \xc0\xaf end";
    const uint8_t *src = (const uint8_t *)text;
    size_t len = sizeof text - 1;
    uint32_t out[64];
    u8x_result r = u8x_validate(src, len, 0);
    /* C0 never occurs in UTF-8: an invalid byte, at offset 16. */
    if (r.status != U8X_ILL_FORMED || r.read != 16 || r.error != U8X_ERR_INVALID_BYTE ||
        r.error_len != 1) {
        fprintf(stderr, "validate: status %u at %zu kind %u\n", (unsigned)r.status, r.read,
                (unsigned)r.error);
        return 1;
    }
    r = u8x_decode_ucs4(src, len, out, 64, U8X_REPLACE, U8X_REPLACEMENT_CHARACTER, 0);
    if (r.status != U8X_OK || r.written != 16 || out[2] != 0xEF || out[6] != 0x20AC ||
        out[8] != 0x1F600 || out[10] != 0xFFFD || out[11] != 0xFFFD) {
        fprintf(stderr, "decode: status %u, %zu written\n", (unsigned)r.status, r.written);
        return 1;
    }
    printf("u8x %s (header %s): ok, %zu code points, tier %s\n", u8x_version(),
           U8X_VERSION_STRING, r.written, u8x_tier_name());
    return strcmp(u8x_version(), U8X_VERSION_STRING) != 0;
}
