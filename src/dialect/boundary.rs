//! Safe split points in a dialect, as [`crate::reference::boundary`] finds them
//! in RFC 3629.
//!
//! A position is a boundary when a segment starts there (or it is the end),
//! except in WTF-8 between a high surrogate and the low one that makes it
//! ill-formed: cut there, both halves would be well-formed. Segments start
//! at every byte that is not a continuation byte but one: the ED of a low
//! surrogate that CESU-8 pairs with the high surrogate before it. So the
//! segment around a position is found by stepping back to the nearest such
//! start (at most 5 bytes for legacy's 6-byte forms, 3 otherwise, plus the
//! 3 of a high surrogate) and walking the segments forward from it.

use super::segment::next_segment_in;
use crate::reference::segment::{is_continuation, Segment};
use crate::Dialect;

/// Whether `src` is a high surrogate's 3 bytes (ED A0..AF cont).
fn is_high(src: &[u8]) -> bool {
    matches!(src, [0xED, b1, b2] if (0xA0..=0xAF).contains(b1) && is_continuation(*b2))
}

/// Whether `src` starts with a low surrogate's 3 bytes (ED B0..BF cont).
fn starts_low(src: &[u8]) -> bool {
    matches!(src, [0xED, b1, b2, ..] if (0xB0..=0xBF).contains(b1) && is_continuation(*b2))
}

fn segment_len(dialect: Dialect, src: &[u8]) -> usize {
    match next_segment_in(dialect, src, false) {
        Segment::Char { len, .. } | Segment::Invalid { len, .. } | Segment::Truncated { len } => {
            usize::from(len)
        }
    }
}

/// Whether a segment starts at `pos` (< `src.len()`).
fn starts_segment(dialect: Dialect, src: &[u8], pos: usize) -> bool {
    let back = if dialect == Dialect::Legacy { 5 } else { 3 };
    let Some(mut start) = (pos.saturating_sub(back)..=pos)
        .rev()
        .find(|&q| !is_continuation(src[q]))
    else {
        // No lead close enough to reach `pos`: a lone continuation byte.
        return true;
    };
    let pairs = matches!(dialect, Dialect::Cesu8 | Dialect::Mutf8);
    if pairs && start >= 3 && src[start] == 0xED && is_high(&src[start - 3..start]) {
        // Perhaps the second half of a pair: start from the high surrogate,
        // which always starts a segment.
        start -= 3;
    }
    while start < pos {
        start += segment_len(dialect, &src[start..]);
    }
    start == pos
}

/// Whether `src` can be cut at `pos` (<= `src.len()`).
pub fn is_boundary(dialect: Dialect, src: &[u8], pos: usize) -> bool {
    if pos == 0 || pos >= src.len() {
        return true;
    }
    if dialect == Dialect::Wtf8
        && pos >= 3
        && is_high(&src[pos - 3..pos])
        && starts_low(&src[pos..])
    {
        return false;
    }
    starts_segment(dialect, src, pos)
}

/// The first boundary at or after `pos` (<= `src.len()`).
pub fn next_boundary(dialect: Dialect, src: &[u8], pos: usize) -> usize {
    (pos..src.len())
        .find(|&p| is_boundary(dialect, src, p))
        .unwrap_or(src.len())
}

/// The last boundary at or before `pos` (<= `src.len()`).
pub fn prev_boundary(dialect: Dialect, src: &[u8], pos: usize) -> usize {
    (0..=pos)
        .rev()
        .find(|&p| is_boundary(dialect, src, p))
        .unwrap_or(0)
}
