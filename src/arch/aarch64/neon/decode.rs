//! Decoding to UCS-4 and UTF-16: the shared decoder of `arch::generic::decode`
//! over [`Neon`].

use super::vector::Neon;
use crate::arch::generic::decode as decoder;
use crate::contract::FastStop;

/// Decodes the longest valid prefix of `src` into the `cap` code points at
/// `out`.
///
/// # Safety
/// `out` points to `cap` writable code points.
pub(super) unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the caller's promise; NEON is baseline.
    unsafe { decoder::decode::<Neon>(src, out, cap) }
}

/// Decodes the longest valid prefix of `src` into the `cap` UTF-16 units
/// at `out`, byte-swapped with `swap`.
///
/// # Safety
/// `out` points to `cap` writable units.
pub(super) unsafe fn decode_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the caller's promise; NEON is baseline.
    unsafe { decoder::decode_utf16::<Neon>(src, out, cap, swap) }
}
