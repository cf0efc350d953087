"""u8x.encode against str.encode("utf-8", errors), lone surrogates included."""

import random

import pytest

import u8x
from _oracle import outcome, random_inputs
from test_decode import _result

import _oracle  # noqa: F401  (registers u8x-test-custom)

# The library's policies, then CPython's other handlers and a user's one.
ENCODE_ERRORS = ("strict", "replace", "surrogateescape", "ignore", "surrogatepass",
                 "backslashreplace", "xmlcharrefreplace", "namereplace", "u8x-test-custom")

_RANGES = [
    (0x00, 0x7F),
    (0x80, 0xFF),
    (0x100, 0xD7FF),
    (0xD800, 0xDBFF),  # high surrogates
    (0xDC00, 0xDC7F),  # low surrogates surrogateescape cannot map
    (0xDC80, 0xDCFF),  # the escapes of bytes 80..FF
    (0xE000, 0xFFFF),
    (0x10000, 0x10FFFF),
]


def random_str(rng):
    n = rng.choice([rng.randint(0, 8), rng.randint(0, 200), rng.randint(0, 2000)])
    ranges = rng.sample(_RANGES, rng.randint(1, len(_RANGES)))
    weights = [rng.random() for _ in ranges]
    out = []
    for _ in range(n):
        lo, hi = rng.choices(ranges, weights)[0]
        out.append(chr(rng.randint(lo, hi)))
    return "".join(out)


def check_encode(s):
    for errors in ENCODE_ERRORS:
        want = outcome(lambda: s.encode("utf-8", errors))
        got = outcome(u8x.encode, s, errors)
        assert got == want, "encode(%r, errors=%r)" % (s, errors)


def test_random_strings():
    rng = random.Random(0xE4C0DE)
    for _ in range(3000):
        check_encode(random_str(rng))


def test_every_code_point_alone_and_in_context():
    for cp in range(0x110000):
        if cp < 0x3000 or 0xD700 <= cp < 0xE100 or cp % 97 == 0 or cp > 0x10FF00:
            check_encode(chr(cp))
    for s in ["", "a", "\ud800", "\udc80", "\ud800\udc00", "\udbff\udfff", "a\udc80\udcff\ud800b\udc7fc", "\U0010ffff"]:
        check_encode(s)
        check_encode("x" + s + "\u20ac" + s + "\U0001f600")


def test_surrogateescape_round_trip():
    for b in random_inputs(0x4242, 1500):
        s = u8x.decode(b, "surrogateescape")
        assert u8x.encode(s, "surrogateescape") == b


def test_strict_error_attributes():
    s = "ab\udc80\ud800\udfffc\udc00"
    with pytest.raises(UnicodeEncodeError) as e:
        u8x.encode(s)
    assert (e.value.encoding, e.value.object, e.value.start, e.value.end, e.value.reason) == (
        "utf-8",
        s,
        2,
        5,
        "surrogates not allowed",
    )
    with pytest.raises(UnicodeEncodeError) as e:
        u8x.encode(s, "surrogateescape")
    assert (e.value.start, e.value.end) == (3, 5)


def test_other_errors_values_and_types():
    # No policy but decoding's: looked up (and unknown) only when needed.
    for errors in ["latin1", "cp1252", "no-such-handler"]:
        assert _result(lambda: u8x.encode("\udc80", errors)) == _result(lambda: "\udc80".encode("utf-8", errors))
        assert u8x.encode("ok\u20ac", errors) == "ok\u20ac".encode()
    import codecs

    codecs.register_error("u8x-test-nonascii", lambda e: ("\u20ac", e.end))
    codecs.register_error("u8x-test-bytes-back", lambda e: (b"\xff\xfe", e.end))
    for errors in ["u8x-test-nonascii", "u8x-test-bytes-back"]:
        for s in ["a\ud800b", "\U0001f600\udfff", "\ud800"]:
            assert _result(lambda: u8x.encode(s, errors)) == _result(lambda: s.encode("utf-8", errors))
    for bad in [b"bytes", 1, None]:
        with pytest.raises(TypeError):
            u8x.encode(bad)
