#!/usr/bin/env python3
"""Writes c-tests/expected.h: expected outputs for the C tests, computed by
Python's own codecs (never by u8x): utf-8, and for the forms (utf16.c,
latin1.c, classify.c) utf-16-le, utf-16-be and latin-1.

    python3 c-tests/gen_expected.py > c-tests/expected.h     # regenerate
    python3 c-tests/gen_expected.py --check c-tests/expected.h  # verify

Python's UTF-8 decoder reports errors by maximal subpart (Unicode 3.9,
"U+FFFD substitution of maximal subparts"), like u8x. Every array in the
output carries, in a comment, the exact Python expression that produced it.
"""

import codecs
import struct
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


# --- the forms: UTF-16 and Latin-1 both ways, classification ---------------

# Python's UTF-16 codecs report an unpaired surrogate as one unit (two bytes),
# as u8x does: a replacement per unit.
codecs.register_error("u8x_custom16", lambda e: ("\U0001F4A9", e.end))
# U8X_REPLACE in u8x_decode_latin1 with the byte 0x1A (SUB): one byte per
# character Latin-1 cannot hold (Python may pass several at once).
codecs.register_error("u8x_sub", lambda e: ("\x1a" * (e.end - e.start), e.end))

# UTF-8 inputs for u8x_decode_utf16: the decode cases and these.
UTF16_EXTRA = [
    ("supplementary",
     b"\xf0\x90\x80\x80a\xf4\x8f\xbf\xbf\xf0\x9d\x84\x9e\xef\xbf\xbd\xed\x9f\xbf"
     b"\xee\x80\x80\xf0\x9f\x98\x80"),
    ("supp_damaged",
     b"\xf0\x9f\x98\x80\xf0\x9f\x98\xf0\x9f\x98\x81\xed\xb0\x80\xc3\xa9\xf4\x90\x80\x80\xf0\x9f"),
    ("bmp_edges", "\u0000\u007f\u0080\u07ff\u0800\ud7ff\ue000\ufffd\uffff".encode("utf-8")),
]

# UTF-8 inputs for u8x_decode_latin1: the decode cases and these.
LATIN1_EXTRA = [
    ("latin1_all", "".join(map(chr, range(0x80, 0x100))).encode("utf-8")),
    ("beyond_latin1", "a\u00e9\u0100b\u20ac\U0001F600c\u00ff".encode("utf-8")),
    ("latin1_damaged", b"x\xc3\xa9\xc5\x93\xff\xc2\xa0\xe2\x82\xac\xc3"),
    ("euro_first", b"\xe2\x82\xac\xc3\xa9"),
    ("error_before_unrep", b"\xc3\xbf\xc0\xc4\x80"),
]

# UTF-8 inputs for u8x_classify: all of the above and these.
CLASSIFY_EXTRA = [
    ("empty", b""),
    ("ascii", b"Hello, world!\x00\x7f"),
    ("latin1_min", b"\xc2\x80"),
    ("latin1_max", b"abc\xc3\xbf"),
    ("bmp_min", b"a\xc4\x80"),
    ("bmp_max", b"\xef\xbf\xbf"),
    ("supp_min", b"\xf0\x90\x80\x80"),
    ("supp_max", b"z\xf4\x8f\xbf\xbf"),
    ("wide_after_error", b"ab\xff\xf0\x9f\x98\x80\xe2\x82\xac"),
    ("bmp_then_cut", b"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98"),
    ("cut_then_more", b"\xc3\xa9\xe2\x82a"),
]

# UTF-16 inputs (unit values) for u8x_encode_utf16 and u8x_validate_utf16.
ENC16_CASES = [
    ("bmp_edges", [0x0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF]),
    ("pairs", [0xD800, 0xDC00, 0xD834, 0xDD1E, 0x61, 0xDBFF, 0xDFFF, 0xD83D, 0xDCA9]),
    ("lone", [0x61, 0xD800, 0x62, 0xDC00, 0xDBFF, 0xDBFF, 0xDC00, 0xDFFF, 0x63]),
    ("escapes", [0x61, 0xDC80, 0xDCFF, 0xDCE2, 0xDC82, 0xDCAC, 0x62]),
    ("escape_then_bad", [0x61, 0xDCC3, 0xDC7F, 0x62, 0xDD00]),
    ("pair_not_escape", [0x41, 0xD800, 0xDC80, 0xDCC3, 0xDBFF, 0xDCFF]),
    ("ends_high", [0x61, 0x20AC, 0xD83D]),
    ("low_high_end", [0xDC00, 0xD800]),
    ("high_high_low", [0xD83D, 0xD83D, 0xDE00, 0x7A]),
    # units whose bytes swapped are surrogates, or other characters
    ("swap_sensitive", [0x00D8, 0x00DC, 0x3DD8, 0xA9DC, 0x0100, 0x2020, 0x4100]),
]

# Latin-1 inputs for u8x_encode_latin1.
ENC1_CASES = [
    ("all_bytes", bytes(range(256))),
    ("ascii", b"plain ASCII text"),
    ("cafe", b"caf\xe9 na\xefve \xa0\xff"),
    ("empty", b""),
]


def utf16_units(s):
    """The UTF-16 code units of str s (lone surrogates kept), from utf-16-le."""
    data = s.encode("utf-16-le", "surrogatepass")
    return list(struct.unpack(f"<{len(data) // 2}H", data))


def first_error(b):
    """(start, end, reason) of the first maximal subpart of b, or None."""
    errors = maximal_subparts(b)
    return errors[0] if errors else None


def width_name(s):
    top = max(map(ord, s), default=0)
    return ("U8X_WIDTH_ASCII" if top < 0x80 else "U8X_WIDTH_LATIN1" if top <= 0xFF
            else "U8X_WIDTH_BMP" if top <= 0xFFFF else "U8X_WIDTH_SUPPLEMENTARY")


def forms():
    def u16s(name, units, expr):
        array("uint16_t", name, units, expr, lambda v: f"0x{v:04X}")

    def byte_array(name, bs, expr):
        array("uint8_t", name, list(bs), expr, lambda v: f"0x{v:02X}")

    emit("/* ==== the forms ==== */")
    emit()
    emit("typedef struct { const uint16_t *units; size_t len; } exp_u16s;")
    emit()
    emit("/* UTF-8 -> UTF-16 (u8x_decode_utf16). */")
    emit("typedef struct {")
    emit("  const char *name;")
    emit("  exp_bytes input;")
    emit("  /* indexed by policy as in exp_decode (STRICT: the valid prefix), and")
    emit("   * [5] for the U+1F4A9 replacement: the units, and their UTF-16LE and")
    emit("   * UTF-16BE bytes */")
    emit("  exp_u16s out[6];")
    emit("  exp_bytes le[6];")
    emit("  exp_bytes be[6];")
    emit("  /* U8X_STRICT: whether it stops, where, the maximal subpart's length")
    emit("   * and kind */")
    emit("  int stops; size_t stop_at; size_t stop_len; u8x_error stop_kind;")
    emit("} exp_dec16;")
    emit()
    handlers = [None, "replace", "surrogateescape", "u8x_latin1", "u8x_cp1252", "u8x_custom"]
    d16 = []
    for name, b in DECODE_CASES + UTF16_EXTRA:
        p = f"d16_{name}"
        emit(f"/* ---- {name} ---- */")
        byte_array(f"{p}_in", b, f"{b!r}")
        err = first_error(b)
        for k, h in enumerate(handlers):
            if h is None:
                s = b[:err[0] if err else len(b)].decode("utf-8")
                how = f"b[:{err[0] if err else len(b)}].decode('utf-8')"
            else:
                s = b.decode("utf-8", h)
                how = f"b.decode('utf-8', '{h}')"
            u16s(f"{p}_u{k}", utf16_units(s),
                 f"struct.unpack('<...H', {how}.encode('utf-16-le', 'surrogatepass'))")
            byte_array(f"{p}_le{k}", s.encode("utf-16-le", "surrogatepass"),
                       f"{how}.encode('utf-16-le', 'surrogatepass')")
            byte_array(f"{p}_be{k}", s.encode("utf-16-be", "surrogatepass"),
                       f"{how}.encode('utf-16-be', 'surrogatepass')")
        emit()
        d16.append((name, p, err, b))
    emit("static const exp_dec16 exp_dec16_cases[] = {")
    for name, p, err, b in d16:
        P = p.upper()
        outs = ", ".join(f"{{{p}_u{k}, {P}_U{k}_LEN}}" for k in range(6))
        les = ", ".join(f"{{{p}_le{k}, {P}_LE{k}_LEN}}" for k in range(6))
        bes = ", ".join(f"{{{p}_be{k}, {P}_BE{k}_LEN}}" for k in range(6))
        stop = (f"1, {err[0]}u, {err[1] - err[0]}u, {KINDS[kind_of(b, *err)]}" if err
                else "0, 0u, 0u, U8X_ERR_NONE")
        emit(f'  {{"{name}", {{{p}_in, {P}_IN_LEN}},')
        emit(f"   {{{outs}}},")
        emit(f"   {{{les}}},")
        emit(f"   {{{bes}}},")
        emit(f"   {stop}}},")
    emit("};")
    emit("#define EXP_DEC16_CASES (sizeof exp_dec16_cases / sizeof exp_dec16_cases[0])")
    emit()

    emit("/* UTF-16 -> UTF-8 (u8x_encode_utf16, u8x_validate_utf16). Python's")
    emit(" * utf-16 codecs pair surrogates first and report each unpaired one as")
    emit(" * one unit. */")
    emit("typedef struct {")
    emit("  const char *name;")
    emit("  const uint16_t *units;")
    emit("  size_t len;")
    emit("  exp_bytes le, be; /* the units as UTF-16LE and UTF-16BE bytes */")
    emit("  /* U8X_STRICT and U8X_ESCAPE: index of the unit that stops them (len")
    emit("   * if none; the kind is always U8X_ERR_SURROGATE) and the bytes")
    emit("   * written before it */")
    emit("  size_t strict_stop; exp_bytes strict;")
    emit("  size_t escape_stop; exp_bytes escape;")
    emit("  exp_bytes replace; /* U+FFFD */")
    emit("  exp_bytes custom;  /* U+1F4A9 */")
    emit("} exp_enc16;")
    emit()
    for name, units in ENC16_CASES:
        p = f"e16_{name}"
        le = struct.pack(f"<{len(units)}H", *units)
        be = struct.pack(f">{len(units)}H", *units)
        emit(f"/* ---- {name} ---- */")
        u16s(f"{p}_units", units, f"units = {[hex(u) for u in units]}")
        byte_array(f"{p}_le", le, "data = struct.pack('<%dH' % len(units), *units)")
        byte_array(f"{p}_be", be, "struct.pack('>%dH' % len(units), *units)")
        try:
            s = le.decode("utf-16-le")
            stop = len(units)
        except UnicodeDecodeError as e:
            stop = e.start // 2
            s = le[:e.start].decode("utf-16-le")
        assert be[:2 * stop].decode("utf-16-be") == s
        emit(f"/* strict stop: UnicodeDecodeError.start // 2 of data.decode('utf-16-le') = {stop} */")
        byte_array(f"{p}_strict", s.encode("utf-8"), f"data[:{2 * stop}].decode('utf-16-le').encode('utf-8')")
        passed = le.decode("utf-16-le", "surrogatepass")
        assert passed == be.decode("utf-16-be", "surrogatepass")
        try:
            esc = passed.encode("utf-8", "surrogateescape")
            estop, echars = len(units), len(passed)
        except UnicodeEncodeError as e:
            esc = passed[:e.start].encode("utf-8", "surrogateescape")
            estop, echars = len(utf16_units(passed[:e.start])), e.start
        emit("/* escape stop: s = data.decode('utf-16-le', 'surrogatepass'); the units before")
        emit(f" * UnicodeEncodeError.start of s.encode('utf-8', 'surrogateescape') = {estop} */")
        byte_array(f"{p}_escape", esc, f"s[:{echars}].encode('utf-8', 'surrogateescape')")
        rep = le.decode("utf-16-le", "replace").encode("utf-8")
        assert rep == be.decode("utf-16-be", "replace").encode("utf-8")
        byte_array(f"{p}_replace", rep, "data.decode('utf-16-le', 'replace').encode('utf-8')")
        byte_array(f"{p}_custom", le.decode("utf-16-le", "u8x_custom16").encode("utf-8"),
                   "data.decode('utf-16-le', 'u8x_custom16').encode('utf-8')")
        emit(f"#define {p.upper()}_STOPS {stop}u, {{{p}_strict, {p.upper()}_STRICT_LEN}}, "
             f"{estop}u, {{{p}_escape, {p.upper()}_ESCAPE_LEN}}")
        emit()
    emit("static const exp_enc16 exp_enc16_cases[] = {")
    for name, units in ENC16_CASES:
        p = f"e16_{name}"
        P = p.upper()
        emit(f'  {{"{name}", {p}_units, {P}_UNITS_LEN, {{{p}_le, {P}_LE_LEN}}, {{{p}_be, {P}_BE_LEN}},')
        emit(f"   {P}_STOPS, {{{p}_replace, {P}_REPLACE_LEN}}, {{{p}_custom, {P}_CUSTOM_LEN}}}},")
    emit("};")
    emit("#define EXP_ENC16_CASES (sizeof exp_enc16_cases / sizeof exp_enc16_cases[0])")
    emit()

    emit("/* UTF-8 -> Latin-1 (u8x_decode_latin1). */")
    emit("typedef struct {")
    emit("  const char *name;")
    emit("  exp_bytes input;")
    emit("  /* U8X_STRICT: whether it stops, where, how long the maximal subpart or")
    emit("   * character is and why (U8X_ERR_NOT_REPRESENTABLE above U+00FF), and")
    emit("   * the bytes written before */")
    emit("  int stops; size_t stop_at; size_t stop_len; u8x_error stop_kind;")
    emit("  exp_bytes strict;")
    emit("  exp_bytes question; /* U8X_REPLACE, replacement '?' */")
    emit("  exp_bytes sub;      /* U8X_REPLACE, replacement 0x1A */")
    emit("} exp_dec1;")
    emit()
    EXP_QUESTION = ord("?")
    dl1 = []
    for name, b in DECODE_CASES + LATIN1_EXTRA:
        p = f"dl1_{name}"
        emit(f"/* ---- {name} ---- */")
        byte_array(f"{p}_in", b, f"{b!r}")
        err = first_error(b)
        valid = b[:err[0] if err else len(b)].decode("utf-8")
        wide = next((i for i, c in enumerate(valid) if ord(c) > 0xFF), None)
        if wide is not None:
            at = len(valid[:wide].encode("utf-8"))
            stop = f"1, {at}u, {len(valid[wide].encode('utf-8'))}u, U8X_ERR_NOT_REPRESENTABLE"
            strict = valid[:wide]
            how = (f"s = b[:{err[0] if err else len(b)}].decode('utf-8'); s[{wide}] is the first "
                   f"character above U+00FF, at byte {at}: s[:{wide}].encode('latin-1')")
        elif err:
            stop = f"1, {err[0]}u, {err[1] - err[0]}u, {KINDS[kind_of(b, *err)]}"
            strict = valid
            how = f"b[:{err[0]}].decode('utf-8').encode('latin-1')  (before the first error)"
        else:
            stop = "0, 0u, 0u, U8X_ERR_NONE"
            strict = valid
            how = "b.decode('utf-8').encode('latin-1')"
        byte_array(f"{p}_strict", strict.encode("latin-1"), how)
        byte_array(f"{p}_question", b.decode("utf-8", "replace").encode("latin-1", "replace"),
                   "b.decode('utf-8', 'replace').encode('latin-1', 'replace')")
        byte_array(f"{p}_sub", b.decode("utf-8", "replace").encode("latin-1", "u8x_sub"),
                   "b.decode('utf-8', 'replace').encode('latin-1', 'u8x_sub')")
        emit()
        dl1.append((p, name, stop))
    emit("static const exp_dec1 exp_dec1_cases[] = {")
    for p, name, stop in dl1:
        P = p.upper()
        emit(f'  {{"{name}", {{{p}_in, {P}_IN_LEN}}, {stop}, {{{p}_strict, {P}_STRICT_LEN}},')
        emit(f"   {{{p}_question, {P}_QUESTION_LEN}}, {{{p}_sub, {P}_SUB_LEN}}}},")
    emit("};")
    emit("#define EXP_DEC1_CASES (sizeof exp_dec1_cases / sizeof exp_dec1_cases[0])")
    emit(f"#define EXP_QUESTION 0x{EXP_QUESTION:02X}u")
    emit("#define EXP_SUB 0x1Au")
    emit()

    emit("/* Latin-1 -> UTF-8 (u8x_encode_latin1). */")
    emit("typedef struct { const char *name; exp_bytes input; exp_bytes utf8; } exp_enc1;")
    emit()
    for name, b in ENC1_CASES:
        p = f"el1_{name}"
        emit(f"/* ---- {name} ---- */")
        byte_array(f"{p}_in", b, f"{b!r}")
        byte_array(f"{p}_out", b.decode("latin-1").encode("utf-8"), "b.decode('latin-1').encode('utf-8')")
        emit()
    emit("static const exp_enc1 exp_enc1_cases[] = {")
    for name, b in ENC1_CASES:
        p = f"el1_{name}"
        P = p.upper()
        emit(f'  {{"{name}", {{{p}_in, {P}_IN_LEN}}, {{{p}_out, {P}_OUT_LEN}}}},')
    emit("};")
    emit("#define EXP_ENC1_CASES (sizeof exp_enc1_cases / sizeof exp_enc1_cases[0])")
    emit()

    emit("/* u8x_classify: the result with flags 0 and with U8X_MORE_INPUT (U8X_INCOMPLETE")
    emit(" * when the first error is 'unexpected end of data'), and the facts about the")
    emit(" * well-formed prefix s = b[:read].decode('utf-8'): the width of max(map(ord, s)),")
    emit(" * len(s) and len(s.encode('utf-16-le')) // 2. */")
    emit("typedef struct {")
    emit("  const char *name;")
    emit("  exp_bytes input;")
    emit("  u8x_status status; u8x_error error; size_t read; size_t error_len;")
    emit("  u8x_status more_status; /* the other fields are the same */")
    emit("  u8x_width width; size_t code_points; size_t utf16_units;")
    emit("} exp_classify;")
    emit()
    seen = set()
    cls = []
    for name, b in DECODE_CASES + UTF16_EXTRA + LATIN1_EXTRA + CLASSIFY_EXTRA:
        if name in seen:
            name = name + "_2"
        seen.add(name)
        p = f"cls_{name}"
        err = first_error(b)
        read = err[0] if err else len(b)
        s = b[:read].decode("utf-8")
        if err:
            status = "U8X_ILL_FORMED"
            more = "U8X_INCOMPLETE" if err[2] == "unexpected end of data" else "U8X_ILL_FORMED"
            rest = f"{KINDS[kind_of(b, *err)]}, {read}u, {err[1] - err[0]}u"
        else:
            status = more = "U8X_OK"
            rest = f"U8X_ERR_NONE, {read}u, 0u"
        byte_array(f"{p}_in", b, f"{b!r}")
        cls.append((name, p, f"{status}, {rest}, {more}, {width_name(s)}, {len(s)}u, "
                               f"{len(s.encode('utf-16-le')) // 2}u"))
    emit()
    emit("static const exp_classify exp_classify_cases[] = {")
    for name, p, facts in cls:
        emit(f'  {{"{name}", {{{p}_in, {p.upper()}_IN_LEN}}, {facts}}},')
    emit("};")
    emit("#define EXP_CLASSIFY_CASES (sizeof exp_classify_cases / sizeof exp_classify_cases[0])")
    emit()


def main():
    emit("/* Expected results for the C tests, computed by Python's codecs (utf-8;")
    emit(" * utf-16-le, utf-16-be and latin-1 for the forms).")
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
    forms()
    emit("#endif /* U8X_EXPECTED_H */")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    text = main()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2], encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"{sys.argv[2]} is stale: run python3 c-tests/gen_expected.py > {sys.argv[2]}")
        print(f"{sys.argv[2]} matches Python {sys.version_info.major}.{sys.version_info.minor}'s codecs")
    elif len(sys.argv) == 1:
        sys.stdout.write(text)
    else:
        sys.exit("usage: gen_expected.py [--check FILE]")
