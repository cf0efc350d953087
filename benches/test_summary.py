"""benches/summary.py on tests/data/bench-summary.csv, whose ratios are
worked out by hand in the comments below. Run by tests/bench_summary.rs,
or alone: python3 -m unittest benches/test_summary.py"""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import summary  # noqa: E402

FIXTURE = os.path.join(HERE, "..", "tests", "data", "bench-summary.csv")


def table_rows(markdown):
    """{operation: [cells]} of the generated table."""
    rows = {}
    for line in markdown.splitlines():
        if line.startswith("| ") and not line.startswith(("| operation", "| ---")):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def column(name):
    return [c for c, _ in summary.COLUMNS].index(name)


class Summary(unittest.TestCase):
    def setUp(self):
        self.records = summary.read_rows([FIXTURE])
        self.rows = table_rows(summary.markdown(self.records, ["f.csv"], "Zen 3"))

    def test_best_peer_is_the_fastest_like_for_like(self):
        # Arabic: aligned 30 / max(20, 25, 5) = 1.20x; +16 18 / max(20, 15)
        # = 0.90x; the scalar tier's 3 is not the u8x column.
        validate = self.rows["Validate UTF-8"]
        self.assertEqual(validate[column("2-byte scripts")], "0.90x-1.20x (18.0-30.0)")
        self.assertEqual(validate[-1], "0.90x Arabic +16: 18.0 vs simdutf 9.1 20.0")
        # The validating count: 40 / 16 (validate+count), not 40 / 100
        # (count_utf8, which does not validate).
        self.assertEqual(self.rows["Count code points (validating)"][column("Emoji")],
                         "2.50x (40.0)")
        # count_valid against the non-validating count: 120 / 100.
        self.assertEqual(self.rows["Count code points (valid input)"][column("Emoji")],
                         "1.20x (120)")

    def test_peers_from_every_operation_of_a_row(self):
        # UTF-16: u8x's 10 from the simdutf row, against encoding_rs's 12.5
        # from the other row: 0.80x.
        cells = self.rows["UTF-8 -> UTF-16"]
        self.assertEqual(cells[column("CJK, Hindi")], "0.80x (10.0)")
        self.assertEqual(cells[-1], "0.80x Chinese aligned: 10.0 vs encoding_rs 12.5")
        # encoding_rs's non-validating Latin-1 decoder is no peer: 10 / 5.
        self.assertEqual(self.rows["UTF-8 -> Latin-1"][column("Mostly ASCII")],
                         "2.00x (10.0)")

    def test_self_ratios_and_empty_rows_left_out(self):
        self.assertNotIn("UCS-4 -> UTF-8", self.rows)
        self.assertEqual(len(self.rows), 5)

    def test_chart_is_against_simdutf_9_1(self):
        chart = {name: (lo, med, hi) for name, lo, med, hi in summary.chart_rows(self.records)}
        # Validate: 30 / 20 = 1.5 and 18 / 20 = 0.9.
        self.assertEqual(chart["Validate UTF-8"], (0.9, 1.2, 1.5))
        self.assertEqual(chart["UTF-8 -> UTF-16"], (1.25, 1.25, 1.25))
        svg = summary.svg(self.records, ["f.csv"], "Zen 3")
        self.assertIn('<rect width="', svg.split("\n")[2])
        self.assertIn("0.90x-1.50x, median 1.20x", svg)
        self.assertIn("do not edit by hand", svg)

    def test_misses_lists_each_cell_below_the_best_peer_worst_first(self):
        # The two cells under 1.0x: UTF-16 Chinese 10 / 12.5 = 0.80x, then
        # validation of Arabic +16 18 / 20 = 0.90x; Arabic aligned (1.20x)
        # is not one.
        lines = [line for _, line in summary.misses(self.records)]
        self.assertEqual(lines, [
            "  0.80x UTF-8 -> UTF-16 | Chinese aligned: u8x 10.0 GB/s vs encoding_rs 12.5",
            "  0.90x Validate UTF-8 | Arabic +16: u8x 18.0 GB/s vs simdutf 9.1 20.0",
        ])
        # A lower bar keeps only the worse one; a higher one adds cells.
        self.assertEqual(len(summary.misses(self.records, 0.85)), 1)
        self.assertGreater(len(summary.misses(self.records, 1.3)), 2)

    def test_simdutf8_is_no_peer_of_the_narrow_tiers(self):
        # simdutf8 runs AVX2 whatever tier u8x is forced to: a peer of the
        # AVX2 run, not of the SSE4.2 one.
        rows = []
        for tier in ("avx2", "sse42"):
            for impl, role, g in (("u8x", "u8x", "10"), ("simdutf8 basic", "peer", "20"),
                                  ("simdutf 9.1", "peer", "8")):
                rows.append(dict(self.records[0], operation="validate", input="Hebrew",
                                 align="aligned", implementation=impl, role=role,
                                 gbps=g, u8x_tier=tier))
        avx2 = [r for r in rows if r["u8x_tier"] == "avx2"]
        sse42 = [r for r in rows if r["u8x_tier"] == "sse42"]
        validate = summary.ROWS[0]
        self.assertEqual(summary.cells(validate, avx2)[("Hebrew", "aligned")][2],
                         "simdutf8 basic")
        self.assertEqual(summary.cells(validate, sse42)[("Hebrew", "aligned")][2],
                         "simdutf 9.1")

    def test_splice_replaces_only_its_block(self):
        with tempfile.TemporaryDirectory() as d:
            doc = os.path.join(d, "B.md")
            with open(doc, "w", encoding="utf-8") as f:
                f.write("before\n<!-- begin generated: zen3 -->\nold\n"
                        "<!-- end generated: zen3 -->\nafter\n")
            summary.main([FIXTURE, "--into", doc, "--name", "zen3"])
            with open(doc, encoding="utf-8") as f:
                text = f.read()
        self.assertTrue(text.startswith("before\n<!-- begin generated: zen3 -->\n<!-- Generated"))
        self.assertNotIn("old", text)
        self.assertTrue(text.endswith("<!-- end generated: zen3 -->\nafter\n"))
        self.assertIn("| UTF-8 -> Latin-1 |", text)


class CommittedTables(unittest.TestCase):
    """Every generated block of BENCHMARKS.md is what summary.py makes of
    the CSV files its comment names: nobody edited it by hand."""

    def test_blocks_match_their_csv(self):
        root = os.path.join(HERE, "..")
        with open(os.path.join(root, "BENCHMARKS.md"), encoding="utf-8") as f:
            doc = f.read()
        blocks = doc.split("<!-- begin generated: ")[1:]
        self.assertTrue(blocks, "BENCHMARKS.md has no generated table")
        for block in blocks:
            name, body = block.split(" -->\n", 1)
            body = body.split(f"<!-- end generated: {name} -->")[0]
            sources = body.split(" from ", 1)[1].split(": do not edit")[0].split(", ")
            records = summary.read_rows([os.path.join(root, s) for s in sources])
            fresh = summary.markdown(records, sources, None)
            self.assertEqual(table_rows(body), table_rows(fresh), name)


if __name__ == "__main__":
    unittest.main()
