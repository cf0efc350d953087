//! What the shared decoder (`generic::decode`) needs from a vector beyond
//! [`Bytes`]: joining a character's bytes, gathered into 16- or 32-bit
//! lanes, into code points, and storing lanes as code points or UTF-16
//! units. These are where the instruction sets differ most (x86's
//! multiply-adds and zero-extensions, NEON's multiply-subtract and
//! widening moves), so each tier writes them itself.

use super::vector::Bytes;

/// A [`Bytes`] vector the UTF-8 decoder can run on.
pub(crate) trait Lanes: Bytes {
    /// The constants [`Lanes::short_lanes_with`] and
    /// [`Lanes::long_lanes_with`] use, made once before a loop.
    type Constants: Copy;
    /// See [`Lanes::Constants`].
    ///
    /// # Safety
    /// The CPU has the implementation's instruction set.
    unsafe fn constants() -> Self::Constants;
    /// `self`, its origin hidden from the compiler, which then keeps it in a
    /// register through a loop instead of making it again at each use.
    fn pinned(self) -> Self {
        self
    }
    /// [`Lanes::short_lanes`] with the constants at hand.
    fn short_lanes_with(self, _k: &Self::Constants) -> Self {
        self.short_lanes()
    }
    /// [`Lanes::long_lanes`] with the constants at hand.
    fn long_lanes_with(self, _k: &Self::Constants) -> Self {
        self.long_lanes()
    }
    /// [`Lanes::long_lanes_with`] when every lane is a 3-byte character.
    fn three_lanes_with(self, k: &Self::Constants) -> Self {
        self.long_lanes_with(k)
    }
    /// Eight 3-byte characters, the 24 bytes at `p`: their code points
    /// (below U+10000) in 16-bit lanes, for [`Lanes::short_ucs4`] and
    /// [`Lanes::short_utf16`].
    ///
    /// # Safety
    /// `p` has 32 readable bytes.
    unsafe fn eight_threes(p: *const u8, k: &Self::Constants) -> Self;
    /// Eight 16-bit lanes, each a character of one or two bytes, last
    /// byte lowest, zero-filled: their code points (below U+0800).
    fn short_lanes(self) -> Self;
    /// Four 32-bit lanes, each a character of one to four bytes, last byte
    /// lowest, zero-filled: their code points.
    fn long_lanes(self) -> Self;
    /// Set bit `k` where byte `k` of the 64 is not a continuation byte.
    fn leads64(blocks: [Self; 4]) -> u64;

    /// Writes the 16 bytes (ASCII) as 16 code points.
    ///
    /// # Safety
    /// `dst` has room for 16 code points.
    unsafe fn ascii_ucs4(self, dst: *mut u32, k: &Self::Constants);
    /// Writes the 16 bytes (ASCII) as 16 UTF-16 units, byte-swapped with
    /// `SWAP`.
    ///
    /// # Safety
    /// `dst` has room for 16 units.
    unsafe fn ascii_utf16<const SWAP: bool>(self, dst: *mut u16);
    /// Writes eight 16-bit lanes as code points.
    ///
    /// # Safety
    /// `dst` has room for 8 code points.
    unsafe fn short_ucs4(self, dst: *mut u32);
    /// Writes eight 16-bit lanes as UTF-16 units.
    ///
    /// # Safety
    /// `dst` has room for 8 units.
    unsafe fn short_utf16<const SWAP: bool>(self, dst: *mut u16);
    /// Writes four 32-bit lanes as code points.
    ///
    /// # Safety
    /// `dst` has room for 4 code points.
    unsafe fn long_ucs4(self, dst: *mut u32);
    /// Writes four 32-bit lanes of scalar values as UTF-16 (a lane past
    /// the characters holds 0), packed; returns how many took two units.
    ///
    /// # Safety
    /// `dst` has room for 8 units.
    unsafe fn long_utf16<const SWAP: bool>(self, dst: *mut u16) -> usize;
    /// Writes four 32-bit lanes below U+10000 as four UTF-16 units.
    ///
    /// # Safety
    /// `dst` has room for 4 units.
    unsafe fn bmp_utf16<const SWAP: bool>(self, dst: *mut u16);
}
