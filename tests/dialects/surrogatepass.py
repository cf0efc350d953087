"""Generalized UTF-8 oracle: CPython's UTF-8 codec with errors="surrogatepass".

Decoding (no argument): reads inputs from stdin, one per line as hex;
writes one line per input: "ok" and the code points in hex, or
"err START END" (the first error CPython reports: its maximal subpart).

Encoding ("encode"): reads code points, one string per line as
space-separated hex; writes the UTF-8 CPython's encoder with
surrogatepass makes of them, as hex ("ok HEX"), or "err START END".

UTF-16 ("encode-utf16"): reads UTF-16 units the same way; CPython reads
them as UTF-16LE with surrogatepass (pairs join, lone surrogates stay) and
encodes the string as above.
"""
import struct
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "decode"
out = []
for line in sys.stdin:
    if mode == "decode":
        data = bytes.fromhex(line.strip())
        try:
            text = data.decode("utf-8", "surrogatepass")
            out.append("ok " + " ".join("%x" % ord(c) for c in text))
        except UnicodeDecodeError as e:
            out.append("err %d %d" % (e.start, e.end))
        continue
    values = [int(h, 16) for h in line.split()]
    if mode == "encode":
        text = "".join(map(chr, values))
    else:
        units = struct.pack("<%dH" % len(values), *values)
        text = units.decode("utf-16-le", "surrogatepass")
    try:
        out.append("ok " + text.encode("utf-8", "surrogatepass").hex())
    except UnicodeEncodeError as e:
        out.append("err %d %d" % (e.start, e.end))
sys.stdout.write("\n".join(out) + "\n")
