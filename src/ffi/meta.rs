//! Version, names for messages, and the tier in use.

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
        8 => "character not representable in the output form\0",
        _ => "unknown error\0",
    })
}

/// The name of the instruction-set tier every u8x call in this process runs,
/// a static string: "scalar", "sse42", "avx2", "avx512" (x86-64) or "neon"
/// (aarch64). It is the fastest
/// tier the CPU supports, unless the environment variable `U8X_TIER` names
/// another one the CPU has (see `u8x_tier_forced`). Chosen when u8x first
/// needs a tier (the first conversion, or a call to this function or
/// `u8x_tier_forced`) and fixed for the life of the process. Every tier
/// gives identical results; only speed differs.
#[no_mangle]
pub extern "C" fn u8x_tier_name() -> *const c_char {
    static_str(crate::Engine::best().tier().name_nul())
}

/// What became of the environment variable `U8X_TIER`, read once, when the
/// tier is chosen (see `u8x_tier_name`; set it before the program starts,
/// or at least before that moment and not concurrently with it). Its value is a
/// tier name as `u8x_tier_name` gives it, ASCII case ignored. Returns:
/// - 1: honoured: the named tier runs.
/// - 0: `U8X_TIER` is unset or empty: the fastest tier runs.
/// - -1: refused: the CPU (or this build) lacks the named tier.
/// - -2: refused: the value is not a tier name.
///
/// A refused request is not fatal: the fastest tier runs instead, and this
/// function (with `u8x_tier_name`) is how a program can tell its user.
#[no_mangle]
pub extern "C" fn u8x_tier_forced() -> c_int {
    crate::Engine::request().code().into()
}
