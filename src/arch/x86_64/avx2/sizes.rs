//! Sizes of well-formed text.
//!
//! UTF-8 bytes of UTF-16: 3 a unit, less 1 below U+0800, 1 more below
//! U+0080, and 1 for a surrogate (a pair makes 4). The three compares give
//! -1 where they hold, summed in 16-bit lanes (at most 2 a step, so folded
//! well before they could overflow), four sums at a time so that the adds
//! do not wait on each other.

use core::arch::x86_64::*;

/// Steps of 64 units between folds: each lane of a sum falls by at most 2
/// a step, and must stay above -32768.
const FOLD_STEPS: usize = 8192;

/// UTF-8 bytes for well-formed UTF-16 `src` (byte-swapped with `swap`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    // SAFETY: the caller's promise.
    unsafe {
        if swap {
            utf8_len::<true>(src)
        } else {
            utf8_len::<false>(src)
        }
    }
}

/// The sum of the three compares for 16 units (0, -1 or -2 a lane).
#[target_feature(enable = "avx2")]
#[inline]
fn fewer<const SWAP: bool>(units: __m256i, sum: __m256i) -> __m256i {
    let units = if SWAP {
        _mm256_or_si256(_mm256_slli_epi16::<8>(units), _mm256_srli_epi16::<8>(units))
    } else {
        units
    };
    let w = |v: u16| _mm256_set1_epi16(v as i16);
    let zero = _mm256_setzero_si256();
    let high = _mm256_and_si256(units, w(0xF800));
    let below_80 = _mm256_cmpeq_epi16(_mm256_and_si256(units, w(0xFF80)), zero);
    let below_800 = _mm256_cmpeq_epi16(high, zero);
    let surrogate = _mm256_cmpeq_epi16(high, w(0xD800));
    _mm256_add_epi16(
        sum,
        _mm256_add_epi16(below_80, _mm256_add_epi16(below_800, surrogate)),
    )
}

/// The sum of a vector of signed 16-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn fold(sum: __m256i) -> i64 {
    let pairs = _mm256_madd_epi16(sum, _mm256_set1_epi16(1));
    let quads = _mm_add_epi32(
        _mm256_castsi256_si128(pairs),
        _mm256_extracti128_si256::<1>(pairs),
    );
    let two = _mm_add_epi32(quads, _mm_unpackhi_epi64(quads, quads));
    i64::from(_mm_cvtsi128_si32(two)) + i64::from(_mm_extract_epi32::<1>(two))
}

#[target_feature(enable = "avx2")]
unsafe fn utf8_len<const SWAP: bool>(src: &[u16]) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut delta = 0i64;
    let mut i = 0;
    while len - i >= 64 {
        let end = i + (len - i).min(64 * FOLD_STEPS) / 64 * 64;
        let mut sums = [_mm256_setzero_si256(); 4];
        while i < end {
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: units i..i+64 are in bounds (i + 64 <= end <= len).
                let units = unsafe { _mm256_loadu_si256(ptr.add(i + 16 * k).cast()) };
                *sum = fewer::<SWAP>(units, *sum);
            }
            i += 64;
        }
        delta += sums.into_iter().map(|s| fold(s)).sum::<i64>();
    }
    while len - i >= 16 {
        // SAFETY: units i..i+16 are in bounds.
        let units = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        delta += fold(fewer::<SWAP>(units, _mm256_setzero_si256()));
        i += 16;
    }
    let tail = src[i..].iter().map(|&u| {
        let u = if SWAP { u.swap_bytes() } else { u };
        1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) - usize::from(u & 0xF800 == 0xD800)
    });
    // 3 a unit less the compares' count; at least 1 a unit, so no wrap.
    (3 * i as i64 + delta) as usize + tail.sum::<usize>()
}
