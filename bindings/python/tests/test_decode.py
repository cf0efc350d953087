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


def test_other_errors_values_as_cpython():
    # Names the library has no policy for go to CPython's handler lookup,
    # and only when an error needs one, as bytes.decode does.
    for errors in ["xmlcharrefreplace", "namereplace", "Strict", "", "no-such-handler"]:
        assert _result(lambda: u8x.decode(b"\xff", errors)) == _result(lambda: b"\xff".decode("utf-8", errors))
        assert u8x.decode(b"ok", errors) == "ok"
        with pytest.raises(ValueError):
            u8x.count(b"\xff", errors)
    for errors in ["surrogatepass", "backslashreplace"]:
        with pytest.raises(ValueError):
            u8x.count(b"\xff", errors)
    with pytest.raises(TypeError):
        u8x.decode(b"", None)
    with pytest.raises(TypeError):
        u8x.decode(b"", errors=3)
    with pytest.raises(TypeError):
        u8x.decode(b"", "strict", "extra")
    with pytest.raises(TypeError):
        u8x.decode(data=b"", bogus=1)
    assert u8x.decode(data=b"a\xff", errors="replace") == "a\ufffd"


def _result(fn):
    try:
        return ("ok", fn())
    except UnicodeError as e:
        return (type(e).__name__, e.start, e.end, e.reason)
    except Exception as e:  # what a bad handler makes CPython raise
        return (type(e).__name__, str(e))


def test_handler_results_checked_as_cpython():
    import codecs

    for name, handler in [
        ("u8x-test-bad-type", lambda e: ("x",)),
        ("u8x-test-bad-pos", lambda e: ("x", 10**6)),
        ("u8x-test-neg-pos", lambda e: ("x", e.end - len(e.object) if e.end < len(e.object) else e.end)),
        ("u8x-test-raises", lambda e: 1 / 0),
        ("u8x-test-bytes", lambda e: (b"x", e.end)),
    ]:
        codecs.register_error(name, handler)
        for b in [b"ab\xffcd", b"\xff", b"\xe2\x82"]:
            assert _result(lambda: u8x.decode(b, name)) == _result(lambda: b.decode("utf-8", name)), (name, b)
            s = "a\udc80b"
            assert _result(lambda: u8x.encode(s, name)) == _result(lambda: s.encode("utf-8", name)), (name, s)


def test_handler_may_replace_the_object():
    import codecs

    def swap(e):
        e.object = b"X" * e.end + b"\xc3\xa9!"
        return "?", e.end

    codecs.register_error("u8x-test-swap", swap)
    b = b"ab\xffcd"
    assert u8x.decode(b, "u8x-test-swap") == b.decode("utf-8", "u8x-test-swap")


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
