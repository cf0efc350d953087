//! The vocabulary shared by every function of the safe core: what went wrong
//! ([`ErrorKind`], [`Utf8Error`]), how to handle it ([`Policy`]) and how far a
//! call got ([`Progress`], [`Status`]).

/// Why a byte sequence is ill-formed (RFC 3629, Unicode chapter 3, Table 3-7).
///
/// The kind is decided by the first one or two bytes of the maximal subpart, so
/// it is the same whether the input arrives in one piece or in chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A continuation byte (80..BF) where a character should start.
    UnexpectedContinuation,
    /// A byte that never occurs in UTF-8: C0, C1, F5..FF.
    InvalidByte,
    /// A multi-byte sequence interrupted by a byte that is not a continuation byte.
    TruncatedSequence,
    /// A longer-than-necessary encoding: E0 followed by 80..9F, F0 followed by 80..8F.
    Overlong,
    /// An encoded UTF-16 surrogate, U+D800..U+DFFF (ED followed by A0..BF); when
    /// encoding, a surrogate code unit.
    Surrogate,
    /// A value above U+10FFFF (F4 followed by 90..BF); when encoding, a unit above 0x10FFFF.
    AboveMax,
    /// The input ends inside a sequence that could still have become valid.
    EndOfInput,
    /// A well-formed character the output form cannot hold: above U+00FF when
    /// decoding to Latin-1. `len` is the character's length in bytes.
    NotRepresentable,
}

/// An ill-formed subsequence: where it starts, why, and how long it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf8Error {
    /// Offset of the first byte of the ill-formed subsequence; everything before
    /// it is well-formed. Same meaning as `std::str::Utf8Error::valid_up_to`.
    pub valid_up_to: usize,
    /// Why it is ill-formed.
    pub kind: ErrorKind,
    /// Length of the maximal subpart, 1..=3 bytes (Unicode "U+FFFD substitution
    /// of maximal subparts"). Equals `std`'s `error_len()` except for
    /// [`ErrorKind::EndOfInput`], where `std` says `None` and this is the number
    /// of bytes left in the input.
    pub len: u8,
}

/// What to do with an ill-formed subsequence (decoding) or an invalid code
/// point (encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Stop at the first error and report it.
    Strict,
    /// Decoding: write this scalar once per maximal subpart (U+FFFD for WHATWG,
    /// `from_utf8_lossy` and Python `errors="replace"` behaviour).
    /// Encoding: write the UTF-8 of this scalar for each invalid unit.
    Replace(char),
    /// Decoding: each byte `b` of an ill-formed subsequence becomes U+DC00+b
    /// (UTF-8B, Python `surrogateescape`). Encoding: U+DC80..U+DCFF become the
    /// byte they stand for; other invalid units are errors.
    Escape,
    /// Decoding: each byte of an ill-formed subsequence is taken as ISO-8859-1.
    Latin1,
    /// Decoding: each byte of an ill-formed subsequence is taken as windows-1252
    /// (the WHATWG mapping, where 81, 8D, 8F, 90 and 9D map to C1 controls).
    Cp1252,
    /// Decoding: each maximal subpart is dropped, nothing written in its
    /// place (Python `errors="ignore"`, iconv `//IGNORE`). Lossy without a
    /// trace in the output: [`Progress::handled`] says how many were dropped.
    Ignore,
}

/// Which UTF-8 a byte string is read as, or written in. Standard RFC 3629
/// UTF-8 is the default; the others are the almost-UTF-8 forms real data
/// holds, each read and written exactly, and each with its own ill-formed
/// sequences (the policies apply to those).
///
/// | dialect | differs from RFC 3629 in |
/// |---|---|
/// | `Legacy` | RFC 2044 / utf-8(7): values up to 0x7FFFFFFF in up to 6 bytes (F5..FD leads, F4 90..BF); shortest form only; FE, FF never; surrogates ill-formed as in RFC 3629 |
/// | `Cesu8` | Unicode TR #26: a supplementary character is its two UTF-16 surrogates, 3 bytes each; 4-byte forms (F0..F4) are ill-formed |
/// | `Mutf8` | Java's Modified UTF-8: CESU-8, plus U+0000 as C0 80 and never as the byte 00 |
/// | `Wtf8` | lone surrogates are 3-byte forms; a high surrogate followed by a low one is ill-formed (the pair must be the 4-byte form) |
/// | `Generalized` | any surrogate is a 3-byte form, paired or not (Python's `surrogatepass`) |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// RFC 3629 / Unicode Table 3-7.
    #[default]
    Standard,
    /// The original 31-bit UTF-8 of RFC 2044 and Kuhn's utf-8(7).
    Legacy,
    /// CESU-8 (Unicode Technical Report #26).
    Cesu8,
    /// Modified UTF-8 (Java `DataInput`, JNI).
    Mutf8,
    /// WTF-8 (Rust's `OsString` on Windows, WebAssembly hosts).
    Wtf8,
    /// Generalized UTF-8 (Python's `surrogatepass`).
    Generalized,
}

impl Dialect {
    /// Every dialect, RFC 3629 first.
    pub const ALL: [Dialect; 6] = [
        Dialect::Standard,
        Dialect::Legacy,
        Dialect::Cesu8,
        Dialect::Mutf8,
        Dialect::Wtf8,
        Dialect::Generalized,
    ];
}

/// The replacement policy with U+FFFD.
pub const REPLACE: Policy = Policy::Replace('\u{FFFD}');

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// All input was consumed.
    Done,
    /// Strict policy: stopped at this ill-formed subsequence (its offset is
    /// `Progress::read`, or the unit index when encoding).
    IllFormed(Utf8Error),
    /// "More input follows" mode: the last `len` bytes start a sequence that
    /// the next chunk may complete. They were not consumed.
    Incomplete {
        /// Bytes left unconsumed at the end of the input (1..=3).
        len: u8,
    },
    /// The output buffer is full; `read` and `written` say where to resume.
    OutputFull,
}

/// How far a call got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// How the call ended.
    pub status: Status,
    /// Input units consumed (bytes when decoding, code points when encoding).
    pub read: usize,
    /// Output units written (code points when decoding, bytes when encoding),
    /// or needed when only measuring.
    pub written: usize,
    /// Ill-formed subsequences the policy handled (replaced, escaped,
    /// mapped or dropped) in the input consumed, so that a lossy call is
    /// never silent. Decoding counts one per maximal subpart (the unit
    /// of [`Utf8Error`], and of Python's error handler calls), whatever
    /// the policy writes for it; decoding to Latin-1 also counts each
    /// character above U+00FF replaced or dropped. Encoding counts each
    /// invalid unit (surrogate, value above 0x10FFFF, unpaired UTF-16
    /// surrogate) replaced, escaped or dropped. Always 0 under the strict
    /// policies, and when validating.
    ///
    /// On [`Status::OutputFull`] it counts what the written output holds.
    /// The byte-wise policies ([`Policy::Escape`], [`Policy::Latin1`],
    /// [`Policy::Cp1252`]) can stop between the bytes of one maximal
    /// subpart; it counts then, and the bytes left over are lone
    /// continuation bytes, each a maximal subpart of the input that the
    /// resumed call sees and counts. Only then does the sum over a resumed
    /// call sequence exceed the count of one call with room enough.
    pub handled: usize,
}

/// What to do with a unit that is not a Unicode scalar value when encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodePolicy {
    /// Stop at the first surrogate or value above 0x10FFFF and report it.
    Strict,
    /// Write the UTF-8 of this scalar in place of each invalid unit.
    Replace(char),
    /// Turn U+DC80..U+DCFF back into the byte 80..FF they escape (the inverse
    /// of [`Policy::Escape`]); any other invalid unit is an error.
    Escape,
    /// Drop each invalid unit: nothing is written for it.
    Ignore,
}

/// The byte order of UTF-16 code units in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ByteOrder {
    /// This machine's order (little-endian on x86-64 and most Arm systems).
    #[default]
    Native,
    /// Least significant byte first (UTF-16LE).
    Little,
    /// Most significant byte first (UTF-16BE).
    Big,
}

impl ByteOrder {
    /// Whether units in this order must be byte-swapped to be read natively.
    #[inline(always)]
    pub(crate) fn swaps(self) -> bool {
        match self {
            ByteOrder::Native => false,
            ByteOrder::Little => cfg!(target_endian = "big"),
            ByteOrder::Big => cfg!(target_endian = "little"),
        }
    }
}

/// What to do with what Latin-1 cannot hold when decoding UTF-8 to Latin-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Latin1Policy {
    /// Stop at the first ill-formed sequence ([`ErrorKind`] as when decoding
    /// to UCS-4) or the first character above U+00FF
    /// ([`ErrorKind::NotRepresentable`]).
    Strict,
    /// Write this byte once per character above U+00FF and once per maximal
    /// subpart of an ill-formed sequence.
    Replace(u8),
    /// Drop each character above U+00FF and each maximal subpart of an
    /// ill-formed sequence.
    Ignore,
}

/// The widest kind of character in a text: which string representation
/// holds it without loss (CPython's compact strings, JavaScript's one-byte
/// and two-byte strings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Width {
    /// U+0000..U+007F only (or no characters at all).
    Ascii,
    /// Up to U+00FF: fits in Latin-1, one byte a character.
    Latin1,
    /// Up to U+FFFF: one UTF-16 unit a character (UCS-2).
    Bmp,
    /// Some character above U+FFFF: UTF-16 needs surrogate pairs.
    Supplementary,
}

/// What [`crate::classify`] found: validity, widest character and sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classification {
    /// [`Status::Done`], or where the well-formed prefix ends
    /// ([`Status::IllFormed`], or [`Status::Incomplete`] with more input to
    /// come); `read` is that prefix's length in bytes.
    pub progress: Progress,
    /// The widest character in the well-formed prefix.
    pub width: Width,
    /// Characters in the well-formed prefix.
    pub code_points: usize,
    /// UTF-16 code units for the well-formed prefix (characters plus one per
    /// character above U+FFFF).
    pub utf16_units: usize,
}

/// A text encoding that detection tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 (RFC 3629).
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
}

impl Encoding {
    /// Every encoding, in the order of their bits.
    pub const ALL: [Encoding; 5] = [
        Encoding::Utf8,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
        Encoding::Utf32Le,
        Encoding::Utf32Be,
    ];

    /// This encoding's bit in [`Detection::valid`]: 1, 2, 4, 8, 16 in the
    /// order of [`Encoding::ALL`].
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// Bytes in one code unit.
    pub const fn unit(self) -> usize {
        match self {
            Encoding::Utf8 => 1,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
            Encoding::Utf32Le | Encoding::Utf32Be => 4,
        }
    }
}

/// What [`crate::detect_encoding`] found in bytes of unknown encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The encodings the bytes are valid as, one [`Encoding::bit`] each
    /// (after the byte order mark, which leaves only its own).
    pub valid: u32,
    /// The most likely of them, or `None` when there is none.
    pub likely: Option<Encoding>,
    /// The bytes of the byte order mark that chose `likely` (0 without one).
    pub bom_len: usize,
}
