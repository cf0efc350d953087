//! The codec entry points: validate, decode, encode, count, boundaries.

use super::buffers::{input, output, Output};
use super::types::{
    skip_bom, u8x_result, U8X_BAD_SIZE, U8X_DIALECT_MASK, U8X_MORE_INPUT, U8X_SKIP_BOM,
};
use crate::{Dialect, EncodePolicy, Policy};

/// The flags of a call reading UTF-8: `U8X_MORE_INPUT` and `U8X_SKIP_BOM`,
/// nothing else.
pub(super) fn utf8_flags(flags: u32) -> Option<(bool, bool)> {
    (flags & !(U8X_MORE_INPUT | U8X_SKIP_BOM) == 0)
        .then_some((flags & U8X_MORE_INPUT != 0, flags & U8X_SKIP_BOM != 0))
}

/// The `u8x_dialect` value `code` (its bits in place), if it is one.
pub(super) fn dialect(code: u32) -> Option<Dialect> {
    Some(match code {
        0 => Dialect::Standard,
        0x100 => Dialect::Legacy,
        0x200 => Dialect::Cesu8,
        0x300 => Dialect::Mutf8,
        0x400 => Dialect::Wtf8,
        0x500 => Dialect::Generalized,
        _ => return None,
    })
}

/// Splits a `policy` or `flags` argument into its dialect and the rest.
pub(super) fn split_dialect(arg: u32) -> Option<(Dialect, u32)> {
    Some((dialect(arg & U8X_DIALECT_MASK)?, arg & !U8X_DIALECT_MASK))
}

/// A decoding `policy` argument: the policy and the dialect OR-ed into it.
pub(super) fn decode_policy_in(policy: u32, replacement: u32) -> Option<(Dialect, Policy)> {
    let (d, policy) = split_dialect(policy)?;
    Some((d, decode_policy(policy, replacement)?))
}

/// An encoding `policy` argument: the policy and the dialect OR-ed into it.
pub(super) fn encode_policy_in(policy: u32, replacement: u32) -> Option<(Dialect, EncodePolicy)> {
    let (d, policy) = split_dialect(policy)?;
    Some((d, encode_policy(policy, replacement)?))
}

/// The most bytes one code point (or UTF-16 unit) takes in `dialect`.
pub(super) fn bytes_per_code_point(dialect: Dialect) -> usize {
    match dialect {
        Dialect::Legacy | Dialect::Cesu8 | Dialect::Mutf8 => 6,
        _ => 4,
    }
}

pub(super) fn decode_policy(policy: u32, replacement: u32) -> Option<Policy> {
    Some(match policy {
        0 => Policy::Strict,
        1 => Policy::Replace(char::from_u32(replacement)?),
        2 => Policy::Escape,
        3 => Policy::Latin1,
        4 => Policy::Cp1252,
        5 => Policy::Ignore,
        _ => return None,
    })
}

pub(super) fn encode_policy(policy: u32, replacement: u32) -> Option<EncodePolicy> {
    Some(match policy {
        0 => EncodePolicy::Strict,
        1 => EncodePolicy::Replace(char::from_u32(replacement)?),
        2 => EncodePolicy::Escape,
        5 => EncodePolicy::Ignore,
        _ => return None,
    })
}

/// Checks that `src[0..src_len)` is well-formed UTF-8 (RFC 3629).
///
/// Returns `U8X_OK`; or `U8X_ILL_FORMED` with `read` = the offset of the first
/// ill-formed sequence, `error` = its kind and `error_len` = the length of its
/// maximal subpart; or, with `flags` = `U8X_MORE_INPUT` and a sequence cut by
/// the end of the buffer, `U8X_INCOMPLETE` with `read` = where it starts.
/// `flags` is 0, `U8X_MORE_INPUT` and/or `U8X_SKIP_BOM`, OR-ed with a
/// `u8x_dialect` to check that dialect instead. `src` may be NULL when
/// `src_len` is 0.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_validate(src: *const u8, src_len: usize, flags: u32) -> u8x_result {
    let Some((d, flags)) = split_dialect(flags) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let (Some((more, bom)), Some(src)) = (utf8_flags(flags), unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    let (src, skipped) = skip_bom(src, bom);
    u8x_result::from(crate::validate_in(d, src, more)).after_bom(skipped)
}

/// Decodes UTF-8 into code points (UCS-4 / UTF-32 in native byte order).
///
/// `policy` is a `u8x_policy`, OR-ed with a `u8x_dialect` to read that
/// dialect; `replacement` is the scalar `U8X_REPLACE`
/// writes (normally `U8X_REPLACEMENT_CHARACTER`; it must be a Unicode scalar
/// value) and is ignored by the other policies. `flags` is 0,
/// `U8X_MORE_INPUT` and/or `U8X_SKIP_BOM`. Under every policy but
/// `U8X_STRICT`, `handled` is the number of maximal subparts replaced,
/// escaped, mapped or dropped.
///
/// Writes at most `dst_cap` code points to `dst`, and never part of what one
/// maximal subpart produces under `U8X_REPLACE`. Returns `U8X_OK`,
/// `U8X_ILL_FORMED` (strict policy; the code points before the error are
/// written), `U8X_INCOMPLETE` (`U8X_MORE_INPUT` only), `U8X_OUTPUT_FULL`
/// (call again from `src + read`), or `U8X_BAD_ARGUMENT`. `read` is the bytes
/// consumed and `written` the code points written.
///
/// With `dst` NULL and `dst_cap` 0, nothing is written and `written` is the
/// exact number of code points the call needs. `u8x_decode_ucs4_bound(src_len)`
/// code points always suffice.
///
/// # Safety
/// `src` must point to `src_len` readable bytes and `dst` to `dst_cap`
/// writable, 4-byte aligned `uint32_t` not overlapping `src` (each may be NULL
/// when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_decode_ucs4(
    src: *const u8,
    src_len: usize,
    dst: *mut u32,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
    flags: u32,
) -> u8x_result {
    let (Some((d, policy)), Some((more, bom))) =
        (decode_policy_in(policy, replacement), utf8_flags(flags))
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller promises `dst_cap` writable elements at `dst`.
    let out = unsafe { output(dst, dst_cap, crate::decode_ucs4_bound(src.len()), src) };
    let Some(out) = out else {
        return u8x_result::BAD_ARGUMENT;
    };
    let (src, skipped) = skip_bom(src, bom);
    let p = match out {
        Output::Buffer(dst) => crate::decode_ucs4_in(d, src, dst, policy, more),
        Output::Measure => crate::count_in(d, src, policy, more),
    };
    u8x_result::from(p).after_bom(skipped)
}

/// Counts the code points `u8x_decode_ucs4` would write for this input and
/// policy, writing nothing: the count is `written`, the other fields are as
/// `u8x_decode_ucs4` would report them. (Under `U8X_ESCAPE`, `U8X_LATIN1` and
/// `U8X_CP1252` every byte of an ill-formed sequence counts; under
/// `U8X_REPLACE` each maximal subpart counts once; under `U8X_IGNORE`
/// none does, and `handled` says how many were dropped.) `flags` as for
/// `u8x_decode_ucs4`.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_count(
    src: *const u8,
    src_len: usize,
    policy: u32,
    flags: u32,
) -> u8x_result {
    let policy = decode_policy_in(policy, super::types::U8X_REPLACEMENT_CHARACTER);
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let (Some((d, policy)), Some((more, bom)), Some(src)) =
        (policy, utf8_flags(flags), unsafe { input(src, src_len) })
    else {
        return u8x_result::BAD_ARGUMENT;
    };
    let (src, skipped) = skip_bom(src, bom);
    u8x_result::from(crate::count_in(d, src, policy, more)).after_bom(skipped)
}

/// The number of code points in `src`, which the caller already knows is
/// well-formed UTF-8 (for example, validated when it arrived): the number of
/// bytes that are not continuation bytes (80..BF), at memory speed. Defined
/// for every input, but on ill-formed input it is that byte count, not what
/// decoding would produce: use `u8x_count` then. Returns `U8X_BAD_SIZE` for
/// NULL with `src_len` > 0.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_count_valid(src: *const u8, src_len: usize) -> usize {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }.map_or(U8X_BAD_SIZE, crate::count_valid)
}

/// Encodes code points as UTF-8.
///
/// `policy` is `U8X_STRICT` (stop at the first surrogate or value above
/// 0x10FFFF: `U8X_ILL_FORMED`, `read` = its index), `U8X_REPLACE` (write the
/// UTF-8 of `replacement`, a Unicode scalar value, instead), `U8X_ESCAPE`
/// (U+DC80..U+DCFF become the byte they escape; other invalid units stop as
/// strict does) or `U8X_IGNORE` (drop them). Other policies are
/// `U8X_BAD_ARGUMENT`. `handled` is the number of invalid units replaced,
/// escaped or dropped. OR a `u8x_dialect` into `policy` to write that
/// dialect (what is invalid then is what the dialect cannot write; a code
/// point can take 6 bytes in legacy UTF-8, CESU-8 and Modified UTF-8: see
/// `u8x_encode_bound_in`).
///
/// Writes at most `dst_cap` bytes, never part of a character; on
/// `U8X_OUTPUT_FULL` call again from `src + read`. `read` is the code points
/// consumed, `written` the bytes written. With `dst` NULL and `dst_cap` 0,
/// `written` is the exact size needed. `u8x_encode_bound(src_len)` bytes
/// always suffice in RFC 3629, WTF-8 and generalized UTF-8, and
/// `u8x_encode_bound_in(src_len, dialect)` in every dialect.
///
/// # Safety
/// `src` must point to `src_len` readable, 4-byte aligned `uint32_t` and `dst`
/// to `dst_cap` writable bytes not overlapping `src` (each may be NULL when its
/// length is 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_encode(
    src: *const u32,
    src_len: usize,
    dst: *mut u8,
    dst_cap: usize,
    policy: u32,
    replacement: u32,
) -> u8x_result {
    let Some((d, policy)) = encode_policy_in(policy, replacement) else {
        return u8x_result::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let Some(src) = (unsafe { input(src, src_len) }) else {
        return u8x_result::BAD_ARGUMENT;
    };
    let most = src.len().saturating_mul(bytes_per_code_point(d));
    // SAFETY: the caller promises `dst_cap` writable bytes at `dst`.
    match unsafe { output(dst, dst_cap, most, src) } {
        Some(Output::Buffer(dst)) => crate::encode_in(d, src, Some(dst), policy).into(),
        Some(Output::Measure) => crate::encode_in(d, src, None, policy).into(),
        None => u8x_result::BAD_ARGUMENT,
    }
}

/// The number of bytes `u8x_encode` would write for this input and policy:
/// `written`; the other fields as `u8x_encode` would report them.
///
/// # Safety
/// `src` must point to `src_len` readable, aligned `uint32_t` (or be NULL with
/// `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_encoded_len(
    src: *const u32,
    src_len: usize,
    policy: u32,
    replacement: u32,
) -> u8x_result {
    // SAFETY: same contract; NULL with capacity 0 only measures.
    unsafe { u8x_encode(src, src_len, core::ptr::null_mut(), 0, policy, replacement) }
}

/// The first position at or after `pos` where `src` can be split so that
/// decoding the two halves separately (each as a whole input) gives exactly
/// the output of decoding `src`, under every policy (under `U8X_STRICT` the
/// same code points and error offset; only the error kind may differ, as
/// when `ED A0 80` is cut after `ED`: the first half then ends inside a
/// sequence). On valid text: the next character start (or `src_len`). Inside
/// damaged bytes it never splits a maximal subpart. Looks at no more than 3
/// bytes on either side of `pos`.
/// Returns `U8X_BAD_SIZE` if `pos > src_len` or `src` is NULL with
/// `src_len` > 0.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_next_boundary(src: *const u8, src_len: usize, pos: usize) -> usize {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }
        .and_then(|src| crate::next_boundary(src, pos))
        .unwrap_or(U8X_BAD_SIZE)
}

/// The last position at or before `pos` with the property described for
/// `u8x_next_boundary`. Use it to cut a buffer to at most N bytes without
/// cutting a character. Returns `U8X_BAD_SIZE` on bad arguments.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_prev_boundary(src: *const u8, src_len: usize, pos: usize) -> usize {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    unsafe { input(src, src_len) }
        .and_then(|src| crate::prev_boundary(src, pos))
        .unwrap_or(U8X_BAD_SIZE)
}

/// `u8x_next_boundary` for UTF-8 in `dialect` (a `u8x_dialect`): never
/// between the halves of a CESU-8 pair, nor, in WTF-8, between a high
/// surrogate and the low one that makes it ill-formed. Looks at no more
/// than 8 bytes back and 6 ahead of `pos`, per position tried. Returns
/// `U8X_BAD_SIZE` on bad arguments (an unknown dialect among them).
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_next_boundary_in(
    src: *const u8,
    src_len: usize,
    pos: usize,
    dialect: u32,
) -> usize {
    // SAFETY: the caller's promise about `src` is `boundary_in`'s.
    unsafe { boundary_in(src, src_len, pos, dialect, crate::next_boundary_in) }
}

/// A boundary function in a dialect, with the arguments checked.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
unsafe fn boundary_in(
    src: *const u8,
    src_len: usize,
    pos: usize,
    dialect: u32,
    find: fn(Dialect, &[u8], usize) -> Option<usize>,
) -> usize {
    // SAFETY: the caller's promise about `src` is `input`'s precondition.
    let src = unsafe { input(src, src_len) };
    match (src, self::dialect(dialect)) {
        (Some(src), Some(d)) => find(d, src, pos).unwrap_or(U8X_BAD_SIZE),
        _ => U8X_BAD_SIZE,
    }
}

/// `u8x_prev_boundary` for UTF-8 in `dialect` (a `u8x_dialect`). Returns
/// `U8X_BAD_SIZE` on bad arguments.
///
/// # Safety
/// `src` must point to `src_len` readable bytes (or be NULL with `src_len` 0).
#[no_mangle]
pub unsafe extern "C" fn u8x_prev_boundary_in(
    src: *const u8,
    src_len: usize,
    pos: usize,
    dialect: u32,
) -> usize {
    // SAFETY: the caller's promise about `src` is `boundary_in`'s.
    unsafe { boundary_in(src, src_len, pos, dialect, crate::prev_boundary_in) }
}

/// The most bytes `src_len` code points can encode to in `dialect` (a
/// `u8x_dialect`) under any policy: 6 per code point in legacy UTF-8,
/// CESU-8 and Modified UTF-8, 4 in the others. `U8X_BAD_SIZE` if that
/// overflows `size_t` or the dialect is unknown.
#[no_mangle]
pub extern "C" fn u8x_encode_bound_in(src_len: usize, dialect: u32) -> usize {
    self::dialect(dialect)
        .and_then(|d| src_len.checked_mul(bytes_per_code_point(d)))
        .unwrap_or(U8X_BAD_SIZE)
}

/// The most code points `src_len` bytes can decode to under any policy: one
/// per byte, so this is `src_len`. (Multiply by 4 for bytes only after
/// checking `src_len <= SIZE_MAX / 4`.)
#[no_mangle]
pub extern "C" fn u8x_decode_ucs4_bound(src_len: usize) -> usize {
    crate::decode_ucs4_bound(src_len)
}

/// The most bytes `src_len` code points can encode to under any policy
/// (4 per code point), or `U8X_BAD_SIZE` (SIZE_MAX) if that overflows `size_t`.
#[no_mangle]
pub extern "C" fn u8x_encode_bound(src_len: usize) -> usize {
    crate::encode_bound(src_len).unwrap_or(U8X_BAD_SIZE)
}
