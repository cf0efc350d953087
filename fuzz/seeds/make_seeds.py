#!/usr/bin/env python3
"""Writes the committed seed corpora, fuzz/seeds/c_abi and fuzz/seeds/c_abi_forms.

Every seed is 8 control bytes (see the module docs of the targets: policy,
replacement, flags, Latin-1 policy/replacement, then generator seed bytes)
followed by the data. Run from the repository root:
python3 fuzz/seeds/make_seeds.py [LIPSUM_DIR]  (default /work/shared/corpus/lipsum)
"""
import os, struct, sys

LIPSUM = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/lipsum"
KUHN = open("tests/data/UTF-8-test.txt", "rb").read()

# Table 3-7 error kinds and edge cases, as UTF-8 data.
VECTORS = {
    "continuation": b"a\x80b\xbf",
    "invalid_byte": b"\xc0\x80 \xc1\xbf \xf5\x80\x80\x80 \xff\xfe",
    "truncated": b"\xe2\x82A\xf0\x9f\x98B\xc3",
    "overlong": b"\xe0\x80\x80 \xe0\x9f\xbf \xf0\x80\x80\x80 \xf0\x8f\xbf\xbf",
    "surrogate": b"\xed\xa0\x80 \xed\xbf\xbf \xed\xa0\x80\xed\xb0\x80",
    "above_max": b"\xf4\x90\x80\x80 \xf7\xbf\xbf\xbf",
    "max": b"\xf4\x8f\xbf\xbf\xf0\x90\x80\x80\xef\xbf\xbf\xee\x80\x80\xdf\xbf\xc2\x80\x7f",
    "end_1": b"ok \xf0",
    "end_2": b"ok \xf0\x9f",
    "end_3": b"ok \xf0\x9f\x98",
    "end_e0": b"ok \xe0\xa0",
    "mixed": "héllo wörld €𝄞 日本".encode() + b"\xed\xa0\x80\x80\xc3(\xe0\x80",
    "cp1252": bytes(range(0x80, 0xa0)),
    "latin1": "café Ω ÿ".encode() + b"\xff\xe9",
    "ascii": b"The quick brown fox jumps over the lazy dog. " * 3,
}
# Code points for c_abi's encoder view (selector in the low 2 bits of byte 0).
def cp(v, sel=2):
    return struct.pack("<I", v) if sel == 2 else bytes([sel]) + v
UCS4 = b"".join([
    cp(b"\x41\x00\x00", 3), cp(b"\xff\xff\x10", 0), cp(b"\x00\xd8\x00", 0),  # A, U+10FFFF, U+D800
    cp(b"\x80\x01\x00", 1), cp(b"\xff\x01\x00", 1),                      # U+DC80, U+DCFF
    struct.pack("<I", 0x00110002), struct.pack("<I", 0xFFFFFFFE),         # above max, negative
    cp(b"\xac\x20\x00", 0), cp(b"\x00\x00\x01", 0),                        # U+20AC, U+10000
])
# UTF-16 units (little-endian bytes) for c_abi_forms's UTF-16 view.
def u16(*units):
    return b"".join(struct.pack("<H", u) for u in units)
UTF16 = {
    "pairs": u16(0x41, 0xD83D, 0xDE00, 0xDBFF, 0xDFFF, 0xD800, 0xDC00),
    "lone_high": u16(0x41, 0xD800, 0x42, 0xDBFF),
    "lone_low": u16(0xDC00, 0xDC80, 0xDCFF, 0x20AC),
    "escapes": u16(0xDC80, 0xDCC3, 0xDCA9, 0xDD00),
    "ends_high": u16(0x61, 0x62, 0xD83D),
}

def ctl(policy, repl, flags, latin1=0, seed=0x5EED):
    return bytes([policy, repl, flags, latin1]) + struct.pack("<I", seed)

def write(target, name, data):
    d = os.path.join("fuzz/seeds", target)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), "wb").write(data)

lipsum = sorted(os.listdir(LIPSUM))
for target, files in (("c_abi", lipsum[0::2]), ("c_abi_forms", lipsum[1::2])):
    write(target, "kuhn_replace", ctl(1, 0, 0) + KUHN)
    write(target, "kuhn_strict_more", ctl(0, 0, 1, 1, 7) + KUHN)
    write(target, "kuhn_escape", ctl(2, 2, 2 if target == "c_abi_forms" else 0, 5, 99) + KUHN)
    for i, f in enumerate(files):
        write(target, "lipsum_" + f.split("-")[0].lower(), ctl(i % 5, i % 4, i % 2, i, 1000 + i) + open(os.path.join(LIPSUM, f), "rb").read())
    for i, (name, v) in enumerate(VECTORS.items()):
        for policy in range(5):
            write(target, f"{name}_p{policy}", ctl(policy, i % 8, (i + policy) % 8, i % 16, i * 31 + policy) + v)
    if target == "c_abi":
        for policy in range(3):
            write(target, f"ucs4_p{policy}", ctl(policy, policy, 0, 0, 42) + UCS4)
        write(target, "posix", ctl(0, 0, 0) + "wide 𝄞 €".encode() + b"\x00" + UCS4)
    else:
        for name, v in UTF16.items():
            for policy in range(3):
                for flags in (0, 1, 2):
                    write(target, f"utf16_{name}_p{policy}_f{flags}", ctl(policy, policy, flags, 1, 77) + v)

# c_abi_matrix: byte 0 the policy (index into 0, 1, 2, 5, ...), byte 2 the
# flags (index into 0, MORE, LE, BE, UCS4 LE, UCS4 BE, ...); the data read
# as UTF-16, UTF-32 and Latin-1 at once.
def utf32(*values):
    return b"".join(struct.pack("<I", v) for v in values)
MATRIX = dict(UTF16)
MATRIX.update({
    "ucs4_mixed": utf32(0x41, 0xE9, 0x20AC, 0x1F600, 0xD800, 0xDC00, 0x110000, 0x10FFFF),
    "ucs4_escape_pair": utf32(0xD83D, 0xDE00, 0xDC80, 0x61),
    "bom_utf8": b"\xef\xbb\xbf" + "café 😀".encode(),
    "bom_utf16le": b"\xff\xfe" + "café 😀".encode("utf-16-le"),
    "bom_utf32be": b"\x00\x00\xfe\xff" + "café 😀".encode("utf-32-be"),
    "bom_ff_fe_00_00": b"\xff\xfe\x00\x00a\x00b\x00",
    "latin1_text": "Größe naïve café".encode("latin-1") * 3,
})
for i, f in enumerate(lipsum[:4]):
    text = open(os.path.join(LIPSUM, f), "rb").read().decode("utf-8")
    for j, enc in enumerate(("utf-16-le", "utf-32-be")):
        write("c_abi_matrix", f"lipsum_{f.split('-')[0].lower()}_{enc}", ctl(i % 4, i, 2 + 3 * j, 0, 500 + i) + text.encode(enc))
for name, v in MATRIX.items():
    for policy in range(4):
        for flags in (0, 1, 2, 5):
            write("c_abi_matrix", f"{name}_p{policy}_f{flags}", ctl(policy, policy, flags, 0, 88) + v)
