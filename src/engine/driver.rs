//! Runs a fast kernel over the valid stretches of the input and the scalar
//! core over the few bytes around each error.
//!
//! A kernel that flags an error at byte `e` has already emitted everything
//! before a *restart point* `q` (the segment start at or just before the
//! damage). The reference core then decodes the window from `q` to the first
//! boundary after `e` (see `reference::boundary`: decoding up to a boundary
//! separately gives exactly the whole-input output), applying the policy,
//! and the kernel resumes after it. The window is at most a handful of bytes.

use crate::arch::kernels::{
    DecodeKernel, EncodeU16Kernel, Fast, Latin1Kernel, WidenKernel, WIDEN_MAX,
};
use crate::arch::Kernels;
use crate::contract::{rebase, FastStop};
use crate::reference;
use crate::reference::boundary::next_boundary;
use crate::reference::prefix;
use crate::reference::sink::{CountSink, SliceSink};
use crate::reference::utf16::Utf16Sink;
use crate::{ByteOrder, EncodePolicy, Policy, Progress, Status};

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
fn short_ascii(src: &[u8]) -> bool {
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

/// Where decoded or encoded units go, with the fast and scalar ways there.
pub(super) trait Output<In> {
    /// Runs the fast kernel on `src`, appending to the output.
    fn fast(&mut self, src: &[In]) -> FastStop;
    /// Runs the reference core on `src`, appending to the output.
    fn scalar(&mut self, src: &[In], last: bool) -> Progress;
    fn written(&self) -> usize;
}

/// The shared loop: fast kernel, scalar window at each flagged error, again.
/// `window_end` gives the end of the scalar window for an error flagged at
/// an absolute position.
pub(super) fn run<In, O: Output<In>>(
    src: &[In],
    out: &mut O,
    window_end: impl Fn(usize) -> usize,
) -> Progress {
    let first = out.fast(src);
    resume(src, out, window_end, first)
}

/// [`run`] after its first kernel call, which stopped at `stop`.
fn resume<In, O: Output<In>>(
    src: &[In],
    out: &mut O,
    window_end: impl Fn(usize) -> usize,
    mut stop: FastStop,
) -> Progress {
    let mut read = 0;
    // Only the scalar windows apply a policy; the kernels stop before it.
    let mut handled = 0;
    loop {
        let flagged = stop.flagged.map(|e| read + e);
        read += stop.read;
        let end = match flagged {
            Some(e) => window_end(e),
            None if read == src.len() => {
                return Progress {
                    status: Status::Done,
                    read,
                    written: out.written(),
                    handled,
                }
            }
            // Out of room for a whole block: the reference core fills the rest
            // exactly and reports `OutputFull` within a block's worth.
            None => src.len(),
        };
        debug_assert!(end > read, "a scalar window always makes progress");
        let last = end == src.len();
        let p = out.scalar(&src[read..end], last);
        let status = rebase(p.status, read);
        read += p.read;
        handled += p.handled;
        if status != Status::Done || last {
            return Progress {
                status,
                read,
                written: out.written(),
                handled,
            };
        }
        stop = out.fast(&src[read..]);
    }
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
        let p = reference::decode::decode(src, &mut sink, self.policy, self.more_input && last);
        self.written += p.written;
        p
    }
    fn written(&self) -> usize {
        self.written
    }
}

/// UTF-8 to UTF-16 with the tier's kernel.
pub(crate) fn decode_utf16(
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

/// Counting what decoding would write, with `fast` (a validating count)
/// over the valid stretches: code points, or with `utf16` UTF-16 units.
struct Count<F> {
    fast: F,
    written: usize,
    policy: Policy,
    more_input: bool,
    utf16: bool,
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

/// The scalar window for a UTF-8 error flagged at byte `e`: up to the first
/// boundary after it.
fn utf8_window(src: &[u8]) -> impl Fn(usize) -> usize + '_ {
    move |e| next_boundary(src, (e + 1).min(src.len()))
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

fn done(read: usize, written: usize) -> Progress {
    Progress {
        status: Status::Done,
        read,
        written,
        handled: 0,
    }
}

/// `p`, from the reference decoder run after a well-formed prefix of `read`
/// bytes and `written` units, as a result for the whole input.
fn after_prefix(p: Progress, read: usize, written: usize) -> Progress {
    Progress {
        status: rebase(p.status, read),
        read: read + p.read,
        written: written + p.written,
        handled: p.handled,
    }
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

/// The UTF-16 units decoding would write: [`count`]'s way, with the
/// tier's classification (validation that counts characters and 4-byte
/// characters in one pass) as the validating count.
pub(crate) fn count_utf16(k: &Kernels, src: &[u8], policy: Policy, more_input: bool) -> Progress {
    if short_ascii(src) {
        return done(src.len(), src.len());
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
    // An invalid unit is handled alone.
    let window_end = |i| i + 1;
    // Below SHORT code points, the portable encoder beats a kernel's
    // set-up.
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
pub(crate) fn encode_utf16(
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
pub(crate) fn encode_latin1(k: &Kernels, src: &[u8], dst: &mut [u8]) -> Progress {
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
pub(crate) fn decode_latin1(
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
