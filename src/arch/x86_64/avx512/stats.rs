//! What a runtime asks before it allocates a string: characters, 4-byte
//! characters (for the UTF-16 length) and the largest byte (for the widest
//! character), by mask population counts; alone, or folded into the
//! validation loop so that classifying costs little more than validating.

use core::arch::x86_64::*;

use super::utf8::{
    all_ascii, check_group, low_bits, skip_ascii_runs, validate_blocks, validate_one_block,
};
use crate::arch::{FastStop, Utf8Stats};

/// Adds one block's counts (the bytes in `lanes`) to `stats`, its largest
/// byte to `max`.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
#[inline]
fn add_block(stats: &mut Utf8Stats, max: &mut __m512i, block: __m512i, lanes: u64) {
    let leads = _mm512_mask_cmpge_epi8_mask(lanes, block, _mm512_set1_epi8(-64));
    let fours = _mm512_mask_cmpge_epu8_mask(lanes, block, _mm512_set1_epi8(0xF0u8 as i8));
    stats.leads += leads.count_ones() as usize;
    stats.fours += fours.count_ones() as usize;
    *max = _mm512_max_epu8(*max, _mm512_maskz_mov_epi8(lanes, block));
}

/// The counts of `src`, a block at a time.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) unsafe fn stats(src: &[u8]) -> Utf8Stats {
    let mut stats = Utf8Stats::default();
    let mut max = _mm512_setzero_si512();
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut i = 0;
    while len - i >= 64 {
        // SAFETY: bytes i..i+64 are in bounds.
        let block = unsafe { _mm512_loadu_si512(ptr.add(i).cast()) };
        add_block(&mut stats, &mut max, block, u64::MAX);
        i += 64;
    }
    if i < len {
        let lanes = low_bits(len - i);
        // SAFETY: the lanes cover only bytes i..len; masked-off lanes do
        // not fault.
        let block = unsafe { _mm512_maskz_loadu_epi8(lanes, ptr.add(i).cast()) };
        add_block(&mut stats, &mut max, block, lanes);
    }
    stats.max = max_byte(max);
    stats
}

/// The largest byte of `v`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn max_byte(v: __m512i) -> u8 {
    let v = _mm512_max_epu8(v, _mm512_srli_epi64::<32>(v));
    let v = _mm512_max_epu8(v, _mm512_srli_epi64::<16>(v));
    let v = _mm512_max_epu8(v, _mm512_srli_epi64::<8>(v));
    _mm512_reduce_max_epu64(_mm512_and_si512(v, _mm512_set1_epi64(0xFF))) as u8
}

/// Validates `src` as `utf8::validate` does, and counts a prefix of it
/// that lies within the valid prefix: the returned `usize` says how long.
/// The same groups of four blocks, a group counted once it has validated
/// (an ASCII group adds 256 characters and nothing else), except the last
/// three bytes of a group that is not all ASCII: an error found in the
/// next block may turn out to start there (a cut sequence), so they are
/// left to the caller, who counts from the returned length to the end of
/// the valid prefix.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut counted = Utf8Stats::default();
    if len <= 64 {
        // SAFETY: the length is checked.
        return (unsafe { validate_one_block(src) }, counted, 0);
    }
    let mut max = _mm512_setzero_si512();
    let mut prev = _mm512_setzero_si512();
    let (mut i, mut counted_to) = (0, 0);
    let mut ascii_group = false;
    while len - i >= 256 {
        if ascii_group {
            // SAFETY: ptr points to len readable bytes.
            (i, prev) = unsafe { skip_ascii_runs(ptr, i, len, prev) };
            counted.leads += i - counted_to;
            counted_to = i;
            if len - i < 256 {
                break;
            }
        }
        // SAFETY: bytes i..i+256 are in bounds.
        let (blocks, error) = unsafe { check_group(ptr, i, prev) };
        if error {
            break;
        }
        if counted_to < i {
            // The three bytes held back from the group before.
            add_block(&mut counted, &mut max, prev, !(u64::MAX >> 3));
        }
        ascii_group = all_ascii(blocks);
        if ascii_group {
            counted.leads += 256;
            counted_to = i + 256;
        } else {
            for (k, block) in blocks.into_iter().enumerate() {
                let lanes = if k == 3 { u64::MAX >> 3 } else { u64::MAX };
                add_block(&mut counted, &mut max, block, lanes);
            }
            counted_to = i + 253;
        }
        (i, prev) = (i + 256, blocks[3]);
    }
    counted.max = max_byte(max);
    // SAFETY: ptr points to len readable bytes; `prev` is the block before i.
    (
        unsafe { validate_blocks(src, i, prev) },
        counted,
        counted_to,
    )
}

/// UTF-8 bytes for well-formed UTF-16 `src` (byte-swapped with `swap`):
/// per unit 1, plus 1 from U+0080 and 1 more from U+0800, less 1 for each
/// surrogate (a pair makes 4).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let w = |v: u16| _mm512_set1_epi16(v as i16);
    let mut total = 0usize;
    let mut i = 0;
    while i < len {
        let rest = (len - i).min(32);
        let lanes = low_bits(rest) as u32;
        // SAFETY: the lanes cover only units i..len; masked-off lanes do
        // not fault.
        let raw = unsafe { _mm512_maskz_loadu_epi16(lanes, ptr.add(i).cast()) };
        let units = if swap {
            _mm512_or_si512(_mm512_slli_epi16::<8>(raw), _mm512_srli_epi16::<8>(raw))
        } else {
            raw
        };
        let two = _mm512_mask_cmpge_epu16_mask(lanes, units, w(0x80));
        let three = _mm512_mask_cmpge_epu16_mask(lanes, units, w(0x800));
        let surrogate =
            _mm512_mask_cmpeq_epi16_mask(lanes, _mm512_and_si512(units, w(0xF800)), w(0xD800));
        total += rest + two.count_ones() as usize + three.count_ones() as usize
            - surrogate.count_ones() as usize;
        i += rest;
    }
    total
}
