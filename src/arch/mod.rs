//! The tiers and their kernels: for each instruction-set tier a static
//! table of kernels ([`kernels`]), each a function that keeps the kernel
//! contract ([`crate::contract`]). Which tier runs, and the routes that call
//! the kernels, are the engine's ([`crate::engine`]).

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;
pub(crate) mod kernels;
pub(crate) mod loops;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod x86_64;

pub(crate) use kernels::Kernels;
pub(crate) use kernels::Table;

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

    /// The tier's table of kernels, if this CPU has it.
    pub(crate) fn kernels(self) -> Option<&'static Kernels> {
        match self {
            Tier::Scalar => Some(scalar::kernels()),
            #[cfg(target_arch = "x86_64")]
            Tier::Sse42 => x86_64::sse::kernels(),
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => x86_64::avx2::kernels(),
            #[cfg(target_arch = "x86_64")]
            Tier::Avx512 => x86_64::avx512::kernels(),
            #[cfg(not(target_arch = "x86_64"))]
            Tier::Sse42 | Tier::Avx2 | Tier::Avx512 => None,
            #[cfg(target_arch = "aarch64")]
            Tier::Neon => aarch64::neon::kernels(),
            #[cfg(not(target_arch = "aarch64"))]
            Tier::Neon => None,
        }
    }
}
