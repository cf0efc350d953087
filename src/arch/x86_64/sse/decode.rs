//! UTF-8 to UCS-4 or UTF-16, 12 bytes a step: the shared decoder
//! (`arch::generic::decode`) over [`Sse`] vectors.

use super::vector::Sse;
use crate::arch::generic::decode as generic;
use crate::contract::FastStop;

/// Decodes the longest valid prefix of `src` to code points, stopping at a
/// character boundary before the first error or when `out` is full.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// code points.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the caller's promises; the features include `Sse`'s.
    unsafe { generic::decode::<Sse>(src, out, cap) }
}

/// Decodes the longest valid prefix of `src` to UTF-16 (byte-swapped with
/// `swap`), stopping at a character boundary before the first error or
/// when `out` is full; a pair is written whole or not at all.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// units.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn decode_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the caller's promises; the features include `Sse`'s.
    unsafe { generic::decode_utf16::<Sse>(src, out, cap, swap) }
}
