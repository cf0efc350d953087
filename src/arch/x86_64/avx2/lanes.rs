//! Code points from the lanes that hold characters' bytes, and their
//! stores: what every decoding path of this tier writes with.

use core::arch::x86_64::*;

use super::validate::bytes;
use crate::arch::generic::tables::{self, splat};

/// Eight 32-bit lanes as a vector (a constant's).
const fn dwords(f: [u32; 8]) -> __m256i {
    // SAFETY: a __m256i is 32 plain bytes, as is [u32; 8].
    unsafe { core::mem::transmute(f) }
}

const PAYLOAD_MASK: __m256i = dwords(tables::PAYLOAD_MASK);
const FINAL_SHIFT: __m256i = dwords(tables::FINAL_SHIFT);
/// A lead's high nibble to the index `PAYLOAD_MASK` and `FINAL_SHIFT` use
/// (its count of leading ones: 0, 2, 3 or 4).
const LEAD_CLASS: __m256i = bytes(splat([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 3, 4]));

/// 8 code points from 8 lanes each holding a character's bytes, lead lowest.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn assemble(x: __m256i) -> __m256i {
    let high_nibble = _mm256_and_si256(_mm256_srli_epi32::<4>(x), _mm256_set1_epi32(0x0F));
    // Bytes 1..3 of each lane are 0 and LEAD_CLASS[0] is 0, so each lane
    // holds its lead's class.
    let class = _mm256_shuffle_epi8(LEAD_CLASS, high_nibble);
    let payload = _mm256_and_si256(x, _mm256_permutevar8x32_epi32(PAYLOAD_MASK, class));
    let pairs = _mm256_maddubs_epi16(payload, _mm256_set1_epi16(0x0140));
    let joined = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_1000));
    _mm256_srlv_epi32(joined, _mm256_permutevar8x32_epi32(FINAL_SHIFT, class))
}

/// Stores the first `n` (1..=8) lanes of `v` at `out`.
///
/// # Safety
/// `out` has room for `n` code points.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn store_lanes(out: *mut u32, v: __m256i, n: usize) {
    if n >= 8 {
        // SAFETY: room for 8.
        unsafe { _mm256_storeu_si256(out.cast(), v) };
    } else {
        const RAMP: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];
        // SAFETY: the mask enables exactly the first n lanes; RAMP[8-n..16-n]
        // is in bounds for 1 <= n < 8.
        unsafe {
            let mask = _mm256_loadu_si256(RAMP.as_ptr().add(8 - n).cast());
            _mm256_maskstore_epi32(out.cast(), mask, v);
        }
    }
}

/// For each 8-bit mask, the lanes whose bit is set, in order: a VPERMD
/// index that packs them to the front (AVX2 has no compress instruction).
pub(super) static LEFT_PACK: [[u32; 8]; 256] = {
    let mut table = [[0u32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut n) = (0, 0);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                table[mask][n] = lane as u32;
                n += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};
