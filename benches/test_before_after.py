"""benches/before_after.py on small outputs of each bench, written out
below, whose changes are worked out by hand. Run by tests/bench_summary.rs,
or alone: python3 -m unittest benches/test_before_after.py"""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import before_after as ba  # noqa: E402

COMPARE = """u8x side-by-side benchmark
== Validation (UTF-8 -> verdict) [validate] GB/s ==
  input             size  align    u8x avx2  simdutf 9.1    std  u8x avx2/peer
  -------------------------------------------------------------------------
  Arabic        79.8 KiB  aligned     {a}       10.00   2.00   {r}x
"""

FORMS = """u8x tier avx2, simdutf 9.1 haswell; GB/s of UTF-8; ratio = u8x / simdutf 9.1

operation                    input          align      u8x     peer   ratio
utf16le->utf8 strict         Chinese          +16    {a}    10.00   {r}x  (convert_utf16le_to_utf8)
"""

DIALECTS = """tier Avx2

## validation, the dialect against RFC 3629 on the same bytes (GB/s)

| text | standard | legacy | CESU-8 | MUTF-8 | WTF-8 | generalized | worst ratio |
|---|---|---|---|---|---|---|---|
| Latin | {a} | 30.00 | 30.00 | 30.00 | 30.00 | 30.00 | 0.97x |
"""

SHORT = """u8x tier forced: Avx2
short strings: ns per call (best of 15 rounds of 4096 strings)

Latin-Lipsum.utf8.txt
bytes                     0      1
u8x validate            {a}    2.0
simdutf9 validate       4.0    4.0
"""


def write(directory, name, text):
    with open(os.path.join(directory, name), "w") as f:
        f.write(text)


class BeforeAfter(unittest.TestCase):
    def test_parsers_read_the_u8x_figure_and_ratio(self):
        self.assertEqual(
            ba.parse_compare(COMPARE.format(a="20.00", r="2.00")),
            {("validate", "Arabic", "aligned"): (20.0, 2.0)},
        )
        self.assertEqual(
            ba.parse_forms(FORMS.format(a="15.00", r="1.50")),
            {("utf16le->utf8 strict", "Chinese", "+16"): (15.0, 1.5)},
        )
        rows = ba.parse_dialects(DIALECTS.format(a="31.00"))
        self.assertEqual(rows[("validation, the dialect against RFC 3629 on the same bytes", "Latin", "standard")], (31.0, None))
        self.assertEqual(len(rows), 6)
        short = ba.parse_short(SHORT.format(a="2.0"))
        # 1/ns, and simdutf's ns over u8x's: 4.0 / 2.0.
        self.assertEqual(short[("Latin-Lipsum.utf8.txt", "validate", "0 B")], (0.5, 2.0))

    def test_a_row_is_slower_only_when_both_measures_are(self):
        with tempfile.TemporaryDirectory() as d:
            # Arabic: u8x 20 -> 16 GB/s (raw 0.80), its ratio 2.0 -> 1.6
            # (rel 0.80): slower. Chinese: u8x 15 -> 12 (raw 0.80) but the
            # peer slowed as much, ratio 1.5 -> 1.5 (rel 1.00): drift, not
            # slower.
            write(d, "before-avx2-compare-1.txt", COMPARE.format(a="20.00", r="2.00"))
            write(d, "after-avx2-compare-1.txt", COMPARE.format(a="16.00", r="1.60"))
            write(d, "before-avx2-forms-1.txt", FORMS.format(a="15.00", r="1.50"))
            write(d, "after-avx2-forms-1.txt", FORMS.format(a="12.00", r="1.50"))
            # A second pass: the best figure of each row counts, so the
            # after run's 20.00 (raw 1.00) makes Arabic a tie.
            write(d, "after-avx2-compare-2.txt", COMPARE.format(a="20.00", r="2.00"))
            result = ba.compare(ba.load(d), 0.10)
            compare = result[("avx2", "compare")]
            self.assertEqual([round(ba.measure(c), 2) for c in compare], [1.0])
            forms = result[("avx2", "forms")]
            self.assertEqual([round(ba.measure(c), 2) for c in forms], [1.0])
            write(d, "after-avx2-compare-2.txt", COMPARE.format(a="16.00", r="1.60"))
            compare = ba.compare(ba.load(d), 0.10)[("avx2", "compare")]
            self.assertEqual([round(ba.measure(c), 2) for c in compare], [0.8])

    def test_dialects_have_no_peer_and_are_judged_raw(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "before-scalar-dialects-1.txt", DIALECTS.format(a="30.00"))
            write(d, "after-scalar-dialects-1.txt", DIALECTS.format(a="24.00"))
            changes = ba.compare(ba.load(d), 0.10)[("scalar", "dialects")]
            standard = [c for c in changes if c[0][2] == "standard"]
            self.assertEqual([round(ba.measure(c), 2) for c in standard], [0.8])


if __name__ == "__main__":
    unittest.main()
