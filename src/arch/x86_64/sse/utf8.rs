//! UTF-8 validation and counting, 16 bytes a step, and the block helpers
//! the decoder shares.
//!
//! Each block is checked against the three bytes before it with the
//! Keiser-Lemire nibble lookups (see the AVX-512 tier): `PSHUFB` looks up
//! the previous byte's high and low nibble and this byte's high nibble in
//! three 16-entry tables of error bits, and a byte is bad when a bit
//! survives the AND (or a byte 2 or 3 after a long lead is not a
//! continuation). Runs of four in-bounds blocks are checked together, with
//! one test for the lot; a run with an error is retried block by block to
//! find the first bad byte. All-ASCII runs are skipped 128 bytes a test.

use core::arch::x86_64::*;

use super::super::partial::chunk16;
use core::mem::transmute;

use super::super::stopping::{stop_at, FOURS, FOURS_ZERO, NO_STOPS};
use super::super::tables::{self, splat};
use crate::arch::{count_until_error, FastStop, Stops};

const fn bytes(f: [u8; 16]) -> __m128i {
    // SAFETY: both are 16 plain bytes; every bit pattern is a valid __m128i.
    unsafe { transmute(f) }
}

const BYTE_1_HIGH: __m128i = bytes(splat(tables::BYTE_1_HIGH));
const BYTE_1_HIGH_FOURS: __m128i = bytes(splat(tables::BYTE_1_HIGH_FOURS));
const BYTE_1_LOW: __m128i = bytes(splat(tables::BYTE_1_LOW));
const BYTE_2_HIGH: __m128i = bytes(splat(tables::BYTE_2_HIGH));
const LIMITS: __m128i = bytes(tables::incomplete_limits());

/// A mask of the low `n` bits of a 16-bit block mask.
#[inline(always)]
pub(super) fn low_bits(n: usize) -> u32 {
    if n >= 16 {
        0xFFFF
    } else {
        (1u32 << n) - 1
    }
}

/// Error bits for each byte of `input`, given the block before it.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn check_block(input: __m128i, prev: __m128i) -> __m128i {
    check_block_parts(input, prev).errors
}

/// [`check_block`], also flagging the byte after each F0..FF with `STOPS`
/// (see [`stop_at`]).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn check_block_with<const STOPS: u8>(input: __m128i, prev: __m128i) -> __m128i {
    checked::<STOPS>(input, prev).errors
}

/// What [`check_block`] finds, with two of its steps that also say what the
/// bytes are (classification counts them).
pub(super) struct Checked {
    /// The error bits.
    pub errors: __m128i,
    /// The top bit of each byte set where it is a continuation byte.
    pub continuations: __m128i,
    /// The top bit of each byte set where the byte 3 before it is F0..FF:
    /// in well-formed text, the last bytes of 4-byte characters.
    pub fourths: __m128i,
}

/// See [`Checked`].
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn check_block_parts(input: __m128i, prev: __m128i) -> Checked {
    checked::<NO_STOPS>(input, prev)
}

/// [`check_block_parts`], with `STOPS` as in [`check_block_with`].
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn checked<const STOPS: u8>(input: __m128i, prev: __m128i) -> Checked {
    let byte_1_high = if STOPS == NO_STOPS {
        BYTE_1_HIGH
    } else {
        BYTE_1_HIGH_FOURS
    };
    let prev1 = _mm_alignr_epi8::<15>(input, prev);
    let prev2 = _mm_alignr_epi8::<14>(input, prev);
    let prev3 = _mm_alignr_epi8::<13>(input, prev);
    let nibble = _mm_set1_epi8(0x0F);
    let prev1_high = _mm_and_si128(_mm_srli_epi16::<4>(prev1), nibble);
    let prev1_low = _mm_and_si128(prev1, nibble);
    let input_high = _mm_and_si128(_mm_srli_epi16::<4>(input), nibble);
    // Of this lookup's bits, only the continuation nibbles (8..B) have
    // TWO_CONTS, the top bit.
    let byte_2_high = _mm_shuffle_epi8(BYTE_2_HIGH, input_high);
    let special = _mm_and_si128(
        _mm_and_si128(
            _mm_shuffle_epi8(byte_1_high, prev1_high),
            _mm_shuffle_epi8(BYTE_1_LOW, prev1_low),
        ),
        byte_2_high,
    );
    let third = _mm_subs_epu8(prev2, _mm_set1_epi8(0xE0u8.wrapping_sub(0x80) as i8));
    let fourth = _mm_subs_epu8(prev3, _mm_set1_epi8(0xF0u8.wrapping_sub(0x80) as i8));
    let must_continue = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8(0x80u8 as i8));
    Checked {
        errors: _mm_xor_si128(must_continue, special),
        continuations: byte_2_high,
        fourths: fourth,
    }
}

/// Whether the block ends inside a sequence it cannot finish.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn ends_incomplete(block: __m128i) -> bool {
    let over = _mm_subs_epu8(block, LIMITS);
    _mm_testz_si128(over, over) == 0
}

#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn non_ascii(block: __m128i) -> u32 {
    _mm_movemask_epi8(block) as u32
}

#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn flagged_bytes(err: __m128i) -> u32 {
    !(_mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) as u32) & 0xFFFF
}

/// The bytes that are not continuation bytes (0x80..=0xBF).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn lead_bytes(block: __m128i) -> u32 {
    !(_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), block)) as u32) & 0xFFFF
}

/// Bytes `[i, i+16)` of `src`, zero-filled past its end. `i < src.len()`.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn load_block(src: &[u8], i: usize) -> __m128i {
    if src.len() - i >= 16 {
        // SAFETY: bytes i..i+16 are in bounds.
        unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast()) }
    } else {
        chunk16(src, i)
    }
}

/// The four blocks at `i`.
///
/// # Safety
/// Bytes `i..i+64` of `src` are in bounds.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) unsafe fn load_four(src: &[u8], i: usize) -> [__m128i; 4] {
    // SAFETY: the caller guarantees bytes i..i+64 are in bounds.
    unsafe { [0, 16, 32, 48].map(|o| _mm_loadu_si128(src.as_ptr().add(i + o).cast())) }
}

/// The lead masks of four blocks, as one 64-bit mask.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn four_leads(blocks: [__m128i; 4]) -> u64 {
    let [a, b, c, d] = blocks.map(|b| lead_bytes(b) as u64);
    a | b << 16 | c << 32 | d << 48
}

/// Whether the four blocks are all ASCII.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn is_ascii(blocks: [__m128i; 4]) -> bool {
    let [a, b, c, d] = blocks;
    non_ascii(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) == 0
}

/// The 00 bytes of `block` with `FOURS_ZERO` (Modified UTF-8's stop that
/// the lookups cannot flag), as a mask.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn zeros<const STOPS: u8>(block: __m128i) -> u32 {
    if STOPS == FOURS_ZERO {
        _mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_setzero_si128())) as u32
    } else {
        0
    }
}

/// Two blocks as one for [`plain`]: their OR, or with `FOURS_ZERO` their
/// signed minimum.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn combine<const STOPS: u8>(a: __m128i, b: __m128i) -> __m128i {
    if STOPS == FOURS_ZERO {
        _mm_min_epi8(a, b)
    } else {
        _mm_or_si128(a, b)
    }
}

/// Whether the four blocks are plain ASCII, with no byte in `STOPS` (with
/// `FOURS_ZERO`: every byte is 01..7F, a signed minimum above 0).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn plain<const STOPS: u8>([a, b, c, d]: [__m128i; 4]) -> bool {
    let all = combine::<STOPS>(combine::<STOPS>(a, b), combine::<STOPS>(c, d));
    if STOPS == FOURS_ZERO {
        _mm_movemask_epi8(_mm_cmpgt_epi8(all, _mm_setzero_si128())) == 0xFFFF
    } else {
        non_ascii(all) == 0
    }
}

/// Whether the four blocks `blocks` are valid after `prev` and hold no
/// byte in `STOPS` (one test for all four; plain blocks only need `prev`
/// to end complete).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn four_valid<const STOPS: u8>(blocks: [__m128i; 4], prev: __m128i) -> bool {
    if plain::<STOPS>(blocks) {
        return !ends_incomplete(prev);
    }
    let [a, b, c, d] = blocks;
    let mut err = _mm_or_si128(
        _mm_or_si128(
            check_block_with::<STOPS>(a, prev),
            check_block_with::<STOPS>(b, a),
        ),
        _mm_or_si128(
            check_block_with::<STOPS>(c, b),
            check_block_with::<STOPS>(d, c),
        ),
    );
    if STOPS == FOURS_ZERO {
        let low = _mm_min_epu8(_mm_min_epu8(a, b), _mm_min_epu8(c, d));
        err = _mm_or_si128(err, _mm_cmpeq_epi8(low, _mm_setzero_si128()));
    }
    _mm_testz_si128(err, err) == 1
}

/// The longest valid prefix, at block granularity, and with `COUNT` the
/// number of characters in it. At an error whose restart point lies in the
/// previous block, that block's characters from the restart point on are
/// taken back out of the count.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn validate<const COUNT: bool>(src: &[u8]) -> FastStop {
    // SAFETY: the caller's promise.
    unsafe { validate_with::<COUNT, NO_STOPS>(src) }
}

/// [`validate`] (without counting) stopping also at `stops`, which it
/// flags as errors.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: the caller's promise.
    unsafe {
        match stops {
            Stops::Fours => validate_with::<false, FOURS>(src),
            Stops::FoursAndZero => validate_with::<false, FOURS_ZERO>(src),
        }
    }
}

/// [`validate`], the bytes in `STOPS` flagged as errors are: a vector
/// operation or two more on the blocks it checks anyway (a byte search
/// ahead of the validator, a pass of its own, ran CESU-8 and Modified
/// UTF-8 at 0.85x RFC 3629 on non-ASCII text).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
unsafe fn validate_with<const COUNT: bool, const STOPS: u8>(src: &[u8]) -> FastStop {
    let len = src.len();
    let mut prev = _mm_setzero_si128();
    let mut prev_leads = 0u32;
    let mut counted = 0usize;
    let mut i = 0;
    let stop = |e: usize, i: usize, counted: usize, block_leads: u32, prev_leads: u32| {
        let counted = if COUNT { counted } else { 0 };
        let (block_leads, prev_leads) = if COUNT {
            (u64::from(block_leads), u64::from(prev_leads))
        } else {
            (0, 0)
        };
        let e = stop_at::<STOPS>(src, e);
        count_until_error(src, e, (i, 16), counted, block_leads, prev_leads)
    };
    while i < len {
        if i + 64 <= len {
            // SAFETY: bytes i..i+64 are in bounds.
            let four = unsafe { load_four(src, i) };
            if plain::<STOPS>(four) && !ends_incomplete(prev) {
                counted += 64;
                prev_leads = 0xFFFF;
                prev = four[3];
                i += 64;
                // An ASCII run: 128 bytes a test, with no carry to check.
                while i + 128 <= len {
                    // SAFETY: bytes i..i+128 are in bounds.
                    let (a, b) = unsafe { (load_four(src, i), load_four(src, i + 64)) };
                    if !plain::<STOPS>([0, 1, 2, 3].map(|k| combine::<STOPS>(a[k], b[k]))) {
                        break;
                    }
                    counted += 128;
                    prev = b[3];
                    i += 128;
                }
                continue;
            }
            if four_valid::<STOPS>(four, prev) {
                if COUNT {
                    counted += four_leads(four).count_ones() as usize;
                }
                prev_leads = lead_bytes(four[3]);
                prev = four[3];
                i += 64;
                continue;
            }
            // An error in these four blocks: find it one block at a time.
        }
        let block = load_block(src, i);
        let valid = low_bits(len - i);
        // (A partial block's zeros are no 00 of the input.)
        let stops = zeros::<STOPS>(block) & valid;
        if non_ascii(block) == 0 && stops == 0 {
            if ends_incomplete(prev) {
                return stop(i, i, counted, valid, prev_leads);
            }
            counted += (len - i).min(16);
            prev_leads = valid;
            prev = block;
            i += 16;
            continue;
        }
        let leads = lead_bytes(block) & valid;
        let flags = flagged_bytes(check_block_with::<STOPS>(block, prev)) | stops;
        if flags != 0 {
            let e = i + flags.trailing_zeros() as usize;
            return stop(e, i, counted, leads, prev_leads);
        }
        counted += leads.count_ones() as usize;
        prev_leads = leads;
        prev = block;
        i += 16;
    }
    if ends_incomplete(prev) {
        return stop(len, len, counted, 0, prev_leads);
    }
    FastStop {
        read: len,
        written: if COUNT { counted } else { 0 },
        flagged: None,
    }
}

/// Bytes of `src` that are not continuation bytes, 64 a step.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn count_leads(src: &[u8]) -> usize {
    let len = src.len();
    let (mut i, mut n) = (0, 0);
    while i + 64 <= len {
        // SAFETY: bytes i..i+64 are in bounds.
        let four = unsafe { load_four(src, i) };
        n += four_leads(four).count_ones() as usize;
        i += 64;
    }
    n + crate::scalar::validate::count_leads(&src[i..])
}
