#!/usr/bin/env python3
"""BENCHMARKS.md's summary table and chart for one CPU, from the CSV files
that `cargo bench --bench compare -- --csv F` and `cargo bench --bench forms
-- --csv F` write (benches/record.sh runs both and then this).

    python3 benches/summary.py RUN.csv [RUN2.csv ...] [--label "AMD EPYC Zen 3"]
        [--markdown OUT.md] [--svg OUT.svg] [--into BENCHMARKS.md --name zen3]
        [--misses [BELOW]]

Without --markdown or --into the table goes to standard output. --into
replaces the text between `<!-- begin generated: NAME -->` and
`<!-- end generated: NAME -->` in that file. Python 3 standard library only.
--misses prints, instead of the table, one line per cell (operation, input,
alignment) where u8x is below BELOW (default 1.0) times its best peer,
worst first: the remaining misses on this machine, one command away.

A cell is u8x's GB/s over its best peer's on the same (operation, input,
alignment): the ratio's range over the inputs of the column and both
alignments, then u8x's GB/s range. "Best peer" is the fastest of the
implementations listed for the row (like for like: the same output, the
same checks), simdutf 9.1 on the same instruction set first among them.
The chart is u8x against simdutf 9.1 alone.
"""

import argparse
import csv
import math
import statistics
import sys
from collections import defaultdict

# Which inputs each column covers (the benches' input names).
COLUMNS = [
    ("ASCII", ["Latin", "ascii"]),
    ("Mostly ASCII", ["ascii+1%2B", "latin1-10%"]),
    ("2-byte scripts", ["Arabic", "Hebrew", "Russian"]),
    ("CJK, Hindi", ["Chinese", "Japanese", "Korean", "Hindi"]),
    ("Emoji", ["Emoji"]),
    ("Mixed 1-4 bytes", ["mixed-1234", "mixed+err/KiB"]),
]

ALL_PEERS = None  # every implementation of role "peer" in the operations


class Row:
    """One line of the table: u8x's implementation in `ops[0]`, measured
    against the best of `peers` over every operation in `ops`."""

    def __init__(self, label, bench, ops, peers=ALL_PEERS, u8x="u8x",
                 simdutf91="simdutf 9.1"):
        self.label, self.bench, self.ops = label, bench, ops
        self.peers, self.u8x, self.simdutf91 = peers, u8x, simdutf91


ROWS = [
    Row("Validate UTF-8", "compare", ["validate"]),
    Row("Validate, find every error", "compare", ["validate-errors"],
        simdutf91="simdutf 9.1 w/err"),
    Row("UTF-8 -> UCS-4", "compare", ["decode-strict"]),
    Row("UCS-4 -> UTF-8", "compare", ["encode"]),
    Row("Count code points (validating)", "compare", ["count"],
        peers={"simdutf validate+count", "simdutf 9.1 validate+count"},
        simdutf91="simdutf 9.1 validate+count"),
    Row("Count code points (valid input)", "compare", ["count"],
        u8x="u8x count_valid",
        peers={"simdutf count_utf8", "simdutf utf32_len",
               "simdutf 9.1 count_utf8", "std chars().count()"},
        simdutf91="simdutf 9.1 count_utf8"),
    Row("UTF-8 size of UCS-4 (validating)", "compare", ["encoded-len"],
        peers={"simdutf validate+len", "simdutf 9.1 validate+len",
               "std len_utf8"},
        simdutf91="simdutf 9.1 validate+len"),
    Row("UTF-8 -> UTF-16", "forms",
        ["utf8->utf16le strict", "utf8->utf16 strict (enc_rs)"]),
    Row("UTF-16 -> UTF-8", "forms",
        ["utf16le->utf8 strict", "utf16->utf8 strict (enc_rs)"]),
    Row("UTF-16 validation", "forms", ["utf16le validate"]),
    Row("UTF-16 size of UTF-8", "forms", ["utf16 length of utf8"]),
    Row("UTF-8 size of UTF-16", "forms", ["utf8 length of utf16le"]),
    # encoding_rs's UTF-8 -> Latin-1 does not validate: not like for like.
    Row("UTF-8 -> Latin-1", "forms", ["utf8->latin1 strict"]),
    Row("Latin-1 -> UTF-8", "forms",
        ["latin1->utf8", "latin1->utf8 (enc_rs)"]),
]


def read_rows(paths):
    """Every CSV row of every file, as dicts."""
    rows = []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            rows.extend(csv.DictReader(f))
    if not rows:
        sys.exit("summary.py: no rows in " + ", ".join(paths))
    return rows


def u8x_names(row, tier):
    """The public API's column, or the forced tier's (compare --tier)."""
    if row.u8x == "u8x":
        return {"u8x", "u8x " + tier}
    return {row.u8x}


# simdutf8 picks its own kernel (AVX2 on any CPU that has it) and cannot be
# forced: against u8x's SSE4.2 or scalar tier it is no same-instruction-set
# peer. simdutf (7.7.1 and 9.1) follows SIMDUTF_FORCE_IMPLEMENTATION, which
# benches/record.sh --tier sets; std and encoding_rs use the baseline (SSE2).
NARROW_TIERS = {"sse42", "scalar"}


def same_isa(r):
    """Whether peer row `r` ran on u8x's instruction set or a narrower one."""
    return not (r["u8x_tier"] in NARROW_TIERS
                and r["implementation"].startswith("simdutf8"))


def cells(row, records):
    """{(input, align): (u8x GB/s, best peer GB/s, best peer name,
    simdutf 9.1 GB/s or None)} for one table row."""
    u8x, peers = {}, defaultdict(dict)
    for r in records:
        if r["bench"] != row.bench or r["operation"] not in row.ops:
            continue
        key = (r["input"], r["align"])
        g = float(r["gbps"])
        if (r["role"] == "u8x" and r["operation"] == row.ops[0]
                and r["implementation"] in u8x_names(row, r["u8x_tier"])):
            u8x[key] = g
        elif r["role"] == "peer" and same_isa(r) and (
                row.peers is ALL_PEERS or r["implementation"] in row.peers):
            name = r["implementation"]
            peers[key][name] = max(g, peers[key].get(name, 0.0))
    out = {}
    for key, g in u8x.items():
        if not peers[key]:
            continue
        # simdutf 9.1 first: on a tie it is the one named.
        names = sorted(peers[key], key=lambda n: (n != row.simdutf91, n))
        best = max(names, key=lambda n: peers[key][n])
        out[key] = (g, peers[key][best], best, peers[key].get(row.simdutf91))
    return out


def ratio_text(x):
    return f"{x:.3f}x" if x < 0.1 else f"{x:.2f}x"


def gbps_text(g):
    if g < 10:
        return f"{g:.2f}"
    if g < 100:
        return f"{g:.1f}"
    return f"{g:.0f}"


def span(values, fmt):
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def column_cell(row_cells, inputs):
    chosen = [v for (inp, _), v in row_cells.items() if inp in inputs]
    if not chosen:
        return ""
    ratios = [g / best for g, best, _, _ in chosen]
    return (span(ratios, ratio_text) + " ("
            + span([g for g, _, _, _ in chosen], gbps_text) + ")")


def worst_cell(row_cells):
    (inp, align), (g, best, peer, _) = min(
        row_cells.items(), key=lambda kv: (kv[1][0] / kv[1][1], kv[0]))
    return f"{ratio_text(g / best)} {inp} {align}: {gbps_text(g)} vs {peer} {gbps_text(best)}"


def misses(records, below=1.0):
    """[(ratio, line)] of every cell under `below` times its best peer,
    worst first."""
    out = []
    for row in ROWS:
        for (inp, align), (g, best, peer, _) in cells(row, records).items():
            if g < below * best:
                out.append((g / best, f"{ratio_text(g / best):>7} {row.label} | "
                            f"{inp} {align}: u8x {gbps_text(g)} GB/s vs "
                            f"{peer} {gbps_text(best)}"))
    return sorted(out)


def run_identity(records):
    """The run columns, joined over the files where they differ."""
    def values(col):
        return ", ".join(sorted({r[col] for r in records}))
    return {c: values(c) for c in (
        "cpu", "cpu_family_model", "u8x_tier", "simdutf91_kernel", "date",
        "commit", "rounds", "round_ms")}


def markdown(records, sources, label):
    ident = run_identity(records)
    lines = [
        f"<!-- Generated by benches/summary.py from {', '.join(sources)}: "
        "do not edit by hand; rerun benches/record.sh. -->",
        "",
        f"**{label or ident['cpu']}** (\"{ident['cpu']}\", "
        f"{ident['cpu_family_model']}): u8x tier `{ident['u8x_tier']}`, "
        f"simdutf 9.1 kernel `{ident['simdutf91_kernel']}`; "
        f"{ident['date']}, commit {ident['commit']}; best of "
        f"{ident['rounds']} rounds of {ident['round_ms']} ms.",
        "",
        "Each cell: u8x / best peer, the range over the column's inputs and "
        "both alignments (u8x GB/s).",
        "",
        "| operation | " + " | ".join(c for c, _ in COLUMNS) + " | worst cell |",
        "| --- |" + " ---: |" * len(COLUMNS) + " --- |",
    ]
    for row in ROWS:
        rc = cells(row, records)
        if not rc:
            continue
        lines.append("| " + " | ".join(
            [row.label] + [column_cell(rc, inputs) for _, inputs in COLUMNS]
            + [worst_cell(rc)]) + " |")
    return "\n".join(lines) + "\n"


def chart_rows(records):
    """[(label, min, median, max)] of u8x / simdutf 9.1 per operation."""
    out = []
    for row in ROWS:
        ratios = [g / sd for g, _, _, sd in cells(row, records).values() if sd]
        if ratios:
            out.append((row.label, min(ratios), statistics.median(ratios),
                        max(ratios)))
    return out


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(records, sources, label):
    """Ratio bars on a log scale: the range over inputs and alignments, a
    dot at the median, a line at 1.0x. Opaque white, so that it reads the
    same on a light or dark page."""
    data = chart_rows(records)
    if not data:
        sys.exit("summary.py: no operation has a simdutf 9.1 column")
    ident = run_identity(records)
    lo = min(0.5, 2 ** math.floor(math.log2(min(d[1] for d in data))))
    hi = max(2.0, 2 ** math.ceil(math.log2(max(d[3] for d in data))))
    left, right, top, step = 250, 230, 96, 30
    plot = 420
    width = left + plot + right
    height = top + step * len(data) + 48

    def x(r):
        return left + plot * (math.log2(r) - math.log2(lo)) / (
            math.log2(hi) - math.log2(lo))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="Helvetica, Arial, sans-serif" font-size="13">',
        f"<!-- Generated by benches/summary.py from {esc(', '.join(sources))}: "
        "do not edit by hand; rerun benches/record.sh. -->",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="12" y="24" font-size="16" font-weight="bold" '
        f'fill="#111111">u8x / simdutf 9.1, {esc(label or ident["cpu"])}</text>',
        f'<text x="12" y="44" fill="#444444">u8x tier {esc(ident["u8x_tier"])}'
        f', simdutf 9.1 kernel {esc(ident["simdutf91_kernel"])}; '
        f'{esc(ident["date"])}, commit {esc(ident["commit"])}.</text>',
        '<text x="12" y="62" fill="#444444">Bar: the range over inputs and '
        'both alignments; dot: the median; red: some cell below 0.95x.</text>',
    ]
    bottom = top + step * len(data)
    # The parity band (0.95x-1.05x: noise) and the grid at powers of two.
    out.append(f'<rect x="{x(0.95):.1f}" y="{top - 8}" '
               f'width="{x(1.05) - x(0.95):.1f}" height="{bottom - top + 8}" '
               'fill="#eeeeee"/>')
    r = lo
    while r <= hi * 1.0001:
        xx = x(r)
        out.append(f'<line x1="{xx:.1f}" y1="{top - 8}" x2="{xx:.1f}" '
                   f'y2="{bottom}" stroke="#dddddd"/>')
        out.append(f'<text x="{xx:.1f}" y="{bottom + 18}" text-anchor="middle" '
                   f'fill="#444444">{r:g}x</text>')
        r *= 2
    out.append(f'<line x1="{x(1):.1f}" y1="{top - 14}" x2="{x(1):.1f}" '
               f'y2="{bottom}" stroke="#111111" stroke-width="2"/>')
    out.append(f'<text x="{x(1):.1f}" y="{top - 18}" text-anchor="middle" '
               'fill="#111111">1.0x = parity</text>')
    for i, (name, rmin, rmed, rmax) in enumerate(data):
        y = top + step * i + step / 2
        colour = "#2f6db5" if rmin >= 0.95 else "#c0392b"
        out.append(f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end" '
                   f'fill="#111111">{esc(name)}</text>')
        out.append(f'<rect x="{x(rmin):.1f}" y="{y - 7:.1f}" '
                   f'width="{max(x(rmax) - x(rmin), 2):.1f}" height="14" '
                   f'rx="3" fill="{colour}" fill-opacity="0.35" '
                   f'stroke="{colour}"/>')
        out.append(f'<circle cx="{x(rmed):.1f}" cy="{y:.1f}" r="4.5" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{left + plot + 12}" y="{y + 4:.1f}" '
                   f'fill="#111111">{esc(span([rmin, rmax], ratio_text))}'
                   f', median {ratio_text(rmed)}</text>')
    out.append(f'<text x="12" y="{height - 10}" fill="#444444">Grey band: '
               '0.95x-1.05x, parity within noise. Log scale.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def splice(path, name, text):
    begin = f"<!-- begin generated: {name} -->"
    end = f"<!-- end generated: {name} -->"
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    a, b = doc.find(begin), doc.find(end)
    if a < 0 or b < a:
        sys.exit(f"summary.py: {path} has no '{begin}' ... '{end}' block")
    doc = doc[:a + len(begin)] + "\n" + text + doc[b:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", nargs="+", help="CSV files from --csv")
    p.add_argument("--label", help="the CPU kind, e.g. 'AMD EPYC Zen 3'")
    p.add_argument("--markdown", help="write the table to this file")
    p.add_argument("--svg", help="write the chart to this file")
    p.add_argument("--into", help="splice the table into this file")
    p.add_argument("--name", help="the generated block's name for --into")
    p.add_argument("--misses", nargs="?", const=1.0, type=float,
                   metavar="BELOW", help="list the cells below BELOW "
                   "(default 1.0) times the best peer, worst first")
    a = p.parse_args(argv)
    records = read_rows(a.csv)
    if a.misses is not None:
        found = misses(records, a.misses)
        ident = run_identity(records)
        print(f"{len(found)} cells below {a.misses:g}x the best peer "
              f"({ident['cpu']}, {ident['cpu_family_model']}, u8x tier "
              f"{ident['u8x_tier']}, commit {ident['commit']}):")
        for _, line in found:
            print(line)
        return
    table = markdown(records, a.csv, a.label)
    if a.markdown:
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write(table)
    if a.into:
        if not a.name:
            p.error("--into needs --name")
        splice(a.into, a.name, table)
    if not (a.markdown or a.into):
        sys.stdout.write(table)
    if a.svg:
        with open(a.svg, "w", encoding="utf-8") as f:
            f.write(svg(records, a.csv, a.label))


if __name__ == "__main__":
    main()
