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

/// SSE4.2 tier: 64 bytes a step, their largest biased byte tested once.
///
/// # Safety
/// The CPU must support SSE4.1 (`pmaxub` is SSE2; the tier's features
/// include it).
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn find_byte_sse(src: &[u8], bias: u8, threshold: u8) -> usize {
    let (b, t) = (_mm_set1_epi8(bias as i8), _mm_set1_epi8(threshold as i8));
    let biased = |p: *const u8| {
        // SAFETY: the caller passes a pointer with 16 readable bytes.
        _mm_add_epi8(unsafe { _mm_loadu_si128(p.cast()) }, b)
    };
    let mut i = 0;
    while i + 64 <= src.len() {
        let p = src[i..i + 64].as_ptr();
        // SAFETY: `p` starts 64 readable bytes (the slice above).
        let top = unsafe {
            _mm_max_epu8(
                _mm_max_epu8(biased(p), biased(p.add(16))),
                _mm_max_epu8(biased(p.add(32)), biased(p.add(48))),
            )
        };
        if _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(top, t), top)) != 0 {
            break;
        }
        i += 64;
    }
    i + first_scalar(&src[i..], bias, threshold)
}

/// AVX2 tier: 128 bytes a step, their largest biased byte tested once.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_byte_avx2(src: &[u8], bias: u8, threshold: u8) -> usize {
    let (b, t) = (
        _mm256_set1_epi8(bias as i8),
        _mm256_set1_epi8(threshold as i8),
    );
    let biased = |p: *const u8| {
        // SAFETY: the caller passes a pointer with 32 readable bytes.
        _mm256_add_epi8(unsafe { _mm256_loadu_si256(p.cast()) }, b)
    };
    let mut i = 0;
    while i + 128 <= src.len() {
        let p = src[i..i + 128].as_ptr();
        // SAFETY: `p` starts 128 readable bytes (the slice above).
        let top = unsafe {
            _mm256_max_epu8(
                _mm256_max_epu8(biased(p), biased(p.add(32))),
                _mm256_max_epu8(biased(p.add(64)), biased(p.add(96))),
            )
        };
        if _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(top, t), top)) != 0 {
            break;
        }
        i += 128;
    }
    i + first_scalar(&src[i..], bias, threshold)
}

/// AVX-512 tier: 256 bytes a step, their largest biased byte tested once.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn find_byte_avx512(src: &[u8], bias: u8, threshold: u8) -> usize {
    let (b, t) = (
        _mm512_set1_epi8(bias as i8),
        _mm512_set1_epi8(threshold as i8),
    );
    let biased = |p: *const u8| {
        // SAFETY: the caller passes a pointer with 64 readable bytes.
        _mm512_add_epi8(unsafe { _mm512_loadu_si512(p.cast()) }, b)
    };
    let mut i = 0;
    while i + 256 <= src.len() {
        let p = src[i..i + 256].as_ptr();
        // SAFETY: `p` starts 256 readable bytes (the slice above).
        let top = unsafe {
            _mm512_max_epu8(
                _mm512_max_epu8(biased(p), biased(p.add(64))),
                _mm512_max_epu8(biased(p.add(128)), biased(p.add(192))),
            )
        };
        if _mm512_cmpge_epu8_mask(top, t) != 0 {
            break;
        }
        i += 256;
    }
    i + first_scalar(&src[i..], bias, threshold)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each tier's search against the scalar one: one hit (or two) at every
    /// position of buffers up to past two of the widest steps, for both
    /// kinds of search the dialects make.
    #[test]
    fn every_tier_finds_the_first_hit_at_every_position() {
        type Find = unsafe fn(&[u8], u8, u8) -> usize;
        let mut tiers: Vec<(&str, Find)> = Vec::new();
        if std::is_x86_feature_detected!("sse4.1") {
            tiers.push(("sse", find_byte_sse));
        }
        if std::is_x86_feature_detected!("avx2") {
            tiers.push(("avx2", find_byte_avx2));
        }
        if std::is_x86_feature_detected!("avx512bw") {
            tiers.push(("avx512", find_byte_avx512));
        }
        for (bias, threshold, hits) in [(0u8, 0xF0u8, [0xF0u8, 0xFF]), (0xFF, 0xEF, [0x00, 0xF4])] {
            for len in 0..600 {
                // Everything but a hit: every other byte value in turn.
                let base: Vec<u8> = (0..len)
                    .map(|i| {
                        let b = (i * 7 % 256) as u8;
                        if b.wrapping_add(bias) >= threshold {
                            0x41
                        } else {
                            b
                        }
                    })
                    .collect();
                for at in (0..=len).chain([len]) {
                    let mut src = base.clone();
                    if at < len {
                        src[at] = hits[at % 2];
                        if at + 9 < len {
                            src[at + 9] = hits[(at + 1) % 2];
                        }
                    }
                    let want = first_scalar(&src, bias, threshold);
                    assert_eq!(want, at.min(len));
                    for (name, find) in &tiers {
                        // SAFETY: the tier's features were detected above.
                        let got = unsafe { find(&src, bias, threshold) };
                        assert_eq!(got, want, "{name} len {len} at {at}");
                    }
                }
            }
        }
    }
}
