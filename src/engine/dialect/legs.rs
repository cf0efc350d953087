//! The conversions in a dialect as [`Leg`]s of the driver: each one's
//! RFC 3629 kernel and the dialect's reference core, writing to the same
//! output.

use super::driver::Leg;
use crate::contract::FastStop;
use crate::dialect::encode;
use crate::dialect::pairs::{interleave, pair_at, scalar_of, Step};
use crate::dialect::scan::stops;
use crate::dialect::segment::ToUtf16;
use crate::reference::decode::decode_with;
use crate::reference::sink::{CountSink, SliceSink};
use crate::reference::utf16::Utf16Sink;
use crate::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Progress};

pub(super) struct Ucs4<'a> {
    pub(super) engine: &'a Engine,
    pub(super) dialect: Dialect,
    pub(super) dst: &'a mut [u32],
    pub(super) written: usize,
    pub(super) policy: Policy,
}

impl Leg<u8> for Ucs4<'_> {
    fn fast(&mut self, src: &[u8]) -> Progress {
        let dst = &mut self.dst[self.written..];
        let p = match stops(self.dialect) {
            Some(s) => from_stop(self.engine.decode_stopping(src, dst, s)),
            None => self.engine.decode_ucs4(src, dst, Policy::Strict, true),
        };
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u8], more_input: bool) -> Progress {
        let (d, policy, engine) = (self.dialect, self.policy, self.engine);
        let dst = &mut self.dst[self.written..];
        let p = if has_pairs(d) {
            interleave(src, more_input, |src, at, step| {
                let dst = &mut dst[at..];
                match step {
                    Step::Pairs => {
                        let mut n = engine.pairs_kernel(src, dst);
                        while let (Some(pair), Some(slot)) =
                            (pair_at(&src[6 * n..]), dst.get_mut(n))
                        {
                            *slot = scalar_of(pair);
                            n += 1;
                        }
                        progress(6 * n, n)
                    }
                    Step::Rest { more_input } => {
                        decode_with(d, src, &mut SliceSink::new(dst), policy, more_input)
                    }
                }
            })
        } else {
            decode_with(d, src, &mut SliceSink::new(dst), policy, more_input)
        };
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

pub(super) struct Count<'a> {
    pub(super) engine: &'a Engine,
    pub(super) dialect: Dialect,
    pub(super) written: usize,
    pub(super) policy: Policy,
    /// Counting UTF-16 units rather than code points.
    pub(super) utf16: bool,
    /// Only validating: the count is not wanted, and the fast path is the
    /// tier's validation.
    pub(super) validate: bool,
}

impl Leg<u8> for Count<'_> {
    fn fast(&mut self, src: &[u8]) -> Progress {
        let p = match (stops(self.dialect), self.validate) {
            (Some(s), true) => from_stop(self.engine.validate_stopping(src, s)),
            (Some(s), false) => from_stop(self.engine.count_stopping(src, s, self.utf16)),
            (None, true) => self.engine.validate_chunk(src, true),
            (None, false) if self.utf16 => self.engine.decode_utf16_len(src, Policy::Strict, true),
            (None, false) => self.engine.count(src, Policy::Strict, true),
        };
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u8], more_input: bool) -> Progress {
        let (d, policy, utf16, engine) = (self.dialect, self.policy, self.utf16, self.engine);
        let rest = move |src: &[u8], more_input| {
            if utf16 {
                let mut sink = Utf16Sink::new(CountSink::default(), ByteOrder::Native);
                decode_with(ToUtf16(d), src, &mut sink, policy, more_input)
            } else {
                decode_with(d, src, &mut CountSink::default(), policy, more_input)
            }
        };
        // The tier's pair kernel checks what counting and validating need;
        // its code points go to this buffer, which stays in L1 (Emoji
        // validated 4x as fast as a pair at a time). Set up once a window,
        // not once a run of pairs.
        let mut scratch = [0u32; 256];
        let p = if has_pairs(d) {
            interleave(src, more_input, |src, _, step| match step {
                Step::Pairs => {
                    let mut n = 0;
                    loop {
                        let taken = engine.pairs_kernel(&src[6 * n..], &mut scratch);
                        if taken == 0 {
                            break;
                        }
                        n += taken;
                    }
                    while pair_at(&src[6 * n..]).is_some() {
                        n += 1;
                    }
                    progress(6 * n, if utf16 { 2 * n } else { n })
                }
                Step::Rest { more_input } => rest(src, more_input),
            })
        } else {
            rest(src, more_input)
        };
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

pub(super) struct Utf16<'a> {
    pub(super) engine: &'a Engine,
    pub(super) dialect: Dialect,
    pub(super) dst: &'a mut [u16],
    pub(super) written: usize,
    pub(super) policy: Policy,
    pub(super) order: ByteOrder,
}

impl Leg<u8> for Utf16<'_> {
    fn fast(&mut self, src: &[u8]) -> Progress {
        let (dst, order) = (&mut self.dst[self.written..], self.order);
        let p = match stops(self.dialect) {
            Some(s) => from_stop(self.engine.decode_utf16_stopping(src, dst, order, s)),
            None => self
                .engine
                .decode_utf16(src, dst, Policy::Strict, order, true),
        };
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u8], more_input: bool) -> Progress {
        let (d, policy, order, engine) = (self.dialect, self.policy, self.order, self.engine);
        let dst = &mut self.dst[self.written..];
        let rest = |src: &[u8], dst: &mut [u16], more_input| {
            let mut sink = Utf16Sink::new(SliceSink::new(dst), order);
            decode_with(ToUtf16(d), src, &mut sink, policy, more_input)
        };
        let p = if has_pairs(d) {
            let swap = order.swaps();
            interleave(src, more_input, |src, at, step| {
                let dst = &mut dst[at..];
                match step {
                    Step::Pairs => {
                        let mut n = engine.pairs_utf16_kernel(src, dst, swap);
                        while let (Some(pair), Some(slots)) =
                            (pair_at(&src[6 * n..]), dst.get_mut(2 * n..2 * n + 2))
                        {
                            slots.copy_from_slice(
                                &pair.map(|u| if swap { u.swap_bytes() } else { u }),
                            );
                            n += 1;
                        }
                        progress(6 * n, 2 * n)
                    }
                    Step::Rest { more_input } => rest(src, dst, more_input),
                }
            })
        } else {
            rest(src, dst, more_input)
        };
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// Encoding code points (`dst` `None`: only measuring).
pub(super) struct Encode<'a> {
    pub(super) engine: &'a Engine,
    pub(super) dialect: Dialect,
    pub(super) dst: Option<&'a mut [u8]>,
    pub(super) written: usize,
    pub(super) policy: EncodePolicy,
}

impl Leg<u32> for Encode<'_> {
    fn fast(&mut self, src: &[u32]) -> Progress {
        let p = match &mut self.dst {
            Some(dst) => {
                let dst = &mut dst[self.written..];
                self.engine.encode(src, dst, EncodePolicy::Strict)
            }
            None => self.engine.encoded_len(src, EncodePolicy::Strict),
        };
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u32], _more_input: bool) -> Progress {
        let p = match &mut self.dst {
            Some(dst) => {
                let sink = &mut SliceSink::new(&mut dst[self.written..]);
                encode::encode(self.dialect, src, sink, self.policy)
            }
            None => encode::encode(self.dialect, src, &mut CountSink::default(), self.policy),
        };
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// Encoding UTF-16 (`dst` `None`: only measuring).
pub(super) struct EncodeUtf16<'a> {
    pub(super) engine: &'a Engine,
    pub(super) dialect: Dialect,
    pub(super) dst: Option<&'a mut [u8]>,
    pub(super) written: usize,
    pub(super) policy: EncodePolicy,
    pub(super) order: ByteOrder,
}

impl EncodeUtf16<'_> {
    /// Whether [`Leg::fast`] runs the tier's CESU-8 kernel, which writes
    /// the dialect's pairs (and Modified UTF-8's U+0000) itself: then the
    /// fast path needs no scan before it.
    pub(super) fn dialect_kernel(&self) -> bool {
        self.dst.is_some() && has_pairs(self.dialect) && self.engine.has_cesu_kernel()
    }
}

impl Leg<u16> for EncodeUtf16<'_> {
    fn fast(&mut self, src: &[u16]) -> Progress {
        let (strict, order) = (EncodePolicy::Strict, self.order);
        if let (Some(dst), true) = (&mut self.dst, has_pairs(self.dialect)) {
            let dst = &mut dst[self.written..];
            let mutf8 = self.dialect == Dialect::Mutf8;
            if let Some(stop) = self
                .engine
                .encode_utf16_cesu_kernel(src, dst, order.swaps(), mutf8)
            {
                // Where it stopped (an unpaired surrogate, a high one that
                // ends the input, or no room), the reference core goes on.
                self.written += stop.written;
                return progress(stop.read, stop.written);
            }
        }
        let p = match &mut self.dst {
            Some(dst) => {
                let dst = &mut dst[self.written..];
                self.engine.encode_utf16(src, dst, strict, order, true)
            }
            None => self.engine.encode_utf16_len(src, strict, order, true),
        };
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u16], more_input: bool) -> Progress {
        let (d, policy, order) = (self.dialect, self.policy, self.order);
        let p = match &mut self.dst {
            Some(dst) if has_pairs(d) => {
                // Runs of well-formed units in a tight loop; the general
                // loop from the first unit it leaves.
                let dst = &mut dst[self.written..];
                let mutf8 = d == Dialect::Mutf8;
                let (r, w) = encode::cesu_from_utf16(src, dst, order.swaps(), mutf8);
                let sink = &mut SliceSink::new(&mut dst[w..]);
                let p = encode::encode_utf16(d, &src[r..], sink, policy, order, more_input);
                Progress {
                    status: crate::contract::rebase(p.status, r),
                    read: r + p.read,
                    written: w + p.written,
                    handled: p.handled,
                }
            }
            Some(dst) => {
                let sink = &mut SliceSink::new(&mut dst[self.written..]);
                encode::encode_utf16(d, src, sink, policy, order, more_input)
            }
            None => {
                let sink = &mut CountSink::default();
                encode::encode_utf16(d, src, sink, policy, order, more_input)
            }
        };
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// Whether `dialect` writes supplementary characters as pairs of 3-byte
/// surrogates.
pub(super) fn has_pairs(dialect: Dialect) -> bool {
    matches!(dialect, Dialect::Cesu8 | Dialect::Mutf8)
}

/// The fast path's progress from a stopping kernel: wherever it stopped
/// (at a stop or an error it flagged, or for room), the reference core goes
/// on, and reports what the kernel could not.
fn from_stop(stop: FastStop) -> Progress {
    progress(stop.read, stop.written)
}

/// A step that consumed `read` input units and wrote `written`.
fn progress(read: usize, written: usize) -> Progress {
    Progress {
        status: crate::Status::Done,
        read,
        written,
        handled: 0,
    }
}
