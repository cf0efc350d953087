//! UTF-8 <-> UCS-4: validation, decoding, counting, encoding and measuring,
//! each the tier's kernel in the shared loop ([`super::run`]), with the
//! shortcuts that beat a kernel call on short inputs.
use super::run::{after_prefix, done, resume, run, utf8_window, Output};
use crate::arch::kernels::{DecodeKernel, Fast, WidenKernel, WIDEN_MAX};
use crate::arch::Kernels;
use crate::contract::FastStop;
use crate::reference;
use crate::reference::prefix;
use crate::reference::sink::{CountSink, SliceSink};
use crate::reference::utf16::Utf16Sink;
use crate::{ByteOrder, EncodePolicy, Policy, Progress};

/// Below this many code points a kernel's set-up and latency cost more than
/// it saves.
const SHORT: usize = 16;

/// Whether the scalar loop in [`prefix`] beats a kernel on `src` (measured
/// with `cargo bench --bench short`): up to 4 bytes a kernel's fixed latency
/// dominates validation.
fn tiny_for_validation(src: &[u8]) -> bool {
    src.len() < 5
}

/// Up to this many bytes, an all-ASCII string is widened in place (plain
/// SSE2 code) faster than the tier's widening kernel is called.
const WIDEN_INLINE: usize = 24;

/// Whether [`prefix`] beats a kernel at decoding `src`, which is not a short
/// all-ASCII string with room (those were widened already): up to 11 bytes,
/// one character at a time is faster.
fn tiny_for_decoding(src: &[u8]) -> bool {
    src.len() < 12
}

/// Whether `src` is short enough that checking it is all ASCII (a few word
/// loads) beats a kernel call, and is: then it is valid, one character per
/// byte.
pub(super) fn short_ascii(src: &[u8]) -> bool {
    src.len() <= 64 && src.is_ascii()
}

/// Inlined into the public entry points: the short-ASCII check, the tiny
/// loop or one kernel call, and the verdict. An error is handled in
/// [`validate_rest`].
#[inline]
pub(crate) fn validate(k: &Kernels, src: &[u8], more_input: bool) -> Progress {
    let fast = k.validate();
    if short_ascii(src) {
        // All ASCII: valid, and one character per byte.
        return done(src.len(), 0);
    }
    let read = if tiny_for_validation(src) {
        prefix::count_prefix(src).0
    } else {
        // Where it stopped: the end, or the start of the first error.
        fast.run(src).read
    };
    if read == src.len() {
        return done(read, 0);
    }
    validate_rest(src, more_input, read)
}

/// [`validate`] after a well-formed prefix of `read` bytes, short of the
/// end: only the first error matters, and it lies within a few bytes.
#[inline(never)]
fn validate_rest(src: &[u8], more_input: bool, read: usize) -> Progress {
    after_prefix(
        reference::validate::validate(&src[read..], more_input),
        read,
        0,
    )
}

/// Decoding to code points, with a kernel or the portable core's loop as
/// the fast path.
struct Decode<'a, F> {
    fast: F,
    dst: &'a mut [u32],
    written: usize,
    policy: Policy,
    more_input: bool,
}

impl<F: FnMut(&[u8], &mut [u32]) -> FastStop> Output<u8> for Decode<'_, F> {
    fn fast(&mut self, src: &[u8]) -> FastStop {
        let stop = (self.fast)(src, &mut self.dst[self.written..]);
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u8], last: bool) -> Progress {
        let mut sink = SliceSink::new(&mut self.dst[self.written..]);
        let p = reference::decode::decode(src, &mut sink, self.policy, self.more_input && last);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// Counting what decoding would write, with `fast` (a validating count)
/// over the valid stretches: code points, or with `utf16` UTF-16 units.
pub(super) struct Count<F> {
    pub(super) fast: F,
    pub(super) written: usize,
    pub(super) policy: Policy,
    pub(super) more_input: bool,
    pub(super) utf16: bool,
}

impl<F: FnMut(&[u8]) -> FastStop> Output<u8> for Count<F> {
    fn fast(&mut self, src: &[u8]) -> FastStop {
        let stop = (self.fast)(src);
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u8], last: bool) -> Progress {
        let more = self.more_input && last;
        let p = if self.utf16 {
            let mut sink = Utf16Sink::new(CountSink::default(), ByteOrder::Native);
            reference::decode::decode(src, &mut sink, self.policy, more)
        } else {
            reference::decode::decode(src, &mut CountSink::default(), self.policy, more)
        };
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

#[inline]
pub(crate) fn decode(
    k: &Kernels,
    src: &[u8],
    dst: &mut [u32],
    policy: Policy,
    more_input: bool,
) -> Progress {
    // Shortcuts belong to the fast tiers; the scalar tier stays the plain
    // reference.
    if let Some(widen) = k.widen() {
        // A short ASCII string: one code point per byte, no decoder set-up.
        if src.len() <= WIDEN_MAX && src.is_ascii() {
            if src.len() <= WIDEN_INLINE && src.len() <= dst.len() {
                for (d, &b) in dst.iter_mut().zip(src) {
                    *d = u32::from(b);
                }
                return done(src.len(), src.len());
            }
            if src.len() <= dst.len() {
                return widen_ascii(widen, src, dst);
            }
        }
    }
    decode_any(k, src, dst, policy, more_input)
}

/// Widens an all-ASCII `src` that fits in `dst`. Out of line: measured
/// with `cargo bench --bench short`, this made calls of 0 to 24 bytes
/// about 0.8 ns faster than calling the kernel from [`decode`] itself.
#[inline(never)]
fn widen_ascii(widen: Fast<WidenKernel>, src: &[u8], dst: &mut [u32]) -> Progress {
    let fits = widen.run(src, dst);
    debug_assert!(fits, "checked by the caller");
    done(src.len(), src.len())
}

/// [`decode`] past the ASCII shortcut. Out of line, so that the kernel
/// calls and the error handling do not grow the inlined entry point (it
/// still saves six registers: this call takes stack arguments, so it is not
/// a tail call).
#[inline(never)]
fn decode_any(
    k: &Kernels,
    src: &[u8],
    dst: &mut [u32],
    policy: Policy,
    more_input: bool,
) -> Progress {
    if tiny_for_decoding(src) {
        return decode_short(src, dst, policy, more_input);
    }
    let fast = k.decode();
    let stop = fast.run(src, dst);
    if stop.flagged.is_none() && stop.read == src.len() {
        return done(stop.read, stop.written);
    }
    decode_rest(fast, src, dst, policy, more_input, stop)
}

#[inline]
fn decode_short(src: &[u8], dst: &mut [u32], policy: Policy, more_input: bool) -> Progress {
    let (read, written) = prefix::decode_prefix(src, dst);
    if read == src.len() {
        return done(read, written);
    }
    let mut sink = SliceSink::new(&mut dst[written..]);
    let p = reference::decode::decode(&src[read..], &mut sink, policy, more_input);
    after_prefix(p, read, written)
}

/// The rest of a decode after the kernel's first `stop` short of the end.
#[inline(never)]
fn decode_rest(
    fast: Fast<DecodeKernel>,
    src: &[u8],
    dst: &mut [u32],
    policy: Policy,
    more_input: bool,
    stop: FastStop,
) -> Progress {
    let mut out = Decode {
        fast: |s: &[u8], d: &mut [u32]| fast.run(s, d),
        dst,
        written: stop.written,
        policy,
        more_input,
    };
    resume(src, &mut out, utf8_window(src), stop)
}

pub(crate) fn count(k: &Kernels, src: &[u8], policy: Policy, more_input: bool) -> Progress {
    if short_ascii(src) {
        return done(src.len(), src.len());
    }
    if tiny_for_validation(src) {
        let (read, written) = prefix::count_prefix(src);
        if read == src.len() {
            return done(read, written);
        }
        let p =
            reference::decode::decode(&src[read..], &mut CountSink::default(), policy, more_input);
        return after_prefix(p, read, written);
    }
    let fast = k.count();
    let stop = fast.run(src);
    if stop.flagged.is_none() && stop.read == src.len() {
        return done(stop.read, stop.written);
    }
    let mut out = Count {
        fast: |s: &[u8]| fast.run(s),
        written: stop.written,
        policy,
        more_input,
        utf16: false,
    };
    resume(src, &mut out, utf8_window(src), stop)
}

/// Encoding code points, with a kernel or the portable core's loop as the
/// fast path.
struct Encode<'a, F> {
    fast: F,
    dst: &'a mut [u8],
    written: usize,
    policy: EncodePolicy,
}

impl<F: FnMut(&[u32], &mut [u8]) -> FastStop> Output<u32> for Encode<'_, F> {
    fn fast(&mut self, src: &[u32]) -> FastStop {
        let stop = (self.fast)(src, &mut self.dst[self.written..]);
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u32], _last: bool) -> Progress {
        let mut sink = SliceSink::new(&mut self.dst[self.written..]);
        let p = reference::encode::encode(src, &mut sink, self.policy);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

struct EncodedLen<F> {
    fast: F,
    written: usize,
    policy: EncodePolicy,
}

impl<F: FnMut(&[u32]) -> FastStop> Output<u32> for EncodedLen<F> {
    fn fast(&mut self, src: &[u32]) -> FastStop {
        let stop = (self.fast)(src);
        self.written += stop.written;
        stop
    }
    fn scalar(&mut self, src: &[u32], _last: bool) -> Progress {
        let p = reference::encode::encode(src, &mut CountSink::default(), self.policy);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

pub(crate) fn encode(k: &Kernels, src: &[u32], dst: &mut [u8], policy: EncodePolicy) -> Progress {
    if src.len() < SHORT {
        if let Some(written) = crate::portable::encode_short::encode_short(src, dst) {
            return done(src.len(), written);
        }
    }
    // An invalid unit is handled alone.
    let window_end = |i| i + 1;
    // Below SHORT code points (where the short loop above gave up: an
    // invalid unit, or too little room), the portable encoder beats a
    // kernel's set-up.
    match (src.len() >= SHORT).then(|| k.encode()) {
        Some(fast) => {
            let mut out = Encode {
                fast: |s: &[u32], d: &mut [u8]| fast.run(s, d),
                dst,
                written: 0,
                policy,
            };
            run(src, &mut out, window_end)
        }
        None => {
            let mut out = Encode {
                fast: crate::portable::encode::encode_valid,
                dst,
                written: 0,
                policy,
            };
            run(src, &mut out, window_end)
        }
    }
}

pub(crate) fn encoded_len(k: &Kernels, src: &[u32], policy: EncodePolicy) -> Progress {
    if src.len() < SHORT {
        return reference::encode::encode(src, &mut CountSink::default(), policy);
    }
    let fast = k.encoded_len();
    encoded_len_by(src, policy, |s: &[u32]| fast.run(s))
}

/// [`encoded_len`] with `fast` for the valid stretches; an invalid unit is
/// handled alone.
fn encoded_len_by(
    src: &[u32],
    policy: EncodePolicy,
    fast: impl FnMut(&[u32]) -> FastStop,
) -> Progress {
    let mut out = EncodedLen {
        fast,
        written: 0,
        policy,
    };
    run(src, &mut out, |i| i + 1)
}
