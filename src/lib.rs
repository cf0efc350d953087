//! u8x: a UTF-8 codec that never misreads a byte.
//!
//! The crate is a safe Rust core (this module's functions) and a thin C layer
//! over it ([`ffi`], the only place with `extern "C"` and raw pointers). The C
//! header `include/u8x.h` is generated from that layer by `build.rs`.
//!
//! Conformance is RFC 3629 / Unicode chapter 3, Table 3-7: exactly the
//! well-formed sequences are accepted. Errors are reported by maximal subpart,
//! and every function is total: any bytes, any length, any output size.
//!
//! The library is `no_std` and needs nothing from `libc` but `memcpy`-like
//! primitives and `getenv` (for `U8X_TIER`), so the C libraries carry none of
//! Rust's runtime; the `capi` feature adds the panic handler they need.
#![cfg_attr(not(test), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod arch;
mod contract;
mod dialect;
mod engine;
pub mod ffi;
#[cfg(feature = "capi")]
mod panic;
mod portable;
mod reference;
#[cfg(test)]
mod samples;
mod types;

pub use arch::Tier;
pub use engine::{Engine, TierRequest};
pub use types::{
    ByteOrder, Classification, Detection, Dialect, EncodePolicy, Encoding, ErrorKind, Latin1Policy,
    Policy, Progress, Status, Utf8Error, Width, REPLACE,
};

/// Checks that `src` is UTF-8. Same verdict, offset and `error_len` as
/// `std::str::from_utf8`, plus the kind; for a sequence cut by the end of the
/// input, `len` is the number of bytes left.
pub fn validate(src: &[u8]) -> Result<(), Utf8Error> {
    match validate_chunk(src, false).status {
        Status::IllFormed(e) => Err(e),
        _ => Ok(()),
    }
}

/// Validates one chunk of a longer input. With `more_input`, a sequence cut by
/// the end of `src` gives [`Status::Incomplete`] instead of an error; `read`
/// is the length of the well-formed prefix.
pub fn validate_chunk(src: &[u8], more_input: bool) -> Progress {
    Engine::best().validate_chunk(src, more_input)
}

/// `src` after its byte order mark, or `None` if it does not start with one
/// (U+FEFF, the bytes EF BB BF). The decoders take a leading U+FEFF as a
/// character like any other (WHATWG "UTF-8 decode without BOM"); calling
/// this first on the start of the input gives WHATWG "UTF-8 decode".
/// Streaming, call it on the first chunk only; a first chunk that is a
/// prefix of the mark (EF, or EF BB) with more input to come decodes to
/// [`Status::Incomplete`] with nothing read, so the same bytes come back
/// with the next ones, and this can be asked again.
pub fn strip_bom(src: &[u8]) -> Option<&[u8]> {
    src.strip_prefix(b"\xEF\xBB\xBF")
}

/// Decodes UTF-8 into code points under `policy`, never writing past `dst`.
pub fn decode_ucs4(src: &[u8], dst: &mut [u32], policy: Policy, more_input: bool) -> Progress {
    Engine::best().decode_ucs4(src, dst, policy, more_input)
}

/// What [`decode_ucs4`] would do with an unlimited buffer, writing nothing:
/// `written` is the number of code points it would produce.
pub fn count(src: &[u8], policy: Policy, more_input: bool) -> Progress {
    Engine::best().count(src, policy, more_input)
}

/// The number of code points in `src` when the caller already knows it is
/// well-formed (validated earlier): the bytes that are not continuation
/// bytes (80..BF), counted at memory speed. Defined for any input, but on
/// ill-formed input it is that byte count, not what a policy would decode;
/// use [`count`] for that.
pub fn count_valid(src: &[u8]) -> usize {
    Engine::best().count_valid(src)
}

/// Encodes code points as UTF-8 under `policy`, never writing past `dst`.
pub fn encode(src: &[u32], dst: &mut [u8], policy: EncodePolicy) -> Progress {
    Engine::best().encode(src, dst, policy)
}

/// What [`encode`] would do with an unlimited buffer: `written` is the number
/// of bytes it would produce.
pub fn encoded_len(src: &[u32], policy: EncodePolicy) -> Progress {
    Engine::best().encoded_len(src, policy)
}

/// Decodes UTF-8 into UTF-16 units in `order` under `policy`, never writing
/// past `dst` and never splitting a surrogate pair. `written` counts units.
/// [`Policy::Escape`] writes each bad byte `b` as the lone unit 0xDC00+b.
pub fn decode_utf16(
    src: &[u8],
    dst: &mut [u16],
    policy: Policy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().decode_utf16(src, dst, policy, order, more_input)
}

/// What [`decode_utf16`] would do with an unlimited buffer: `written` is the
/// number of UTF-16 units.
pub fn decode_utf16_len(src: &[u8], policy: Policy, more_input: bool) -> Progress {
    Engine::best().decode_utf16_len(src, policy, more_input)
}

/// Encodes UTF-16 units in `order` as UTF-8 under `policy`: surrogate pairs
/// become one 4-byte character; an unpaired surrogate is an error
/// ([`ErrorKind::Surrogate`], `read` its unit index), the replacement, or
/// under [`EncodePolicy::Escape`] (0xDC80..0xDCFF only) the byte it escapes.
/// With `more_input`, a high surrogate ending `src` is left unread
/// ([`Status::Incomplete`]).
pub fn encode_utf16(
    src: &[u16],
    dst: &mut [u8],
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().encode_utf16(src, dst, policy, order, more_input)
}

/// What [`encode_utf16`] would do with an unlimited buffer: `written` is the
/// number of bytes.
pub fn encode_utf16_len(
    src: &[u16],
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().encode_utf16_len(src, policy, order, more_input)
}

/// Checks that `src` is well-formed UTF-16 (every surrogate paired): `read`
/// is the length of the well-formed prefix, the error the first unpaired
/// surrogate.
pub fn validate_utf16(src: &[u16], order: ByteOrder, more_input: bool) -> Progress {
    Engine::best().validate_utf16(src, order, more_input)
}

/// Decodes UTF-8 into Latin-1 bytes: one byte per character up to U+00FF;
/// a character above it is [`ErrorKind::NotRepresentable`] or the
/// replacement byte, as `policy` says.
pub fn decode_latin1(
    src: &[u8],
    dst: &mut [u8],
    policy: Latin1Policy,
    more_input: bool,
) -> Progress {
    Engine::best().decode_latin1(src, dst, policy, more_input)
}

/// What [`decode_latin1`] would do with an unlimited buffer.
pub fn decode_latin1_len(src: &[u8], policy: Latin1Policy, more_input: bool) -> Progress {
    Engine::best().decode_latin1_len(src, policy, more_input)
}

/// Encodes Latin-1 bytes as UTF-8 (always valid; bytes 80..FF take two).
pub fn encode_latin1(src: &[u8], dst: &mut [u8]) -> Progress {
    Engine::best().encode_latin1(src, dst)
}

/// The UTF-8 length of Latin-1 `src`.
pub fn encode_latin1_len(src: &[u8]) -> usize {
    Engine::best().encode_latin1_len(src)
}

/// Validates `src` and, for its well-formed prefix, finds the widest
/// character and counts characters and UTF-16 units: what a runtime needs
/// to allocate the right string in one pass over the input.
pub fn classify(src: &[u8], more_input: bool) -> Classification {
    Engine::best().classify(src, more_input)
}

/// UTF-16 units for `src` when the caller knows it is well-formed UTF-8.
/// Defined for any input (characters plus 4-byte leads), but only
/// meaningful for well-formed input.
pub fn utf16_len_valid(src: &[u8]) -> usize {
    Engine::best().utf16_len_valid(src)
}

/// UTF-8 bytes for `src` when the caller knows it is well-formed UTF-16.
pub fn utf8_len_valid_utf16(src: &[u16], order: ByteOrder) -> usize {
    Engine::best().utf8_len_valid_utf16(src, order)
}

/// Latin-1 bytes to UTF-16 units in `order`: every byte is the character
/// of the same value, so every input converts; with `dst` `None`, only
/// measures (`written` is then `src.len()`). Stops with
/// [`Status::OutputFull`] when `dst` is full.
pub fn convert_latin1_to_utf16(src: &[u8], dst: Option<&mut [u16]>, order: ByteOrder) -> Progress {
    Engine::best().convert_latin1_to_utf16(src, dst, order)
}

/// Latin-1 bytes to UCS-4 units in `order`, as [`convert_latin1_to_utf16`].
pub fn convert_latin1_to_ucs4(src: &[u8], dst: Option<&mut [u32]>, order: ByteOrder) -> Progress {
    Engine::best().convert_latin1_to_ucs4(src, dst, order)
}

/// UTF-16 units in `order` to Latin-1 bytes. A character above U+00FF (a
/// unit, or a surrogate pair: `len` 2) is [`ErrorKind::NotRepresentable`],
/// an unpaired surrogate [`ErrorKind::Surrogate`]; `policy` stops at,
/// replaces or drops either. With `more_input`, a high surrogate ending
/// `src` is left unread ([`Status::Incomplete`]). With `dst` `None`, only
/// measures.
pub fn convert_utf16_to_latin1(
    src: &[u16],
    dst: Option<&mut [u8]>,
    policy: Latin1Policy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().convert_utf16_to_latin1(src, dst, policy, order, more_input)
}

/// UCS-4 units in `order` to Latin-1 bytes: as
/// [`convert_utf16_to_latin1`], and a surrogate is
/// [`ErrorKind::Surrogate`], a value above 0x10FFFF
/// [`ErrorKind::AboveMax`].
pub fn convert_ucs4_to_latin1(
    src: &[u32],
    dst: Option<&mut [u8]>,
    policy: Latin1Policy,
    order: ByteOrder,
) -> Progress {
    Engine::best().convert_ucs4_to_latin1(src, dst, policy, order)
}

/// UTF-16 units in `orders.0` to UCS-4 units in `orders.1`: a pair becomes
/// one scalar; an unpaired surrogate ([`ErrorKind::Surrogate`]) is
/// stopped at, replaced, kept as its value ([`EncodePolicy::Escape`]: any
/// UTF-16 comes back unchanged from [`convert_ucs4_to_utf16`]) or dropped.
/// With `more_input`, a high surrogate ending `src` is left unread. With
/// `dst` `None`, only measures.
pub fn convert_utf16_to_ucs4(
    src: &[u16],
    dst: Option<&mut [u32]>,
    policy: EncodePolicy,
    orders: (ByteOrder, ByteOrder),
    more_input: bool,
) -> Progress {
    Engine::best().convert_utf16_to_ucs4(src, dst, policy, orders, more_input)
}

/// UCS-4 units in `orders.0` to UTF-16 units in `orders.1`, a surrogate
/// pair for each value above U+FFFF, never split by a full `dst`. A
/// surrogate ([`ErrorKind::Surrogate`]) or value above 0x10FFFF
/// ([`ErrorKind::AboveMax`]) is stopped at, replaced or dropped;
/// [`EncodePolicy::Escape`] keeps a surrogate as its unit unless a low
/// surrogate follows a high one (the two would read back as one
/// character: that stops as strict does), and with `more_input` leaves a
/// high surrogate ending `src` unread. With `dst` `None`, only measures.
pub fn convert_ucs4_to_utf16(
    src: &[u32],
    dst: Option<&mut [u16]>,
    policy: EncodePolicy,
    orders: (ByteOrder, ByteOrder),
    more_input: bool,
) -> Progress {
    Engine::best().convert_ucs4_to_utf16(src, dst, policy, orders, more_input)
}

/// Checks that every unit of `src` (in `order`) is a Unicode scalar value:
/// `read` is the valid prefix, the error the first surrogate
/// ([`ErrorKind::Surrogate`]) or value above 0x10FFFF
/// ([`ErrorKind::AboveMax`]).
pub fn validate_ucs4(src: &[u32], order: ByteOrder) -> Progress {
    Engine::best().validate_ucs4(src, order)
}

/// Checks that every byte of `src` is ASCII (below 0x80): `read` is the
/// ASCII prefix, the error ([`ErrorKind::NotRepresentable`]) the first
/// byte that is not.
pub fn validate_ascii(src: &[u8]) -> Progress {
    Engine::best().validate_ascii(src)
}

/// Checks that every UTF-16 unit of `src` (in `order`) is ASCII, as
/// [`validate_ascii`] does for bytes.
pub fn validate_ascii_utf16(src: &[u16], order: ByteOrder) -> Progress {
    Engine::best().validate_ascii_utf16(src, order)
}

/// Validates UTF-16 (as [`validate_utf16`]) and, for its well-formed
/// prefix, finds the widest character and counts characters: whether a
/// two-byte string can be a one-byte (Latin-1) or ASCII one, in one pass.
/// `utf16_units` is the prefix's length.
pub fn classify_utf16(src: &[u16], order: ByteOrder, more_input: bool) -> Classification {
    Engine::best().classify_utf16(src, order, more_input)
}

/// Replaces each unpaired surrogate of `units` (in `order`) by
/// `replacement` (a BMP code point, as `units` native values), in place:
/// JavaScript's `String.prototype.toWellFormed`. `handled` counts them.
/// With `more_input`, a high surrogate ending `units` is left as it is
/// ([`Status::Incomplete`], `read` before it).
pub fn to_well_formed_utf16(
    units: &mut [u16],
    replacement: u16,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().to_well_formed_utf16(units, replacement, order, more_input)
}

/// [`to_well_formed_utf16`] from `src` into `dst`, never splitting a pair
/// ([`Status::OutputFull`] when `dst` is shorter).
pub fn to_well_formed_utf16_into(
    src: &[u16],
    dst: &mut [u16],
    replacement: u16,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().to_well_formed_utf16_into(src, dst, replacement, order, more_input)
}

/// What [`to_well_formed_utf16`] would do, changing nothing: `handled` is
/// how many units it would replace.
pub fn to_well_formed_utf16_len(src: &[u16], order: ByteOrder, more_input: bool) -> Progress {
    Engine::best().to_well_formed_utf16_len(src, order, more_input)
}

/// UTF-16 units with their bytes swapped (little-endian to big-endian or
/// back), from `src` into `dst`, as many as fit.
pub fn swap_utf16(src: &[u16], dst: &mut [u16]) -> Progress {
    Engine::best().swap_utf16(src, dst)
}

/// [`swap_utf16`] in place.
pub fn swap_utf16_in_place(units: &mut [u16]) {
    Engine::best().swap_utf16_in_place(units)
}

/// Code points (UCS-4 units) in `src`, well-formed UTF-16 in `order`: its
/// units less its low surrogates, with no checks (meaningless but defined
/// for other input).
pub fn ucs4_len_utf16_valid(src: &[u16], order: ByteOrder) -> usize {
    Engine::best().ucs4_len_utf16_valid(src, order)
}

/// UTF-16 units for `src`, Unicode scalar values in `order`: one each and
/// a second for each above U+FFFF, with no checks.
pub fn utf16_len_ucs4_valid(src: &[u32], order: ByteOrder) -> usize {
    Engine::best().utf16_len_ucs4_valid(src, order)
}

/// Which of UTF-8, UTF-16LE/BE and UTF-32LE/BE `src` is valid as, and the
/// most likely of them, in one pass; a byte order mark decides alone.
pub fn detect_encoding(src: &[u8]) -> Detection {
    Engine::best().detect_encoding(src)
}

/// The first position at or after `pos` where `src` can be cut so that both
/// halves decode to exactly the output of the whole, under every policy
/// (under [`Policy::Strict`]: the same code points and error offset, though
/// the kind may become [`ErrorKind::EndOfInput`]). `None` if `pos > src.len()`.
pub fn next_boundary(src: &[u8], pos: usize) -> Option<usize> {
    (pos <= src.len()).then(|| reference::boundary::next_boundary(src, pos))
}

/// The last such position at or before `pos`; `None` if `pos > src.len()`.
pub fn prev_boundary(src: &[u8], pos: usize) -> Option<usize> {
    (pos <= src.len()).then(|| reference::boundary::prev_boundary(src, pos))
}

/// [`validate_chunk`] for UTF-8 in `dialect`.
pub fn validate_in(dialect: Dialect, src: &[u8], more_input: bool) -> Progress {
    Engine::best().validate_in(dialect, src, more_input)
}

/// [`decode_ucs4`] for UTF-8 in `dialect`: legacy UTF-8 gives values up to
/// 0x7FFFFFFF, WTF-8 and generalized UTF-8 lone surrogates as they stand.
pub fn decode_ucs4_in(
    dialect: Dialect,
    src: &[u8],
    dst: &mut [u32],
    policy: Policy,
    more_input: bool,
) -> Progress {
    Engine::best().decode_ucs4_in(dialect, src, dst, policy, more_input)
}

/// [`count`] for UTF-8 in `dialect`.
pub fn count_in(dialect: Dialect, src: &[u8], policy: Policy, more_input: bool) -> Progress {
    Engine::best().count_in(dialect, src, policy, more_input)
}

/// [`decode_utf16`] for UTF-8 in `dialect`: a lone surrogate (WTF-8,
/// generalized UTF-8) becomes that unit; a legacy value above U+10FFFF is
/// [`ErrorKind::NotRepresentable`] (its whole sequence, under the policy).
pub fn decode_utf16_in(
    dialect: Dialect,
    src: &[u8],
    dst: &mut [u16],
    policy: Policy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().decode_utf16_in(dialect, src, dst, policy, order, more_input)
}

/// [`decode_utf16_len`] for UTF-8 in `dialect`.
pub fn decode_utf16_len_in(
    dialect: Dialect,
    src: &[u8],
    policy: Policy,
    more_input: bool,
) -> Progress {
    Engine::best().decode_utf16_len_in(dialect, src, policy, more_input)
}

/// [`encode`] into `dialect`; with `dst` `None`, only measures (as
/// [`encoded_len`]). Legacy UTF-8 takes values up to 0x7FFFFFFF; WTF-8 and
/// generalized UTF-8 take lone surrogates, but in WTF-8 a high surrogate
/// followed by a low one is an error (at the high one): its UTF-8 is the
/// pair's 4-byte form, which decodes to one character, not two.
pub fn encode_in(
    dialect: Dialect,
    src: &[u32],
    dst: Option<&mut [u8]>,
    policy: EncodePolicy,
) -> Progress {
    Engine::best().encode_in(dialect, src, dst, policy)
}

/// [`encode_utf16`] into `dialect`; with `dst` `None`, only measures. A
/// surrogate pair is one character (two 3-byte halves in CESU-8 and
/// Modified UTF-8); an unpaired surrogate is written as it stands in WTF-8
/// and generalized UTF-8, and is an error elsewhere.
pub fn encode_utf16_in(
    dialect: Dialect,
    src: &[u16],
    dst: Option<&mut [u8]>,
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    Engine::best().encode_utf16_in(dialect, src, dst, policy, order, more_input)
}

/// [`next_boundary`] for UTF-8 in `dialect`.
pub fn next_boundary_in(dialect: Dialect, src: &[u8], pos: usize) -> Option<usize> {
    (pos <= src.len()).then(|| dialect::boundary::next_boundary(dialect, src, pos))
}

/// [`prev_boundary`] for UTF-8 in `dialect`.
pub fn prev_boundary_in(dialect: Dialect, src: &[u8], pos: usize) -> Option<usize> {
    (pos <= src.len()).then(|| dialect::boundary::prev_boundary(dialect, src, pos))
}

/// The most code points `len` bytes can decode to under any policy: one per byte.
pub const fn decode_ucs4_bound(len: usize) -> usize {
    len
}

/// The most bytes `len` code points can encode to under any policy (four per
/// unit), or `None` if that does not fit in `usize`.
pub const fn encode_bound(len: usize) -> Option<usize> {
    len.checked_mul(4)
}
