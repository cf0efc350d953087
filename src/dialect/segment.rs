//! Each dialect's Table 3-7: where its segments differ from RFC 3629's.
//!
//! Only three places differ, so each dialect is RFC 3629's segmenter with
//! one or two leads intercepted:
//! - Legacy: the lead table itself (5- and 6-byte forms, F4 90..BF).
//! - CESU-8 and Modified UTF-8: F0..F4 never lead (a supplementary
//!   character is two 3-byte surrogates); ED A0..BF starts a surrogate;
//!   Modified UTF-8 also reads C0 80 as U+0000 and refuses the byte 00.
//! - WTF-8 and generalized UTF-8: ED A0..BF starts a surrogate.
//!
//! A surrogate's 3 bytes are one unit of the dialect: a high surrogate that
//! CESU-8 cannot pair is an ill-formed subsequence of its 3 bytes (they are
//! a prefix of a well-formed pair), and a low one that no high precedes is
//! the lead ED alone (ED B0 starts nothing well-formed), exactly as a
//! maximal subpart is cut in RFC 3629. The maximal subpart never runs past
//! the high surrogate's 3 bytes, so a well-formed character after it is
//! never swallowed.

use crate::reference::ascii::ascii_prefix_len;
use crate::reference::segment::{is_continuation, next_segment, segment_of, Segment, Segmenter};
use crate::{Dialect, ErrorKind};

/// The surrogate whose 3-byte form starts `src` (`ED A0..BF cont`), or how
/// the bytes after ED fail to be one: `Err(segment)`. `None` if the second
/// byte is not A0..BF (then RFC 3629's segment applies).
#[inline]
fn surrogate_at(src: &[u8]) -> Option<Result<u32, Segment>> {
    let b1 = *src.get(1)?;
    if !(0xA0..=0xBF).contains(&b1) {
        return None;
    }
    Some(match src.get(2) {
        None => Err(Segment::Truncated { len: 2 }),
        Some(&b2) if !is_continuation(b2) => Err(Segment::Invalid {
            kind: ErrorKind::TruncatedSequence,
            len: 2,
        }),
        Some(&b2) => Ok(0xD000 | (u32::from(b1) & 0x3F) << 6 | (u32::from(b2) & 0x3F)),
    })
}

/// What follows a high surrogate's 3 bytes in `rest`.
enum After {
    /// A low surrogate's 3 bytes, with its value.
    Low(u32),
    /// The end of the input, or a proper prefix of a low surrogate's bytes
    /// (`n` of them) that the end of the input cuts.
    Cut(u8),
    /// Anything else.
    Other,
}

#[inline]
fn after_high(rest: &[u8]) -> After {
    match rest {
        [] => After::Cut(0),
        [0xED] => After::Cut(1),
        [0xED, b1] if (0xB0..=0xBF).contains(b1) => After::Cut(2),
        [0xED, b1, b2, ..] if (0xB0..=0xBF).contains(b1) && is_continuation(*b2) => {
            After::Low(0xD000 | (u32::from(*b1) & 0x3F) << 6 | (u32::from(*b2) & 0x3F))
        }
        _ => After::Other,
    }
}

fn is_high(s: u32) -> bool {
    (0xD800..0xDC00).contains(&s)
}

/// The segment at an ED lead under a dialect that has surrogates.
#[inline]
fn surrogate_segment(dialect: Dialect, src: &[u8], more_input: bool) -> Segment {
    let pairs = matches!(dialect, Dialect::Cesu8 | Dialect::Mutf8);
    if pairs && src.get(1).is_some_and(|b1| (0xB0..=0xBF).contains(b1)) {
        // CESU-8 and Modified UTF-8: a low surrogate cannot start anything.
        return Segment::Invalid {
            kind: ErrorKind::Surrogate,
            len: 1,
        };
    }
    let s = match surrogate_at(src) {
        None => return next_segment(src),
        Some(Err(segment)) => return segment,
        Some(Ok(s)) => s,
    };
    let one = Segment::Char { scalar: s, len: 3 };
    let ill = Segment::Invalid {
        kind: ErrorKind::Surrogate,
        len: 3,
    };
    match dialect {
        Dialect::Generalized => one,
        Dialect::Wtf8 if !is_high(s) => one,
        Dialect::Wtf8 => match after_high(&src[3..]) {
            // The pair should have been one 4-byte character.
            After::Low(_) => ill,
            After::Cut(_) if more_input => Segment::Truncated { len: 3 },
            After::Cut(_) | After::Other => one,
        },
        _ => match after_high(&src[3..]) {
            After::Low(low) => Segment::Char {
                scalar: 0x1_0000 + ((s - 0xD800) << 10 | (low - 0xDC00)),
                len: 6,
            },
            After::Cut(n) if more_input => Segment::Truncated { len: 3 + n },
            // At the real end, the high surrogate is cut short by it; what
            // follows is a segment of its own, as a lead byte always is.
            After::Cut(_) => Segment::Truncated { len: 3 },
            After::Other => ill,
        },
    }
}

/// Modified UTF-8's C0 lead: C0 80 is U+0000, C0 with any other
/// continuation byte an overlong form.
#[inline]
fn c0_segment(src: &[u8]) -> Segment {
    match src.get(1) {
        None => Segment::Truncated { len: 1 },
        Some(0x80) => Segment::Char { scalar: 0, len: 2 },
        Some(&b) if is_continuation(b) => Segment::Invalid {
            kind: ErrorKind::Overlong,
            len: 1,
        },
        Some(_) => Segment::Invalid {
            kind: ErrorKind::TruncatedSequence,
            len: 1,
        },
    }
}

/// The segment that starts at `src[0]` (not empty) in `dialect`.
#[inline]
pub fn next_segment_in(dialect: Dialect, src: &[u8], more_input: bool) -> Segment {
    let lead = src[0];
    match dialect {
        Dialect::Standard => next_segment(src),
        Dialect::Legacy => segment_of::<true>(src),
        Dialect::Mutf8 if lead == 0 => Segment::Invalid {
            kind: ErrorKind::InvalidByte,
            len: 1,
        },
        Dialect::Mutf8 if lead == 0xC0 => c0_segment(src),
        Dialect::Cesu8 | Dialect::Mutf8 if (0xF0..=0xF4).contains(&lead) => Segment::Invalid {
            kind: ErrorKind::InvalidByte,
            len: 1,
        },
        _ if lead == 0xED => surrogate_segment(dialect, src, more_input),
        _ => next_segment(src),
    }
}

/// A dialect as the decoders' segmenter.
impl Segmenter for Dialect {
    #[inline(always)]
    fn segment(self, src: &[u8], more_input: bool) -> Segment {
        next_segment_in(self, src, more_input)
    }
    #[inline(always)]
    fn ascii_run(self, src: &[u8]) -> usize {
        let run = ascii_prefix_len(src);
        if self == Dialect::Mutf8 {
            // 00 is ASCII but not Modified UTF-8.
            src[..run].iter().position(|&b| b == 0).unwrap_or(run)
        } else {
            run
        }
    }
}

/// A dialect read into UTF-16, which cannot hold legacy UTF-8's values
/// above U+10FFFF: each is an error of its own
/// ([`ErrorKind::NotRepresentable`], its whole sequence), handled by the
/// policy like an ill-formed one.
#[derive(Clone, Copy)]
pub struct ToUtf16(pub Dialect);

impl Segmenter for ToUtf16 {
    #[inline(always)]
    fn segment(self, src: &[u8], more_input: bool) -> Segment {
        match self.0.segment(src, more_input) {
            Segment::Char { scalar, len } if scalar > 0x10_FFFF => Segment::Invalid {
                kind: ErrorKind::NotRepresentable,
                len,
            },
            other => other,
        }
    }
    #[inline(always)]
    fn ascii_run(self, src: &[u8]) -> usize {
        self.0.ascii_run(src)
    }
}
