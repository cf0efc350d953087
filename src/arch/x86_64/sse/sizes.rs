//! The UTF-8 size of well-formed UTF-16: `generic::sizes` over [`Sse`].

use super::vector::Sse;
use crate::arch::generic::sizes::utf8_len_of_utf16 as generic;

/// UTF-8 bytes for well-formed UTF-16 `src` (byte-swapped with `swap`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "sse2")]
pub(super) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    // SAFETY: the CPU has the tier's features.
    unsafe {
        if swap {
            generic::<Sse, true>(src)
        } else {
            generic::<Sse, false>(src)
        }
    }
}
