//! Classification fused into validation: the shared classifier
//! (`arch::generic::classify`, with the pair test) over 64-byte vectors.
//! It ran 1.1x-1.8x this tier's own (a group loop with byte-lane counters,
//! removed) on AMD Zen 4.

use super::vector::Avx512;
use crate::arch::generic::classify as generic;
use crate::contract::{FastStop, Utf8Stats};

/// Validates `src` and counts a prefix of it (`generic::classify`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    // SAFETY: the caller's promise covers `Avx512`'s features.
    unsafe { generic::classify::<Avx512>(src) }
}
