//! Version and names, for messages.

use core::ffi::{c_char, c_int};

/// The library's version as "MAJOR.MINOR.PATCH", a static string. Compare with
/// `U8X_VERSION_STRING` to detect a header/library mismatch.
#[no_mangle]
pub extern "C" fn u8x_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

fn static_str(s: &'static str) -> *const c_char {
    debug_assert!(s.ends_with('\0'));
    s.as_ptr().cast()
}

/// A static, lower-case name for a `u8x_status` value ("ok", "ill-formed",
/// ...), or "unknown status" for any other integer.
#[no_mangle]
pub extern "C" fn u8x_status_name(status: c_int) -> *const c_char {
    static_str(match status {
        0 => "ok\0",
        1 => "ill-formed\0",
        2 => "incomplete\0",
        3 => "output full\0",
        4 => "bad argument\0",
        5 => "internal error\0",
        _ => "unknown status\0",
    })
}

/// A static, short English description of a `u8x_error` value
/// ("overlong encoding", "value above U+10FFFF", ...), or "unknown error"
/// for any other integer.
#[no_mangle]
pub extern "C" fn u8x_error_name(error: c_int) -> *const c_char {
    static_str(match error {
        0 => "no error\0",
        1 => "unexpected continuation byte\0",
        2 => "byte never valid in UTF-8\0",
        3 => "sequence cut short by a non-continuation byte\0",
        4 => "overlong encoding\0",
        5 => "surrogate\0",
        6 => "value above U+10FFFF\0",
        7 => "input ends inside a sequence\0",
        _ => "unknown error\0",
    })
}
