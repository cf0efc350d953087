//! Runs of plain ASCII for the stopping decoders (`generic::stopping`): whole
//! blocks of bytes 01..7F, or 00..7F when 00 is not a stop, widened to
//! code points (to UTF-16 units, `widen` has the loops) in one pass, for
//! AVX2 and SSE4.2.
//!
//! A block is plain when its signed minimum is above 0 (with `ZERO`: no
//! byte is 00 or >= 80) or its OR has no high bit (without).

use core::arch::x86_64::*;

use super::widen::{ascii_units_avx2_stopping, ascii_units_sse41_stopping};

/// Whether the 32 bytes of `v` are plain.
#[target_feature(enable = "avx2")]
#[inline]
fn plain_avx2<const ZERO: bool>(v: __m256i) -> bool {
    if ZERO {
        _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_setzero_si256())) == -1
    } else {
        _mm256_movemask_epi8(v) == 0
    }
}

/// Whether the 16 bytes of `v` are plain.
#[target_feature(enable = "sse4.1")]
#[inline]
fn plain_sse<const ZERO: bool>(v: __m128i) -> bool {
    if ZERO {
        _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128())) == 0xFFFF
    } else {
        _mm_movemask_epi8(v) == 0
    }
}

/// Widens the whole plain 32-byte blocks at the start of `src` into the
/// `cap` code points at `out`, as far as they fit; returns how many bytes.
///
/// # Safety
/// The CPU must support AVX2; `out` is valid for `cap` code points.
#[target_feature(enable = "avx2")]
unsafe fn widen_avx2_blocks<const ZERO: bool>(src: &[u8], out: *mut u32, cap: usize) -> usize {
    let limit = src.len().min(cap);
    let mut i = 0;
    while limit - i >= 32 {
        // SAFETY: bytes i..i+32 are in bounds (i + 32 <= len).
        let v = unsafe { _mm256_loadu_si256(src.as_ptr().add(i).cast()) };
        if !plain_avx2::<ZERO>(v) {
            break;
        }
        let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let parts = [lo, _mm_srli_si128::<8>(lo), hi, _mm_srli_si128::<8>(hi)];
        for (k, part) in parts.into_iter().enumerate() {
            // SAFETY: code points i..i+32 lie in the `cap` at `out` (i + 32
            // <= cap).
            unsafe { _mm256_storeu_si256(out.add(i + 8 * k).cast(), _mm256_cvtepu8_epi32(part)) };
        }
        i += 32;
    }
    i
}

/// [`widen_avx2_blocks`] with 16-byte blocks, tested four at a time while
/// there are four (tested one at a time, Latin text decoded at 0.63x the
/// SSE4.2 decoder).
///
/// # Safety
/// The CPU must support SSE4.1; `out` is valid for `cap` code points.
#[target_feature(enable = "sse4.1")]
unsafe fn widen_sse_blocks<const ZERO: bool>(src: &[u8], out: *mut u32, cap: usize) -> usize {
    let limit = src.len().min(cap);
    let ptr = src.as_ptr();
    // SAFETY (both closures): the caller passes offsets of readable bytes
    // and code points within `limit`.
    let load = |i: usize| unsafe { _mm_loadu_si128(ptr.add(i).cast()) };
    let widen = |i: usize, v: __m128i| {
        let parts = [
            v,
            _mm_srli_si128::<4>(v),
            _mm_srli_si128::<8>(v),
            _mm_srli_si128::<12>(v),
        ];
        for (k, part) in parts.into_iter().enumerate() {
            // SAFETY: code points i..i+16 are in bounds (i + 16 <= limit).
            unsafe { _mm_storeu_si128(out.add(i + 4 * k).cast(), _mm_cvtepu8_epi32(part)) };
        }
    };
    let mut i = 0;
    while limit - i >= 64 {
        let v = [load(i), load(i + 16), load(i + 32), load(i + 48)];
        let all = if ZERO {
            _mm_min_epi8(_mm_min_epi8(v[0], v[1]), _mm_min_epi8(v[2], v[3]))
        } else {
            _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]))
        };
        if !plain_sse::<ZERO>(all) {
            break;
        }
        for (k, &block) in v.iter().enumerate() {
            widen(i + 16 * k, block);
        }
        i += 64;
    }
    while limit - i >= 16 && plain_sse::<ZERO>(load(i)) {
        widen(i, load(i));
        i += 16;
    }
    i
}

/// Dispatchers on whether 00 is a stop, of the types `stopping` takes.
macro_rules! on_zero {
    ($(#[$doc:meta])* $feature:literal, $name:ident, $blocks:ident, ($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As for the function it dispatches to.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $name($($arg: $ty,)* zero: bool) -> usize {
            // SAFETY: the caller's promises.
            unsafe {
                if zero {
                    $blocks::<true>($($arg),*)
                } else {
                    $blocks::<false>($($arg),*)
                }
            }
        }
    };
}
on_zero!(
    /// [`widen_avx2_blocks`].
    "avx2", widen_avx2, widen_avx2_blocks, (src: &[u8], out: *mut u32, cap: usize)
);
on_zero!(
    /// [`widen_sse_blocks`].
    "sse4.1", widen_sse, widen_sse_blocks, (src: &[u8], out: *mut u32, cap: usize)
);
on_zero!(
    /// `widen`'s [`ascii_units_avx2_stopping`].
    "avx2", units_avx2, ascii_units_avx2_stopping, (src: &[u8], out: *mut u16, cap: usize, swap: bool)
);
on_zero!(
    /// `widen`'s [`ascii_units_sse41_stopping`].
    "sse4.1", units_sse, ascii_units_sse41_stopping, (src: &[u8], out: *mut u16, cap: usize, swap: bool)
);
