//! Restartable, locale-free drop-ins for `mbrtowc`, `mbrlen`, `wcrtomb`,
//! `mbsrtowcs`, `wcsrtombs` and `mbsinit`: always UTF-8 (RFC 3629), with the
//! conversion state in a caller-allocated `u8x_mbstate_t`.
//!
//! The state is the bytes of a character begun but not finished, and every
//! verdict on them is the reference core's restartable step
//! (`reference::restartable`); the string functions hand everything after
//! that first character to the bulk decoder and encoder. This layer reads
//! and writes the caller's pointers and nothing else.
//!
//! u8x keeps no global state, so POSIX's hidden static state for a NULL
//! `ps` cannot exist: a NULL state is a fresh initial state for that call.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_int, CStr};
use core::ptr::{null, null_mut};
use core::slice;

use super::buffers::{output_up_to, Output};
use super::errno::{fail, set_errno, FAILED};
use crate::reference::encode::unit_bytes;
use crate::reference::restartable::{Pending, Step};
use crate::{EncodePolicy, Policy, Status};
use libc::wchar_t;

/// The conversion state of the restartable functions, POSIX's `mbstate_t`
/// for u8x: the bytes of a character begun but not yet finished.
///
/// Zero-initialise it for the initial state (`u8x_mbstate_t st = {0};` or
/// `memset`), pass it to one conversion at a time, and do not write its
/// fields: a state whose `count` is above 3, whose pending bytes begin no
/// well-formed character, or whose other bytes are not zero is corrupt, and
/// every function refuses it with `(size_t)-1` and `errno` = `EINVAL`.
/// After `EILSEQ` the state is always the initial state again (POSIX leaves
/// it unspecified; glibc may keep the bytes that failed). The state only
/// ever holds bytes while decoding: encoding from a state holding some is
/// refused (`EINVAL`). Copying a state copies the conversion.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct u8x_mbstate_t {
    /// How many bytes are pending: 0 in the initial state, at most 3.
    pub count: u8,
    /// The pending bytes, first byte first, then zeros.
    pub bytes: [u8; 3],
}

/// The most bytes one character takes in UTF-8: the room `u8x_wcrtomb`
/// needs at `s` (u8x's `MB_CUR_MAX`).
pub const U8X_MB_LEN_MAX: usize = 4;

const INITIAL: Pending = Pending::INITIAL;

impl From<u8x_mbstate_t> for Pending {
    fn from(s: u8x_mbstate_t) -> Pending {
        Pending {
            count: s.count,
            bytes: s.bytes,
        }
    }
}

impl From<Pending> for u8x_mbstate_t {
    fn from(p: Pending) -> u8x_mbstate_t {
        u8x_mbstate_t {
            count: p.count,
            bytes: p.bytes,
        }
    }
}

/// `(size_t)-2`: the bytes so far begin a character that needs more.
const INCOMPLETE: usize = usize::MAX - 1;

/// Copies into `new` the bytes at `s` that a step from `state` needs: at
/// most `n`, no more than the character can still take, and nothing after
/// the byte that ends it or rules it out (`E0 80`: no character begins so,
/// and the byte after is not read). So a NUL-terminated string passed with
/// a generous `n` (`MB_CUR_MAX`, as much code does) is never read past its
/// terminator, nor past the byte that decides. Returns how many.
///
/// # Safety
/// `s` must have `n` readable bytes, or be a NUL-terminated string.
unsafe fn take(state: &Pending, s: *const u8, n: usize, new: &mut [u8; 4]) -> usize {
    let have = state.count as usize;
    let mut k = 0;
    while k < n && have + k < 4 {
        // SAFETY: `k < n`, and every byte before `k` left the character
        // open (a terminator would have ended it): still in the caller's
        // bytes.
        new[k] = unsafe { *s.add(k) };
        k += 1;
        if !state.open_after(&new[..k]) {
            break;
        }
    }
    k
}

/// The caller's state, or a fresh one for NULL; `None` if it is corrupt.
///
/// # Safety
/// `ps` is NULL or points to a `u8x_mbstate_t`.
unsafe fn load(ps: *const u8x_mbstate_t) -> Option<Pending> {
    let state = if ps.is_null() {
        INITIAL
    } else {
        // SAFETY: the caller promises a state there; any bytes are a value
        // of the type (alignment 1, integer fields), checked next.
        Pending::from(unsafe { ps.read() })
    };
    state.is_valid().then_some(state)
}

/// Stores `state` for the caller, unless it passed NULL (a state for one
/// call only).
///
/// # Safety
/// `ps` is NULL or points to a writable `u8x_mbstate_t`.
unsafe fn store(ps: *mut u8x_mbstate_t, state: Pending) {
    if !ps.is_null() {
        // SAFETY: the caller promises a writable state there.
        unsafe { ps.write(state.into()) }
    }
}

/// The bytes of a NUL-terminated string from `p`, up to its terminator or
/// `limit` bytes, whichever comes first, and whether the terminator was
/// reached (it is not in the slice).
///
/// # Safety
/// `p` must point into a NUL-terminated string, not written to while the
/// slice is alive.
unsafe fn scan<'a>(p: *const u8, limit: usize) -> (&'a [u8], bool) {
    // One byte at a time, since nothing past the terminator may be read;
    // the bound keeps a caller's loop over a long string with a small `len`
    // linear, where strlen on every call would make it quadratic.
    let mut len = 0;
    let mut terminated = false;
    while len < limit {
        // SAFETY: no terminator before `len`, so `p + len` is in the string.
        if unsafe { *p.add(len) } == 0 {
            terminated = true;
            break;
        }
        len += 1;
    }
    // SAFETY: the `len` bytes before are in the string, which the caller
    // promises is left alone.
    (unsafe { slice::from_raw_parts(p, len) }, terminated)
}

/// [`scan`] for an L'\0'-terminated wide string, as code points.
///
/// # Safety
/// `p` must be aligned and point into an L'\0'-terminated wide string, not
/// written to while the slice is alive.
unsafe fn scan_wide<'a>(p: *const u32, limit: usize) -> (&'a [u32], bool) {
    let mut len = 0;
    let mut terminated = false;
    while len < limit {
        // SAFETY: no terminator before `len`, so `p + len` is in the string.
        if unsafe { *p.add(len) } == 0 {
            terminated = true;
            break;
        }
        len += 1;
    }
    // SAFETY: as in `scan`; `p` is aligned.
    (unsafe { slice::from_raw_parts(p, len) }, terminated)
}

/// `mbrtowc(3)` for UTF-8, whatever the locale: decodes the character that
/// the bytes pending in `*ps` and the first of the `n` bytes at `s` make.
/// Returns the number of bytes of `s` that finish it (1..4), storing it in
/// `*pwc` unless `pwc` is NULL; 0 if it is the NUL character (stored too);
/// `(size_t)-2` if the bytes so far begin a character that needs more (all
/// `n` bytes are then kept in `*ps`; `n` = 0 gives this too, changing
/// nothing); `(size_t)-1` and `errno` = `EILSEQ` if they begin no
/// well-formed character (RFC 3629: overlong forms, surrogates and values
/// above U+10FFFF included), refused at the first byte that rules one out,
/// for example `E0 80` or `ED A0` with more bytes still to come.
/// `*ps` is the initial state after anything but `(size_t)-2`.
///
/// A NULL `s` means `u8x_mbrtowc(NULL, "", 1, ps)`: 0 and the initial
/// state, or `EILSEQ` if bytes were pending (the state is then reset too).
/// A NULL `ps` is a fresh initial state for this call only, not POSIX's
/// hidden state: an incomplete character gives `(size_t)-2` and its bytes
/// are forgotten. A corrupt `*ps` (see `u8x_mbstate_t`) or a misaligned
/// `pwc`: `(size_t)-1` and `errno` = `EINVAL`, nothing changed. However
/// large `n` is, no byte is read after the character's last one or after a
/// byte that ends it (a terminator included), so `n` may be `MB_CUR_MAX` or
/// `U8X_MB_LEN_MAX` on a NUL-terminated string.
///
/// Where glibc's own functions under `C.UTF-8` (2.36) differ, u8x follows
/// RFC 3629 (`c-tests/restartable.c` checks every other answer against
/// glibc's, and u8x's at each of these points):
/// - glibc decodes F4 90..BF and the leads F5..FD as characters above
///   U+10FFFF (4- to 6-byte forms, up to 0x7FFFFFFF), returning
///   `(size_t)-2` for their prefixes; u8x gives `EILSEQ` at the byte that
///   rules a character out (F4's second byte, the lead F5..FF), and
///   `u8x_wcrtomb` / `u8x_wcsrtombs` refuse those values, which glibc
///   encodes.
/// - glibc rejects overlongs (E0 80..9F, F0 80..8F) and surrogates (ED
///   A0..BF) only once the sequence is complete, returning `(size_t)-2`
///   for `E0 80`, `F0 80`, `ED A0` fed in pieces; u8x gives `EILSEQ` at
///   their second byte.
/// - After `EILSEQ` glibc's state may keep the bytes pending before the bad
///   one (`mbsinit` 0, and later calls fail until the caller resets it);
///   u8x's state is initial.
/// - glibc's `mbsrtowcs` with a small `len` may fail with `*src` past the
///   first bytes of the ill-formed sequence, kept in its state; u8x's
///   `*src` is the sequence's first byte.
/// - A NULL `ps` is glibc's hidden static state and a fresh one in u8x;
///   encoding from a state holding decode bytes is `EILSEQ` in glibc,
///   `EINVAL` in u8x.
///
/// # Safety
/// `s`, if not NULL, must have `n` readable bytes or be NUL-terminated;
/// `pwc`, if not NULL, must have room for one `wchar_t`; `ps`, if not NULL,
/// must point to a `u8x_mbstate_t`.
#[no_mangle]
pub unsafe extern "C" fn u8x_mbrtowc(
    pwc: *mut wchar_t,
    s: *const c_char,
    n: usize,
    ps: *mut u8x_mbstate_t,
) -> usize {
    if !pwc.is_aligned() {
        return fail(libc::EINVAL);
    }
    // SAFETY: the caller promises a state at `ps` if not NULL.
    let Some(mut state) = (unsafe { load(ps) }) else {
        return fail(libc::EINVAL);
    };
    let (pwc, found) = if s.is_null() {
        (null_mut(), state.step(b"\0"))
    } else {
        let mut new = [0u8; 4];
        // SAFETY: the caller promises `n` readable bytes at `s`, or a
        // NUL-terminated string.
        let k = unsafe { take(&state, s.cast::<u8>(), n, &mut new) };
        (pwc, state.step(&new[..k]))
    };
    let ret = match found {
        Step::Char { scalar, used } => {
            if !pwc.is_null() {
                // SAFETY: non-NULL, aligned, and the caller promises room
                // for one wchar_t.
                unsafe { pwc.write(scalar as wchar_t) }
            }
            if scalar == 0 {
                0
            } else {
                used
            }
        }
        Step::Incomplete => INCOMPLETE,
        Step::Invalid => {
            set_errno(libc::EILSEQ);
            FAILED
        }
    };
    // SAFETY: the caller promises a state at `ps` if not NULL.
    unsafe { store(ps, state) };
    ret
}

/// `mbrlen(3)` for UTF-8: `u8x_mbrtowc(NULL, s, n, ps)`, the same return
/// values and state rules (a NULL `ps` included: a fresh state for this
/// call only).
///
/// # Safety
/// As for `u8x_mbrtowc`.
#[no_mangle]
pub unsafe extern "C" fn u8x_mbrlen(s: *const c_char, n: usize, ps: *mut u8x_mbstate_t) -> usize {
    // SAFETY: the caller's promises are u8x_mbrtowc's, with no `pwc`.
    unsafe { u8x_mbrtowc(null_mut(), s, n, ps) }
}

/// `wcrtomb(3)` for UTF-8, whatever the locale: writes the UTF-8 of `wc` at
/// `s` (1..4 bytes, never a terminator after them) and returns how many.
/// `wc` L'\0' writes one zero byte. A surrogate, a value above 0x10FFFF or
/// a negative `wchar_t`: `(size_t)-1` and `errno` = `EILSEQ`, nothing
/// written. A NULL `s` means `u8x_wcrtomb(buf, L'\0', ps)`: returns 1 and
/// resets `*ps` to the initial state, pending bytes or not, which makes it
/// a way to reset a state. A corrupt `*ps`, or with `s` not NULL a state
/// holding the bytes of a character being decoded: `(size_t)-1` and
/// `errno` = `EINVAL` (glibc gives `EILSEQ` for the latter), nothing
/// changed. UTF-8 has no shift states, so `ps` is otherwise unused and may
/// be NULL.
///
/// # Safety
/// `s`, if not NULL, must have room for the character: `U8X_MB_LEN_MAX`
/// bytes always suffice. `ps`, if not NULL, must point to a
/// `u8x_mbstate_t`.
#[no_mangle]
pub unsafe extern "C" fn u8x_wcrtomb(s: *mut c_char, wc: wchar_t, ps: *mut u8x_mbstate_t) -> usize {
    // SAFETY: the caller promises a state at `ps` if not NULL.
    let Some(state) = (unsafe { load(ps) }) else {
        return fail(libc::EINVAL);
    };
    if s.is_null() {
        // SAFETY: as above.
        unsafe { store(ps, INITIAL) };
        return 1;
    }
    if state.count != 0 {
        return fail(libc::EINVAL);
    }
    let mut buf = [0u8; 4];
    // A negative wchar_t becomes a value above 0x7FFFFFFF: refused too.
    // (wchar_t is i32 on x86-64 and u32 on aarch64: the cast is needed on
    // one only.)
    #[allow(clippy::unnecessary_cast)]
    let Ok(bytes) = unit_bytes(wc as u32, EncodePolicy::Strict, &mut buf) else {
        return fail(libc::EILSEQ);
    };
    // SAFETY: the caller promises room for the character at `s`; `bytes`
    // is local.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), s.cast::<u8>(), bytes.len()) };
    bytes.len()
}

/// `mbsinit(3)`: non-zero if `ps` is NULL or `*ps` is the initial state (no
/// bytes pending), 0 otherwise, a corrupt state included. Never sets
/// `errno`.
///
/// # Safety
/// `ps`, if not NULL, must point to a `u8x_mbstate_t`.
#[no_mangle]
pub unsafe extern "C" fn u8x_mbsinit(ps: *const u8x_mbstate_t) -> c_int {
    // SAFETY: the caller promises a state at `ps` if not NULL.
    match unsafe { load(ps) } {
        Some(state) => c_int::from(state.count == 0),
        None => 0,
    }
}

/// `mbsrtowcs(3)` for UTF-8, whatever the locale: converts the
/// NUL-terminated string at `*src`, after the bytes pending in `*ps`, to at
/// most `len` wide characters at `dst`. The terminator is converted and
/// stored too if there is room for it (it is not counted); `*src` then
/// becomes NULL. Otherwise `*src` points just past the last character
/// converted: the next one to convert when `len` was reached, or the start
/// of the ill-formed sequence. Returns the number of wide characters
/// stored, not counting L'\0'. `*ps` is the initial state afterwards,
/// whatever the outcome (an error included), except with `len` 0, which
/// changes nothing.
///
/// With `dst` NULL, counts the characters of the whole string (`len` is
/// ignored) and changes neither `*src` nor `*ps`.
///
/// An ill-formed sequence (RFC 3629; pending bytes that the string does not
/// continue, or that its terminator cuts, included) met before `len`
/// characters were stored: `(size_t)-1` and `errno` = `EILSEQ`, the
/// characters before it stored. A NULL `src` or `*src`, a misaligned `src`
/// or `dst`, a `dst` overlapping the string, or a corrupt `*ps`:
/// `(size_t)-1` and `errno` = `EINVAL`. A NULL `ps` is a fresh initial
/// state for this call only. (Differences from glibc: see `u8x_mbrtowc`.)
///
/// Converting stops reading after `4 * len` bytes: a loop with a small
/// buffer over a long string stays linear.
///
/// # Safety
/// `src` must point to a pointer to a NUL-terminated string; `dst`, if not
/// NULL, must have room for `len` wide characters and overlap neither `*src`
/// nor `ps`; `ps`, if not NULL, must point to a `u8x_mbstate_t`.
#[no_mangle]
pub unsafe extern "C" fn u8x_mbsrtowcs(
    dst: *mut wchar_t,
    src: *mut *const c_char,
    len: usize,
    ps: *mut u8x_mbstate_t,
) -> usize {
    if src.is_null() || !src.is_aligned() || !dst.is_aligned() {
        return fail(libc::EINVAL);
    }
    // SAFETY: non-NULL and aligned; the caller promises a pointer there.
    let start = unsafe { src.read() }.cast::<u8>();
    // SAFETY: the caller promises a state at `ps` if not NULL.
    let state = unsafe { load(ps) };
    let Some(mut state) = state.filter(|_| !start.is_null()) else {
        return fail(libc::EINVAL);
    };
    if !dst.is_null() && len == 0 {
        return 0;
    }
    // The character the state has begun, finished by the string's first
    // bytes (never past its terminator).
    let mut p = start;
    let mut first = None;
    if state.count != 0 {
        let mut buf = [0u8; 3];
        let mut k = 0;
        while k < 4 - state.count as usize {
            // SAFETY: no terminator before `k`: still in the string.
            buf[k] = unsafe { *p.add(k) };
            k += 1;
            if buf[k - 1] == 0 {
                break;
            }
        }
        match state.step(&buf[..k]) {
            Step::Char { scalar, used } => {
                first = Some(scalar);
                // SAFETY: `used` of the bytes just read, none the terminator.
                p = unsafe { p.add(used) };
            }
            // (four bytes or a terminator always decide)
            Step::Incomplete | Step::Invalid => {
                if !dst.is_null() {
                    // SAFETY: the caller promises a state at `ps` if not NULL.
                    unsafe { store(ps, INITIAL) };
                }
                return fail(libc::EILSEQ);
            }
        }
    }

    if dst.is_null() {
        // SAFETY: `p` is in the caller's NUL-terminated string.
        let rest = unsafe { CStr::from_ptr(p.cast::<c_char>()) }.to_bytes();
        let c = crate::count(rest, Policy::Strict, false);
        return match c.status {
            Status::Done => c.written + usize::from(first.is_some()),
            _ => fail(libc::EILSEQ),
        };
    }

    let dst = dst.cast::<u32>();
    let mut written = 0;
    if let Some(scalar) = first {
        // SAFETY: the bytes just read are in the string.
        let used = unsafe { slice::from_raw_parts(start, p.offset_from(start) as usize) };
        // SAFETY: the caller promises room for `len` >= 1 wide characters.
        match unsafe { output_up_to(dst, 1, 1, used) } {
            Some(Output::Buffer([slot])) => *slot = scalar,
            _ => return fail(libc::EINVAL),
        }
        written = 1;
    }
    let want = len - written;
    let (done, next, error) = if want == 0 {
        (false, p, false)
    } else {
        // Room for `want` characters: `4 * want` bytes are as many as they
        // can take, so the terminator or a full buffer comes within them.
        // SAFETY: `p` is in the caller's string.
        let (window, terminated) = unsafe { scan(p, want.saturating_mul(4)) };
        // SAFETY: `written < len`: the rest of the caller's buffer, with
        // room for `want` wide characters.
        let out = match unsafe { output_up_to(dst.add(written), want, window.len() + 1, window) } {
            Some(Output::Buffer(out)) => out,
            _ => return fail(libc::EINVAL),
        };
        let cap = out.len().min(window.len());
        let d = crate::decode_ucs4(window, &mut out[..cap], Policy::Strict, !terminated);
        written += d.written;
        // SAFETY: `d.read` bytes of the window were consumed.
        let next = unsafe { p.add(d.read) };
        match d.status {
            Status::Done if terminated && d.written < want => {
                out[d.written] = 0;
                (true, next, false)
            }
            Status::IllFormed(_) if written < len => (false, next, true),
            _ => {
                debug_assert_eq!(written, len, "4 * want bytes hold want characters");
                (false, next, false)
            }
        }
    };
    // SAFETY: `src` is non-NULL and aligned; the caller promises a pointer
    // there, and a state at `ps` if not NULL.
    unsafe {
        src.write(if done { null() } else { next.cast::<c_char>() });
        store(ps, INITIAL);
    }
    if error {
        return fail(libc::EILSEQ);
    }
    written
}

/// `wcsrtombs(3)` for UTF-8, whatever the locale: converts the
/// L'\0'-terminated wide string at `*src` to at most `len` bytes at `dst`,
/// never splitting a character. The terminator is converted and stored too
/// if there is room for it (it is not counted); `*src` then becomes NULL.
/// Otherwise `*src` points just past the last character converted: the
/// next one when it did not fit, or the invalid one. Returns the number of
/// bytes stored, not counting the terminator.
///
/// With `dst` NULL, returns the bytes the whole string needs (`len` is
/// ignored) and leaves `*src` alone.
///
/// A surrogate, a value above 0x10FFFF or a negative `wchar_t` met while
/// there was room left: `(size_t)-1` and `errno` = `EILSEQ`, the bytes
/// before it stored (glibc encodes 0x110000..0x7FFFFFFF as 4- to 6-byte
/// forms; u8x refuses them, as RFC 3629 does). A NULL `src` or `*src`, a
/// misaligned `src` or `*src`, a `dst` overlapping the string, a corrupt
/// `*ps` or one holding the bytes of a character being decoded:
/// `(size_t)-1` and `errno` = `EINVAL`. UTF-8 has no shift states: `*ps` is
/// never changed, and may be NULL.
///
/// Converting stops reading after `len` wide characters: a loop with a
/// small buffer over a long string stays linear.
///
/// # Safety
/// `src` must point to a pointer to an L'\0'-terminated wide string; `dst`,
/// if not NULL, must have room for `len` bytes and overlap neither `*src`
/// nor `ps`; `ps`, if not NULL, must point to a `u8x_mbstate_t`.
#[no_mangle]
pub unsafe extern "C" fn u8x_wcsrtombs(
    dst: *mut c_char,
    src: *mut *const wchar_t,
    len: usize,
    ps: *mut u8x_mbstate_t,
) -> usize {
    if src.is_null() || !src.is_aligned() {
        return fail(libc::EINVAL);
    }
    // SAFETY: non-NULL and aligned; the caller promises a pointer there.
    let start = unsafe { src.read() }.cast::<u32>();
    // SAFETY: the caller promises a state at `ps` if not NULL.
    let state = unsafe { load(ps) };
    if start.is_null() || !start.is_aligned() || state.is_none_or(|s| s.count != 0) {
        return fail(libc::EINVAL);
    }
    if dst.is_null() {
        // SAFETY: `start` is aligned and the caller promises a terminated
        // wide string there.
        let (units, _) = unsafe { scan_wide(start, usize::MAX) };
        let e = crate::encoded_len(units, EncodePolicy::Strict);
        return match e.status {
            Status::Done => e.written,
            _ => fail(libc::EILSEQ),
        };
    }
    if len == 0 {
        return 0;
    }
    // `len` bytes hold at most `len` characters: none further is needed.
    // SAFETY: as above.
    let (units, terminated) = unsafe { scan_wide(start, len) };
    let most = units.len().saturating_mul(4).saturating_add(1);
    // SAFETY: the caller promises room for `len` bytes at `dst`.
    let out = match unsafe { output_up_to(dst.cast::<u8>(), len, most, units) } {
        Some(Output::Buffer(out)) => out,
        _ => return fail(libc::EINVAL),
    };
    let cap = out.len().min(most - 1);
    let e = crate::encode(units, &mut out[..cap], EncodePolicy::Strict);
    // SAFETY: `e.read` units of the string were consumed.
    let next = unsafe { start.add(e.read) };
    let (done, error) = match e.status {
        Status::Done if terminated && e.written < len => {
            out[e.written] = 0;
            (true, false)
        }
        // A full buffer stops the conversion before the invalid character
        // is reached, as in glibc.
        Status::IllFormed(_) => (false, e.written < len),
        _ => (false, false),
    };
    // SAFETY: `src` is non-NULL and aligned; the caller promises a pointer
    // there.
    unsafe { src.write(if done { null() } else { next.cast::<wchar_t>() }) };
    if error {
        return fail(libc::EILSEQ);
    }
    e.written
}

// The C ABI, pinned (checked again in include/u8x.h's trailer).
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<u8x_mbstate_t>() == 4 && align_of::<u8x_mbstate_t>() == 1);
    assert!(offset_of!(u8x_mbstate_t, count) == 0);
    assert!(offset_of!(u8x_mbstate_t, bytes) == 1);
};

#[cfg(test)]
mod tests {
    use super::*;

    // (wchar_t and c_char are signed on x86-64, unsigned on aarch64: the
    // casts are needed on one only.)
    #[allow(clippy::unnecessary_cast)]
    #[test]
    fn string_functions_with_small_buffers() {
        let text = "a\u{e9}\u{20ac}\u{1f600}z\0";
        let want: Vec<u32> = text.chars().map(u32::from).collect();
        for len in 1..=6 {
            let mut got = Vec::new();
            let mut p = text.as_ptr().cast::<c_char>();
            let mut st = u8x_mbstate_t::default();
            while !p.is_null() {
                let mut buf = [0x5A5A_5A5A as wchar_t; 8];
                let r = unsafe { u8x_mbsrtowcs(buf.as_mut_ptr(), &mut p, len, &mut st) };
                assert!(r <= len);
                let stored = if p.is_null() { r + 1 } else { r };
                got.extend(buf[..stored].iter().map(|&w| w as u32));
            }
            assert_eq!(got, want, "len {len}");

            let wide: Vec<wchar_t> = want.iter().map(|&c| c as wchar_t).collect();
            let mut bytes = Vec::new();
            let mut w = wide.as_ptr();
            while !w.is_null() {
                let mut buf = [0x5Au8 as c_char; 8];
                let r = unsafe { u8x_wcsrtombs(buf.as_mut_ptr(), &mut w, len + 3, null_mut()) };
                assert!(r <= len + 3 && (r > 0 || w.is_null()));
                let stored = if w.is_null() { r + 1 } else { r };
                bytes.extend(buf[..stored].iter().map(|&b| b as u8));
            }
            assert_eq!(bytes, text.as_bytes(), "len {len}");
        }
    }
}
