//! UTF-16 <-> UCS-4 with surrogate pairs, 16 code points a step, by
//! compression: bespoke to AVX-512 because the instruction set changes
//! the algorithm. The portable loops (`portable::convert`, which every
//! tier compiles) widen and narrow whole blocks only while no surrogate
//! is in them, and take pairs a unit at a time: 0.16x-0.20x of simdutf 9.1
//! on text of emoji (AMD Zen 4).
//!
//! * [`utf16_to_ucs4`]: 64 units without a surrogate are widened as they
//!   are. Otherwise 16 units, and the 16 after them by one (each unit's
//!   successor), are widened to 32-bit lanes; every high surrogate must
//!   be followed by a low one and every low one preceded by a high one,
//!   one comparison of two masks and a carry from the step before. A high
//!   surrogate's lane becomes the pair's code point, the high unit shifted
//!   by 10 plus the low unit plus [`OFFSET`], and the low surrogates' lanes
//!   are compressed away (`VPCOMPRESSD` into a register, then a masked
//!   store of exactly the code points kept: a compressing store to memory
//!   is slow on Zen 4). The steps advance 16 units whatever they hold (a
//!   pair across two steps is written by the first, its low unit skipped
//!   by the second), so no load waits for the step before: advancing 17
//!   after a pair cut by the step's end ran at 0.26x of simdutf on emoji.
//! * [`ucs4_to_utf16`]: 64 values in the BMP are narrowed as they are.
//!   Otherwise 16 scalar values (no surrogate, none above U+10FFFF) become
//!   a 32-bit lane each: the value, or a pair's high unit in the low half
//!   and its low unit in the high half; the 16-bit halves not needed are
//!   compressed away (`VPCOMPRESSW`, the keep mask made by `PDEP` of the
//!   pairs' mask onto the odd bits).
//!
//! A step that does not hold (an unpaired surrogate, an invalid value, too
//! little room, the last units) ends the vector loop; the portable loop
//! takes the rest of the call, and stops exactly where the policy must
//! apply.

use core::arch::x86_64::*;

use crate::portable::convert as portable;

/// `(high << 10) + low + OFFSET` is the code point of a pair.
const OFFSET: u32 = 0x1_0000u32.wrapping_sub(0xD800 << 10).wrapping_sub(0xDC00);

/// Swaps the bytes of each 16-bit lane.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn swapped16_256(v: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi16::<8>(v), _mm256_srli_epi16::<8>(v))
}

/// Swaps the bytes of each 16-bit lane.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn swapped16(v: __m512i) -> __m512i {
    _mm512_or_si512(_mm512_slli_epi16::<8>(v), _mm512_srli_epi16::<8>(v))
}

/// Swaps the bytes of each 32-bit lane.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn swapped32(v: __m512i) -> __m512i {
    let pattern = _mm512_set4_epi32(0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203);
    _mm512_shuffle_epi8(v, pattern)
}

/// See `arch::loops::ConvertFns::utf16_to_ucs4`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(super) unsafe fn utf16_to_ucs4(
    src: &[u16],
    dst: &mut [u32],
    swap16: bool,
    swap32: bool,
) -> (usize, usize) {
    let (mut i, mut w) = (0, 0);
    // 1 when unit i is the low half of a pair the step before wrote: the
    // steps advance 16 units whatever they hold, so that no load waits for
    // the step before.
    let mut carry = 0u16;
    let mut wide = true;
    let fc00 = _mm512_set1_epi32(0xFC00);
    let (d800, dc00) = (_mm512_set1_epi32(0xD800), _mm512_set1_epi32(0xDC00));
    let offset = _mm512_set1_epi32(OFFSET as i32);
    let (f800_16, d800_16) = (
        _mm512_set1_epi16(0xF800u16 as i16),
        _mm512_set1_epi16(0xD800u16 as i16),
    );
    while src.len() - i > 16 && dst.len() - w >= 16 {
        // Whole 64-unit blocks while the text has no surrogates; after a
        // block with some, 16-unit steps until one has none.
        if wide && carry == 0 && src.len() - i >= 64 && dst.len() - w >= 64 {
            // SAFETY: units i..i+64 are in bounds (checked just above).
            let v = unsafe { [0, 32].map(|o| _mm512_loadu_si512(src.as_ptr().add(i + o).cast())) };
            // A surrogate has the same top five bits in either byte order
            // once the test's constants are swapped alike.
            let (f8, d8) = if swap16 {
                (swapped16(f800_16), swapped16(d800_16))
            } else {
                (f800_16, d800_16)
            };
            let any = v.map(|u| _mm512_cmpeq_epi16_mask(_mm512_and_si512(u, f8), d8));
            if any[0] | any[1] == 0 {
                for (k, u) in v.into_iter().enumerate() {
                    let u = if swap16 { swapped16(u) } else { u };
                    let halves = [_mm512_castsi512_si256(u), _mm512_extracti64x4_epi64::<1>(u)];
                    for (h, half) in halves.into_iter().enumerate() {
                        let wide = _mm512_cvtepu16_epi32(half);
                        let wide = if swap32 { swapped32(wide) } else { wide };
                        // SAFETY: dst has 64 code points from w.
                        unsafe {
                            _mm512_storeu_si512(
                                dst.as_mut_ptr().add(w + 32 * k + 16 * h).cast(),
                                wide,
                            )
                        };
                    }
                }
                (i, w) = (i + 64, w + 64);
                continue;
            }
            wide = false;
        }
        // SAFETY: units i..i+17 are in bounds (checked above).
        let (a, n) = unsafe {
            let p = src.as_ptr().add(i);
            (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(1).cast()),
            )
        };
        let (a, n) = if swap16 {
            (swapped16_256(a), swapped16_256(n))
        } else {
            (a, n)
        };
        let a = _mm512_cvtepu16_epi32(a);
        let high = _mm512_cmpeq_epi32_mask(_mm512_and_si512(a, fc00), d800);
        let low = _mm512_cmpeq_epi32_mask(_mm512_and_si512(a, fc00), dc00);
        if high | low == 0 {
            // No surrogate: the 16 units as they are.
            wide = true;
            let values = if swap32 { swapped32(a) } else { a };
            // SAFETY: dst has 16 code points from w.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(w).cast(), values) };
            (i, w) = (i + 16, w + 16);
            continue;
        }
        let n = _mm512_cvtepu16_epi32(n);
        let next_low = _mm512_cmpeq_epi32_mask(_mm512_and_si512(n, fc00), dc00);
        // Each high surrogate followed by a low one, each low one after a
        // high one (the first, after the step before's last).
        if high != next_low || low & 1 != carry {
            break;
        }
        let pairs = _mm512_add_epi32(_mm512_add_epi32(_mm512_slli_epi32::<10>(a), n), offset);
        let values = _mm512_mask_blend_epi32(high, a, pairs);
        let values = if swap32 { swapped32(values) } else { values };
        let keep = !low;
        let kept = keep.count_ones() as usize;
        let packed = _mm512_maskz_compress_epi32(keep, values);
        // SAFETY: `kept` <= 16 code points, and dst has 16 from w.
        unsafe {
            let mask = ((1u32 << kept) - 1) as __mmask16;
            _mm512_mask_storeu_epi32(dst.as_mut_ptr().add(w).cast(), mask, packed)
        };
        carry = high >> 15;
        (i, w) = (i + 16, w + kept);
    }
    // A low surrogate the last step wrote with its high one is read.
    let i = i + usize::from(carry);
    let (r, n) = portable::utf16_to_ucs4(&src[i..], &mut dst[w..], swap16, swap32);
    (i + r, w + n)
}

/// See `arch::loops::ConvertFns::ucs4_to_utf16`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2,popcnt")]
pub(super) unsafe fn ucs4_to_utf16(
    src: &[u32],
    dst: &mut [u16],
    swap32: bool,
    swap16: bool,
) -> (usize, usize) {
    let (mut i, mut w) = (0, 0);
    let surrogate_bits = _mm512_set1_epi32(0xFFFF_F800u32 as i32);
    let d800 = _mm512_set1_epi32(0xD800);
    let (max, bmp) = (_mm512_set1_epi32(0x10_FFFF), _mm512_set1_epi32(0xFFFF));
    let (base, tens) = (_mm512_set1_epi32(0x1_0000), _mm512_set1_epi32(0x3FF));
    let (high_tag, low_tag) = (_mm512_set1_epi32(0xD800), _mm512_set1_epi32(0xDC00));
    let mut wide = true;
    while src.len() - i >= 16 && dst.len() - w >= 32 {
        // Whole 64-value blocks while the text stays in the BMP; after a
        // block that does not, 16-value steps until one does.
        if wide && src.len() - i >= 64 && dst.len() - w >= 64 {
            // SAFETY: values i..i+64 are in bounds (checked just above).
            let v = unsafe {
                [0, 16, 32, 48].map(|o| _mm512_loadu_si512(src.as_ptr().add(i + o).cast()))
            };
            let v = if swap32 { v.map(|u| swapped32(u)) } else { v };
            let largest =
                _mm512_max_epu32(_mm512_max_epu32(v[0], v[1]), _mm512_max_epu32(v[2], v[3]));
            let surrogates =
                v.map(|u| _mm512_cmpeq_epi32_mask(_mm512_and_si512(u, surrogate_bits), d800));
            let none = surrogates[0] | surrogates[1] | surrogates[2] | surrogates[3] == 0;
            if none && _mm512_cmpgt_epu32_mask(largest, bmp) == 0 {
                for (k, u) in v.into_iter().enumerate() {
                    let units = _mm512_cvtepi32_epi16(u);
                    let units = if swap16 { swapped16_256(units) } else { units };
                    // SAFETY: dst has 64 units from w.
                    unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(w + 16 * k).cast(), units) };
                }
                (i, w) = (i + 64, w + 64);
                continue;
            }
            wide = false;
        }
        // SAFETY: values i..i+16 are in bounds (checked above).
        let v = unsafe { _mm512_loadu_si512(src.as_ptr().add(i).cast()) };
        let v = if swap32 { swapped32(v) } else { v };
        let invalid = _mm512_cmpeq_epi32_mask(_mm512_and_si512(v, surrogate_bits), d800)
            | _mm512_cmpgt_epu32_mask(v, max);
        if invalid != 0 {
            break;
        }
        let supplementary = _mm512_cmpgt_epu32_mask(v, bmp);
        if supplementary == 0 {
            // One unit each: the 16 values narrowed.
            wide = true;
            let units = _mm512_cvtepi32_epi16(v);
            let units = if swap16 { swapped16_256(units) } else { units };
            // SAFETY: dst has 32 units from w.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(w).cast(), units) };
            (i, w) = (i + 16, w + 16);
            continue;
        }
        let u = _mm512_sub_epi32(v, base);
        let high = _mm512_add_epi32(_mm512_srli_epi32::<10>(u), high_tag);
        let low = _mm512_add_epi32(_mm512_and_si512(v, tens), low_tag);
        let pair = _mm512_or_si512(high, _mm512_slli_epi32::<16>(low));
        let lanes = _mm512_mask_blend_epi32(supplementary, v, pair);
        let lanes = if swap16 { swapped16(lanes) } else { lanes };
        // Every lane's low half, and the high half of each pair's lane.
        let keep = 0x5555_5555 | _pdep_u32(u32::from(supplementary), 0xAAAA_AAAA);
        let count = keep.count_ones() as usize;
        let packed = _mm512_maskz_compress_epi16(keep, lanes);
        // SAFETY: `count` <= 32 units, and dst has 32 from w.
        unsafe {
            let mask = (u64::MAX >> (64 - count)) as __mmask32;
            _mm512_mask_storeu_epi16(dst.as_mut_ptr().add(w).cast(), mask, packed)
        };
        (i, w) = (i + 16, w + count);
    }
    let (r, n) = portable::ucs4_to_utf16(&src[i..], &mut dst[w..], swap32, swap16);
    (i + r, w + n)
}
