#!/usr/bin/env python3
"""The extension's decoding and encoding against CPython's own UTF-8 codec.

    python3 bindings/python/bench.py [DIR] [--repeat N] [--min-time S]

(with the extension installed, or built in place). DIR holds the lipsum
files (default: ../shared/corpus/lipsum beside the repository). Rows: each
lipsum file, pure ASCII (the Latin file's first 64 KiB, which is all
ASCII), and strings of 8, 16, 64 and 256 bytes cut from the ASCII and the
Russian text at character boundaries. Columns, MB/s of UTF-8 (input when
decoding, output when encoding), best of --repeat timings of enough calls
to fill --min-time seconds:

  decode: bytes.decode("utf-8") | u8x.decode(b) | b.decode("u8x")
  encode: str.encode("utf-8")   | u8x.encode(s) | s.encode("u8x")

ratio = u8x.decode / bytes.decode("utf-8") (and likewise for encode); the
codec-name column pays CPython's codec lookup and the codec's Python
frame on every call, which matters for short strings only.
"""

import argparse
import math
import platform
import sys
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The installed package (with its compiled extension), not the sources
# beside this script, which Python puts first on the path.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import u8x  # noqa: E402


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def best_seconds(fn, min_time, repeat):
    """Seconds per call: the best of `repeat` timings of enough calls."""
    timer = timeit.Timer(fn)
    n, t = 1, 0.0
    while True:
        t = timer.timeit(n)
        if t >= min_time / 10:
            break
        n *= 4
    n = max(1, int(n * min_time / t))
    return min(timer.repeat(repeat, n)) / n


def cut(text, size):
    """The longest prefix of `text` whose UTF-8 is at most `size` bytes."""
    data = text.encode()[:size]
    return data.decode("utf-8", "ignore")


def inputs(directory):
    files = sorted(Path(directory).glob("*.utf8.txt"))
    if not files:
        sys.exit("bench.py: no *.utf8.txt files in %s" % directory)
    texts = {p.name.replace("-Lipsum.utf8.txt", ""): p.read_text("utf-8") for p in files}
    rows = list(texts.items())
    ascii_text = cut(texts["Latin"], 65536)
    assert ascii_text.isascii()
    rows.append(("ASCII (64 KiB)", ascii_text))
    for size in (8, 16, 64, 256):
        rows.append(("ASCII, %d B" % size, cut(texts["Latin"], size)))
    for size in (8, 16, 64, 256):
        rows.append(("Russian, %d B" % size, cut(texts["Russian"], size)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(HERE.parents[1].parent / "shared" / "corpus" / "lipsum"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.1)
    args = ap.parse_args()

    print("CPU:     %s" % cpu_model())
    print("Python:  %s %s" % (platform.python_implementation(), platform.python_version()))
    print("libu8x:  %s, tier %s" % (u8x.library_version, u8x.tier()))
    print("MB/s of UTF-8, best of %d; ratio = u8x.decode / bytes.decode, u8x.encode / str.encode" % args.repeat)
    print()
    head = "%-16s %7s | %9s %9s %9s %6s | %9s %9s %9s %6s" % (
        "input", "bytes", "CPy dec", "u8x.dec", '"u8x"', "ratio", "CPy enc", "u8x.enc", '"u8x"', "ratio")
    print(head)
    print("-" * len(head))
    ratios = {"decode": [], "encode": []}
    for name, text in inputs(args.dir):
        data = text.encode("utf-8")
        # Same results first: a benchmark of a wrong answer is worthless.
        assert u8x.decode(data) == text and data.decode("u8x") == text, name
        assert u8x.encode(text) == data and text.encode("u8x") == data, name
        mb = len(data) / 1e6
        t = [best_seconds(f, args.min_time, args.repeat) for f in (
            lambda: data.decode("utf-8"),
            lambda: u8x.decode(data),
            lambda: data.decode("u8x"),
            lambda: text.encode("utf-8"),
            lambda: u8x.encode(text),
            lambda: text.encode("u8x"),
        )]
        ratios["decode"].append(t[0] / t[1])
        ratios["encode"].append(t[3] / t[4])
        print("%-16s %7d | %9.0f %9.0f %9.0f %6.2f | %9.0f %9.0f %9.0f %6.2f" % (
            name, len(data), mb / t[0], mb / t[1], mb / t[2], t[0] / t[1],
            mb / t[3], mb / t[4], mb / t[5], t[3] / t[4]))
    geo = {k: math.prod(v) ** (1 / len(v)) for k, v in ratios.items()}
    print("-" * len(head))
    print("geometric mean of the ratios: decode %.2f, encode %.2f" % (geo["decode"], geo["encode"]))
    print("lowest ratio: decode %.2f, encode %.2f" % (min(ratios["decode"]), min(ratios["encode"])))


if __name__ == "__main__":
    main()
