//! [`Bytes`] for the SSE4.2 tier: one `__m128i`.

use core::arch::x86_64::*;

use super::super::partial::chunk16;
use crate::arch::generic::vector::Bytes;

/// A vector of the SSE4.2 tier. Only `Bytes`' `unsafe` constructors make
/// one from nothing, with the promise that the CPU has SSSE3 and SSE4.1
/// (the tier's other code only transforms vectors it already has); every
/// operation below relies on it.
#[derive(Clone, Copy)]
pub(super) struct Sse(pub(super) __m128i);

impl Bytes for Sse {
    const MASK_BITS: u32 = 1;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Sse {
        // SAFETY: SSE2, baseline on x86-64.
        Sse(unsafe { _mm_set1_epi8(b as i8) })
    }

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Sse {
        // SAFETY: the caller's promise of 16 readable bytes.
        Sse(unsafe { _mm_loadu_si128(p.cast()) })
    }

    #[inline(always)]
    unsafe fn table(t: [u8; 16]) -> Sse {
        // SAFETY: both are 16 plain bytes; every bit pattern is a valid
        // __m128i.
        Sse(unsafe { core::mem::transmute::<[u8; 16], __m128i>(t) })
    }

    #[inline(always)]
    unsafe fn chunk(src: &[u8], at: usize) -> Sse {
        // SAFETY: the caller's promise (SSSE3).
        Sse(unsafe { chunk16(src, at) })
    }

    // SAFETY (every method below): a `Sse` exists only on a CPU with
    // SSSE3 and SSE4.1 (the type's invariant), all these need.
    #[inline(always)]
    fn or(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_or_si128(self.0, b.0) })
    }
    #[inline(always)]
    fn and(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_and_si128(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_xor_si128(self.0, b.0) })
    }
    #[inline(always)]
    fn add(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_add_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn and_not(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_andnot_si128(b.0, self.0) })
    }
    #[inline(always)]
    fn high_nibbles(self) -> Sse {
        Sse(unsafe { _mm_and_si128(_mm_srli_epi16::<4>(self.0), _mm_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    fn low_nibbles(self) -> Sse {
        Sse(unsafe { _mm_and_si128(self.0, _mm_set1_epi8(0x0F)) })
    }
    #[inline(always)]
    fn lookup(self, table: Sse) -> Sse {
        Sse(unsafe { _mm_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    fn prev<const N: i32>(self, prev: Sse) -> Sse {
        // PALIGNR takes its byte count as an immediate; N is 1..=3.
        Sse(unsafe {
            match N {
                1 => _mm_alignr_epi8::<15>(self.0, prev.0),
                2 => _mm_alignr_epi8::<14>(self.0, prev.0),
                _ => _mm_alignr_epi8::<13>(self.0, prev.0),
            }
        })
    }
    #[inline(always)]
    fn sub_sat(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_subs_epu8(self.0, b.0) })
    }
    #[inline(always)]
    fn min(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_min_epu8(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_max_epu8(self.0, b.0) })
    }
    #[inline(always)]
    fn max_byte(self) -> u8 {
        // Halve the candidates four times; the largest ends in byte 0.
        unsafe {
            let v = self.0;
            let m = _mm_max_epu8(v, _mm_srli_si128::<8>(v));
            let m = _mm_max_epu8(m, _mm_srli_si128::<4>(m));
            let m = _mm_max_epu8(m, _mm_srli_si128::<2>(m));
            let m = _mm_max_epu8(m, _mm_srli_si128::<1>(m));
            _mm_cvtsi128_si32(m) as u8
        }
    }
    #[inline(always)]
    fn min_signed(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_min_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        unsafe { _mm_testz_si128(self.0, self.0) == 1 }
    }
    #[inline(always)]
    fn any_high(self) -> bool {
        unsafe { _mm_movemask_epi8(self.0) != 0 }
    }
    #[inline(always)]
    fn all_positive(self) -> bool {
        unsafe { _mm_movemask_epi8(_mm_cmpgt_epi8(self.0, _mm_setzero_si128())) == 0xFFFF }
    }
    #[inline(always)]
    fn nonzero_mask(self) -> u64 {
        u64::from(!self.zero_mask() as u16)
    }
    #[inline(always)]
    fn zero_mask(self) -> u64 {
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) as u64 }
    }
    #[inline(always)]
    fn high_count4(v: [Sse; 4]) -> u32 {
        // One `PMOVMSKB` and a population count a block.
        let count = |x: Sse| unsafe { _mm_movemask_epi8(x.0) }.count_ones();
        count(v[0]) + count(v[1]) + count(v[2]) + count(v[3])
    }
    #[inline(always)]
    fn lead_mask(self) -> u64 {
        unsafe {
            let cont = _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), self.0));
            u64::from(!cont as u16)
        }
    }
}

// SAFETY (every method below): as for `Bytes`: a `Sse` exists only on a
// CPU with SSSE3 and SSE4.1, more than these need (SSE2); loads and stores
// have the caller's promise of 16 bytes.
impl crate::arch::generic::simd::Simd for Sse {
    const BYTES: usize = 16;

    #[inline(always)]
    unsafe fn zero() -> Sse {
        Sse(unsafe { _mm_setzero_si128() })
    }
    #[inline(always)]
    unsafe fn splat8(b: i8) -> Sse {
        Sse(unsafe { _mm_set1_epi8(b) })
    }
    #[inline(always)]
    unsafe fn splat16(w: i16) -> Sse {
        Sse(unsafe { _mm_set1_epi16(w) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Sse {
        Sse(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm_storeu_si128(p.cast(), self.0) }
    }
    #[inline(always)]
    fn and(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_and_si128(self.0, b.0) })
    }
    #[inline(always)]
    fn or(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_or_si128(self.0, b.0) })
    }
    #[inline(always)]
    fn sub8(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_sub_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn gt8(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_cmpgt_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn add16(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_add_epi16(self.0, b.0) })
    }
    #[inline(always)]
    fn eq16(self, b: Sse) -> Sse {
        Sse(unsafe { _mm_cmpeq_epi16(self.0, b.0) })
    }
    #[inline(always)]
    fn any_high(self) -> bool {
        unsafe { _mm_movemask_epi8(self.0) != 0 }
    }
    #[inline(always)]
    fn sum_bytes(self) -> u64 {
        unsafe {
            let sums = _mm_sad_epu8(self.0, _mm_setzero_si128());
            (_mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums))) as u64
        }
    }
    #[inline(always)]
    fn sum16(self) -> i64 {
        unsafe {
            let pairs = _mm_madd_epi16(self.0, _mm_set1_epi16(1));
            let two = _mm_add_epi32(pairs, _mm_unpackhi_epi64(pairs, pairs));
            let one = _mm_add_epi32(two, _mm_srli_epi64::<32>(two));
            i64::from(_mm_cvtsi128_si32(one))
        }
    }
}
