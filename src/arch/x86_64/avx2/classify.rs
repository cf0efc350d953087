//! Classification fused into validation: the validator's checks two blocks
//! a step, and for each step that is not all ASCII the counts the
//! classification needs (characters, 4-byte leads and the largest byte).
//! ASCII runs only add to the character count: their largest byte does
//! not change the width, which is ASCII unless some other byte says more.
//!
//! At the first step with an error (or an ASCII step after a sequence cut
//! short) the counting stops, and the validator finishes from the start of
//! the last character begun before it; the caller counts what lies between
//! (see `Engine::classify_kernel`).

use core::arch::x86_64::*;

use crate::arch::generic::utf8::NO_STOPS;

use super::pair_check::{below_e0, pairs_run};
use super::utf8::{check_block, ends_incomplete, lead_bytes, non_ascii, validate};
use crate::arch::{last_start_before, FastStop, Utf8Stats};

/// Validates `src` and counts its valid prefix up to the returned offset
/// (a step boundary), as [`crate::arch::kernels::ClassifyKernel`] says.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
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
        fours +=
            ((above_ef(a) & high_a).count_ones() + (above_ef(b) & high_b).count_ones()) as usize;
        max = _mm256_max_epu8(max, _mm256_max_epu8(a, b));
        (i, prev) = (i + 64, b);
        // As the validator does: now and then, ASCII-and-pairs text goes
        // to the cheaper pair test, which counts what it certifies.
        if i % 512 == 0 && below_e0(a, b) {
            // SAFETY: forwarded from this function's contract.
            let (j, last, counts) = unsafe { pairs_run::<true, NO_STOPS>(src, i, prev) };
            (i, prev, leads) = (j, last, leads + counts.chars);
            max = _mm256_max_epu8(max, counts.max);
        }
    }
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
