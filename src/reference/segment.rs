//! Table 3-7 of Unicode chapter 3, as a function that cuts the input into
//! segments.
//!
//! Every decoder in u8x sees its input as a sequence of *segments*: a
//! well-formed character, or a *maximal subpart* (the longest prefix of a
//! well-formed sequence that the input has before it goes wrong, or one byte
//! if no sequence starts there). A segment always starts at a byte that is not
//! a continuation byte, or is a lone continuation byte; so every
//! non-continuation byte starts a segment, which is what makes the boundary
//! functions constant-time.
//!
//! | lead      | 2nd byte | 3rd   | 4th   |
//! |-----------|----------|-------|-------|
//! | 00..7F    |          |       |       |
//! | C2..DF    | 80..BF   |       |       |
//! | E0        | A0..BF   | 80..BF|       |
//! | E1..EC    | 80..BF   | 80..BF|       |
//! | ED        | 80..9F   | 80..BF|       |
//! | EE..EF    | 80..BF   | 80..BF|       |
//! | F0        | 90..BF   | 80..BF| 80..BF|
//! | F1..F3    | 80..BF   | 80..BF| 80..BF|
//! | F4        | 80..8F   | 80..BF| 80..BF|

use crate::types::ErrorKind;

/// How a decoder cuts its input into segments: RFC 3629 ([`Rfc3629`]) or a
/// dialect's variant of Table 3-7 (`crate::dialect`).
pub trait Segmenter: Copy {
    /// The segment that starts at `src[0]` (`src` is not empty). With
    /// `more_input`, a segment whose meaning depends on bytes past the end
    /// of `src` is [`Segment::Truncated`].
    fn segment(self, src: &[u8], more_input: bool) -> Segment;
    /// How many leading bytes of `src` are each a one-byte character.
    fn ascii_run(self, src: &[u8]) -> usize;
}

/// Table 3-7 itself.
#[derive(Clone, Copy)]
pub struct Rfc3629;

impl Segmenter for Rfc3629 {
    #[inline(always)]
    fn segment(self, src: &[u8], _more_input: bool) -> Segment {
        next_segment(src)
    }
    #[inline(always)]
    fn ascii_run(self, src: &[u8]) -> usize {
        super::ascii::ascii_prefix_len(src)
    }
}

/// One segment of the input, starting at a given offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment {
    /// A well-formed character of `len` bytes.
    Char { scalar: u32, len: u8 },
    /// An ill-formed maximal subpart of `len` bytes.
    Invalid { kind: ErrorKind, len: u8 },
    /// The input ends after `len` bytes of a sequence that is still a valid
    /// prefix: ill-formed if this is all the input, incomplete if more follows.
    Truncated { len: u8 },
}

#[inline(always)]
pub(crate) fn is_continuation(b: u8) -> bool {
    (b as i8) < -64
}

/// The allowed range of the second byte after `lead` (C2..F4; under
/// `LEGACY`, C2..FD), and the error kind when a continuation byte falls
/// outside it.
#[inline(always)]
fn second_byte_range<const LEGACY: bool>(lead: u8) -> (u8, u8, ErrorKind) {
    match lead {
        0xE0 => (0xA0, 0xBF, ErrorKind::Overlong),
        0xED => (0x80, 0x9F, ErrorKind::Surrogate),
        0xF0 => (0x90, 0xBF, ErrorKind::Overlong),
        0xF4 if !LEGACY => (0x80, 0x8F, ErrorKind::AboveMax),
        // RFC 2044's 5- and 6-byte forms: the shortest form only.
        0xF8 if LEGACY => (0x88, 0xBF, ErrorKind::Overlong),
        0xFC if LEGACY => (0x84, 0xBF, ErrorKind::Overlong),
        // Any continuation byte is in range for the other leads, so the kind
        // is never used.
        _ => (0x80, 0xBF, ErrorKind::TruncatedSequence),
    }
}

/// Total length of a sequence introduced by `lead`, or 0 for a byte that
/// cannot start a multi-byte sequence (ASCII gives 1).
#[inline(always)]
pub(crate) fn sequence_len(lead: u8) -> u8 {
    sequence_len_of::<false>(lead)
}

/// [`sequence_len`], or under `LEGACY` that of RFC 2044's table (F5..F7
/// lead 4 bytes, F8..FB 5, FC..FD 6).
#[inline(always)]
fn sequence_len_of<const LEGACY: bool>(lead: u8) -> u8 {
    match lead {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        0xF5..=0xF7 if LEGACY => 4,
        0xF8..=0xFB if LEGACY => 5,
        0xFC..=0xFD if LEGACY => 6,
        _ => 0,
    }
}

/// The segment that starts at `src[0]`. `src` must not be empty.
#[inline]
pub fn next_segment(src: &[u8]) -> Segment {
    segment_of::<false>(src)
}

/// [`next_segment`] for RFC 2044's 31-bit UTF-8 (`LEGACY`) or RFC 3629.
#[inline(always)]
pub(crate) fn segment_of<const LEGACY: bool>(src: &[u8]) -> Segment {
    let lead = src[0];
    if lead < 0x80 {
        return Segment::Char {
            scalar: lead as u32,
            len: 1,
        };
    }
    let need = sequence_len_of::<LEGACY>(lead);
    if need == 0 {
        let kind = if lead < 0xC0 {
            ErrorKind::UnexpectedContinuation
        } else {
            ErrorKind::InvalidByte
        };
        return Segment::Invalid { kind, len: 1 };
    }
    let mut scalar = (lead as u32) & (0x7F >> need);
    let (lo, hi, range_kind) = second_byte_range::<LEGACY>(lead);
    let mut i = 1usize;
    while i < need as usize {
        let Some(&b) = src.get(i) else {
            return Segment::Truncated { len: i as u8 };
        };
        if !is_continuation(b) {
            return Segment::Invalid {
                kind: ErrorKind::TruncatedSequence,
                len: i as u8,
            };
        }
        if i == 1 && !(lo..=hi).contains(&b) {
            return Segment::Invalid {
                kind: range_kind,
                len: 1,
            };
        }
        scalar = (scalar << 6) | (b as u32 & 0x3F);
        i += 1;
    }
    Segment::Char { scalar, len: need }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_3_7_edges() {
        use ErrorKind::*;
        let cases: &[(&[u8], Segment)] = &[
            (
                b"\x7F",
                Segment::Char {
                    scalar: 0x7F,
                    len: 1,
                },
            ),
            (
                b"\x80",
                Segment::Invalid {
                    kind: UnexpectedContinuation,
                    len: 1,
                },
            ),
            (
                b"\xC1\xBF",
                Segment::Invalid {
                    kind: InvalidByte,
                    len: 1,
                },
            ),
            (
                b"\xC2\x80",
                Segment::Char {
                    scalar: 0x80,
                    len: 2,
                },
            ),
            (
                b"\xE0\x9F\xBF",
                Segment::Invalid {
                    kind: Overlong,
                    len: 1,
                },
            ),
            (
                b"\xE0\xA0\x80",
                Segment::Char {
                    scalar: 0x800,
                    len: 3,
                },
            ),
            (
                b"\xED\x9F\xBF",
                Segment::Char {
                    scalar: 0xD7FF,
                    len: 3,
                },
            ),
            (
                b"\xED\xA0\x80",
                Segment::Invalid {
                    kind: Surrogate,
                    len: 1,
                },
            ),
            (
                b"\xEF\xBF\xBF",
                Segment::Char {
                    scalar: 0xFFFF,
                    len: 3,
                },
            ),
            (
                b"\xF0\x8F\xBF\xBF",
                Segment::Invalid {
                    kind: Overlong,
                    len: 1,
                },
            ),
            (
                b"\xF0\x90\x80\x80",
                Segment::Char {
                    scalar: 0x10000,
                    len: 4,
                },
            ),
            (
                b"\xF4\x8F\xBF\xBF",
                Segment::Char {
                    scalar: 0x10FFFF,
                    len: 4,
                },
            ),
            (
                b"\xF4\x90\x80\x80",
                Segment::Invalid {
                    kind: AboveMax,
                    len: 1,
                },
            ),
            (
                b"\xF5",
                Segment::Invalid {
                    kind: InvalidByte,
                    len: 1,
                },
            ),
            (b"\xE2\x82", Segment::Truncated { len: 2 }),
            (
                b"\xE2\x82A",
                Segment::Invalid {
                    kind: TruncatedSequence,
                    len: 2,
                },
            ),
            (
                b"\xF0\x90\x80A",
                Segment::Invalid {
                    kind: TruncatedSequence,
                    len: 3,
                },
            ),
            (
                b"\xE0A",
                Segment::Invalid {
                    kind: TruncatedSequence,
                    len: 1,
                },
            ),
        ];
        for (bytes, want) in cases {
            assert_eq!(next_segment(bytes), *want, "{bytes:02X?}");
        }
    }
}
