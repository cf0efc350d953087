//! UTF-8 validation and counting through the shared validator
//! (`arch::generic::utf8`, with its pair test) over 64-byte vectors, and
//! the block checks the decoder runs itself.
//!
//! The checks flag, for every byte, what is wrong with it given the three
//! bytes before it (Keiser & Lemire, "Validating UTF-8 in less than one
//! instruction per byte", 2021): the high and low nibble of the previous byte
//! and the high nibble of this one each index a 16-entry table of error bits,
//! and the three results are ANDed; a byte 2 or 3 places after a 3- or 4-byte
//! lead must be a continuation. A non-zero result marks the first bad byte.
//! Decoding, which uses these checks one block ahead of its output, is in
//! `decode`.
//!
//! Validation, counting, the dialects' stopping validation and
//! classification were this tier's own kernels until the shared validator
//! had the pair test; over 64-byte vectors it then ran them at 1.07-1.12x
//! of those kernels on every non-ASCII input of the benchmarks (AMD Zen 4;
//! ASCII 1.00x), classification at 1.1-1.8x, and they were removed
//! (BENCHMARKS.md, "One house").

use core::arch::x86_64::*;

use super::vector::Avx512;
use crate::arch::generic::utf8 as generic;
use crate::contract::{FastStop, Stops};

use super::super::tables::{self, splat};
use super::blocks::{bytes, SHIFT_1, SHIFT_2, SHIFT_3};

const BYTE_1_HIGH: __m512i = bytes(splat(tables::BYTE_1_HIGH));
const BYTE_1_LOW: __m512i = bytes(splat(tables::BYTE_1_LOW));
const BYTE_2_HIGH: __m512i = bytes(splat(tables::BYTE_2_HIGH));
const ZERO_STOP: [__m512i; 3] = [
    bytes(splat(tables::ZERO_STOP_TABLES[0])),
    bytes(splat(tables::ZERO_STOP_TABLES[1])),
    bytes(splat(tables::ZERO_STOP_TABLES[2])),
];

/// Error bits for each byte of `input`, given the block before it.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(super) fn check_block(input: __m512i, prev: __m512i) -> __m512i {
    let prev1 = _mm512_permutex2var_epi8(prev, SHIFT_1, input);
    let prev2 = _mm512_permutex2var_epi8(prev, SHIFT_2, input);
    let prev3 = _mm512_permutex2var_epi8(prev, SHIFT_3, input);
    let special = special_cases(input, prev1);
    // Bit 7 set exactly for bytes 2 (prev2 >= E0) or 3 (prev3 >= F0) places
    // after a long lead: those must be continuations, which `special` marks
    // with TWO_CONTS, so the XOR cancels them and flags any mismatch.
    let third = _mm512_subs_epu8(prev2, _mm512_set1_epi8(0xE0u8.wrapping_sub(0x80) as i8));
    let fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8(0xF0u8.wrapping_sub(0x80) as i8));
    let must_continue =
        _mm512_ternarylogic_epi32::<0xA8>(third, fourth, _mm512_set1_epi8(0x80u8 as i8));
    _mm512_xor_si512(must_continue, special)
}

/// [`check_block`] for a caller that flags bytes F0..FF itself: exact for
/// input without them, and otherwise flagging some byte of each 4-byte
/// character (the bytes 3 places after a lead F0..FF are not told to be
/// continuations). Two vector instructions fewer, which took the BMP
/// decoding loop ([`super::decode`]) 3-6% faster on Zen 4.
///
/// With `zero`, it also flags the byte after each 00 (through
/// [`tables::ZERO_STOP_TABLES`]), for no extra instruction, where testing
/// the block for 00 cost Modified UTF-8 two (3-5% of the loop). The byte
/// before `input`'s first is the last of `prev`, so a first block must be
/// checked after one that does not end in 00.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(super) fn check_block_flagging_fours(input: __m512i, prev: __m512i, zero: bool) -> __m512i {
    let prev1 = _mm512_permutex2var_epi8(prev, SHIFT_1, input);
    let prev2 = _mm512_permutex2var_epi8(prev, SHIFT_2, input);
    let third = _mm512_subs_epu8(prev2, _mm512_set1_epi8(0xE0u8.wrapping_sub(0x80) as i8));
    let special = if zero {
        lookups(input, prev1, ZERO_STOP)
    } else {
        special_cases(input, prev1)
    };
    // (0x80 & third) ^ special.
    _mm512_ternarylogic_epi32::<0x6A>(_mm512_set1_epi8(0x80u8 as i8), third, special)
}

/// The Keiser-Lemire lookups: what each byte may be after the one before.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn special_cases(input: __m512i, prev1: __m512i) -> __m512i {
    lookups(input, prev1, [BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH])
}

/// The lookups in the three tables `[byte 1 high, byte 1 low, byte 2 high]`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn lookups(input: __m512i, prev1: __m512i, tables: [__m512i; 3]) -> __m512i {
    let nibble = _mm512_set1_epi8(0x0F);
    let prev1_high = _mm512_and_si512(_mm512_srli_epi16::<4>(prev1), nibble);
    let prev1_low = _mm512_and_si512(prev1, nibble);
    let input_high = _mm512_and_si512(_mm512_srli_epi16::<4>(input), nibble);
    _mm512_ternarylogic_epi32::<0x80>(
        _mm512_shuffle_epi8(tables[0], prev1_high),
        _mm512_shuffle_epi8(tables[1], prev1_low),
        _mm512_shuffle_epi8(tables[2], input_high),
    )
}

/// Whether the block ends inside a sequence (a lead in its last 3 bytes that
/// needs more bytes than the block has left).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn ends_incomplete(block: __m512i) -> bool {
    let over = incomplete_end(block);
    _mm512_test_epi8_mask(over, over) != 0
}

/// Nonzero bytes where `block` ends inside a sequence (see
/// [`ends_incomplete`]).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn incomplete_end(block: __m512i) -> __m512i {
    const LIMITS: __m512i = bytes(tables::incomplete_limits());
    _mm512_subs_epu8(block, LIMITS)
}

/// Bytes `[i, i+64)` of `src`, zero-filled past its end.
///
/// # Safety
/// `i < len`, and `ptr` points to `len` readable bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) unsafe fn load_block(ptr: *const u8, i: usize, len: usize) -> __m512i {
    if len - i >= 64 {
        // SAFETY: bytes i..i+64 are within the len readable bytes.
        unsafe { _mm512_loadu_si512(ptr.add(i).cast()) }
    } else {
        // SAFETY: only the lanes below len-i are read; masked-off lanes do not
        // fault (AVX-512 fault suppression).
        unsafe { _mm512_maskz_loadu_epi8(low_bits(len - i), ptr.add(i).cast()) }
    }
}

#[inline(always)]
pub(super) fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn non_ascii(block: __m512i) -> u64 {
    _mm512_movepi8_mask(block)
}

#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn flagged_bytes(err: __m512i) -> u64 {
    _mm512_test_epi8_mask(err, err)
}

pub(super) use crate::arch::generic::utf8::{FOURS, FOURS_ZERO, NO_STOPS};

/// Nonzero bytes where the first `live` bytes of `block` are in `STOPS`,
/// to OR into the block's error bits: vector operations, which measured
/// cheaper in the decoder's loop than comparisons into mask registers.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn stop_bytes<const STOPS: u8>(block: __m512i, live: u64) -> __m512i {
    match STOPS {
        NO_STOPS => _mm512_setzero_si512(),
        // Zeros past the end stay 0.
        FOURS => _mm512_subs_epu8(block, _mm512_set1_epi8(0xEFu8 as i8)),
        // 00 - 1 wraps to FF, and F0..FF - 1 are EF..FE. The zeros past
        // the end must stay 0: a masked operation, only for a block that
        // has some (its mask, moved from a general register every block,
        // cost the decoder 10% on CJK text).
        _ => {
            let less_one = _mm512_add_epi8(block, _mm512_set1_epi8(-1));
            let threshold = _mm512_set1_epi8(0xEEu8 as i8);
            if live == u64::MAX {
                _mm512_subs_epu8(less_one, threshold)
            } else {
                _mm512_maskz_subs_epu8(live, less_one, threshold)
            }
        }
    }
}

/// The longest valid prefix, at block granularity (see `FastStop`): the
/// shared validator (`generic::utf8`, with its pair test) over 64-byte
/// vectors.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn validate(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise covers `Avx512`'s features.
    unsafe { generic::validate::<Avx512, false, NO_STOPS>(src) }
}

/// [`validate`] stopping also at `stops`, which it flags as errors.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: the caller's promise covers `Avx512`'s features.
    unsafe {
        match stops {
            Stops::Fours => generic::validate::<Avx512, false, FOURS>(src),
            Stops::FoursAndZero => generic::validate::<Avx512, false, FOURS_ZERO>(src),
        }
    }
}

/// [`validate`], counting the characters of the valid prefix.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn count(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise covers `Avx512`'s features.
    unsafe { generic::validate::<Avx512, true, NO_STOPS>(src) }
}

/// Bytes of `src` that are not continuation bytes, 256 a step.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    // As the AVX2 tier: continuation bytes (below -64 as signed values)
    // counted in byte-wide counters, here by a masked add of one, folded
    // by VPSADBW before they can wrap; four sets keep the adds independent.
    let (ptr, len) = (src.as_ptr(), src.len());
    let floor = _mm512_set1_epi8(-64);
    let (zero, one) = (_mm512_setzero_si512(), _mm512_set1_epi8(1));
    let mut sums = zero;
    let mut i = 0;
    while len - i >= 256 {
        let steps = ((len - i) / 256).min(255);
        let mut counters = [zero; 4];
        for _ in 0..steps {
            for (k, counter) in counters.iter_mut().enumerate() {
                // SAFETY: steps * 256 <= len - i, so bytes i..i+256 are in
                // bounds.
                let block = unsafe { _mm512_loadu_si512(ptr.add(i + 64 * k).cast()) };
                let continuation = _mm512_cmplt_epi8_mask(block, floor);
                *counter = _mm512_mask_add_epi8(*counter, continuation, *counter, one);
            }
            i += 256;
        }
        for counter in counters {
            sums = _mm512_add_epi64(sums, _mm512_sad_epu8(counter, zero));
        }
    }
    let mut n = i - _mm512_reduce_add_epi64(sums) as usize;
    let leads = |block: __m512i| _mm512_cmpge_epi8_mask(block, floor).count_ones() as usize;
    while i < len {
        // SAFETY: i < len.
        let block = unsafe { load_block(ptr, i, len) };
        // Zero padding counts as leads: take it back.
        n += leads(block) - 64usize.saturating_sub(len - i);
        i += 64;
    }
    n
}
