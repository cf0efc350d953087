#!/usr/bin/env python3
"""Writes c-tests/expected.h: expected outputs for the C tests, computed by
Python's own UTF-8 codec (never by u8x).

    python3 c-tests/gen_expected.py > c-tests/expected.h     # regenerate
    python3 c-tests/gen_expected.py --check c-tests/expected.h  # verify

Python's UTF-8 decoder reports errors by maximal subpart (Unicode 3.9,
"U+FFFD substitution of maximal subparts"), like u8x. Every array in the
output carries, in a comment, the exact Python expression that produced it.
"""

import codecs
import sys

# --- error handlers -------------------------------------------------------
# Each one maps a maximal subpart b[e.start:e.end] the way a u8x policy does.

# U8X_REPLACE with a custom replacement scalar (here U+1F4A9).
codecs.register_error("u8x_custom", lambda e: ("\U0001F4A9", e.end))
# U8X_LATIN1: each byte as ISO-8859-1.
codecs.register_error(
    "u8x_latin1", lambda e: (e.object[e.start:e.end].decode("latin-1"), e.end)
)


def cp1252_char(byte):
    """windows-1252 per WHATWG: Python's cp1252 leaves 81, 8D, 8F, 90 and 9D
    undefined; WHATWG maps them to the C1 control of the same value."""
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(byte)


# U8X_CP1252: each byte as windows-1252 (WHATWG).
codecs.register_error(
    "u8x_cp1252",
    lambda e: ("".join(cp1252_char(x) for x in e.object[e.start:e.end]), e.end),
)

# --- inputs ---------------------------------------------------------------

DECODE_CASES = [
    ("valid_mix", b"A\xe2\x89\xa2\xce\x91.\xf0\x90\x8d\x88\xe6\x97\xa5\x00z"),
    (
        "kuhn_like",
        b"ab\x80c\xc0\xafd\xe0\x80\x80e\xed\xa0\x80f\xf4\x90\x80\x80g"
        b"\xe2\x82h\xf0\x9f\x98i\xff\xc3",
    ),
    ("cesu_surrogates", b"\xed\xa1\x8c\xed\xbe\xb4"),
    ("truncations", b"\xf0\x90\x80\xe2\x82\xac\xe2\x82\xf1\x80\x80"),
    ("cp1252_text", b"caf\xe9 \x80 \x81\x8d\x8f\x90\x9d \x9f\xa0 na\xefve"),
    ("lone_leads", b"\xc2\xe0\xa0\xed\x9f\xbf\xf4\x8f\xbf\xbf\xf5\xfe\xc1\xbf"),
    (
        "overlongs",
        b"\xc0\x80\xe0\x80\xaf\xf0\x82\x82\xac\xf0\x8f\xbf\xbf\xf8\x88\x80\x80\x80",
    ),
    ("ends_e0_a0", b"x\xe0\xa0"),
    ("ends_f4_8f_bf", b"\xf4\x8f\xbf"),
    ("continuations", b"\x80\x81\xbf\xbf\xe2\x82\xac\x80\x80\x80\x80\xc3\xa9"),
    # every byte 80..FF once, in order: each is its own maximal subpart
    ("high_bytes", bytes(range(0x80, 0x100))),
]

ENCODE_CASES = [
    ("edges", [0x0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD,
               0xFFFF, 0x10000, 0x10348, 0x1F4A9, 0x10FFFF]),
    ("damaged", [0x61, 0xD800, 0x62, 0xDFFF, 0xDC80, 0xDCFF, 0x110000, 0x20AC,
                 0xFFFFFFFF, 0xDC7F, 0xDD00, 0x10348, 0x63]),
    ("escapes", [0x61, 0xDC80, 0xDCFF, 0xDCE2, 0xDC82, 0xDCAC, 0x62, 0xDCED,
                 0xDCA0, 0xDC80]),
    ("escape_then_bad", [0x61, 0xDCC3, 0xDBFF, 0x62]),
    ("above_max_first", [0x80000000, 0x41]),
]

# --- derived facts ----------------------------------------------------------

KINDS = {
    "UNEXPECTED_CONTINUATION": "U8X_ERR_UNEXPECTED_CONTINUATION",
    "INVALID_BYTE": "U8X_ERR_INVALID_BYTE",
    "TRUNCATED_SEQUENCE": "U8X_ERR_TRUNCATED_SEQUENCE",
    "OVERLONG": "U8X_ERR_OVERLONG",
    "SURROGATE": "U8X_ERR_SURROGATE",
    "ABOVE_MAX": "U8X_ERR_ABOVE_MAX",
    "END_OF_INPUT": "U8X_ERR_END_OF_INPUT",
}


def kind_of(b, start, end, reason):
    """The u8x_error of a maximal subpart, from Python's reason and the header
    documentation of u8x_error (decided by the first two bytes)."""
    lead = b[start]
    if reason == "unexpected end of data":
        return "END_OF_INPUT"
    if 0x80 <= lead <= 0xBF:
        return "UNEXPECTED_CONTINUATION"
    if lead in (0xC0, 0xC1) or lead >= 0xF5:
        return "INVALID_BYTE"
    second = b[start + 1]
    if end - start == 1 and 0x80 <= second <= 0xBF:
        # a continuation byte outside the lead's Table 3-7 range
        return {0xE0: "OVERLONG", 0xF0: "OVERLONG", 0xED: "SURROGATE",
                0xF4: "ABOVE_MAX"}[lead]
    return "TRUNCATED_SEQUENCE"


def maximal_subparts(b):
    """[(start, end, reason)] of every maximal subpart, as Python reports them."""
    found = []

    def record(e):
        found.append((e.start, e.end, e.reason))
        return ("\ufffd", e.end)

    codecs.register_error("u8x_record", record)
    b.decode("utf-8", "u8x_record")
    return found


def boundaries(b, errors):
    """1 at each position where a character or maximal subpart starts, and at
    len(b): the split points u8x_next/prev_boundary must report."""
    flags = [0] * (len(b) + 1)
    flags[len(b)] = 1
    inside = set()
    for start, end, _ in errors:
        flags[start] = 1
        inside.update(range(start + 1, end))
    for i, byte in enumerate(b):
        if i in inside:
            continue
        if not 0x80 <= byte <= 0xBF:  # a character starts here
            flags[i] = 1
    return flags


def is_scalar(u):
    return u <= 0x10FFFF and not 0xD800 <= u <= 0xDFFF


# --- C output -------------------------------------------------------------

out = []


def emit(line=""):
    out.append(line)


def array(ctype, name, values, expr, fmt):
    emit(f"/* {expr} */")
    body = ", ".join(fmt(v) for v in values) if values else "0"
    emit(f"static const {ctype} {name}[] = {{{body}}};")
    emit(f"#define {name.upper()}_LEN {len(values)}u")


def u32s(name, s, expr):
    array("uint32_t", name, [ord(c) for c in s], expr, lambda v: f"0x{v:X}")


def main():
    emit("/* Expected results for the C tests, computed by Python's UTF-8 codec.")
    emit(" * Generated by `python3 c-tests/gen_expected.py > c-tests/expected.h`")
    emit(" * (any Python 3); do not edit. The error")
    emit(" * handlers u8x_custom, u8x_latin1 and u8x_cp1252 are defined in that")
    emit(" * script: U+1F4A9 per maximal subpart, each byte as ISO-8859-1, each byte")
    emit(" * as WHATWG windows-1252. */")
    emit("#ifndef U8X_EXPECTED_H")
    emit("#define U8X_EXPECTED_H")
    emit("#include <stddef.h>")
    emit("#include <stdint.h>")
    emit('#include "u8x.h"')
    emit()
    emit("typedef struct { size_t start; size_t len; u8x_error kind; } exp_subpart;")
    emit("typedef struct { const uint32_t *cps; size_t len; } exp_u32s;")
    emit("typedef struct { const uint8_t *bytes; size_t len; } exp_bytes;")
    emit("typedef struct {")
    emit("  const char *name;")
    emit("  exp_bytes input;")
    emit("  /* indexed by policy: STRICT (the valid prefix), REPLACE, ESCAPE,")
    emit("   * LATIN1, CP1252; then the custom U+1F4A9 replacement */")
    emit("  exp_u32s out[5];")
    emit("  exp_u32s custom;")
    emit("  const exp_subpart *subparts;")
    emit("  size_t n_subparts;")
    emit("  const unsigned char *boundary; /* input.len + 1 flags */")
    emit("} exp_decode;")
    emit()
    emit("#define EXP_CUSTOM_REPLACEMENT 0x1F4A9u")
    emit()
    for name, b in DECODE_CASES:
        emit(f"/* ---- {name} ---- */")
        array("uint8_t", f"dec_{name}_in", list(b), f"{b!r}", lambda v: f"0x{v:02X}")
        errors = maximal_subparts(b)
        valid_to = errors[0][0] if errors else len(b)
        u32s(f"dec_{name}_strict", b[:valid_to].decode("utf-8"),
             f"[ord(c) for c in b[:{valid_to}].decode('utf-8')]  (prefix before the first error)")
        u32s(f"dec_{name}_replace", b.decode("utf-8", "replace"),
             "[ord(c) for c in b.decode('utf-8', 'replace')]")
        u32s(f"dec_{name}_escape", b.decode("utf-8", "surrogateescape"),
             "[ord(c) for c in b.decode('utf-8', 'surrogateescape')]")
        u32s(f"dec_{name}_latin1", b.decode("utf-8", "u8x_latin1"),
             "[ord(c) for c in b.decode('utf-8', 'u8x_latin1')]")
        u32s(f"dec_{name}_cp1252", b.decode("utf-8", "u8x_cp1252"),
             "[ord(c) for c in b.decode('utf-8', 'u8x_cp1252')]")
        u32s(f"dec_{name}_custom", b.decode("utf-8", "u8x_custom"),
             "[ord(c) for c in b.decode('utf-8', 'u8x_custom')]")
        emit("/* (start, end - start, kind_of(...)) for every UnicodeDecodeError range")
        emit(" * the u8x_record handler saw in b.decode('utf-8', 'u8x_record') */")
        body = ", ".join(f"{{{s}, {e - s}, {KINDS[kind_of(b, s, e, r)]}}}" for s, e, r in errors)
        emit(f"static const exp_subpart dec_{name}_subparts[] = {{{body or '{0, 0, U8X_ERR_NONE}'}}};")
        emit("/* boundaries(b, maximal_subparts(b)) */")
        flags = boundaries(b, errors)
        emit(f"static const unsigned char dec_{name}_boundary[] = {{{', '.join(map(str, flags))}}};")
        emit()
    emit("static const exp_decode exp_decode_cases[] = {")
    for name, b in DECODE_CASES:
        n = len(maximal_subparts(b))
        p = f"dec_{name}"
        outs = ", ".join(f"{{{p}_{k}, {p.upper()}_{k.upper()}_LEN}}"
                         for k in ("strict", "replace", "escape", "latin1", "cp1252"))
        emit(f'  {{"{name}", {{{p}_in, {p.upper()}_IN_LEN}}, {{{outs}}},')
        emit(f"   {{{p}_custom, {p.upper()}_CUSTOM_LEN}}, {p}_subparts, {n}u, {p}_boundary}},")
    emit("};")
    emit("#define EXP_DECODE_CASES (sizeof exp_decode_cases / sizeof exp_decode_cases[0])")
    emit()

    emit("typedef struct {")
    emit("  const char *name;")
    emit("  const uint32_t *units;")
    emit("  size_t len;")
    emit("  /* U8X_STRICT and U8X_ESCAPE: index of the unit that stops them (len")
    emit("   * if none), what they write before it and its u8x_error */")
    emit("  size_t strict_stop; exp_bytes strict; u8x_error strict_kind;")
    emit("  size_t escape_stop; exp_bytes escape; u8x_error escape_kind;")
    emit("  exp_bytes replace; /* U+FFFD */")
    emit("  exp_bytes custom;  /* U+1F4A9 */")
    emit("} exp_encode;")
    emit()

    def stop_kind(u):
        if u is None:
            return "U8X_ERR_NONE"
        return "U8X_ERR_SURROGATE" if 0xD800 <= u <= 0xDFFF else "U8X_ERR_ABOVE_MAX"

    def byte_array(name, bs, expr):
        array("uint8_t", name, list(bs), expr, lambda v: f"0x{v:02X}")

    for name, units in ENCODE_CASES:
        p = f"enc_{name}"
        emit(f"/* ---- {name} ---- */")
        array("uint32_t", f"{p}_units", units, f"units = {[hex(u) for u in units]}",
              lambda v: f"0x{v:X}u")
        s_stop = next((i for i, u in enumerate(units) if not is_scalar(u)), len(units))
        byte_array(f"{p}_strict", "".join(map(chr, units[:s_stop])).encode("utf-8"),
                   f"''.join(map(chr, units[:{s_stop}])).encode('utf-8')")
        e_stop = next((i for i, u in enumerate(units)
                       if not is_scalar(u) and not 0xDC80 <= u <= 0xDCFF), len(units))
        byte_array(f"{p}_escape",
                   "".join(map(chr, units[:e_stop])).encode("utf-8", "surrogateescape"),
                   f"''.join(map(chr, units[:{e_stop}])).encode('utf-8', 'surrogateescape')")
        byte_array(f"{p}_replace",
                   b"".join((chr(u) if is_scalar(u) else "\ufffd").encode("utf-8") for u in units),
                   "b''.join((chr(u) if is_scalar(u) else '\\ufffd').encode('utf-8') for u in units)")
        byte_array(f"{p}_custom",
                   b"".join((chr(u) if is_scalar(u) else "\U0001F4A9").encode("utf-8") for u in units),
                   "b''.join((chr(u) if is_scalar(u) else '\\U0001F4A9').encode('utf-8') for u in units)")
        emit()
    emit("static const exp_encode exp_encode_cases[] = {")
    for name, units in ENCODE_CASES:
        p = f"enc_{name}"
        P = p.upper()
        s_stop = next((i for i, u in enumerate(units) if not is_scalar(u)), len(units))
        e_stop = next((i for i, u in enumerate(units)
                       if not is_scalar(u) and not 0xDC80 <= u <= 0xDCFF), len(units))
        sk = stop_kind(units[s_stop] if s_stop < len(units) else None)
        ek = stop_kind(units[e_stop] if e_stop < len(units) else None)
        emit(f'  {{"{name}", {p}_units, {P}_UNITS_LEN,')
        emit(f"   {s_stop}u, {{{p}_strict, {P}_STRICT_LEN}}, {sk},")
        emit(f"   {e_stop}u, {{{p}_escape, {P}_ESCAPE_LEN}}, {ek},")
        emit(f"   {{{p}_replace, {P}_REPLACE_LEN}}, {{{p}_custom, {P}_CUSTOM_LEN}}}},")
    emit("};")
    emit("#define EXP_ENCODE_CASES (sizeof exp_encode_cases / sizeof exp_encode_cases[0])")
    emit()
    emit("#endif /* U8X_EXPECTED_H */")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    text = main()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2], encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"{sys.argv[2]} is stale: run python3 c-tests/gen_expected.py > {sys.argv[2]}")
        print(f"{sys.argv[2]} matches Python {sys.version_info.major}.{sys.version_info.minor}'s UTF-8 codec")
    elif len(sys.argv) == 1:
        sys.stdout.write(text)
    else:
        sys.exit("usage: gen_expected.py [--check FILE]")
