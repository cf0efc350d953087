//! The `wchar_t` of the POSIX drop-ins: a code point where it is 32 bits
//! (Linux, the BSDs, macOS), a UTF-16 unit where it is 16 bits (Windows),
//! as each platform's own C library has it (Windows' CRT writes surrogate
//! pairs in a UTF-8 locale). Every conversion is strict: a character is
//! never split, and an unpaired surrogate is an error, never replaced.

#[cfg(windows)]
use crate::ByteOrder;
use crate::{EncodePolicy, Policy, Progress};

/// One `wchar_t`, as the bulk codec reads and writes it.
#[cfg(not(windows))]
pub type Unit = u32;
/// One `wchar_t`, as the bulk codec reads and writes it.
#[cfg(windows)]
pub type Unit = u16;

const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<libc::wchar_t>() == size_of::<Unit>());
    assert!(align_of::<libc::wchar_t>() == align_of::<Unit>());
};

/// How many `wchar_t` one character takes: 1, or 2 for a character above
/// U+FFFF where `wchar_t` is UTF-16.
pub const fn units_of(scalar: u32) -> usize {
    if cfg!(windows) && scalar > 0xFFFF {
        2
    } else {
        1
    }
}

/// Decodes UTF-8 to `wchar_t`s; `written` counts units.
pub fn decode(src: &[u8], dst: &mut [Unit], more_input: bool) -> Progress {
    #[cfg(not(windows))]
    return crate::decode_ucs4(src, dst, Policy::Strict, more_input);
    #[cfg(windows)]
    return crate::decode_utf16(src, dst, Policy::Strict, ByteOrder::Native, more_input);
}

/// What [`decode`] would write with room enough.
pub fn decoded_len(src: &[u8], more_input: bool) -> Progress {
    #[cfg(not(windows))]
    return crate::count(src, Policy::Strict, more_input);
    #[cfg(windows)]
    return crate::decode_utf16_len(src, Policy::Strict, more_input);
}

/// Encodes `wchar_t`s as UTF-8. With `more_input`, a high surrogate
/// ending `src` is left unread (UTF-16 only; a code point is never cut).
pub fn encode(src: &[Unit], dst: &mut [u8], more_input: bool) -> Progress {
    #[cfg(not(windows))]
    {
        let _ = more_input;
        crate::encode(src, dst, EncodePolicy::Strict)
    }
    #[cfg(windows)]
    return crate::encode_utf16(
        src,
        dst,
        EncodePolicy::Strict,
        ByteOrder::Native,
        more_input,
    );
}

/// What [`encode`] of the whole string would write with room enough.
pub fn encoded_len(src: &[Unit]) -> Progress {
    #[cfg(not(windows))]
    return crate::encoded_len(src, EncodePolicy::Strict);
    #[cfg(windows)]
    return crate::encode_utf16_len(src, EncodePolicy::Strict, ByteOrder::Native, false);
}

/// The `wchar_t`s of `scalar` into `dst`, which has room for
/// [`units_of`]`(scalar)`: the scalar itself, or its surrogate pair.
pub fn put(scalar: u32, dst: &mut [Unit]) {
    #[cfg(not(windows))]
    {
        dst[0] = scalar;
    }
    #[cfg(windows)]
    if scalar > 0xFFFF {
        (dst[0], dst[1]) = split(scalar);
    } else {
        dst[0] = scalar as u16;
    }
}

/// The surrogate pair of a scalar above U+FFFF.
#[cfg(windows)]
pub const fn split(scalar: u32) -> (u16, u16) {
    let v = scalar.wrapping_sub(0x1_0000);
    (
        0xD800 | ((v >> 10) & 0x3FF) as u16,
        0xDC00 | (v & 0x3FF) as u16,
    )
}
