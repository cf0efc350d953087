"""u8x.next_boundary / prev_boundary: cutting there changes no decoding."""

import itertools

import pytest

import u8x
from _oracle import ORACLE_ERRORS, random_inputs

SPLIT_ERRORS = [ORACLE_ERRORS[e] for e in ("replace", "surrogateescape", "ignore", "latin1", "cp1252")]


def _strict_error_start(b):
    try:
        b.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return None


def _is_char_start(b, i):
    return i == len(b) or b[i] & 0xC0 != 0x80


def check_split(b, cut):
    for errors in SPLIT_ERRORS:
        assert b[:cut].decode("utf-8", errors) + b[cut:].decode("utf-8", errors) == b.decode("utf-8", errors), (
            b,
            cut,
            errors,
        )
    whole = _strict_error_start(b)
    first = _strict_error_start(b[:cut])
    second = _strict_error_start(b[cut:])
    if whole is None:
        assert first is None and second is None, (b, cut)
    elif whole < cut:
        assert first == whole, (b, cut)
    else:
        assert first is None and second == whole - cut, (b, cut)


def check_boundaries(b):
    n = len(b)
    valid = u8x.is_valid(b)
    for pos in range(n + 1):
        nb = u8x.next_boundary(b, pos)
        pb = u8x.prev_boundary(b, pos)
        assert pos <= nb <= min(n, pos + 3), (b, pos, nb)
        assert max(0, pos - 3) <= pb <= pos, (b, pos, pb)
        check_split(b, nb)
        check_split(b, pb)
        if valid:  # the nearest character starts
            assert _is_char_start(b, nb) and not any(_is_char_start(b, i) for i in range(pos, nb)), (b, pos, nb)
            assert _is_char_start(b, pb) and not any(_is_char_start(b, i) for i in range(pb + 1, pos + 1)), (
                b,
                pos,
                pb,
            )


def test_every_input_up_to_2_bytes():
    check_boundaries(b"")
    for k in (1, 2):
        for t in itertools.product(range(256), repeat=k):
            check_boundaries(bytes(t))


def test_3_byte_inputs_of_class_edges():
    edges = bytes.fromhex("00417f80818f909fa0bfc0c1c2dfe0e1ecedeeeff0f1f3f4f5ff")
    for t in itertools.product(edges, repeat=3):
        check_boundaries(bytes(t))


def test_random_inputs():
    for b in random_inputs(0xB0B0, 200):
        check_boundaries(b[:120])


def test_valid_text_examples():
    b = "a\u00e9\u20ac\U0001f600".encode()  # 1 + 2 + 3 + 4 bytes
    assert [u8x.next_boundary(b, i) for i in range(len(b) + 1)] == [0, 1, 3, 3, 6, 6, 6, 10, 10, 10, 10]
    assert [u8x.prev_boundary(b, i) for i in range(len(b) + 1)] == [0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10]


def test_positions_out_of_range():
    for fn in (u8x.next_boundary, u8x.prev_boundary):
        with pytest.raises(IndexError):
            fn(b"abc", 4)
        with pytest.raises(IndexError):
            fn(b"abc", -1)
        with pytest.raises(TypeError):
            fn(b"abc", 1.5)
        assert fn(b"", 0) == 0
