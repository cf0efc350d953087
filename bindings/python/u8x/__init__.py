"""u8x: strict, fast UTF-8 validation, decoding and encoding for Python.

A CPython extension with the u8x C library (libu8x) linked in. Where an
``errors`` name is one of CPython's error handlers, the result is exactly
what CPython's ``utf-8`` codec gives, exceptions included; any handler name
the library has no policy for goes to CPython's handler lookup, so
``backslashreplace``, ``xmlcharrefreplace`` and handlers registered with
:func:`codecs.register_error` work too:

>>> import u8x
>>> u8x.decode(b"caf\\xc3\\xa9")
'café'
>>> u8x.decode(b"a\\xffb", errors="replace")
'a\\ufffdb'
>>> u8x.encode("\\udcff", errors="surrogateescape")
b'\\xff'
>>> b"a\\xffb".decode("u8x", "backslashreplace")
'a\\\\xffb'

``errors="latin1"`` and ``errors="cp1252"`` are u8x's own decoding
fallbacks: each byte of an ill-formed sequence is read as ISO-8859-1 or
windows-1252.

Importing the package registers the codecs ``u8x`` (RFC 3629 UTF-8),
``u8x-sig`` (with a byte order mark, as ``utf-8-sig``) and the dialects
``u8x-cesu-8``, ``u8x-mutf-8``, ``u8x-wtf-8`` and ``u8x-legacy``.
"""

from . import _codecs
from ._u8x import (
    convert,
    count,
    decode,
    detect_encoding,
    encode,
    header_version,
    is_valid,
    library_version,
    next_boundary,
    prev_boundary,
    tier,
    validate,
)

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
    "tier",
    "convert",
    "detect_encoding",
    "CODECS",
    "ERRORS_DECODE",
    "ERRORS_ENCODE",
]

#: The ``errors`` values the library handles itself when decoding; any
#: other name is looked up with :func:`codecs.lookup_error`.
ERRORS_DECODE = ("strict", "replace", "surrogateescape", "ignore", "surrogatepass", "latin1", "cp1252")
#: Likewise when encoding.
ERRORS_ENCODE = ("strict", "replace", "surrogateescape", "ignore", "surrogatepass")
#: The codec names this package registers.
CODECS = _codecs.NAMES

_codecs.register()
