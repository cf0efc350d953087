//! A tier's table of kernels: pointers straight to its target-feature
//! functions, so a kernel call is one indirect call with no safe wrapper in
//! between.
//!
//! The pointers are `unsafe fn`s: they need the tier's CPU features. Making
//! a table is therefore `unsafe` ([`Kernels::new`]), with the promise that
//! it is only handed out after the CPU check; calling through it is then
//! safe ([`Fast::run`]), because the methods here supply every other
//! precondition (an output pointer with its slice's length).

use super::loops::Loops;
use super::Tier;
use crate::contract::{FastStop, Stops, Utf8Stats};

/// Decodes a valid prefix of `src` into the `cap` code points at `out`.
pub(crate) type DecodeKernel = unsafe fn(src: &[u8], out: *mut u32, cap: usize) -> FastStop;
/// Decodes a valid prefix of `src` into the `cap` UTF-16 units at `out`,
/// byte-swapped if the flag says so; a surrogate pair is written whole.
pub(crate) type DecodeU16Kernel =
    unsafe fn(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> FastStop;
/// Encodes the UTF-16 `src` (byte-swapped if the flag says so) up to its
/// first unpaired surrogate into the `cap` bytes at `out`.
pub(crate) type EncodeU16Kernel =
    unsafe fn(src: &[u16], out: *mut u8, cap: usize, swap: bool) -> FastStop;
/// [`DecodeKernel`] that also stops at `stops`.
pub(crate) type StopDecodeKernel =
    unsafe fn(src: &[u8], out: *mut u32, cap: usize, stops: Stops) -> FastStop;
/// Validation that also stops at `stops`.
pub(crate) type StopScanKernel = unsafe fn(src: &[u8], stops: Stops) -> FastStop;
/// [`DecodeU16Kernel`] that also stops at `stops`.
pub(crate) type StopDecodeU16Kernel =
    unsafe fn(src: &[u8], out: *mut u16, cap: usize, swap: bool, stops: Stops) -> FastStop;
/// Decodes the run of CESU-8 surrogate pairs at the start of `src` into the
/// `cap` UTF-16 units at `out` (byte-swapped if the flag says so), in
/// whole pairs as far as they fit; may stop short of the run's end (the
/// last 15 bytes, say). Returns the pairs decoded: 6 bytes and 2 units
/// each.
pub(crate) type PairsU16Kernel =
    unsafe fn(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> usize;
/// [`PairsU16Kernel`] to the `cap` code points at `out`, one a pair.
pub(crate) type PairsKernel = unsafe fn(src: &[u8], out: *mut u32, cap: usize) -> usize;
/// [`EncodeU16Kernel`] writing CESU-8, or with `mutf8` Modified UTF-8: a
/// surrogate pair as two 3-byte forms (and for Modified UTF-8 a 0 unit as
/// C0 80). It still stops before an unpaired surrogate, and never between
/// the halves of a pair.
pub(crate) type EncodeCesuKernel =
    unsafe fn(src: &[u16], out: *mut u8, cap: usize, swap: bool, mutf8: bool) -> FastStop;
/// Converts between Latin-1 and UTF-8 (either way) from `src` into the `cap`
/// bytes at `out`: a valid prefix, as far as it fits.
pub(crate) type Latin1Kernel = unsafe fn(src: &[u8], out: *mut u8, cap: usize) -> FastStop;
/// Encodes a valid prefix of `src` into the `cap` bytes at `out`.
pub(crate) type EncodeKernel = unsafe fn(src: &[u32], out: *mut u8, cap: usize) -> FastStop;
/// Validates, counts or measures a valid prefix of `src`.
pub(crate) type ScanKernel<In> = unsafe fn(src: &[In]) -> FastStop;
/// Counts characters, 4-byte characters and the largest byte of `src`.
pub(crate) type StatsKernel = unsafe fn(src: &[u8]) -> Utf8Stats;
/// Validates `src` and counts a prefix of its valid prefix, as long as the
/// returned `usize`.
pub(crate) type ClassifyKernel = unsafe fn(src: &[u8]) -> (FastStop, Utf8Stats, usize);
/// UTF-8 bytes of well-formed UTF-16 (byte-swapped if the flag says so).
pub(crate) type Utf16SizeKernel = unsafe fn(src: &[u16], swap: bool) -> usize;
/// Counts the lead bytes of `src`.
pub(crate) type LeadsKernel = unsafe fn(src: &[u8]) -> usize;
/// Zero-extends each byte of `src` (at most [`WIDEN_MAX`]) into the
/// `src.len()` code points at `out`: decoding, when `src` is all ASCII.
pub(crate) type WidenKernel = unsafe fn(src: &[u8], out: *mut u32);

/// The index of the first byte `b` of `src` with `b + bias >= threshold`
/// (wrapping), or `src.len()`.
pub(crate) type FindByteKernel = unsafe fn(src: &[u8], bias: u8, threshold: u8) -> usize;

/// The longest input a [`WidenKernel`] takes.
pub(crate) const WIDEN_MAX: usize = 64;

/// One kernel of a table that was handed out, hence callable on this CPU.
/// Only [`Kernels`]' accessors make one.
#[derive(Clone, Copy)]
pub(crate) struct Fast<F>(F);

/// A tier's table of kernels ([`Table`]), handed out only on a CPU that has
/// the tier's features.
pub(crate) struct Kernels {
    tier: Tier,
    validate: ScanKernel<u8>,
    decode: DecodeKernel,
    decode_utf16: DecodeU16Kernel,
    decode_stopping: Option<StopDecodeKernel>,
    decode_utf16_stopping: Option<StopDecodeU16Kernel>,
    validate_stopping: Option<StopScanKernel>,
    pairs: Option<PairsKernel>,
    pairs_utf16: Option<PairsU16Kernel>,
    count: ScanKernel<u8>,
    encode: EncodeKernel,
    encode_utf16: EncodeU16Kernel,
    encode_utf16_cesu: Option<EncodeCesuKernel>,
    encode_latin1: Latin1Kernel,
    decode_latin1: Option<Latin1Kernel>,
    stats: StatsKernel,
    utf16_len: LeadsKernel,
    classify: ClassifyKernel,
    utf8_len_utf16: Utf16SizeKernel,
    encoded_len: ScanKernel<u32>,
    count_leads: LeadsKernel,
    widen: Option<WidenKernel>,
    find_byte: FindByteKernel,
    loops: &'static Loops,
}

/// A tier's kernels, in [`Kernels`]' order. Every tier has every entry
/// that is not an `Option`: its own kernel, or where it has none (the
/// sizes `stats` and `utf16_len` on SSE4.2, AVX2 and NEON) the portable
/// loop compiled for it (`arch::loops`). An `Option` is an entry some
/// tiers lack, and the engine's route says what it does then.
pub(crate) struct Table {
    pub validate: ScanKernel<u8>,
    pub decode: DecodeKernel,
    pub decode_utf16: DecodeU16Kernel,
    /// The decoders for CESU-8 and Modified UTF-8's fast path; `None`
    /// (the scalar tier) runs `engine::stopping`'s loop over the plain
    /// ones.
    pub decode_stopping: Option<StopDecodeKernel>,
    pub decode_utf16_stopping: Option<StopDecodeU16Kernel>,
    pub validate_stopping: Option<StopScanKernel>,
    /// `None` (the scalar tier) leaves runs of CESU-8 pairs to the
    /// dialect's loop.
    pub pairs: Option<PairsKernel>,
    pub pairs_utf16: Option<PairsU16Kernel>,
    pub count: ScanKernel<u8>,
    pub encode: EncodeKernel,
    pub encode_utf16: EncodeU16Kernel,
    /// `None` (the scalar tier) encodes the dialect's pairs in the
    /// reference core.
    pub encode_utf16_cesu: Option<EncodeCesuKernel>,
    pub encode_latin1: Latin1Kernel,
    /// `None` (the scalar tier) decodes through UCS-4 chunks.
    pub decode_latin1: Option<Latin1Kernel>,
    pub stats: StatsKernel,
    pub utf16_len: LeadsKernel,
    pub classify: ClassifyKernel,
    pub utf8_len_utf16: Utf16SizeKernel,
    pub encoded_len: ScanKernel<u32>,
    pub count_leads: LeadsKernel,
    /// `None` (the scalar tier): no shortcut for short ASCII strings.
    pub widen: Option<WidenKernel>,
    pub find_byte: FindByteKernel,
    /// The portable loops compiled for this tier (`arch::loops`).
    pub loops: &'static Loops,
}

impl Kernels {
    /// The table of a tier.
    ///
    /// # Safety
    /// Every kernel must be sound to call, with the arguments its type
    /// documents, on any CPU that has `tier`'s features, and the table must
    /// be handed out only after checking that this CPU has them.
    pub(crate) const unsafe fn new(tier: Tier, t: Table) -> Kernels {
        Kernels {
            tier,
            validate: t.validate,
            decode: t.decode,
            decode_utf16: t.decode_utf16,
            decode_stopping: t.decode_stopping,
            decode_utf16_stopping: t.decode_utf16_stopping,
            validate_stopping: t.validate_stopping,
            pairs: t.pairs,
            pairs_utf16: t.pairs_utf16,
            count: t.count,
            encode: t.encode,
            encode_utf16: t.encode_utf16,
            encode_utf16_cesu: t.encode_utf16_cesu,
            encode_latin1: t.encode_latin1,
            decode_latin1: t.decode_latin1,
            stats: t.stats,
            utf16_len: t.utf16_len,
            classify: t.classify,
            utf8_len_utf16: t.utf8_len_utf16,
            encoded_len: t.encoded_len,
            count_leads: t.count_leads,
            widen: t.widen,
            find_byte: t.find_byte,
            loops: t.loops,
        }
    }

    pub(crate) fn tier(&self) -> Tier {
        self.tier
    }

    #[inline(always)]
    pub(crate) fn loops(&self) -> &'static Loops {
        self.loops
    }

    #[inline(always)]
    pub(crate) fn validate(&self) -> Fast<ScanKernel<u8>> {
        Fast(self.validate)
    }

    #[inline(always)]
    pub(crate) fn decode(&self) -> Fast<DecodeKernel> {
        Fast(self.decode)
    }

    #[inline(always)]
    pub(crate) fn decode_utf16(&self) -> Fast<DecodeU16Kernel> {
        Fast(self.decode_utf16)
    }

    #[inline(always)]
    pub(crate) fn decode_stopping(&self) -> Option<Fast<StopDecodeKernel>> {
        self.decode_stopping.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn decode_utf16_stopping(&self) -> Option<Fast<StopDecodeU16Kernel>> {
        self.decode_utf16_stopping.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn validate_stopping(&self) -> Option<Fast<StopScanKernel>> {
        self.validate_stopping.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn pairs(&self) -> Option<Fast<PairsKernel>> {
        self.pairs.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn pairs_utf16(&self) -> Option<Fast<PairsU16Kernel>> {
        self.pairs_utf16.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn count(&self) -> Fast<ScanKernel<u8>> {
        Fast(self.count)
    }

    #[inline(always)]
    pub(crate) fn encode(&self) -> Fast<EncodeKernel> {
        Fast(self.encode)
    }

    #[inline(always)]
    pub(crate) fn encode_utf16(&self) -> Fast<EncodeU16Kernel> {
        Fast(self.encode_utf16)
    }

    #[inline(always)]
    pub(crate) fn encode_utf16_cesu(&self) -> Option<Fast<EncodeCesuKernel>> {
        self.encode_utf16_cesu.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn encode_latin1(&self) -> Fast<Latin1Kernel> {
        Fast(self.encode_latin1)
    }

    #[inline(always)]
    pub(crate) fn decode_latin1(&self) -> Option<Fast<Latin1Kernel>> {
        self.decode_latin1.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn stats(&self) -> Fast<StatsKernel> {
        Fast(self.stats)
    }

    #[inline(always)]
    pub(crate) fn utf16_len(&self) -> Fast<LeadsKernel> {
        Fast(self.utf16_len)
    }

    #[inline(always)]
    pub(crate) fn classify(&self) -> Fast<ClassifyKernel> {
        Fast(self.classify)
    }

    #[inline(always)]
    pub(crate) fn utf8_len_utf16(&self) -> Fast<Utf16SizeKernel> {
        Fast(self.utf8_len_utf16)
    }

    #[inline(always)]
    pub(crate) fn encoded_len(&self) -> Fast<ScanKernel<u32>> {
        Fast(self.encoded_len)
    }

    #[inline(always)]
    pub(crate) fn widen(&self) -> Option<Fast<WidenKernel>> {
        self.widen.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn count_leads(&self) -> Fast<LeadsKernel> {
        Fast(self.count_leads)
    }

    pub(crate) fn find_byte(&self) -> Fast<FindByteKernel> {
        Fast(self.find_byte)
    }
}

// SAFETY (every `run` below): a `Fast` comes from a table that was handed
// out only after its tier's CPU check (`Kernels::new`), and each output
// pointer is passed with its slice's length.

impl<In> Fast<ScanKernel<In>> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[In]) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src) }
    }
}

impl Fast<DecodeKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u32]) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len()) }
    }
}

impl Fast<DecodeU16Kernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u16], swap: bool) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len(), swap) }
    }
}

impl Fast<StopDecodeKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u32], stops: Stops) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len(), stops) }
    }
}

impl Fast<StopDecodeU16Kernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u16], swap: bool, stops: Stops) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len(), swap, stops) }
    }
}

impl Fast<StopScanKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], stops: Stops) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, stops) }
    }
}

impl Fast<PairsKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u32]) -> usize {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len()) }
    }
}

impl Fast<EncodeKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u32], dst: &mut [u8]) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len()) }
    }
}

impl Fast<EncodeU16Kernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u16], dst: &mut [u8], swap: bool) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len(), swap) }
    }
}

impl Fast<EncodeCesuKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u16], dst: &mut [u8], swap: bool, mutf8: bool) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len(), swap, mutf8) }
    }
}

impl Fast<Latin1Kernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u8]) -> FastStop {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len()) }
    }
}

impl Fast<StatsKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8]) -> Utf8Stats {
        // SAFETY: see above.
        unsafe { (self.0)(src) }
    }
}

impl Fast<ClassifyKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8]) -> (FastStop, Utf8Stats, usize) {
        // SAFETY: see above.
        unsafe { (self.0)(src) }
    }
}

impl Fast<Utf16SizeKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u16], swap: bool) -> usize {
        // SAFETY: see above.
        unsafe { (self.0)(src, swap) }
    }
}

impl Fast<LeadsKernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8]) -> usize {
        // SAFETY: see above.
        unsafe { (self.0)(src) }
    }
}

impl Fast<PairsU16Kernel> {
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u16], swap: bool) -> usize {
        // SAFETY: see above.
        unsafe { (self.0)(src, dst.as_mut_ptr(), dst.len(), swap) }
    }
}

impl Fast<WidenKernel> {
    /// Widens `src` into `dst` if it fits (`src.len()` is at most
    /// [`WIDEN_MAX`] and `dst`'s); returns whether it did.
    #[inline(always)]
    pub(crate) fn run(self, src: &[u8], dst: &mut [u32]) -> bool {
        let fits = src.len() <= WIDEN_MAX && src.len() <= dst.len();
        if fits {
            // SAFETY: see above; the lengths are checked.
            unsafe { (self.0)(src, dst.as_mut_ptr()) };
        }
        fits
    }
}

impl Fast<FindByteKernel> {
    pub(crate) fn run(self, src: &[u8], bias: u8, threshold: u8) -> usize {
        // SAFETY: `Fast` values come only from tables handed out after the
        // CPU check; the kernel reads only `src`.
        unsafe { (self.0)(src, bias, threshold) }
    }
}
