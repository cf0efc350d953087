//! Vectors of constants for this tier's block checks: a block of bytes, and
//! the permutes that pull the last bytes of the previous block in front.

use core::arch::x86_64::*;
use core::mem::transmute;

/// 64 bytes as a vector (a constant's).
pub(super) const fn bytes(f: [u8; 64]) -> __m512i {
    // SAFETY: both are 64 plain bytes; every bit pattern is a valid __m512i.
    unsafe { transmute(f) }
}

/// Permute indices that shift a block right by `n` bytes, pulling the last
/// `n` bytes of the previous block in front (VPERMT2B: index >= 64 selects
/// the second table).
const fn shift_by(n: usize) -> __m512i {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        idx[j] = (64 - n + j) as u8;
        j += 1;
    }
    bytes(idx)
}
pub(super) const SHIFT_1: __m512i = shift_by(1);
pub(super) const SHIFT_2: __m512i = shift_by(2);
pub(super) const SHIFT_3: __m512i = shift_by(3);
