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
//! `portable::stopping::AHEAD` bytes, and the RFC 3629 kernel takes what precedes it while it
//! is still in L1. The loop is the portable core's (`portable::stopping`);
//! the vector tiers bring their own parts (`arch::generic::stopping`), and
//! the scalar tier's are here, over the portable core.

use super::Engine;
use crate::contract::{FastStop, Stops};
use crate::portable::ascii;
use crate::portable::stopping::run;
use crate::{ByteOrder, Policy, Progress, Status};

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

/// The first stop in `src`, with this tier's search kernel.
fn find(engine: &Engine, src: &[u8], bias: u8, threshold: u8) -> usize {
    engine.kernels.find_byte().run(src, bias, threshold)
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
