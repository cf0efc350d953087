//! Conversions that stop at CESU-8's and Modified UTF-8's forms (their
//! [`Stops`]), built from RFC 3629 kernels that do not. The AVX-512
//! decoders stop by themselves; everything else runs the loop here.
//!
//! A byte search for the stops ahead of an RFC 3629 kernel costs a pass
//! over the input, which on ASCII text (widened at the store bandwidth, or
//! validated faster still) made these dialects run at 0.35-0.7x RFC 3629.
//! So runs of plain ASCII blocks are taken first, by a pass that stops at
//! 00 as at any other non-ASCII byte (of the stops, only Modified UTF-8's
//! 00 is ASCII); past them, the byte search finds the next stop within
//! [`AHEAD`] bytes, and the RFC 3629 kernel takes what precedes it while it
//! is still in L1. The vector tiers bring their own parts
//! (`generic::stopping`); the scalar tier's are here, over the portable core.

use super::Engine;
use crate::contract::{FastStop, Stops};
use crate::portable::ascii;
use crate::reference::segment::is_continuation;
use crate::{ByteOrder, Policy, Progress, Status};

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

/// The bytes in the whole plain 32-byte blocks at the start of `src`
/// (with `zero`, 01..7F; else 00..7F), at most `limit`.
fn plain_len(src: &[u8], limit: usize, zero: bool) -> usize {
    let src = &src[..src.len().min(limit)];
    // 128 bytes a test (see `group_ascii_nonzero`; with the flags of
    // `all_ascii_nonzero`, 64 ran Latin text's Modified UTF-8 validation at
    // 64 GB/s, 128 at 81, 256 at 77), then a block at a time.
    let plain_group = |group| {
        if zero {
            ascii::group_ascii_nonzero(group)
        } else {
            ascii::group_is_ascii(group)
        }
    };
    let n = src
        .chunks_exact(4 * ascii::BLOCK)
        .take_while(|&group| plain_group(group))
        .count()
        * 4
        * ascii::BLOCK;
    if zero {
        n + plain_blocks(&src[n..], |block| ascii::all_ascii_nonzero(block))
    } else {
        n + plain_blocks(&src[n..], ascii::block_is_ascii)
    }
}

/// The bytes in the whole blocks at the start of `src` that pass `plain`.
#[inline(always)]
fn plain_blocks(src: &[u8], plain: impl Fn(&[u8; ascii::BLOCK]) -> bool) -> usize {
    src.chunks_exact(ascii::BLOCK)
        .take_while(|&block| plain(block.try_into().expect("a whole block")))
        .count()
        * ascii::BLOCK
}

/// A kernel's stop from the progress of an RFC 3629 conversion that was
/// strict and expected more input.
fn stop_of(p: Progress) -> FastStop {
    let flagged = match p.status {
        Status::Done | Status::OutputFull => None,
        Status::IllFormed(_) | Status::Incomplete { .. } => Some(p.read),
    };
    FastStop {
        read: p.read,
        written: p.written,
        flagged,
    }
}

/// The first stop in `src`, with this tier's search kernel if it has one.
fn find(engine: &Engine, src: &[u8], bias: u8, threshold: u8) -> usize {
    engine
        .find_byte_kernel(src, bias, threshold)
        .unwrap_or_else(|| {
            // Blocks with no branch inside, which the compiler vectorises.
            let hit = |b: u8| b.wrapping_add(bias) >= threshold;
            let mut i = 0;
            for block in src.chunks_exact(64) {
                if block.iter().fold(false, |any, &b| any | hit(b)) {
                    break;
                }
                i += 64;
            }
            i + src[i..]
                .iter()
                .position(|&b| hit(b))
                .unwrap_or(src.len() - i)
        })
}

impl Engine {
    /// [`Engine::decode_stopping_kernel`], or this loop over the portable
    /// core on a tier without one.
    pub(crate) fn decode_stopping(&self, src: &[u8], dst: &mut [u32], stops: Stops) -> FastStop {
        if let Some(stop) = self.decode_stopping_kernel(src, dst, stops) {
            return stop;
        }
        let dst = core::cell::RefCell::new(dst);
        run(
            src,
            stops,
            |s, b, t| find(self, s, b, t),
            |s, w, zero| {
                let out = &mut dst.borrow_mut()[w..];
                let n = plain_len(s, out.len(), zero);
                for (d, &b) in out.iter_mut().zip(&s[..n]) {
                    *d = u32::from(b);
                }
                (n, n)
            },
            |s, w| stop_of(self.decode_ucs4(s, &mut dst.borrow_mut()[w..], Policy::Strict, true)),
        )
    }

    /// [`Engine::decode_utf16_stopping_kernel`], or this loop over the
    /// portable core on a tier without one.
    pub(crate) fn decode_utf16_stopping(
        &self,
        src: &[u8],
        dst: &mut [u16],
        order: ByteOrder,
        stops: Stops,
    ) -> FastStop {
        if let Some(stop) = self.decode_utf16_stopping_kernel(src, dst, order, stops) {
            return stop;
        }
        let swap = order.swaps();
        let dst = core::cell::RefCell::new(dst);
        run(
            src,
            stops,
            |s, b, t| find(self, s, b, t),
            |s, w, zero| {
                let out = &mut dst.borrow_mut()[w..];
                let n = plain_len(s, out.len(), zero);
                for (d, &b) in out.iter_mut().zip(&s[..n]) {
                    *d = if swap {
                        u16::from(b) << 8
                    } else {
                        u16::from(b)
                    };
                }
                (n, n)
            },
            |s, w| {
                let out = &mut dst.borrow_mut()[w..];
                stop_of(self.decode_utf16(s, out, Policy::Strict, order, true))
            },
        )
    }

    /// [`Engine::validate_stopping_kernel`], or this loop over the
    /// portable core on a tier without one.
    pub(crate) fn validate_stopping(&self, src: &[u8], stops: Stops) -> FastStop {
        if let Some(stop) = self.validate_stopping_kernel(src, stops) {
            return stop;
        }
        run(
            src,
            stops,
            |s, b, t| find(self, s, b, t),
            |s, _, zero| (plain_len(s, s.len(), zero), 0),
            |s, _| stop_of(self.validate_chunk(s, true)),
        )
    }

    /// Counts what decoding would write (UTF-16 units with `utf16`, else
    /// code points) with this loop: there are no stopping counters.
    pub(crate) fn count_stopping(&self, src: &[u8], stops: Stops, utf16: bool) -> FastStop {
        run(
            src,
            stops,
            |s, b, t| find(self, s, b, t),
            |s, _, zero| {
                let n = plain_len(s, s.len(), zero);
                (n, n)
            },
            |s, _| {
                stop_of(if utf16 {
                    self.decode_utf16_len(s, Policy::Strict, true)
                } else {
                    self.count(s, Policy::Strict, true)
                })
            },
        )
    }
}
