//! Validation, the validating count and the lead count, 64 bytes a step:
//! the shared algorithm of `arch::generic::utf8` over [`Neon`].

use super::vector::Neon;
use crate::arch::generic::utf8::{self as generic, FOURS, FOURS_ZERO, NO_STOPS};
use crate::contract::{FastStop, Stops};

/// The longest valid prefix of `src`, with `COUNT` its characters.
///
/// # Safety
/// None beyond the kernel contract: NEON is baseline here (the table's
/// kernels are `unsafe fn`s on every tier).
pub(super) unsafe fn validate<const COUNT: bool>(src: &[u8]) -> FastStop {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe { generic::validate::<Neon, COUNT, NO_STOPS>(src) }
}

/// [`validate`] stopping also at `stops`.
///
/// # Safety
/// As [`validate`].
pub(super) unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe {
        match stops {
            Stops::Fours => generic::validate::<Neon, false, FOURS>(src),
            Stops::FoursAndZero => generic::validate::<Neon, false, FOURS_ZERO>(src),
        }
    }
}

/// Bytes of `src` that are not continuation bytes (`generic::count`).
///
/// # Safety
/// None beyond the kernel contract (NEON is baseline).
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    // SAFETY: the CPU has the tier's features.
    unsafe { crate::arch::generic::count::count_leads::<super::vector::Neon>(src) }
}
