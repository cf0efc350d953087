//! UTF-8 validation and counting, 64 bytes a step, and the block checks
//! the decoder shares.
//!
//! Validation flags, for every byte, what is wrong with it given the three
//! bytes before it (Keiser & Lemire, "Validating UTF-8 in less than one
//! instruction per byte", 2021): the high and low nibble of the previous byte
//! and the high nibble of this one each index a 16-entry table of error bits,
//! and the three results are ANDed; a byte 2 or 3 places after a 3- or 4-byte
//! lead must be a continuation. A non-zero result marks the first bad byte.
//!
//! Decoding, which uses these checks one block ahead of its output, is in
//! `decode`.
//!
//! Why this is not the shared validator (`arch::generic::utf8`): over
//! 64-byte vectors (commit 34935b1 on branch `generic-validator`) that algorithm validated
//! and counted CJK, Hindi, Emoji and `mixed-1234` at 1.08-1.11x of this
//! kernel on AMD Zen 4, but Arabic, Hebrew and Russian at 0.55-0.60x and
//! `ascii+1%2B` at 0.60-0.61x: it has no pair test (`pair_check`). With
//! one it could replace this kernel; until then this one stays.

use core::arch::x86_64::*;

use crate::contract::{count_until_error, restart_point, FastStop, Stops};

use super::super::tables::{self, splat};
use super::blocks::{bytes, SHIFT_1, SHIFT_2, SHIFT_3};
use super::pair_check::{below_e0, pairs_run};

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

fn stopped_at_error(src: &[u8], e: usize) -> FastStop {
    FastStop {
        read: restart_point(src, e),
        written: 0,
        flagged: Some(e.min(src.len())),
    }
}

/// The four blocks at `i` and whether any of them has an error, given the
/// block before them: a group of [`validate`] and [`count`]. An ASCII block
/// only carries the previous block's incomplete end into the errors; any
/// other block is checked; nothing branches on an error inside the group.
/// The four blocks' ASCII tests come first, ahead of every check: tested
/// block by block, each check waited on its branch, which cost 5% of text
/// of 3-byte characters, and of `ascii+1%2B`, on AMD Zen 4.
///
/// # Safety
/// Bytes `i..i+256` of `ptr` are readable.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(super) unsafe fn check_group<const STOPS: u8>(
    ptr: *const u8,
    i: usize,
    prev: __m512i,
) -> ([__m512i; 4], bool) {
    // SAFETY: bytes i..i+256 are readable (the caller's contract).
    let [a, b, c, d] =
        unsafe { [0, 64, 128, 192].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
    let high = [a, b, c, d].map(|block| non_ascii(block));
    let step = |block: __m512i, last: __m512i, high: u64| {
        let found = if high != 0 {
            check_block(block, last)
        } else {
            incomplete_end(last)
        };
        _mm512_or_si512(found, stop_bytes::<STOPS>(block, u64::MAX))
    };
    let found = [
        step(a, prev, high[0]),
        step(b, a, high[1]),
        step(c, b, high[2]),
        step(d, c, high[3]),
    ];
    let errors =
        _mm512_ternarylogic_epi32::<0xFE>(found[0], found[1], _mm512_or_si512(found[2], found[3]));
    ([a, b, c, d], flagged_bytes(errors) != 0)
}

/// Whether all four blocks are ASCII (and, with Modified UTF-8's stops,
/// hold no 00).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn all_ascii<const STOPS: u8>([a, b, c, d]: [__m512i; 4]) -> bool {
    let ascii = non_ascii(_mm512_ternarylogic_epi32::<0xFE>(
        a,
        b,
        _mm512_or_si512(c, d),
    )) == 0;
    if STOPS == FOURS_ZERO {
        let low = _mm512_min_epu8(_mm512_min_epu8(a, b), _mm512_min_epu8(c, d));
        ascii && _mm512_testn_epi8_mask(low, low) == 0
    } else {
        ascii
    }
}

/// Skips 256-byte all-ASCII runs from `i` (four blocks per test). Returns
/// where it stopped and the last block before that (`prev` if none).
///
/// # Safety
/// `ptr` points to `len` readable bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) unsafe fn skip_ascii_runs<const STOPS: u8>(
    ptr: *const u8,
    mut i: usize,
    len: usize,
    mut prev: __m512i,
) -> (usize, __m512i) {
    while i + 256 <= len {
        // SAFETY: bytes i..i+256 are in bounds.
        let blocks =
            unsafe { [0, 64, 128, 192].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
        if !all_ascii::<STOPS>(blocks) {
            break;
        }
        i += 256;
        prev = blocks[3];
    }
    (i, prev)
}

/// The longest valid prefix, at block granularity; see `FastStop`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn validate(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise.
    unsafe { validate_with::<NO_STOPS>(src) }
}

/// [`validate`] stopping also at `stops`, which it flags as errors.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: the caller's promise.
    unsafe {
        match stops {
            Stops::Fours => validate_with::<FOURS>(src),
            Stops::FoursAndZero => validate_with::<FOURS_ZERO>(src),
        }
    }
}

/// [`validate`], the bytes in `STOPS` flagged as errors are.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn validate_with<const STOPS: u8>(src: &[u8]) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    if len <= 64 {
        // SAFETY: the length is checked.
        return unsafe { validate_one_block::<STOPS>(src) };
    }
    // Four blocks a test ([`check_group`]): branching per block on errors,
    // or testing pairs of blocks for ASCII, ran text with scattered
    // non-ASCII characters at 0.8x-0.9x simdutf on AMD Zen 5. After an
    // all-ASCII group, a long run is skipped four blocks a test.
    let mut prev = _mm512_setzero_si512();
    let mut i = 0;
    let mut ascii_group = false;
    while len - i >= 256 {
        if ascii_group {
            // SAFETY: ptr points to len readable bytes.
            (i, prev) = unsafe { skip_ascii_runs::<STOPS>(ptr, i, len, prev) };
            if len - i < 256 {
                break;
            }
        }
        // SAFETY: bytes i..i+256 are in bounds.
        let (blocks, error) = unsafe { check_group::<STOPS>(ptr, i, prev) };
        if error {
            // SAFETY: ptr points to len readable bytes; the error is in
            // this group, so the walk stops in it. (Placing it from the
            // group's flags instead keeps four more vectors live through
            // the loop, which cost 10% on mostly-ASCII text.)
            return unsafe { validate_blocks::<STOPS>(src, i, prev) };
        }
        ascii_group = all_ascii::<STOPS>(blocks);
        (i, prev) = (i + 256, blocks[3]);
        // Now and then (at every 2048th byte): if the group has 2-byte
        // characters and none longer, the pair test may take over (a
        // fraction of the work; a group it rejects comes back here).
        if i % 2048 == 0 && !ascii_group && below_e0(blocks) {
            // SAFETY: forwarded from this function's contract (the tier
            // also requires POPCNT, which the pair test enables).
            (i, prev, _) = unsafe { pairs_run::<false, STOPS>(src, i, prev) };
        }
    }
    // SAFETY: ptr points to len readable bytes; `prev` is the block before i.
    unsafe { validate_blocks::<STOPS>(src, i, prev) }
}

/// [`validate`] from byte `i` on, given the block before it, a block a
/// step: the last few blocks, and a group in which an error was seen.
///
/// # Safety
/// The CPU must support the enabled features; `i <= src.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn validate_blocks<const STOPS: u8>(
    src: &[u8],
    mut i: usize,
    mut prev: __m512i,
) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    // A partial last block is zero-filled, and the zeros flag a sequence it
    // cuts short.
    while i < len {
        // SAFETY: i < len.
        let block = unsafe { load_block(ptr, i, len) };
        let stops = stop_bytes::<STOPS>(block, low_bits(len - i));
        let flags = flagged_bytes(_mm512_or_si512(check_block(block, prev), stops));
        if flags != 0 {
            return stopped_at_error(src, i + flags.trailing_zeros() as usize);
        }
        (i, prev) = (i + 64, block);
    }
    // A full final block may end inside a sequence.
    if ends_incomplete(prev) {
        return stopped_at_error(src, len);
    }
    FastStop {
        read: len,
        written: 0,
        flagged: None,
    }
}

/// [`validate`] for an input of at most 64 bytes: one block, and only the
/// constants that block needs (a short call pays for every table it loads).
///
/// # Safety
/// The CPU must support the enabled features; `src.len() <= 64`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline(never)]
pub(super) unsafe fn validate_one_block<const STOPS: u8>(src: &[u8]) -> FastStop {
    let len = src.len();
    if len == 0 {
        return FastStop {
            read: 0,
            written: 0,
            flagged: None,
        };
    }
    // SAFETY: 0 < len <= 64.
    let block = unsafe { load_block(src.as_ptr(), 0, len) };
    let stops = stop_bytes::<STOPS>(block, low_bits(len));
    if non_ascii(block) == 0 && flagged_bytes(stops) == 0 {
        return FastStop {
            read: len,
            written: 0,
            flagged: None,
        };
    }
    let errors = check_block(block, _mm512_setzero_si512());
    let flags = flagged_bytes(_mm512_or_si512(errors, stops));
    if flags != 0 {
        return stopped_at_error(src, flags.trailing_zeros() as usize);
    }
    // A full block may end inside a sequence (a shorter one was zero-filled,
    // and the zeros flagged it already).
    if len == 64 && ends_incomplete(block) {
        return stopped_at_error(src, len);
    }
    FastStop {
        read: len,
        written: 0,
        flagged: None,
    }
}

/// Counts the characters of the longest valid prefix: the validation loop,
/// adding each validated block's lead bytes.
///
/// A block's leads are counted once it has validated; an error flagged at
/// `e` restarts at `q >= e - 3`, which may lie in the block before, whose
/// leads from `q` on are then taken back.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) unsafe fn count(src: &[u8]) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut prev = _mm512_setzero_si512();
    let mut prev_leads = 0u64;
    let mut counted = 0usize;
    let mut i = 0;
    // Groups of four blocks as in `validate`, every block's leads counted
    // (an ASCII block's 64 bytes are all leads); a group with an error is
    // counted again block by block below, from its start.
    let floor = _mm512_set1_epi8(-64);
    let mut ascii_group = false;
    while len - i >= 256 {
        if ascii_group {
            // SAFETY: ptr points to len readable bytes.
            let (next, last) = unsafe { skip_ascii_runs::<NO_STOPS>(ptr, i, len, prev) };
            if next > i {
                (counted, prev_leads) = (counted + (next - i), u64::MAX);
            }
            (i, prev) = (next, last);
            if len - i < 256 {
                break;
            }
        }
        // SAFETY: bytes i..i+256 are in bounds.
        let (blocks, error) = unsafe { check_group::<NO_STOPS>(ptr, i, prev) };
        if error {
            break;
        }
        ascii_group = all_ascii::<NO_STOPS>(blocks);
        let leads = blocks.map(|block| _mm512_cmpge_epi8_mask(block, floor));
        counted += leads.iter().map(|l| l.count_ones() as usize).sum::<usize>();
        (i, prev, prev_leads) = (i + 256, blocks[3], leads[3]);
        // As in `validate`: ASCII-and-pairs text goes to the pair test,
        // which counts what it certifies (branching per group on ASCII
        // here ran `ascii+1%2B` at a third of validation's speed on a
        // Sapphire Rapids core).
        if i % 2048 == 0 && !ascii_group && below_e0(blocks) {
            // SAFETY: forwarded from this function's contract.
            let (next, last, starts) = unsafe { pairs_run::<true, NO_STOPS>(src, i, prev) };
            if next > i {
                (counted, prev_leads) = (counted + starts.count, starts.last);
            }
            (i, prev) = (next, last);
        }
    }
    let stop = |e: usize, i: usize, counted: usize, block_leads: u64, prev_leads: u64| {
        count_until_error(src, e, (i, 64), counted, block_leads, prev_leads)
    };
    while i < len {
        // SAFETY: i < len.
        let block = unsafe { load_block(ptr, i, len) };
        let valid = low_bits(len - i);
        if non_ascii(block) == 0 {
            if ends_incomplete(prev) {
                return stop(i, i, counted, valid, prev_leads);
            }
            counted += (len - i).min(64);
            prev_leads = valid;
            // SAFETY: ptr points to len readable bytes.
            let (next, last) = unsafe { skip_ascii_runs::<NO_STOPS>(ptr, i + 64, len, block) };
            counted += next - (i + 64);
            (i, prev) = (next, last);
            continue;
        }
        let leads = !_mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(-64)) & valid;
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
        i += 64;
    }
    if ends_incomplete(prev) {
        // Only a full final block gets here (see `validate`), so `i == len`.
        return stop(len, len, counted, 0, prev_leads);
    }
    FastStop {
        read: len,
        written: counted,
        flagged: None,
    }
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
