"""u8x.decode / validate / is_valid / count against CPython's utf-8 codec."""

import array
import itertools
import random

import pytest

import u8x
from _oracle import (
    ALL_ERRORS,
    ORACLE_ERRORS,
    biased_byte,
    check_decode,
    corpus_dir,
    expected_decode,
    outcome,
    random_inputs,
)

# Bytes at the edges of every class in Unicode Table 3-7.
EDGES3 = bytes.fromhex("00417f80818f909fa0bfc0c1c2dfe0e1ecedeeeff0f1f3f4f5ff")
EDGES4 = bytes.fromhex("007f808f909fa0bfc0c2e0edeff0f4f5")


def test_every_1_byte_input():
    for b in range(256):
        check_decode(bytes([b]))


def test_every_2_byte_input():
    for a in range(256):
        for b in range(256):
            check_decode(bytes((a, b)))


def test_3_byte_inputs_of_class_edges():
    for t in itertools.product(EDGES3, repeat=3):
        check_decode(bytes(t))


def test_4_byte_inputs_of_class_edges():
    for t in itertools.product(EDGES4, repeat=4):
        check_decode(bytes(t))


@pytest.mark.parametrize("length", [3, 4])
def test_sampled_3_and_4_byte_inputs(length):
    rng = random.Random(0x38 + length)
    for _ in range(100000):
        check_decode(bytes(biased_byte(rng) for _ in range(length)))


# ------------------------------------------------------------ random inputs


def test_random_inputs():
    for b in random_inputs(0x5538, 2500):
        check_decode(b)


def test_random_inputs_count():
    for b in random_inputs(0xC0DE, 1000):
        for errors in ALL_ERRORS:
            want = expected_decode(b, errors)
            if want[0] == "ok":
                assert u8x.count(b, errors) == len(want[1]), (b, errors)
            else:
                assert outcome(u8x.count, b, errors) == want, (b, errors)


def test_every_width_is_exercised():
    # Each string width (ASCII, Latin-1, BMP, supplementary) has its own path.
    for b in [b"", b"plain", "caf\u00e9".encode(), "\u20ac5".encode(), "\U0001f600".encode(), "\u00ff\u0100".encode()]:
        check_decode(b)
        assert u8x.decode(b) == b.decode()


def test_codec_fallback_without_pythonapi(monkeypatch):
    # Interpreters without ctypes.pythonapi build the str through the codecs.
    monkeypatch.setattr(u8x, "_from_kind", None)
    for b in random_inputs(0xFA11, 300):
        check_decode(b)
    check_decode(b"\xed\xa0\x80\xf0\x9f\x98\x80\xff")


# ------------------------------------------------------------ corpus files

def _files(sub, pattern):
    d = corpus_dir() / sub
    files = sorted(d.glob(pattern)) if d.is_dir() else []
    if not files:
        pytest.skip("no %s/%s in %s (set U8X_CORPUS)" % (sub, pattern, corpus_dir()))
    return files


def test_lipsum_files():
    for path in _files("lipsum", "*.utf8.txt"):
        b = path.read_bytes()
        assert u8x.decode(b) == b.decode("utf-8"), path.name
        u8x.validate(b)
        assert u8x.count(b) == len(b.decode("utf-8")), path.name
        for errors in ALL_ERRORS:
            assert u8x.decode(b, errors) == b.decode("utf-8"), (path.name, errors)


def test_kuhn_stress_test():
    for path in _files("kuhn", "UTF-8-test.txt"):
        b = path.read_bytes()
        check_decode(b)
        # and each line on its own, as in the Rust and C suites
        for line in b.split(b"\n"):
            check_decode(line)


# ------------------------------------------------------------ arguments

def test_strict_error_attributes():
    with pytest.raises(UnicodeDecodeError) as e:
        u8x.decode(b"ab\xe2\x82")
    assert (e.value.encoding, e.value.object, e.value.start, e.value.end, e.value.reason) == (
        "utf-8",
        b"ab\xe2\x82",
        2,
        4,
        "unexpected end of data",
    )
    assert str(e.value) == "'utf-8' codec can't decode bytes in position 2-3: unexpected end of data"


@pytest.mark.parametrize(
    "make",
    [bytearray, memoryview, lambda b: memoryview(b"xx" + b + b"yy")[2:-2], lambda b: array.array("B", b)],
    ids=["bytearray", "memoryview", "memoryview-slice", "array"],
)
def test_bytes_like_inputs(make):
    for b in [b"", b"ascii", "\u00e9\u20ac\U0001f600".encode(), b"a\xf0\x9f\x98", b"\xc0\xaf!"]:
        for errors in ALL_ERRORS:
            assert actual_decode_of(make(b), errors) == expected_decode(b, errors)
        assert u8x.is_valid(make(b)) == u8x.is_valid(b)
        assert u8x.count(make(b), "replace") == u8x.count(b, "replace")


def actual_decode_of(obj, errors):
    return outcome(u8x.decode, obj, errors)


def test_unsupported_errors_values():
    for errors in ["surrogatepass", "backslashreplace", "xmlcharrefreplace", "namereplace", "Strict", ""]:
        with pytest.raises(ValueError):
            u8x.decode(b"\xff", errors)
        with pytest.raises(ValueError):
            u8x.count(b"\xff", errors)
    with pytest.raises(TypeError):
        u8x.decode(b"", None)


def test_non_bytes_inputs():
    for bad in ["text", 3, None, [1, 2]]:
        for fn in (u8x.decode, u8x.validate, u8x.is_valid, u8x.count):
            with pytest.raises(TypeError):
                fn(bad)


def test_oracle_handlers_cover_every_byte():
    # The latin1/cp1252 oracles are not themselves trivially right: pin them.
    assert b"\x80\x81\x8d\x9d\xff".decode("utf-8", ORACLE_ERRORS["cp1252"]) == "\u20ac\x81\x8d\x9d\xff"
    assert u8x.decode(b"\x80\x81\x8d\x9d\xff", "cp1252") == "\u20ac\x81\x8d\x9d\xff"
    assert u8x.decode(b"\x80\x81\x8d\x9d\xff", "latin1") == "\x80\x81\x8d\x9d\xff"
