//! UTF-8 <-> UTF-16 over the tier's UCS-4 kernels.

use super::chunks::{is_scalar_tier, through_ucs4, Narrow, Taken, CHUNK, SHORT_BUF};
use super::loops::{
    ascii_blocks, ascii_unit_blocks, has_surrogate, narrow_ascii, valid_utf16_prefix, widen_u16,
};
use crate::reference::decode as reference_decode;
use crate::reference::sink::CountSink;
use crate::reference::utf16::{self as reference, Next, Units, Utf16Sink};
use crate::{ByteOrder, EncodePolicy, Engine, Policy, Progress, Status};

/// The UTF-16 size of decoded UTF-8 (`decode_utf16_len`): the units of
/// each chunk's code points, counted. (Decoding itself runs the tier's
/// UTF-16 kernel, or the portable core's decoder: see `arch::driver`.)
struct Utf16Count {
    engine: Engine,
    written: usize,
}

impl Narrow for Utf16Count {
    fn room(&self) -> usize {
        usize::MAX
    }

    fn take(&mut self, cps: &[u32]) -> Taken {
        self.written += cps.len() + cps.iter().filter(|&&c| c >= 0x1_0000).count();
        Taken::All
    }

    fn written(&self) -> usize {
        self.written
    }

    fn rejects(&self, _scalar: u32) -> bool {
        false
    }

    fn take_ascii_blocks(&mut self, bytes: &[u8]) -> usize {
        let run = ascii_blocks(&self.engine, bytes);
        self.written += run;
        run
    }
}

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
        self.decode_utf16_fast(src, dst, policy, order, more_input)
    }

    /// See [`crate::decode_utf16_len`].
    pub fn decode_utf16_len(&self, src: &[u8], policy: Policy, more_input: bool) -> Progress {
        if is_scalar_tier(self) {
            let mut sink = Utf16Sink::new(CountSink::default(), ByteOrder::Native);
            return reference_decode::decode(src, &mut sink, policy, more_input);
        }
        let mut out = Utf16Count {
            engine: *self,
            written: 0,
        };
        through_ucs4(self, src, policy, more_input, &mut out)
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
        if is_scalar_tier(self) {
            return self.encode_utf16_portable(src, dst, policy, order, more_input);
        }
        if let Some(p) = self.encode_utf16_kernel(src, dst, policy, order, more_input) {
            return p;
        }
        self.encode_utf16_chunked(src, dst, policy, order, more_input)
    }

    /// The scalar tier's UTF-16 to UTF-8: the portable encoder over
    /// well-formed stretches, and [`Engine::encode_utf16_chunked`] (the
    /// reference core's policies) for each lone surrogate alone and for
    /// the last few bytes of the output. Through the code point buffer
    /// alone, emoji ran at 1.6 GB/s and Russian at 1.0; 2.5 and 1.8 this
    /// way (CJK and `mixed-1234` 5-15% slower).
    fn encode_utf16_portable(
        &self,
        src: &[u16],
        dst: &mut [u8],
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let swap = order.swaps();
        let unit = |u: u16| if swap { u.swap_bytes() } else { u };
        let (mut read, mut written, mut handled) = (0, 0, 0);
        loop {
            let (r, w) =
                crate::portable::utf16::encode_valid(&src[read..], &mut dst[written..], swap);
            (read, written) = (read + r, written + w);
            if read == src.len() {
                return Progress {
                    status: Status::Done,
                    read,
                    written,
                    handled,
                };
            }
            // It stopped at a lone surrogate (a high one followed by no
            // low one), or near the end of the output.
            let u = unit(src[read]);
            let paired = (0xD800..0xDC00).contains(&u)
                && src
                    .get(read + 1)
                    .is_some_and(|&l| unit(l) & 0xFC00 == 0xDC00);
            let lone = u & 0xF800 == 0xD800 && !paired;
            let (end, more) = match lone && read + 1 < src.len() {
                true => (read + 1, false),
                false => (src.len(), more_input),
            };
            let p = self.encode_utf16_chunked(
                &src[read..end],
                &mut dst[written..],
                policy,
                order,
                more,
            );
            let status = match p.status {
                Status::IllFormed(mut e) => {
                    e.valid_up_to += read;
                    Status::IllFormed(e)
                }
                other => other,
            };
            (read, written, handled) = (read + p.read, written + p.written, handled + p.handled);
            if end == src.len() || status != Status::Done {
                return Progress {
                    status,
                    read,
                    written,
                    handled,
                };
            }
        }
    }

    /// UTF-16 to UTF-8 through chunks of code points and the tier's UCS-4
    /// encoder, for tiers without a kernel of their own.
    fn encode_utf16_chunked(
        &self,
        src: &[u16],
        dst: &mut [u8],
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let mut written = 0;
        let cap = dst.len();
        let swap = order.swaps();
        encode_chunks(self, src, order, more_input, cap, |chunk| match chunk {
            Chunk::Ascii(units) => {
                let n = units.len().min(dst.len() - written);
                narrow_ascii(self, &units[..n], &mut dst[written..], swap);
                written += n;
                n.into()
            }
            Chunk::Scalars(cps) => {
                let p = self.encode(cps, &mut dst[written..], policy);
                written += p.written;
                p.into()
            }
        })
    }

    /// See [`crate::encode_utf16_len`].
    pub fn encode_utf16_len(
        &self,
        src: &[u16],
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        if is_scalar_tier(self) {
            let mut sink = CountSink::default();
            return reference::encode(src, &mut sink, policy, order, more_input);
        }
        encode_chunks(
            self,
            src,
            order,
            more_input,
            usize::MAX,
            |chunk| match chunk {
                Chunk::Ascii(units) => units.len().into(),
                Chunk::Scalars(cps) => self.encoded_len(cps, policy).into(),
            },
        )
    }

    /// See [`crate::validate_utf16`].
    pub fn validate_utf16(&self, src: &[u16], order: ByteOrder, more_input: bool) -> Progress {
        // The vector loop takes all but the last block before the first
        // error or the end; the reference core reads the rest exactly.
        let read = valid_utf16_prefix(self, src, order.swaps());
        let p = reference::validate(&src[read..], order, more_input);
        Progress {
            status: crate::contract::rebase(p.status, read),
            read: read + p.read,
            written: 0,
            handled: 0,
        }
    }
}

/// Up to this many units, an ASCII string is converted in place: a kernel
/// call's set-up costs more (`cargo bench --bench forms -- --short`).
const SHORT: usize = 64;

/// All of `n` units read and written.
fn done(n: usize) -> Progress {
    Progress {
        status: Status::Done,
        read: n,
        written: n,
        handled: 0,
    }
}

/// Units checked for surrogates at a time.
const BLOCK: usize = 64;

/// What [`encode_chunks`] hands its encoder: a run of ASCII units, to write
/// as bytes (as many as fit), or code points for the UCS-4 encoder.
enum Chunk<'a> {
    Ascii(&'a [u16]),
    Scalars(&'a [u32]),
}

/// What the encoder made of a [`Chunk`]: ASCII units written, or the UCS-4
/// encoder's progress on the code points (`written` for this chunk alone).
enum Written {
    Units(usize),
    Encoded(Progress),
}

impl Written {
    fn units(self) -> usize {
        match self {
            Written::Units(n) => n,
            Written::Encoded(p) => p.written,
        }
    }
    fn progress(self) -> Progress {
        match self {
            Written::Encoded(p) => p,
            Written::Units(n) => Progress {
                status: Status::Done,
                read: n,
                written: n,
                handled: 0,
            },
        }
    }
}

impl From<usize> for Written {
    fn from(n: usize) -> Self {
        Written::Units(n)
    }
}

impl From<Progress> for Written {
    fn from(p: Progress) -> Self {
        Written::Encoded(p)
    }
}

/// Runs `encode` (writing ASCII runs itself, and running the tier's UCS-4
/// encoder or measurer on code points) over `src` a chunk at a time: units
/// to code points in a stack buffer, pairs combined. Maps the
/// encoder's code point offsets back to unit offsets. A chunk holds no more
/// code points than `cap` bytes can take (but at least one), so that a
/// caller's small buffer costs a small chunk.
fn encode_chunks(
    engine: &Engine,
    src: &[u16],
    order: ByteOrder,
    more_input: bool,
    cap: usize,
    mut encode: impl FnMut(Chunk) -> Written,
) -> Progress {
    let units = Units::new(src, order);
    let swap = order.swaps();
    let (mut small, mut large);
    let buf: &mut [u32] = if src.len() <= SHORT_BUF {
        small = [0u32; SHORT_BUF];
        &mut small
    } else {
        large = [0u32; CHUNK];
        &mut large
    };
    let mut read = 0;
    let mut written = 0;
    let mut handled = 0;
    loop {
        // Runs of ASCII units skip the code point buffer.
        let run = ascii_unit_blocks(engine, &src[read..], swap);
        if run > 0 {
            let n = encode(Chunk::Ascii(&src[read..read + run])).units();
            (read, written) = (read + n, written + n);
        }
        let limit = cap.saturating_sub(written).clamp(1, buf.len());
        let (n, end, cut) = gather(engine, &units, swap, read, more_input, &mut buf[..limit]);
        let p = encode(Chunk::Scalars(&buf[..n])).progress();
        let p = Progress {
            written: written + p.written,
            handled: handled + p.handled,
            ..p
        };
        // Units for the first `k` code points of the buffer.
        let units_for = |k: usize| k + buf[..k].iter().filter(|&&c| c >= 0x1_0000).count();
        match p.status {
            Status::Done => {}
            Status::IllFormed(mut e) => {
                e.valid_up_to = read + units_for(e.valid_up_to);
                let at = e.valid_up_to;
                return Progress {
                    status: Status::IllFormed(e),
                    read: at,
                    written: p.written,
                    handled: p.handled,
                };
            }
            status => {
                return Progress {
                    status,
                    read: read + units_for(p.read),
                    written: p.written,
                    handled: p.handled,
                }
            }
        }
        read = end;
        written = p.written;
        handled = p.handled;
        let status = if cut {
            Status::Incomplete { len: 1 }
        } else if read == src.len() {
            Status::Done
        } else {
            continue;
        };
        return Progress {
            status,
            read,
            written: p.written,
            handled: p.handled,
        };
    }
}

/// Fills `buf` with the code points of the units from `start` on: a pair
/// becomes one scalar, a lone surrogate stays as it is (the encoder's
/// policy then applies). Returns the code points, the unit where it
/// stopped, and whether it stopped at a high surrogate ending the input
/// while more input follows.
fn gather(
    engine: &Engine,
    units: &Units,
    swap: bool,
    start: usize,
    more_input: bool,
    buf: &mut [u32],
) -> (usize, usize, bool) {
    let src = units.src();
    let limit = buf.len();
    let mut i = start;
    let mut n = 0;
    while i < src.len() && n < limit {
        // Whole blocks without surrogates widen directly.
        while n + BLOCK <= limit && i + BLOCK <= src.len() {
            let block = &src[i..i + BLOCK];
            if has_surrogate(engine, block, swap) {
                break;
            }
            widen_u16(engine, block, &mut buf[n..], swap);
            n += BLOCK;
            i += BLOCK;
        }
        // From a block with a surrogate, a block's worth of units one by
        // one: testing the next block after every pair took text of pairs
        // (emoji) at 0.65 GB/s.
        let stop = (i + BLOCK).min(src.len());
        while i < stop && n < limit {
            match units.next(i) {
                Next::Unit { value, len } => {
                    buf[n] = value;
                    n += 1;
                    i += len;
                }
                Next::CutPair if more_input => return (n, i, true),
                Next::CutPair => {
                    buf[n] = u32::from(units.get(i));
                    n += 1;
                    i += 1;
                }
            }
        }
    }
    (n, i, false)
}

/// The scalar tier's UTF-16 conversions run the portable core and the
/// shared chunking, not the reference core that the other tiers' tests
/// compare against: here they are compared with it directly, under every
/// policy and byte order, with and without more input, at every output
/// capacity, on random text with damage.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::sink::SliceSink;
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
                            let what = format!("{src:02X?} {policy:?} {order:?} {more} {cap}");
                            assert_eq!(pa, pb, "{what}");
                            assert_eq!(a, b, "{what}");
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
                            let what = format!("{src:04X?} {policy:?} {order:?} {more} {cap}");
                            assert_eq!(pa, pb, "{what}");
                            assert_eq!(a, b, "{what}");
                        }
                    }
                }
            }
        }
    }
}
