//! simdutf 9.1.0, the newest simdutf, as a benchmark and test peer.
//!
//! The `simdutf` crate bundles the older 7.7.1; this crate compiles the 9.1.0
//! amalgamation from `../shared/peers/` under a renamed namespace (see
//! `build.rs`) so both can run side by side in one process. Like the crate,
//! it honours `SIMDUTF_FORCE_IMPLEMENTATION`. Every function panics when
//! [`AVAILABLE`] is false (the amalgamation was not there at build time).
//!
//! The wrappers take slices and check the output room simdutf assumes, so
//! they are safe to call.

use std::ffi::{c_char, CStr};

/// Whether simdutf 9.1.0 was compiled in.
pub const AVAILABLE: bool = cfg!(simdutf9);

mod sys {
    use std::ffi::c_char;
    extern "C" {
        pub fn u8x_sd91_implementation() -> *const c_char;
        pub fn u8x_sd91_validate_utf8(s: *const u8, n: usize) -> bool;
        pub fn u8x_sd91_validate_utf8_with_errors(s: *const u8, n: usize, at: *mut usize) -> i32;
        pub fn u8x_sd91_convert_utf8_to_utf32(s: *const u8, n: usize, d: *mut u32) -> usize;
        pub fn u8x_sd91_convert_utf32_to_utf8(s: *const u32, n: usize, d: *mut u8) -> usize;
        pub fn u8x_sd91_count_utf8(s: *const u8, n: usize) -> usize;
        pub fn u8x_sd91_utf8_length_from_utf32(s: *const u32, n: usize) -> usize;
        pub fn u8x_sd91_validate_utf32(s: *const u32, n: usize) -> bool;
        pub fn u8x_sd91_convert_utf8_to_utf16le(s: *const u8, n: usize, d: *mut u16) -> usize;
        pub fn u8x_sd91_convert_utf16le_to_utf8(s: *const u16, n: usize, d: *mut u8) -> usize;
        pub fn u8x_sd91_validate_utf16le(s: *const u16, n: usize) -> bool;
        pub fn u8x_sd91_utf16_length_from_utf8(s: *const u8, n: usize) -> usize;
        pub fn u8x_sd91_utf8_length_from_utf16le(s: *const u16, n: usize) -> usize;
        pub fn u8x_sd91_convert_utf8_to_latin1(s: *const u8, n: usize, d: *mut u8) -> usize;
        pub fn u8x_sd91_convert_latin1_to_utf8(s: *const u8, n: usize, d: *mut u8) -> usize;
        pub fn u8x_sd91_convert_latin1_to_utf16le(s: *const u8, n: usize, d: *mut u16) -> usize;
        pub fn u8x_sd91_convert_utf16le_to_latin1(s: *const u16, n: usize, d: *mut u8) -> usize;
        pub fn u8x_sd91_convert_latin1_to_utf32(s: *const u8, n: usize, d: *mut u32) -> usize;
        pub fn u8x_sd91_convert_utf32_to_latin1(s: *const u32, n: usize, d: *mut u8) -> usize;
        pub fn u8x_sd91_convert_utf16le_to_utf32(s: *const u16, n: usize, d: *mut u32) -> usize;
        pub fn u8x_sd91_convert_utf32_to_utf16le(s: *const u32, n: usize, d: *mut u16) -> usize;
        pub fn u8x_sd91_detect_encodings(s: *const u8, n: usize) -> i32;
        pub fn u8x_sd91_validate_ascii(s: *const u8, n: usize) -> bool;
        pub fn u8x_sd91_validate_utf16le_as_ascii(s: *const u16, n: usize) -> bool;
        pub fn u8x_sd91_to_well_formed_utf16le(s: *const u16, n: usize, d: *mut u16);
        pub fn u8x_sd91_change_endianness_utf16(s: *const u16, n: usize, d: *mut u16);
        pub fn u8x_sd91_count_utf16le(s: *const u16, n: usize) -> usize;
        pub fn u8x_sd91_utf16_length_from_utf32(s: *const u32, n: usize) -> usize;
    }
}

fn available() {
    if !AVAILABLE {
        panic!("simdutf 9.1.0 was not compiled in (see build.rs)");
    }
}

/// The kernel simdutf chose for this CPU ("icelake", "haswell", ...).
pub fn implementation() -> String {
    available();
    // SAFETY: the shim returns the implementation's static NUL-terminated name.
    let name: *const c_char = unsafe { sys::u8x_sd91_implementation() };
    unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned()
}

/// `validate_utf8`.
pub fn validate_utf8(s: &[u8]) -> bool {
    available();
    // SAFETY: simdutf reads exactly `s.len()` bytes from `s`.
    unsafe { sys::u8x_sd91_validate_utf8(s.as_ptr(), s.len()) }
}

/// `validate_utf8_with_errors`: `Ok(())`, or `Err(offset of the error)`.
pub fn validate_utf8_with_errors(s: &[u8]) -> Result<(), usize> {
    available();
    let mut at = 0;
    // SAFETY: reads `s.len()` bytes; `at` is a valid place for one usize.
    match unsafe { sys::u8x_sd91_validate_utf8_with_errors(s.as_ptr(), s.len(), &mut at) } {
        0 => Ok(()),
        _ => Err(at),
    }
}

/// `convert_utf8_to_utf32`: code points written, 0 for invalid input.
pub fn convert_utf8_to_utf32(s: &[u8], d: &mut [u32]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one code point per byte");
    // SAFETY: at most one code point per input byte, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf8_to_utf32(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_utf32_to_utf8`: bytes written, 0 for invalid input.
pub fn convert_utf32_to_utf8(s: &[u32], d: &mut [u8]) -> usize {
    available();
    assert!(d.len() / 4 >= s.len(), "room for four bytes per unit");
    // SAFETY: at most four bytes per input unit, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf32_to_utf8(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `count_utf8` (input assumed valid).
pub fn count_utf8(s: &[u8]) -> usize {
    available();
    // SAFETY: reads `s.len()` bytes.
    unsafe { sys::u8x_sd91_count_utf8(s.as_ptr(), s.len()) }
}

/// `utf8_length_from_utf32` (input assumed valid).
pub fn utf8_length_from_utf32(s: &[u32]) -> usize {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_utf8_length_from_utf32(s.as_ptr(), s.len()) }
}

/// `validate_utf32`.
pub fn validate_utf32(s: &[u32]) -> bool {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_validate_utf32(s.as_ptr(), s.len()) }
}

/// `convert_utf8_to_utf16le`: units written, 0 for invalid input.
pub fn convert_utf8_to_utf16le(s: &[u8], d: &mut [u16]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one unit per byte");
    // SAFETY: at most one UTF-16 unit per input byte, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf8_to_utf16le(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_utf16le_to_utf8`: bytes written, 0 for invalid input.
pub fn convert_utf16le_to_utf8(s: &[u16], d: &mut [u8]) -> usize {
    available();
    assert!(d.len() / 3 >= s.len(), "room for three bytes per unit");
    // SAFETY: at most three bytes per input unit, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf16le_to_utf8(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `validate_utf16le`.
pub fn validate_utf16le(s: &[u16]) -> bool {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_validate_utf16le(s.as_ptr(), s.len()) }
}

/// `utf16_length_from_utf8` (input assumed valid).
pub fn utf16_length_from_utf8(s: &[u8]) -> usize {
    available();
    // SAFETY: reads `s.len()` bytes.
    unsafe { sys::u8x_sd91_utf16_length_from_utf8(s.as_ptr(), s.len()) }
}

/// `utf8_length_from_utf16le` (input assumed valid).
pub fn utf8_length_from_utf16le(s: &[u16]) -> usize {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_utf8_length_from_utf16le(s.as_ptr(), s.len()) }
}

/// `convert_utf8_to_latin1`: bytes written, 0 for invalid or unrepresentable input.
pub fn convert_utf8_to_latin1(s: &[u8], d: &mut [u8]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one byte per byte");
    // SAFETY: at most one output byte per input byte, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf8_to_latin1(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_latin1_to_utf8`: bytes written.
pub fn convert_latin1_to_utf8(s: &[u8], d: &mut [u8]) -> usize {
    available();
    assert!(d.len() / 2 >= s.len(), "room for two bytes per byte");
    // SAFETY: at most two output bytes per input byte, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_latin1_to_utf8(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_latin1_to_utf16le`: units written.
pub fn convert_latin1_to_utf16le(s: &[u8], d: &mut [u16]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one unit per byte");
    // SAFETY: one output unit per input byte, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_latin1_to_utf16le(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_utf16le_to_latin1`: bytes written, 0 for input Latin-1 cannot hold.
pub fn convert_utf16le_to_latin1(s: &[u16], d: &mut [u8]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one byte per unit");
    // SAFETY: at most one output byte per input unit, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf16le_to_latin1(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_latin1_to_utf32`: units written.
pub fn convert_latin1_to_utf32(s: &[u8], d: &mut [u32]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one unit per byte");
    // SAFETY: one output unit per input byte, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_latin1_to_utf32(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_utf32_to_latin1`: bytes written, 0 for input Latin-1 cannot hold.
pub fn convert_utf32_to_latin1(s: &[u32], d: &mut [u8]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one byte per unit");
    // SAFETY: at most one output byte per input unit, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf32_to_latin1(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_utf16le_to_utf32`: units written, 0 for invalid input.
pub fn convert_utf16le_to_utf32(s: &[u16], d: &mut [u32]) -> usize {
    available();
    assert!(d.len() >= s.len(), "room for one unit per unit");
    // SAFETY: at most one output unit per input unit, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf16le_to_utf32(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `convert_utf32_to_utf16le`: units written, 0 for invalid input.
pub fn convert_utf32_to_utf16le(s: &[u32], d: &mut [u16]) -> usize {
    available();
    assert!(d.len() / 2 >= s.len(), "room for two units per unit");
    // SAFETY: at most two output units per input unit, and `d` has that room.
    unsafe { sys::u8x_sd91_convert_utf32_to_utf16le(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `detect_encodings`: simdutf's bit set (UTF8 1, UTF16_LE 2, UTF16_BE 4,
/// UTF32_LE 8, UTF32_BE 16).
pub fn detect_encodings(s: &[u8]) -> i32 {
    available();
    // SAFETY: reads `s.len()` bytes.
    unsafe { sys::u8x_sd91_detect_encodings(s.as_ptr(), s.len()) }
}

/// `validate_ascii`.
pub fn validate_ascii(s: &[u8]) -> bool {
    available();
    // SAFETY: reads `s.len()` bytes.
    unsafe { sys::u8x_sd91_validate_ascii(s.as_ptr(), s.len()) }
}

/// `validate_utf16le_as_ascii`.
pub fn validate_utf16le_as_ascii(s: &[u16]) -> bool {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_validate_utf16le_as_ascii(s.as_ptr(), s.len()) }
}

/// `to_well_formed_utf16le` into `d`.
pub fn to_well_formed_utf16le(s: &[u16], d: &mut [u16]) {
    available();
    assert!(d.len() >= s.len(), "room for every unit");
    // SAFETY: writes `s.len()` units, which `d` has.
    unsafe { sys::u8x_sd91_to_well_formed_utf16le(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `change_endianness_utf16` into `d`.
pub fn change_endianness_utf16(s: &[u16], d: &mut [u16]) {
    available();
    assert!(d.len() >= s.len(), "room for every unit");
    // SAFETY: writes `s.len()` units, which `d` has.
    unsafe { sys::u8x_sd91_change_endianness_utf16(s.as_ptr(), s.len(), d.as_mut_ptr()) }
}

/// `count_utf16le` (input assumed valid): code points.
pub fn count_utf16le(s: &[u16]) -> usize {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_count_utf16le(s.as_ptr(), s.len()) }
}

/// `utf16_length_from_utf32` (input assumed valid).
pub fn utf16_length_from_utf32(s: &[u32]) -> usize {
    available();
    // SAFETY: reads `s.len()` units.
    unsafe { sys::u8x_sd91_utf16_length_from_utf32(s.as_ptr(), s.len()) }
}
