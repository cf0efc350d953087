//! UTF-8 validation and counting, 16 bytes a step (the algorithm shared
//! with NEON, `arch::generic::utf8`, over [`Sse`] vectors), and the block
//! helpers the Latin-1 kernels share, on raw `__m128i`.

use core::arch::x86_64::*;

use super::vector::Sse;
use crate::arch::generic::utf8::{self as generic, FOURS, FOURS_ZERO, NO_STOPS};
use crate::arch::{FastStop, Stops};

/// The bytes that are not continuation bytes (0x80..=0xBF).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn lead_bytes(block: __m128i) -> u32 {
    !(_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), block)) as u32) & 0xFFFF
}

/// The four blocks at `i`.
///
/// # Safety
/// Bytes `i..i+64` of `src` are in bounds.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) unsafe fn load_four(src: &[u8], i: usize) -> [__m128i; 4] {
    // SAFETY: the caller guarantees bytes i..i+64 are in bounds; this
    // function's features are `Sse`'s.
    unsafe { generic::load_four::<Sse>(src, i) }.map(|v| v.0)
}

/// The lead masks of four blocks, as one 64-bit mask.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn four_leads(blocks: [__m128i; 4]) -> u64 {
    let [a, b, c, d] = blocks.map(|b| lead_bytes(b) as u64);
    a | b << 16 | c << 32 | d << 48
}

/// Whether the four blocks are all ASCII.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn is_ascii(blocks: [__m128i; 4]) -> bool {
    let [a, b, c, d] = blocks;
    _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) == 0
}

/// The longest valid prefix, at block granularity, and with `COUNT` the
/// number of characters in it (`generic::validate`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn validate<const COUNT: bool>(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise covers `Sse`'s features.
    unsafe { generic::validate::<Sse, COUNT, NO_STOPS>(src) }
}

/// [`validate`] (without counting) stopping also at `stops`, which it
/// flags as errors.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: the caller's promise covers `Sse`'s features.
    unsafe {
        match stops {
            Stops::Fours => generic::validate::<Sse, false, FOURS>(src),
            Stops::FoursAndZero => generic::validate::<Sse, false, FOURS_ZERO>(src),
        }
    }
}

/// Bytes of `src` that are not continuation bytes, 64 a step.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    let len = src.len();
    let (mut i, mut n) = (0, 0);
    while i + 64 <= len {
        // SAFETY: bytes i..i+64 are in bounds.
        n += four_leads(unsafe { load_four(src, i) }).count_ones() as usize;
        i += 64;
    }
    n + crate::scalar::validate::count_leads(&src[i..])
}
