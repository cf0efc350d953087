//! [`Bytes`] for the AVX-512 tier: one `__m512i`, masks in `k` registers.

use core::arch::x86_64::*;

use super::blocks::{bytes, SHIFT_1, SHIFT_2, SHIFT_3};
use crate::arch::generic::tables::incomplete_limits;
use crate::arch::generic::vector::Bytes;

#[derive(Clone, Copy)]
pub(super) struct Avx512(pub(super) __m512i);

/// The first `n` bits (all 64 from `n >= 64`).
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

// SAFETY (every method below): an `Avx512` exists only on a CPU with
// AVX-512 F, BW and VBMI, all these need; loads have the caller's promise
// of 64 bytes.
impl Bytes for Avx512 {
    const BYTES: usize = 64;
    const MASK_BITS: u32 = 1;
    const PAIR_TEST: bool = true;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Avx512 {
        Avx512(unsafe { _mm512_set1_epi8(b as i8) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Avx512 {
        Avx512(unsafe { _mm512_loadu_si512(p.cast()) })
    }
    #[inline(always)]
    unsafe fn table(t: [u8; 16]) -> Avx512 {
        // VPSHUFB looks up within each 16-byte lane: the table in all four.
        let mut all = [0u8; 64];
        for lane in all.chunks_exact_mut(16) {
            lane.copy_from_slice(&t);
        }
        Avx512(bytes(all))
    }
    #[inline(always)]
    unsafe fn incomplete_limits() -> Avx512 {
        Avx512(bytes(incomplete_limits::<64>()))
    }
    #[inline(always)]
    unsafe fn chunk(src: &[u8], at: usize) -> Avx512 {
        let left = src.len().saturating_sub(at);
        if left >= 64 {
            // SAFETY: bytes at..at+64 are in bounds.
            return Avx512(unsafe { _mm512_loadu_si512(src.as_ptr().add(at).cast()) });
        }
        if left == 0 {
            return Avx512(unsafe { _mm512_setzero_si512() });
        }
        // SAFETY: only the `left` lanes in bounds are read; masked-off lanes
        // do not fault (AVX-512 fault suppression).
        Avx512(unsafe { _mm512_maskz_loadu_epi8(low_bits(left), src.as_ptr().add(at).cast()) })
    }
    #[inline(always)]
    fn or(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_or_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn and(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_and_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_xor_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn add(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_add_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn and_not(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_andnot_si512(b.0, self.0) })
    }
    #[inline(always)]
    fn high_nibbles(self) -> Avx512 {
        Avx512(unsafe { _mm512_and_si512(_mm512_srli_epi16::<4>(self.0), _mm512_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    fn low_nibbles(self) -> Avx512 {
        Avx512(unsafe { _mm512_and_si512(self.0, _mm512_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    fn lookup(self, table: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    fn prev<const N: i32>(self, prev: Avx512) -> Avx512 {
        // One VPERMT2B across the whole register (VBMI).
        let shift = match N {
            1 => SHIFT_1,
            2 => SHIFT_2,
            _ => SHIFT_3,
        };
        Avx512(unsafe { _mm512_permutex2var_epi8(prev.0, shift, self.0) })
    }
    #[inline(always)]
    fn sub_sat(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_subs_epu8(self.0, b.0) })
    }
    #[inline(always)]
    fn min(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_min_epu8(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_max_epu8(self.0, b.0) })
    }
    #[inline(always)]
    fn max_byte(self) -> u8 {
        // Each 64-bit lane's largest byte into its low byte, then the
        // largest lane.
        unsafe {
            let v = self.0;
            let v = _mm512_max_epu8(v, _mm512_srli_epi64::<32>(v));
            let v = _mm512_max_epu8(v, _mm512_srli_epi64::<16>(v));
            let v = _mm512_max_epu8(v, _mm512_srli_epi64::<8>(v));
            _mm512_reduce_max_epu64(_mm512_and_si512(v, _mm512_set1_epi64(0xFF))) as u8
        }
    }
    #[inline(always)]
    fn min_signed(self, b: Avx512) -> Avx512 {
        Avx512(unsafe { _mm512_min_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        unsafe { _mm512_test_epi64_mask(self.0, self.0) == 0 }
    }
    #[inline(always)]
    fn any_high(self) -> bool {
        unsafe { _mm512_movepi8_mask(self.0) != 0 }
    }
    #[inline(always)]
    fn all_positive(self) -> bool {
        unsafe { _mm512_cmpgt_epi8_mask(self.0, _mm512_setzero_si512()) == u64::MAX }
    }
    #[inline(always)]
    fn nonzero_mask(self) -> u64 {
        unsafe { _mm512_test_epi8_mask(self.0, self.0) }
    }
    #[inline(always)]
    fn zero_mask(self) -> u64 {
        unsafe { _mm512_testn_epi8_mask(self.0, self.0) }
    }
    #[inline(always)]
    fn high_count4(v: [Avx512; 4]) -> u32 {
        // Spelled out: a closure would not inherit the caller's features.
        unsafe {
            _mm512_movepi8_mask(v[0].0).count_ones()
                + _mm512_movepi8_mask(v[1].0).count_ones()
                + _mm512_movepi8_mask(v[2].0).count_ones()
                + _mm512_movepi8_mask(v[3].0).count_ones()
        }
    }
    #[inline(always)]
    fn lead_mask(self) -> u64 {
        unsafe { _mm512_cmpge_epi8_mask(self.0, _mm512_set1_epi8(-64)) }
    }
}
