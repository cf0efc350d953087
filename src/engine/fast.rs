//! One kernel call each, through this engine's table: what the routes
//! call, with what a tier without the kernel does instead (a `None`, or
//! the portable loop).

use super::driver;
use super::Engine;
use crate::contract::{FastStop, Stops, Utf8Stats};
use crate::{EncodePolicy, Policy, Progress};

impl Engine {
    /// UTF-8 to UTF-16 with this tier's own kernel, or the portable core's
    /// loop if it has none.
    pub(crate) fn decode_utf16_fast(
        &self,
        src: &[u8],
        dst: &mut [u16],
        policy: Policy,
        order: crate::ByteOrder,
        more_input: bool,
    ) -> Progress {
        driver::decode_utf16(self.kernels, src, dst, policy, order, more_input)
    }

    /// UTF-16 to UTF-8 with this tier's own kernel, or `None` if it has
    /// none (`forms` then encodes through UCS-4).
    pub(crate) fn encode_utf16_kernel(
        &self,
        src: &[u16],
        dst: &mut [u8],
        policy: EncodePolicy,
        order: crate::ByteOrder,
        more_input: bool,
    ) -> Option<Progress> {
        driver::encode_utf16(self.kernels, src, dst, policy, order, more_input)
    }

    /// The longest prefix of `src` that is RFC 3629 UTF-8 without `stops`,
    /// decoded to UCS-4 as far as it fits, with this tier's kernel if it
    /// has one. The kernel flags the first error or stop after the prefix
    /// (or the end of `src`, if it ends inside a sequence).
    pub(crate) fn decode_stopping_kernel(
        &self,
        src: &[u8],
        dst: &mut [u32],
        stops: Stops,
    ) -> Option<FastStop> {
        self.kernels
            .decode_stopping()
            .map(|k| k.run(src, dst, stops))
    }

    /// [`Engine::decode_stopping_kernel`] to UTF-16.
    pub(crate) fn decode_utf16_stopping_kernel(
        &self,
        src: &[u8],
        dst: &mut [u16],
        order: crate::ByteOrder,
        stops: Stops,
    ) -> Option<FastStop> {
        self.kernels
            .decode_utf16_stopping()
            .map(|k| k.run(src, dst, order.swaps(), stops))
    }

    /// Validation of the longest prefix of `src` that is RFC 3629 UTF-8
    /// without `stops`, with this tier's kernel if it has one; flags as
    /// [`Engine::decode_stopping_kernel`] does.
    pub(crate) fn validate_stopping_kernel(&self, src: &[u8], stops: Stops) -> Option<FastStop> {
        self.kernels.validate_stopping().map(|k| k.run(src, stops))
    }

    /// The pairs of the run of CESU-8 surrogate pairs at the start of `src`
    /// decoded into `dst` by this tier's kernel (0 if it has none); the
    /// scalar loop takes the rest of the run.
    pub(crate) fn pairs_kernel(&self, src: &[u8], dst: &mut [u32]) -> usize {
        self.kernels.pairs().map_or(0, |k| k.run(src, dst))
    }

    /// [`Engine::pairs_kernel`] to UTF-16 units.
    pub(crate) fn pairs_utf16_kernel(&self, src: &[u8], dst: &mut [u16], swap: bool) -> usize {
        self.kernels
            .pairs_utf16()
            .map_or(0, |k| k.run(src, dst, swap))
    }

    /// Latin-1 to UTF-8 with this tier's own kernel, or `None` if it has
    /// none.
    pub(crate) fn encode_latin1_kernel(&self, src: &[u8], dst: &mut [u8]) -> Option<Progress> {
        driver::encode_latin1(self.kernels, src, dst)
    }

    /// UTF-8 to Latin-1 with this tier's own kernel, or `None` if it has
    /// none.
    pub(crate) fn decode_latin1_kernel(
        &self,
        src: &[u8],
        dst: &mut [u8],
        policy: crate::Latin1Policy,
        more_input: bool,
    ) -> Option<Progress> {
        driver::decode_latin1(self.kernels, src, dst, policy, more_input)
    }

    /// The counts of `src` with this tier's kernel, if it has one.
    /// The first byte `b` of `src` with `b + bias >= threshold` (wrapping)
    /// with this tier's kernel, if it has one.
    pub(crate) fn find_byte_kernel(&self, src: &[u8], bias: u8, threshold: u8) -> Option<usize> {
        self.kernels
            .find_byte()
            .map(|k| k.run(src, bias, threshold))
    }

    /// UTF-16 (byte-swapped with `swap`) to CESU-8, or with `mutf8` to
    /// Modified UTF-8, up to the first unpaired surrogate or as far as it
    /// fits, with this tier's kernel, if it has one.
    pub(crate) fn encode_utf16_cesu_kernel(
        &self,
        src: &[u16],
        dst: &mut [u8],
        swap: bool,
        mutf8: bool,
    ) -> Option<FastStop> {
        self.kernels
            .encode_utf16_cesu()
            .map(|k| k.run(src, dst, swap, mutf8))
    }

    /// Whether this tier has a CESU-8 encoder
    /// ([`Engine::encode_utf16_cesu_kernel`]).
    pub(crate) fn has_cesu_kernel(&self) -> bool {
        self.kernels.encode_utf16_cesu().is_some()
    }

    pub(crate) fn stats_kernel(&self, src: &[u8]) -> Option<Utf8Stats> {
        self.kernels.stats().map(|k| k.run(src))
    }

    /// UTF-16 units of well-formed UTF-8 with this tier's kernel, if it has
    /// one.
    pub(crate) fn utf16_len_kernel(&self, src: &[u8]) -> Option<usize> {
        self.kernels.utf16_len().map(|k| k.run(src))
    }

    /// Validation and the counts of the valid prefix, with this tier's
    /// kernel, if it has one: the validation as [`Engine::validate_chunk`]
    /// reports it.
    pub(crate) fn classify_kernel(
        &self,
        src: &[u8],
        more_input: bool,
    ) -> Option<(Progress, Utf8Stats)> {
        let fast = self.kernels.classify()?;
        let (stop, mut stats, counted_to) = fast.run(src);
        let progress = if stop.read == src.len() {
            Progress {
                status: crate::Status::Done,
                read: stop.read,
                written: 0,
                handled: 0,
            }
        } else {
            // The error is within a few bytes: the reference finds it
            // exactly.
            let p = crate::reference::validate::validate(&src[stop.read..], more_input);
            let status = match p.status {
                crate::Status::IllFormed(mut e) => {
                    e.valid_up_to += stop.read;
                    crate::Status::IllFormed(e)
                }
                other => other,
            };
            Progress {
                status,
                read: stop.read + p.read,
                written: 0,
                handled: 0,
            }
        };
        let count = |bytes: &[u8]| {
            self.stats_kernel(bytes)
                .unwrap_or_else(|| crate::reference::classify::stats_of(bytes))
        };
        if counted_to > progress.read {
            // The kernel counted a group whose last bytes turned out to
            // start an ill-formed sequence: count the prefix again.
            return Some((progress, count(&src[..progress.read])));
        }
        // The valid bytes the kernel left uncounted.
        let more = count(&src[counted_to..progress.read]);
        stats.leads += more.leads;
        stats.fours += more.fours;
        stats.max = stats.max.max(more.max);
        Some((progress, stats))
    }

    /// UTF-8 bytes of well-formed UTF-16 with this tier's kernel, if it has
    /// one.
    pub(crate) fn utf8_len_utf16_kernel(&self, src: &[u16], swap: bool) -> Option<usize> {
        self.kernels.utf8_len_utf16().map(|k| k.run(src, swap))
    }
}
