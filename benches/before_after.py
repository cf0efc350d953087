#!/usr/bin/env python3
"""Compares two sets of benchmark outputs, before and after a change.

    python3 benches/before_after.py DIR [--markdown] [--worst N]

DIR holds `<before|after>-<tier>-<bench>-<pass>.txt`, the text output of
`cargo bench --bench <bench> -- --tier <tier>` (compare, forms, dialects,
short, words) at each commit. Each row u8x times appears in both is
paired, and its change is reported two ways:

- **rel**: after/before of u8x's ratio to the peer timed beside it in the
  same process (compare, forms, short: simdutf 9.1 or the best peer; words:
  std). The peer's code is the same at both commits, so this cancels most
  of the machine's drift between the two runs.
- **raw**: after/before of u8x's own figure (GB/s, or 1/ns for `short`),
  the only measure for `dialects`, which has no peer.

A row counts as slower when every measure it has is below 1/(1 + noise):
a change of u8x's code moves its own figure and its ratio to the peer
alike, while the machine's drift moves both figures (not the ratio), and
a peer's own noise moves the ratio alone. The default noise, 10%, is
what single cells move between runs of one binary on these 2-core VMs
(BENCHMARKS.md, Method); rerun the slower rows' benches with `--filter` to
tell a change from noise.
"""
import argparse
import collections
import glob
import math
import os
import re
import sys

NUM = r"[0-9]+(?:\.[0-9]+)?"


def parse_compare(text):
    """compare: `== title [op] GB/s ==` sections, rows of input, size, align,
    u8x's GB/s first, its ratio to the best peer last."""
    rows, op = {}, None
    for line in text.splitlines():
        m = re.match(r"== .*\[(\S+)\] GB/s ==", line)
        if m:
            op = m.group(1)
            continue
        m = re.match(rf"\s+(\S+)\s+({NUM} \S+)\s+(aligned|\+16)\s+({NUM})\s.*\s({NUM})x\s*$", line)
        if op and m:
            rows[(op, m.group(1), m.group(3))] = (float(m.group(4)), float(m.group(5)))
    return rows


def parse_forms(text):
    """forms: operation, input, align, u8x, peer, ratio."""
    rows = {}
    for line in text.splitlines():
        m = re.match(rf"(\S.*?)\s{{2,}}(\S+)\s+(0|\+16)\s+({NUM})\s+({NUM})\s+({NUM})x", line)
        if m:
            rows[(m.group(1), m.group(2), m.group(3))] = (float(m.group(4)), float(m.group(6)))
    return rows


def parse_dialects(text):
    """dialects: Markdown tables of GB/s per text and dialect (no peer), and
    tables of u8x against the Modified UTF-8 crates (rel: the first `vs`
    column)."""
    rows, section, header = {}, None, None
    for line in text.splitlines():
        if line.startswith("## "):
            section, header = line[3:].split(" (")[0].strip(), None
            continue
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = cells
            continue
        label = cells[0]
        if len(header) > 1 and header[1] == "direction":
            label += " " + cells[1]
        values = {n: float(c.rstrip("x")) for n, c in zip(header, cells) if re.fullmatch(NUM + "x?", c)}
        if "u8x" in values:
            vs = [values[n] for n in header if n.startswith("vs ") and n in values]
            rows[(section, label, "u8x")] = (values["u8x"], vs[0] if vs else None)
            continue
        for name, value in values.items():
            if name in DIALECTS:
                rows[(section, label, name)] = (value, None)
    return rows


DIALECTS = {"standard", "legacy", "CESU-8", "MUTF-8", "WTF-8", "generalized", "standard (UTF-8)"}


def parse_short(text):
    """short: per file, ns per call by length; u8x's row against simdutf 9.1's
    row of the same operation (rel = peer ns / u8x ns)."""
    rows, file, lengths, table = {}, None, None, {}
    for line in text.splitlines() + [""]:
        if line.endswith(".txt"):
            file = line.strip()
        elif line.startswith("bytes"):
            lengths, table = line.split()[1:], {}
        elif lengths and re.match(r"\S", line):
            m = re.match(rf"(.*?)\s+((?:{NUM}\s*)+)$", line)
            if m:
                table[m.group(1).strip()] = [float(x) for x in m.group(2).split()]
        elif lengths and not line.strip():
            for label, ns in table.items():
                if not label.startswith("u8x "):
                    continue
                op = label[4:]
                peer = table.get("simdutf9 " + op) or table.get(
                    "simdutf9 " + op.replace("encode_", "enc ").replace("enc utf16", "enc utf16")
                )
                for k, n in enumerate(lengths):
                    if k < len(ns) and ns[k] > 0:
                        rel = peer[k] / ns[k] if peer and k < len(peer) else None
                        rows[(file, op, n + " B")] = (1.0 / ns[k], rel)
            lengths, table = None, {}
    return rows


def parse_words(text):
    """words: file, kind of words, u8x GB/s, std, ratio."""
    rows = {}
    for line in text.splitlines():
        m = re.match(rf"(\S+)\s+(.*?)\s+({NUM})\s+({NUM})\s+({NUM})x", line)
        if m and not line.startswith("file"):
            rows[(m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(5)))
    return rows


PARSERS = {
    "compare": parse_compare,
    "forms": parse_forms,
    "dialects": parse_dialects,
    "short": parse_short,
    "words": parse_words,
}


def load(directory):
    """{(version, tier, bench): rows}, the rows of every pass (the best
    figure of a row over passes)."""
    out = collections.defaultdict(dict)
    for path in glob.glob(os.path.join(directory, "*.txt")):
        m = re.fullmatch(r"(before|after)-(\w+)-(\w+)-\d+\.txt", os.path.basename(path))
        if not m or m.group(3) not in PARSERS:
            continue
        with open(path) as f:
            rows = PARSERS[m.group(3)](f.read())
        merged = out[m.groups()]
        for key, (raw, rel) in rows.items():
            old = merged.get(key)
            if old is None or raw > old[0]:
                merged[key] = (raw, rel)
    return out


def compare(data, noise):
    """Per (tier, bench): the paired rows' changes."""
    result = {}
    for (version, tier, bench), before in sorted(data.items()):
        if version != "before":
            continue
        after = data.get(("after", tier, bench), {})
        changes = []
        for key, (raw_b, rel_b) in before.items():
            if key not in after:
                continue
            raw_a, rel_a = after[key]
            rel = rel_a / rel_b if rel_a and rel_b else None
            changes.append((key, raw_a / raw_b, rel))
        result[(tier, bench)] = changes
    return result


def measure(change):
    """The change a row is judged by: the better of raw and rel."""
    _, raw, rel = change
    return max(raw, rel) if rel is not None else raw


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory")
    ap.add_argument("--noise", type=float, default=0.10)
    ap.add_argument("--worst", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    result = compare(load(args.directory), args.noise)
    if not result:
        print("no pairs of before/after outputs in", args.directory, file=sys.stderr)
        return 1
    floor = 1 / (1 + args.noise)
    order = {t: k for k, t in enumerate(["avx512", "avx2", "sse42", "scalar", "neon"])}
    keys = sorted(result, key=lambda tb: (order.get(tb[0], 9), tb[1]))
    if args.markdown:
        print("| tier | bench | rows | median change | range | below %.2f |" % floor)
        print("|---|---|---:|---:|---|---|")
    for tier, bench in keys:
        changes = result[(tier, bench)]
        if not changes:
            continue
        ms = sorted(measure(c) for c in changes)
        slower = sorted((c for c in changes if measure(c) < floor), key=measure)
        worst = "; ".join(
            "%s %.2f" % (" ".join(c[0]), measure(c)) for c in slower[: args.worst]
        )
        more = " (+%d more)" % (len(slower) - args.worst) if len(slower) > args.worst else ""
        kind = "max(raw, rel)" if changes[0][2] is not None else "raw"
        median = ms[len(ms) // 2]
        if args.markdown:
            print(
                "| %s | %s | %d | %.2f (%s) | %.2f-%.2f | %s |"
                % (tier, bench, len(ms), median, kind, ms[0], ms[-1], (worst + more) or "none")
            )
        else:
            print(
                "%-7s %-9s rows %4d  median %.2f (%s)  geomean %.2f  range %.2f-%.2f  slower: %d %s%s"
                % (tier, bench, len(ms), median, kind, geomean(ms), ms[0], ms[-1], len(slower), worst, more)
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
