//! The vector trait the shared algorithms are written over.
//!
//! A value of an implementing type exists only where the CPU has the
//! instruction set it needs: the only ways to make one (`splat`, `load`,
//! `table`, `zero`) are `unsafe` with that promise, so the operations on
//! values already made are safe. A tier's wrapper type keeps its vector in
//! a private field for the same reason.

/// `BYTES` bytes, as one SIMD register: 16 (SSE4.2, NEON) or 32 (AVX2).
/// Table lookups work within each 16-byte lane, so a 32-byte register
/// repeats its 16-entry tables in both lanes.
pub(crate) trait Bytes: Copy {
    /// Bytes in a register. The validator ([`super::utf8`]) and the
    /// classifier are written for any width; the nibble decoder
    /// ([`super::decode`]) for 16 only, and checks it at compile time.
    const BYTES: usize = 16;

    /// Bits a byte takes in the masks ([`Bytes::nonzero_mask`] and the
    /// others): 1 (`PMOVMSKB`) or 4 (NEON's narrowing shift). Byte `k`
    /// owns bits `k * MASK_BITS ..` and all of them are equal.
    const MASK_BITS: u32;

    /// Whether [`super::utf8::validate`], after a valid non-ASCII group of
    /// four blocks, checks the next group at once with no ASCII test, in
    /// the same step. It saves NEON the loop's copies and an ASCII test
    /// (non-ASCII validation 84 -> 79.5 instructions per 64 bytes,
    /// `benches/aarch64/icount.sh`); the same shape (then with one error
    /// test for both groups) cost SSE4.2 5% on non-ASCII text and 18% on
    /// `ascii+1%2B`.
    const PAIRED_GROUPS: bool = false;

    /// Whether [`super::utf8::validate`] and the classifier hand runs of
    /// ASCII-and-2-byte text to the cheaper pair test ([`super::pair_test`]).
    const PAIR_TEST: bool = false;

    /// All bytes `b`.
    ///
    /// # Safety
    /// The CPU has the implementation's instruction set.
    unsafe fn splat(b: u8) -> Self;

    /// The `BYTES` bytes at `p`.
    ///
    /// # Safety
    /// As [`Bytes::splat`], and `p` has `BYTES` readable bytes.
    unsafe fn load(p: *const u8) -> Self;

    /// A 16-entry lookup table as a vector (in each 16-byte lane).
    ///
    /// # Safety
    /// As [`Bytes::splat`].
    unsafe fn table(t: [u8; 16]) -> Self;

    /// The limits past which a block's last three bytes start a sequence
    /// the block cannot finish (`tables::incomplete_limits`), 0xFF below.
    ///
    /// # Safety
    /// As [`Bytes::splat`].
    #[inline(always)]
    unsafe fn incomplete_limits() -> Self {
        // SAFETY: the caller's promise.
        unsafe { Self::table(super::tables::incomplete_limits::<16>()) }
    }

    /// Bytes `[at, at + BYTES)` of `src`, zero-filled past its end (all zero
    /// when `at >= src.len()`).
    ///
    /// # Safety
    /// As [`Bytes::splat`].
    unsafe fn chunk(src: &[u8], at: usize) -> Self;

    fn or(self, b: Self) -> Self;
    fn and(self, b: Self) -> Self;
    fn xor(self, b: Self) -> Self;
    /// Byte lanes: `self + b`, wrapping.
    fn add(self, b: Self) -> Self;
    /// `self AND NOT b`.
    fn and_not(self, b: Self) -> Self;
    /// Each byte's high nibble, as a byte 0..16.
    fn high_nibbles(self) -> Self;
    /// Each byte's low nibble.
    fn low_nibbles(self) -> Self;
    /// `table[i]` for each byte `i` of `self` (each under 16).
    fn lookup(self, table: Self) -> Self;
    /// The `BYTES` bytes ending `N` bytes before the end of `self`, the
    /// first `N` of them the last `N` of `prev` (1 <= N <= 3).
    fn prev<const N: i32>(self, prev: Self) -> Self;
    /// Unsigned saturating subtraction.
    fn sub_sat(self, b: Self) -> Self;
    /// Unsigned minimum.
    fn min(self, b: Self) -> Self;
    /// Unsigned maximum.
    fn max(self, b: Self) -> Self;
    /// Signed minimum.
    fn min_signed(self, b: Self) -> Self;
    /// The largest byte.
    fn max_byte(self) -> u8;
    /// Whether every byte is 0.
    fn is_zero(self) -> bool;
    /// Whether some byte has its top bit set (is not ASCII).
    fn any_high(self) -> bool;
    /// Whether every byte is 01..7F (signed, above 0).
    fn all_positive(self) -> bool;
    /// The bytes that are not 0, as a mask ([`Bytes::MASK_BITS`]).
    fn nonzero_mask(self) -> u64;
    /// The bytes that are 0.
    fn zero_mask(self) -> u64;
    /// The bytes that are not continuation bytes (80..BF).
    fn lead_mask(self) -> u64;
    /// The number of bytes that are not continuation bytes.
    fn lead_count(self) -> u32 {
        self.lead_mask().count_ones() / Self::MASK_BITS
    }

    /// The bytes of four vectors that are not continuation bytes.
    #[inline(always)]
    fn lead_count4(v: [Self; 4]) -> u32 {
        let [a, b, c, d] = v.map(Self::lead_count);
        a + b + c + d
    }

    /// The bytes of four vectors that have their top bit set (a count, not
    /// a mask: NEON sums them in byte lanes rather than build masks).
    fn high_count4(v: [Self; 4]) -> u32;

    /// The mask of the first `n` bytes.
    #[inline(always)]
    fn first_bytes(n: usize) -> u64 {
        let bits = n.min(Self::BYTES) as u32 * Self::MASK_BITS;
        if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        }
    }

    /// The index of the first byte set in `mask`, which is not empty.
    #[inline(always)]
    fn first_set(mask: u64) -> usize {
        (mask.trailing_zeros() / Self::MASK_BITS) as usize
    }

    /// `mask` with one bit a byte, as `arch::count_until_error` takes it.
    #[inline(always)]
    fn bit_per_byte(mask: u64) -> u64 {
        if Self::MASK_BITS == 1 {
            return mask;
        }
        (0..Self::BYTES as u32).fold(0, |m, k| m | ((mask >> (k * Self::MASK_BITS)) & 1) << k)
    }
}

/// The four blocks at byte `i` of `src`.
///
/// # Safety
/// As [`Bytes::load`], and bytes `i..i + 4 * V::BYTES` of `src` are in
/// bounds.
#[inline(always)]
pub(crate) unsafe fn load_four<V: Bytes>(src: &[u8], i: usize) -> [V; 4] {
    let w = V::BYTES;
    // SAFETY: the caller's promises.
    unsafe {
        let p = src.as_ptr().add(i);
        [
            V::load(p),
            V::load(p.add(w)),
            V::load(p.add(2 * w)),
            V::load(p.add(3 * w)),
        ]
    }
}
