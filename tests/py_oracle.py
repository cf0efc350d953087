#!/usr/bin/env python3
"""The oracle of tests/policies.rs: what CPython's codecs make of each input,
never computed by u8x.

Reads lines from standard input, each "d HEX" (UTF-8 bytes to decode) or
"e HEX" (UTF-16LE units to encode, lone surrogates allowed), and writes one
line per input:

  d: IGNORE_UTF8 UTF16LE LATIN1 SUBPARTS ABOVE_FF
     bytes.decode("utf-8", "ignore") as UTF-8, as UTF-16LE and as Latin-1
     (characters above U+00FF dropped); the number of calls of an error
     handler (one per maximal subpart: CPython's UTF-8 decoder reports errors
     by maximal subpart); the number of characters above U+00FF decoded.
  e: IGNORE_UTF8 DROPPED
     the text (pairs combined, lone surrogates kept by "surrogatepass")
     encoded with str.encode("utf-8", "ignore"), and the number of lone
     surrogates an error handler was called for.

Hex fields are "-" when empty.
"""

import codecs
import sys

calls = 0


def counting_ignore(e):
    """Drops what it is given, like "ignore", and counts the characters (an
    encode error may span several) or maximal subparts (a decode error is
    exactly one)."""
    global calls
    if isinstance(e, UnicodeDecodeError):
        calls += 1
    else:
        calls += e.end - e.start
    return ("", e.end)


codecs.register_error("u8x_counting_ignore", counting_ignore)


def hexed(b):
    return b.hex() if b else "-"


def unhexed(h):
    return b"" if h == "-" else bytes.fromhex(h)


def main():
    global calls
    out = []
    for line in sys.stdin:
        kind, data = line.split()
        data = unhexed(data)
        calls = 0
        if kind == "d":
            text = data.decode("utf-8", "u8x_counting_ignore")
            assert text == data.decode("utf-8", "ignore")
            latin1 = text.encode("latin-1", "ignore")
            above = sum(1 for c in text if ord(c) > 0xFF)
            out.append(
                "%s %s %s %d %d"
                % (
                    hexed(text.encode("utf-8")),
                    hexed(text.encode("utf-16-le")),
                    hexed(latin1),
                    calls,
                    above,
                )
            )
        else:
            text = data.decode("utf-16-le", "surrogatepass")
            utf8 = text.encode("utf-8", "u8x_counting_ignore")
            out.append("%s %d" % (hexed(utf8), calls))
    sys.stdout.write("\n".join(out) + "\n")


main()
