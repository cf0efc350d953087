//! Decoding a block of 1- and 2-byte characters without a lookup per
//! character.
//!
//! Every position gets, at once, the 16-bit code point it would start if
//! it led a character (from its byte and the next one: both in one 16-bit
//! lane after an unpack). Then, 8 positions at a time, one PSHUFB indexed
//! by those positions' lead bits packs the leads' values to the front, and
//! they are widened to 32 bits and stored. A group's store writes a whole
//! vector when 8 lanes fit before the end of the block's output (the next
//! groups overwrite the extra lanes), else exactly its own lanes.

use core::arch::x86_64::*;

use super::super::lanes::store_lanes;
use super::window::Window;

/// Stores the first `n` lanes of `v` at `out`, `left` code points (n or
/// more) before the end of the output being written: with one whole-vector
/// store when 8 fit there (the extra lanes are overwritten afterwards).
///
/// # Safety
/// `out` has room for `left` code points; `n <= left`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_group(out: *mut u32, v: __m256i, n: usize, left: usize) {
    // SAFETY: 8 <= left, or exactly n lanes.
    unsafe { store_lanes(out, v, if left >= 8 { 8 } else { n }) }
}

/// For each 8-bit mask, a PSHUFB index packing the 16-bit lanes whose bit
/// is set to the front.
static PACK16: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut n) = (0, 0);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                table[mask][2 * n] = 2 * lane as u8;
                table[mask][2 * n + 1] = 2 * lane as u8 + 1;
                n += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// 16-bit code points for each position of 16-bit lanes `x << 8 | y`
/// (`x` the byte there, `y` the next one), as if `x` led a character of at
/// most 2 bytes.
#[target_feature(enable = "avx2")]
#[inline]
fn pair_values(t: __m256i) -> __m256i {
    let two = _mm256_or_si256(
        _mm256_srli_epi16::<2>(_mm256_and_si256(t, _mm256_set1_epi16(0x1F00))),
        _mm256_and_si256(t, _mm256_set1_epi16(0x3F)),
    );
    let ascii = _mm256_cmpgt_epi16(t, _mm256_set1_epi16(-1));
    _mm256_blendv_epi8(two, _mm256_srli_epi16::<8>(t), ascii)
}

/// `emit` (in `utf8`) for a block of 1- and 2-byte characters: every position's
/// 16-bit value at once (from it and the next byte), then per 8 positions
/// one PSHUFB that packs the leads' values to the front and a widening
/// store.
///
/// # Safety
/// `window` is registers or points to 48 readable bytes, and no byte of its first 32 is
/// 0xE0 or above; `out` has room for `leads.count_ones()` code points, and
/// with `slack` (see `emit`) for 7 more and a lead among positions 24-31
/// (so the last group's extra lanes are at most 7).
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(super) unsafe fn emit_two(
    window: impl Window,
    leads: u32,
    out: *mut u32,
    slack: bool,
) -> usize {
    // SAFETY: the caller's promise for the window.
    let (x, y) = unsafe { window.pairs() };
    // Positions 0-7 and 16-23, then 8-15 and 24-31.
    let lo = pair_values(_mm256_unpacklo_epi8(y, x));
    let hi = pair_values(_mm256_unpackhi_epi8(y, x));
    let groups = [
        _mm256_castsi256_si128(lo),
        _mm256_castsi256_si128(hi),
        _mm256_extracti128_si256::<1>(lo),
        _mm256_extracti128_si256::<1>(hi),
    ];
    let total = leads.count_ones() as usize;
    let mut written = 0;
    for (g, values) in groups.into_iter().enumerate() {
        let mask = (leads >> (8 * g)) as u8;
        // SAFETY: the index is a valid row of the table.
        let pack = unsafe { _mm_loadu_si128(PACK16[mask as usize].as_ptr().cast()) };
        let n = mask.count_ones() as usize;
        let wide = _mm256_cvtepu16_epi32(_mm_shuffle_epi8(values, pack));
        let left = if slack { 8 } else { total - written };
        // SAFETY: these n are among the leads.count_ones() that fit; a
        // whole-vector store stays inside that output (or the slack), and
        // the groups after this one (or the caller) overwrite its extra
        // lanes.
        unsafe { store_group(out.add(written), wide, n, left) };
        written += n;
    }
    written
}
