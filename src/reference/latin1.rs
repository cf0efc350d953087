//! Latin-1 (ISO-8859-1) both ways, the reference for the runtimes'
//! one-byte strings. Latin-1 byte `b` is the character U+00`b`.

use super::ascii::{ascii_prefix_len, ASCII_LOOK_AHEAD};
use super::segment::{next_segment, Segment};
use super::sink::Sink;
use crate::types::{ErrorKind, Latin1Policy, Progress, Status, Utf8Error};

/// Decodes UTF-8 `src` to Latin-1 into `sink`: one byte a character. A
/// character above U+00FF is [`ErrorKind::NotRepresentable`] (its whole
/// length); ill-formed sequences are reported as when decoding to UCS-4.
pub fn decode<S: Sink<u8>>(
    src: &[u8],
    sink: &mut S,
    policy: Latin1Policy,
    more_input: bool,
) -> Progress {
    let stop = |status, read, handled, sink: &S| Progress {
        status,
        read,
        written: sink.written(),
        handled,
    };
    let mut read = 0;
    let mut handled = 0;
    while read < src.len() {
        // A bounded look ahead: with a small output buffer, scanning a long
        // ASCII run to its end on every call would make a caller's loop
        // quadratic.
        let run = ascii_prefix_len(&src[read..src.len().min(read + ASCII_LOOK_AHEAD)]);
        if run > 0 {
            // ASCII is Latin-1 as it stands; copy what fits.
            let mut taken = 0;
            while taken < run && sink.push_all(&src[read + taken..read + taken + 1]) {
                taken += 1;
            }
            read += taken;
            if taken < run {
                return stop(Status::OutputFull, read, handled, sink);
            }
            continue;
        }
        let (kind, len) = match next_segment(&src[read..]) {
            Segment::Char { scalar, len } if scalar <= 0xFF => {
                if !sink.push_all(&[scalar as u8]) {
                    return stop(Status::OutputFull, read, handled, sink);
                }
                read += len as usize;
                continue;
            }
            Segment::Char { len, .. } => (ErrorKind::NotRepresentable, len),
            Segment::Truncated { len } if more_input => {
                return stop(Status::Incomplete { len }, read, handled, sink);
            }
            Segment::Truncated { len } => (ErrorKind::EndOfInput, len),
            Segment::Invalid { kind, len } => (kind, len),
        };
        match policy {
            Latin1Policy::Strict => {
                let error = Utf8Error {
                    valid_up_to: read,
                    kind,
                    len,
                };
                return stop(Status::IllFormed(error), read, handled, sink);
            }
            Latin1Policy::Replace(byte) => {
                if !sink.push_all(&[byte]) {
                    return stop(Status::OutputFull, read, handled, sink);
                }
                read += len as usize;
            }
            Latin1Policy::Ignore => read += len as usize,
        }
        handled += 1;
    }
    stop(Status::Done, read, handled, sink)
}

/// Encodes Latin-1 `src` as UTF-8 into `sink`: bytes 80..FF become two
/// bytes, written whole or not at all. Every input is valid.
pub fn encode<S: Sink<u8>>(src: &[u8], sink: &mut S) -> Progress {
    for (read, &b) in src.iter().enumerate() {
        let pushed = if b < 0x80 {
            sink.push_all(&[b])
        } else {
            sink.push_all(&[0xC0 | (b >> 6), 0x80 | (b & 0x3F)])
        };
        if !pushed {
            return Progress {
                status: Status::OutputFull,
                read,
                written: sink.written(),
                handled: 0,
            };
        }
    }
    Progress {
        status: Status::Done,
        read: src.len(),
        written: sink.written(),
        handled: 0,
    }
}
