"""The registered codecs: names, the dialects, incremental use, streams."""

import codecs
import io
import random

import pytest

import u8x
from _oracle import random_inputs

DIALECTS = ["u8x-cesu-8", "u8x-mutf-8", "u8x-wtf-8", "u8x-legacy"]
TEXTS = ["", "plain", "caf\u00e9", "\u20ac5 \u65e5\u672c", "\U0001f600!", "a\x00b", "\U0010ffff\uffff"]


def test_lookup_names():
    for name in u8x.CODECS:
        assert codecs.lookup(name).name == name
        assert codecs.lookup(name.upper().replace("-", "_")).name == name
    assert set(u8x.CODECS) == {"u8x", "u8x-sig"} | set(DIALECTS)


def test_u8x_is_utf8():
    for b in random_inputs(0xC0DEC, 400):
        for errors in ("strict", "replace", "surrogateescape", "backslashreplace", "surrogatepass"):
            try:
                want = ("ok", b.decode("utf-8", errors))
            except UnicodeDecodeError as e:
                want = (e.start, e.end, e.reason)
            try:
                got = ("ok", b.decode("u8x", errors))
            except UnicodeDecodeError as e:
                got = (e.start, e.end, e.reason)
            assert got == want, (b, errors)


def test_dialect_forms():
    smile = "\U0001f600"
    assert smile.encode("u8x-cesu-8") == b"\xed\xa0\xbd\xed\xb8\x80"
    assert "\x00".encode("u8x-cesu-8") == b"\x00"
    assert ("A\x00" + smile).encode("u8x-mutf-8") == b"A\xc0\x80\xed\xa0\xbd\xed\xb8\x80"
    assert b"A\xc0\x80\xed\xa0\xbd\xed\xb8\x80".decode("u8x-mutf-8") == "A\x00" + smile
    assert smile.encode("u8x-wtf-8") == smile.encode()
    assert "\ud800x".encode("u8x-wtf-8") == b"\xed\xa0\x80x"
    assert b"\xed\xa0\x80x".decode("u8x-wtf-8") == "\ud800x"
    with pytest.raises(UnicodeEncodeError) as e:
        "a\ud800\udc00".encode("u8x-wtf-8")
    assert (e.value.start, e.value.end) == (1, 3)
    assert "\udc80".encode("u8x-wtf-8", "replace") == b"\xed\xb2\x80"  # lone: a character there
    with pytest.raises(UnicodeDecodeError) as d:
        b"\x00".decode("u8x-mutf-8")
    assert (d.value.encoding, d.value.start, d.value.end) == ("u8x-mutf-8", 0, 1)
    with pytest.raises(UnicodeDecodeError):
        smile.encode().decode("u8x-cesu-8")
    with pytest.raises(UnicodeEncodeError):
        "\ud800".encode("u8x-cesu-8")


def test_legacy_values_above_u10ffff():
    b = b"a\xf8\x88\x80\x80\x80b"  # 0x200000
    with pytest.raises(UnicodeDecodeError) as e:
        b.decode("u8x-legacy")
    assert (e.value.start, e.value.end, e.value.reason) == (1, 6, "code point not in range(0x110000)")
    assert b.decode("u8x-legacy", "replace") == "a\ufffdb"
    assert b.decode("u8x-legacy", "ignore") == "ab"
    assert b.decode("u8x-legacy", "backslashreplace") == "a\\xf8\\x88\\x80\\x80\\x80b"
    assert b.decode("u8x-legacy", "surrogateescape").encode("u8x-legacy", "surrogateescape") == b
    assert "\U0010ffff".encode("u8x-legacy") == b"\xf4\x8f\xbf\xbf"
    assert b"\xf4\x8f\xbf\xbf".decode("u8x-legacy") == "\U0010ffff"


@pytest.mark.parametrize("name", ["u8x", "u8x-sig"] + DIALECTS)
def test_round_trip_and_incremental(name):
    rng = random.Random(name)
    texts = TEXTS + ["".join(chr(rng.choice([rng.randrange(0x80), rng.randrange(0x80, 0xD800),
                                            rng.randrange(0x10000, 0x110000)]))
                             for _ in range(rng.randrange(60))) for _ in range(50)]
    for s in texts:
        b = s.encode(name)
        assert b.decode(name) == s
        assert "".join(codecs.iterdecode([b[i:i + 1] for i in range(len(b))], name)) == s
        assert b"".join(codecs.iterencode(list(s), name)) == b
        r = codecs.getreader(name)(io.BytesIO(b))
        assert "".join(iter(lambda: r.read(1), "")) == s


@pytest.mark.parametrize("name", ["u8x", "u8x-sig"] + DIALECTS)
def test_text_io_wrapper(name):
    text = "h\u00e9llo\nw\u00f6rld \U0001f600\n" * 500
    buf = io.BytesIO()
    w = io.TextIOWrapper(buf, encoding=name, newline="")
    w.write(text)
    w.flush()
    data = buf.getvalue()
    assert data.decode(name) == text
    r = io.TextIOWrapper(io.BytesIO(data), encoding=name, newline="")
    assert r.read() == text


def test_errors_argument_none_and_types():
    dec, _, enc = u8x._u8x.CODECS["u8x"]
    assert dec(b"a\xc3\xa9", None) == ("a\u00e9", 3)
    assert enc("a\u00e9", None) == (b"a\xc3\xa9", 2)
    for bad in (None, 1, "str", [1]):
        with pytest.raises(TypeError):
            dec(bad)
    for bad in (None, 1, b"bytes"):
        with pytest.raises(TypeError):
            enc(bad)
    with pytest.raises(TypeError):
        dec(b"", 3)
    with pytest.raises(TypeError):
        dec()
    # As codecs.utf_8_decode: final defaults to false.
    stream = u8x._u8x.CODECS["u8x"][1]
    assert stream(b"a\xe2\x82") == ("a", 1)
    with pytest.raises(UnicodeDecodeError):
        stream(b"a\xe2\x82", "strict", True)
    assert stream(b"a\xe2\x82", final=True, errors="replace") == ("a\ufffd", 3)


def test_large_input():
    text = ("\u00e9t\u00e9 \u65e5\u672c \U0001f600 " * (1 << 18))
    b = text.encode()
    assert len(b) > 4 << 20
    assert u8x.decode(b) == text and b.decode("u8x") == text
    assert u8x.encode(text) == b
    bad = b[: len(b) // 2] + b"\xff" + b[len(b) // 2:]
    with pytest.raises(UnicodeDecodeError) as e:
        u8x.decode(bad)
    assert e.value.start == len(b) // 2
    assert u8x.decode(bad, "replace") == bad.decode("utf-8", "replace")
