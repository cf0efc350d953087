//! What a runtime asks before it allocates a string: characters, 4-byte
//! characters (for the UTF-16 length) and the largest byte (for the widest
//! character), by mask population counts, without validating
//! (classification, which validates, is the shared classifier:
//! `classify`); and the UTF-8 size of UTF-16, the UTF-16 size of UTF-8.

use core::arch::x86_64::*;

use super::validate::low_bits;
use super::vector::Avx512;
use crate::arch::generic::vector::Bytes;
use crate::contract::Utf8Stats;

/// Running counts in byte lanes (a lane gains at most 1 a block), folded
/// into `total` every 255 blocks, before a lane can overflow.
struct Counters {
    leads: __m512i,
    fours: __m512i,
    max: __m512i,
    blocks: usize,
    total: Utf8Stats,
}

#[target_feature(enable = "avx512f")]
#[inline]
fn counters() -> Counters {
    Counters {
        leads: _mm512_setzero_si512(),
        fours: _mm512_setzero_si512(),
        max: _mm512_setzero_si512(),
        blocks: 0,
        total: Utf8Stats::default(),
    }
}

/// Adds one block's counts (the bytes in `lanes`).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn add_block(c: &mut Counters, block: __m512i, lanes: u64) {
    let leads = _mm512_mask_cmpge_epi8_mask(lanes, block, _mm512_set1_epi8(-64));
    let fours = _mm512_mask_cmpge_epu8_mask(lanes, block, _mm512_set1_epi8(0xF0u8 as i8));
    let one = _mm512_set1_epi8(1);
    c.leads = _mm512_mask_add_epi8(c.leads, leads, c.leads, one);
    c.fours = _mm512_mask_add_epi8(c.fours, fours, c.fours, one);
    let block = if lanes == u64::MAX {
        block
    } else {
        _mm512_maskz_mov_epi8(lanes, block)
    };
    c.max = _mm512_max_epu8(c.max, block);
    c.blocks += 1;
    if c.blocks >= 252 {
        fold(c);
    }
}

/// Moves the lane counts into `total`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn fold(c: &mut Counters) {
    let zero = _mm512_setzero_si512();
    c.total.leads += _mm512_reduce_add_epi64(_mm512_sad_epu8(c.leads, zero)) as usize;
    c.total.fours += _mm512_reduce_add_epi64(_mm512_sad_epu8(c.fours, zero)) as usize;
    (c.leads, c.fours, c.blocks) = (zero, zero, 0);
}

/// The counts so far.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn finish(mut c: Counters) -> Utf8Stats {
    fold(&mut c);
    // An `Avx512` stands for a CPU with the tier's features, which the
    // tier's table (this kernel's only caller) is handed out only with.
    c.total.max = Bytes::max_byte(Avx512(c.max));
    c.total
}

/// The counts of `src`, a block at a time.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) unsafe fn stats(src: &[u8]) -> Utf8Stats {
    let mut c = counters();
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut i = 0;
    while len - i >= 64 {
        // SAFETY: bytes i..i+64 are in bounds.
        let block = unsafe { _mm512_loadu_si512(ptr.add(i).cast()) };
        add_block(&mut c, block, u64::MAX);
        i += 64;
    }
    if i < len {
        let lanes = low_bits(len - i);
        // SAFETY: the lanes cover only bytes i..len; masked-off lanes do
        // not fault.
        let block = unsafe { _mm512_maskz_loadu_epi8(lanes, ptr.add(i).cast()) };
        add_block(&mut c, block, lanes);
    }
    finish(c)
}

/// UTF-8 bytes for well-formed UTF-16 `src` (byte-swapped with `swap`):
/// per unit 1, plus 1 from U+0080 and 1 more from U+0800, less 1 for each
/// surrogate (a pair makes 4). Each of the three is a mask of a test on
/// the units as they lie in memory (a swapped unit's test is the same test
/// with the constants swapped, so nothing is shuffled), two vectors'
/// masks joined into one 64-bit mask and counted by `POPCNT`: four vector
/// operations a vector. Adding the masks into 16-bit lanes instead
/// (`VPADDW` under a mask, seven vector operations a vector) ran at
/// 0.81x-0.85x simdutf 9.1 on AMD Zen 4.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let w = |v: u16| _mm512_set1_epi16(if swap { v.swap_bytes() } else { v } as i16);
    let (m80, m800, d800) = (w(0xFF80), w(0xF800), w(0xD800));
    // The three masks of 32 units (those in `lanes`).
    let masks = |units: __m512i, lanes: u32| {
        let two = _mm512_mask_test_epi16_mask(lanes, units, m80);
        let three = _mm512_mask_test_epi16_mask(lanes, units, m800);
        let surrogate = _mm512_mask_cmpeq_epi16_mask(lanes, _mm512_and_si512(units, m800), d800);
        (two, three, surrogate)
    };
    let mut total = len;
    let mut i = 0;
    while len - i >= 64 {
        // SAFETY: units i..i+64 are in bounds.
        let (a, b) = unsafe {
            (
                _mm512_loadu_si512(ptr.add(i).cast()),
                _mm512_loadu_si512(ptr.add(i + 32).cast()),
            )
        };
        let (ta, ra, sa) = masks(a, u32::MAX);
        let (tb, rb, sb) = masks(b, u32::MAX);
        let join = |lo: u32, hi: u32| _mm512_kunpackd(hi as u64, lo as u64);
        total += (join(ta, tb).count_ones() + join(ra, rb).count_ones()) as usize;
        total -= join(sa, sb).count_ones() as usize;
        i += 64;
    }
    while i < len {
        let lanes = low_bits(len - i) as u32;
        // SAFETY: the lanes cover only units i..len; masked-off lanes do
        // not fault.
        let units = unsafe { _mm512_maskz_loadu_epi16(lanes, ptr.add(i).cast()) };
        let (t, r, s) = masks(units, lanes);
        total += (t.count_ones() + r.count_ones()) as usize;
        total -= s.count_ones() as usize;
        i += 32.min(len - i);
    }
    total
}

/// UTF-16 units for well-formed UTF-8 `src`: a unit for each lead byte,
/// two for a 4-byte lead. Whole blocks look each byte's high nibble up in a
/// table of those weights (0 for a continuation byte) and add the weights
/// in byte lanes, folded into 64-bit sums by `VPSADBW` before a lane can
/// overflow: three vector operations a block and no mask moved to a
/// general register (counting two masks' bits a block, `KMOV` and
/// `POPCNT` four times, ran at 0.6x-0.7x simdutf 9.1 on AMD Zen 4). The
/// last partial block counts its masks' bits.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn utf16_len(src: &[u8]) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    // The weight of a byte by its high nibble, for each of the 64 indexes
    // VPERMB reads (the low six bits of a byte lane; after a 16-bit shift
    // by 4, bits 4 and 5 are the next byte's and do not matter).
    let weights = _mm512_broadcast_i32x4(_mm_setr_epi8(
        1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 2,
    ));
    let weigh = |block: __m512i| _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(block), weights);
    let zero = _mm512_setzero_si512();
    let mut sums = zero;
    let mut i = 0;
    // Two byte-lane sums gain at most 4 a step: 63 steps stay below 256.
    while len - i >= 256 {
        let end = i + (len - i).min(256 * 63) / 256 * 256;
        let (mut a, mut b) = (zero, zero);
        while i < end {
            // SAFETY: bytes i..i+256 are in bounds (i + 256 <= end <= len).
            let blocks =
                unsafe { [0, 64, 128, 192].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
            a = _mm512_add_epi8(a, _mm512_add_epi8(weigh(blocks[0]), weigh(blocks[1])));
            b = _mm512_add_epi8(b, _mm512_add_epi8(weigh(blocks[2]), weigh(blocks[3])));
            i += 256;
        }
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(a, zero));
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(b, zero));
    }
    let mut total = _mm512_reduce_add_epi64(sums) as usize;
    let count = |block: __m512i, lanes: u64| {
        let leads = _mm512_mask_cmpge_epi8_mask(lanes, block, _mm512_set1_epi8(-64));
        let fours = _mm512_mask_cmpge_epu8_mask(lanes, block, _mm512_set1_epi8(0xF0u8 as i8));
        (leads.count_ones() + fours.count_ones()) as usize
    };
    while i < len {
        let lanes = low_bits(len - i);
        // SAFETY: the lanes cover only bytes i..len; masked-off lanes do
        // not fault.
        let block = unsafe { _mm512_maskz_loadu_epi8(lanes, ptr.add(i).cast()) };
        total += count(block, lanes);
        i += 64.min(len - i);
    }
    total
}
