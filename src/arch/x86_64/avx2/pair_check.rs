//! Validating text of ASCII and 2-byte characters only, with fewer
//! operations than the general check.
//!
//! Text in Cyrillic, Greek, Hebrew or Arabic script, and Latin text with
//! accents, has no byte at or above 0xE0. There, a block is valid exactly
//! when every byte is ASCII, a continuation (0x80-0xBF) or a 2-byte lead
//! (0xC2-0xDF), and the continuations are exactly the bytes right after a
//! lead. That is two compares for the leads, one for the continuations,
//! and the lead mask moved one byte on: about half the work of the general
//! check (`check_block`), and no branch on whether a block is ASCII, which
//! text with scattered accents makes unpredictable.
//!
//! The test only certifies: a block it rejects is checked again by the
//! general check, which places the error or passes the block (it holds
//! 3- or 4-byte characters, or continues one from the block before: a
//! continuation there follows a byte that is not a 2-byte lead, so the
//! test rejects it).

use core::arch::x86_64::*;

use crate::arch::generic::utf8::FOURS_ZERO;

/// Bytes that are 2-byte leads (0xC2-0xDF), as all-ones bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn leads2(block: __m256i) -> __m256i {
    // Adding 0xBE takes 0xC2-0xDF to 0x80-0x9D, the bottom of the signed
    // range (-128..=-99), and every other byte above it.
    let moved = _mm256_add_epi8(block, _mm256_set1_epi8(0xBEu8 as i8));
    _mm256_cmpgt_epi8(_mm256_set1_epi8(-98), moved)
}

/// For `block` and the 2-byte lead mask of the block before it: bytes
/// with the high bit set where the block is not ASCII-and-pairs text (see
/// the module docs), and the block's own lead mask.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn pair_errors(block: __m256i, leads_before: __m256i) -> (__m256i, __m256i) {
    let leads = leads2(block);
    // As signed bytes, continuations are below -64.
    let continuations = _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), block);
    // Each byte's predecessor's lead flag.
    let joined = _mm256_permute2x128_si256::<0x21>(leads_before, leads);
    let after_lead = _mm256_alignr_epi8::<15>(leads, joined);
    // A continuation without a lead before it, or a lead without one
    // after it; any other byte at or above 0x80 (0xC0, 0xC1, 0xE0-0xFF).
    let unpaired = _mm256_xor_si256(after_lead, continuations);
    let stray = _mm256_andnot_si256(_mm256_or_si256(leads, continuations), block);
    (_mm256_or_si256(unpaired, stray), leads)
}

/// Whether no byte of `a` or `b` is 0xE0 or above (the blocks may be
/// ASCII-and-pairs text).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn below_e0(a: __m256i, b: __m256i) -> bool {
    let over = _mm256_subs_epu8(_mm256_max_epu8(a, b), _mm256_set1_epi8(0xDFu8 as i8));
    _mm256_testz_si256(over, over) != 0
}

/// What a pair run counted (with `COUNT`): its characters (one for each
/// byte but the continuations, which are as many as the leads), and the
/// largest byte of each lane.
pub(super) struct PairCounts {
    pub chars: usize,
    pub max: __m256i,
}

/// Certifies 128-byte steps of `src` from `i` (`prev` the block before
/// them, already checked) while they pass the pair test. Returns where it
/// stopped and the block before that: at a step the test rejects (for the
/// general check), after 4 steps without a lead in every other block
/// (likely an ASCII run, which the general loop skips faster; a wrong
/// guess only costs a few steps there), or with fewer than 128 bytes
/// left. With `COUNT`, also what classification needs of the steps it
/// certified. With `FOURS_ZERO`, a step with a 00 byte is rejected too
/// (Modified UTF-8's stop; the other stops, 4-byte leads, are rejected
/// anyway).
///
/// # Safety
/// The CPU must support the enabled features.
#[inline(never)]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn pairs_run<const COUNT: bool, const STOPS: u8>(
    src: &[u8],
    mut i: usize,
    mut prev: __m256i,
) -> (usize, __m256i, PairCounts) {
    let (ptr, len) = (src.as_ptr(), src.len());
    let first_prev = prev;
    let mut leads = leads2(prev);
    // The leads of every other block ORed together, and the steps so far.
    let (mut seen, mut steps) = (_mm256_setzero_si256(), 0);
    let mut counts = PairCounts {
        chars: 0,
        max: _mm256_setzero_si256(),
    };
    // The byte before the run is the last of `prev`, which the general
    // check passed without its next byte: a C0 or C1 there (an overlong
    // lead, flagged only at the byte after it) is left to that check.
    if i > 0 && src.get(i - 1).is_some_and(|&b| b & 0xFE == 0xC0) {
        return (i, prev, counts);
    }
    while len - i >= 128 {
        // SAFETY: bytes i..i+128 are in bounds.
        let [a, b, c, d] =
            unsafe { [0, 32, 64, 96].map(|o| _mm256_loadu_si256(ptr.add(i + o).cast())) };
        let (err_a, leads_a) = pair_errors(a, leads);
        let (err_b, leads_b) = pair_errors(b, leads_a);
        let (err_c, leads_c) = pair_errors(c, leads_b);
        let (err_d, leads_d) = pair_errors(d, leads_c);
        let mut err = _mm256_or_si256(_mm256_or_si256(err_a, err_b), _mm256_or_si256(err_c, err_d));
        if STOPS == FOURS_ZERO {
            let low = _mm256_min_epu8(_mm256_min_epu8(a, b), _mm256_min_epu8(c, d));
            err = _mm256_or_si256(err, _mm256_cmpeq_epi8(low, _mm256_setzero_si256()));
        }
        if _mm256_testz_si256(err, _mm256_set1_epi8(-128)) == 0 {
            break;
        }
        if COUNT {
            let n = |v: __m256i| (_mm256_movemask_epi8(v) as u32).count_ones() as usize;
            // Less the leads: a lead's continuation is the byte after it,
            // in this step or the next (settled below).
            counts.chars += 128 - (n(leads_a) + n(leads_b) + n(leads_c) + n(leads_d));
            let max = _mm256_max_epu8(_mm256_max_epu8(a, b), _mm256_max_epu8(c, d));
            counts.max = _mm256_max_epu8(counts.max, max);
        }
        (i, prev, leads) = (i + 128, d, leads_d);
        seen = _mm256_or_si256(seen, _mm256_or_si256(leads_b, leads_d));
        steps += 1;
        if steps == 4 {
            if _mm256_testz_si256(seen, seen) != 0 {
                break;
            }
            (seen, steps) = (_mm256_setzero_si256(), 0);
        }
    }
    if COUNT {
        // The continuation of a lead before the run lies in it; that of a
        // lead in its last byte does not.
        let last = |v: __m256i| (_mm256_movemask_epi8(v) as u32 >> 31) as usize;
        counts.chars = counts.chars + last(leads) - last(leads2(first_prev));
    }
    (i, prev, counts)
}
