//! UTF-8 <-> Latin-1: the tier's Latin-1 kernels in the shared loop; on a
//! tier without a decoder of its own (the scalar tier), and to measure,
//! through chunks of code points ([`super::chunks`]).

use super::chunks::{through_ucs4, Narrow, Taken};
use super::run::{run, utf8_window, Output};
use crate::arch::kernels::{Fast, Latin1Kernel};
use crate::arch::Kernels;
use crate::contract::FastStop;
use crate::reference::sink::SliceSink;
use crate::{Engine, Latin1Policy, Policy, Progress};

/// Latin-1 output: a buffer, or a count.
struct Latin1Out<'a> {
    engine: Engine,
    dst: Option<&'a mut [u8]>,
    written: usize,
    /// What becomes of a character above U+00FF.
    above: Above,
    /// Characters above U+00FF replaced or dropped, not yet reported.
    handled: usize,
}

/// What [`Latin1Out`] does with a character above U+00FF.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Above {
    /// Stops before it.
    Stop,
    /// Writes this byte instead.
    Replace(u8),
    /// Writes nothing.
    Drop,
}

/// Code points in `cps` above U+00FF.
fn above_ff(cps: &[u32]) -> usize {
    cps.iter().filter(|&&c| c > 0xFF).count()
}

impl Narrow for Latin1Out<'_> {
    fn room(&self) -> usize {
        self.dst
            .as_ref()
            .map_or(usize::MAX, |d| d.len() - self.written)
    }

    fn drops(&self) -> bool {
        matches!(self.above, Above::Drop)
    }

    fn take(&mut self, cps: &[u32]) -> Taken {
        if self.above == Above::Drop {
            // The dropped code points take no room, so `cps` may hold more
            // than `room` (see `drops`): stop at the first kept one that
            // does not fit.
            let room = self.room();
            let (mut kept, mut dropped) = (0, 0);
            for (i, &c) in cps.iter().enumerate() {
                if c > 0xFF {
                    dropped += 1;
                    continue;
                }
                if kept == room {
                    self.handled += dropped;
                    self.written += kept;
                    return Taken::Full(i);
                }
                if let Some(dst) = self.dst.as_deref_mut() {
                    dst[self.written + kept] = c as u8;
                }
                kept += 1;
            }
            self.handled += dropped;
            self.written += kept;
            return Taken::All;
        }
        let replacement = match self.above {
            Above::Replace(b) => {
                self.handled += above_ff(cps);
                Some(b)
            }
            _ => None,
        };
        // `through_ucs4` never hands over more code points than `room`.
        let fits = match self.dst.as_deref_mut() {
            Some(dst) => self.engine.kernels.loops().narrow_latin1(
                cps,
                &mut dst[self.written..],
                replacement,
            ),
            None if replacement.is_some() => cps.len(),
            None => cps.iter().position(|&c| c > 0xFF).unwrap_or(cps.len()),
        };
        self.written += fits;
        if fits < cps.len() {
            Taken::Unrepresentable(fits)
        } else {
            Taken::All
        }
    }

    fn written(&self) -> usize {
        self.written
    }

    fn take_ascii_blocks(&mut self, bytes: &[u8]) -> usize {
        let run = self.engine.kernels.loops().ascii_blocks(bytes);
        let Some(dst) = self.dst.as_deref_mut() else {
            self.written += run;
            return run;
        };
        let n = run.min(dst.len() - self.written);
        dst[self.written..self.written + n].copy_from_slice(&bytes[..n]);
        self.written += n;
        n
    }

    fn rejects(&self, scalar: u32) -> bool {
        self.above == Above::Stop && scalar > 0xFF
    }

    fn handled(&mut self) -> usize {
        core::mem::take(&mut self.handled)
    }
}

/// The UCS-4 policy that gives the Latin-1 policy's output for ill-formed
/// input (the replacement byte as the character it stands for), and what
/// becomes of characters above U+00FF.
fn ucs4_policy(policy: Latin1Policy) -> (Policy, Above) {
    match policy {
        Latin1Policy::Strict => (Policy::Strict, Above::Stop),
        Latin1Policy::Replace(b) => (Policy::Replace(char::from(b)), Above::Replace(b)),
        Latin1Policy::Ignore => (Policy::Ignore, Above::Drop),
    }
}

impl Engine {
    /// See [`crate::decode_latin1`].
    pub fn decode_latin1(
        &self,
        src: &[u8],
        dst: &mut [u8],
        policy: Latin1Policy,
        more_input: bool,
    ) -> Progress {
        if let Some(p) = self.decode_latin1_kernel(src, dst, policy, more_input) {
            return p;
        }
        let (ucs4, above) = ucs4_policy(policy);
        let mut out = Latin1Out {
            engine: *self,
            dst: Some(dst),
            written: 0,
            above,
            handled: 0,
        };
        through_ucs4(self, src, ucs4, more_input, &mut out)
    }

    /// See [`crate::decode_latin1_len`].
    pub fn decode_latin1_len(
        &self,
        src: &[u8],
        policy: Latin1Policy,
        more_input: bool,
    ) -> Progress {
        let (ucs4, above) = ucs4_policy(policy);
        if let Above::Replace(_) = above {
            // Every code point becomes one byte: the UCS-4 count is the size.
            let p = self.count(src, ucs4, more_input);
            if p.handled == 0 {
                // What was read is well-formed, so its characters above
                // U+00FF are its lead bytes C4..F4.
                let leads = src[..p.read].iter().filter(|&&b| b >= 0xC4).count();
                return Progress {
                    handled: leads,
                    ..p
                };
            }
        }
        let mut out = Latin1Out {
            engine: *self,
            dst: None,
            written: 0,
            above,
            handled: 0,
        };
        through_ucs4(self, src, ucs4, more_input, &mut out)
    }

    /// See [`crate::encode_latin1`].
    pub fn encode_latin1(&self, src: &[u8], dst: &mut [u8]) -> Progress {
        encode_latin1(self.kernels, src, dst)
    }

    /// See [`crate::encode_latin1_len`].
    pub fn encode_latin1_len(&self, src: &[u8]) -> usize {
        src.len() + src.iter().filter(|&&b| b >= 0x80).count()
    }
}

/// Up to this many bytes, [`encode_latin1`] runs one plain loop
/// ([`crate::portable::encode_short::encode_short_latin1`]): the kernel's
/// set-up costs more (`cargo bench --bench short`).
const SHORT_PLAIN: usize = 16;

struct EncodeLatin1<'a> {
    fast: Fast<Latin1Kernel>,
    dst: &'a mut [u8],
    written: usize,
}

impl Output<u8> for EncodeLatin1<'_> {
    fn fast(&mut self, src: &[u8]) -> FastStop {
        let stop = self.fast.run(src, &mut self.dst[self.written..]);
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u8], _last: bool) -> Progress {
        let mut sink = SliceSink::new(&mut self.dst[self.written..]);
        let p = crate::reference::latin1::encode(src, &mut sink);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// Latin-1 to UTF-8 with the tier's kernel. The kernel
/// stops only for lack of room; the reference core then fills the rest exactly.
pub(super) fn encode_latin1(k: &Kernels, src: &[u8], dst: &mut [u8]) -> Progress {
    if src.len() <= SHORT_PLAIN {
        if let Some(written) = crate::portable::encode_short::encode_short_latin1(src, dst) {
            return super::run::done(src.len(), written);
        }
    }
    let mut out = EncodeLatin1 {
        fast: k.encode_latin1(),
        dst,
        written: 0,
    };
    run(src, &mut out, |i| i + 1)
}

struct DecodeLatin1<'a> {
    fast: Fast<Latin1Kernel>,
    dst: &'a mut [u8],
    written: usize,
    policy: crate::Latin1Policy,
    more_input: bool,
}

impl Output<u8> for DecodeLatin1<'_> {
    fn fast(&mut self, src: &[u8]) -> FastStop {
        let stop = self.fast.run(src, &mut self.dst[self.written..]);
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u8], last: bool) -> Progress {
        let mut sink = SliceSink::new(&mut self.dst[self.written..]);
        let more = self.more_input && last;
        let p = crate::reference::latin1::decode(src, &mut sink, self.policy, more);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// UTF-8 to Latin-1 with the tier's own kernel, if it has one.
pub(super) fn decode_latin1(
    k: &Kernels,
    src: &[u8],
    dst: &mut [u8],
    policy: crate::Latin1Policy,
    more_input: bool,
) -> Option<Progress> {
    let fast = k.decode_latin1()?;
    let mut out = DecodeLatin1 {
        fast,
        dst,
        written: 0,
        policy,
        more_input,
    };
    Some(run(src, &mut out, utf8_window(src)))
}

/// The scalar tier decodes to Latin-1 through the portable core (UCS-4
/// chunks), not the reference core that the other tiers' tests compare
/// against: here it is compared with it directly, under every policy, with
/// and without more input, at every output capacity, on random text with
/// damage.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::latin1 as reference;
    use crate::reference::sink::SliceSink;
    use crate::samples::Rng;
    use crate::Tier;

    /// Runs of ASCII, characters up to U+00FF and (rarely) above, then
    /// `damage` bytes overwritten.
    fn utf8(rng: &mut Rng, len: usize, damage: usize) -> Vec<u8> {
        let mut s = String::new();
        while s.len() < len {
            match rng.below(8) {
                0 => s.push_str(&"a".repeat(rng.below(80) as usize)),
                1 => s.push(char::from_u32(rng.below(0x110000) as u32).unwrap_or('\u{FFFD}')),
                _ => s.push(char::from(rng.below(0x100) as u8)),
            }
        }
        let mut v = s.into_bytes();
        for _ in 0..damage.min(v.len()) {
            let at = rng.below(v.len() as u64) as usize;
            v[at] = rng.below(256) as u8;
        }
        v
    }

    #[test]
    fn scalar_tier_decodes_latin1_as_the_reference_core() {
        let e = Engine::new(Tier::Scalar).expect("the scalar tier");
        let policies = [
            Latin1Policy::Strict,
            Latin1Policy::Replace(b'?'),
            Latin1Policy::Ignore,
        ];
        let mut rng = Rng(0x1A71);
        for round in 0..600 {
            let src = utf8(&mut rng, if round % 8 == 0 { 600 } else { 60 }, round % 3);
            let full = src.len() + 1;
            let caps: Vec<usize> = if src.len() <= 80 {
                (0..=full).collect()
            } else {
                vec![full, full / 2, rng.below(full as u64) as usize]
            };
            for policy in policies {
                for more in [false, true] {
                    for &cap in &caps {
                        let mut a = vec![0xAAu8; cap];
                        let mut b = vec![0xAAu8; cap];
                        let pa = e.decode_latin1(&src, &mut a, policy, more);
                        let pb = reference::decode(&src, &mut SliceSink::new(&mut b), policy, more);
                        let what = || format!("{src:02X?} {policy:?} {more} {cap}");
                        assert_eq!(pa, pb, "{}", what());
                        assert_eq!(a, b, "{}", what());
                    }
                }
            }
        }
    }
}
