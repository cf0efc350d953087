//! The UTF-8 size of well-formed UTF-16, 32 units a step.
//!
//! A unit takes 3 bytes, less 1 below U+0800, 1 more below U+0080, and 1
//! for a surrogate (a pair makes 4). Each of the three tests is a mask and
//! a compare, `(unit & mask) == value`; the compares give -1 where they
//! hold, summed in 16-bit lanes.
//!
//! Byte-swapped input needs no shuffle: a test of the swapped unit is the
//! same test of the unit as it lies, with its mask and value swapped.
//!
//! Four sums take 8 units each, so that the adds of one step do not wait
//! on each other (one sum would chain three adds a step). A lane falls by
//! at most 2 a step; the sums are folded into a 64-bit total well before
//! a lane could pass -32768.

use core::arch::x86_64::*;

/// Steps of 32 units between folds: a lane falls by at most 2 a step, and
/// must stay above -32768.
const FOLD_STEPS: usize = 8192;

/// UTF-8 bytes for well-formed UTF-16 `src` (byte-swapped with `swap`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "sse2")]
pub(super) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    if swap {
        utf8_len::<true>(src)
    } else {
        utf8_len::<false>(src)
    }
}

/// A 16-bit constant for units read in the order `SWAP` says.
#[inline(always)]
const fn word<const SWAP: bool>(v: u16) -> i16 {
    (if SWAP { v.swap_bytes() } else { v }) as i16
}

/// `sum` plus the three compares for 8 units (0, -1 or -2 a lane).
#[target_feature(enable = "sse2")]
#[inline]
fn fewer<const SWAP: bool>(units: __m128i, sum: __m128i) -> __m128i {
    let w = |v: u16| _mm_set1_epi16(word::<SWAP>(v));
    let high = _mm_and_si128(units, w(0xF800));
    let below_80 = _mm_cmpeq_epi16(_mm_and_si128(units, w(0xFF80)), _mm_setzero_si128());
    let below_800 = _mm_cmpeq_epi16(high, _mm_setzero_si128());
    let surrogate = _mm_cmpeq_epi16(high, w(0xD800));
    _mm_add_epi16(
        sum,
        _mm_add_epi16(below_80, _mm_add_epi16(below_800, surrogate)),
    )
}

/// The sum of a vector of signed 16-bit lanes.
#[target_feature(enable = "sse2")]
#[inline]
fn fold(sum: __m128i) -> i64 {
    let pairs = _mm_madd_epi16(sum, _mm_set1_epi16(1));
    let two = _mm_add_epi32(pairs, _mm_unpackhi_epi64(pairs, pairs));
    let one = _mm_add_epi32(two, _mm_srli_epi64::<32>(two));
    i64::from(_mm_cvtsi128_si32(one))
}

#[target_feature(enable = "sse2")]
fn utf8_len<const SWAP: bool>(src: &[u16]) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut delta = 0i64;
    let mut i = 0;
    while len - i >= 32 {
        let end = i + (len - i).min(32 * FOLD_STEPS) / 32 * 32;
        let mut sums = [_mm_setzero_si128(); 4];
        while i < end {
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: units i..i+32 are in bounds (i + 32 <= end <= len).
                let units = unsafe { _mm_loadu_si128(ptr.add(i + 8 * k).cast()) };
                *sum = fewer::<SWAP>(units, *sum);
            }
            i += 32;
        }
        delta += sums.into_iter().map(|s| fold(s)).sum::<i64>();
    }
    while len - i >= 8 {
        // SAFETY: units i..i+8 are in bounds.
        let units = unsafe { _mm_loadu_si128(ptr.add(i).cast()) };
        delta += fold(fewer::<SWAP>(units, _mm_setzero_si128()));
        i += 8;
    }
    let tail = src[i..].iter().map(|&u| {
        let u = if SWAP { u.swap_bytes() } else { u };
        1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) - usize::from(u & 0xF800 == 0xD800)
    });
    // 3 a unit less the compares' count; at least 1 a unit, so no wrap.
    (3 * i as i64 + delta) as usize + tail.sum::<usize>()
}
