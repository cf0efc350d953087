"""u8x.convert and u8x.detect_encoding against CPython's own codecs: every
pair of Latin-1, UTF-16LE/BE and UTF-32LE/BE across kinds, every errors
value, random text with lone surrogates, unaligned views."""

import random

import pytest

import u8x

FORMS = ["latin-1", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]
KIND = {"latin-1": 1, "utf-16-le": 2, "utf-16-be": 2, "utf-32-le": 4, "utf-32-be": 4}
PAIRS = [(s, t) for s in FORMS for t in FORMS if KIND[s] != KIND[t]]


def random_text(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            out.append(chr(rng.randrange(0x20, 0x7F)))
        elif r < 0.65:
            out.append(chr(rng.randrange(0xA0, 0x100)))
        elif r < 0.8:
            out.append(chr(rng.randrange(0x100, 0xD800)))
        elif r < 0.9:
            out.append(chr(rng.randrange(0x10000, 0x110000)))
        else:
            out.append(chr(rng.randrange(0xD800, 0xE000)))  # lone surrogate
    return "".join(out)


def oracle(data, source, target, errors):
    """What CPython gives: decode then encode, the policy applied once."""
    if source == "latin-1":
        return data.decode("latin-1").encode(target, "surrogatepass")
    text = data.decode(source, "surrogatepass")
    if target == "latin-1":
        keep = []
        for c in text:
            if ord(c) < 0x100:
                keep.append(c)
            elif errors == "replace":
                keep.append("?")
            elif errors == "strict":
                raise ValueError
        return "".join(keep).encode("latin-1")
    keep = []
    for c in text:
        if not 0xD800 <= ord(c) < 0xE000:
            keep.append(c)
        elif errors == "replace":
            keep.append("\ufffd")
        elif errors == "surrogatepass":
            keep.append(c)
        elif errors == "strict":
            raise ValueError
    return "".join(keep).encode(target, "surrogatepass")


@pytest.mark.parametrize("source,target", PAIRS)
def test_convert_matches_cpython(source, target):
    rng = random.Random(hash((source, target)) & 0xFFFF)
    for n in list(range(0, 40)) + [100, 1000, 5000]:
        text = random_text(rng, n)
        if source == "latin-1":
            text = "".join(c for c in text if ord(c) < 0x100)
        elif source.startswith("utf-16"):
            # A high surrogate followed by a low one would be a pair.
            text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        data = text.encode(source, "surrogatepass")
        policies = ["strict", "replace", "ignore"]
        if source != "latin-1" and target != "latin-1" and source.startswith("utf-16"):
            policies.append("surrogatepass")
        for errors in policies:
            try:
                expected = oracle(data, source, target, errors)
            except ValueError:
                with pytest.raises(UnicodeDecodeError) as info:
                    u8x.convert(data, source, target, errors)
                assert info.value.encoding == source
                unit = KIND[source]
                assert info.value.start % unit == 0 and info.value.end > info.value.start
                continue
            assert u8x.convert(data, source, target, errors) == expected, (n, errors)
            # An unaligned view converts the same.
            view = memoryview(b"x" + data)[1:]
            assert u8x.convert(view, source, target, errors) == expected


def test_convert_errors_and_arguments():
    with pytest.raises(UnicodeDecodeError) as info:
        u8x.convert("a\ud800b".encode("utf-16-le", "surrogatepass"), "utf-16-le", "utf-32-le")
    assert (info.value.start, info.value.end, info.value.reason) == (2, 4, "unpaired surrogate")
    with pytest.raises(UnicodeDecodeError) as info:
        u8x.convert("caf\u00e9\u20ac".encode("utf-32-be"), "utf-32-be", "latin-1")
    assert (info.value.start, info.value.end) == (16, 20)
    with pytest.raises(UnicodeDecodeError) as info:
        u8x.convert((0x110000).to_bytes(4, "little"), "utf-32-le", "utf-16-le")
    assert info.value.reason == "code point not in range(0x110000)"
    with pytest.raises(UnicodeDecodeError):
        u8x.convert(b"abc", "utf-16-le", "latin-1")  # not whole units
    with pytest.raises(ValueError):
        u8x.convert(b"ab", "utf-16-le", "utf-16-be")
    with pytest.raises(LookupError):
        u8x.convert(b"ab", "utf-16-le", "ebcdic")
    with pytest.raises(LookupError):
        u8x.convert(b"ab", "utf-16-le", "latin-1", "surrogatepass")
    with pytest.raises(TypeError):
        u8x.convert("text", "latin-1", "utf-16-le")
    assert u8x.convert(b"", "latin-1", "utf-32-be") == b""
    assert u8x.convert(b"caf\xe9", "latin1", "utf-16le") == "café".encode("utf-16-le")


def valid_as(data):
    names = set()
    for codec in ["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]:
        try:
            data.decode(codec)
            names.add(codec)
        except UnicodeDecodeError:
            pass
    return names


def test_detect_matches_cpython():
    rng = random.Random(5)
    marks = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
    for n in list(range(0, 60)) + [2000, 3000]:
        text = random_text(rng, n).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        for codec in ["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]:
            data = bytearray(text.encode(codec))
            if data and rng.random() < 0.3:
                data[rng.randrange(len(data))] = rng.randrange(256)
            data = bytes(data)
            if data.startswith(marks):
                continue
            likely, valid, bom_len = u8x.detect_encoding(data)
            assert valid == frozenset(valid_as(data)), (codec, data[:40])
            assert bom_len == 0
            assert (likely is None) == (not valid)
            assert likely is None or likely in valid


def test_detect_likely_and_marks():
    text = "The quick brown fox, déjà vu, \U0001F600 " * 50
    for codec in ["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]:
        likely, valid, bom_len = u8x.detect_encoding(text.encode(codec))
        assert (likely, bom_len) == (codec, 0)
        mark = "\ufeff".encode(codec)
        assert u8x.detect_encoding(mark + text.encode(codec)) == (codec, frozenset([codec]), len(mark))
    assert u8x.detect_encoding(b"\xff\xff\xff") == (None, frozenset(), 0)
