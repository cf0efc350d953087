"""Finding and loading libu8x, and the ctypes declarations of include/u8x.h.

Lookup order (the first that loads wins):

1. the environment variable ``U8X_LIBRARY``: a path to the shared library
   (if it is set and cannot be loaded, that is an error: no fallback);
2. the SONAME ``libu8x.so.1`` through the normal dynamic loader
   (``LD_LIBRARY_PATH``, the ld.so cache, the system directories): how an
   installed ``$PREFIX/lib/libu8x.so.1.1.0`` is found;
3. ``ctypes.util.find_library("u8x")``;
4. from a source checkout: ``<repo>/target/capi/stage/lib/libu8x.so``
   (built by ``make``).
"""

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

__all__ = ["lib", "library_path", "Result", "Classification", "LibraryNotFoundError"]

# enum u8x_status
OK = 0
ILL_FORMED = 1
INCOMPLETE = 2
OUTPUT_FULL = 3
BAD_ARGUMENT = 4
INTERNAL_ERROR = 5

# enum u8x_error
ERR_NONE = 0
ERR_UNEXPECTED_CONTINUATION = 1
ERR_INVALID_BYTE = 2
ERR_TRUNCATED_SEQUENCE = 3
ERR_OVERLONG = 4
ERR_SURROGATE = 5
ERR_ABOVE_MAX = 6
ERR_END_OF_INPUT = 7
ERR_NOT_REPRESENTABLE = 8

# enum u8x_width
WIDTH_ASCII = 0
WIDTH_LATIN1 = 1
WIDTH_BMP = 2
WIDTH_SUPPLEMENTARY = 3

# enum u8x_policy
STRICT = 0
REPLACE = 1
ESCAPE = 2
LATIN1 = 3
CP1252 = 4
IGNORE = 5

# flags
MORE_INPUT = 1
LITTLE_ENDIAN = 2
BIG_ENDIAN = 4
SKIP_BOM = 8

REPLACEMENT_CHARACTER = 0xFFFD
BAD_SIZE = ctypes.c_size_t(-1).value

# The version of include/u8x.h this binding was written against.
HEADER_VERSION = (0, 1, 0)


class Result(ctypes.Structure):
    """struct u8x_result. The two C enums are int-sized today and may become
    uint32_t: c_uint32 has the same size and layout either way."""

    _fields_ = [
        ("status", ctypes.c_uint32),
        ("error", ctypes.c_uint32),
        ("read", ctypes.c_size_t),
        ("written", ctypes.c_size_t),
        ("error_len", ctypes.c_size_t),
        ("handled", ctypes.c_size_t),
        ("bom_skipped", ctypes.c_size_t),
    ]

    def __repr__(self):
        return "Result(status=%d, error=%d, read=%d, written=%d, error_len=%d, handled=%d, bom_skipped=%d)" % (
            self.status,
            self.error,
            self.read,
            self.written,
            self.error_len,
            self.handled,
            self.bom_skipped,
        )


class Classification(ctypes.Structure):
    """struct u8x_classification."""

    _fields_ = [
        ("width", ctypes.c_uint32),
        ("code_points", ctypes.c_size_t),
        ("utf16_units", ctypes.c_size_t),
    ]


class LibraryNotFoundError(ImportError):
    """libu8x could not be found or loaded."""


def _library_names():
    if sys.platform == "darwin":
        return "libu8x.1.dylib", "libu8x.dylib"
    if sys.platform == "win32":
        return "u8x.dll", "u8x.dll"
    return "libu8x.so.1", "libu8x.so"


def _checkout_library():
    """<repo>/target/capi/stage/lib/libu8x.so when this file is in a source checkout
    (bindings/python/u8x/_lib.py), else None."""
    parents = Path(__file__).resolve().parents
    if len(parents) < 4:
        return None
    repo = parents[3]
    path = repo / "target" / "capi" / "stage" / "lib" / _library_names()[1]
    if (repo / "include" / "u8x.h").is_file() and path.is_file():
        return path
    return None


def _load():
    soname, devname = _library_names()
    tried = []

    explicit = os.environ.get("U8X_LIBRARY")
    if explicit:
        try:
            return ctypes.CDLL(explicit), explicit
        except OSError as e:
            raise LibraryNotFoundError(
                "u8x: cannot load the library named by U8X_LIBRARY=%r: %s\n"
                "Set U8X_LIBRARY to the path of a built libu8x shared library "
                "(e.g. <repo>/target/capi/stage/lib/libu8x.so after `make`), "
                "or unset it to search the usual places." % (explicit, e)
            ) from None

    try:
        return ctypes.CDLL(soname), soname
    except OSError as e:
        tried.append("%s through the dynamic loader (%s)" % (soname, e))

    found = ctypes.util.find_library("u8x")
    if found:
        try:
            return ctypes.CDLL(found), found
        except OSError as e:
            tried.append("ctypes.util.find_library('u8x') = %r (%s)" % (found, e))
    else:
        tried.append("ctypes.util.find_library('u8x'): nothing")

    checkout = _checkout_library()
    if checkout is not None:
        try:
            return ctypes.CDLL(str(checkout)), str(checkout)
        except OSError as e:
            tried.append("%s (%s)" % (checkout, e))
    else:
        tried.append("target/capi/stage/lib/%s of a source checkout: none" % devname)

    raise LibraryNotFoundError(
        "u8x: cannot find the libu8x shared library. Tried:\n  - U8X_LIBRARY: not set\n  - "
        + "\n  - ".join(tried)
        + "\nBuild it with `make` in the u8x repository and set "
        "U8X_LIBRARY=/path/to/u8x/target/capi/stage/lib/%s, or install it "
        "(`make install PREFIX=...`) and make sure the loader finds %s "
        "(e.g. LD_LIBRARY_PATH=$PREFIX/lib)." % (devname, soname)
    )


lib, library_path = _load()

_u8 = ctypes.c_char_p  # const uint8_t *: bytes are passed without a copy
_size = ctypes.c_size_t
_u32 = ctypes.c_uint32


def _declare(name, restype, *argtypes):
    try:
        fn = getattr(lib, name)
    except AttributeError:
        raise LibraryNotFoundError(
            "u8x: %s (loaded from %s) has no function %s: not a u8x library, or too old"
            % (library_path, library_path, name)
        ) from None
    fn.restype = restype
    fn.argtypes = argtypes
    return fn


validate = _declare("u8x_validate", Result, _u8, _size, _u32)
decode_ucs4 = _declare("u8x_decode_ucs4", Result, _u8, _size, ctypes.c_void_p, _size, _u32, _u32, _u32)
decode_utf16 = _declare("u8x_decode_utf16", Result, _u8, _size, ctypes.c_void_p, _size, _u32, _u32, _u32)
decode_latin1 = _declare("u8x_decode_latin1", Result, _u8, _size, ctypes.c_void_p, _size, _u32, _u32, _u32)
count = _declare("u8x_count", Result, _u8, _size, _u32, _u32)
encode = _declare("u8x_encode", Result, ctypes.c_void_p, _size, ctypes.c_void_p, _size, _u32, _u32)
encoded_len = _declare("u8x_encoded_len", Result, ctypes.c_void_p, _size, _u32, _u32)
classify = _declare("u8x_classify", Result, _u8, _size, _u32, ctypes.POINTER(Classification))
next_boundary = _declare("u8x_next_boundary", _size, _u8, _size, _size)
prev_boundary = _declare("u8x_prev_boundary", _size, _u8, _size, _size)
version = _declare("u8x_version", ctypes.c_char_p)
status_name = _declare("u8x_status_name", ctypes.c_char_p, ctypes.c_int)
error_name = _declare("u8x_error_name", ctypes.c_char_p, ctypes.c_int)
tier_name = _declare("u8x_tier_name", ctypes.c_char_p)
