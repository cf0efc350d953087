//! CPU feature detection with CPUID and XGETBV, for a `no_std` library.
//!
//! `std::is_x86_feature_detected!` is not available without `std`, so this
//! reads the few bits the kernels are compiled for. As in `std`, a feature
//! counts only when the CPU has it *and* the operating system saves the
//! registers it uses (XCR0, read with XGETBV once CPUID says the OS enabled
//! it): AVX2 needs the XMM and YMM states, AVX-512 also the opmask and both
//! halves of the ZMM state. The answer is computed once and cached in an
//! atomic; racing first calls compute the same value, so no lock is needed.

use core::arch::x86_64::{__cpuid_count, _xgetbv, CpuidResult};
use core::sync::atomic::{AtomicU32, Ordering};

/// A set of features, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Features(u32);

impl Features {
    pub(crate) const SSSE3: Features = Features(1 << 0);
    pub(crate) const SSE41: Features = Features(1 << 1);
    pub(crate) const SSE42: Features = Features(1 << 2);
    pub(crate) const POPCNT: Features = Features(1 << 3);
    pub(crate) const AVX2: Features = Features(1 << 4);
    pub(crate) const BMI1: Features = Features(1 << 5);
    pub(crate) const AVX512F: Features = Features(1 << 6);
    pub(crate) const AVX512BW: Features = Features(1 << 7);
    pub(crate) const AVX512CD: Features = Features(1 << 8);
    pub(crate) const AVX512VBMI: Features = Features(1 << 9);
    pub(crate) const AVX512VBMI2: Features = Features(1 << 10);
    pub(crate) const BMI2: Features = Features(1 << 11);

    /// The union of two sets.
    pub(crate) const fn and(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }
}

/// Set in the cache once detection ran (no feature uses this bit).
const DETECTED: u32 = 1 << 31;

static CACHE: AtomicU32 = AtomicU32::new(0);

/// Whether this CPU, and the OS, support every feature in `wanted`.
pub(crate) fn has(wanted: Features) -> bool {
    let mut bits = CACHE.load(Ordering::Relaxed);
    if bits & DETECTED == 0 {
        bits = detect().0 | DETECTED;
        CACHE.store(bits, Ordering::Relaxed);
    }
    bits & wanted.0 == wanted.0
}

fn cpuid(leaf: u32) -> CpuidResult {
    // SAFETY: CPUID exists on every x86-64 CPU; leaves above the maximum
    // return unspecified data but never fault, and `detect` reads leaf 7
    // only when leaf 0 says it exists.
    #[allow(unused_unsafe)]
    unsafe {
        __cpuid_count(leaf, 0)
    }
}

/// XCR0, the register states the OS saves on a context switch.
///
/// # Safety
/// The CPU must support XGETBV, and the OS must have enabled it: CPUID leaf
/// 1, ECX bit 27 (OSXSAVE).
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    // SAFETY: the caller checked OSXSAVE.
    unsafe { _xgetbv(0) }
}

fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 == 1
}

fn detect() -> Features {
    let max_leaf = cpuid(0).eax;
    let leaf1 = cpuid(1);
    let leaf7 = if max_leaf >= 7 {
        cpuid(7)
    } else {
        CpuidResult {
            eax: 0,
            ebx: 0,
            ecx: 0,
            edx: 0,
        }
    };
    let osxsave = bit(leaf1.ecx, 27);
    // SAFETY: OSXSAVE is set, so XGETBV is supported and enabled.
    let xcr0 = if osxsave { unsafe { xcr0() } } else { 0 };
    // XMM (bit 1) and YMM (bit 2); AVX-512 adds opmask (5), ZMM_Hi256 (6)
    // and Hi16_ZMM (7).
    let os_avx = xcr0 & 0x06 == 0x06;
    let os_avx512 = os_avx && xcr0 & 0xe0 == 0xe0;
    let avx = os_avx && bit(leaf1.ecx, 28);
    let avx512f = avx && os_avx512 && bit(leaf7.ebx, 16);

    let flags = [
        (bit(leaf1.ecx, 9), Features::SSSE3),
        (bit(leaf1.ecx, 19), Features::SSE41),
        (bit(leaf1.ecx, 20), Features::SSE42),
        (bit(leaf1.ecx, 23), Features::POPCNT),
        (avx && bit(leaf7.ebx, 5), Features::AVX2),
        (bit(leaf7.ebx, 3), Features::BMI1),
        (bit(leaf7.ebx, 8), Features::BMI2),
        (avx512f, Features::AVX512F),
        (avx512f && bit(leaf7.ebx, 30), Features::AVX512BW),
        (avx512f && bit(leaf7.ebx, 28), Features::AVX512CD),
        (avx512f && bit(leaf7.ecx, 1), Features::AVX512VBMI),
        (avx512f && bit(leaf7.ecx, 6), Features::AVX512VBMI2),
    ];
    flags
        .iter()
        .filter(|(present, _)| *present)
        .fold(Features(0), |set, &(_, f)| set.and(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `std`'s detection is the oracle: every feature agrees with it.
    #[test]
    fn agrees_with_std() {
        let cases = [
            (Features::SSSE3, std::is_x86_feature_detected!("ssse3")),
            (Features::SSE41, std::is_x86_feature_detected!("sse4.1")),
            (Features::SSE42, std::is_x86_feature_detected!("sse4.2")),
            (Features::POPCNT, std::is_x86_feature_detected!("popcnt")),
            (Features::AVX2, std::is_x86_feature_detected!("avx2")),
            (Features::BMI1, std::is_x86_feature_detected!("bmi1")),
            (Features::BMI2, std::is_x86_feature_detected!("bmi2")),
            (Features::AVX512F, std::is_x86_feature_detected!("avx512f")),
            (
                Features::AVX512BW,
                std::is_x86_feature_detected!("avx512bw"),
            ),
            (
                Features::AVX512CD,
                std::is_x86_feature_detected!("avx512cd"),
            ),
            (
                Features::AVX512VBMI,
                std::is_x86_feature_detected!("avx512vbmi"),
            ),
            (
                Features::AVX512VBMI2,
                std::is_x86_feature_detected!("avx512vbmi2"),
            ),
        ];
        for (i, (feature, expected)) in cases.into_iter().enumerate() {
            assert_eq!(has(feature), expected, "feature #{i} ({feature:?})");
        }
        let all = cases.iter().fold(Features(0), |s, &(f, _)| s.and(f));
        assert_eq!(has(all), cases.iter().all(|&(_, e)| e));
    }
}
