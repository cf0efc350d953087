"""CPython's own codec tests, run against the u8x codecs.

CPython's `test_codecs` (Debian's `libpython3.11-testsuite` ships it for
Debian's python3) writes its UTF-8 tests as classes with an `encoding`
attribute, so that a subclass with another name runs the same tests on
another codec. Here:

- UTF8Test (every ReadTest case too: the StreamReader byte by byte, the
  incremental decoder, readline, the writer/reader queue, lone surrogates
  under every error handler, incremental surrogatepass, error positions)
  with encoding = "u8x";
- UTF8SigTest with encoding = "u8x-sig";
- BasicUnicodeTest (encoder, decoder, stream writer/reader, incremental
  coders, iterencode/iterdecode, the C API's incremental codecs, seek) over
  the six u8x codecs, by setting the module's list of encodings to them;
- the few tests that name "utf-8" or "utf-8-sig" in their body rather than
  through `encoding` (StreamReaderTest, EncodedFileTest, WithStmtTest,
  SurrogateEscapeTest.test_utf8, and four of UTF8SigTest's): their source
  with that name replaced by the u8x codec's, compiled in test_codecs'
  namespace. The originals, inherited by the subclasses, would test
  CPython's codec, so they are skipped there, saying so.

Skipped when `test.test_codecs` cannot be imported (this interpreter has no
test suite), unless U8X_CONSUMERS_STRICT=1.
"""

import inspect
import os
import textwrap
import unittest
from unittest import mock

import pytest

import u8x  # noqa: F401  (registers the codecs)

try:
    from test import test_codecs as tc
except ImportError as e:  # pragma: no cover - depends on the machine
    if os.environ.get("U8X_CONSUMERS_STRICT") == "1":
        raise
    pytest.skip("CPython's test suite is not installed (%s): install libpython3.11-testsuite "
                "and run with Debian's python3" % e, allow_module_level=True)


def renamed(func, old, new, name=None):
    """`func` (a test method of test_codecs) with the string `old` replaced
    by `new` in its source, compiled where test_codecs' names resolve."""
    src = textwrap.dedent(inspect.getsource(func))
    assert old in src, (func.__qualname__, old)
    src = src.replace(old, new)
    if name:
        src = src.replace("def %s(" % func.__name__, "def %s(" % name, 1)
    ns = {}
    exec(compile(src, "<%s, %s -> %s>" % (func.__qualname__, old, new), "exec"), vars(tc), ns)
    return ns[name or func.__name__]


def not_this_codec(why):
    return unittest.skip(why)


HARDCODED = "names %r in its body, so it tests CPython's codec: run as %s with the name replaced"


class U8xUTF8Test(tc.UTF8Test):
    encoding = "u8x"


class U8xUTF8SigTest(tc.UTF8SigTest):
    encoding = "u8x-sig"

    test_bug1601501 = not_this_codec(HARDCODED % ("utf-8-sig", "test_bug1601501_u8x"))(
        tc.UTF8SigTest.test_bug1601501)
    test_bom = not_this_codec(HARDCODED % ("utf-8-sig", "test_bom_u8x"))(tc.UTF8SigTest.test_bom)
    test_stream_bom = not_this_codec(HARDCODED % ("utf-8-sig", "test_stream_bom_u8x"))(
        tc.UTF8SigTest.test_stream_bom)
    test_stream_bare = not_this_codec(HARDCODED % ("utf-8-sig", "test_stream_bare_u8x"))(
        tc.UTF8SigTest.test_stream_bare)

    test_bug1601501_u8x = renamed(tc.UTF8SigTest.test_bug1601501, '"utf-8-sig"', '"u8x-sig"',
                                  "test_bug1601501_u8x")
    test_bom_u8x = renamed(tc.UTF8SigTest.test_bom, '"utf-8-sig"', '"u8x-sig"', "test_bom_u8x")
    test_stream_bom_u8x = renamed(tc.UTF8SigTest.test_stream_bom, '"utf-8-sig"', '"u8x-sig"',
                                  "test_stream_bom_u8x")
    test_stream_bare_u8x = renamed(tc.UTF8SigTest.test_stream_bare, '"utf-8-sig"', '"u8x-sig"',
                                   "test_stream_bare_u8x")


class U8xBasicUnicodeTest(tc.BasicUnicodeTest):
    """CPython's tests of every codec in `all_unicode_encodings`, on the
    u8x codecs alone."""

    test_encoding_map_type_initialized = not_this_codec(
        "checks the type of the cp1140 codec's table, which no u8x codec has")(
        tc.BasicUnicodeTest.test_encoding_map_type_initialized)

    def run(self, result=None):
        with mock.patch.object(tc, "all_unicode_encodings", list(u8x.CODECS)):
            return super().run(result)


class U8xStreamReaderTest(tc.StreamReaderTest):
    setUp = renamed(tc.StreamReaderTest.setUp, "'utf-8'", "'u8x'")


class U8xEncodedFileTest(unittest.TestCase):
    test_basic = renamed(tc.EncodedFileTest.test_basic, "'utf-8'", "'u8x'")


class U8xWithStmtTest(unittest.TestCase):
    test_encodedfile = renamed(tc.WithStmtTest.test_encodedfile, '"utf-8"', '"u8x"')
    test_streamreaderwriter = renamed(tc.WithStmtTest.test_streamreaderwriter, '"utf-8"', '"u8x"')


class U8xSurrogateEscapeTest(unittest.TestCase):
    test_utf8 = renamed(tc.SurrogateEscapeTest.test_utf8, '"utf-8"', '"u8x"')
