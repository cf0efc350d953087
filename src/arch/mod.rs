//! Vector kernels and the runtime choice between them.
//!
//! Every fast kernel has the same shape: it runs over a *valid prefix* of its
//! input at full speed and stops, at a character boundary, before the first
//! block in which it sees an error (or before it would overrun the output).
//! [`driver`] then hands a few bytes around the error to the scalar core,
//! which applies the caller's policy exactly, and restarts the kernel after
//! them. Valid input never leaves the fast path, and an error costs one short
//! scalar window, so precise errors and non-strict policies are nearly free.
//!
//! The tier is detected once, on first use, and cached as a pointer to a
//! static table of kernels ([`Engine::best`]); [`Engine::new`] forces a tier
//! for tests and benchmarks.

mod driver;
mod kernels;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use core::sync::atomic::{AtomicPtr, Ordering};

use crate::{EncodePolicy, Policy, Progress};
use kernels::SCALAR;
pub(crate) use kernels::{Kernels, Table};

/// Where a fast kernel stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FastStop {
    /// Input consumed: everything before it was well-formed and was emitted.
    /// Always a character boundary.
    pub read: usize,
    /// Output units written (or counted).
    pub written: usize,
    /// Where the kernel saw an error (a byte offset for UTF-8 input, a unit
    /// index for UCS-4 input). `None` when it stopped at the end of the input
    /// or for lack of output room.
    pub flagged: Option<usize>,
}

/// An instruction-set tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tier {
    /// The portable, safe scalar core (the reference for every other tier).
    Scalar,
    /// x86-64 SSE4.2 with SSSE3 (every x86-64 CPU since about 2009).
    Sse42,
    /// x86-64 AVX2 (Haswell and later, Zen).
    Avx2,
    /// x86-64 AVX-512 with BW, VBMI, VBMI2 and CD (Ice Lake and later, Zen 4).
    Avx512,
}

impl Tier {
    /// Every tier, slowest first.
    pub const ALL: [Tier; 4] = [Tier::Scalar, Tier::Sse42, Tier::Avx2, Tier::Avx512];

    /// Whether this CPU can run the tier.
    pub fn is_available(self) -> bool {
        self.kernels().is_some()
    }

    fn kernels(self) -> Option<&'static Kernels> {
        match self {
            Tier::Scalar => Some(&SCALAR),
            #[cfg(target_arch = "x86_64")]
            Tier::Sse42 => x86_64::sse::kernels(),
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => x86_64::avx2::kernels(),
            #[cfg(target_arch = "x86_64")]
            Tier::Avx512 => x86_64::avx512::kernels(),
            #[cfg(not(target_arch = "x86_64"))]
            Tier::Sse42 | Tier::Avx2 | Tier::Avx512 => None,
        }
    }
}

static BEST: AtomicPtr<Kernels> = AtomicPtr::new(core::ptr::null_mut());

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
    /// The fastest tier this CPU supports, detected on the first call and
    /// cached.
    #[inline]
    pub fn best() -> Engine {
        let cached = BEST.load(Ordering::Relaxed);
        if !cached.is_null() {
            // SAFETY: BEST only ever holds pointers to the `'static` tables
            // stored below.
            return Engine {
                kernels: unsafe { &*cached },
            };
        }
        Self::detect()
    }

    #[cold]
    fn detect() -> Engine {
        let kernels = Tier::ALL
            .iter()
            .rev()
            .find_map(|t| t.kernels())
            .unwrap_or(&SCALAR);
        BEST.store(kernels as *const Kernels as *mut Kernels, Ordering::Relaxed);
        Engine { kernels }
    }

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
        driver::validate(self.kernels, src, more_input)
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
        driver::decode(self.kernels, src, dst, policy, more_input)
    }

    /// See [`crate::count`].
    pub fn count(&self, src: &[u8], policy: Policy, more_input: bool) -> Progress {
        driver::count(self.kernels, src, policy, more_input)
    }

    /// See [`crate::encode`].
    pub fn encode(&self, src: &[u32], dst: &mut [u8], policy: EncodePolicy) -> Progress {
        driver::encode(self.kernels, src, dst, policy)
    }

    /// See [`crate::count_valid`].
    pub fn count_valid(&self, src: &[u8]) -> usize {
        match self.kernels.count_leads() {
            Some(fast) => fast.run(src),
            None => crate::scalar::validate::count_leads(src),
        }
    }

    /// See [`crate::encoded_len`].
    pub fn encoded_len(&self, src: &[u32], policy: EncodePolicy) -> Progress {
        driver::encoded_len(self.kernels, src, policy)
    }
}

/// Where a validating count stops at an error flagged at byte `e`, found
/// while checking the `width`-byte block at `i` (whose lead bytes are
/// `block_leads`) after counting `counted` characters up to `i`.
///
/// The count resumes exactly at the restart point `q`: when `q` lies in this
/// block, its leads before `q` are added; when it lies in the previous block
/// (`prev_leads`, already counted), that block's leads from `q` on are taken
/// back.
pub(crate) fn count_until_error(
    src: &[u8],
    e: usize,
    (i, width): (usize, usize),
    counted: usize,
    block_leads: u64,
    prev_leads: u64,
) -> FastStop {
    let below = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let q = restart_point(src, e);
    let counted = if q >= i {
        counted + (block_leads & below(q - i)).count_ones() as usize
    } else {
        counted - (prev_leads & !below(q + width - i)).count_ones() as usize
    };
    FastStop {
        read: q,
        written: counted,
        flagged: Some(e.min(src.len())),
    }
}

/// Where to restart exactly after a kernel flagged an error at byte `e`: the
/// last segment start in `e-3..e` (a multi-byte sequence that the error cut
/// short starts there), or `e` itself. Every byte before it is well-formed.
pub(crate) fn restart_point(src: &[u8], e: usize) -> usize {
    let e = e.min(src.len());
    (e.saturating_sub(3)..e)
        .rev()
        .find(|&q| !crate::scalar::segment::is_continuation(src[q]))
        .unwrap_or(e)
}
