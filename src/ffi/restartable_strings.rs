//! The restartable string conversions, `mbsrtowcs` and `wcsrtombs`: the
//! first character from the caller's state (`restartable.rs`), everything
//! after it through the bulk decoder and encoder.

use core::ffi::{c_char, CStr};
use core::ptr::null;
use core::slice;

use super::buffers::{output_up_to, Output};
use super::errno::fail;
#[cfg(windows)]
use super::restartable::pair_state::{held, keeping, LOW_OWED};
use super::restartable::{load, store, u8x_mbstate_t, INITIAL};
use super::wide::{self, Unit};
use crate::reference::restartable::Step;
use crate::Status;
use libc::wchar_t;

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

/// [`scan`] for an L'\0'-terminated wide string.
///
/// # Safety
/// `p` must be aligned and point into an L'\0'-terminated wide string, not
/// written to while the slice is alive.
unsafe fn scan_wide<'a>(p: *const Unit, limit: usize) -> (&'a [Unit], bool) {
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
/// Where `wchar_t` is 16 bits (Windows), `len` and the result count UTF-16
/// units, and a character above U+FFFF is its surrogate pair, left for the
/// next call when one unit of room is left (`*src` points at it), except as
/// the first character with `len` 1, so that a loop with `len` 1 moves on:
/// its high surrogate is stored, `*src` moves past it and `*ps` owes the
/// low one (as `u8x_mbrtowc` does), which the next call stores first. With
/// a NULL `ps` that character is `(size_t)-1` and `EILSEQ`.
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
    // The units stored before the string's own characters: a low surrogate
    // owed (UTF-16 only), or the character that pending bytes begin.
    let mut head = [0 as Unit; 2];
    let mut head_len = 0;
    #[cfg(windows)]
    // SAFETY: the caller promises a state at `ps` if not NULL.
    if let Some(low) = unsafe { held(ps, LOW_OWED) } {
        (head[0], head_len) = (low, 1);
    }
    let state = if head_len != 0 {
        Some(INITIAL)
    } else {
        // SAFETY: the caller promises a state at `ps` if not NULL.
        unsafe { load(ps) }
    };
    let Some(mut state) = state.filter(|_| !start.is_null()) else {
        return fail(libc::EINVAL);
    };
    if !dst.is_null() && len == 0 {
        return 0;
    }
    // The character the state has begun, finished by the string's first
    // bytes (never past its terminator).
    let mut p = start;
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
                head_len = wide::units_of(scalar);
                wide::put(scalar, &mut head);
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
        let c = wide::decoded_len(rest, false);
        return match c.status {
            Status::Done => c.written + head_len,
            _ => fail(libc::EILSEQ),
        };
    }

    let dst = dst.cast::<Unit>();
    // What the state is left with: initial, unless a pair's second half is
    // owed (UTF-16, room for one unit only).
    #[cfg_attr(not(windows), allow(unused_mut))]
    let mut after = u8x_mbstate_t::default();
    let mut written = 0;
    if head_len != 0 {
        // SAFETY: the bytes just read are in the string.
        let used = unsafe { slice::from_raw_parts(start, p.offset_from(start) as usize) };
        // SAFETY: the caller promises room for `len` >= 1 wide characters.
        match unsafe { output_up_to(dst, head_len.min(len), head_len, used) } {
            Some(Output::Buffer(slots)) => {
                written = slots.len();
                slots.copy_from_slice(&head[..written]);
            }
            _ => return fail(libc::EINVAL),
        }
        #[cfg(windows)]
        if written < head_len {
            after = keeping(LOW_OWED, head[1]);
        }
    }
    let want = len - written;
    let (done, next, error) = if want == 0 {
        (false, p, false)
    } else {
        // Room for `want` units: `4 * want` bytes are as many as they can
        // take, so the terminator or a full buffer comes within them.
        // SAFETY: `p` is in the caller's string.
        let (window, terminated) = unsafe { scan(p, want.saturating_mul(4)) };
        // SAFETY: `written < len`: the rest of the caller's buffer, with
        // room for `want` wide characters.
        let out = match unsafe { output_up_to(dst.add(written), want, window.len() + 1, window) } {
            Some(Output::Buffer(out)) => out,
            _ => return fail(libc::EINVAL),
        };
        let cap = out.len().min(window.len());
        #[cfg_attr(not(windows), allow(unused_mut))]
        let mut d = wide::decode(window, &mut out[..cap], !terminated);
        // Nothing stored and one unit of room, but a character needing a
        // pair: its high surrogate, the low one owed, so that a caller's
        // loop with `len` 1 moves on. With no state to keep it: refused.
        #[cfg(windows)]
        if written == 0 && d.written == 0 && d.status == Status::OutputFull {
            if ps.is_null() {
                return fail(libc::EILSEQ);
            }
            let mut pair = [0u16; 2];
            d = wide::decode(&window[..4], &mut pair, false);
            debug_assert!(d.status == Status::Done && d.written == 2);
            out[0] = pair[0];
            after = keeping(LOW_OWED, pair[1]);
            d.written = 1;
        }
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
                // (one unit short where a pair did not fit)
                debug_assert!(
                    written + wide::units_of(0x1_0000) > len,
                    "4 * want bytes fill want units"
                );
                (false, next, false)
            }
        }
    };
    // SAFETY: `src` is non-NULL and aligned; the caller promises a pointer
    // there, and a state at `ps` if not NULL.
    unsafe {
        src.write(if done { null() } else { next.cast::<c_char>() });
        store(ps, after);
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
/// Where `wchar_t` is 16 bits (Windows), the string is UTF-16: a surrogate
/// pair is one character (4 bytes), never split, and an unpaired surrogate
/// is `EILSEQ`. A state holding `u8x_wcrtomb`'s high surrogate is refused
/// (`EINVAL`), as one holding bytes is.
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
    let start = unsafe { src.read() }.cast::<Unit>();
    // SAFETY: the caller promises a state at `ps` if not NULL.
    let state = unsafe { load(ps) };
    if start.is_null() || !start.is_aligned() || state.is_none_or(|s| s.count != 0) {
        return fail(libc::EINVAL);
    }
    if dst.is_null() {
        // SAFETY: `start` is aligned and the caller promises a terminated
        // wide string there.
        let (units, _) = unsafe { scan_wide(start, usize::MAX) };
        let e = wide::encoded_len(units);
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
    // A high surrogate ending an unterminated window is left for the next
    // call: its pair takes 4 of the `len` bytes, more than the room left.
    let e = wide::encode(units, &mut out[..cap], !terminated);
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

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr::null_mut;

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
