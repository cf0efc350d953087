#!/usr/bin/env python3
"""The extension's decoding and encoding against CPython's own UTF-8 codec.

    python3 bindings/python/bench.py [DIR] [--repeat N] [--min-time S]

(with the extension installed, or built in place). DIR holds the lipsum
files (default: ../shared/corpus/lipsum beside the repository). Rows: each
lipsum file, pure ASCII (the Latin file's first 64 KiB, which is all
ASCII), and strings of 8, 16, 64 and 256 bytes cut at character
boundaries from the ASCII text and from three non-ASCII ones: Russian
(2-byte letters), Chinese (3-byte) and Emoji (4-byte). Columns, MB/s of
UTF-8 (input when decoding, output when encoding), best of --repeat
timings of enough calls to fill --min-time seconds, the six functions of
a row taking turns in each round:

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


def calls_for(timer, min_time):
    """How many calls fill about `min_time` seconds."""
    n, t = 1, 0.0
    while True:
        t = timer.timeit(n)
        if t >= min_time / 10:
            break
        n *= 4
    return max(1, int(n * min_time / t))


def best_seconds(fns, min_time, repeat):
    """Seconds per call of each of `fns`: the best of `repeat` timings of
    enough calls, the functions taking turns in each round (so that a burst
    of load elsewhere on the machine falls on all of them alike)."""
    timers = [timeit.Timer(f) for f in fns]
    counts = [calls_for(t, min_time) for t in timers]
    best = [math.inf] * len(fns)
    for _ in range(repeat):
        for i, (timer, n) in enumerate(zip(timers, counts)):
            best[i] = min(best[i], timer.timeit(n) / n)
    return best


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
    # Russian and Chinese make UCS-2 strs, Emoji UCS-4 ones.
    for lang in ("Russian", "Chinese", "Emoji"):
        for size in (8, 16, 64, 256):
            rows.append(("%s, %d B" % (lang, size), cut(texts[lang], size)))
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
        t = best_seconds((
            lambda: data.decode("utf-8"),
            lambda: u8x.decode(data),
            lambda: data.decode("u8x"),
            lambda: text.encode("utf-8"),
            lambda: u8x.encode(text),
            lambda: text.encode("u8x"),
        ), args.min_time, args.repeat)
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
