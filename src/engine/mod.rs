//! The engine: every route from a public operation to the kernels that
//! run it, and the only `impl Engine`.
//!
//! An [`Engine`] is one tier's table of kernels ([`crate::arch`]). Every
//! route has the same shape: the tier's fast kernel runs over the valid
//! stretch of the input and stops before the first error (the kernel
//! contract, [`crate::contract`]); the reference core ([`crate::reference`],
//! or a dialect's, [`crate::dialect`]) applies the caller's policy to the
//! few units there; the kernel resumes after them. Valid input never leaves
//! the fast path, and an error costs one short window, so precise errors
//! and non-strict policies are nearly free.
//!
//! - [`tier`]: which tier runs, chosen once and cached ([`Engine::best`]).
//! - [`run`]: the shared loop; [`ucs4`]: the UTF-8 <-> UCS-4 routes.
//! - [`fast`]: the kernels some tiers lack, one call each.
//! - [`utf16`], [`latin1`], [`classify`]: the runtimes' forms;
//!   [`convert`]: those forms to one another, with no UTF-8 between;
//!   [`units`]: ASCII and width checks, well-formed UTF-16, byte swaps;
//!   [`detect`]: which encodings bytes of unknown encoding are valid as;
//!   [`chunks`] converts through a buffer of code points where a tier has
//!   no kernel of its own.
//! - [`stopping`]: the RFC 3629 kernels made to stop where a dialect
//!   differs; [`dialect`]: the dialects' routes.

mod chunks;
mod classify;
mod convert;
mod detect;
mod dialect;
mod fast;
mod latin1;
mod run;
mod stopping;
mod tier;
mod ucs4;
mod units;
mod utf16;

use crate::arch::{Kernels, Tier};
use crate::{EncodePolicy, Policy, Progress};
pub use tier::TierRequest;

/// A handle on one tier's kernels, with the same operations as the crate's
/// free functions (which use [`Engine::best`]).
#[derive(Clone, Copy)]
pub struct Engine {
    kernels: &'static Kernels,
}

impl core::fmt::Debug for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Engine").field(&self.kernels.tier()).finish()
    }
}

impl Engine {
    /// A specific tier, or `None` if this CPU lacks it.
    pub fn new(tier: Tier) -> Option<Engine> {
        tier.kernels().map(|kernels| Engine { kernels })
    }

    /// The tier this engine runs.
    pub fn tier(&self) -> Tier {
        self.kernels.tier()
    }

    /// See [`crate::validate_chunk`].
    #[inline]
    pub fn validate_chunk(&self, src: &[u8], more_input: bool) -> Progress {
        ucs4::validate(self.kernels, src, more_input)
    }

    /// See [`crate::decode_ucs4`].
    #[inline]
    pub fn decode_ucs4(
        &self,
        src: &[u8],
        dst: &mut [u32],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        ucs4::decode(self.kernels, src, dst, policy, more_input)
    }

    /// See [`crate::count`].
    pub fn count(&self, src: &[u8], policy: Policy, more_input: bool) -> Progress {
        ucs4::count(self.kernels, src, policy, more_input)
    }

    /// See [`crate::encode`].
    pub fn encode(&self, src: &[u32], dst: &mut [u8], policy: EncodePolicy) -> Progress {
        ucs4::encode(self.kernels, src, dst, policy)
    }

    /// See [`crate::count_valid`].
    pub fn count_valid(&self, src: &[u8]) -> usize {
        self.kernels.count_leads().run(src)
    }

    /// See [`crate::encoded_len`].
    pub fn encoded_len(&self, src: &[u32], policy: EncodePolicy) -> Progress {
        ucs4::encoded_len(self.kernels, src, policy)
    }
}
