//! Validating text of ASCII and 2-byte characters only, four blocks at once.
//!
//! The test of the AVX2 tier's `pair_check`: text with no byte at or above
//! 0xE0 is valid exactly when every byte above 0x7F is a 2-byte lead
//! (0xC2-0xDF) or a continuation (0x80-0xBF), and the continuations are
//! exactly the bytes right after a lead. Each block is set beside its copy
//! shifted by one byte, and bit 7 of a few byte operations carries the
//! test ([`group_passes`]): four operations a block, against the general
//! check's three table lookups and three shifted copies (`check_block`).
//! An earlier form on 64-bit masks (compares into mask registers, shifts
//! and XORs in general registers) ran Russian text at 28.6 GB/s on AMD
//! Zen 4, this one at 39.9.
//!
//! The test only certifies: a group it rejects is checked again by the
//! general check, which places the error or passes the group (3- or
//! 4-byte characters, or one continued from the block before: its
//! continuation follows a byte that is not a 2-byte lead, which the test
//! rejects).

use core::arch::x86_64::*;

/// Whether every byte of the four blocks is below 0xE0.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn below_e0([a, b, c, d]: [__m512i; 4]) -> bool {
    let max = _mm512_max_epu8(_mm512_max_epu8(a, b), _mm512_max_epu8(c, d));
    _mm512_cmpge_epu8_mask(max, _mm512_set1_epi8(0xE0u8 as i8)) == 0
}

/// Certifies 256-byte groups of `src` from `i` (`prev` the block before
/// them, already checked) while they pass the pair test ([`group_passes`];
/// with Modified UTF-8's `STOPS`, a group with a 00 fails it; CESU-8's,
/// 4-byte leads, are above the test's E0 anyway). Returns where it stopped
/// and the block before that: at a group the test rejects (for the general
/// check), after 4 all-ASCII groups in a row (likely an ASCII run, which
/// the general loop skips faster; a wrong guess costs a few groups there),
/// or with fewer than 256 bytes left. With `COUNT`, also the characters
/// that start in the certified groups (their bytes that do not continue)
/// and the starts in the last block as a mask (0 if none was certified).
///
/// # Safety
/// The CPU must support the enabled features.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn pairs_run<const COUNT: bool, const STOPS: u8>(
    src: &[u8],
    mut i: usize,
    mut prev: __m512i,
) -> (usize, __m512i, Starts) {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut quiet = 0;
    let mut starts = Starts { count: 0, last: 0 };
    // The byte before the run is the last of `prev`, which the general
    // check passed without its next byte: a C0 or C1 there (an overlong
    // lead, flagged only at the byte after it) is left to that check.
    if i > 0 && src.get(i - 1).is_some_and(|&b| b & 0xFE == 0xC0) {
        return (i, prev, starts);
    }
    while len - i >= 256 {
        // SAFETY: bytes i..i+256 are in bounds.
        let blocks =
            unsafe { [0, 64, 128, 192].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
        // SAFETY: bytes i..i+256 are in bounds.
        if !below_e0(blocks) || !unsafe { group_passes::<STOPS>(ptr, i, prev, blocks) } {
            break;
        }
        (i, prev) = (i + 256, blocks[3]);
        if COUNT {
            let floor = _mm512_set1_epi8(-64);
            let leads = blocks.map(|block| _mm512_cmpge_epi8_mask(block, floor));
            starts.count += leads.iter().map(|l| l.count_ones() as usize).sum::<usize>();
            starts.last = leads[3];
        }
        let [a, b, c, d] = blocks;
        let high = _mm512_movepi8_mask(_mm512_ternarylogic_epi32::<0xFE>(
            a,
            b,
            _mm512_or_si512(c, d),
        ));
        quiet = if high == 0 { quiet + 1 } else { 0 };
        if quiet == 4 {
            break;
        }
    }
    (i, prev, starts)
}

/// What [`pairs_run`] counts: the characters that start in the groups it
/// certified, and where they start in the last block.
pub(super) struct Starts {
    pub(super) count: usize,
    pub(super) last: u64,
}

/// The pair test of a group, on vectors rather than masks: whether the
/// four blocks (all below 0xE0, see [`below_e0`]) pass it, given the byte
/// before them (the last of `prev`). `STOPS` with 00 fails a group that
/// holds one.
///
/// Each block is set beside itself shifted by one byte (`before`: the
/// byte before each byte), and bit 7 carries the test: a byte is a
/// continuation (10xxxxxx: bit 7 and not bit 6) exactly when the byte
/// before it is a lead (11xxxxxx below 0xE0: bits 7 and 6), and no byte is
/// C0 or C1. Four operations a block and no mask moved to a general
/// register (the earlier mask form kept AMD Zen 4's integer units busy).
///
/// # Safety
/// Bytes `i..i + 256` of `ptr` are readable.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(super) unsafe fn group_passes<const STOPS: u8>(
    ptr: *const u8,
    i: usize,
    prev: __m512i,
    blocks: [__m512i; 4],
) -> bool {
    let [a, b, c, d] = blocks;
    // Byte j of `first_before` is byte j - 1 of the group (prev's last for
    // j == 0).
    let first_before = _mm512_permutex2var_epi8(prev, super::blocks::SHIFT_1, a);
    // SAFETY: bytes i + 63..i + 255 are readable (the caller's contract);
    // the first block's byte before comes from `prev`.
    let [before_b, before_c, before_d] =
        unsafe { [63, 127, 191].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
    // Bit 7: (continuation) XOR (lead before).
    let mismatch = |x: __m512i, p: __m512i| {
        let lead_before = _mm512_and_si512(p, _mm512_add_epi8(p, p));
        // (x AND NOT 2x) XOR lead_before.
        _mm512_ternarylogic_epi32::<0x9A>(x, _mm512_add_epi8(x, x), lead_before)
    };
    // Zero exactly at C0 and C1: (x AND FE) XOR C0.
    let c0_c1 = |x: __m512i| {
        _mm512_ternarylogic_epi32::<0x6A>(
            x,
            _mm512_set1_epi8(0xFEu8 as i8),
            _mm512_set1_epi8(0xC0u8 as i8),
        )
    };
    let mismatches = _mm512_ternarylogic_epi32::<0xFE>(
        mismatch(a, first_before),
        mismatch(b, before_b),
        _mm512_or_si512(mismatch(c, before_c), mismatch(d, before_d)),
    );
    let mut low = _mm512_min_epu8(
        _mm512_min_epu8(c0_c1(a), c0_c1(b)),
        _mm512_min_epu8(c0_c1(c), c0_c1(d)),
    );
    if STOPS == crate::arch::generic::utf8::FOURS_ZERO {
        low = _mm512_min_epu8(
            low,
            _mm512_min_epu8(_mm512_min_epu8(a, b), _mm512_min_epu8(c, d)),
        );
    }
    _mm512_movepi8_mask(mismatches) == 0 && _mm512_testn_epi8_mask(low, low) == 0
}
