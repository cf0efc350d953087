//! UTF-8 <-> UTF-16: the tier's UTF-16 kernels over the valid stretches and
//! the reference core at each error, in the shared loop; measuring (a
//! NULL output) takes the same shape with the tier's counting kernels.

use super::run::{run, utf8_window, Output};
use super::ucs4::{short_ascii, Count};
use crate::arch::kernels::{EncodeU16Kernel, Fast};
use crate::arch::Kernels;
use crate::contract::{rebase, FastStop};
use crate::reference::sink::CountSink;
use crate::reference::sink::SliceSink;
use crate::reference::utf16 as reference;
use crate::reference::utf16::Utf16Sink;
use crate::{ByteOrder, EncodePolicy, Engine, Policy, Progress, Status};

impl Engine {
    /// See [`crate::decode_utf16`].
    pub fn decode_utf16(
        &self,
        src: &[u8],
        dst: &mut [u16],
        policy: Policy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        if src.len() <= SHORT && src.len() <= dst.len() && src.is_ascii() {
            // A short ASCII string: widened in place, no kernel set-up.
            let shift = if order.swaps() { 8 } else { 0 };
            for (d, &b) in dst.iter_mut().zip(src) {
                *d = u16::from(b) << shift;
            }
            return done(src.len());
        }
        decode_utf16(self.kernels, src, dst, policy, order, more_input)
    }

    /// See [`crate::decode_utf16_len`]: the UTF-16 units that decoding
    /// writes, counted by the tier's validating classification over the
    /// valid stretches and by the reference core at each error.
    pub fn decode_utf16_len(&self, src: &[u8], policy: Policy, more_input: bool) -> Progress {
        count_utf16(self.kernels, src, policy, more_input)
    }

    /// See [`crate::encode_utf16`].
    pub fn encode_utf16(
        &self,
        src: &[u16],
        dst: &mut [u8],
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        if src.len() <= SHORT && src.len() <= dst.len() {
            let swap = order.swaps();
            let unit = |u: u16| if swap { u.swap_bytes() } else { u };
            if unit(src.iter().fold(0, |acc, &u| acc | u)) < 0x80 {
                // Short and all ASCII: narrowed in place, no kernel set-up.
                for (d, &u) in dst.iter_mut().zip(src) {
                    *d = unit(u) as u8;
                }
                return done(src.len());
            }
        }
        if src.len() <= SHORT_PLAIN {
            let swap = order.swaps();
            if let Some(written) = crate::portable::encode_short::encode_short_utf16(src, dst, swap)
            {
                return super::run::done(src.len(), written);
            }
        }
        encode_utf16(self.kernels, src, dst, policy, order, more_input)
    }

    /// See [`crate::encode_utf16_len`]: the bytes that encoding writes,
    /// measured as the encoder runs (the valid stretches by the tier's
    /// UTF-16 validation and size kernels, each unpaired surrogate by the
    /// reference core).
    pub fn encode_utf16_len(
        &self,
        src: &[u16],
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let mut out = EncodedLen {
            engine: *self,
            order,
            written: 0,
            policy,
            more_input,
        };
        // An unpaired surrogate is handled alone.
        run(src, &mut out, |i| i + 1)
    }

    /// See [`crate::validate_utf16`].
    pub fn validate_utf16(&self, src: &[u16], order: ByteOrder, more_input: bool) -> Progress {
        // The vector loop takes all but the last block before the first
        // error or the end; the reference core reads the rest exactly.
        let read = self.kernels.loops().valid_utf16_prefix(src, order.swaps());
        let p = reference::validate(&src[read..], order, more_input);
        Progress {
            status: rebase(p.status, read),
            read: read + p.read,
            written: 0,
            handled: 0,
        }
    }

    /// The longest prefix of `src` that is well-formed UTF-16 and does not
    /// end on a high surrogate: where the first unpaired surrogate is, or
    /// a high one ending the input.
    fn utf16_valid_to(&self, src: &[u16], order: ByteOrder) -> usize {
        let read = self.kernels.loops().valid_utf16_prefix(src, order.swaps());
        read + reference::validate(&src[read..], order, true).read
    }
}

/// Measuring UTF-16 to UTF-8 (`encode_utf16_len`) in the shared loop.
struct EncodedLen {
    engine: Engine,
    order: ByteOrder,
    written: usize,
    policy: EncodePolicy,
    more_input: bool,
}

impl Output<u16> for EncodedLen {
    fn fast(&mut self, src: &[u16]) -> FastStop {
        let read = self.engine.utf16_valid_to(src, self.order);
        let written = self
            .engine
            .kernels
            .utf8_len_utf16()
            .run(&src[..read], self.order.swaps());
        self.written += written;
        // A high surrogate ending the input is left to the reference core
        // with the rest, unflagged: with more input it may be paired.
        let cut = read + 1 == src.len();
        FastStop {
            read,
            written,
            flagged: (read < src.len() && !cut).then_some(read),
        }
    }
    fn scalar(&mut self, src: &[u16], last: bool) -> Progress {
        let more = self.more_input && last;
        let p = reference::encode(
            src,
            &mut CountSink::default(),
            self.policy,
            self.order,
            more,
        );
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

struct DecodeUtf16<'a, F> {
    fast: F,
    dst: &'a mut [u16],
    written: usize,
    policy: Policy,
    order: ByteOrder,
    more_input: bool,
}

impl<F: FnMut(&[u8], &mut [u16], bool) -> FastStop> Output<u8> for DecodeUtf16<'_, F> {
    fn fast(&mut self, src: &[u8]) -> FastStop {
        let stop = (self.fast)(src, &mut self.dst[self.written..], self.order.swaps());
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u8], last: bool) -> Progress {
        let dst = SliceSink::new(&mut self.dst[self.written..]);
        let mut sink = Utf16Sink::new(dst, self.order);
        let p =
            crate::reference::decode::decode(src, &mut sink, self.policy, self.more_input && last);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// UTF-8 to UTF-16 with the tier's kernel.
pub(super) fn decode_utf16(
    k: &Kernels,
    src: &[u8],
    dst: &mut [u16],
    policy: Policy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    let window = utf8_window(src);
    let kernel = k.decode_utf16();
    let mut out = DecodeUtf16 {
        fast: |src: &[u8], dst: &mut [u16], swap| kernel.run(src, dst, swap),
        dst,
        written: 0,
        policy,
        order,
        more_input,
    };
    run(src, &mut out, window)
}

/// The UTF-16 units decoding would write: `ucs4::count`'s way, with the
/// tier's classification (validation that counts characters and 4-byte
/// characters in one pass) as the validating count.
pub(super) fn count_utf16(k: &Kernels, src: &[u8], policy: Policy, more_input: bool) -> Progress {
    if short_ascii(src) {
        return super::run::done(src.len(), src.len());
    }
    let mut out = Count {
        fast: |s: &[u8]| {
            let (stop, stats) = super::classify::valid_stats(k, s);
            FastStop {
                written: stats.leads + stats.fours,
                ..stop
            }
        },
        written: 0,
        policy,
        more_input,
        utf16: true,
    };
    run(src, &mut out, utf8_window(src))
}

struct EncodeUtf16<'a> {
    fast: Fast<EncodeU16Kernel>,
    dst: &'a mut [u8],
    written: usize,
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
}

impl Output<u16> for EncodeUtf16<'_> {
    fn fast(&mut self, src: &[u16]) -> FastStop {
        let stop = self
            .fast
            .run(src, &mut self.dst[self.written..], self.order.swaps());
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u16], last: bool) -> Progress {
        let mut sink = SliceSink::new(&mut self.dst[self.written..]);
        let more = self.more_input && last;
        let p = crate::reference::utf16::encode(src, &mut sink, self.policy, self.order, more);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// UTF-16 to UTF-8 with the tier's kernel. An unpaired
/// surrogate the kernel flags is handled alone by the reference core (it is
/// unpaired, so its window is the one unit).
pub(super) fn encode_utf16(
    k: &Kernels,
    src: &[u16],
    dst: &mut [u8],
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    let mut out = EncodeUtf16 {
        fast: k.encode_utf16(),
        dst,
        written: 0,
        policy,
        order,
        more_input,
    };
    run(src, &mut out, |i| i + 1)
}

/// Up to this many units, an ASCII string is converted in place: a kernel
/// call's set-up costs more (`cargo bench --bench forms -- --short`).
const SHORT: usize = 64;

/// Up to this many units, a string that is not all ASCII is encoded by one
/// plain loop ([`crate::portable::encode_short::encode_short_utf16`]) rather than
/// the tier's kernel, whose set-up costs more (`cargo bench --bench short`).
const SHORT_PLAIN: usize = 6;

/// All of `n` units read and written.
fn done(n: usize) -> Progress {
    Progress {
        status: Status::Done,
        read: n,
        written: n,
        handled: 0,
    }
}

/// The scalar tier is the one the other tiers' tests compare against: here
/// its UTF-16 conversions are compared with the reference core directly,
/// under every policy and byte order, with and without more input, at
/// every output capacity, on random text with damage.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::decode as reference_decode;
    use crate::reference::sink::SliceSink;
    use crate::reference::utf16::Utf16Sink;
    use crate::samples::{text, Rng, ENCODE_POLICIES, POLICIES};
    use crate::Tier;

    /// UTF-16 of characters of every UTF-8 length, with `damage` units
    /// made lone surrogates.
    fn utf16(rng: &mut Rng, len: usize, damage: usize) -> Vec<u16> {
        let text = text(rng, len, 40, 0);
        let mut v: Vec<u16> = String::from_utf8_lossy(&text).encode_utf16().collect();
        for _ in 0..damage.min(v.len()) {
            let at = rng.below(v.len() as u64) as usize;
            v[at] = 0xD800 + rng.below(0x800) as u16;
        }
        v
    }

    const ORDERS: [ByteOrder; 2] = [ByteOrder::Little, ByteOrder::Big];

    #[test]
    fn scalar_tier_decodes_utf16_as_the_reference_core() {
        let e = Engine::new(Tier::Scalar).expect("the scalar tier");
        let mut rng = Rng(0x16DE);
        for round in 0..400 {
            let src = text(
                &mut rng,
                if round % 8 == 0 { 600 } else { 60 },
                40,
                round % 3,
            );
            let full = src.len() + 1;
            let caps: Vec<usize> = if src.len() <= 80 {
                (0..=full).collect()
            } else {
                vec![full, full / 2, rng.below(full as u64) as usize]
            };
            for policy in POLICIES {
                for order in ORDERS {
                    for more in [false, true] {
                        for &cap in &caps {
                            let mut a = vec![0xAAAAu16; cap];
                            let mut b = vec![0xAAAAu16; cap];
                            let pa = e.decode_utf16(&src, &mut a, policy, order, more);
                            let mut sink = Utf16Sink::new(SliceSink::new(&mut b), order);
                            let pb = reference_decode::decode(&src, &mut sink, policy, more);
                            let what = || format!("{src:02X?} {policy:?} {order:?} {more} {cap}");
                            assert_eq!(pa, pb, "{}", what());
                            assert_eq!(a, b, "{}", what());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn scalar_tier_encodes_utf16_as_the_reference_core() {
        let e = Engine::new(Tier::Scalar).expect("the scalar tier");
        let mut rng = Rng(0x16E4);
        for round in 0..400 {
            let src = utf16(&mut rng, if round % 8 == 0 { 600 } else { 60 }, round % 3);
            let full = 3 * src.len() + 1;
            let caps: Vec<usize> = if src.len() <= 40 {
                (0..=full).collect()
            } else {
                vec![full, full / 2, rng.below(full as u64) as usize]
            };
            for policy in ENCODE_POLICIES {
                for order in ORDERS {
                    // The units as they lie in memory in `order`.
                    let units: Vec<u16> = if order.swaps() {
                        src.iter().map(|u| u.swap_bytes()).collect()
                    } else {
                        src.clone()
                    };
                    for more in [false, true] {
                        for &cap in &caps {
                            let mut a = vec![0xAAu8; cap];
                            let mut b = vec![0xAAu8; cap];
                            let pa = e.encode_utf16(&units, &mut a, policy, order, more);
                            let mut sink = SliceSink::new(&mut b);
                            let pb = reference::encode(&units, &mut sink, policy, order, more);
                            let what = || format!("{src:04X?} {policy:?} {order:?} {more} {cap}");
                            assert_eq!(pa, pb, "{}", what());
                            assert_eq!(a, b, "{}", what());
                        }
                    }
                }
            }
        }
    }
}
