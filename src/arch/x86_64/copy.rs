//! Copies of a few bytes, of a length known only at run time, with
//! fixed-size moves.
//!
//! `copy_nonoverlapping` with such a length becomes a call to the C
//! library's `memcpy`, a few nanoseconds each time: most of a short call's
//! time where the kernels finish a block exactly through a buffer on the
//! stack. Two moves of the same size, one from each end (overlapping when
//! the length is not a power of two), copy any length between that size
//! and twice it.

/// Copies the first `n` bytes of `buf` (`n <= 32`) to `out`.
///
/// # Safety
/// `out` has room for `n` bytes and does not overlap `buf`.
#[inline(always)]
pub(super) unsafe fn copy_prefix(buf: &[u8; 32], n: usize, out: *mut u8) {
    debug_assert!(n <= 32);
    /// Moves `N` bytes from `buf[at..]` to `out + at`.
    ///
    /// # Safety
    /// `at + N <= n`, within `out`'s room.
    #[inline(always)]
    unsafe fn step<const N: usize>(buf: &[u8; 32], at: usize, out: *mut u8) {
        let mut bytes = [0u8; N];
        bytes.copy_from_slice(&buf[at..at + N]);
        // SAFETY: the caller's promise.
        unsafe { out.add(at).cast::<[u8; N]>().write_unaligned(bytes) };
    }
    // SAFETY: in each arm both moves lie in [0, n).
    unsafe {
        match n {
            16..=32 => {
                step::<16>(buf, 0, out);
                step::<16>(buf, n - 16, out);
            }
            8..=15 => {
                step::<8>(buf, 0, out);
                step::<8>(buf, n - 8, out);
            }
            4..=7 => {
                step::<4>(buf, 0, out);
                step::<4>(buf, n - 4, out);
            }
            2..=3 => {
                step::<2>(buf, 0, out);
                step::<2>(buf, n - 2, out);
            }
            1 => step::<1>(buf, 0, out),
            _ => {}
        }
    }
}
