//! Turning C `(pointer, length)` pairs into slices, with every check that can
//! be made: NULL, alignment, size, wrap-around, overlap. This and the
//! `extern "C"` functions beside it are the only code that handles raw
//! pointers.
//!
//! What cannot be checked is whether the memory is really there: a length
//! larger than the caller's buffer is the caller's undefined behaviour.

use core::mem::size_of;
use core::slice;

/// A caller's output: a buffer to fill, or NULL with capacity 0, meaning
/// "only tell me the size".
pub enum Output<'a, T> {
    Measure,
    Buffer(&'a mut [T]),
}

/// Whether `len` elements at the non-NULL `ptr` could be one object: at most
/// `isize::MAX` bytes, not running past the end of the address space.
fn fits<T>(ptr: *const T, len: usize) -> bool {
    len <= isize::MAX as usize / size_of::<T>()
        && (ptr as usize).checked_add(len * size_of::<T>()).is_some()
}

/// `len` elements at `ptr` as a slice; `None` if no slice can describe them.
/// A misaligned pointer is refused even with `len` 0: it is a wrong pointer
/// either way, and refusing it always keeps the rule simple to state.
///
/// # Safety
/// If `ptr` is not NULL and `len > 0`, the caller promises `len` readable
/// elements there, not written to during the call.
pub unsafe fn input<'a, T>(ptr: *const T, len: usize) -> Option<&'a [T]> {
    if !ptr.is_aligned() {
        return None;
    }
    if len == 0 {
        return Some(&[]);
    }
    if ptr.is_null() || !fits(ptr, len) {
        return None;
    }
    // SAFETY: non-NULL, aligned, at most isize::MAX bytes within the address
    // space, and the caller promises `len` readable elements.
    Some(unsafe { slice::from_raw_parts(ptr, len) })
}

/// The caller's output buffer of `cap` elements, refused as an input
/// length is (more than `PTRDIFF_MAX` bytes, or running past the end of the
/// address space), then clamped to `most` (the largest output the call can
/// produce), so that a generous capacity never describes memory beyond what
/// the call may touch. `None` for NULL with a non-zero capacity, a
/// misaligned pointer (whatever the capacity), a capacity no buffer can
/// have, or a buffer overlapping `src` within its first `most` elements.
///
/// # Safety
/// If `ptr` is not NULL, the caller promises `cap` writable elements there.
pub unsafe fn output<'a, T, S>(
    ptr: *mut T,
    cap: usize,
    most: usize,
    src: &[S],
) -> Option<Output<'a, T>> {
    if !ptr.is_null() && cap != 0 && !fits(ptr as *const T, cap) {
        return None;
    }
    // SAFETY: the caller's promise, passed on.
    unsafe { output_up_to(ptr, cap, most, src) }
}

/// [`output`] for the POSIX functions, whose `n` is a limit on what they
/// write, not a claim about the buffer (`mbstowcs(buf, s, SIZE_MAX)` is
/// valid C when the result is known to fit): only the first
/// `min(n, most)` elements must be a possible buffer.
///
/// # Safety
/// If `ptr` is not NULL, the caller promises `min(n, most)` writable
/// elements there.
pub unsafe fn output_up_to<'a, T, S>(
    ptr: *mut T,
    n: usize,
    most: usize,
    src: &[S],
) -> Option<Output<'a, T>> {
    if ptr.is_null() {
        return (n == 0).then_some(Output::Measure);
    }
    if !ptr.is_aligned() {
        return None;
    }
    let len = n.min(most);
    if len == 0 {
        return Some(Output::Buffer(&mut []));
    }
    if !fits(ptr as *const T, len) || overlaps(ptr as usize, len * size_of::<T>(), src) {
        return None;
    }
    // SAFETY: non-NULL, aligned, `len <= n` elements which the caller
    // promises are writable, at most isize::MAX bytes within the address
    // space, and disjoint from `src`, the only other slice alive during the
    // call.
    Some(Output::Buffer(unsafe {
        slice::from_raw_parts_mut(ptr, len)
    }))
}

fn overlaps<S>(start: usize, bytes: usize, src: &[S]) -> bool {
    let src_start = src.as_ptr() as usize;
    let src_bytes = core::mem::size_of_val(src);
    src_bytes != 0
        && start < src_start.wrapping_add(src_bytes)
        && src_start < start.wrapping_add(bytes)
}

/// `len` elements at `ptr` as one slice read and written in place (a
/// caller passing the same buffer as input and output); `None` if no slice
/// can describe them, as for [`input`].
///
/// # Safety
/// If `ptr` is not NULL and `len > 0`, the caller promises `len` readable
/// and writable elements there, used by nothing else during the call.
pub unsafe fn in_place<'a, T>(ptr: *mut T, len: usize) -> Option<&'a mut [T]> {
    if !ptr.is_aligned() {
        return None;
    }
    if len == 0 {
        return Some(&mut []);
    }
    if ptr.is_null() || !fits(ptr as *const T, len) {
        return None;
    }
    // SAFETY: non-NULL, aligned, at most isize::MAX bytes within the address
    // space, and the caller promises `len` elements it lends for the call.
    Some(unsafe { slice::from_raw_parts_mut(ptr, len) })
}
