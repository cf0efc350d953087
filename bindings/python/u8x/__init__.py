"""u8x: strict, fast UTF-8 validation, decoding and encoding for Python.

A pure-Python (ctypes) binding of the u8x C library (libu8x). Where an
``errors`` name is also one of CPython's error handlers, the result is
exactly what CPython's ``utf-8`` codec gives, exceptions included:

>>> import u8x
>>> u8x.decode(b"caf\\xc3\\xa9")
'café'
>>> u8x.decode(b"a\\xffb", errors="replace")
'a\\ufffdb'
>>> u8x.encode("\\udcff", errors="surrogateescape")
b'\\xff'

``errors="latin1"`` and ``errors="cp1252"`` are u8x's own fallbacks: each
byte of an ill-formed sequence is read as ISO-8859-1 or windows-1252.
"""

import codecs
import ctypes
import operator
import sys

from . import _lib
from ._lib import LibraryNotFoundError, library_path

__version__ = "0.1.0"

__all__ = [
    "validate",
    "is_valid",
    "decode",
    "encode",
    "count",
    "next_boundary",
    "prev_boundary",
    "library_version",
    "library_path",
    "tier",
    "ERRORS_DECODE",
    "ERRORS_ENCODE",
    "LibraryNotFoundError",
]

#: The library's version, "MAJOR.MINOR.PATCH" (``u8x_version()``).
library_version = _lib.version().decode("ascii")


def _check_version():
    try:
        lib_v = tuple(int(x) for x in library_version.split(".")[:3])
    except ValueError:
        raise LibraryNotFoundError(
            "u8x: %s reports an unreadable version %r" % (library_path, library_version)
        ) from None
    ours = _lib.HEADER_VERSION
    # Before 1.0 a minor release may break the ABI (as the SONAME's ABI
    # number allows); after it, the major version must match and the
    # library may be newer.
    compatible = lib_v[0] == ours[0] and (lib_v[1] >= ours[1] if ours[0] else lib_v[1] == ours[1])
    if not compatible:
        raise LibraryNotFoundError(
            "u8x: the library %s is version %s, but this binding (u8x %s) needs %d.%d.x; "
            "point U8X_LIBRARY at a matching libu8x"
            % (library_path, library_version, __version__, ours[0], ours[1])
        )


_check_version()


def tier():
    """The instruction-set tier libu8x runs: "scalar", "sse42", "avx2" or "avx512"."""
    return _lib.tier_name().decode("ascii")


# ---------------------------------------------------------------- arguments


#: The ``errors`` values :func:`decode` accepts.
ERRORS_DECODE = ("strict", "replace", "surrogateescape", "ignore", "latin1", "cp1252")
#: The ``errors`` values :func:`encode` accepts.
ERRORS_ENCODE = ("strict", "replace", "surrogateescape", "ignore")

_DECODE_POLICIES = {
    "strict": _lib.STRICT,
    "replace": _lib.REPLACE,
    "surrogateescape": _lib.ESCAPE,
    "ignore": _lib.IGNORE,
    "latin1": _lib.LATIN1,
    "cp1252": _lib.CP1252,
}
_ENCODE_POLICIES = {
    "strict": _lib.STRICT,
    "replace": _lib.REPLACE,
    "surrogateescape": _lib.ESCAPE,
    "ignore": _lib.IGNORE,
}


def _policy(table, errors, what):
    try:
        return table[errors]
    except (KeyError, TypeError):
        if not isinstance(errors, str):
            raise TypeError("%s() argument 'errors' must be str, not %s" % (what, type(errors).__name__)) from None
        raise ValueError(
            "u8x.%s: unsupported errors=%r (supported: %s)" % (what, errors, ", ".join(table))
        ) from None


def _source(data):
    """(argument for a `const uint8_t *`, length, the bytes as an object
    CPython's codecs accept) for any bytes-like object. bytes are passed
    without a copy, and so are writable contiguous buffers (bytearray,
    array, mmap...); other read-only buffers are copied once."""
    if type(data) is bytes:
        return data, len(data), data
    if isinstance(data, str):
        raise TypeError("u8x: expected a bytes-like object, not 'str'")
    view = memoryview(data)  # TypeError for non-buffers, as bytes.decode would
    if view.ndim != 1 or view.itemsize != 1 or not view.c_contiguous:
        view = view.cast("B") if view.c_contiguous else memoryview(view.tobytes())
    if view.readonly:
        if isinstance(view.obj, bytes) and view.nbytes == len(view.obj):
            b = view.obj
        else:
            b = view.tobytes()
        return b, len(b), b
    n = view.nbytes
    return (ctypes.c_char * n).from_buffer(view), n, view


def _bytes_of(data):
    """The input as bytes, for the `object` of a UnicodeDecodeError."""
    return data if type(data) is bytes else bytes(data)


def _unexpected(r, what):
    return RuntimeError(
        "u8x: %s returned %s (%s); please report this"
        % (what, _lib.status_name(r.status).decode(), r)
    )


# ---------------------------------------------------------------- strings

try:
    # CPython: make a str straight from a UCS-1/2/4 buffer (one copy).
    _from_kind = ctypes.pythonapi.PyUnicode_FromKindAndData
    _from_kind.restype = ctypes.py_object
    _from_kind.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_ssize_t)
except (AttributeError, ValueError):  # PyPy and others: the codecs
    _from_kind = None

_UCS4 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
_UCS2 = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"


def _str_ucs4(buf, n):
    if _from_kind is not None:
        return _from_kind(4, buf, n)
    return codecs.decode(memoryview(buf).cast("B"), _UCS4, "surrogatepass")


def _str_ucs2(buf, n):
    # Only for text without supplementary characters: no surrogate pairs.
    if _from_kind is not None:
        return _from_kind(2, buf, n)
    return codecs.decode(memoryview(buf).cast("B"), _UCS2, "surrogatepass")


def _decode_valid(src, n, width, cps, units, text):
    """The str of well-formed UTF-8 that u8x_classify described."""
    if width == _lib.WIDTH_ASCII:
        # Validated ASCII: the bytes are the characters.
        return str(text, "latin-1")
    if width == _lib.WIDTH_LATIN1:
        buf = ctypes.create_string_buffer(cps)
        r = _lib.decode_latin1(src, n, buf, cps, _lib.STRICT, 0, 0)
        if r.status != _lib.OK or r.written != cps:
            raise _unexpected(r, "u8x_decode_latin1")
        return str(memoryview(buf).cast("B")[:cps], "latin-1")
    if width == _lib.WIDTH_BMP:
        buf = (ctypes.c_uint16 * units)()
        r = _lib.decode_utf16(src, n, buf, units, _lib.STRICT, _lib.REPLACEMENT_CHARACTER, 0)
        if r.status != _lib.OK or r.written != units:
            raise _unexpected(r, "u8x_decode_utf16")
        return _str_ucs2(buf, units)
    buf = (ctypes.c_uint32 * cps)()
    r = _lib.decode_ucs4(src, n, buf, cps, _lib.STRICT, _lib.REPLACEMENT_CHARACTER, 0)
    if r.status != _lib.OK or r.written != cps:
        raise _unexpected(r, "u8x_decode_ucs4")
    return _str_ucs4(buf, cps)


def _decode_policy(src, n, policy):
    """The str of ill-formed UTF-8 under a non-strict policy: UCS-4."""
    r = _lib.count(src, n, policy, 0)
    if r.status != _lib.OK:
        raise _unexpected(r, "u8x_count")
    cps = r.written
    buf = (ctypes.c_uint32 * cps)()
    r = _lib.decode_ucs4(src, n, buf, cps, policy, _lib.REPLACEMENT_CHARACTER, 0)
    if r.status != _lib.OK or r.written != cps:
        raise _unexpected(r, "u8x_decode_ucs4")
    return _str_ucs4(buf, cps)


# ---------------------------------------------------------------- errors

_START = "invalid start byte"
_CONTINUATION = "invalid continuation byte"
_END = "unexpected end of data"

# CPython's three reasons, by u8x_error. CPython reports the same start and
# (maximal-subpart) length as u8x, only coarser kinds.
_REASONS = {
    _lib.ERR_UNEXPECTED_CONTINUATION: _START,
    _lib.ERR_INVALID_BYTE: _START,
    _lib.ERR_TRUNCATED_SEQUENCE: _CONTINUATION,
    _lib.ERR_OVERLONG: _CONTINUATION,
    _lib.ERR_SURROGATE: _CONTINUATION,
    _lib.ERR_ABOVE_MAX: _CONTINUATION,
    _lib.ERR_END_OF_INPUT: _END,
}


def _decode_error(data, r):
    if r.status != _lib.ILL_FORMED or r.error not in _REASONS:
        raise _unexpected(r, "u8x_validate")
    start = r.read
    return UnicodeDecodeError("utf-8", _bytes_of(data), start, start + r.error_len, _REASONS[r.error])


# ---------------------------------------------------------------- API


def validate(data):
    """Check that ``data`` (a bytes-like object) is well-formed UTF-8.

    Returns None, or raises :class:`UnicodeDecodeError` exactly as
    ``bytes(data).decode("utf-8")`` would: the same ``start``, ``end``
    (the maximal subpart) and ``reason``.
    """
    src, n, _ = _source(data)
    r = _lib.validate(src, n, 0)
    if r.status != _lib.OK:
        raise _decode_error(data, r)


def is_valid(data):
    """True if ``data`` (a bytes-like object) is well-formed UTF-8."""
    src, n, _ = _source(data)
    r = _lib.validate(src, n, 0)
    if r.status == _lib.OK:
        return True
    if r.status == _lib.ILL_FORMED:
        return False
    raise _unexpected(r, "u8x_validate")


def decode(data, errors="strict"):
    """Decode UTF-8 ``data`` (a bytes-like object) to str.

    ``errors``: "strict" (raise :class:`UnicodeDecodeError`), "replace"
    (U+FFFD per maximal subpart), "surrogateescape" (byte b becomes
    U+DC00+b), "ignore" (drop ill-formed sequences): all exactly as
    ``bytes.decode("utf-8", errors)``; or u8x's own "latin1" and "cp1252",
    which read each byte of an ill-formed sequence as ISO-8859-1 or
    windows-1252 (WHATWG mapping: 81, 8D, 8F, 90, 9D stay C1 controls).
    Any other value raises ValueError.
    """
    policy = _policy(_DECODE_POLICIES, errors, "decode")
    src, n, text = _source(data)
    info = _lib.Classification()
    r = _lib.classify(src, n, 0, ctypes.byref(info))
    if r.status == _lib.OK:
        return _decode_valid(src, n, info.width, info.code_points, info.utf16_units, text)
    if policy == _lib.STRICT:
        raise _decode_error(data, r)
    if r.status != _lib.ILL_FORMED:
        raise _unexpected(r, "u8x_classify")
    return _decode_policy(src, n, policy)


def count(data, errors="strict"):
    """The number of code points ``decode(data, errors)`` returns, computed
    without building the string (``u8x_count``). Under "strict", ill-formed
    input raises :class:`UnicodeDecodeError` as :func:`validate` does."""
    policy = _policy(_DECODE_POLICIES, errors, "count")
    src, n, _ = _source(data)
    r = _lib.count(src, n, policy, 0)
    if r.status == _lib.OK:
        return r.written
    if policy == _lib.STRICT:
        raise _decode_error(data, r)
    raise _unexpected(r, "u8x_count")


def _surrogate_run_end(text, i):
    n = len(text)
    while i < n and "\ud800" <= text[i] <= "\udfff":
        i += 1
    return i


def encode(text, errors="strict"):
    """Encode the str ``text`` as UTF-8 bytes.

    As ``text.encode("utf-8", errors)``: lone surrogates (a str may hold
    them) are errors. "strict" raises :class:`UnicodeEncodeError` (``start``
    = the first surrogate, ``end`` = the end of its run of surrogates,
    reason "surrogates not allowed"); "replace" writes b"?" for each;
    "surrogateescape" turns U+DC80..U+DCFF back into the byte they escape
    and raises for any other surrogate; "ignore" drops them. Any other value
    raises ValueError.
    """
    policy = _policy(_ENCODE_POLICIES, errors, "encode")
    if not isinstance(text, str):
        raise TypeError("u8x.encode: expected str, not %s" % type(text).__name__)
    # A str's code points as UCS-4; surrogatepass keeps lone surrogates (and
    # never pairs them) for u8x to judge.
    ucs4 = text.encode(_UCS4, "surrogatepass")
    n = len(text)
    src = ctypes.c_char_p(ucs4)
    if ctypes.cast(src, ctypes.c_void_p).value % 4:  # u8x wants aligned uint32_t
        src = (ctypes.c_uint32 * n).from_buffer_copy(ucs4)
    replacement = 0x3F  # CPython's utf-8 encoder writes '?' under "replace"
    r = _lib.encoded_len(src, n, policy, replacement)
    if r.status == _lib.OK:
        size = r.written
        out = ctypes.create_string_buffer(size)
        r = _lib.encode(src, n, out, size, policy, replacement)
        if r.status == _lib.OK and r.written == size:
            return out.raw
        raise _unexpected(r, "u8x_encode")
    if r.status == _lib.ILL_FORMED and r.error in (_lib.ERR_SURROGATE,):
        start = r.read
        raise UnicodeEncodeError("utf-8", text, start, _surrogate_run_end(text, start), "surrogates not allowed")
    raise _unexpected(r, "u8x_encoded_len")


def _boundary(fn, name, data, pos):
    src, n, _ = _source(data)
    pos = operator.index(pos)
    if not 0 <= pos <= n:
        raise IndexError("u8x.%s: position %d outside 0..%d" % (name, pos, n))
    b = fn(src, n, pos)
    if b == _lib.BAD_SIZE:
        raise RuntimeError("u8x: u8x_%s(%d, %d) refused its arguments" % (name, n, pos))
    return b


def next_boundary(data, pos):
    """The first position at or after ``pos`` (0 <= pos <= len(data)) where
    ``data`` can be cut so that decoding both halves gives what decoding the
    whole gives, under every policy: on valid text, the next character start
    (or len(data)). Never splits a maximal subpart of damaged bytes."""
    return _boundary(_lib.next_boundary, "next_boundary", data, pos)


def prev_boundary(data, pos):
    """The last position at or before ``pos`` with the property of
    :func:`next_boundary`: cut ``data[:prev_boundary(data, n)]`` to get at
    most n bytes without cutting a character."""
    return _boundary(_lib.prev_boundary, "prev_boundary", data, pos)
