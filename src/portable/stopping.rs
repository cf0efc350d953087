//! The loop that makes an RFC 3629 conversion stop at CESU-8's and
//! Modified UTF-8's forms (their [`Stops`]): plain-ASCII runs first, then a
//! byte search for the next stop a little ahead, and the RFC 3629 kernel
//! over what precedes it. Written once over its parts (closures), which the
//! vector tiers supply from their kernels (`arch::generic::stopping`) and
//! the scalar tier from the portable core (`engine::stopping`).

use crate::contract::{FastStop, Stops};
use crate::reference::segment::is_continuation;

/// Bytes searched ahead of the kernel at a time: well within L1.
const AHEAD: usize = 16 * 1024;

/// The byte search's arguments for `stops` (a byte `b` is one when
/// `b + bias >= threshold`, wrapping), and whether 00 is one of them.
pub(crate) fn search(stops: Stops) -> (u8, u8, bool) {
    match stops {
        Stops::Fours => (0, 0xF0, false),
        Stops::FoursAndZero => (0xFF, 0xEF, true),
    }
}

/// The loop: `plain(rest, written, zero)` takes plain blocks (returns bytes
/// and units), `find(slice, bias, threshold)` finds the first stop,
/// `kernel(stretch, written)` runs the RFC 3629 kernel on a stretch without
/// stops. The stops are flagged as errors are.
pub(crate) fn run(
    src: &[u8],
    stops: Stops,
    mut find: impl FnMut(&[u8], u8, u8) -> usize,
    mut plain: impl FnMut(&[u8], usize, bool) -> (usize, usize),
    mut kernel: impl FnMut(&[u8], usize) -> FastStop,
) -> FastStop {
    let (bias, threshold, zero) = search(stops);
    let (mut read, mut written) = (0, 0);
    loop {
        let (bytes, units) = plain(&src[read..], written, zero);
        (read, written) = (read + bytes, written + units);
        let rest = &src[read..];
        if rest.is_empty() {
            return FastStop {
                read,
                written,
                flagged: None,
            };
        }
        let ahead = &rest[..rest.len().min(AHEAD)];
        let mut take = find(ahead, bias, threshold);
        let hit = take < ahead.len();
        if !hit && ahead.len() < rest.len() {
            // Cut the search's end back to a character boundary (three
            // bytes at most: more continuation bytes are an error, which
            // the kernel flags).
            for _ in 0..3 {
                if is_continuation(rest[take]) {
                    take -= 1;
                }
            }
        }
        let stop = kernel(&rest[..take], written);
        let base = read;
        (read, written) = (read + stop.read, written + stop.written);
        if let Some(e) = stop.flagged {
            return FastStop {
                read,
                written,
                flagged: Some(base + e),
            };
        }
        if stop.read < take {
            // Out of room, or the last bytes left to the reference core.
            return FastStop {
                read,
                written,
                flagged: None,
            };
        }
        if hit {
            return FastStop {
                read,
                written,
                flagged: Some(read),
            };
        }
    }
}
