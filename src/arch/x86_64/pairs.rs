//! Runs of CESU-8 surrogate pairs (`ED A0..AF xx ED B0..BF xx`, a
//! supplementary character in CESU-8 and Modified UTF-8), two pairs a step:
//! a text of Emoji in those dialects is nothing else.
//!
//! Twelve bytes are tested against the pattern at once (each byte masked
//! to the bits the pattern fixes, then compared; the constants are in
//! `generic::tables`, shared with NEON's `aarch64::neon::pairs`); a step whose
//! bytes do not all match ends the run, and the scalar loop goes on from
//! there. Each
//! 3-byte half is a unit's 3-byte form, `1110_1101 10hh_hhhh 10ll_llll`:
//! a byte shuffle puts its two low bytes in a 16-bit lane, and one
//! multiply-add joins their six-bit groups (`h * 64 + l`) under 0xD000.
//! The code point of a pair is then one more multiply-add,
//! `(high & 0x3FF) * 1024 + (low & 0x3FF)`, plus 0x10000.

use core::arch::x86_64::*;

use super::tables::{PAIRS_HALVES, PAIRS_MASK, PAIRS_PATTERN};

/// The four units of the two pairs in the 16 bytes at `p` (their low 64
/// bits), if those start with two pairs.
///
/// # Safety
/// The CPU must support SSE4.1; `p` points to 16 readable bytes.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn two_pairs(p: *const u8) -> Option<__m128i> {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm_loadu_si128(p.cast()) };
    // SAFETY: the constants are 16 plain bytes each.
    let (mask, pattern, halves) = unsafe {
        (
            _mm_loadu_si128(PAIRS_MASK.as_ptr().cast()),
            _mm_loadu_si128(PAIRS_PATTERN.as_ptr().cast()),
            _mm_loadu_si128(PAIRS_HALVES.as_ptr().cast()),
        )
    };
    let matches = _mm_cmpeq_epi8(_mm_and_si128(v, mask), pattern);
    if _mm_movemask_epi8(matches) != 0xFFFF {
        return None;
    }
    // Each lane's bytes are `l, h` (last byte lowest): weights 1 and 64.
    let payload = _mm_and_si128(_mm_shuffle_epi8(v, halves), _mm_set1_epi8(0x3F));
    let units = _mm_maddubs_epi16(payload, _mm_set1_epi16(0x4001));
    Some(_mm_or_si128(units, _mm_set1_epi16(0xD000u16 as i16)))
}

/// Decodes the run of pairs at the start of `src` into UTF-16 units at
/// `out` (byte-swapped with `swap`), two pairs a step while 16 bytes remain
/// and four units fit; returns the pairs decoded (6 bytes and 2 units each).
///
/// # Safety
/// The CPU must support SSE4.1; `out` points to `cap` writable units.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn pairs_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> usize {
    let mut n = 0;
    while src.len() - 6 * n >= 16 && cap - 2 * n >= 4 {
        // SAFETY: bytes 6n..6n+16 are in `src` (checked above).
        let Some(units) = (unsafe { two_pairs(src.as_ptr().add(6 * n)) }) else {
            break;
        };
        let units = if swap {
            _mm_or_si128(_mm_slli_epi16::<8>(units), _mm_srli_epi16::<8>(units))
        } else {
            units
        };
        // SAFETY: units 2n..2n+4 are within `cap` (checked above).
        unsafe { _mm_storel_epi64(out.add(2 * n).cast(), units) };
        n += 2;
    }
    n
}

/// [`pairs_utf16`] to code points (6 bytes and one code point a pair).
///
/// # Safety
/// The CPU must support SSE4.1; `out` points to `cap` writable code points.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn pairs_ucs4(src: &[u8], out: *mut u32, cap: usize) -> usize {
    let mut n = 0;
    while src.len() - 6 * n >= 16 && cap - n >= 2 {
        // SAFETY: bytes 6n..6n+16 are in `src` (checked above).
        let Some(units) = (unsafe { two_pairs(src.as_ptr().add(6 * n)) }) else {
            break;
        };
        let offsets = _mm_madd_epi16(
            _mm_and_si128(units, _mm_set1_epi16(0x3FF)),
            _mm_set1_epi32(0x0001_0400),
        );
        let scalars = _mm_add_epi32(offsets, _mm_set1_epi32(0x1_0000));
        // SAFETY: code points n..n+2 are within `cap` (checked above).
        unsafe { _mm_storel_epi64(out.add(n).cast(), scalars) };
        n += 2;
    }
    n
}
