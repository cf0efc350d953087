//! CESU-8 and Modified UTF-8 to UTF-16 on the tiers whose decoders do not
//! stop at those dialects' forms themselves (AVX2 and SSE4.2; the AVX-512
//! decoder does, see `avx512::decode`).
//!
//! A separate byte search ahead of the RFC 3629 decoder costs a pass over
//! the input, which on ASCII text (widened at the store bandwidth) made
//! these dialects run at 0.6-0.7x RFC 3629. So runs of ASCII blocks are
//! widened first by a pass that stops at 00 as at any other non-ASCII byte
//! (of the stops, only Modified UTF-8's 00 is ASCII); past them, the tier's
//! byte search finds the next stop within [`AHEAD`] bytes, and the tier's
//! RFC 3629 decoder takes what precedes it while it is still in L1.

use crate::arch::kernels::{DecodeU16Kernel, FindByteKernel, Stops};
use crate::arch::FastStop;
use crate::scalar::segment::is_continuation;

/// Bytes searched ahead of the decoder at a time: well within L1.
const AHEAD: usize = 16 * 1024;

/// A tier's parts for [`decode_utf16`].
pub(super) struct Parts {
    /// Widens whole ASCII blocks into units, also stopping at a block with
    /// 00 when the flag is set; returns how many bytes it widened.
    pub ascii_units: unsafe fn(&[u8], *mut u16, usize, bool, bool) -> usize,
    pub find: FindByteKernel,
    pub decode_utf16: DecodeU16Kernel,
}

/// `DecodeU16Kernel` that also stops at `stops`, flagging them, from a
/// tier's `parts`.
///
/// # Safety
/// The CPU must support the features of the tier whose parts these are;
/// `out` points to `cap` writable units.
pub(super) unsafe fn decode_utf16(
    parts: &Parts,
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
    stops: Stops,
) -> FastStop {
    let (bias, threshold, zero) = match stops {
        Stops::Fours => (0, 0xF0, false),
        Stops::FoursAndZero => (0xFF, 0xEF, true),
    };
    let (mut read, mut written) = (0, 0);
    loop {
        // SAFETY: `out + written` has `cap - written` units; the CPU has
        // the tier's features (the caller's promise).
        let run = unsafe {
            (parts.ascii_units)(&src[read..], out.add(written), cap - written, swap, zero)
        };
        (read, written) = (read + run, written + run);
        let rest = &src[read..];
        if rest.is_empty() {
            return FastStop {
                read,
                written,
                flagged: None,
            };
        }
        let ahead = &rest[..rest.len().min(AHEAD)];
        // SAFETY: as above.
        let mut take = unsafe { (parts.find)(ahead, bias, threshold) };
        let hit = take < ahead.len();
        if !hit && ahead.len() < rest.len() {
            // Cut the search's end back to a character boundary (three
            // bytes at most: more continuation bytes are an error, which
            // the decoder flags).
            for _ in 0..3 {
                if is_continuation(rest[take]) {
                    take -= 1;
                }
            }
        }
        // SAFETY: as above.
        let stop =
            unsafe { (parts.decode_utf16)(&rest[..take], out.add(written), cap - written, swap) };
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
            // Out of room, or the last bytes left to the scalar core.
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
