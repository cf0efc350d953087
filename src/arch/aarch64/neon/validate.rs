//! Validation, the validating count and the lead count, 64 bytes a step:
//! the shared algorithm of `arch::generic::utf8` over [`Neon`].

use super::vector::{self, Neon};
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

/// Bytes of `src` that are not continuation bytes: 64 a step, counted in
/// byte lanes (each lead's compare mask, -1, subtracted from an
/// accumulator) and summed once every 63 steps, before a lane (at most 4 a
/// step) could pass 255.
///
/// # Safety
/// As [`validate`].
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    use core::arch::aarch64::*;
    let (mut i, mut n) = (0, 0);
    while i + 64 <= src.len() {
        let steps = ((src.len() - i) / 64).min(63);
        // SAFETY: register operations (NEON is baseline).
        let mut acc = unsafe { vdupq_n_u8(0) };
        for _ in 0..steps {
            // SAFETY: bytes i..i+64 are in bounds (`steps` whole steps
            // remain); NEON is baseline.
            let [a, b, c, d] = unsafe { generic::load_four::<Neon>(src, i) };
            let [a, b, c, d] = [a, b, c, d].map(|v| vector::leads(v.0));
            // SAFETY: register operations.
            acc = unsafe { vsubq_u8(vsubq_u8(acc, a), vaddq_u8(b, vaddq_u8(c, d))) };
            i += 64;
        }
        // SAFETY: a register operation.
        n += usize::from(unsafe { vaddlvq_u8(acc) });
    }
    n + crate::portable::count::count_leads(&src[i..])
}
