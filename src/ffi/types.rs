//! The C-visible types and constants. Enums here are only ever *written* by
//! u8x; values coming from C (policies, flags, codes to name) are taken as
//! plain integers and checked, since an out-of-range enum is undefined
//! behaviour in Rust.
//!
//! The enums are `#[repr(u32)]`, so the struct fields that hold them are
//! four bytes whatever the C compiler's enum size (`-fshort-enums`): cbindgen
//! then declares each as `typedef uint32_t u8x_status;` for C (the enum keeps
//! its constants; C23 and C++ get `enum u8x_status : uint32_t`). The layout
//! asserted at the end of this file is asserted again in the header's trailer
//! (cbindgen.toml), so a C compiler that disagrees fails to compile.
#![allow(non_camel_case_types)]

use crate::types::{ErrorKind, Progress, Status};

/// How a call ended.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum u8x_status {
    /// All input was processed.
    U8X_OK = 0,
    /// An ill-formed sequence (decoding) or invalid code point (encoding) was
    /// found under the strict policy, or a character the output form cannot
    /// hold. `read` is its offset (bytes) or index (units); `error` and
    /// `error_len` describe it; everything before it was written.
    U8X_ILL_FORMED = 1,
    /// With `U8X_MORE_INPUT`: the input ends inside a sequence that the next
    /// chunk may complete. The last `error_len` bytes (1..3 in RFC 3629, up
    /// to 5 in the dialects: see `u8x_dialect`), or UTF-16 unit (a high
    /// surrogate), were not consumed: pass them again, followed by more
    /// input.
    U8X_INCOMPLETE = 2,
    /// The output buffer is full. `read` and `written` say how far the call
    /// got; call again from `src + read` with more room to continue. Output is
    /// only ever cut between complete units.
    U8X_OUTPUT_FULL = 3,
    /// A NULL pointer with a non-zero length; a misaligned `uint16_t`,
    /// `uint32_t`, `wchar_t` or `u8x_classification` pointer (refused
    /// whatever its length, even 0); a length or output capacity whose
    /// size in bytes exceeds `PTRDIFF_MAX`, or that would run from its
    /// pointer past the end of the address space (a capacity is checked
    /// whole, however little of it the call needs); an output that overlaps
    /// the input (within the part of the output the call could write: at
    /// most the worst-case size for the input); an unknown policy or flag;
    /// an invalid replacement scalar; or a position beyond the length.
    /// Nothing was read or written. Those are the only checks on lengths: a
    /// length larger than the memory really there cannot be detected and is
    /// undefined behaviour.
    U8X_BAD_ARGUMENT = 4,
    /// Reserved; never returned. A bug in u8x that an internal check catches
    /// stops the program with a trap instruction (the C library has no
    /// unwinding to turn it into a result); please report it.
    U8X_INTERNAL_ERROR = 5,
}

/// Why a sequence is ill-formed (RFC 3629, Unicode Table 3-7). The kind is
/// decided by the first two bytes of the maximal subpart (in CESU-8,
/// Modified UTF-8 and WTF-8, by the surrogate forms around it), so it does
/// not depend on how the input was split into chunks. What each kind covers
/// in a dialect other than RFC 3629 is said with it.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum u8x_error {
    /// No error.
    U8X_ERR_NONE = 0,
    /// A continuation byte (80..BF) where a character should start.
    U8X_ERR_UNEXPECTED_CONTINUATION = 1,
    /// A byte that never occurs in UTF-8: C0, C1, F5..FF. Legacy UTF-8:
    /// C0, C1, FE, FF. CESU-8: also the 4-byte leads F0..F4. Modified
    /// UTF-8: those, and 00 (U+0000 is C0 80 there; C0 itself is a lead).
    U8X_ERR_INVALID_BYTE = 2,
    /// A multi-byte sequence cut short by a byte that is not a continuation byte.
    U8X_ERR_TRUNCATED_SEQUENCE = 3,
    /// An overlong form: E0 followed by 80..9F, or F0 followed by 80..8F.
    /// Legacy UTF-8: also F8 followed by 80..87, FC by 80..83. Modified
    /// UTF-8: also C0 followed by a continuation byte other than 80.
    U8X_ERR_OVERLONG = 4,
    /// An encoded surrogate U+D800..U+DFFF (ED A0..BF), or, when encoding, a
    /// surrogate code point. CESU-8 and Modified UTF-8: a high surrogate's 3
    /// bytes not followed by a low one's, or a low surrogate's ED (alone);
    /// WTF-8: a high surrogate's 3 bytes followed by a low one's (the pair
    /// must be one 4-byte form); generalized UTF-8 has none when decoding.
    U8X_ERR_SURROGATE = 5,
    /// A value above U+10FFFF (F4 90..BF), or, when encoding, a unit above
    /// 0x10FFFF (legacy UTF-8: above 0x7FFFFFFF; it decodes F4 90..BF and
    /// F5..FD as the values they encode).
    U8X_ERR_ABOVE_MAX = 6,
    /// The input ends inside a sequence that could still have become valid.
    /// (Reading UTF-16: a high surrogate ends the input.)
    U8X_ERR_END_OF_INPUT = 7,
    /// A well-formed character the output form cannot hold: above U+00FF
    /// when decoding to Latin-1, above U+10FFFF when decoding legacy UTF-8
    /// to UTF-16 (`error_len` is its length in bytes).
    U8X_ERR_NOT_REPRESENTABLE = 8,
}

/// Error policies, passed as the `policy` argument.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum u8x_policy {
    /// Stop at the first error and report it (`U8X_ILL_FORMED`).
    U8X_STRICT = 0,
    /// Decoding: one `replacement` scalar (normally U+FFFD) per maximal
    /// subpart, as WHATWG, Rust `from_utf8_lossy` and Python
    /// `errors="replace"` do. Encoding: the UTF-8 of `replacement` for each
    /// surrogate or value above 0x10FFFF.
    U8X_REPLACE = 1,
    /// Decoding: each byte `b` of an ill-formed sequence becomes U+DC00+b
    /// (U+DC80..U+DCFF; UTF-8B, Python `surrogateescape`). Encoding:
    /// U+DC80..U+DCFF become the byte they escape; other invalid units are
    /// errors. Any byte string survives decode then encode unchanged (to
    /// UCS-4 or UTF-16 and back, under the same dialect). Dialects: Modified
    /// UTF-8 also escapes the byte 00, as U+DC00, and turns U+DC00 back
    /// into 00. In WTF-8 and generalized UTF-8, U+DC80..U+DCFF are
    /// characters (lone surrogates) that the encoder writes as their 3-byte
    /// forms, so there an escaped byte does not come back: decode with
    /// escape to keep the bytes visible, not for a round trip.
    U8X_ESCAPE = 2,
    /// Decoding only: each byte of an ill-formed sequence is read as ISO-8859-1.
    U8X_LATIN1 = 3,
    /// Decoding only: each byte of an ill-formed sequence is read as
    /// windows-1252 (WHATWG mapping; 81, 8D, 8F, 90, 9D become C1 controls).
    U8X_CP1252 = 4,
    /// Drop what cannot be converted, writing nothing in its place (Python
    /// `errors="ignore"`, iconv `//IGNORE`). Decoding: each maximal subpart
    /// of an ill-formed sequence (and, to Latin-1, each character above
    /// U+00FF). Encoding: each surrogate, value above 0x10FFFF or unpaired
    /// UTF-16 surrogate. `handled` in the result says how many were dropped.
    U8X_IGNORE = 5,
}

/// UTF-8 dialects. OR one into the `policy` argument of a conversion
/// (`U8X_REPLACE | U8X_DIALECT_CESU8`), or into the `flags` of
/// `u8x_validate` (which has no policy); the boundary and bound functions
/// ending in `_in` take one as their `dialect` argument. Without one, text
/// is RFC 3629 UTF-8.
///
/// | dialect | reads and writes | UCS-4 | UTF-16 |
/// |---|---|---|---|
/// | `U8X_DIALECT_STANDARD` | RFC 3629 / Unicode Table 3-7 | both ways | both ways |
/// | `U8X_DIALECT_LEGACY` | RFC 2044 / utf-8(7): values to 0x7FFFFFFF in up to 6 bytes, shortest form only, no FE/FF, no surrogates | both ways | both ways; a value above U+10FFFF is `U8X_ERR_NOT_REPRESENTABLE` |
/// | `U8X_DIALECT_CESU8` | CESU-8 (TR #26): a supplementary character as two 3-byte surrogates; 4-byte forms ill-formed | both ways | both ways |
/// | `U8X_DIALECT_MUTF8` | Java/JNI Modified UTF-8: CESU-8, and U+0000 as C0 80, never 00 | both ways | both ways |
/// | `U8X_DIALECT_WTF8` | WTF-8: lone surrogates as 3-byte forms; a high then low surrogate is ill-formed (the pair is one 4-byte form) | both ways | both ways, lossless for any UTF-16 |
/// | `U8X_DIALECT_GENERALIZED` | Python `surrogatepass`: any surrogate as a 3-byte form | both ways | both ways |
///
/// Errors are reported as for RFC 3629 (offset, kind, maximal subpart), and
/// every policy applies to what is ill-formed in the dialect. A
/// surrogate's 3 bytes are one unit: a high surrogate that CESU-8 cannot
/// pair is an ill-formed subsequence of its 3 bytes (`U8X_ERR_SURROGATE`),
/// a lone low one is its ED byte alone, as in RFC 3629; in WTF-8 a high
/// surrogate followed by a low one is the ill-formed subsequence (3
/// bytes). With `U8X_MORE_INPUT`, up to 5 bytes can be left unconsumed
/// (`U8X_INCOMPLETE`): a legacy 6-byte form, or a CESU-8 high surrogate and
/// the start of what may be its low one. `u8x_decode_latin1`,
/// `u8x_classify` and the `*_valid` functions are RFC 3629 only.
///
/// Modified UTF-8 is CESU-8's: an unpaired surrogate is ill-formed, as in
/// TR #26 and the `cesu8` and `simd_cesu8` crates. A JVM writes one (a
/// Java string may hold it) as its 3-byte form; such bytes fail under
/// `U8X_STRICT`, become U+FFFD under `U8X_REPLACE`, and come back
/// unchanged under `U8X_ESCAPE`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum u8x_dialect {
    /// RFC 3629 UTF-8 (the default).
    U8X_DIALECT_STANDARD = 0,
    /// The original 31-bit UTF-8 of RFC 2044 and utf-8(7).
    U8X_DIALECT_LEGACY = 0x100,
    /// CESU-8.
    U8X_DIALECT_CESU8 = 0x200,
    /// Modified UTF-8 (Java `DataInput`, JNI).
    U8X_DIALECT_MUTF8 = 0x300,
    /// WTF-8.
    U8X_DIALECT_WTF8 = 0x400,
    /// Generalized UTF-8 (Python `surrogatepass`).
    U8X_DIALECT_GENERALIZED = 0x500,
}

/// The bits of `policy` (or `flags`) that hold a `u8x_dialect`.
pub const U8X_DIALECT_MASK: u32 = 0xFF00;

/// Flag: more input follows this buffer. A sequence cut by the end of the
/// buffer is then reported as `U8X_INCOMPLETE` and left unconsumed, instead
/// of being ill-formed (iconv's `EINVAL`).
pub const U8X_MORE_INPUT: u32 = 1;

/// Flag for the UTF-16 functions: the units are little-endian (UTF-16LE).
pub const U8X_LITTLE_ENDIAN: u32 = 2;
/// Flag for the UTF-16 functions: the units are big-endian (UTF-16BE).
/// With neither flag, units are in the machine's native order.
pub const U8X_BIG_ENDIAN: u32 = 4;
/// Flag for the functions with a UCS-4 side (`u8x_convert_*_ucs4`,
/// `u8x_convert_ucs4_*`, `u8x_validate_ucs4`): its units are
/// little-endian (UTF-32LE). `U8X_LITTLE_ENDIAN` and `U8X_BIG_ENDIAN`
/// give the order of the UTF-16 side, so both sides of a UTF-16 <-> UCS-4
/// conversion can have their own.
pub const U8X_UCS4_LITTLE_ENDIAN: u32 = 16;
/// Flag for the functions with a UCS-4 side: its units are big-endian
/// (UTF-32BE). With neither UCS-4 flag, they are in the machine's order.
pub const U8X_UCS4_BIG_ENDIAN: u32 = 32;
/// Flag for the functions that read UTF-8 (`u8x_validate`, `u8x_classify`,
/// `u8x_decode_ucs4`, `u8x_count`, `u8x_decode_utf16`,
/// `u8x_decode_latin1`): one byte order mark (U+FEFF, the bytes EF BB BF) at
/// the very start of `src` is consumed and not decoded (WHATWG "UTF-8
/// decode" rather than "UTF-8 decode without BOM"). `bom_skipped` is then
/// 3: `read` counts the three bytes, `written` nothing for them, and
/// offsets stay offsets in `src`. A later U+FEFF is a character like any other.
/// When streaming, pass it with the first chunk only. A first chunk that
/// is just EF or EF BB, with `U8X_MORE_INPUT`, is `U8X_INCOMPLETE` with
/// nothing consumed, like any cut sequence: pass those bytes again with the
/// next ones, and this flag again, since nothing was read yet.
pub const U8X_SKIP_BOM: u32 = 8;

/// U+FFFD REPLACEMENT CHARACTER, the usual `replacement` for `U8X_REPLACE`.
pub const U8X_REPLACEMENT_CHARACTER: u32 = 0xFFFD;

/// `SIZE_MAX`: returned by the functions that return a `size_t` position or
/// count when their arguments are bad. (Defined in the header by build.rs,
/// since cbindgen cannot spell `SIZE_MAX`.)
pub const U8X_BAD_SIZE: usize = usize::MAX;

/// The outcome of a call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct u8x_result {
    /// How the call ended.
    pub status: u8x_status,
    /// With `U8X_ILL_FORMED`: why. With `U8X_INCOMPLETE`:
    /// `U8X_ERR_END_OF_INPUT`. Otherwise `U8X_ERR_NONE`.
    pub error: u8x_error,
    /// Input consumed, in the input's units: bytes (UTF-8 and Latin-1),
    /// code points (UCS-4) or UTF-16 units. On an error, the offset or index
    /// of the offending input.
    pub read: usize,
    /// Output written, in the output's units: code points (UCS-4), UTF-16
    /// units, or bytes (UTF-8 and Latin-1); when the output is NULL with
    /// capacity 0, the output that would be written.
    /// Always 0 for `u8x_validate`, `u8x_validate_utf16` and `u8x_classify`.
    pub written: usize,
    /// With `U8X_ILL_FORMED` while decoding: the length of the maximal
    /// subpart, 1..3 bytes in RFC 3629 and up to 5 in legacy UTF-8 (the
    /// bytes one U+FFFD replaces; same as Rust's
    /// `Utf8Error::error_len`, except that for `U8X_ERR_END_OF_INPUT` it is the
    /// number of bytes left rather than none), or for
    /// `U8X_ERR_NOT_REPRESENTABLE` the character's length. With
    /// `U8X_INCOMPLETE`: the number of unconsumed bytes (UTF-16 input: 1
    /// unit). While encoding or validating UTF-16: 1. Otherwise 0.
    pub error_len: usize,
    /// How many ill-formed subsequences the policy handled (replaced,
    /// escaped, mapped or dropped) in the input read, so that no loss is
    /// silent. Decoding: one per maximal subpart, whatever the policy
    /// writes for it (`U8X_ESCAPE`, `U8X_LATIN1` and `U8X_CP1252` write one
    /// unit per byte, but count the subpart once); to Latin-1, also one per
    /// character above U+00FF replaced or dropped. Encoding: one per
    /// invalid unit replaced, escaped or dropped. Also when measuring (NULL
    /// output); 0 under `U8X_STRICT` and for the functions without a
    /// policy. On `U8X_OUTPUT_FULL` it counts what the written output
    /// holds: a byte-wise policy may stop inside a maximal subpart, which
    /// then counts, and its remaining bytes count again in the next call
    /// (each is a maximal subpart of that call's input).
    pub handled: usize,
    /// The bytes of a byte order mark consumed under `U8X_SKIP_BOM` (and
    /// counted in `read`): 3, or 0 if there was none or no flag. A `size_t`,
    /// so that the struct has no padding: results compare with `memcmp`.
    pub bom_skipped: usize,
}

impl u8x_result {
    pub(crate) const BAD_ARGUMENT: u8x_result = u8x_result {
        status: u8x_status::U8X_BAD_ARGUMENT,
        error: u8x_error::U8X_ERR_NONE,
        read: 0,
        written: 0,
        error_len: 0,
        handled: 0,
        bom_skipped: 0,
    };

    /// This result, for a call whose input had `skipped` a byte order mark
    /// before it.
    pub(crate) fn after_bom(mut self, skipped: bool) -> Self {
        if skipped {
            self.read += 3;
            self.bom_skipped = 3;
        }
        self
    }
}

/// `src` without its leading byte order mark if `skip` asks for it and
/// there is one, and whether there was. Call it only once the arguments
/// are checked: it reads `src`, and a refused call reads nothing.
pub(crate) fn skip_bom(src: &[u8], skip: bool) -> (&[u8], bool) {
    match skip.then(|| crate::strip_bom(src)).flatten() {
        Some(rest) => (rest, true),
        None => (src, false),
    }
}

impl From<ErrorKind> for u8x_error {
    fn from(kind: ErrorKind) -> Self {
        match kind {
            ErrorKind::UnexpectedContinuation => u8x_error::U8X_ERR_UNEXPECTED_CONTINUATION,
            ErrorKind::InvalidByte => u8x_error::U8X_ERR_INVALID_BYTE,
            ErrorKind::TruncatedSequence => u8x_error::U8X_ERR_TRUNCATED_SEQUENCE,
            ErrorKind::Overlong => u8x_error::U8X_ERR_OVERLONG,
            ErrorKind::Surrogate => u8x_error::U8X_ERR_SURROGATE,
            ErrorKind::AboveMax => u8x_error::U8X_ERR_ABOVE_MAX,
            ErrorKind::EndOfInput => u8x_error::U8X_ERR_END_OF_INPUT,
            ErrorKind::NotRepresentable => u8x_error::U8X_ERR_NOT_REPRESENTABLE,
        }
    }
}

impl From<Progress> for u8x_result {
    fn from(p: Progress) -> Self {
        let (status, error, error_len) = match p.status {
            Status::Done => (u8x_status::U8X_OK, u8x_error::U8X_ERR_NONE, 0),
            Status::OutputFull => (u8x_status::U8X_OUTPUT_FULL, u8x_error::U8X_ERR_NONE, 0),
            Status::IllFormed(e) => (u8x_status::U8X_ILL_FORMED, e.kind.into(), e.len),
            Status::Incomplete { len } => (
                u8x_status::U8X_INCOMPLETE,
                u8x_error::U8X_ERR_END_OF_INPUT,
                len,
            ),
        };
        u8x_result {
            status,
            error,
            read: p.read,
            written: p.written,
            error_len: error_len as usize,
            handled: p.handled,
            bom_skipped: 0,
        }
    }
}

/// The widest kind of character in a text, narrowest first: the string
/// representation that holds it (CPython's compact strings, JavaScript's
/// one- and two-byte strings).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum u8x_width {
    /// U+0000..U+007F only, or no characters.
    U8X_WIDTH_ASCII = 0,
    /// Up to U+00FF: Latin-1, one byte a character.
    U8X_WIDTH_LATIN1 = 1,
    /// Up to U+FFFF: one UTF-16 unit a character (UCS-2).
    U8X_WIDTH_BMP = 2,
    /// Some character above U+FFFF: UTF-16 needs surrogate pairs.
    U8X_WIDTH_SUPPLEMENTARY = 3,
}

/// What `u8x_classify` found in the well-formed prefix of its input.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct u8x_classification {
    /// The widest character.
    pub width: u8x_width,
    /// Characters (code points): the UCS-4 length.
    pub code_points: usize,
    /// UTF-16 code units: characters plus one per character above U+FFFF.
    /// Equal to `code_points` unless `width` is `U8X_WIDTH_SUPPLEMENTARY`.
    pub utf16_units: usize,
}

// The C ABI, pinned: the same sizes and offsets as the checks at the end of
// include/u8x.h (cbindgen.toml's trailer), for 32- and 64-bit `size_t`.
const _: () = {
    use core::mem::{offset_of, size_of};
    const W: usize = size_of::<usize>();
    assert!(size_of::<u8x_status>() == 4);
    assert!(size_of::<u8x_error>() == 4);
    assert!(size_of::<u8x_policy>() == 4);
    assert!(size_of::<u8x_width>() == 4);
    assert!(size_of::<u8x_dialect>() == 4);
    assert!(offset_of!(u8x_result, status) == 0);
    assert!(offset_of!(u8x_result, error) == 4);
    assert!(offset_of!(u8x_result, read) == 8);
    assert!(offset_of!(u8x_result, written) == 8 + W);
    assert!(offset_of!(u8x_result, error_len) == 8 + 2 * W);
    assert!(offset_of!(u8x_result, handled) == 8 + 3 * W);
    assert!(offset_of!(u8x_result, bom_skipped) == 8 + 4 * W);
    assert!(size_of::<u8x_result>() == 8 + 5 * W);
    assert!(offset_of!(u8x_classification, width) == 0);
    assert!(offset_of!(u8x_classification, code_points) == W);
    assert!(offset_of!(u8x_classification, utf16_units) == 2 * W);
    assert!(size_of::<u8x_classification>() == 3 * W);
};

impl From<crate::Width> for u8x_width {
    fn from(w: crate::Width) -> Self {
        match w {
            crate::Width::Ascii => u8x_width::U8X_WIDTH_ASCII,
            crate::Width::Latin1 => u8x_width::U8X_WIDTH_LATIN1,
            crate::Width::Bmp => u8x_width::U8X_WIDTH_BMP,
            crate::Width::Supplementary => u8x_width::U8X_WIDTH_SUPPLEMENTARY,
        }
    }
}
