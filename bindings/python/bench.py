#!/usr/bin/env python3
"""Throughput of u8x.decode / u8x.validate against bytes.decode("utf-8").

    U8X_LIBRARY=target/capi/stage/lib/libu8x.so python3 bindings/python/bench.py [DIR]

DIR holds the lipsum files (default: ../shared/corpus/lipsum next to the
repository). For each file and function: the best of --repeat timings of
enough calls to run --min-time seconds; MB/s is input bytes / 1e6 / second.
"""

import argparse
import os
import platform
import sys
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # this checkout's package, unless installed first

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
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    while True:
        t = timer.timeit(number)
        if t >= min_time:
            break
        number = max(number + 1, int(number * min_time / max(t, 1e-9) * 1.1))
    return min([t] + timer.repeat(repeat - 1, number)) / number


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(HERE.parents[1].parent / "shared" / "corpus" / "lipsum"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    args = ap.parse_args()

    files = sorted(Path(args.dir).glob("*.utf8.txt"))
    if not files:
        sys.exit("bench.py: no *.utf8.txt files in %s" % args.dir)

    print("CPU:     %s" % cpu_model())
    print("Python:  %s %s" % (platform.python_implementation(), platform.python_version()))
    print("libu8x:  %s (%s), tier %s" % (u8x.library_version, u8x.library_path, u8x.tier()))
    print("MB/s = 1e6 bytes of input per second, best of %d; ratio = u8x / CPython decode" % args.repeat)
    print()
    head = "%-24s %7s %12s %12s %6s %13s %6s" % (
        "file",
        "KiB",
        "CPy decode",
        "u8x.decode",
        "ratio",
        "u8x.validate",
        "ratio",
    )
    print(head)
    print("-" * len(head))
    ratios_d, ratios_v = [], []
    for path in files:
        data = path.read_bytes()
        assert u8x.decode(data) == data.decode("utf-8"), path
        mb = len(data) / 1e6
        t_cpy = best_seconds(lambda: data.decode("utf-8"), args.min_time, args.repeat)
        t_dec = best_seconds(lambda: u8x.decode(data), args.min_time, args.repeat)
        t_val = best_seconds(lambda: u8x.validate(data), args.min_time, args.repeat)
        ratios_d.append(t_cpy / t_dec)
        ratios_v.append(t_cpy / t_val)
        print(
            "%-24s %7.1f %12.0f %12.0f %6.2f %13.0f %6.2f"
            % (
                path.name.replace(".utf8.txt", ""),
                len(data) / 1024,
                mb / t_cpy,
                mb / t_dec,
                t_cpy / t_dec,
                mb / t_val,
                t_cpy / t_val,
            )
        )
    geo = lambda xs: __import__("math").prod(xs) ** (1 / len(xs))  # noqa: E731
    print("-" * len(head))
    print("%-24s %7s %12s %12s %6.2f %13s %6.2f" % ("geometric mean", "", "", "", geo(ratios_d), "", geo(ratios_v)))
    small = b"hello, w\xc3\xb6rld"
    t_small_cpy = best_seconds(lambda: small.decode("utf-8"), args.min_time, args.repeat)
    t_small_u8x = best_seconds(lambda: u8x.decode(small), args.min_time, args.repeat)
    print()
    print(
        "per-call cost, 14-byte input: CPython decode %.2f us, u8x.decode %.2f us (ctypes overhead)"
        % (t_small_cpy * 1e6, t_small_u8x * 1e6)
    )


if __name__ == "__main__":
    main()
