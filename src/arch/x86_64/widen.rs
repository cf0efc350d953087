//! Widening a short string the engine has found to be all ASCII: one code
//! point per byte, zero-extended. Each tier's version is a leaf function of
//! a few loads, widening moves and stores, so that a 64-byte string costs
//! one indirect call instead of the decoder's set-up (its constants, its
//! saved registers, its block loop).
//!
//! Lengths that are not a multiple of the vector width end with one more
//! vector over the *last* bytes, overlapping the one before: it rewrites the
//! same values, so no store lands past `out[len - 1]`. Strings shorter than
//! one vector go byte by byte.
//!
//! `ascii_units_sse41_stopping` and `ascii_units_avx2` widen the ASCII
//! blocks that start a stretch of UTF-8 into UTF-16 units (for the stopping
//! decoders' plain runs, and AVX2's UTF-16 decoder), testing and widening
//! each block in one pass.

use core::arch::x86_64::*;

/// Zero-extends each byte of `src` (at most 64) into `out[..src.len()]`.
///
/// # Safety
/// The CPU must support the enabled features; `src.len() <= 64`; `out` is
/// valid for `src.len()` code points.
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn sse41(src: &[u8], out: *mut u32) {
    let (ptr, len) = (src.as_ptr(), src.len());
    if len < 4 {
        // SAFETY: the caller's contract.
        unsafe { widen_bytes(src, out) };
        return;
    }
    // SAFETY (each step): bytes i..i+4 lie in src and code points i..i+4 in
    // out, because i <= len - 4.
    let step = |i: usize| unsafe {
        let four = _mm_cvtsi32_si128(ptr.add(i).cast::<i32>().read_unaligned());
        _mm_storeu_si128(out.add(i).cast(), _mm_cvtepu8_epi32(four));
    };
    let mut i = 0;
    while i + 4 < len {
        step(i);
        i += 4;
    }
    step(len - 4);
}

/// [`sse41`] eight bytes at a time.
///
/// # Safety
/// As for [`sse41`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2(src: &[u8], out: *mut u32) {
    let (ptr, len) = (src.as_ptr(), src.len());
    if len < 8 {
        // SAFETY: the caller's contract.
        unsafe { widen_bytes(src, out) };
        return;
    }
    // SAFETY (each step): bytes i..i+8 lie in src and code points i..i+8 in
    // out, because i <= len - 8.
    let step = |i: usize| unsafe {
        let eight = _mm_loadl_epi64(ptr.add(i).cast());
        _mm256_storeu_si256(out.add(i).cast(), _mm256_cvtepu8_epi32(eight));
    };
    let mut i = 0;
    while i + 8 < len {
        step(i);
        i += 8;
    }
    step(len - 8);
}

/// [`sse41`] sixteen bytes at a time, with masked loads and stores (which
/// touch nothing where the mask is clear) instead of an overlapping tail.
/// A whole 64-byte string (a common buffer size) widens straight from
/// memory without masks.
///
/// # Safety
/// As for [`sse41`].
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn avx512(src: &[u8], out: *mut u32) {
    let (ptr, len) = (src.as_ptr(), src.len());
    if len == 64 {
        for k in 0..4 {
            // SAFETY: 64 bytes in, room for 64 code points out.
            unsafe {
                let part = _mm_loadu_si128(ptr.add(16 * k).cast());
                _mm512_storeu_si512(out.add(16 * k).cast(), _mm512_cvtepu8_epi32(part));
            }
        }
        return;
    }
    let lanes = if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    };
    // SAFETY: lanes at or past len are masked off; len <= 64.
    let block = unsafe { _mm512_maskz_loadu_epi8(lanes, ptr.cast()) };
    let parts = [
        _mm512_castsi512_si128(block),
        _mm512_extracti32x4_epi32::<1>(block),
        _mm512_extracti32x4_epi32::<2>(block),
        _mm512_extracti32x4_epi32::<3>(block),
    ];
    for (k, part) in parts.into_iter().enumerate() {
        // SAFETY: lanes at or past len are masked off, and a store with no
        // lanes touches nothing (hence the wrapping address).
        unsafe {
            _mm512_mask_storeu_epi32(
                out.wrapping_add(16 * k).cast(),
                (lanes >> (16 * k)) as u16,
                _mm512_cvtepu8_epi32(part),
            )
        };
    }
}

/// The byte-by-byte version, for strings shorter than one vector.
///
/// # Safety
/// `out` is valid for `src.len()` code points.
#[inline(always)]
unsafe fn widen_bytes(src: &[u8], out: *mut u32) {
    for (i, &b) in src.iter().enumerate() {
        // SAFETY: i < src.len().
        unsafe { out.add(i).write(u32::from(b)) };
    }
}

/// [`ascii_units_avx2_stopping`] with 16-byte vectors: two blocks are
/// tested together while there are two, so that a long run costs one test
/// per 64 bytes, then a lone block (or the first of two that were not both
/// plain) alone; also stopping at a block that holds 00 if `ZERO`.
///
/// # Safety
/// As for [`ascii_units_avx2`].
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn ascii_units_sse41_stopping<const ZERO: bool>(
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
) -> usize {
    // Whether every byte of the vectors is ASCII (and, with ZERO, not 00:
    // their signed minimum is above 0).
    let plain = |v: &[__m128i]| {
        if ZERO {
            let low = v.iter().fold(_mm_set1_epi8(1), |m, &x| _mm_min_epi8(m, x));
            _mm_movemask_epi8(_mm_cmpgt_epi8(low, _mm_setzero_si128())) == 0xFFFF
        } else {
            let any = v
                .iter()
                .fold(_mm_setzero_si128(), |m, &x| _mm_or_si128(m, x));
            _mm_movemask_epi8(any) == 0
        }
    };
    let (ptr, len) = (src.as_ptr(), src.len());
    let limit = len.min(cap);
    let mut i = 0;
    while limit - i >= 64 {
        // SAFETY: bytes i..i+64 are in bounds (i + 64 <= len).
        let v = unsafe { [0, 16, 32, 48].map(|o| _mm_loadu_si128(ptr.add(i + o).cast())) };
        if !plain(&v) {
            break;
        }
        // SAFETY: units i..i+64 lie in the `cap` at `out` (i + 64 <= cap).
        unsafe { widen_units(v, out.add(i), swap) };
        i += 64;
    }
    if limit - i >= 32 {
        // SAFETY: bytes i..i+32 are in bounds (i + 32 <= len).
        let v = unsafe { [0, 16].map(|o| _mm_loadu_si128(ptr.add(i + o).cast())) };
        if plain(&v) {
            // SAFETY: units i..i+32 lie in the `cap` at `out` (i + 32 <=
            // cap).
            unsafe { widen_units(v, out.add(i), swap) };
            i += 32;
        }
    }
    i
}

/// Stores the bytes of `v` as units at `out`, by interleaving them with
/// zeros (the zeros first, into the high half, with `swap`).
///
/// # Safety
/// `out` is valid for `16 * N` units.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn widen_units<const N: usize>(v: [__m128i; N], out: *mut u16, swap: bool) {
    let zero = _mm_setzero_si128();
    for (k, bytes) in v.into_iter().enumerate() {
        let (lo, hi) = if swap {
            (
                _mm_unpacklo_epi8(zero, bytes),
                _mm_unpackhi_epi8(zero, bytes),
            )
        } else {
            (
                _mm_unpacklo_epi8(bytes, zero),
                _mm_unpackhi_epi8(bytes, zero),
            )
        };
        // SAFETY: units 16k..16k+16 lie in the caller's 16 * N.
        unsafe {
            _mm_storeu_si128(out.add(16 * k).cast(), lo);
            _mm_storeu_si128(out.add(16 * k + 8).cast(), hi);
        }
    }
}

/// Widens the whole 32-byte blocks of ASCII at the start of `src` into the
/// `cap` units at `out` (each byte shifted into the high half with
/// `swap`), as far as they fit; returns how many bytes it widened. One
/// pass: each block's mask test and its two widening stores.
///
/// # Safety
/// The CPU must support the enabled features; `out` is valid for `cap`
/// units.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn ascii_units_avx2(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> usize {
    // SAFETY: the caller's promises.
    unsafe { ascii_units_avx2_stopping::<false>(src, out, cap, swap) }
}

/// [`ascii_units_avx2`], also stopping at a block that holds 00 if `ZERO`.
///
/// # Safety
/// As for [`ascii_units_avx2`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn ascii_units_avx2_stopping<const ZERO: bool>(
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let limit = len.min(cap);
    let mut i = 0;
    while limit - i >= 32 {
        // SAFETY: bytes i..i+32 are in bounds (i + 32 <= len).
        let block = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        // With ZERO, a block is taken if every byte is above 0 as a signed
        // byte: ASCII and not 00.
        let taken = if ZERO {
            _mm256_movemask_epi8(_mm256_cmpgt_epi8(block, _mm256_setzero_si256())) == -1
        } else {
            _mm256_movemask_epi8(block) == 0
        };
        if !taken {
            break;
        }
        let (lo, hi) = (
            _mm256_cvtepu8_epi16(_mm256_castsi256_si128(block)),
            _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(block)),
        );
        let (lo, hi) = if swap {
            (_mm256_slli_epi16::<8>(lo), _mm256_slli_epi16::<8>(hi))
        } else {
            (lo, hi)
        };
        // SAFETY: units i..i+32 lie in the `cap` at `out` (i + 32 <= cap).
        unsafe {
            _mm256_storeu_si256(out.add(i).cast(), lo);
            _mm256_storeu_si256(out.add(i + 16).cast(), hi);
        }
        i += 32;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kernel, called directly (the engine only sends it strings
    /// longer than it widens inline): every length 0..=64 at every output
    /// offset within a prefilled buffer; all bytes, not only ASCII.
    #[test]
    fn widens_every_length_and_touches_nothing_else() {
        type Widen = unsafe fn(&[u8], *mut u32);
        let kernels: [(&str, bool, Widen); 3] = [
            ("sse4.1", std::is_x86_feature_detected!("sse4.1"), sse41),
            ("avx2", std::is_x86_feature_detected!("avx2"), avx2),
            (
                "avx512",
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw"),
                avx512,
            ),
        ];
        let bytes: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0x5A).collect();
        for (name, available, widen) in kernels {
            if !available {
                eprintln!("skipped {name}: this CPU lacks it");
                continue;
            }
            for len in 0..=64 {
                for offset in 0..16 {
                    let src = &bytes[offset..offset + len];
                    let mut out = vec![0xAAAA_AAAAu32; offset + len + 16];
                    // SAFETY: the CPU has the features (checked above); out
                    // has room for len code points at offset; len <= 64.
                    unsafe { widen(src, out.as_mut_ptr().add(offset)) };
                    let mut expected = vec![0xAAAA_AAAAu32; out.len()];
                    for (e, &b) in expected[offset..].iter_mut().zip(src) {
                        *e = u32::from(b);
                    }
                    assert_eq!(out, expected, "{name} len {len} offset {offset}");
                }
            }
        }
    }
}
