"""CPython's own utf-8 codec as the oracle, plus handlers for u8x's extra
policies (each byte of an ill-formed sequence read as Latin-1 / cp1252)."""

import codecs
import os
import random
from pathlib import Path

import u8x

CPYTHON_ERRORS = ("strict", "replace", "surrogateescape", "ignore")


def _cp1252_char(b):
    try:
        return bytes([b]).decode("cp1252")
    except UnicodeDecodeError:  # 81 8D 8F 90 9D: WHATWG keeps the C1 control
        return chr(b)


def _latin1_handler(e):
    return e.object[e.start : e.end].decode("latin-1"), e.end


def _cp1252_handler(e):
    return "".join(_cp1252_char(b) for b in e.object[e.start : e.end]), e.end


def _custom_handler(e):
    # A user's handler that resumes one byte on (not at e.end) and says
    # where it was: the position it returns is honoured.
    if isinstance(e, UnicodeDecodeError):
        return "<%d:%02x>" % (e.start, e.object[e.start]), e.start + 1
    return "<%d>" % e.start, e.start + 1


codecs.register_error("u8x-test-latin1", _latin1_handler)
codecs.register_error("u8x-test-cp1252", _cp1252_handler)
codecs.register_error("u8x-test-custom", _custom_handler)

ORACLE_ERRORS = {
    "strict": "strict",
    "replace": "replace",
    "surrogateescape": "surrogateescape",
    "ignore": "ignore",
    "latin1": "u8x-test-latin1",
    "cp1252": "u8x-test-cp1252",
}
# The library's policies (count takes these alone).
ALL_ERRORS = tuple(ORACLE_ERRORS)
# CPython's handlers the library has no policy for, a handler of the
# user's: the extension looks them up and calls them as CPython does.
ORACLE_ERRORS.update(
    {
        "surrogatepass": "surrogatepass",
        "backslashreplace": "backslashreplace",
        "u8x-test-custom": "u8x-test-custom",
    }
)
DECODE_ERRORS = tuple(ORACLE_ERRORS)


def outcome(fn, *args):
    """What a call returned, or the exception's identifying attributes."""
    try:
        return ("ok", fn(*args))
    except UnicodeError as e:
        return (type(e).__name__, e.encoding, e.object, e.start, e.end, e.reason, str(e))


def expected_decode(b, errors):
    return outcome(lambda: bytes(b).decode("utf-8", ORACLE_ERRORS[errors]))


def actual_decode(b, errors):
    return outcome(u8x.decode, b, errors)


def check_decode(b, policies=DECODE_ERRORS):
    for errors in policies:
        want = expected_decode(b, errors)
        got = actual_decode(b, errors)
        assert got == want, "decode(%r, errors=%r)" % (bytes(b), errors)
    # validate / is_valid / count agree with strict decoding.
    strict = expected_decode(b, "strict")
    assert u8x.is_valid(b) == (strict[0] == "ok"), bytes(b)
    assert outcome(u8x.validate, b) == (("ok", None) if strict[0] == "ok" else strict), bytes(b)


def repo_root():
    return Path(__file__).resolve().parents[3]


def corpus_dir():
    env = os.environ.get("U8X_CORPUS")
    return Path(env) if env else repo_root().parent / "shared" / "corpus"


def biased_byte(rng):
    r = rng.random()
    if r < 0.45:
        return rng.randrange(0x80, 0xC0)  # continuation
    if r < 0.80:
        return rng.randrange(0xC0, 0x100)  # lead bytes and never-bytes
    return rng.randrange(0x100)


_RANGES = [
    (0x00, 0x7F),
    (0x80, 0xFF),
    (0x100, 0x7FF),
    (0x800, 0xD7FF),
    (0xE000, 0xFFFF),
    (0x10000, 0x10FFFF),
    (0x1F600, 0x1F64F),
]


def _random_text(rng, n, top):
    ranges = _RANGES[:top]
    return "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(n))


def _damage(rng, b):
    b = bytearray(b)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(4)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:  # overwrite a byte
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op == 1:  # insert a byte
            b.insert(i, biased_byte(rng))
        elif op == 2 and b:  # delete a byte
            del b[min(i, len(b) - 1)]
        else:  # truncate
            del b[i:]
    return bytes(b)


def random_inputs(seed, count):
    rng = random.Random(seed)
    for k in range(count):
        n = rng.choice([rng.randint(0, 16), rng.randint(0, 300), rng.randint(0, 3000)])
        kind = k % 5
        if kind == 0:  # random bytes
            yield bytes(rng.randrange(256) for _ in range(n))
        elif kind == 1:  # biased random bytes
            yield bytes(biased_byte(rng) for _ in range(n))
        else:  # valid text of each width, then damaged (kind 4) or not
            text = _random_text(rng, n // 2, rng.randint(1, len(_RANGES)))
            b = text.encode()
            yield _damage(rng, b) if kind == 4 or (kind == 3 and rng.random() < 0.5) else b
