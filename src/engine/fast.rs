//! The kernels some tiers lack (the `Option` entries of a table), one call
//! each: what the routes call, with what a tier without the kernel gives
//! instead (`None`, or nothing done).

use super::Engine;
use crate::contract::{FastStop, Stops};
use crate::Progress;

impl Engine {
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

    /// UTF-8 to Latin-1 with this tier's own kernel, or `None` if it has
    /// none.
    pub(crate) fn decode_latin1_kernel(
        &self,
        src: &[u8],
        dst: &mut [u8],
        policy: crate::Latin1Policy,
        more_input: bool,
    ) -> Option<Progress> {
        super::latin1::decode_latin1(self.kernels, src, dst, policy, more_input)
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
}
