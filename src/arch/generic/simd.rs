//! The width-generic vector: `BYTES` bytes in one register (16 for SSE4.2
//! and NEON, 32 for AVX2), with the few integer operations the algorithms
//! written once over it need ([`super::count`], [`super::sizes`],
//! [`super::ascii`]). Where [`super::vector::Bytes`] is fixed at 16 bytes
//! for the nibble-table validator and decoder, this one is written for any
//! width, so the same loop serves the 16- and 32-byte tiers.
//!
//! As with `Bytes`, a value exists only where the CPU has the instruction
//! set its type needs: the constructors are `unsafe` with that promise,
//! and the operations on values already made are safe.

/// One register of `BYTES` bytes.
// The 16-bit operations serve `sizes`, which NEON does not use.
#[cfg_attr(target_arch = "aarch64", allow(dead_code))]
pub(crate) trait Simd: Copy {
    /// Bytes in a register.
    const BYTES: usize;

    /// All bytes zero.
    ///
    /// # Safety
    /// The CPU has the implementation's instruction set.
    unsafe fn zero() -> Self;
    /// Every byte `b`.
    ///
    /// # Safety
    /// As [`Simd::zero`].
    unsafe fn splat8(b: i8) -> Self;
    /// Every 16-bit lane `w`.
    ///
    /// # Safety
    /// As [`Simd::zero`].
    unsafe fn splat16(w: i16) -> Self;
    /// The `BYTES` bytes at `p`.
    ///
    /// # Safety
    /// As [`Simd::zero`], and `p` has `BYTES` readable bytes.
    unsafe fn load(p: *const u8) -> Self;
    /// Writes the register to the `BYTES` bytes at `p`.
    ///
    /// # Safety
    /// `p` has `BYTES` writable bytes.
    unsafe fn store(self, p: *mut u8);

    fn and(self, b: Self) -> Self;
    fn or(self, b: Self) -> Self;
    /// Byte lanes: `self - b`, wrapping.
    fn sub8(self, b: Self) -> Self;
    /// Byte lanes: all ones where `self > b` as signed bytes, else zero.
    fn gt8(self, b: Self) -> Self;
    /// 16-bit lanes: `self + b`, wrapping.
    fn add16(self, b: Self) -> Self;
    /// 16-bit lanes: all ones where `self == b`, else zero.
    fn eq16(self, b: Self) -> Self;
    /// Whether some byte has its top bit set.
    fn any_high(self) -> bool;
    /// The sum of the bytes as unsigned values (at most `255 * BYTES`).
    fn sum_bytes(self) -> u64;
    /// The sum of the 16-bit lanes as signed values.
    fn sum16(self) -> i64;
}
