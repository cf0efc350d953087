//! CESU-8 and Modified UTF-8 on the tiers whose kernels do not stop at
//! those dialects' forms themselves: decoding on AVX2 and SSE4.2 (the
//! AVX-512 decoder does, see `avx512::decode`), validation on every tier.
//!
//! A separate byte search ahead of an RFC 3629 kernel costs a pass over
//! the input, which on ASCII text (widened at the store bandwidth, or
//! validated faster still) made these dialects run at 0.35-0.7x RFC 3629.
//! So runs of plain ASCII blocks are taken first, by a pass that stops at
//! 00 as at any other non-ASCII byte (of the stops, only Modified UTF-8's
//! 00 is ASCII; see `plain_runs`); past them, the tier's byte search finds
//! the next stop within [`AHEAD`] bytes, and the tier's RFC 3629 kernel
//! takes what precedes it while it is still in L1.

use crate::arch::kernels::{DecodeKernel, DecodeU16Kernel, FindByteKernel, ScanKernel, Stops};
use crate::arch::FastStop;
use crate::scalar::segment::is_continuation;

/// Bytes searched ahead of the kernel at a time: well within L1.
const AHEAD: usize = 16 * 1024;

/// Widens the plain blocks at the start of a slice into the `cap` units
/// at the pointer (swapped with the first flag; 00 a stop with the second).
pub(super) type PlainUnits = unsafe fn(&[u8], *mut u16, usize, bool, bool) -> usize;
/// Widens the plain blocks into the `cap` code points at the pointer
/// (00 a stop with the flag).
pub(super) type PlainScalars = unsafe fn(&[u8], *mut u32, usize, bool) -> usize;
/// The bytes in the plain blocks at the start of a slice (00 a stop with
/// the flag).
pub(super) type PlainSkip = unsafe fn(&[u8], bool) -> usize;

/// The byte search's arguments for `stops` (see `find`), and whether 00
/// is one of them.
fn search(stops: Stops) -> (u8, u8, bool) {
    match stops {
        Stops::Fours => (0, 0xF0, false),
        Stops::FoursAndZero => (0xFF, 0xEF, true),
    }
}

/// The loop: `plain(rest, written, zero)` takes plain blocks (bytes and
/// units), `kernel(stretch, written)` runs the RFC 3629 kernel on a stretch
/// without stops; the stops are flagged.
///
/// # Safety
/// `find` must be callable on this CPU.
unsafe fn run(
    src: &[u8],
    stops: Stops,
    find: FindByteKernel,
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
        // SAFETY: the caller's promise.
        let mut take = unsafe { find(ahead, bias, threshold) };
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

/// A `StopDecodeU16Kernel` from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU; `out` points to `cap` writable
/// units.
pub(super) unsafe fn decode_utf16(
    (find, plain, decode): (FindByteKernel, PlainUnits, DecodeU16Kernel),
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
    stops: Stops,
) -> FastStop {
    // SAFETY (each call below): the parts are callable (the caller's
    // promise), and `out + written` has `cap - written` units.
    unsafe {
        run(
            src,
            stops,
            find,
            |s, w, zero| {
                let n = plain(s, out.add(w), cap - w, swap, zero);
                (n, n)
            },
            |s, w| decode(s, out.add(w), cap - w, swap),
        )
    }
}

/// A `StopDecodeKernel` from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU; `out` points to `cap` writable
/// code points.
pub(super) unsafe fn decode(
    (find, plain, decode): (FindByteKernel, PlainScalars, DecodeKernel),
    src: &[u8],
    out: *mut u32,
    cap: usize,
    stops: Stops,
) -> FastStop {
    // SAFETY (each call below): the parts are callable (the caller's
    // promise), and `out + written` has `cap - written` code points.
    unsafe {
        run(
            src,
            stops,
            find,
            |s, w, zero| {
                let n = plain(s, out.add(w), cap - w, zero);
                (n, n)
            },
            |s, w| decode(s, out.add(w), cap - w),
        )
    }
}

/// A `StopScanKernel` validating, from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU.
pub(super) unsafe fn validate(
    (find, plain, validate): (FindByteKernel, PlainSkip, ScanKernel<u8>),
    src: &[u8],
    stops: Stops,
) -> FastStop {
    // SAFETY (each call below): the parts are callable (the caller's
    // promise).
    unsafe {
        run(
            src,
            stops,
            find,
            |s, _, zero| (plain(s, zero), 0),
            |s, _| validate(s),
        )
    }
}
