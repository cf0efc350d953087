//! Safe split points.
//!
//! A position is a boundary when it is the start of a segment (a character or
//! a maximal subpart, see [`super::segment`]) or the end of the input: the
//! decoder keeps no state across a segment start, so decoding both sides of a
//! boundary separately gives the output of decoding the whole, under every
//! policy. Every non-continuation byte starts a segment and a segment is at
//! most 4 bytes long, so the segment around `pos` is found by looking at most
//! 3 bytes back for its lead and at most 3 bytes ahead for its end.

use super::segment::{is_continuation, next_segment, Segment};

/// The segment containing `pos` (0 < `pos` < `src.len()`, `src[pos]` a
/// continuation byte) if it starts before `pos`: its start and end.
fn straddling_segment(src: &[u8], pos: usize) -> Option<(usize, usize)> {
    let lead = (pos.saturating_sub(3)..pos)
        .rev()
        .find(|&q| !is_continuation(src[q]))?;
    let window = &src[lead..src.len().min(lead + 4)];
    let len = match next_segment(window) {
        Segment::Char { len, .. } | Segment::Invalid { len, .. } | Segment::Truncated { len } => {
            len
        }
    };
    let end = lead + len as usize;
    (end > pos).then_some((lead, end))
}

fn enclosing(src: &[u8], pos: usize) -> Option<(usize, usize)> {
    if pos == 0 || pos >= src.len() || !is_continuation(src[pos]) {
        return None;
    }
    straddling_segment(src, pos)
}

/// The first boundary at or after `pos` (`pos` <= `src.len()`).
pub fn next_boundary(src: &[u8], pos: usize) -> usize {
    enclosing(src, pos).map_or(pos, |(_, end)| end)
}

/// The last boundary at or before `pos` (`pos` <= `src.len()`).
pub fn prev_boundary(src: &[u8], pos: usize) -> usize {
    enclosing(src, pos).map_or(pos, |(start, _)| start)
}
