//! The byte search of the stopping decoders (`FindByteKernel`) on NEON.

use core::arch::aarch64::*;

/// The index of the first byte `b` of `src` with `b + bias >= threshold`
/// (wrapping), or `src.len()`: 64 bytes a step, their largest biased byte
/// tested once (`UMAXV`).
///
/// # Safety
/// None beyond the kernel contract (NEON is baseline on aarch64).
pub(super) unsafe fn find_byte(src: &[u8], bias: u8, threshold: u8) -> usize {
    let mut i = 0;
    while i + 64 <= src.len() {
        let p = src[i..i + 64].as_ptr();
        // SAFETY: `p` starts 64 readable bytes (the slice above); the
        // rest are register operations.
        let top = unsafe {
            let b = vdupq_n_u8(bias);
            let biased = |o: usize| vaddq_u8(vld1q_u8(p.add(o)), b);
            vmaxvq_u8(vmaxq_u8(
                vmaxq_u8(biased(0), biased(16)),
                vmaxq_u8(biased(32), biased(48)),
            ))
        };
        if top >= threshold {
            break;
        }
        i += 64;
    }
    i + src[i..]
        .iter()
        .position(|&b| b.wrapping_add(bias) >= threshold)
        .unwrap_or(src.len() - i)
}
