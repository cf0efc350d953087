//! Decoding a block four characters per 128-bit lane, for text whose
//! characters average two bytes or more.
//!
//! When no 8 consecutive positions (of the block's four groups of 8) lead
//! more than 4 characters, each group fits in one 128-bit lane: a PSHUFB
//! indexed by the group's lead mask copies into lane `c` the 4 bytes that
//! start at its `c`-th lead, and [`assemble`] turns all 8 lanes (two
//! groups) into code points at once. Each half then gets its own 16-byte
//! store, the second right after the first half's characters. Against
//! computing a value at every position and packing the leads' (`emit`),
//! this takes half the vector work; it needs 4 lanes of slack after the
//! block's output, which the caller provides on the hot path.

use core::arch::x86_64::*;

use super::super::lanes::assemble;

/// For each 8-bit lead mask with at most 4 bits set, the PSHUFB index that
/// gives 32-bit lane `c` the 4 bytes starting at the `c`-th lead, lead
/// lowest, from the 16 bytes that start at the group. Unused lanes, and
/// the rows of masks with more than 4 bits, are zeroed.
static FOUR_LEADS: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut j, mut c) = (0, 0);
        while j < 8 {
            if mask & (1 << j) != 0 && c < 4 {
                let mut k = 0;
                while k < 4 {
                    table[mask][4 * c + k] = (j + k) as u8;
                    k += 1;
                }
                c += 1;
            }
            j += 1;
        }
        mask += 1;
    }
    table
};

/// Whether every 8-position group of `leads` has at most 4 bits set.
#[inline]
pub(super) fn fits(leads: u32) -> bool {
    let count = |g: u32| ((leads >> (8 * g)) as u8).count_ones() + 3;
    (count(0) | count(1) | count(2) | count(3)) < 8
}

/// Code points for two groups: the lower 128-bit lane from the 16 bytes at
/// `low` with lead mask `low_leads`, the upper from `high`, `high_leads`.
///
/// # Safety
/// `low` and `high` point to 16 readable bytes each.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn two_groups(low: *const u8, high: *const u8, low_leads: u8, high_leads: u8) -> __m256i {
    // SAFETY: 16 readable bytes at each; the table rows are in bounds.
    let (data, index) = unsafe {
        (
            _mm256_loadu2_m128i(high.cast(), low.cast()),
            _mm256_loadu2_m128i(
                FOUR_LEADS[high_leads as usize].as_ptr().cast(),
                FOUR_LEADS[low_leads as usize].as_ptr().cast(),
            ),
        )
    };
    assemble(_mm256_shuffle_epi8(data, index))
}

/// Stores the two halves of `v`, `first` characters in the lower one,
/// back to back at `out`. Returns `out` past both halves' characters.
///
/// # Safety
/// `out` has room for `first + second` code points and 4 more.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_halves(out: *mut u32, v: __m256i, first: usize, second: usize) -> *mut u32 {
    // SAFETY: each store writes 4 lanes, which lie inside the room (the
    // second one starts after `first`); the lower half's extra lanes are
    // overwritten by the upper half.
    unsafe {
        _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(v));
        _mm_storeu_si128(out.add(first).cast(), _mm256_extracti128_si256::<1>(v));
        out.add(first + second)
    }
}

/// Writes the characters led at the set bits of `leads`, a mask over the
/// 32 bytes at `window` for which [`fits`] holds. Returns how many. Up to
/// 4 code points after them are overwritten with junk.
///
/// # Safety
/// `window` points to 48 readable bytes and the characters are
/// well-formed; `out` has room for `leads.count_ones()` code points and 4
/// more.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(super) unsafe fn emit_quads(window: *const u8, leads: u32, out: *mut u32) -> usize {
    let group = |g: u32| (leads >> (8 * g)) as u8;
    let count = |g: u32| group(g).count_ones() as usize;
    // SAFETY: the groups start at 0, 8, 16 and 24, and read 16 bytes each
    // (at most 40 <= 48); the stores stay in the room (n + 4).
    unsafe {
        let front = two_groups(window, window.add(8), group(0), group(1));
        let back = two_groups(window.add(16), window.add(24), group(2), group(3));
        let next = store_halves(out, front, count(0), count(1));
        store_halves(next, back, count(2), count(3));
    }
    leads.count_ones() as usize
}
