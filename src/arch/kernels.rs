//! A tier's table of kernels: pointers straight to its target-feature
//! functions, so a kernel call is one indirect call with no safe wrapper in
//! between.
//!
//! The pointers are `unsafe fn`s: they need the tier's CPU features. Making
//! a table is therefore `unsafe` ([`Kernels::new`]), with the promise that
//! it is only handed out after the CPU check; calling through it is then
//! safe ([`Fast::run`]), because the methods here supply every other
//! precondition (an output pointer with its slice's length).

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

/// A set of fast kernels; `None` entries fall back to the reference core.
pub(crate) struct Kernels {
    tier: Tier,
    validate: Option<ScanKernel<u8>>,
    decode: Option<DecodeKernel>,
    decode_utf16: Option<DecodeU16Kernel>,
    decode_stopping: Option<StopDecodeKernel>,
    decode_utf16_stopping: Option<StopDecodeU16Kernel>,
    validate_stopping: Option<StopScanKernel>,
    pairs: Option<PairsKernel>,
    pairs_utf16: Option<PairsU16Kernel>,
    count: Option<ScanKernel<u8>>,
    encode: Option<EncodeKernel>,
    encode_utf16: Option<EncodeU16Kernel>,
    encode_utf16_cesu: Option<EncodeCesuKernel>,
    encode_latin1: Option<Latin1Kernel>,
    decode_latin1: Option<Latin1Kernel>,
    stats: Option<StatsKernel>,
    utf16_len: Option<LeadsKernel>,
    classify: Option<ClassifyKernel>,
    utf8_len_utf16: Option<Utf16SizeKernel>,
    encoded_len: Option<ScanKernel<u32>>,
    count_leads: Option<LeadsKernel>,
    widen: Option<WidenKernel>,
    find_byte: Option<FindByteKernel>,
}

/// The kernels of a vector tier, in [`Kernels`]' order; a `None` runs the
/// reference core's code for that operation (or a loop the compiler
/// vectorises). The x86-64 tiers have every entry but those marked below;
/// NEON has every entry but `stats` and `utf16_len` (as SSE4.2).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))] // Only vector tiers make tables.
pub(crate) struct Table {
    pub validate: Option<ScanKernel<u8>>,
    pub decode: Option<DecodeKernel>,
    /// `None` runs the portable core's UTF-16 decoder (the scalar tier).
    pub decode_utf16: Option<DecodeU16Kernel>,
    /// The decoders for CESU-8 and Modified UTF-8's fast path; `None`
    /// searches for the stops before running the plain ones.
    pub decode_stopping: Option<StopDecodeKernel>,
    pub decode_utf16_stopping: Option<StopDecodeU16Kernel>,
    pub validate_stopping: Option<StopScanKernel>,
    pub pairs: Option<PairsKernel>,
    pub pairs_utf16: Option<PairsU16Kernel>,
    pub count: Option<ScanKernel<u8>>,
    pub encode: Option<EncodeKernel>,
    /// `None` encodes through UCS-4.
    pub encode_utf16: Option<EncodeU16Kernel>,
    /// `None` encodes the dialect's pairs in the reference core.
    pub encode_utf16_cesu: Option<EncodeCesuKernel>,
    /// `None` encodes through UCS-4.
    pub encode_latin1: Option<Latin1Kernel>,
    /// `None` decodes through UCS-4.
    pub decode_latin1: Option<Latin1Kernel>,
    /// Only AVX-512 has the first two: `None` runs loops the compiler
    /// vectorises.
    pub stats: Option<StatsKernel>,
    pub utf16_len: Option<LeadsKernel>,
    pub classify: Option<ClassifyKernel>,
    pub utf8_len_utf16: Option<Utf16SizeKernel>,
    pub encoded_len: Option<ScanKernel<u32>>,
    pub count_leads: Option<LeadsKernel>,
    pub widen: Option<WidenKernel>,
    pub find_byte: Option<FindByteKernel>,
}

/// The scalar tier: no kernels, every operation runs the reference core.
pub(crate) static SCALAR: Kernels = Kernels {
    tier: Tier::Scalar,
    validate: None,
    decode: None,
    decode_utf16: None,
    decode_stopping: None,
    decode_utf16_stopping: None,
    validate_stopping: None,
    pairs: None,
    pairs_utf16: None,
    count: None,
    encode: None,
    encode_utf16: None,
    encode_utf16_cesu: None,
    encode_latin1: None,
    decode_latin1: None,
    stats: None,
    utf16_len: None,
    classify: None,
    utf8_len_utf16: None,
    encoded_len: None,
    count_leads: None,
    widen: None,
    find_byte: None,
};

impl Kernels {
    /// The table of a vector tier.
    ///
    /// # Safety
    /// Every kernel must be sound to call, with the arguments its type
    /// documents, on any CPU that has `tier`'s features, and the table must
    /// be handed out only after checking that this CPU has them.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
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
        }
    }

    pub(crate) fn tier(&self) -> Tier {
        self.tier
    }

    #[inline(always)]
    pub(crate) fn validate(&self) -> Option<Fast<ScanKernel<u8>>> {
        self.validate.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn decode(&self) -> Option<Fast<DecodeKernel>> {
        self.decode.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn decode_utf16(&self) -> Option<Fast<DecodeU16Kernel>> {
        self.decode_utf16.map(Fast)
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
    pub(crate) fn count(&self) -> Option<Fast<ScanKernel<u8>>> {
        self.count.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn encode(&self) -> Option<Fast<EncodeKernel>> {
        self.encode.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn encode_utf16(&self) -> Option<Fast<EncodeU16Kernel>> {
        self.encode_utf16.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn encode_utf16_cesu(&self) -> Option<Fast<EncodeCesuKernel>> {
        self.encode_utf16_cesu.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn encode_latin1(&self) -> Option<Fast<Latin1Kernel>> {
        self.encode_latin1.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn decode_latin1(&self) -> Option<Fast<Latin1Kernel>> {
        self.decode_latin1.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn stats(&self) -> Option<Fast<StatsKernel>> {
        self.stats.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn utf16_len(&self) -> Option<Fast<LeadsKernel>> {
        self.utf16_len.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn classify(&self) -> Option<Fast<ClassifyKernel>> {
        self.classify.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn utf8_len_utf16(&self) -> Option<Fast<Utf16SizeKernel>> {
        self.utf8_len_utf16.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn encoded_len(&self) -> Option<Fast<ScanKernel<u32>>> {
        self.encoded_len.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn widen(&self) -> Option<Fast<WidenKernel>> {
        self.widen.map(Fast)
    }

    #[inline(always)]
    pub(crate) fn count_leads(&self) -> Option<Fast<LeadsKernel>> {
        self.count_leads.map(Fast)
    }

    pub(crate) fn find_byte(&self) -> Option<Fast<FindByteKernel>> {
        self.find_byte.map(Fast)
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
