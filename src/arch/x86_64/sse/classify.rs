//! Classification fused into validation: the validator's groups of four
//! 16-byte blocks, and for each group that is not all ASCII the counts
//! classification needs, taken from values the check computes anyway.
//!
//! - Characters are bytes less continuation bytes. The check looks up each
//!   byte's high nibble in a table whose top bit is set for the
//!   continuation nibbles (8..B) only; a `pmovmskb` of that lookup and a
//!   population count give a block's continuations.
//! - 4-byte characters are counted by their last byte: the check's
//!   saturating `byte 3 before - 0x70` has its top bit set exactly 3 bytes
//!   after an F0..FF byte, which in checked text is a 4-byte lead. Those
//!   begun in the last 3 bytes before the counting stops are added at the
//!   end.
//! - The group's largest byte tells an ASCII group (the validator ORs the
//!   blocks for that; a maximum costs the same) and goes into a running
//!   maximum. ASCII groups only add to the character count: their largest
//!   byte does not change the width, which is ASCII unless some other byte
//!   says more.
//!
//! So each count costs one `pmovmskb` a block, and scalar population
//! counts: counters in byte lanes (a compare and an add a block, and
//! registers the check needs) measured slower.
//!
//! At the first group with an error (or an ASCII group after a sequence
//! cut short) the counting stops, and the validator finishes from the start
//! of the last character begun before it; the caller counts what lies
//! between (see `Engine::classify_kernel`).

use core::arch::x86_64::*;

use super::utf8::{check_block_parts, ends_incomplete, is_ascii, load_four, non_ascii, validate};
use crate::arch::{FastStop, Utf8Stats};

/// Validates `src` and counts its valid prefix up to the returned offset
/// (a group boundary), as [`crate::arch::kernels::ClassifyKernel`] says.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    let len = src.len();
    let zero = _mm_setzero_si128();
    let mut prev = zero;
    let mut i = 0;
    let (mut leads, mut fours, mut max) = (0usize, 0usize, zero);
    let count = |v: [__m128i; 4]| {
        let [a, b, c, d] = v.map(|x| _mm_movemask_epi8(x).count_ones());
        (a + b + c + d) as usize
    };
    while i + 64 <= len {
        // SAFETY: bytes i..i+64 are in bounds.
        let four = unsafe { load_four(src, i) };
        let [a, b, c, d] = four;
        let top = _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d));
        if non_ascii(top) == 0 {
            if ends_incomplete(prev) {
                break;
            }
            (i, prev, leads) = (i + 64, d, leads + 64);
            // An ASCII run: 128 bytes a test, as the validator skips it.
            while i + 128 <= len {
                // SAFETY: bytes i..i+128 are in bounds.
                let (x, y) = unsafe { (load_four(src, i), load_four(src, i + 64)) };
                if !is_ascii([0, 1, 2, 3].map(|k| _mm_or_si128(x[k], y[k]))) {
                    break;
                }
                (i, prev, leads) = (i + 128, y[3], leads + 128);
            }
            continue;
        }
        let parts = [
            check_block_parts(a, prev),
            check_block_parts(b, a),
            check_block_parts(c, b),
            check_block_parts(d, c),
        ];
        let errors = _mm_or_si128(
            _mm_or_si128(parts[0].errors, parts[1].errors),
            _mm_or_si128(parts[2].errors, parts[3].errors),
        );
        if _mm_testz_si128(errors, errors) == 0 {
            break;
        }
        leads += 64 - count(parts.each_ref().map(|p| p.continuations));
        fours += count(parts.each_ref().map(|p| p.fourths));
        max = _mm_max_epu8(max, top);
        (i, prev) = (i + 64, d);
    }
    // 4-byte characters begun in the last 3 bytes before `i` end after it:
    // not counted yet.
    fours += src[i.saturating_sub(3)..i]
        .iter()
        .filter(|&&b| b >= 0xF0)
        .count();
    // The validator goes on from the start of the last character begun
    // before `i`: every one before it is checked whole, but that one may
    // still be cut short (re-checking it whole costs a few bytes).
    let mut start = i.saturating_sub(1);
    while start > 0 && i - start < 4 && (src[start] as i8) < -64 {
        start -= 1;
    }
    // SAFETY: the caller's promise; `start..` is a slice of `src`.
    let rest = unsafe { validate::<false>(&src[start..]) };
    let stop = FastStop {
        read: start + rest.read,
        written: 0,
        flagged: rest.flagged.map(|e| start + e),
    };
    let stats = Utf8Stats {
        leads,
        fours,
        max: max_byte(max),
    };
    (stop, stats, i)
}

/// The largest byte of `v`.
#[target_feature(enable = "sse2")]
#[inline]
fn max_byte(v: __m128i) -> u8 {
    let m = _mm_max_epu8(v, _mm_srli_si128::<8>(v));
    let m = _mm_max_epu8(m, _mm_srli_si128::<4>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<2>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<1>(m));
    _mm_cvtsi128_si32(m) as u8
}
