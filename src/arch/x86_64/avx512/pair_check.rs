//! Validating text of ASCII and 2-byte characters only, with byte masks.
//!
//! The test of the AVX2 tier's `pair_check`: text with no byte at or above
//! 0xE0 is valid exactly when every byte above 0x7F is a 2-byte lead
//! (0xC2-0xDF) or a continuation (0x80-0xBF), and the continuations are
//! exactly the bytes right after a lead. Here the leads, continuations and
//! high bits of a 64-byte block are three 64-bit masks, and the rest is
//! integer arithmetic on them: the lead mask shifted by one (the block
//! before supplying bit 0) must equal the continuation mask, and no high
//! bit may lie outside both. Against the general check (`check_block`,
//! three table lookups and four shifted copies of the block per 64 bytes)
//! this is three compares.
//!
//! The test only certifies: a group it rejects is checked again by the
//! general check, which places the error or passes the group (3- or
//! 4-byte characters, or one continued from the block before: its
//! continuation follows a byte that is not a 2-byte lead, which the test
//! rejects).

use core::arch::x86_64::*;

/// The masks of 2-byte leads and of continuations in `block`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn leads_and_continuations(block: __m512i) -> (u64, u64) {
    // 0xC2-0xDF less 0xC2 are 0x00-0x1D; every other byte wraps above.
    let leads = _mm512_cmplt_epu8_mask(
        _mm512_sub_epi8(block, _mm512_set1_epi8(0xC2u8 as i8)),
        _mm512_set1_epi8(0x1E),
    );
    // As signed bytes, continuations are below -64.
    let continuations = _mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(-64));
    (leads, continuations)
}

/// Whether every byte of the four blocks is below 0xE0.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn below_e0([a, b, c, d]: [__m512i; 4]) -> bool {
    let max = _mm512_max_epu8(_mm512_max_epu8(a, b), _mm512_max_epu8(c, d));
    _mm512_cmpge_epu8_mask(max, _mm512_set1_epi8(0xE0u8 as i8)) == 0
}

/// Certifies 256-byte groups of `src` from `i` (`prev` the block before
/// them, already checked) while they pass the pair test (and, with
/// Modified UTF-8's `STOPS`, hold no 00; CESU-8's, 4-byte leads, are above
/// the test's E0 anyway). Returns where it
/// stopped and the block before that: at a group the test rejects (for
/// the general check), after 4 groups in a row whose last blocks had no
/// lead (likely an ASCII run, which the general loop skips faster; a wrong
/// guess costs a few groups there), or with fewer than 256 bytes left.
///
/// # Safety
/// The CPU must support the enabled features.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn pairs_run<const STOPS: u8>(
    src: &[u8],
    mut i: usize,
    mut prev: __m512i,
) -> (usize, __m512i) {
    let (ptr, len) = (src.as_ptr(), src.len());
    // Bit 63: whether the byte before the group is a 2-byte lead.
    let mut carry = leads_and_continuations(prev).0 >> 63;
    let mut quiet = 0;
    while len - i >= 256 {
        // SAFETY: bytes i..i+256 are in bounds.
        let blocks =
            unsafe { [0, 64, 128, 192].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
        let (mut errors, mut next_carry, mut last_leads) = (0u64, carry, 0u64);
        for block in blocks {
            let (leads, continuations) = leads_and_continuations(block);
            let high = _mm512_movepi8_mask(block);
            let after_lead = (leads << 1) | next_carry;
            errors |= (after_lead ^ continuations) | (high & !(leads | continuations));
            (next_carry, last_leads) = (leads >> 63, leads);
        }
        if STOPS == super::utf8::FOURS_ZERO {
            // Modified UTF-8: 00 is not valid either. One test a group: a
            // mask a block, moved to a general register, cost 35%.
            let [a, b, c, d] = blocks;
            let low = _mm512_min_epu8(_mm512_min_epu8(a, b), _mm512_min_epu8(c, d));
            errors |= _mm512_testn_epi8_mask(low, low);
        }
        if errors != 0 {
            break;
        }
        (i, prev, carry) = (i + 256, blocks[3], next_carry);
        quiet = if last_leads == 0 { quiet + 1 } else { 0 };
        if quiet == 4 {
            break;
        }
    }
    (i, prev)
}
