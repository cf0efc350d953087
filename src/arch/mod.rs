//! Vector kernels and the runtime choice between them.
//!
//! Every fast kernel has the same shape: it runs over a *valid prefix* of its
//! input at full speed and stops, at a character boundary, before the first
//! block in which it sees an error (or before it would overrun the output).
//! [`driver`] then hands a few bytes around the error to the reference core,
//! which applies the caller's policy exactly, and restarts the kernel after
//! them. Valid input never leaves the fast path, and an error costs one short
//! scalar window, so precise errors and non-strict policies are nearly free.
//!
//! The tier is detected once, on first use, and cached as a pointer to a
//! static table of kernels ([`Engine::best`]); [`Engine::new`] forces a tier
//! for tests and benchmarks, and the environment variable `U8X_TIER` forces
//! one from outside the program ([`TierRequest`]).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod driver;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;
mod kernels;
mod stopping;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use core::sync::atomic::{AtomicI8, AtomicPtr, Ordering};

use crate::contract::{FastStop, Stops, Utf8Stats};
use crate::{EncodePolicy, Policy, Progress};
pub(crate) use kernels::Kernels;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use kernels::Table;
use kernels::SCALAR;

/// An instruction-set tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tier {
    /// The portable tier: safe Rust on any CPU, which the compiler
    /// vectorises where it can (the tier the others are tested against).
    Scalar,
    /// x86-64 SSE4.2 with SSSE3 (every x86-64 CPU since about 2009).
    Sse42,
    /// x86-64 AVX2 (Haswell and later, Zen).
    Avx2,
    /// x86-64 AVX-512 with BW, VBMI, VBMI2 and CD (Ice Lake and later, Zen 4).
    Avx512,
    /// aarch64 NEON (every 64-bit Arm CPU: Apple silicon, Graviton,
    /// Cortex-A). Not comparable with the x86 tiers; listed last so that
    /// it is the best tier wherever it exists.
    Neon,
}

impl Tier {
    /// Every tier, slowest first (of those one CPU can have).
    pub const ALL: [Tier; 5] = [
        Tier::Scalar,
        Tier::Sse42,
        Tier::Avx2,
        Tier::Avx512,
        Tier::Neon,
    ];

    /// The tier's lower-case name, as `U8X_TIER` takes it: "scalar",
    /// "sse42", "avx2", "avx512" or "neon".
    pub fn name(self) -> &'static str {
        let n = self.name_nul();
        &n[..n.len() - 1]
    }

    /// [`Tier::name`] with a NUL, for C.
    pub(crate) fn name_nul(self) -> &'static str {
        match self {
            Tier::Scalar => "scalar\0",
            Tier::Sse42 => "sse42\0",
            Tier::Avx2 => "avx2\0",
            Tier::Avx512 => "avx512\0",
            Tier::Neon => "neon\0",
        }
    }

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
            #[cfg(target_arch = "aarch64")]
            Tier::Neon => aarch64::kernels(),
            #[cfg(not(target_arch = "aarch64"))]
            Tier::Neon => None,
        }
    }
}

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
                .unwrap_or(&SCALAR)
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
            None => crate::portable::count::count_leads(src),
        }
    }

    /// See [`crate::encoded_len`].
    pub fn encoded_len(&self, src: &[u32], policy: EncodePolicy) -> Progress {
        driver::encoded_len(self.kernels, src, policy)
    }
}
