//! Where the per-block decoders (`emit`, `emit_two`) read a block's 32
//! bytes and the 16 after them: straight from the input, or, for the last
//! block or two, from registers holding the rest of the input zero-filled.
//!
//! The registers come from [`chunk16`],
//! with no copy to a buffer: loading a buffer that was just written in
//! smaller pieces stalls on store forwarding, which made decoding a short
//! string two or three times slower.

use core::arch::x86_64::*;

use crate::arch::x86_64::partial::chunk16;

/// 48 bytes from a block's start.
pub(super) trait Window: Copy {
    /// The 16 bytes from `8 * g`, for `g < 4`.
    ///
    /// # Safety
    /// As for the type (a pointer must have 48 readable bytes).
    unsafe fn group(self, g: usize) -> __m128i;

    /// The 32 bytes from 0 and the 32 from 1.
    ///
    /// # Safety
    /// As for [`Window::group`].
    unsafe fn pairs(self) -> (__m256i, __m256i);
}

/// The input itself: a pointer to 48 readable bytes.
impl Window for *const u8 {
    #[inline(always)]
    unsafe fn group(self, g: usize) -> __m128i {
        // SAFETY: 8g + 16 <= 40 of the 48 readable bytes.
        unsafe { _mm_loadu_si128(self.add(8 * g).cast()) }
    }

    #[inline(always)]
    unsafe fn pairs(self) -> (__m256i, __m256i) {
        // SAFETY: bytes 0..33 of the 48 readable.
        unsafe {
            (
                _mm256_loadu_si256(self.cast()),
                _mm256_loadu_si256(self.add(1).cast()),
            )
        }
    }
}

/// The input from a block's start to its end (under 48 bytes), zero-filled
/// to 48, in three registers.
#[derive(Clone, Copy)]
pub(super) struct Tail([__m128i; 3]);

impl Tail {
    /// The bytes of `src` from `at` on (fewer than 48).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn new(src: &[u8], at: usize) -> Tail {
        Tail([0, 16, 32].map(|o| chunk16(src, at + o)))
    }
}

impl Window for Tail {
    #[inline(always)]
    unsafe fn group(self, g: usize) -> __m128i {
        let [a, b, c] = self.0;
        // SAFETY (all): the caller has the features (AVX2) these need.
        unsafe {
            match g {
                0 => a,
                1 => _mm_alignr_epi8::<8>(b, a),
                2 => b,
                _ => _mm_alignr_epi8::<8>(c, b),
            }
        }
    }

    #[inline(always)]
    unsafe fn pairs(self) -> (__m256i, __m256i) {
        let [a, b, c] = self.0;
        // SAFETY: as above.
        unsafe {
            (
                _mm256_set_m128i(b, a),
                _mm256_set_m128i(_mm_alignr_epi8::<1>(c, b), _mm_alignr_epi8::<1>(b, a)),
            )
        }
    }
}
