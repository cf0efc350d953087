//! `pshufb` patterns that pack the UTF-8 bytes of four characters, each
//! built in a 4-byte slot, to the front of a 16-byte lane: shared by the
//! encoders of the SSE and AVX2 tiers; the UTF-16 of four code points,
//! shared by their decoders; and the patterns that drop continuation bytes,
//! shared by their Latin-1 decoders.

use core::arch::x86_64::*;

use crate::arch::generic::tables::PAIR_UNITS;

/// For a key holding the lengths minus one of four characters (2 bits each,
/// the first lowest): the byte indices, in a 16-byte lane of four 4-byte
/// slots, of the bytes they use (`4-n .. 4` of slot `j` for length `n`),
/// packed to the front; `0x80` (a zero byte) after them.
pub(super) static COMPACT: [[u8; 16]; 256] = compact_table(false, &LAST_BYTES);

/// For keys whose 2-bit fields count the bytes past the first in unary
/// (`00`, `01`, `11` for lengths 1, 2, 3; `10` does not occur), so that a
/// lane's length is 4 plus the key's population count: the byte indices of
/// the characters' bytes in slots laid out as [`BMP_BYTES`] says, packed to
/// the front.
pub(super) static COMPACT_BMP: [[u8; 16]; 256] = compact_table(true, &BMP_BYTES);

/// Where a character's bytes lie in its 4-byte slot, in order, by length:
/// the last `n` bytes (the AVX2 encoder's any-length block),
const LAST_BYTES: [&[usize]; 4] = [&[3], &[2, 3], &[1, 2, 3], &[0, 1, 2, 3]];
/// or the layout of simdutf's UTF-16 encoder, which the blocks of
/// 1- to 3-byte characters use: byte 0 the ASCII character, 1 the last
/// byte of a longer one, 2 a 3-byte lead, 3 a 2-byte lead or the middle
/// byte of 3.
const BMP_BYTES: [&[usize]; 4] = [&[0], &[3, 1], &[2, 3, 1], &[]];

const fn compact_table(unary: bool, layout: &[&[usize]; 4]) -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut n = 0;
        let mut slot = 0;
        while slot < 4 {
            let field = (key >> (2 * slot)) & 3;
            let len = if unary {
                [1, 2, 3, 3][field]
            } else {
                field + 1
            };
            let bytes = layout[len - 1];
            let mut k = 0;
            while k < bytes.len() {
                table[key][n] = (4 * slot + bytes[k]) as u8;
                n += 1;
                k += 1;
            }
            slot += 1;
        }
        key += 1;
    }
    table
}

/// The UTF-16 units of four scalar values in 32-bit lanes, packed to the
/// front (zeros after them), and how many of the values are supplementary
/// (take two units): a pair's high surrogate `0xD7C0 + (c >> 10)` goes in
/// its lane's low half, the low one `0xDC00 | (c & 0x3FF)` in the high
/// half, and a table keyed by the supplementary lanes keeps each lane's
/// one or two units.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
pub(super) fn utf16_of_four(cps: __m128i) -> (__m128i, usize) {
    let set = |v: u32| _mm_set1_epi32(v as i32);
    let supplementary = _mm_cmpgt_epi32(cps, set(0xFFFF));
    let pair = _mm_or_si128(
        _mm_add_epi32(_mm_srli_epi32::<10>(cps), set(0xD7C0)),
        _mm_slli_epi32::<16>(_mm_or_si128(_mm_and_si128(cps, set(0x3FF)), set(0xDC00))),
    );
    let lanes = _mm_blendv_epi8(cps, pair, supplementary);
    let mask = _mm_movemask_ps(_mm_castsi128_ps(supplementary)) as usize;
    // SAFETY: a row is 16 bytes (indexing checks the mask).
    let pattern = unsafe { _mm_loadu_si128(PAIR_UNITS[mask].as_ptr().cast()) };
    (_mm_shuffle_epi8(lanes, pattern), mask.count_ones() as usize)
}
