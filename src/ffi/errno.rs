//! What the POSIX drop-ins share: `errno` and the `(size_t)-1` failure.

use core::ffi::c_int;

// The MinGW CRT's (msvcrt.dll's) errno location, which libc does not
// declare: the same CRT MinGW-w64's gcc links programs with by default.
#[cfg(windows)]
extern "C" {
    fn _errno() -> *mut c_int;
}

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
    #[cfg(windows)]
    unsafe {
        *_errno() = code
    }
}

/// Sets `errno` to `code` and returns `(size_t)-1`.
pub fn fail(code: c_int) -> usize {
    set_errno(code);
    FAILED
}
