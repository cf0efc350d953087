//! The runtimes' forms: UTF-16 and Latin-1 both ways, classification, and
//! sizes of text known to be valid.

use super::buffers::{input, output, Output};
use super::codec::{bytes_per_code_point, decode_policy_in, encode_policy_in, utf8_flags};
use super::convert::latin1_policy;
use super::types::{
    skip_bom, u8x_classification, u8x_result, U8X_BAD_SIZE, U8X_BIG_ENDIAN, U8X_LITTLE_ENDIAN,
    U8X_MORE_INPUT, U8X_SKIP_BOM,
};
use crate::ByteOrder;

/// `U8X_MORE_INPUT` and at most one byte-order flag.
fn utf16_flags(flags: u32) -> Option<(bool, ByteOrder)> {
    if flags & !(U8X_MORE_INPUT | U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN) != 0 {
        return None;
    }
    let order = match flags & (U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN) {
        0 => ByteOrder::Native,
        U8X_LITTLE_ENDIAN => ByteOrder::Little,
        U8X_BIG_ENDIAN => ByteOrder::Big,
        _ => return None,
    };
    Some((flags & U8X_MORE_INPUT != 0, order))
}

/// Decodes UTF-8 into UTF-16 code units.
///
/// `policy` and `replacement` are as for `u8x_decode_ucs4` (a `u8x_dialect`
/// OR-ed into `policy` reads that dialect): every policy
/// gives the same characters, written as UTF-16 (under `U8X_ESCAPE`, each
/// byte `b` of an ill-formed sequence becomes the lone unit 0xDC00+b, as
/// Python's surrogateescape does). `flags` is `U8X_MORE_INPUT`,
/// `U8X_SKIP_BOM` and at most one of `U8X_LITTLE_ENDIAN`, `U8X_BIG_ENDIAN`
/// (neither: native order); `handled` as for `u8x_decode_ucs4`.
///
/// Writes at most `dst_cap` units and never half of a surrogate pair.
/// Returns `U8X_OK`, `U8X_ILL_FORMED`, `U8X_INCOMPLETE`, `U8X_OUTPUT_FULL`
/// (call again from `src + read`) or `U8X_BAD_ARGUMENT`; `read` is bytes,
/// `written` units. With `dst` NULL and `dst_cap` 0, `written` is the exact
/// number of units needed. `u8x_decode_utf16_bound(src_len)` units always
/// suffice when `replacement` is in the BMP (as U+FFFD is).
///
/// # Safety
/// `src` must point to `src_len` readable bytes and `dst` to `dst_cap`
/// writable, 2-byte aligned `uint16_t` not overlapping `src` (each may be
/// NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_decode_utf16(
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let bom = flags & U8X_SKIP_BOM != 0;
    let (Some((d, policy)), Some((more, order))) = (
        decode_policy_in(policy, replacement),
        utf16_flags(flags & !U8X_SKIP_BOM),
    ) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // A supplementary replacement can take two units per byte.
    let most = src.len().saturating_mul(2);
    // SAFETY: the caller promises `dst_cap` writable units at `dst`.
    let out = unsafe { output(dst, dst_cap, most, src) };
    let Some(out) = out else {
        return u8x_result::BAD_ARGUMENT;
    };
    let (src, skipped) = skip_bom(src, bom);
    let p = match out {
        Output::Buffer(dst) => crate::decode_utf16_in(d, src, dst, policy, order, more),
        Output::Measure => crate::decode_utf16_len_in(d, src, policy, more),
    };
    u8x_result::from(p).after_bom(skipped)
}

/// Encodes UTF-16 code units as UTF-8.
///
/// A surrogate pair becomes one 4-byte character (never two 3-byte halves,
/// which would be CESU-8). An unpaired surrogate is handled by `policy`:
/// `U8X_STRICT` stops (`U8X_ILL_FORMED`, `U8X_ERR_SURROGATE`, `read` = its
/// unit index), `U8X_REPLACE` writes the UTF-8 of `replacement` (as WHATWG's
/// USVString conversion and Rust's `String::from_utf16_lossy` do with
/// U+FFFD), `U8X_ESCAPE` turns 0xDC80..0xDCFF back into the byte they
/// escape (so bytes survive `u8x_decode_utf16` then this, both under
/// `U8X_ESCAPE`) and stops at any other, `U8X_IGNORE` drops it; `handled`
/// counts those replaced, escaped or dropped. `flags` is `U8X_MORE_INPUT` and at
/// most one byte-order flag; with `U8X_MORE_INPUT`, a high surrogate ending
/// the input is `U8X_INCOMPLETE` (`error_len` 1 unit, not consumed).
///
/// A `u8x_dialect` OR-ed into `policy` writes that dialect: in CESU-8 and
/// Modified UTF-8 a pair becomes two 3-byte halves (JNI's
/// `GetStringUTFChars`) and an unpaired surrogate is invalid as in RFC
/// 3629; in WTF-8 and generalized UTF-8 an unpaired surrogate becomes its
/// 3-byte form, so any UTF-16 string converts without loss.
///
/// Writes at most `dst_cap` bytes, never part of a character; `read` is
/// units, `written` bytes. With `dst` NULL and `dst_cap` 0, `written` is
/// the exact size. `u8x_encode_utf16_bound(src_len)` bytes always suffice
/// when `replacement` is at most U+FFFF.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` and
/// `dst` to `dst_cap` writable bytes not overlapping `src` (each may be NULL
/// when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_encode_utf16(
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let (Some((d, policy)), Some((more, order))) =
        (encode_policy_in(policy, replacement), utf16_flags(flags))
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // A supplementary replacement takes 6 bytes per unit in CESU-8.
    let most = src.len().saturating_mul(bytes_per_code_point(d));
    // SAFETY: the caller promises `dst_cap` writable bytes at `dst`.
    match unsafe { output(dst, dst_cap, most, src) } {
        Some(Output::Buffer(dst)) => {
            crate::encode_utf16_in(d, src, Some(dst), policy, order, more).into()
        }
        Some(Output::Measure) => crate::encode_utf16_in(d, src, None, policy, order, more).into(),
        None => u8x_result::BAD_ARGUMENT,
    }
}

/// Checks that `src` is well-formed UTF-16: every high surrogate followed by
/// a low one and every low one preceded by a high one. Returns `U8X_OK`, or
/// `U8X_ILL_FORMED` with `read` = the index of the first unpaired surrogate
/// (`U8X_ERR_SURROGATE`, `error_len` 1), or with `U8X_MORE_INPUT` and a high
/// surrogate ending the input, `U8X_INCOMPLETE`. `flags` as for
/// `u8x_encode_utf16`.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` (or be
/// NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_validate_utf16(
    src: *const u16,
    src_len: usize,
    flags: u32,
) -> u8x_result {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let (Some((more, order)), Some(src)) = (utf16_flags(flags), unsafe { input(src, src_len) })
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    crate::validate_utf16(src, order, more).into()
}

/// Decodes UTF-8 into Latin-1 (ISO-8859-1): one byte per character, for
/// characters up to U+00FF.
///
/// `policy` is `U8X_STRICT` (stop at an ill-formed sequence, reported as
/// by `u8x_decode_ucs4`, or at a character above U+00FF:
/// `U8X_ERR_NOT_REPRESENTABLE`, `read` = its offset, `error_len` = its
/// length) or `U8X_REPLACE` (write the byte `replacement`, 0..255, once per
/// character above U+00FF and once per maximal subpart of an ill-formed
/// sequence) or `U8X_IGNORE` (drop both; `replacement` is ignored). Other
/// policies, or a replacement above 255, are `U8X_BAD_ARGUMENT`. `handled`
/// counts the characters and maximal subparts replaced or dropped. `flags`
/// is 0, `U8X_MORE_INPUT` and/or `U8X_SKIP_BOM`.
///
/// Writes at most `dst_cap` bytes; `read` and `written` are bytes. With
/// `dst` NULL and `dst_cap` 0, `written` is the exact size. `src_len` bytes
/// always suffice (`u8x_decode_latin1_bound`).
///
/// # Safety
/// `src` must point to `src_len` readable bytes and `dst` to `dst_cap`
/// writable bytes not overlapping `src` (each may be NULL when its length is
/// 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_decode_latin1(
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let (Some(policy), Some((more, bom))) = (latin1_policy(policy, replacement), utf8_flags(flags))
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller promises `dst_cap` writable bytes at `dst`.
    let out = unsafe { output(dst, dst_cap, src.len(), src) };
    let Some(out) = out else {
        return u8x_result::BAD_ARGUMENT;
    };
    let (src, skipped) = skip_bom(src, bom);
    let p = match out {
        Output::Buffer(dst) => crate::decode_latin1(src, dst, policy, more),
        Output::Measure => crate::decode_latin1_len(src, policy, more),
    };
    u8x_result::from(p).after_bom(skipped)
}

/// Encodes Latin-1 (ISO-8859-1) bytes as UTF-8: 00..7F as they are, 80..FF
/// as two bytes. Every input is valid. Writes at most `dst_cap` bytes,
/// never half a character (`U8X_OUTPUT_FULL`: call again from
/// `src + read`). With `dst` NULL and `dst_cap` 0, `written` is the exact
/// size; `u8x_encode_latin1_bound(src_len)` bytes always suffice.
///
/// # Safety
/// `src` must point to `src_len` readable bytes and `dst` to `dst_cap`
/// writable bytes not overlapping `src` (each may be NULL when its length is
/// 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_encode_latin1(
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_cap: usize,
) -> u8x_result {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    let most = src.len().saturating_mul(2);
    // SAFETY: the caller promises `dst_cap` writable bytes at `dst`.
    match unsafe { output(dst, dst_cap, most, src) } {
        Some(Output::Buffer(dst)) => crate::encode_latin1(src, dst).into(),
        Some(Output::Measure) => crate::Progress {
            status: crate::Status::Done,
            read: src.len(),
            written: crate::encode_latin1_len(src),
            handled: 0,
        }
        .into(),
        None => u8x_result::BAD_ARGUMENT,
    }
}

/// Validates UTF-8 and, in the same call, tells a runtime which string to
/// allocate: the widest character and the character and UTF-16 unit counts
/// (the Latin-1 length is `code_points` when `width` is at most
/// `U8X_WIDTH_LATIN1`).
///
/// Returns what `u8x_validate` returns for `src` and `flags` (`U8X_OK`, or
/// `U8X_ILL_FORMED` / `U8X_INCOMPLETE` with `read` = the length of the
/// well-formed prefix), and fills `*info` for that well-formed prefix (the
/// whole input when `U8X_OK`; a byte order mark skipped with
/// `U8X_SKIP_BOM` is not in it). `info` must not be NULL.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len`
/// 0); `info` must point to a writable `u8x_classification`.
#[no_mangle]
pub unsafe extern "C" fn u8x_classify(
    src: *const u8,
    src_len: usize,
    flags: u32,
    info: *mut u8x_classification,
) -> u8x_result {
    let Some((more, bom)) = utf8_flags(flags) else {
        return u8x_result::BAD_ARGUMENT;
    };
    if info.is_null() || !info.is_aligned() {
        return u8x_result::BAD_ARGUMENT;
    }
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    let (src, skipped) = skip_bom(src, bom);
    let c = crate::classify(src, more);
    let width = c.width.into();
    // SAFETY: non-NULL and aligned; the caller promises it is writable.
    unsafe {
        info.write(u8x_classification {
            width,
            code_points: c.code_points,
            utf16_units: c.utf16_units,
        })
    };
    u8x_result::from(c.progress).after_bom(skipped)
}

/// The number of UTF-16 units in `src`, which the caller already knows is
/// well-formed UTF-8: characters plus one per 4-byte character, at memory
/// speed, with no checks. On ill-formed input the result is meaningless
/// (but defined); use `u8x_decode_utf16` with a NULL output then.
/// `U8X_BAD_SIZE` for NULL with `src_len` > 0.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_count_utf16_valid(src: *const u8, src_len: usize) -> usize {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }.map_or(U8X_BAD_SIZE, crate::utf16_len_valid)
}

/// The number of UTF-8 bytes `src` encodes to, when the caller already knows
/// it is well-formed UTF-16 (every surrogate paired): no checks, memory
/// speed; meaningless but defined otherwise. `flags` is 0 or one byte-order
/// flag. `U8X_BAD_SIZE` for bad arguments.
///
/// # Safety
/// `src` must point to `src_len` readable, 2-byte aligned `uint16_t` (or be
/// NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_encoded_len_utf16_valid(
    src: *const u16,
    src_len: usize,
    flags: u32,
) -> usize {
    let Some((false, order)) = utf16_flags(flags) else {
        return U8X_BAD_SIZE;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }
        .map_or(U8X_BAD_SIZE, |src| crate::utf8_len_valid_utf16(src, order))
}

/// The most UTF-16 units `src_len` bytes decode to when the replacement is
/// in the BMP: one per byte, so `src_len`. (A supplementary `replacement`
/// can need two units per byte: measure with a NULL output then.)
#[no_mangle]
pub extern "C" fn u8x_decode_utf16_bound(src_len: usize) -> usize {
    src_len
}

/// The most UTF-8 bytes `src_len` UTF-16 units encode to when the
/// replacement is at most U+FFFF: 3 per unit, or `U8X_BAD_SIZE` if that
/// overflows `size_t`.
#[no_mangle]
pub extern "C" fn u8x_encode_utf16_bound(src_len: usize) -> usize {
    src_len.checked_mul(3).unwrap_or(U8X_BAD_SIZE)
}

/// The most Latin-1 bytes `src_len` UTF-8 bytes decode to: `src_len`.
#[no_mangle]
pub extern "C" fn u8x_decode_latin1_bound(src_len: usize) -> usize {
    src_len
}

/// The most UTF-8 bytes `src_len` Latin-1 bytes encode to: 2 per byte, or
/// `U8X_BAD_SIZE` if that overflows `size_t`.
#[no_mangle]
pub extern "C" fn u8x_encode_latin1_bound(src_len: usize) -> usize {
    src_len.checked_mul(2).unwrap_or(U8X_BAD_SIZE)
}
