"""The one-call paths (issue 45) against CPython's utf-8 codec.

decode: up to 64 KiB of input is decoded by one u8x_decode_ucs4 call into
a UCS-4 buffer (on the stack up to 1 KiB of input, else on the heap), or up
to 64 bytes validated by one u8x_validate call and converted by the binding,
and narrowed to the str's kind; ASCII is copied into the str while checked;
ill-formed input falls back to the general way. encode: a non-ASCII str of
up to 16 characters is written by the binding itself (surrogates left to the
library), one of up to 256 is encoded by one library call into a stack
buffer (a UCS-2 str widened to UCS-4 first), a longer one into a bytes
object of the bound's size, or, when the bound is above 120 KiB, of the
exact size measured first.

Every length across those limits, every kind of str, errors at every
position, with CPython's codec as the oracle. A str that compares equal was
also built in the same (narrowest) kind: CPython's str equality compares
kinds first, and sys.getsizeof is checked too.
"""

import codecs
import random
import sys

import pytest

import u8x
from _oracle import DECODE_ERRORS, ORACLE_ERRORS, outcome

import _oracle  # noqa: F401  (registers the oracle handlers)

# The thresholds in src/decode.c and src/encode.c: each way is tested on
# both sides of its bound.
ONE_CALL_MAX = 512
ASCII_COPY_MAX = 4096
TINY_MAX = 64
ENC_SHORT_MAX = 256
EXACT_ABOVE = 120 * 1024

# Characters of each UTF-8 length, and the mixes a str can be.
ONE = "Lorem ipsum dolor sit amet, consectetur adipiscing elit."
TWO = "\u00e9\u00ff\u00c0\u0100\u0416\u05d0\u0627\u07ff"  # Latin-1 and beyond
LATIN1 = "\u00e9\u00ff\u00c0\u0080\u00a0"
THREE = "\u0800\u4e2d\u6587\ud7ff\ue000\uffff\u20ac\uac00"
FOUR = "\U00010000\U0001f600\U0001f9ff\U0010ffff"

CONTENTS = {
    "ascii": ONE,
    "latin1": ONE + LATIN1,
    "latin1-only": LATIN1,
    "two-byte": ONE + TWO,
    "bmp": ONE + TWO + THREE,
    "three-byte-only": THREE,
    "astral": ONE + FOUR,
    "astral-only": FOUR,
    "everything": ONE + LATIN1 + TWO + THREE + FOUR,
}


def text_of(rng, alphabet, nbytes):
    """A str of `alphabet`'s characters whose UTF-8 is exactly `nbytes`
    long (ASCII pads where the alphabet cannot fill it exactly)."""
    out, size = [], 0
    while size < nbytes:
        c = rng.choice(alphabet)
        k = len(c.encode())
        if size + k > nbytes:
            c, k = "x", 1
        out.append(c)
        size += k
    return "".join(out)


def same_str(got, want):
    return got == want and type(got) is str and sys.getsizeof(got) == sys.getsizeof(want)


def check_decode_all(b, errors=DECODE_ERRORS):
    for e in errors:
        want = outcome(lambda: b.decode("utf-8", ORACLE_ERRORS[e]))
        got = outcome(u8x.decode, b, e)
        assert got == want, "decode(%r, errors=%r)" % (b[:80], e)
        if want[0] == "ok":
            assert same_str(got[1], want[1]), "kind of decode(%r, errors=%r)" % (b[:80], e)


LENGTHS = list(range(0, 301)) + [  # across TINY_MAX too
    ONE_CALL_MAX - 1, ONE_CALL_MAX, ONE_CALL_MAX + 1,
    ASCII_COPY_MAX - 1, ASCII_COPY_MAX, ASCII_COPY_MAX + 1,
    64 * 1024 + 1,
]


@pytest.mark.parametrize("content", sorted(CONTENTS))
def test_decode_every_length(content):
    rng = random.Random("decode-" + content)
    for n in LENGTHS:
        s = text_of(rng, CONTENTS[content], n)
        b = s.encode()
        assert len(b) == n
        got = u8x.decode(b)
        assert same_str(got, s), (content, n)
        assert same_str(b.decode("u8x"), s), (content, n)
        # A bytes-like object takes the same path.
        assert same_str(u8x.decode(bytearray(b)), s), (content, n)
        assert same_str(u8x.decode(memoryview(b"!" + b)[1:]), s), (content, n)


@pytest.mark.parametrize("content", ["ascii", "latin1", "bmp", "astral", "everything"])
def test_decode_cut_at_every_byte(content):
    # Prefixes of every length: a character cut by the end is an error
    # ("unexpected end of data") under every handler, and with final=False
    # is left unconsumed, as codecs.utf_8_decode leaves it.
    rng = random.Random("cut-" + content)
    b = text_of(rng, CONTENTS[content], 400).encode()
    stream = u8x._u8x.CODECS["u8x"][1]
    for n in range(len(b) + 1):
        p = b[:n]
        check_decode_all(p, ("strict", "replace", "surrogateescape", "u8x-test-custom"))
        for final in (False, True):
            want = outcome(codecs.utf_8_decode, p, "strict", final)
            got = outcome(stream, p, "strict", final)
            assert got == want, (content, n, final)
            if want[0] == "ok":
                assert same_str(got[1][0], want[1][0]), (content, n, final)


BAD = [b"\xff", b"\x80", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98"]


@pytest.mark.parametrize("content", ["ascii", "latin1", "bmp", "astral"])
def test_decode_errors_at_every_position(content):
    # One ill-formed sequence at every position of inputs of each length up
    # to 64 bytes and of a few longer lengths across the limits: the one
    # call fails, the general way reports what CPython reports.
    rng = random.Random("errors-" + content)
    for n in list(range(0, 65)) + [255, 256, 257]:
        base = text_of(rng, CONTENTS[content], n).encode()
        # Positions at character boundaries and inside characters alike.
        for i in range(len(base) + 1):
            bad = BAD[(n + i) % len(BAD)]
            check_decode_all(base[:i] + bad + base[i:],
                             ("strict", "replace", "ignore", "surrogateescape", "latin1",
                              "surrogatepass", "u8x-test-custom"))


@pytest.mark.parametrize("n", [ONE_CALL_MAX - 2, ONE_CALL_MAX + 1, ASCII_COPY_MAX - 2, ASCII_COPY_MAX + 1])
def test_decode_errors_near_the_limits(n):
    rng = random.Random(n)
    base = text_of(rng, CONTENTS["everything"], n).encode()
    for i in sorted({0, 1, 2, len(base) // 2, len(base) - 3, len(base) - 1, len(base)}):
        for bad in BAD:
            check_decode_all(base[:i] + bad + base[i:], ("strict", "replace", "u8x-test-custom"))


def test_decode_sig_every_length():
    # u8x-sig skips one BOM in the same call.
    rng = random.Random("sig")
    for n in list(range(0, 301)) + [ONE_CALL_MAX - 3, ONE_CALL_MAX, ASCII_COPY_MAX - 3, ASCII_COPY_MAX]:
        for content in ("ascii", "bmp", "astral"):
            s = text_of(rng, CONTENTS[content], n)
            for b in (s.encode(), codecs.BOM_UTF8 + s.encode(), codecs.BOM_UTF8 * 2 + s.encode()):
                assert same_str(b.decode("u8x-sig"), b.decode("utf-8-sig")), (content, n, b[:8])


def test_decode_random_mixed_lengths():
    rng = random.Random(0x1CA11)
    alphabet = "".join(CONTENTS.values())
    for _ in range(3000):
        n = rng.choice([rng.randint(0, 16), rng.randint(0, 300), rng.randint(0, 2000)])
        b = text_of(rng, alphabet, n).encode()
        if rng.random() < 0.3 and b:
            i = rng.randrange(len(b))
            b = b[:i] + bytes([rng.randrange(256)]) + b[i + 1 :]
        check_decode_all(b, ("strict", "replace", "u8x-test-custom"))


# ------------------------------------------------------------ encode

ENCODE_ERRORS = ("strict", "replace", "surrogateescape", "ignore", "surrogatepass",
                 "backslashreplace", "u8x-test-custom")


def check_encode_all(s, errors=ENCODE_ERRORS):
    for e in errors:
        want = outcome(lambda: s.encode("utf-8", e))
        got = outcome(u8x.encode, s, e)
        assert got == want, "encode(%r..., errors=%r) of %d characters" % (s[:40], e, len(s))


ENC_LENGTHS = list(range(0, 301)) + [1023, 1024, 1025]


@pytest.mark.parametrize("content", sorted(CONTENTS))
def test_encode_every_length(content):
    rng = random.Random("encode-" + content)
    alphabet = CONTENTS[content]
    for n in ENC_LENGTHS:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        want = s.encode("utf-8")
        assert u8x.encode(s) == want, (content, n)
        assert s.encode("u8x") == want, (content, n)


SURROGATES = ["\ud800", "\udbff", "\udc00", "\udc80", "\udcff", "\udfff", "\ud800\udc00", "\udc80\udc81"]


@pytest.mark.parametrize("content", ["latin1", "bmp", "astral"])
def test_encode_surrogates_at_every_position(content):
    # A str with surrogates is UCS-2 or UCS-4: the one call into the stack
    # buffer stops at the first one the policy does not handle and the
    # general way goes on, as CPython's encoder does.
    rng = random.Random("surrogates-" + content)
    alphabet = CONTENTS[content]
    for n in list(range(0, 40)) + [ENC_SHORT_MAX - 2, ENC_SHORT_MAX - 1, ENC_SHORT_MAX, ENC_SHORT_MAX + 1]:
        base = "".join(rng.choice(alphabet) for _ in range(n))
        for i in range(n + 1):
            sur = SURROGATES[(n + i) % len(SURROGATES)]
            check_encode_all(base[:i] + sur + base[i:])


@pytest.mark.parametrize("kind,bound", [("latin1", 2), ("bmp", 3), ("astral", 4)])
def test_encode_across_the_exact_size_limit(kind, bound):
    # Around the length whose bound is EXACT_ABOVE bytes: the bound and a
    # cut below it, the exact size measured first above it.
    rng = random.Random("exact-" + kind)
    alphabet = {"latin1": LATIN1 + "ab", "bmp": TWO + THREE + "ab", "astral": FOUR + TWO + "ab"}[kind]
    limit = EXACT_ABOVE // bound
    for n in (limit - 1, limit, limit + 1, 2 * limit):
        s = "".join(rng.choice(alphabet) for _ in range(n))
        assert u8x.encode(s) == s.encode("utf-8"), (kind, n)
        if kind != "latin1":
            for i in (0, n // 2, n):
                t = s[:i] + "\udc80" + s[i:]
                check_encode_all(t, ("strict", "replace", "surrogateescape", "surrogatepass"))
