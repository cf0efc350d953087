//! UTF-8 validation and counting, 16 bytes a step (the algorithm shared
//! with NEON, `arch::generic::utf8`, over [`Sse`] vectors), and the block
//! helpers the Latin-1 kernels share, on raw `__m128i`.

use super::vector::Sse;
use crate::arch::generic::utf8::{self as generic, FOURS, FOURS_ZERO, NO_STOPS};
use crate::contract::{FastStop, Stops};

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

/// Bytes of `src` that are not continuation bytes (`generic::count`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    // SAFETY: the CPU has the tier's features.
    unsafe { crate::arch::generic::count::count_leads::<super::vector::Sse>(src) }
}
