//! What the POSIX drop-ins share: `errno` and the `(size_t)-1` failure, and
//! the `wchar_t` they all read and write as a code point.

use core::ffi::c_int;

use libc::wchar_t;

// u8x decodes to 32-bit code points; a 16-bit wchar_t (Windows) would need
// UTF-16 and is not supported.
const _: () =
    assert!(core::mem::size_of::<wchar_t>() == 4 && core::mem::align_of::<wchar_t>() == 4);

/// `(size_t)-1`, the POSIX failure.
pub const FAILED: usize = usize::MAX;

pub fn set_errno(code: c_int) {
    // SAFETY: the errno location is valid, thread-local storage for the
    // calling thread for as long as the thread runs.
    #[cfg(any(target_os = "linux", target_os = "emscripten"))]
    unsafe {
        *libc::__errno_location() = code
    }
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    unsafe {
        *libc::__error() = code
    }
    #[cfg(target_os = "android")]
    unsafe {
        *libc::__errno() = code
    }
}

/// Sets `errno` to `code` and returns `(size_t)-1`.
pub fn fail(code: c_int) -> usize {
    set_errno(code);
    FAILED
}
