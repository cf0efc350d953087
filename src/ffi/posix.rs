//! Locale-free drop-ins for `mbstowcs` and `wcstombs`: always UTF-8, thread-safe.

use core::ffi::{c_char, CStr};

use super::buffers::{output_up_to, Output};
use super::errno::fail;
use super::wide::{self, Unit};
use crate::Status;
use libc::wchar_t;

/// The POSIX ending: a full buffer is success, the terminator is written
/// when there is room, an error before the buffer fills is `EILSEQ`.
fn finish<T: Copy + Default>(status: Status, written: usize, dst: &mut [T], n: usize) -> usize {
    match status {
        Status::Done => {
            if let Some(slot) = dst.get_mut(written) {
                *slot = T::default();
            }
            written
        }
        _ if written == n => written,
        Status::OutputFull => written,
        _ => fail(libc::EILSEQ),
    }
}

/// `mbstowcs(3)` for UTF-8, whatever the locale: converts the NUL-terminated
/// string `src` to at most `n` wide characters at `dest`, adding a terminating
/// L'\0' if there is room. Returns the number of wide characters written (not
/// counting the terminator); with `dest` NULL, the number the whole string
/// needs (`n` is ignored). On an ill-formed sequence met before `n`
/// characters were written: `(size_t)-1` and `errno` = `EILSEQ` (what was
/// converted before it has been written). A NULL `src`, or a `dest` that is
/// misaligned or overlaps `src`: `(size_t)-1` and `EINVAL`.
///
/// Where `wchar_t` is 16 bits (Windows), the wide characters are UTF-16
/// units, as Windows' own CRT writes them in a UTF-8 locale: a character
/// above U+FFFF is a surrogate pair, two units, counted as two (`n` and the
/// result count units), and never split: with one unit of room left it is
/// not converted.
///
/// # Safety
/// `src` must be a NUL-terminated string; `dest`, if not NULL, must have room
/// for `n` wide characters.
#[no_mangle]
pub unsafe extern "C" fn u8x_mbstowcs(dest: *mut wchar_t, src: *const c_char, n: usize) -> usize {
    if src.is_null() {
        return fail(libc::EINVAL);
    }
    // SAFETY: the caller promises a NUL-terminated string.
    let bytes = unsafe { CStr::from_ptr(src) }.to_bytes();
    // SAFETY: the caller promises room for `n` wide characters at `dest`;
    // wchar_t and Unit have the same size and alignment (asserted in
    // wide.rs).
    match unsafe { output_up_to(dest.cast::<Unit>(), n, bytes.len() + 1, bytes) } {
        Some(Output::Measure) | None if dest.is_null() => {
            let p = wide::decoded_len(bytes, false);
            match p.status {
                Status::Done => p.written,
                _ => fail(libc::EILSEQ),
            }
        }
        Some(Output::Buffer(dst)) => {
            let cap = n.min(bytes.len()).min(dst.len());
            let p = wide::decode(bytes, &mut dst[..cap], false);
            finish(p.status, p.written, dst, n)
        }
        _ => fail(libc::EINVAL),
    }
}

/// `wcstombs(3)` for UTF-8, whatever the locale: converts the L'\0'-terminated
/// wide string `src` to at most `n` bytes at `dest`, never splitting a
/// character, adding a terminating '\0' if there is room. Returns the number of
/// bytes written (not counting the terminator); with `dest` NULL, the number
/// the whole string needs. A surrogate, a value above 0x10FFFF or a negative
/// `wchar_t` met before the buffer fills: `(size_t)-1` and `errno` = `EILSEQ`.
/// A NULL or misaligned `src`, or a `dest` overlapping it: `(size_t)-1` and
/// `EINVAL`.
///
/// Where `wchar_t` is 16 bits (Windows), `src` is UTF-16: a surrogate pair
/// is one character (4 bytes), and an unpaired surrogate, at the end
/// included, is `EILSEQ`.
///
/// # Safety
/// `src` must be an L'\0'-terminated wide string; `dest`, if not NULL, must
/// have room for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn u8x_wcstombs(dest: *mut c_char, src: *const wchar_t, n: usize) -> usize {
    if src.is_null() || !src.is_aligned() {
        return fail(libc::EINVAL);
    }
    let src = src.cast::<Unit>();
    let mut len = 0usize;
    // SAFETY: the caller promises a terminated string, so every element up
    // to and including the terminator is readable.
    while unsafe { *src.add(len) } != 0 {
        len += 1;
    }
    // SAFETY: the `len` elements before the terminator are readable and
    // `src` is non-NULL and aligned.
    let units = unsafe { core::slice::from_raw_parts(src, len) };
    let most = len.saturating_mul(4).saturating_add(1);
    // SAFETY: the caller promises room for `n` bytes at `dest`.
    match unsafe { output_up_to(dest.cast::<u8>(), n, most, units) } {
        Some(Output::Measure) | None if dest.is_null() => {
            let p = wide::encoded_len(units);
            match p.status {
                Status::Done => p.written,
                _ => fail(libc::EILSEQ),
            }
        }
        Some(Output::Buffer(dst)) => {
            let cap = n.min(most - 1).min(dst.len());
            let p = wide::encode(units, &mut dst[..cap], false);
            finish(p.status, p.written, dst, n)
        }
        _ => fail(libc::EINVAL),
    }
}
