//! [`Simd`] for the AVX2 tier: one `__m256i`.

use core::arch::x86_64::*;

use crate::arch::generic::simd::Simd;

/// A vector of the AVX2 tier. Only `Simd`'s `unsafe` constructors make one
/// from nothing, with the promise that the CPU has AVX2 (the tier's other
/// code only transforms vectors it already has); every operation below
/// relies on it.
#[derive(Clone, Copy)]
pub(super) struct Avx2(pub(super) __m256i);

// SAFETY (every method below): an `Avx2` exists only on a CPU with AVX2,
// all these need; loads and stores have the caller's promise of 32 bytes.
impl Simd for Avx2 {
    const BYTES: usize = 32;

    #[inline(always)]
    unsafe fn zero() -> Avx2 {
        Avx2(unsafe { _mm256_setzero_si256() })
    }
    #[inline(always)]
    unsafe fn splat8(b: i8) -> Avx2 {
        Avx2(unsafe { _mm256_set1_epi8(b) })
    }
    #[inline(always)]
    unsafe fn splat16(w: i16) -> Avx2 {
        Avx2(unsafe { _mm256_set1_epi16(w) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Avx2 {
        Avx2(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }
    #[inline(always)]
    fn and(self, b: Avx2) -> Avx2 {
        Avx2(unsafe { _mm256_and_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn or(self, b: Avx2) -> Avx2 {
        Avx2(unsafe { _mm256_or_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn sub8(self, b: Avx2) -> Avx2 {
        Avx2(unsafe { _mm256_sub_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn gt8(self, b: Avx2) -> Avx2 {
        Avx2(unsafe { _mm256_cmpgt_epi8(self.0, b.0) })
    }
    #[inline(always)]
    fn add16(self, b: Avx2) -> Avx2 {
        Avx2(unsafe { _mm256_add_epi16(self.0, b.0) })
    }
    #[inline(always)]
    fn eq16(self, b: Avx2) -> Avx2 {
        Avx2(unsafe { _mm256_cmpeq_epi16(self.0, b.0) })
    }
    #[inline(always)]
    fn any_high(self) -> bool {
        unsafe { _mm256_movemask_epi8(self.0) != 0 }
    }
    #[inline(always)]
    fn sum_bytes(self) -> u64 {
        unsafe {
            let sums = _mm256_sad_epu8(self.0, _mm256_setzero_si256());
            let half = _mm_add_epi64(
                _mm256_castsi256_si128(sums),
                _mm256_extracti128_si256::<1>(sums),
            );
            (_mm_cvtsi128_si64(half) + _mm_extract_epi64::<1>(half)) as u64
        }
    }
    #[inline(always)]
    fn sum16(self) -> i64 {
        unsafe {
            let pairs = _mm256_madd_epi16(self.0, _mm256_set1_epi16(1));
            let quads = _mm_add_epi32(
                _mm256_castsi256_si128(pairs),
                _mm256_extracti128_si256::<1>(pairs),
            );
            let two = _mm_add_epi32(quads, _mm_unpackhi_epi64(quads, quads));
            i64::from(_mm_cvtsi128_si32(two)) + i64::from(_mm_extract_epi32::<1>(two))
        }
    }
}
