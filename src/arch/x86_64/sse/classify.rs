//! Classification fused into validation: the algorithm shared with NEON
//! (`arch::generic::classify`), over [`Sse`] vectors.

use super::vector::Sse;
use crate::arch::generic::classify as generic;
use crate::contract::{FastStop, Utf8Stats};

/// Validates `src` and counts its valid prefix up to the returned offset
/// (a group boundary), as [`crate::arch::kernels::ClassifyKernel`] says.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    // SAFETY: the caller's promise covers `Sse`'s features.
    unsafe { generic::classify::<Sse>(src) }
}
