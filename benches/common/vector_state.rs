//! The vector registers' state between timed implementations.
//!
//! A peer's AVX-512 code can return with the upper halves of the vector
//! registers still dirty (no `vzeroupper`). Code compiled for baseline
//! x86-64 run after that (u8x's scalar and SSE4.2 tiers, `std`) pays for
//! it on every legacy-SSE instruction: on Zen 5, u8x's scalar decoding of
//! the all-ASCII Latin file fell from 16 to 2.6 GB/s. Compilers clear the
//! state whenever their own code leaves AVX, so every timing starts from
//! the state a program compiled by them would be in.

/// Clears the upper halves of the vector registers, where the CPU has
/// them.
#[inline(never)]
pub fn clear_upper_halves() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX, which `vzeroupper` needs.
        unsafe { zero_upper() }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn zero_upper() {
    std::arch::x86_64::_mm256_zeroupper();
}
