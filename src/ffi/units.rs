//! Questions and repairs of text already in a runtime's form: ASCII and
//! width checks, well-formed UTF-16, byte swaps, the sizes of valid UTF-16
//! and UCS-4 in each other's form, and encoding detection.

use super::buffers::{in_place, input, output, Output};
use super::convert::{order_flags, UCS4_ORDER, UTF16_ORDER};
use super::types::{u8x_classification, u8x_result, U8X_BAD_SIZE, U8X_MORE_INPUT};
use crate::Detection;

/// Flag bit of `u8x_detection`: valid UTF-8.
pub const U8X_ENCODING_UTF8: u32 = 1;
/// Flag bit of `u8x_detection`: valid UTF-16LE.
pub const U8X_ENCODING_UTF16LE: u32 = 2;
/// Flag bit of `u8x_detection`: valid UTF-16BE.
pub const U8X_ENCODING_UTF16BE: u32 = 4;
/// Flag bit of `u8x_detection`: valid UTF-32LE.
pub const U8X_ENCODING_UTF32LE: u32 = 8;
/// Flag bit of `u8x_detection`: valid UTF-32BE.
pub const U8X_ENCODING_UTF32BE: u32 = 16;

/// What `u8x_detect_encoding` found.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct u8x_detection {
    /// The encodings the bytes are valid as: `U8X_ENCODING_*` bits OR-ed.
    pub valid: u32,
    /// The most likely of them, one `U8X_ENCODING_*` bit, or 0 for none.
    pub likely: u32,
    /// The bytes of the byte order mark that chose `likely` (0 without
    /// one): the text starts after them.
    pub bom_len: usize,
}

/// Checks that every byte of `src` is ASCII (below 0x80). Returns `U8X_OK`,
/// or `U8X_ILL_FORMED` with `read` = the first byte that is not
/// (`U8X_ERR_NOT_REPRESENTABLE`, `error_len` 1).
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_validate_ascii(src: *const u8, src_len: usize) -> u8x_result {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    match unsafe { input(src, src_len) } {
        Some(src) => crate::validate_ascii(src).into(),
        None => u8x_result::BAD_ARGUMENT,
    }
}

/// Checks that every UTF-16 unit of `src` is ASCII (can this two-byte
/// string be an ASCII one-byte string), as `u8x_validate_ascii` does for
/// bytes; `read` is units. `flags` is 0 or one of `U8X_LITTLE_ENDIAN`,
/// `U8X_BIG_ENDIAN`. (`u8x_classify_utf16` tells Latin-1 apart too.)
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` (or be
/// NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_validate_ascii_utf16(
    src: *const u16,
    src_len: usize,
    flags: u32,
) -> u8x_result {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let (Some((_, order, _)), Some(src)) = (order_flags(flags, UTF16_ORDER), unsafe {
        input(src, src_len)
    }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::validate_ascii_utf16(src, order).into()
}

/// Validates UTF-16 and, in the same pass, tells a runtime which string
/// holds it: the widest character (`U8X_WIDTH_ASCII` or `U8X_WIDTH_LATIN1`:
/// it can be a one-byte string; `U8X_WIDTH_BMP`; `U8X_WIDTH_SUPPLEMENTARY`:
/// it has pairs) and the code points, for the well-formed prefix
/// (`utf16_units` is its length). Returns what `u8x_validate_utf16` returns
/// for `src` and `flags`. `info` must not be NULL.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` (or be
/// NULL with `src_len` 0); `info` must point to a writable
/// `u8x_classification`.
#[no_mangle]
pub unsafe extern "C" fn u8x_classify_utf16(
    src: *const u16,
    src_len: usize,
    flags: u32,
    info: *mut u8x_classification,
) -> u8x_result {
    let Some((more, order, _)) = order_flags(flags, U8X_MORE_INPUT | UTF16_ORDER) else {
        return u8x_result::BAD_ARGUMENT;
    };
    if info.is_null() || !info.is_aligned() {
        return u8x_result::BAD_ARGUMENT;
    }
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    let c = crate::classify_utf16(src, order, more);
    let width = c.width.into();
    // SAFETY: non-NULL and aligned; the caller promises it is writable.
    unsafe {
        info.write(u8x_classification {
            width,
            code_points: c.code_points,
            utf16_units: c.utf16_units,
        })
    };
    c.progress.into()
}

/// Makes UTF-16 well-formed: each unpaired surrogate becomes `replacement`
/// (JavaScript's `String.prototype.toWellFormed`, WebIDL's USVString,
/// with `U8X_REPLACEMENT_CHARACTER`), the rest is copied as it is, so the
/// output has as many units as the input. `handled` counts the
/// replacements. `replacement` must be a BMP scalar value (not a
/// surrogate, at most 0xFFFF). `flags` is `U8X_MORE_INPUT` (a high
/// surrogate ending the input is then left for the next chunk:
/// `U8X_INCOMPLETE`, `read` before it) and at most one of
/// `U8X_LITTLE_ENDIAN`, `U8X_BIG_ENDIAN` (the order of both sides).
///
/// In place with `dst` == `src` (then `dst_cap` must be at least
/// `src_len`); otherwise `dst` must not overlap `src`, and at most
/// `dst_cap` units are written, never half a pair (`U8X_OUTPUT_FULL`: call
/// again from `src + read`). With `dst` NULL and `dst_cap` 0, nothing is
/// written and `handled` says how many units would be replaced. Returns
/// `U8X_OK`, `U8X_INCOMPLETE`, `U8X_OUTPUT_FULL` or `U8X_BAD_ARGUMENT`.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` and
/// `dst` to `dst_cap` writable ones (each may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_to_well_formed_utf16(
    src: *const u16,
    src_len: usize,
    dst: *mut u16,
    dst_cap: usize,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let (Some((more, order, _)), Ok(replacement)) = (
        order_flags(flags, U8X_MORE_INPUT | UTF16_ORDER),
        u16::try_from(replacement),
    ) else {
        return u8x_result::BAD_ARGUMENT;
    };
    if (0xD800..0xE000).contains(&replacement) {
        return u8x_result::BAD_ARGUMENT;
    }
    if !dst.is_null() && core::ptr::eq(dst, src) && src_len != 0 {
        if dst_cap < src_len {
            return u8x_result::BAD_ARGUMENT;
        }
        // SAFETY: the caller promises `dst_cap >= src_len` writable units
        // at `dst`, which is `src`: one buffer, lent for the call.
        return match unsafe { in_place(dst, src_len) } {
            Some(units) => crate::to_well_formed_utf16(units, replacement, order, more).into(),
            None => u8x_result::BAD_ARGUMENT,
        };
    }
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller promises `dst_cap` writable units at `dst`.
    match unsafe { output(dst, dst_cap, src.len(), src) } {
        Some(Output::Buffer(d)) => {
            crate::to_well_formed_utf16_into(src, d, replacement, order, more).into()
        }
        Some(Output::Measure) => crate::to_well_formed_utf16_len(src, order, more).into(),
        None => u8x_result::BAD_ARGUMENT,
    }
}

/// Swaps the bytes of each UTF-16 unit (UTF-16LE to UTF-16BE and back),
/// in place with `dst` == `src`, or into `dst` (not overlapping `src`),
/// at most `dst_cap` units (`U8X_OUTPUT_FULL` when fewer than `src_len`);
/// with `dst` NULL and `dst_cap` 0, `written` is the size, `src_len`.
/// Returns `U8X_OK`, `U8X_OUTPUT_FULL` or `U8X_BAD_ARGUMENT`; `read` and
/// `written` are units.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` and
/// `dst` to `dst_cap` writable ones (each may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_swap_utf16(
    src: *const u16,
    src_len: usize,
    dst: *mut u16,
    dst_cap: usize,
) -> u8x_result {
    if !dst.is_null() && core::ptr::eq(dst, src) && src_len != 0 {
        if dst_cap < src_len {
            return u8x_result::BAD_ARGUMENT;
        }
        // SAFETY: as in `u8x_to_well_formed_utf16`: one buffer, lent for
        // the call.
        let Some(units) = (unsafe { in_place(dst, src_len) }) else {
            return u8x_result::BAD_ARGUMENT;
        };
        crate::swap_utf16_in_place(units);
        return crate::Progress {
            status: crate::Status::Done,
            read: src_len,
            written: src_len,
            handled: 0,
        }
        .into();
    }
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller promises `dst_cap` writable units at `dst`.
    match unsafe { output(dst, dst_cap, src.len(), src) } {
        Some(Output::Buffer(d)) => crate::swap_utf16(src, d).into(),
        Some(Output::Measure) => crate::Progress {
            status: crate::Status::Done,
            read: src.len(),
            written: src.len(),
            handled: 0,
        }
        .into(),
        None => u8x_result::BAD_ARGUMENT,
    }
}

/// The code points (UCS-4 units) in `src`, which the caller knows is
/// well-formed UTF-16: its units less its low surrogates, at memory speed,
/// no checks (meaningless but defined otherwise). `flags` is 0 or one of
/// `U8X_LITTLE_ENDIAN`, `U8X_BIG_ENDIAN`. `U8X_BAD_SIZE` for bad arguments.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` (or be
/// NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_ucs4_len_utf16_valid(
    src: *const u16,
    src_len: usize,
    flags: u32,
) -> usize {
    let Some((_, order, _)) = order_flags(flags, UTF16_ORDER) else {
        return U8X_BAD_SIZE;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }.map_or(U8X_BAD_SIZE, |s| crate::ucs4_len_utf16_valid(s, order))
}

/// The UTF-16 units `src` needs, which the caller knows holds Unicode
/// scalar values: one each and a second for each above U+FFFF, at memory
/// speed, no checks. `flags` is 0 or one of `U8X_UCS4_LITTLE_ENDIAN`,
/// `U8X_UCS4_BIG_ENDIAN`. `U8X_BAD_SIZE` for bad arguments.
///
/// # Safety
/// `src` must point to `src_len` readable, 4-byte aligned `uint32_t` (or be
/// NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_utf16_len_ucs4_valid(
    src: *const u32,
    src_len: usize,
    flags: u32,
) -> usize {
    let Some((_, _, order)) = order_flags(flags, UCS4_ORDER) else {
        return U8X_BAD_SIZE;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }.map_or(U8X_BAD_SIZE, |s| crate::utf16_len_ucs4_valid(s, order))
}

/// Tells which of UTF-8, UTF-16LE, UTF-16BE, UTF-32LE and UTF-32BE the
/// bytes at `src` are valid as (`valid`, `U8X_ENCODING_*` bits; all five
/// for empty input), and the most likely one (`likely`), in one pass.
///
/// A byte order mark at the start decides alone: `valid` and `likely` are
/// its encoding if the bytes after it are valid in it (`bom_len` then
/// says how many to skip), otherwise 0 (FF FE 00 00 is UTF-32LE's mark if
/// what follows is UTF-32LE, else UTF-16LE's and U+0000). Without one,
/// `likely` is UTF-8 if valid (ASCII is) and either free of NUL bytes or
/// valid as nothing else (UTF-16 and UTF-32 of ASCII text are valid UTF-8
/// too), then UTF-32 (LE first), then UTF-16: little-endian unless more
/// units have a zero high byte read big-endian; 0 when none is valid. Returns `U8X_OK`, or
/// `U8X_BAD_ARGUMENT` (bad `src`, or `info` NULL).
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len`
/// 0); `info` must point to a writable `u8x_detection`.
#[no_mangle]
pub unsafe extern "C" fn u8x_detect_encoding(
    src: *const u8,
    src_len: usize,
    info: *mut u8x_detection,
) -> u8x_result {
    if info.is_null() || !info.is_aligned() {
        return u8x_result::BAD_ARGUMENT;
    }
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    let Detection {
        valid,
        likely,
        bom_len,
    } = crate::detect_encoding(src);
    let found = u8x_detection {
        valid,
        likely: likely.map_or(0, |e| e.bit()),
        bom_len,
    };
    // SAFETY: non-NULL and aligned; the caller promises it is writable.
    unsafe { info.write(found) };
    crate::Progress {
        status: crate::Status::Done,
        read: src.len(),
        written: 0,
        handled: 0,
    }
    .into()
}
