//! Classification: validation fused with the counts (`arch::generic::classify`).

use super::vector::Neon;
use crate::contract::{FastStop, Utf8Stats};

/// Validates `src`, counting characters, 4-byte characters and the largest
/// byte on the way (`generic::classify`, shared with SSE4.2).
///
/// # Safety
/// None beyond the kernel contract (NEON is baseline).
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe { crate::arch::generic::classify::classify::<Neon>(src) }
}
