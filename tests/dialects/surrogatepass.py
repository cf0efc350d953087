"""Generalized UTF-8 oracle: CPython's UTF-8 decoder with errors="surrogatepass".

Reads inputs from stdin, one per line as hex; writes one line per input:
"ok" and the code points in hex, or "err START END" (the first error
CPython reports: its maximal subpart).
"""
import sys

out = []
for line in sys.stdin:
    data = bytes.fromhex(line.strip())
    try:
        text = data.decode("utf-8", "surrogatepass")
        out.append("ok " + " ".join("%x" % ord(c) for c in text))
    except UnicodeDecodeError as e:
        out.append("err %d %d" % (e.start, e.end))
sys.stdout.write("\n".join(out) + "\n")
