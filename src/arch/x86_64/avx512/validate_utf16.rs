//! UTF-16 validation, 64 units a step, by masks.
//!
//! The rule is the portable loop's (`portable::validate_utf16`): unit `k`
//! is a low surrogate exactly when unit `k - 1` is a high one. With
//! AVX-512's compares into mask registers that is one comparison of two
//! 64-bit masks, `low == high << 1 | carry`, where `carry` says the unit
//! before the step was a high surrogate: no second, shifted load and no
//! reduction across lanes. A step without surrogates costs two vector
//! operations a vector and one test of a mask. The portable loop compiled
//! for AVX-512 ran at 0.71x-0.91x simdutf 9.1 on AMD Zen 4, its minimum's
//! reduction across lanes costing as much as the test.
//!
//! Like the portable loop, it returns a well-formed prefix that does not
//! end on a high surrogate, short of the first error or the end by at most
//! a step and a unit; the reference core reads the rest.

use core::arch::x86_64::*;

/// See `arch::loops::Loops::valid_utf16_prefix`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn valid_utf16_prefix(src: &[u16], swap: bool) -> usize {
    // SAFETY: the caller's promise.
    unsafe {
        if swap {
            prefix::<true>(src)
        } else {
            prefix::<false>(src)
        }
    }
}

/// [`valid_utf16_prefix`], the units byte-swapped with `SWAP`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn prefix<const SWAP: bool>(src: &[u16]) -> usize {
    // Tests of the units as they lie in memory: a swapped unit's test is
    // the same test with its constants swapped.
    let w = |v: u16| _mm512_set1_epi16(if SWAP { v.swap_bytes() } else { v } as i16);
    let (any, half, d800) = (w(0xF800), w(0xFC00), w(0xD800));
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut i = 0;
    // 1 when unit i - 1 is a high surrogate.
    let mut carry = 0u64;
    while len - i >= 64 {
        // SAFETY: units i..i+64 are in bounds.
        let (a, b) = unsafe {
            (
                _mm512_loadu_si512(ptr.add(i).cast()),
                _mm512_loadu_si512(ptr.add(i + 32).cast()),
            )
        };
        let sa = _mm512_cmpeq_epi16_mask(_mm512_and_si512(a, any), d800);
        let sb = _mm512_cmpeq_epi16_mask(_mm512_and_si512(b, any), d800);
        let surrogates = _mm512_kunpackd(sb as u64, sa as u64);
        if surrogates | carry == 0 {
            // SAFETY: ptr points to len readable units.
            i = unsafe { skip_runs(ptr, i + 64, len, any, d800) };
            continue;
        }
        let ha = _mm512_mask_cmpeq_epi16_mask(sa, _mm512_and_si512(a, half), d800);
        let hb = _mm512_mask_cmpeq_epi16_mask(sb, _mm512_and_si512(b, half), d800);
        let high = _mm512_kunpackd(hb as u64, ha as u64);
        if surrogates ^ high != high << 1 | carry {
            break;
        }
        carry = high >> 63;
        i += 64;
    }
    // Every unit before i is in place; the last may be a high surrogate
    // whose low half was not checked.
    i - carry as usize
}

/// The end of the runs of 128 units without a surrogate from `i`: four
/// vectors a test, each unit's `(u & F800) ^ D800` (zero for a surrogate)
/// in one `VPTERNLOGD`, their minimum tested once. On AMD Zen 4 (five
/// interleaved runs of `forms --tier avx512`, BMP text) four compares into
/// masks ORed instead ran 5-18% slower, and no skip loop at all (the step
/// loop for every 64 units, as simdutf's kernel does) 2-10% slower.
///
/// # Safety
/// `ptr` points to `len` readable units.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn skip_runs(
    ptr: *const u16,
    mut i: usize,
    len: usize,
    any: __m512i,
    d800: __m512i,
) -> usize {
    while len - i >= 128 {
        // SAFETY: units i..i+128 are in bounds.
        let v = unsafe { [0, 32, 64, 96].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
        // (a & b) ^ c.
        let t = v.map(|u| _mm512_ternarylogic_epi32::<0x6A>(u, any, d800));
        let least = _mm512_min_epu16(_mm512_min_epu16(t[0], t[1]), _mm512_min_epu16(t[2], t[3]));
        if _mm512_testn_epi16_mask(least, least) != 0 {
            break;
        }
        i += 128;
    }
    i
}
