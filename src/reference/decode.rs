//! UTF-8 to code points, one segment at a time, under any [`Policy`].
//!
//! This is the reference every faster path is tested against: it is written
//! for obviousness, not speed.

use super::ascii::ASCII_LOOK_AHEAD;
use super::legacy;
use super::segment::{Rfc3629, Segment, Segmenter};
use super::sink::{AsciiSink, Sink};
use crate::types::{ErrorKind, Policy, Progress, Status, Utf8Error};

/// Decodes `src` into `sink`. With `more_input`, a sequence cut by the end of
/// `src` is left unconsumed and reported as [`Status::Incomplete`].
pub fn decode<S: Sink<u32> + AsciiSink>(
    src: &[u8],
    sink: &mut S,
    policy: Policy,
    more_input: bool,
) -> Progress {
    decode_with(Rfc3629, src, sink, policy, more_input)
}

/// [`decode`] with the segments of `segmenter` (a dialect's Table 3-7).
#[inline]
pub fn decode_with<G: Segmenter, S: Sink<u32> + AsciiSink>(
    segmenter: G,
    src: &[u8],
    sink: &mut S,
    policy: Policy,
    more_input: bool,
) -> Progress {
    let mut read = 0usize;
    let mut handled = 0usize;
    let stop = |status, read, handled, sink: &S| Progress {
        status,
        read,
        written: sink.written(),
        handled,
    };
    while read < src.len() {
        // ASCII runs need no Table 3-7 lookup.
        // A bounded look ahead: with a small output buffer, scanning a long
        // ASCII run to its end on every call would make a caller's loop
        // quadratic.
        let run = segmenter.ascii_run(&src[read..src.len().min(read + ASCII_LOOK_AHEAD)]);
        if run > 0 {
            let taken = sink.push_ascii(&src[read..read + run]);
            read += taken;
            if taken < run {
                return stop(Status::OutputFull, read, handled, sink);
            }
            continue;
        }
        let (kind, len) = match segmenter.segment(&src[read..], more_input) {
            Segment::Char { scalar, len } => {
                if !sink.push_all(&[scalar]) {
                    return stop(Status::OutputFull, read, handled, sink);
                }
                read += len as usize;
                continue;
            }
            Segment::Truncated { len } if more_input => {
                return stop(Status::Incomplete { len }, read, handled, sink);
            }
            Segment::Truncated { len } => (ErrorKind::EndOfInput, len),
            Segment::Invalid { kind, len } => (kind, len),
        };
        let map: fn(u8) -> u32 = match policy {
            Policy::Strict => {
                let error = Utf8Error {
                    valid_up_to: read,
                    kind,
                    len,
                };
                return stop(Status::IllFormed(error), read, handled, sink);
            }
            Policy::Replace(c) => {
                if !sink.push_all(&[c as u32]) {
                    return stop(Status::OutputFull, read, handled, sink);
                }
                read += len as usize;
                handled += 1;
                continue;
            }
            Policy::Ignore => {
                read += len as usize;
                handled += 1;
                continue;
            }
            Policy::Escape => legacy::escape,
            Policy::Latin1 => u32::from,
            Policy::Cp1252 => legacy::cp1252,
        };
        // Byte-wise fallbacks write one unit per byte. Each byte after the
        // first of a maximal subpart is a lone continuation byte, so stopping
        // between them on a full buffer and resuming gives the same output.
        // The subpart counts once its first unit is written: the output
        // then shows it.
        for (i, &b) in src[read..read + len as usize].iter().enumerate() {
            if !sink.push_all(&[map(b)]) {
                return stop(Status::OutputFull, read, handled, sink);
            }
            handled += usize::from(i == 0);
            read += 1;
        }
    }
    stop(Status::Done, read, handled, sink)
}
