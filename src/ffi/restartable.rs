//! Restartable, locale-free drop-ins for `mbrtowc`, `mbrlen`, `wcrtomb`,
//! `mbsrtowcs`, `wcsrtombs` and `mbsinit`: always UTF-8 (RFC 3629), with the
//! conversion state in a caller-allocated `u8x_mbstate_t`.
//!
//! The state is the bytes of a character begun but not finished, and every
//! verdict on them is the reference core's restartable step
//! (`reference::restartable`); the string functions hand everything after
//! that first character to the bulk decoder and encoder (those two are in
//! `restartable_strings.rs`). This layer reads and writes the caller's
//! pointers and nothing else.
//!
//! u8x keeps no global state, so POSIX's hidden static state for a NULL
//! `ps` cannot exist: a NULL state is a fresh initial state for that call.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_int};
use core::ptr::null_mut;

use super::errno::{fail, set_errno, FAILED};
#[cfg(windows)]
use super::wide;
use crate::reference::encode::unit_bytes;
use crate::reference::restartable::{Pending, Step};
use crate::EncodePolicy;
use libc::wchar_t;
#[cfg(windows)]
use pair_state::{held, join, keeping, HIGH_HELD, LOW_OWED};

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
///
/// Where `wchar_t` is 16 bits (Windows), a state may also hold half a
/// surrogate pair (`count` 4 or 5, the unit in `bytes`): the low surrogate
/// `u8x_mbrtowc` or `u8x_mbsrtowcs` owes after storing a high one (a
/// decoding state), or the high surrogate `u8x_wcrtomb` holds until the low
/// one comes (an encoding state, refused by the decoding functions with
/// `EINVAL`). `u8x_mbsinit` is 0 for both.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct u8x_mbstate_t {
    /// How many bytes are pending: 0 in the initial state, at most 3.
    pub count: u8,
    /// The pending bytes, first byte first, then zeros.
    pub bytes: [u8; 3],
}

/// Where `wchar_t` is UTF-16, the two states a surrogate pair adds to
/// `u8x_mbstate_t`, marked by a `count` that no byte state has, the unit in
/// `bytes[0]` (low byte) and `bytes[1]`, `bytes[2]` zero: `u8x_mbrtowc` has
/// stored a high surrogate and owes the low one, or `u8x_wcrtomb` holds a
/// high surrogate and waits for the low one.
#[cfg(windows)]
pub(super) mod pair_state {
    use super::u8x_mbstate_t;

    /// `u8x_mbrtowc` / `u8x_mbsrtowcs` owe this low surrogate.
    pub const LOW_OWED: u8 = 4;
    /// `u8x_wcrtomb` holds this high surrogate.
    pub const HIGH_HELD: u8 = 5;

    /// The unit `*ps` keeps under `mark`, if it is that state (a NULL `ps`
    /// never is).
    ///
    /// # Safety
    /// `ps` is NULL or points to a `u8x_mbstate_t`.
    pub unsafe fn held(ps: *const u8x_mbstate_t, mark: u8) -> Option<u16> {
        if ps.is_null() {
            return None;
        }
        // SAFETY: the caller promises a state there; alignment 1, any bytes.
        let s = unsafe { ps.read() };
        let unit = u16::from_le_bytes([s.bytes[0], s.bytes[1]]);
        let range = if mark == LOW_OWED {
            0xDC00..=0xDFFF
        } else {
            0xD800..=0xDBFF
        };
        (s.count == mark && s.bytes[2] == 0 && range.contains(&unit)).then_some(unit)
    }

    /// The state keeping `unit` under `mark`.
    pub const fn keeping(mark: u8, unit: u16) -> u8x_mbstate_t {
        let [lo, hi] = unit.to_le_bytes();
        u8x_mbstate_t {
            count: mark,
            bytes: [lo, hi, 0],
        }
    }

    /// The scalar of a high and a low surrogate.
    pub const fn join(high: u16, low: u16) -> u32 {
        0x1_0000 + (((high as u32) & 0x3FF) << 10 | (low as u32) & 0x3FF)
    }
}

/// The most bytes one character takes in UTF-8: the room `u8x_wcrtomb`
/// needs at `s` (u8x's `MB_CUR_MAX`).
pub const U8X_MB_LEN_MAX: usize = 4;

pub(super) const INITIAL: Pending = Pending::INITIAL;

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
/// `(size_t)-3`: the owed second half of a surrogate pair was stored, no
/// byte read (C11's `mbrtoc16`).
#[cfg(windows)]
const OWED_STORED: usize = usize::MAX - 2;

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
pub(super) unsafe fn load(ps: *const u8x_mbstate_t) -> Option<Pending> {
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
pub(super) unsafe fn store(ps: *mut u8x_mbstate_t, state: impl Into<u8x_mbstate_t>) {
    if !ps.is_null() {
        // SAFETY: the caller promises a writable state there.
        unsafe { ps.write(state.into()) }
    }
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
/// `*ps` is the initial state after anything but `(size_t)-2` (and, where
/// `wchar_t` is 16 bits, a character above U+FFFF).
///
/// Where `wchar_t` is 16 bits (Windows), one `wchar_t` is a UTF-16 unit and
/// a character above U+FFFF is returned as C11's `mbrtoc16` returns it:
/// the call that finishes it stores its high surrogate and returns its
/// bytes, and `*ps` owes the low surrogate (`u8x_mbsinit` gives 0); the
/// next call stores that (`u8x_mbrlen` drops it) and returns `(size_t)-3`,
/// reading no byte (`s` may be NULL). With a NULL `ps` there is nowhere to keep the second half:
/// such a character is `(size_t)-1` and `EILSEQ`, never half returned (pass
/// a state). With a NULL `pwc` (`u8x_mbrlen`) nothing is stored, so
/// nothing is owed: it returns the character's bytes, as for any other.
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
    // The second half of a pair, owed by the call that stored the first:
    // C11's mbrtoc16, reading nothing.
    #[cfg(windows)]
    // SAFETY: the caller promises a state at `ps` if not NULL.
    if let Some(low) = unsafe { held(ps, LOW_OWED) } {
        if !pwc.is_null() {
            // SAFETY: non-NULL, aligned, room for one wchar_t.
            unsafe { pwc.write(low) }
        }
        // SAFETY: as above.
        unsafe { store(ps, INITIAL) };
        return OWED_STORED;
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
    #[cfg_attr(not(windows), allow(unused_mut))]
    let mut after: u8x_mbstate_t = state.into();
    let ret = match found {
        // One wchar_t cannot hold it: the high surrogate now, the low one
        // owed in the caller's state (none to keep it in: refused).
        #[cfg(windows)]
        Step::Char { scalar, used } if scalar > 0xFFFF && !pwc.is_null() => {
            if ps.is_null() {
                return fail(libc::EILSEQ);
            }
            let (high, low) = wide::split(scalar);
            // SAFETY: non-NULL, aligned, room for one wchar_t.
            unsafe { pwc.write(high) }
            after = keeping(LOW_OWED, low);
            used
        }
        Step::Char { scalar, used } => {
            if !pwc.is_null() {
                // SAFETY: non-NULL, aligned, and the caller promises room
                // for one wchar_t; the scalar fits one (the arm above).
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
    unsafe { store(ps, after) };
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
/// Where `wchar_t` is 16 bits (Windows), a character above U+FFFF comes as
/// its surrogate pair, as C11's `c16rtomb` takes it: the high surrogate
/// writes nothing and returns 0, held in `*ps`; the low one that follows
/// writes the character's 4 bytes. A high surrogate with a NULL `ps`
/// (nowhere to hold it), a low one not after a high one, or anything else
/// after a high one: `(size_t)-1` and `EILSEQ`, `*ps` initial again. A
/// state owing `u8x_mbrtowc`'s low surrogate is a decoding state:
/// `EINVAL`.
///
/// # Safety
/// `s`, if not NULL, must have room for the character: `U8X_MB_LEN_MAX`
/// bytes always suffice. `ps`, if not NULL, must point to a
/// `u8x_mbstate_t`.
#[no_mangle]
pub unsafe extern "C" fn u8x_wcrtomb(s: *mut c_char, wc: wchar_t, ps: *mut u8x_mbstate_t) -> usize {
    // A high surrogate held: `wc` must be its low one (C11's c16rtomb).
    #[cfg(windows)]
    // SAFETY: the caller promises a state at `ps` if not NULL.
    if let Some(high) = unsafe { held(ps, HIGH_HELD) } {
        // SAFETY: as above.
        unsafe { store(ps, INITIAL) };
        if s.is_null() {
            return 1;
        }
        if !(0xDC00..=0xDFFF).contains(&wc) {
            return fail(libc::EILSEQ);
        }
        let mut buf = [0u8; 4];
        let Ok(bytes) = unit_bytes(join(high, wc), EncodePolicy::Strict, &mut buf) else {
            return fail(libc::EILSEQ);
        };
        // SAFETY: the caller promises room for the character at `s`.
        unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), s.cast::<u8>(), bytes.len()) };
        return bytes.len();
    }
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
    // The first half of a pair: held until the second comes.
    #[cfg(windows)]
    if (0xD800..=0xDBFF).contains(&wc) {
        if ps.is_null() {
            return fail(libc::EILSEQ);
        }
        // SAFETY: the caller promises a state at `ps`.
        unsafe { store(ps, keeping(HIGH_HELD, wc)) };
        return 0;
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

// The C ABI, pinned (checked again in include/u8x.h's trailer).
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<u8x_mbstate_t>() == 4 && align_of::<u8x_mbstate_t>() == 1);
    assert!(offset_of!(u8x_mbstate_t, count) == 0);
    assert!(offset_of!(u8x_mbstate_t, bytes) == 1);
};
