//! CESU-8 pairs in bulk: a text of supplementary characters (Emoji, say)
//! in CESU-8 or Modified UTF-8 is nothing but pairs, each an ill-formed
//! sequence to RFC 3629's kernels. The scalar window takes runs of them
//! with a tight loop and leaves the general dialect decoder everything
//! else, cut at the next high surrogate (a segment start, so a boundary).

use crate::reference::segment::is_continuation;
use crate::{Progress, Status};

/// The two UTF-16 units of the pair of 3-byte surrogates at the start of
/// `src`, if there is one.
#[inline(always)]
pub(crate) fn pair_at(src: &[u8]) -> Option<[u16; 2]> {
    match *src {
        [0xED, h1, h2, 0xED, l1, l2, ..]
            if h1 & 0xF0 == 0xA0
                && l1 & 0xF0 == 0xB0
                && is_continuation(h2)
                && is_continuation(l2) =>
        {
            let unit = |b1: u8, b2: u8| 0xD000 | u16::from(b1 & 0x3F) << 6 | u16::from(b2 & 0x3F);
            Some([unit(h1, h2), unit(l1, l2)])
        }
        _ => None,
    }
}

/// The code point of a pair's units.
#[inline(always)]
pub(crate) fn scalar_of([high, low]: [u16; 2]) -> u32 {
    0x1_0000 + ((u32::from(high) - 0xD800) << 10 | (u32::from(low) - 0xDC00))
}

/// What one step of [`interleave`] asks of its output.
pub(crate) enum Step {
    /// Take the run of pairs at the start of the slice, as far as they fit;
    /// `read` is a multiple of 6.
    Pairs,
    /// Decode the slice with the dialect's reference core.
    Rest { more_input: bool },
}

/// Decodes `src` with `step`, alternating runs of pairs with the general
/// decoder up to the next high surrogate. `step` gets the output written so
/// far by this call, where it appends.
pub(crate) fn interleave(
    src: &[u8],
    more_input: bool,
    mut step: impl FnMut(&[u8], usize, Step) -> Progress,
) -> Progress {
    let (mut read, mut written, mut handled) = (0, 0, 0);
    loop {
        let p = step(&src[read..], written, Step::Pairs);
        read += p.read;
        written += p.written;
        if read == src.len() {
            return p_done(read, written, handled);
        }
        // Up to the next lead byte of a high surrogate after this point.
        let end = src[read..]
            .iter()
            .skip(1)
            .zip(src[read..].iter().skip(2))
            .position(|(&lead, &b1)| lead == 0xED && b1 & 0xF0 == 0xA0)
            .map_or(src.len(), |i| read + 1 + i);
        let last = end == src.len();
        // Short of the end, what precedes the high surrogate is decoded as
        // if more followed, then, if a sequence is cut there, again with
        // the surrogate's first two bytes, which end it (as in the whole
        // input) and are themselves incomplete.
        let more = more_input || !last;
        let mut p = step(&src[read..end], written, Step::Rest { more_input: more });
        if !last && matches!(p.status, Status::Incomplete { .. }) {
            read += p.read;
            written += p.written;
            handled += p.handled;
            p = step(
                &src[read..end + 2],
                written,
                Step::Rest { more_input: true },
            );
        }
        let status = crate::contract::rebase(p.status, read);
        read += p.read;
        written += p.written;
        handled += p.handled;
        let through = !last && read == end;
        if !through && (status != Status::Done || last) {
            return Progress {
                status,
                read,
                written,
                handled,
            };
        }
    }
}

fn p_done(read: usize, written: usize, handled: usize) -> Progress {
    Progress {
        status: Status::Done,
        read,
        written,
        handled,
    }
}
