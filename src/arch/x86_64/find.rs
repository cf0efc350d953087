//! Finding the first byte in a range: where a dialect's own forms start
//! (CESU-8's refused 4-byte leads, Modified UTF-8's 00), so that the RFC
//! 3629 kernels can take everything before it.
//!
//! A byte `b` is a hit when `b + bias >= threshold` (wrapping, unsigned):
//! bias 0 finds `threshold..=FF`, bias FF also finds 00. Each tier tests
//! whole blocks with no branch inside one, then finds the exact byte in
//! the block that hit with a scalar loop: hits are rare where speed
//! matters.

use core::arch::x86_64::*;

fn first_scalar(src: &[u8], bias: u8, threshold: u8) -> usize {
    src.iter()
        .position(|&b| b.wrapping_add(bias) >= threshold)
        .unwrap_or(src.len())
}

/// SSE4.2 tier: 64 bytes a step.
///
/// # Safety
/// The CPU must support SSE4.1 (`pmaxub` is SSE2; the tier's features
/// include it).
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn find_byte_sse(src: &[u8], bias: u8, threshold: u8) -> usize {
    let (b, t) = (_mm_set1_epi8(bias as i8), _mm_set1_epi8(threshold as i8));
    let hits = |p: *const u8| {
        // SAFETY: the caller passes a pointer with 16 readable bytes.
        let v = _mm_add_epi8(unsafe { _mm_loadu_si128(p.cast()) }, b);
        _mm_cmpeq_epi8(_mm_max_epu8(v, t), v)
    };
    let mut i = 0;
    while i + 64 <= src.len() {
        let p = src[i..i + 64].as_ptr();
        // SAFETY: `p` starts 64 readable bytes (the slice above).
        let any = unsafe {
            _mm_or_si128(
                _mm_or_si128(hits(p), hits(p.add(16))),
                _mm_or_si128(hits(p.add(32)), hits(p.add(48))),
            )
        };
        if _mm_movemask_epi8(any) != 0 {
            break;
        }
        i += 64;
    }
    i + first_scalar(&src[i..], bias, threshold)
}

/// AVX2 tier: 128 bytes a step.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_byte_avx2(src: &[u8], bias: u8, threshold: u8) -> usize {
    let (b, t) = (
        _mm256_set1_epi8(bias as i8),
        _mm256_set1_epi8(threshold as i8),
    );
    let hits = |p: *const u8| {
        // SAFETY: the caller passes a pointer with 32 readable bytes.
        let v = _mm256_add_epi8(unsafe { _mm256_loadu_si256(p.cast()) }, b);
        _mm256_cmpeq_epi8(_mm256_max_epu8(v, t), v)
    };
    let mut i = 0;
    while i + 128 <= src.len() {
        let p = src[i..i + 128].as_ptr();
        // SAFETY: `p` starts 128 readable bytes (the slice above).
        let any = unsafe {
            _mm256_or_si256(
                _mm256_or_si256(hits(p), hits(p.add(32))),
                _mm256_or_si256(hits(p.add(64)), hits(p.add(96))),
            )
        };
        if _mm256_movemask_epi8(any) != 0 {
            break;
        }
        i += 128;
    }
    i + first_scalar(&src[i..], bias, threshold)
}

/// AVX-512 tier: 128 bytes a step, with mask registers.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn find_byte_avx512(src: &[u8], bias: u8, threshold: u8) -> usize {
    let (b, t) = (
        _mm512_set1_epi8(bias as i8),
        _mm512_set1_epi8(threshold as i8),
    );
    let hits = |p: *const u8| {
        // SAFETY: the caller passes a pointer with 64 readable bytes.
        let v = _mm512_add_epi8(unsafe { _mm512_loadu_si512(p.cast()) }, b);
        _mm512_cmpge_epu8_mask(v, t)
    };
    let mut i = 0;
    while i + 128 <= src.len() {
        let p = src[i..i + 128].as_ptr();
        // SAFETY: `p` starts 128 readable bytes (the slice above).
        let any = unsafe { hits(p) | hits(p.add(64)) };
        if any != 0 {
            break;
        }
        i += 128;
    }
    i + first_scalar(&src[i..], bias, threshold)
}
