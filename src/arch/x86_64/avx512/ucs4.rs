//! Code points to UTF-8, 16 a step.
//!
//! Each lane is checked (no surrogate, nothing above U+10FFFF), its length
//! found by three comparisons, and its UTF-8 bytes built in place: the four
//! 6-bit groups are laid out last-group-highest, shifted right to drop the
//! groups a shorter character does not have, and tagged with the lead and
//! continuation markers. VPCOMPRESSB then packs the used bytes together.

use core::arch::x86_64::*;
use core::mem::transmute;

use crate::arch::FastStop;

const fn dwords(f: [u32; 16]) -> __m512i {
    // SAFETY: 64 plain bytes; every bit pattern is a valid __m512i.
    unsafe { transmute(f) }
}

/// By length 1..4: the right shift that drops missing groups, the marker
/// bits, and which bytes of the lane are used.
const DROP_SHIFT: __m512i = dwords([0, 0, 16, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const MARKERS: __m512i = dwords([
    0,
    0,
    0x80C0,
    0x80_80E0,
    0x8080_80F0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
]);
const USED_BYTES: __m512i = dwords([
    0,
    0xFF,
    0xFFFF,
    0xFF_FFFF,
    0xFFFF_FFFF,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
]);

/// Byte 0 of each dword of two vectors: 32 bytes, in order.
const PACK_LOW_BYTES: __m512i = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 32 {
        idx[j] = if j < 16 {
            4 * j as u8
        } else {
            64 + 4 * (j as u8 - 16)
        };
        j += 1;
    }
    // SAFETY: 64 plain bytes; every bit pattern is a valid __m512i.
    unsafe { transmute::<[u8; 64], __m512i>(idx) }
};

#[inline(always)]
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Encodes (or, with `MEASURE`, measures) `src` up to its first invalid
/// unit, which is reported as `flagged`.
///
/// # Safety
/// The CPU must support the enabled features; unless `MEASURE`, `out` points
/// to `cap` writable bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn encode<const MEASURE: bool>(
    src: &[u32],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    let set1 = |v: u32| _mm512_set1_epi32(v as i32);
    while i < len {
        // ASCII runs: 64 units a step, no compress needed.
        if len - i >= 64 && (MEASURE || cap - written >= 64) {
            // SAFETY: units i..i+64 are in bounds.
            let (a, b, c, d) = unsafe {
                let p = ptr.add(i);
                (
                    _mm512_loadu_si512(p.cast()),
                    _mm512_loadu_si512(p.add(16).cast()),
                    _mm512_loadu_si512(p.add(32).cast()),
                    _mm512_loadu_si512(p.add(48).cast()),
                )
            };
            let any = _mm512_ternarylogic_epi32::<0xFE>(a, b, _mm512_or_si512(c, d));
            if _mm512_cmpge_epu32_mask(any, set1(0x80)) == 0 {
                if !MEASURE {
                    let low = _mm512_permutex2var_epi8(a, PACK_LOW_BYTES, b);
                    let high = _mm512_permutex2var_epi8(c, PACK_LOW_BYTES, d);
                    let packed = _mm512_inserti64x4::<1>(low, _mm512_castsi512_si256(high));
                    // SAFETY: 64 bytes of room were checked above.
                    unsafe { _mm512_storeu_si512(out.add(written).cast(), packed) };
                }
                written += 64;
                i += 64;
                continue;
            }
        }
        let lanes: u16 = if len - i >= 16 {
            u16::MAX
        } else {
            (1u16 << (len - i)) - 1
        };
        // SAFETY: lanes cover only units i..len; masked-off lanes do not fault.
        let units = unsafe { _mm512_maskz_loadu_epi32(lanes, ptr.add(i).cast()) };
        let above = _mm512_cmpgt_epu32_mask(units, set1(0x10FFFF));
        let surrogate =
            _mm512_cmpeq_epi32_mask(_mm512_and_si512(units, set1(0xFFFF_F800)), set1(0xD800));
        let bad = (above | surrogate) & lanes;
        let good = if bad == 0 {
            lanes
        } else {
            (1u16 << bad.trailing_zeros()) - 1
        };
        let two = _mm512_mask_cmpge_epu32_mask(good, units, set1(0x80));
        let three = _mm512_mask_cmpge_epu32_mask(good, units, set1(0x800));
        let four = _mm512_mask_cmpge_epu32_mask(good, units, set1(0x10000));
        let total = good.count_ones() + two.count_ones() + three.count_ones() + four.count_ones();
        if !MEASURE {
            if cap - written < total as usize {
                return FastStop {
                    read: i,
                    written,
                    flagged: None,
                };
            }
            // SAFETY: total bytes fit at out+written (checked just above).
            unsafe { store(units, good, two, three, four, total, out.add(written)) };
        }
        written += total as usize;
        if bad != 0 {
            let i = i + good.count_ones() as usize;
            return FastStop {
                read: i,
                written,
                flagged: Some(i),
            };
        }
        // A fixed step keeps the next load independent of this one's result.
        i += 16;
    }
    FastStop {
        read: len,
        written,
        flagged: None,
    }
}

/// Writes the UTF-8 of the `good` lanes of `units` (valid scalars) to `out`.
///
/// # Safety
/// `out` has room for `total` bytes, the encoded length of those lanes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
unsafe fn store(
    units: __m512i,
    good: u16,
    two: u16,
    three: u16,
    four: u16,
    total: u32,
    out: *mut u8,
) {
    if two == 0 {
        // SAFETY: `good` lanes are ASCII, one byte each: `total` bytes.
        unsafe { _mm512_mask_cvtepi32_storeu_epi8(out.cast(), good, units) };
        return;
    }
    let set1 = |v: u32| _mm512_set1_epi32(v as i32);
    if three == 0 {
        // One or two bytes a lane: 110xxxxx 10xxxxxx needs no table.
        let pair = _mm512_ternarylogic_epi32::<0xFE>(
            _mm512_srli_epi32::<6>(units),
            _mm512_and_si512(_mm512_slli_epi32::<8>(units), set1(0x3F00)),
            set1(0x80C0),
        );
        let encoded = _mm512_mask_mov_epi32(units, two, pair);
        let used =
            _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(good, set1(0xFF)), two, set1(0xFFFF));
        let packed = _mm512_maskz_compress_epi8(_mm512_test_epi8_mask(used, used), encoded);
        // SAFETY: exactly `total` bytes are written.
        unsafe { _mm512_mask_storeu_epi8(out.cast(), low_bits(total), packed) };
        return;
    }
    let one = _mm512_set1_epi32(1);
    let mut length = _mm512_maskz_mov_epi32(good, one);
    length = _mm512_mask_add_epi32(length, two, length, one);
    length = _mm512_mask_add_epi32(length, three, length, one);
    length = _mm512_mask_add_epi32(length, four, length, one);
    // Groups g3 (lowest 6 bits) .. g0 laid out as bytes g0 g1 g2 g3 from the
    // lowest: a 4-byte character's order; shorter ones drop leading groups.
    let g3 = _mm512_and_si512(_mm512_slli_epi32::<24>(units), set1(0x3F00_0000));
    let g2 = _mm512_and_si512(_mm512_slli_epi32::<10>(units), set1(0x003F_0000));
    let g1 = _mm512_and_si512(_mm512_srli_epi32::<4>(units), set1(0x0000_3F00));
    let g0 = _mm512_srli_epi32::<18>(units);
    let groups = _mm512_ternarylogic_epi32::<0xFE>(g3, g2, _mm512_or_si512(g1, g0));
    let shifted = _mm512_srlv_epi32(groups, _mm512_permutexvar_epi32(length, DROP_SHIFT));
    let encoded = _mm512_or_si512(shifted, _mm512_permutexvar_epi32(length, MARKERS));
    let encoded = _mm512_mask_mov_epi32(encoded, !two, units);
    let used = _mm512_permutexvar_epi32(length, USED_BYTES);
    let packed = _mm512_maskz_compress_epi8(_mm512_test_epi8_mask(used, used), encoded);
    // SAFETY: exactly `total` bytes are written.
    unsafe { _mm512_mask_storeu_epi8(out.cast(), low_bits(total), packed) };
}
