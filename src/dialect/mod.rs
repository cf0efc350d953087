//! The UTF-8 dialects ([`Dialect`]): each read and written exactly, at the
//! standard kernels' speed wherever the text has none of the dialect's own
//! forms.
//!
//! A dialect differs from RFC 3629 in a few lead bytes ([`segment`]) and in
//! how a few code points are written ([`encode`]). Every conversion runs
//! the tier's RFC 3629 kernel up to the first place the two could differ
//! and the dialect's scalar core from there to the next boundary
//! ([`driver`]). The scalar core is the decoder of `scalar::decode` with
//! the dialect's segments, so the policies, streaming and error reports
//! mean exactly what they mean for RFC 3629.

pub(crate) mod boundary;
mod driver;
pub(crate) mod encode;
mod pairs;
mod scan;
pub(crate) mod segment;

use driver::{byte_window, drive, unit_window, Leg};
use pairs::{interleave, pair_at, scalar_of, Step};
use segment::ToUtf16;

use crate::scalar::decode::decode_with;
use crate::scalar::sink::{CountSink, SliceSink};
use crate::scalar::utf16::Utf16Sink;
use crate::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Progress};

struct Ucs4<'a> {
    engine: &'a Engine,
    dialect: Dialect,
    dst: &'a mut [u32],
    written: usize,
    policy: Policy,
}

impl Leg<u8> for Ucs4<'_> {
    fn fast(&mut self, src: &[u8]) -> Progress {
        let dst = &mut self.dst[self.written..];
        let p = self.engine.decode_ucs4(src, dst, Policy::Strict, true);
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u8], more_input: bool) -> Progress {
        let (d, policy) = (self.dialect, self.policy);
        let dst = &mut self.dst[self.written..];
        let p = if has_pairs(d) {
            interleave(src, more_input, |src, at, step| {
                let dst = &mut dst[at..];
                match step {
                    Step::Pairs => {
                        let mut n = 0;
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

struct Count<'a> {
    engine: &'a Engine,
    dialect: Dialect,
    written: usize,
    policy: Policy,
    /// Counting UTF-16 units rather than code points.
    utf16: bool,
}

impl Leg<u8> for Count<'_> {
    fn fast(&mut self, src: &[u8]) -> Progress {
        let p = if self.utf16 {
            self.engine.decode_utf16_len(src, Policy::Strict, true)
        } else {
            self.engine.count(src, Policy::Strict, true)
        };
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u8], more_input: bool) -> Progress {
        let (d, policy, utf16) = (self.dialect, self.policy, self.utf16);
        let rest = move |src: &[u8], more_input| {
            if utf16 {
                let mut sink = Utf16Sink::new(CountSink::default(), ByteOrder::Native);
                decode_with(ToUtf16(d), src, &mut sink, policy, more_input)
            } else {
                decode_with(d, src, &mut CountSink::default(), policy, more_input)
            }
        };
        let p = if has_pairs(d) {
            interleave(src, more_input, |src, _, step| match step {
                Step::Pairs => {
                    let mut n = 0;
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

struct Utf16<'a> {
    engine: &'a Engine,
    dialect: Dialect,
    dst: &'a mut [u16],
    written: usize,
    policy: Policy,
    order: ByteOrder,
}

impl Leg<u8> for Utf16<'_> {
    fn fast(&mut self, src: &[u8]) -> Progress {
        let dst = &mut self.dst[self.written..];
        let p = self
            .engine
            .decode_utf16(src, dst, Policy::Strict, self.order, true);
        self.written += p.written;
        p
    }
    fn scalar(&mut self, src: &[u8], more_input: bool) -> Progress {
        let (d, policy, order) = (self.dialect, self.policy, self.order);
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
                        let mut n = 0;
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
struct Encode<'a> {
    engine: &'a Engine,
    dialect: Dialect,
    dst: Option<&'a mut [u8]>,
    written: usize,
    policy: EncodePolicy,
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
struct EncodeUtf16<'a> {
    engine: &'a Engine,
    dialect: Dialect,
    dst: Option<&'a mut [u8]>,
    written: usize,
    policy: EncodePolicy,
    order: ByteOrder,
}

impl Leg<u16> for EncodeUtf16<'_> {
    fn fast(&mut self, src: &[u16]) -> Progress {
        let (strict, order) = (EncodePolicy::Strict, self.order);
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
                    status: crate::forms::rebase(p.status, r),
                    read: r + p.read,
                    written: w + p.written,
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
fn has_pairs(dialect: Dialect) -> bool {
    matches!(dialect, Dialect::Cesu8 | Dialect::Mutf8)
}

/// A step that consumed `read` input units and wrote `written`.
fn progress(read: usize, written: usize) -> Progress {
    Progress {
        status: crate::Status::Done,
        read,
        written,
    }
}

/// The dialect entry points of a tier; [`crate`]'s `*_in` functions run
/// them on the best tier.
impl Engine {
    /// [`Engine::decode_ucs4`] for UTF-8 in `dialect`.
    pub fn decode_ucs4_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        dst: &mut [u32],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        if dialect == Dialect::Standard {
            return self.decode_ucs4(src, dst, policy, more_input);
        }
        let mut leg = Ucs4 {
            engine: self,
            dialect,
            dst,
            written: 0,
            policy,
        };
        let special = |s: &[u8]| scan::bytes(self, dialect, s);
        drive(
            src,
            &mut leg,
            special,
            byte_window(dialect, src),
            more_input,
        )
    }

    /// [`Engine::count`] for UTF-8 in `dialect`.
    pub fn count_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        self.measure_in(dialect, src, policy, more_input, false)
    }

    /// [`Engine::decode_utf16_len`] for UTF-8 in `dialect`.
    pub fn decode_utf16_len_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        self.measure_in(dialect, src, policy, more_input, true)
    }

    fn measure_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        policy: Policy,
        more_input: bool,
        utf16: bool,
    ) -> Progress {
        match dialect {
            Dialect::Standard if utf16 => self.decode_utf16_len(src, policy, more_input),
            Dialect::Standard => self.count(src, policy, more_input),
            _ => {
                let mut leg = Count {
                    engine: self,
                    dialect,
                    written: 0,
                    policy,
                    utf16,
                };
                let special = |s: &[u8]| scan::bytes(self, dialect, s);
                drive(
                    src,
                    &mut leg,
                    special,
                    byte_window(dialect, src),
                    more_input,
                )
            }
        }
    }

    /// [`Engine::validate_chunk`] for UTF-8 in `dialect`.
    pub fn validate_in(&self, dialect: Dialect, src: &[u8], more_input: bool) -> Progress {
        if dialect == Dialect::Standard {
            return self.validate_chunk(src, more_input);
        }
        let p = self.count_in(dialect, src, Policy::Strict, more_input);
        Progress { written: 0, ..p }
    }

    /// [`Engine::decode_utf16`] for UTF-8 in `dialect`. Legacy UTF-8's
    /// values above U+10FFFF are [`crate::ErrorKind::NotRepresentable`].
    pub fn decode_utf16_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        dst: &mut [u16],
        policy: Policy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        if dialect == Dialect::Standard {
            return self.decode_utf16(src, dst, policy, order, more_input);
        }
        let mut leg = Utf16 {
            engine: self,
            dialect,
            dst,
            written: 0,
            policy,
            order,
        };
        let special = |s: &[u8]| scan::bytes(self, dialect, s);
        drive(
            src,
            &mut leg,
            special,
            byte_window(dialect, src),
            more_input,
        )
    }

    /// [`Engine::encode`] into `dialect` (`dst` `None`: only measuring, as
    /// [`Engine::encoded_len`]).
    pub fn encode_in(
        &self,
        dialect: Dialect,
        src: &[u32],
        dst: Option<&mut [u8]>,
        policy: EncodePolicy,
    ) -> Progress {
        match (dialect, dst) {
            (Dialect::Standard, Some(dst)) => self.encode(src, dst, policy),
            (Dialect::Standard, None) => self.encoded_len(src, policy),
            (_, dst) => {
                let mut leg = Encode {
                    engine: self,
                    dialect,
                    dst,
                    written: 0,
                    policy,
                };
                let special = |s: &[u32]| scan::code_points(dialect, s);
                let window = unit_window(src, |c| (0xD800..0xDC00).contains(&c));
                drive(src, &mut leg, special, window, false)
            }
        }
    }

    /// [`Engine::encode_utf16`] into `dialect` (`dst` `None`: only
    /// measuring, as [`Engine::encode_utf16_len`]).
    pub fn encode_utf16_in(
        &self,
        dialect: Dialect,
        src: &[u16],
        dst: Option<&mut [u8]>,
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        match (dialect, dst) {
            (Dialect::Standard, Some(dst)) => {
                self.encode_utf16(src, dst, policy, order, more_input)
            }
            (Dialect::Standard, None) => self.encode_utf16_len(src, policy, order, more_input),
            (_, dst) => {
                let mut leg = EncodeUtf16 {
                    engine: self,
                    dialect,
                    dst,
                    written: 0,
                    policy,
                    order,
                };
                let special = |s: &[u16]| scan::units(dialect, s, order);
                let swap = order.swaps();
                let is_high = move |u: u16| {
                    let u = if swap { u.swap_bytes() } else { u };
                    (0xD800..0xDC00).contains(&u)
                };
                drive(
                    src,
                    &mut leg,
                    special,
                    unit_window(src, is_high),
                    more_input,
                )
            }
        }
    }
}

#[cfg(test)]
mod tests;
