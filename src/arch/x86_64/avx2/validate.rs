//! UTF-8 validation and counting, 32 bytes a step; the checks here are
//! the decoder's too (`decode`).
//!
//! Why this is not the shared validator (`arch::generic::utf8`, which the
//! SSE4.2, NEON and AVX-512 tiers instantiate): over 32-byte vectors, with
//! its pair test (branch `generic-validator`), it validated Arabic, Hebrew,
//! Russian and `ascii+1%2B` at 1.02-1.05x of this kernel on AMD Zen 4, but
//! CJK, Hindi, Emoji and `mixed-1234` at 0.83-0.85x (without the pair
//! test: 2-byte scripts at 0.52x). This kernel checks two blocks a step
//! and reads the bytes before each block from memory; the shared one
//! checks four, which on AVX2's 16 registers spills.
//!
//! A second attempt (branch `generic-validator-2`) gave the shared
//! validator this kernel's shape: groups of two blocks, the bytes before
//! them loaded, no register for the block before (loaded again where an
//! ASCII group or the pair test needs it), the pair test called from
//! outside the group loop, the error found in the group's error bits. On
//! AMD Zen 4 (best of 3-4 interleaved runs of `compare --tier avx2`) it
//! matched this kernel on 2-byte scripts (1.00x-1.04x), `ascii+1%2B`,
//! ASCII and locating errors (1.00x), but validated CJK, Hindi, Emoji and
//! `mixed-1234` at 0.94x-0.97x: its loop loads two of the three lookup
//! tables again at every step, where this one keeps all eight constants
//! in registers (the same operations, allocated differently; reordering
//! them moved the reloads, never removed them). It stays until the
//! shared one matches it.

use core::arch::x86_64::*;
use core::mem::transmute;

use super::super::partial::chunk16;
use super::super::tables::{self, splat};
use super::pair_check::{below_e0, pairs_run};
use crate::arch::generic::utf8::{stop_at, FOURS, FOURS_ZERO, NO_STOPS};
use crate::contract::{count_until_error, restart_point, FastStop, Stops};

pub(super) const fn bytes(f: [u8; 32]) -> __m256i {
    // SAFETY: both are 32 plain bytes; every bit pattern is a valid __m256i.
    unsafe { transmute(f) }
}

const BYTE_1_HIGH: __m256i = bytes(splat(tables::BYTE_1_HIGH));
const BYTE_1_HIGH_FOURS: __m256i = bytes(splat(tables::BYTE_1_HIGH_FOURS));
const BYTE_1_LOW: __m256i = bytes(splat(tables::BYTE_1_LOW));
const BYTE_2_HIGH: __m256i = bytes(splat(tables::BYTE_2_HIGH));
const LIMITS: __m256i = bytes(tables::incomplete_limits());

#[inline(always)]
pub(super) fn low_bits(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Error bits for each byte of `input`, given the block before it (see the
/// AVX-512 tier for the algorithm).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn check_block(input: __m256i, prev: __m256i) -> __m256i {
    check_block_with::<NO_STOPS>(input, prev)
}

/// [`check_block`], also flagging the byte after each F0..FF with `STOPS`
/// (see [`stop_at`]).
#[target_feature(enable = "avx2")]
#[inline]
fn check_block_with<const STOPS: u8>(input: __m256i, prev: __m256i) -> __m256i {
    let before = _mm256_permute2x128_si256::<0x21>(prev, input);
    let prev1 = _mm256_alignr_epi8::<15>(input, before);
    let prev2 = _mm256_alignr_epi8::<14>(input, before);
    let prev3 = _mm256_alignr_epi8::<13>(input, before);
    check_after::<STOPS>(input, [prev1, prev2, prev3])
}

/// [`check_block_with`] for the block at `ptr`, whose three bytes before
/// it are read from memory rather than shuffled in from the block before:
/// three loads instead of four shuffles, on ports the lookups leave free.
/// In [`validate`]'s loop this ran CJK text 17.9 -> 20.8 GB/s on AMD Zen 4
/// (simdutf8: 18.4). Not taken elsewhere: [`count_blocks`]'s block loop went
/// 15.6 -> 14.0, and the AVX-512 tier's check 19.7 -> 15.0 (a 64-byte load
/// one byte off crosses a cache line every time).
///
/// # Safety
/// Bytes `ptr - 3..ptr + 32` are readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn check_block_at<const STOPS: u8>(ptr: *const u8, input: __m256i) -> __m256i {
    // SAFETY: bytes ptr-3..ptr+31 are readable (the caller's contract).
    let before = unsafe { [1, 2, 3].map(|o| _mm256_loadu_si256(ptr.sub(o).cast())) };
    check_after::<STOPS>(input, before)
}

/// Error bits for each byte of `input`, given the bytes 1, 2 and 3 places
/// before each; with `STOPS`, also the byte after each F0..FF.
#[target_feature(enable = "avx2")]
#[inline]
fn check_after<const STOPS: u8>(input: __m256i, [prev1, prev2, prev3]: [__m256i; 3]) -> __m256i {
    let byte_1_high = if STOPS == NO_STOPS {
        BYTE_1_HIGH
    } else {
        BYTE_1_HIGH_FOURS
    };
    let nibble = _mm256_set1_epi8(0x0F);
    let prev1_high = _mm256_and_si256(_mm256_srli_epi16::<4>(prev1), nibble);
    let prev1_low = _mm256_and_si256(prev1, nibble);
    let input_high = _mm256_and_si256(_mm256_srli_epi16::<4>(input), nibble);
    let special = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(byte_1_high, prev1_high),
            _mm256_shuffle_epi8(BYTE_1_LOW, prev1_low),
        ),
        _mm256_shuffle_epi8(BYTE_2_HIGH, input_high),
    );
    let third = _mm256_subs_epu8(prev2, _mm256_set1_epi8(0xE0u8.wrapping_sub(0x80) as i8));
    let fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8(0xF0u8.wrapping_sub(0x80) as i8));
    let must_continue = _mm256_and_si256(
        _mm256_or_si256(third, fourth),
        _mm256_set1_epi8(0x80u8 as i8),
    );
    _mm256_xor_si256(must_continue, special)
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn ends_incomplete(block: __m256i) -> bool {
    let over = _mm256_subs_epu8(block, LIMITS);
    _mm256_testz_si256(over, over) == 0
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn non_ascii(block: __m256i) -> u32 {
    _mm256_movemask_epi8(block) as u32
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn flagged_bytes(err: __m256i) -> u32 {
    !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(err, _mm256_setzero_si256())) as u32)
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn lead_bytes(block: __m256i) -> u32 {
    !(_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), block)) as u32)
}

/// Bytes `[i, i+32)` of `src`, zero-filled past its end. `i < src.len()`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load_block(src: &[u8], i: usize) -> __m256i {
    if src.len() - i >= 32 {
        // SAFETY: bytes i..i+32 are in bounds.
        unsafe { _mm256_loadu_si256(src.as_ptr().add(i).cast()) }
    } else {
        _mm256_set_m128i(chunk16(src, i + 16), chunk16(src, i))
    }
}

/// The 00 bytes of `block` with `FOURS_ZERO` (Modified UTF-8's stop that
/// the lookups cannot flag), as a mask.
#[target_feature(enable = "avx2")]
#[inline]
fn zeros<const STOPS: u8>(block: __m256i) -> u32 {
    if STOPS == FOURS_ZERO {
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(block, _mm256_setzero_si256())) as u32
    } else {
        0
    }
}

/// Two blocks as one for [`plain`]: their OR, or with `FOURS_ZERO` their
/// signed minimum.
#[target_feature(enable = "avx2")]
#[inline]
fn combine<const STOPS: u8>(a: __m256i, b: __m256i) -> __m256i {
    if STOPS == FOURS_ZERO {
        _mm256_min_epi8(a, b)
    } else {
        _mm256_or_si256(a, b)
    }
}

/// Whether blocks `a` and `b` are plain ASCII, with no byte in `STOPS`
/// (with `FOURS_ZERO`: every byte is 01..7F, a signed minimum above 0).
#[target_feature(enable = "avx2")]
#[inline]
fn plain<const STOPS: u8>(a: __m256i, b: __m256i) -> bool {
    let both = combine::<STOPS>(a, b);
    if STOPS == FOURS_ZERO {
        _mm256_movemask_epi8(_mm256_cmpgt_epi8(both, _mm256_setzero_si256())) == -1
    } else {
        non_ascii(both) == 0
    }
}

/// The longest valid prefix, at block granularity; see `FastStop`.
///
/// Two blocks a test: an all-ASCII pair costs two loads and a test; any
/// other pair is checked whole, ASCII blocks included (a check is cheaper
/// than a branch that text with scattered non-ASCII characters makes
/// unpredictable; on AMD Zen 5 a block-by-block loop, as [`count_blocks`] keeps,
/// ran mostly-ASCII text at 0.8x simdutf). A second ASCII pair in a row
/// starts a long run's skip, 128 bytes a test. Text of ASCII and 2-byte
/// characters goes to the cheaper pair test (`pair_check`) once in a
/// while, and comes back at a step that test rejects.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn validate(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise.
    unsafe { validate_with::<NO_STOPS>(src) }
}

/// [`validate`] stopping also at `stops`, which it flags as errors.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: the caller's promise.
    unsafe {
        match stops {
            Stops::Fours => validate_with::<FOURS>(src),
            Stops::FoursAndZero => validate_with::<FOURS_ZERO>(src),
        }
    }
}

/// [`validate`], the bytes in `STOPS` flagged as errors are: a vector
/// operation or two more on the blocks it checks anyway (a byte search
/// ahead of the validator, a pass of its own, ran CESU-8 and Modified
/// UTF-8 at 0.77-0.86x RFC 3629 on non-ASCII text).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
unsafe fn validate_with<const STOPS: u8>(src: &[u8]) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let stop = |e: usize| {
        let e = stop_at::<STOPS>(src, e);
        FastStop {
            read: restart_point(src, e),
            written: 0,
            flagged: Some(e.min(len)),
        }
    };
    let mut prev = _mm256_setzero_si256();
    let mut i = 0;
    let mut after_ascii = false;
    // The general loop, left now and then for a run of the pair test
    // (called from out here, so that the call does not cost the loop its
    // registers).
    while len - i >= 64 {
        while len - i >= 64 {
            // SAFETY: bytes i..i+64 are in bounds.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(ptr.add(i).cast()),
                    _mm256_loadu_si256(ptr.add(i + 32).cast()),
                )
            };
            if plain::<STOPS>(a, b) {
                if ends_incomplete(prev) {
                    return stop(i);
                }
                (i, prev) = (i + 64, b);
                while after_ascii && len - i >= 128 {
                    // SAFETY: bytes i..i+128 are in bounds.
                    let [a, b, c, d] = unsafe {
                        [0, 32, 64, 96].map(|o| _mm256_loadu_si256(ptr.add(i + o).cast()))
                    };
                    if !plain::<STOPS>(combine::<STOPS>(a, b), combine::<STOPS>(c, d)) {
                        break;
                    }
                    (i, prev) = (i + 128, d);
                }
                after_ascii = true;
                continue;
            }
            after_ascii = false;
            let (err_a, err_b) = if i == 0 {
                (
                    check_block_with::<STOPS>(a, prev),
                    check_block_with::<STOPS>(b, a),
                )
            } else {
                // SAFETY: bytes i-3..i+64 are in bounds (i >= 64).
                unsafe {
                    (
                        check_block_at::<STOPS>(ptr.add(i), a),
                        check_block_at::<STOPS>(ptr.add(i + 32), b),
                    )
                }
            };
            let mut any = _mm256_or_si256(err_a, err_b);
            if STOPS == FOURS_ZERO {
                let low = _mm256_min_epu8(a, b);
                any = _mm256_or_si256(any, _mm256_cmpeq_epi8(low, _mm256_setzero_si256()));
            }
            if _mm256_testz_si256(any, any) == 0 {
                return stop(match flagged_bytes(err_a) | zeros::<STOPS>(a) {
                    0 => {
                        i + 32
                            + (flagged_bytes(err_b) | zeros::<STOPS>(b)).trailing_zeros() as usize
                    }
                    f => i + f.trailing_zeros() as usize,
                });
            }
            (i, prev) = (i + 64, b);
            // Now and then (at every 512th byte): if the step is ASCII and
            // 2-byte text, the pair test may take over (cheaper; a step it
            // rejects comes back here).
            if i % 512 == 0 && below_e0(a, b) {
                break;
            }
        }
        // SAFETY: forwarded from this function's contract.
        (i, prev, _) = unsafe { pairs_run::<false, STOPS>(src, i, prev) };
    }
    // The last one or two blocks; a partial one is zero-filled, and the
    // zeros flag a sequence it cuts short (but are no 00 of the input).
    while i < len {
        let block = load_block(src, i);
        let stops = zeros::<STOPS>(block) & low_bits(len - i);
        let flags = flagged_bytes(check_block_with::<STOPS>(block, prev)) | stops;
        if flags != 0 {
            return stop(i + flags.trailing_zeros() as usize);
        }
        (i, prev) = (i + 32, block);
    }
    if ends_incomplete(prev) {
        return stop(len);
    }
    FastStop {
        read: len,
        written: 0,
        flagged: None,
    }
}

/// The longest valid prefix, at block granularity, and the number of
/// characters in it (see the AVX-512 `count` for the take-back at an error
/// whose restart point lies in the previous block), a block at a time: the
/// exact end of the count kernel (`classify::count`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn count_blocks(src: &[u8]) -> FastStop {
    let len = src.len();
    let mut prev = _mm256_setzero_si256();
    let mut prev_leads = 0u32;
    let mut counted = 0usize;
    let mut i = 0;
    let stop = |e: usize, i: usize, counted: usize, block_leads: u32, prev_leads: u32| {
        let (block_leads, prev_leads) = (u64::from(block_leads), u64::from(prev_leads));
        count_until_error(src, e, (i, 32), counted, block_leads, prev_leads)
    };
    while i < len {
        let block = load_block(src, i);
        let valid = low_bits(len - i);
        if non_ascii(block) == 0 {
            if ends_incomplete(prev) {
                return stop(i, i, counted, valid, prev_leads);
            }
            counted += (len - i).min(32);
            prev_leads = valid;
            prev = block;
            i += 32;
            while i + 128 <= len {
                // SAFETY: bytes i..i+128 are in bounds.
                let (a, b, c, d) = unsafe {
                    let p = src.as_ptr().add(i);
                    (
                        _mm256_loadu_si256(p.cast()),
                        _mm256_loadu_si256(p.add(32).cast()),
                        _mm256_loadu_si256(p.add(64).cast()),
                        _mm256_loadu_si256(p.add(96).cast()),
                    )
                };
                let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
                if non_ascii(any) != 0 {
                    break;
                }
                counted += 128;
                i += 128;
                prev = d;
            }
            continue;
        }
        let leads = lead_bytes(block) & valid;
        let flags = flagged_bytes(check_block(block, prev));
        if flags != 0 {
            return stop(
                i + flags.trailing_zeros() as usize,
                i,
                counted,
                leads,
                prev_leads,
            );
        }
        counted += leads.count_ones() as usize;
        prev_leads = leads;
        prev = block;
        i += 32;
    }
    if ends_incomplete(prev) {
        return stop(len, len, counted, 0, prev_leads);
    }
    FastStop {
        read: len,
        written: counted,
        flagged: None,
    }
}

/// Bytes of `src` that are not continuation bytes (`generic::count`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    // SAFETY: the CPU has the tier's features.
    unsafe { crate::arch::generic::count::count_leads::<super::vector::Avx2>(src) }
}
