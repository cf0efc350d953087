//! The runtimes' forms to one another with no UTF-8 between: Latin-1,
//! UTF-16 and UCS-4, each way, and UCS-4 validation.
//!
//! One function a pair (`u8x_convert_<from>_to_<to>`) rather than one
//! `u8x_convert(from, to, ...)`: each takes and writes typed units
//! (`uint8_t`, `uint16_t`, `uint32_t`), so a C compiler checks the
//! buffers' types and the library their alignment, as for the
//! `u8x_decode_*` and `u8x_encode_*` functions.

use super::buffers::{input, output, Output};
use super::codec::encode_policy;
use super::types::{
    u8x_result, U8X_BIG_ENDIAN, U8X_LITTLE_ENDIAN, U8X_MORE_INPUT, U8X_UCS4_BIG_ENDIAN,
    U8X_UCS4_LITTLE_ENDIAN,
};
use crate::{ByteOrder, Latin1Policy};

/// The byte order two flags give, if at most one is set.
fn order(flags: u32, little: u32, big: u32) -> Option<ByteOrder> {
    match (flags & little != 0, flags & big != 0) {
        (false, false) => Some(ByteOrder::Native),
        (true, false) => Some(ByteOrder::Little),
        (false, true) => Some(ByteOrder::Big),
        (true, true) => None,
    }
}

/// A conversion's `flags`, refused if they hold any bit outside `allowed`:
/// `U8X_MORE_INPUT`, the UTF-16 side's order and the UCS-4 side's.
pub(super) fn order_flags(flags: u32, allowed: u32) -> Option<(bool, ByteOrder, ByteOrder)> {
    if flags & !allowed != 0 {
        return None;
    }
    Some((
        flags & U8X_MORE_INPUT != 0,
        order(flags, U8X_LITTLE_ENDIAN, U8X_BIG_ENDIAN)?,
        order(flags, U8X_UCS4_LITTLE_ENDIAN, U8X_UCS4_BIG_ENDIAN)?,
    ))
}

pub(super) const UTF16_ORDER: u32 = U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN;
pub(super) const UCS4_ORDER: u32 = U8X_UCS4_LITTLE_ENDIAN | U8X_UCS4_BIG_ENDIAN;

/// A `policy` and `replacement` for a Latin-1 output: `U8X_STRICT`,
/// `U8X_REPLACE` with a byte, or `U8X_IGNORE`.
pub(super) fn latin1_policy(policy: u32, replacement: u32) -> Option<Latin1Policy> {
    match (policy, u8::try_from(replacement)) {
        (0, _) => Some(Latin1Policy::Strict),
        (1, Ok(byte)) => Some(Latin1Policy::Replace(byte)),
        (5, _) => Some(Latin1Policy::Ignore),
        _ => None,
    }
}

/// The input, and the output or `None` for a size query (NULL, 0): what
/// every conversion checks alike (`None` for bad pointers). `per_unit` is
/// the most output units one input unit gives.
///
/// # Safety
/// `src` must point to `src_len` readable units and `dst` to `dst_cap`
/// writable ones (each may be NULL when its length is 0).
unsafe fn buffers<'a, S, T>(
    src: *const S,
    src_len: usize,
    dst: *mut T,
    dst_cap: usize,
    per_unit: usize,
) -> Option<(&'a [S], Option<&'a mut [T]>)> {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let src = unsafe { input(src, src_len) }?;
    let most = src.len().saturating_mul(per_unit);
    // SAFETY: the caller promises `dst_cap` writable units at `dst`.
    Some(match unsafe { output(dst, dst_cap, most, src) }? {
        Output::Buffer(d) => (src, Some(d)),
        Output::Measure => (src, None),
    })
}

/// Converts Latin-1 (ISO-8859-1) bytes to UTF-16 units: every byte is the
/// character of the same value (JavaScript's one-byte string to its
/// two-byte string), so every input converts and `src_len` units always
/// suffice.
///
/// The runtimes' forms convert to one another with one function a pair,
/// `u8x_convert_<from>_to_<to>`, rather than one `u8x_convert(from, to,
/// ...)`: each takes and writes typed units (`uint8_t`, `uint16_t`,
/// `uint32_t`), so the compiler checks the buffers' types and the library
/// their alignment, as for `u8x_decode_<form>` and `u8x_encode_<form>`,
/// and no call can name a pair that does not exist. `flags` is 0 or one of `U8X_LITTLE_ENDIAN`, `U8X_BIG_ENDIAN`
/// (the output's order; neither: native).
///
/// Writes at most `dst_cap` units; returns `U8X_OK`, `U8X_OUTPUT_FULL`
/// (call again from `src + read`) or `U8X_BAD_ARGUMENT`. `read` is bytes,
/// `written` units; with `dst` NULL and `dst_cap` 0, `written` is the
/// size needed.
///
/// # Safety
/// `src` must point to `src_len` readable bytes and `dst` to `dst_cap`
/// writable, 2-byte aligned `uint16_t` not overlapping `src` (each may be
/// NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_convert_latin1_to_utf16(
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_cap: usize,
    flags: u32,
) -> u8x_result {
    let Some((_, utf16, _)) = order_flags(flags, UTF16_ORDER) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises are `buffers`' preconditions.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_cap, 1) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::convert_latin1_to_utf16(src, dst, utf16).into()
}

/// Converts Latin-1 bytes to UCS-4 (UTF-32) units, every byte the
/// character of the same value; `src_len` units always suffice. `flags` is
/// 0 or one of `U8X_UCS4_LITTLE_ENDIAN`, `U8X_UCS4_BIG_ENDIAN`. Results as
/// for `u8x_convert_latin1_to_utf16`.
///
/// # Safety
/// `src` must point to `src_len` readable bytes and `dst` to `dst_cap`
/// writable, 4-byte aligned `uint32_t` not overlapping `src` (each may be
/// NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_convert_latin1_to_ucs4(
    src: *const u8,
    src_len: usize,
    dst: *mut u32,
    dst_cap: usize,
    flags: u32,
) -> u8x_result {
    let Some((_, _, ucs4)) = order_flags(flags, UCS4_ORDER) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises are `buffers`' preconditions.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_cap, 1) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::convert_latin1_to_ucs4(src, dst, ucs4).into()
}

/// Converts UTF-16 units to Latin-1 bytes, one a character (can this
/// two-byte string be a one-byte string, and that string).
///
/// A character above U+00FF (one unit, or a surrogate pair: `error_len`
/// 2) is `U8X_ERR_NOT_REPRESENTABLE`, an unpaired surrogate
/// `U8X_ERR_SURROGATE` (`error_len` 1). `policy` is `U8X_STRICT` (stop:
/// `U8X_ILL_FORMED`, `read` = its unit index, everything before written),
/// `U8X_REPLACE` (write the byte `replacement`, 0..255, once for each) or
/// `U8X_IGNORE` (drop it; `replacement` ignored); `handled` counts those
/// replaced or dropped. Other policies, or a replacement above 255, are
/// `U8X_BAD_ARGUMENT`. `flags` is `U8X_MORE_INPUT` (a high surrogate ending
/// the input is then `U8X_INCOMPLETE`, not consumed) and at most one of
/// `U8X_LITTLE_ENDIAN`, `U8X_BIG_ENDIAN` (the input's order).
///
/// Writes at most `dst_cap` bytes; `read` is units, `written` bytes;
/// `U8X_OUTPUT_FULL`: call again from `src + read`. With `dst` NULL and
/// `dst_cap` 0, `written` is the exact size; `src_len` bytes always suffice.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` and
/// `dst` to `dst_cap` writable bytes not overlapping `src` (each may be
/// NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_convert_utf16_to_latin1(
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let (Some(policy), Some((more, utf16, _))) = (
        latin1_policy(policy, replacement),
        order_flags(flags, U8X_MORE_INPUT | UTF16_ORDER),
    ) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises are `buffers`' preconditions.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_cap, 1) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::convert_utf16_to_latin1(src, dst, policy, utf16, more).into()
}

/// Converts UCS-4 (UTF-32) units to Latin-1 bytes: as
/// `u8x_convert_utf16_to_latin1`, where a surrogate is
/// `U8X_ERR_SURROGATE` and a value above 0x10FFFF `U8X_ERR_ABOVE_MAX`
/// (`error_len` 1). `flags` is 0 or one of `U8X_UCS4_LITTLE_ENDIAN`,
/// `U8X_UCS4_BIG_ENDIAN`.
///
/// # Safety
/// `src` must point to `src_len` readable, 4-byte aligned `uint32_t` and
/// `dst` to `dst_cap` writable bytes not overlapping `src` (each may be
/// NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_convert_ucs4_to_latin1(
    src: *const u32,
    src_len: usize,
    dst: *mut u8,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let (Some(policy), Some((_, _, ucs4))) = (
        latin1_policy(policy, replacement),
        order_flags(flags, UCS4_ORDER),
    ) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises are `buffers`' preconditions.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_cap, 1) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::convert_ucs4_to_latin1(src, dst, policy, ucs4).into()
}

/// Converts UTF-16 units to UCS-4 (UTF-32) units: a surrogate pair becomes
/// one code point.
///
/// An unpaired surrogate (`U8X_ERR_SURROGATE`, `error_len` 1) is handled
/// by `policy`: `U8X_STRICT` stops (`U8X_ILL_FORMED`, `read` = its index),
/// `U8X_REPLACE` writes `replacement` (a Unicode scalar value),
/// `U8X_ESCAPE` writes the surrogate as its own value (so any UTF-16
/// comes back unchanged from `u8x_convert_ucs4_to_utf16` under
/// `U8X_ESCAPE`), `U8X_IGNORE` drops it; `handled` counts them. Other
/// policies are `U8X_BAD_ARGUMENT`. `flags` is `U8X_MORE_INPUT` (a high
/// surrogate ending the input is then `U8X_INCOMPLETE`, not consumed), at
/// most one of `U8X_LITTLE_ENDIAN`, `U8X_BIG_ENDIAN` (the input's order)
/// and at most one of `U8X_UCS4_LITTLE_ENDIAN`, `U8X_UCS4_BIG_ENDIAN` (the
/// output's).
///
/// Writes at most `dst_cap` code points; `read` and `written` are units;
/// `U8X_OUTPUT_FULL`: call again from `src + read`. With `dst` NULL and
/// `dst_cap` 0, `written` is the exact size; `src_len` units always
/// suffice.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` and
/// `dst` to `dst_cap` writable, 4-byte aligned `uint32_t` not overlapping
/// `src` (each may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_convert_utf16_to_ucs4(
    src: *const u16,
    src_len: usize,
    dst: *mut u32,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let all = U8X_MORE_INPUT | UTF16_ORDER | UCS4_ORDER;
    let (Some(policy), Some((more, utf16, ucs4))) =
        (encode_policy(policy, replacement), order_flags(flags, all))
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises are `buffers`' preconditions.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_cap, 1) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::convert_utf16_to_ucs4(src, dst, policy, (utf16, ucs4), more).into()
}

/// Converts UCS-4 (UTF-32) units to UTF-16 units: a value above U+FFFF
/// becomes a surrogate pair, never split by a full output.
///
/// A surrogate (`U8X_ERR_SURROGATE`) or a value above 0x10FFFF
/// (`U8X_ERR_ABOVE_MAX`; `error_len` 1) is handled by `policy`:
/// `U8X_STRICT` stops, `U8X_REPLACE` writes `replacement` (a Unicode scalar
/// value), `U8X_IGNORE` drops it, and `U8X_ESCAPE` writes a surrogate as
/// its unit (the inverse of `u8x_convert_utf16_to_ucs4` under
/// `U8X_ESCAPE`) and stops as `U8X_STRICT` does at a value above 0x10FFFF
/// and at a high surrogate followed by a low one, which would read back as
/// one character; with `U8X_MORE_INPUT` it leaves a high surrogate ending
/// the input unread (`U8X_INCOMPLETE`), since what follows decides.
/// `handled` counts those replaced, escaped or dropped. `flags` as for
/// `u8x_convert_utf16_to_ucs4` (the UCS-4 flags give the input's order, the
/// UTF-16 flags the output's).
///
/// Writes at most `dst_cap` units; `read` is code points, `written` units.
/// With `dst` NULL and `dst_cap` 0, `written` is the exact size; `2 *
/// src_len` units always suffice.
///
/// # Safety
/// `src` must point to `src_len` readable, 4-byte aligned `uint32_t` and
/// `dst` to `dst_cap` writable, 2-byte aligned `uint16_t` not overlapping
/// `src` (each may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_convert_ucs4_to_utf16(
    src: *const u32,
    src_len: usize,
    dst: *mut u16,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let all = U8X_MORE_INPUT | UTF16_ORDER | UCS4_ORDER;
    let (Some(policy), Some((more, utf16, ucs4))) =
        (encode_policy(policy, replacement), order_flags(flags, all))
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises are `buffers`' preconditions.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_cap, 2) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::convert_ucs4_to_utf16(src, dst, policy, (ucs4, utf16), more).into()
}

/// Checks that every unit of `src` is a Unicode scalar value (UTF-32 as
/// Unicode defines it). Returns `U8X_OK`, or `U8X_ILL_FORMED` with `read`
/// = the index of the first surrogate (`U8X_ERR_SURROGATE`) or value above
/// 0x10FFFF (`U8X_ERR_ABOVE_MAX`), `error_len` 1. `flags` is 0 or one of
/// `U8X_UCS4_LITTLE_ENDIAN`, `U8X_UCS4_BIG_ENDIAN`.
///
/// # Safety
/// `src` must point to `src_len` readable, 4-byte aligned `uint32_t` (or be
/// NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_validate_ucs4(
    src: *const u32,
    src_len: usize,
    flags: u32,
) -> u8x_result {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let (Some((_, _, ucs4)), Some(src)) = (order_flags(flags, UCS4_ORDER), unsafe {
        input(src, src_len)
    }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::validate_ucs4(src, ucs4).into()
}
