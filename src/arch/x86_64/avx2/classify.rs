//! Classification and counting fused into validation: the validator's
//! checks two blocks a step, and for each step that is not all ASCII the
//! counts wanted (characters; for classification also 4-byte leads and the
//! largest byte). ASCII runs only add to the character count: their
//! largest byte does not change the width, which is ASCII unless some
//! other byte says more.
//!
//! At the first step with an error (or an ASCII step after a sequence cut
//! short) the counting stops, and the rest, from the start of the last
//! character begun before it, goes to the validator (classification, whose
//! caller counts what lies between; see `Engine::classify_kernel`) or to
//! the block-at-a-time count, which finds the exact stop (counting).
//!
//! The count runs here rather than block at a time because text with
//! scattered 2-byte characters (`ascii+1%2B`) mispredicts a branch on
//! ASCII at about every other block: two blocks a step, ASCII runs four
//! at a time and the pair test for the rest are what validation does.

use core::arch::x86_64::*;

use crate::arch::generic::utf8::NO_STOPS;

use super::pair_check::{below_e0, pairs_run};
use super::validate::{
    check_block, count_blocks, ends_incomplete, lead_bytes, non_ascii, validate,
};
use crate::contract::{last_start_before, FastStop, Utf8Stats};

/// What [`scan`] counted in `src[..end]`.
struct Scanned {
    end: usize,
    leads: usize,
    fours: usize,
    max: __m256i,
}

/// Validates `src` two blocks a step while it is well-formed, counting the
/// characters that start in what it passes and, with `STATS`, the 4-byte
/// leads and the largest byte. Stops at a step boundary, before the first
/// step with an error or where an ASCII step follows a sequence cut short.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
#[inline]
unsafe fn scan<const STATS: bool>(src: &[u8]) -> Scanned {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut prev = _mm256_setzero_si256();
    let (mut i, mut leads, mut fours) = (0usize, 0usize, 0usize);
    let mut max = _mm256_setzero_si256();
    // Signed, the bytes F0..FF are those above -17 that are not ASCII.
    let above_ef = |v| _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-17))) as u32;
    while len - i >= 64 {
        // SAFETY: bytes i..i+64 are in bounds.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(ptr.add(i).cast()),
                _mm256_loadu_si256(ptr.add(i + 32).cast()),
            )
        };
        let (high_a, high_b) = (non_ascii(a), non_ascii(b));
        if high_a | high_b == 0 {
            if ends_incomplete(prev) {
                break;
            }
            (i, prev, leads) = (i + 64, b, leads + 64);
            while len - i >= 128 {
                // SAFETY: bytes i..i+128 are in bounds.
                let [a, b, c, d] =
                    unsafe { [0, 32, 64, 96].map(|o| _mm256_loadu_si256(ptr.add(i + o).cast())) };
                if non_ascii(_mm256_or_si256(
                    _mm256_or_si256(a, b),
                    _mm256_or_si256(c, d),
                )) != 0
                {
                    break;
                }
                (i, prev, leads) = (i + 128, d, leads + 128);
            }
            continue;
        }
        let errors = _mm256_or_si256(check_block(a, prev), check_block(b, a));
        if _mm256_testz_si256(errors, errors) == 0 {
            break;
        }
        leads += (lead_bytes(a).count_ones() + lead_bytes(b).count_ones()) as usize;
        if STATS {
            fours += ((above_ef(a) & high_a).count_ones() + (above_ef(b) & high_b).count_ones())
                as usize;
            max = _mm256_max_epu8(max, _mm256_max_epu8(a, b));
        }
        (i, prev) = (i + 64, b);
        // As the validator does: now and then, ASCII-and-pairs text goes
        // to the cheaper pair test, which counts what it certifies.
        if i % 512 == 0 && below_e0(a, b) {
            // SAFETY: forwarded from this function's contract.
            let (j, last, counts) = unsafe { pairs_run::<true, NO_STOPS>(src, i, prev) };
            (i, prev, leads) = (j, last, leads + counts.chars);
            if STATS {
                max = _mm256_max_epu8(max, counts.max);
            }
        }
    }
    Scanned {
        end: i,
        leads,
        fours,
        max,
    }
}

/// Validates `src` and counts its valid prefix up to the returned offset
/// (a step boundary), as [`crate::arch::kernels::ClassifyKernel`] says.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    // SAFETY: the caller's promise.
    let Scanned {
        end: i,
        leads,
        fours,
        max,
    } = unsafe { scan::<true>(src) };
    let start = last_start_before(src, i);
    // SAFETY: the caller's promise; `start..` is a slice of `src`.
    let rest = unsafe { validate(&src[start..]) };
    let stop = FastStop {
        read: start + rest.read,
        written: 0,
        flagged: rest.flagged.map(|e| start + e),
    };
    let stats = Utf8Stats {
        leads,
        fours,
        max: max_byte(max),
    };
    (stop, stats, i)
}

/// The longest valid prefix and the number of characters in it, as the
/// count kernel says: [`scan`], then the block-at-a-time count from the
/// start of the last character begun before where it stopped.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn count(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise.
    let Scanned { end, leads, .. } = unsafe { scan::<false>(src) };
    let start = last_start_before(src, end);
    // The character at `start` is the one start counted in start..end.
    let before = leads - usize::from(start < end);
    // SAFETY: the caller's promise; `start..` is a slice of `src`.
    let rest = unsafe { count_blocks(&src[start..]) };
    FastStop {
        read: start + rest.read,
        written: before + rest.written,
        flagged: rest.flagged.map(|e| start + e),
    }
}

/// The largest byte of `v`.
#[target_feature(enable = "avx2")]
#[inline]
fn max_byte(v: __m256i) -> u8 {
    let m = _mm_max_epu8(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let m = _mm_max_epu8(m, _mm_srli_si128::<8>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<4>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<2>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<1>(m));
    _mm_cvtsi128_si32(m) as u8
}
