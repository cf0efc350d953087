// A C++ program using the installed header and library: decodes to UTF-16
// into a std::u16string and encodes it back, with RAII-free plain calls.
#include <u8x.h>

#include <cstdio>
#include <string>
#include <vector>

int main() {
    const std::string text = "na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80 end";
    const uint8_t *src = reinterpret_cast<const uint8_t *>(text.data());
    // Size first (NULL output, capacity 0), then convert.
    u8x_result r = u8x_decode_utf16(src, text.size(), nullptr, 0, U8X_STRICT,
                                    U8X_REPLACEMENT_CHARACTER, 0);
    if (r.status != U8X_OK || r.written != 14) {
        std::fprintf(stderr, "size: status %u, %zu units\n", unsigned(r.status), r.written);
        return 1;
    }
    std::u16string units(r.written, u'\0');
    r = u8x_decode_utf16(src, text.size(), reinterpret_cast<uint16_t *>(&units[0]), units.size(),
                         U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0);
    if (r.status != U8X_OK || units != u"na\u00efve \u20ac \U0001F600 end") {
        std::fprintf(stderr, "decode: status %u\n", unsigned(r.status));
        return 1;
    }
    std::vector<uint8_t> back(text.size());
    r = u8x_encode_utf16(reinterpret_cast<const uint16_t *>(units.data()), units.size(),
                         back.data(), back.size(), U8X_STRICT, U8X_REPLACEMENT_CHARACTER, 0);
    if (r.status != U8X_OK || std::string(back.begin(), back.end()) != text) {
        std::fprintf(stderr, "encode: status %u\n", unsigned(r.status));
        return 1;
    }
    std::printf("C++: ok, %zu UTF-16 units, tier %s\n", units.size(), u8x_tier_name());
    return 0;
}
