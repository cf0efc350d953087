//! Which tier runs: the best this CPU has, or the one `U8X_TIER` names,
//! decided on the first call and cached as a pointer to its table.

use core::sync::atomic::{AtomicI8, AtomicPtr, Ordering};

use super::Engine;
use crate::arch::{Kernels, Tier};

/// What became of the `U8X_TIER` environment variable when the tier was
/// chosen ([`Engine::request`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TierRequest {
    /// `U8X_TIER` was unset or empty: the best tier runs.
    NotSet,
    /// `U8X_TIER` named a tier this CPU has: it runs.
    Honoured,
    /// `U8X_TIER` named a tier this CPU (or this build) lacks, such as
    /// "avx512" on an AVX2 machine or "neon" on x86: the best tier runs
    /// instead.
    Unavailable,
    /// `U8X_TIER` is not a tier's name: the best tier runs instead.
    Unknown,
}

impl TierRequest {
    /// The C encoding (`u8x_tier_forced`): 1, 0, -1, -2.
    pub(crate) fn code(self) -> i8 {
        match self {
            TierRequest::Honoured => 1,
            TierRequest::NotSet => 0,
            TierRequest::Unavailable => -1,
            TierRequest::Unknown => -2,
        }
    }

    fn from_code(code: i8) -> TierRequest {
        match code {
            1 => TierRequest::Honoured,
            -1 => TierRequest::Unavailable,
            -2 => TierRequest::Unknown,
            _ => TierRequest::NotSet,
        }
    }
}

/// Parses a `U8X_TIER` value (ASCII case ignored): the tier it names and
/// whether this CPU has it, or the request's refusal.
fn parse_request(value: &[u8]) -> Result<Option<&'static Kernels>, TierRequest> {
    if value.is_empty() {
        return Ok(None);
    }
    let tier = Tier::ALL
        .into_iter()
        .find(|t| value.eq_ignore_ascii_case(t.name().as_bytes()))
        .ok_or(TierRequest::Unknown)?;
    tier.kernels().map(Some).ok_or(TierRequest::Unavailable)
}

/// Reads `U8X_TIER` and parses it (through libc, not `std::env`: the core is
/// meant to need no `std`).
#[cfg(any(unix, windows))]
fn requested_tier() -> Result<Option<&'static Kernels>, TierRequest> {
    // SAFETY: the name is NUL-terminated. getenv returns NULL or a
    // NUL-terminated string that stays valid until the environment is
    // changed; it is parsed at once and not kept. (A concurrent setenv is a
    // data race in C too; the header asks for U8X_TIER to be set before the
    // first call.)
    let value = unsafe { libc::getenv(c"U8X_TIER".as_ptr()) };
    if value.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL, so NUL-terminated (see above).
    parse_request(unsafe { core::ffi::CStr::from_ptr(value) }.to_bytes())
}

#[cfg(not(any(unix, windows)))]
fn requested_tier() -> Result<Option<&'static Kernels>, TierRequest> {
    Ok(None)
}

static BEST: AtomicPtr<Kernels> = AtomicPtr::new(core::ptr::null_mut());
/// The [`TierRequest`] code, stored before `BEST` is published.
static REQUEST: AtomicI8 = AtomicI8::new(0);

impl Engine {
    /// The tier the crate's free functions and the C functions run: the
    /// fastest this CPU supports, or the one the environment variable
    /// `U8X_TIER` names if the CPU has it ([`Engine::request`]). Decided on
    /// the first call and cached.
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

    /// Reads `U8X_TIER` and picks the tier. Threads that race here on the
    /// first call all read the same environment and store the same choice.
    #[cold]
    fn detect() -> Engine {
        let (forced, request) = match requested_tier() {
            Ok(Some(kernels)) => (Some(kernels), TierRequest::Honoured),
            Ok(None) => (None, TierRequest::NotSet),
            Err(refused) => (None, refused),
        };
        let kernels = forced.unwrap_or_else(|| {
            Tier::ALL
                .iter()
                .rev()
                .find_map(|t| t.kernels())
                .unwrap_or_else(|| {
                    Tier::Scalar
                        .kernels()
                        .expect("the scalar tier runs everywhere")
                })
        });
        REQUEST.store(request.code(), Ordering::Relaxed);
        // Release: whoever sees this tier through `request` sees its REQUEST.
        BEST.store(kernels as *const Kernels as *mut Kernels, Ordering::Release);
        Engine { kernels }
    }

    /// What became of `U8X_TIER` when [`Engine::best`] chose its tier
    /// (choosing it now if no call has yet). A refused request is not an
    /// error: the best tier runs, and this says so.
    pub fn request() -> TierRequest {
        if BEST.load(Ordering::Acquire).is_null() {
            Self::detect();
        }
        TierRequest::from_code(REQUEST.load(Ordering::Relaxed))
    }
}
