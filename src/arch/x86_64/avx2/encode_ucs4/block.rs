//! The block encoders and exact stores of the AVX2 encoder (see the parent
//! module for the algorithm and the store rule).
//!
//! Every encoder leaves a block as [`Lanes`]: two 16-byte halves, each with
//! its bytes packed to the front and zeros after them, and their counts.

use core::arch::x86_64::*;

use crate::arch::x86_64::copy::copy_prefix;
use crate::arch::x86_64::packs::{COMPACT, COMPACT_BMP};

/// For the same key: how many bytes the four characters take.
static LANE_TOTAL: [u8; 256] = lane_totals();

/// For a mask of which of 8 16-bit pairs are 2-byte characters: the
/// indices of their used bytes (both, or the first), packed to the front.
static COMPACT_PAIRS: [[u8; 16]; 256] = compact_pairs_table();

/// 16 bytes loaded from offset `o` (`0..=32`) are a `pshufb` pattern that
/// moves byte `k` of a lane to `k + 16 - o` (zero where nothing lands).
static WINDOW: [u8; 48] = window();

const fn lane_totals() -> [u8; 256] {
    let mut totals = [0u8; 256];
    let mut key = 0;
    while key < 256 {
        let mut slot = 0;
        while slot < 4 {
            totals[key] += ((key >> (2 * slot)) & 3) as u8 + 1;
            slot += 1;
        }
        key += 1;
    }
    totals
}

const fn compact_pairs_table() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut n = 0;
        let mut unit = 0;
        while unit < 8 {
            table[key][n] = 2 * unit as u8;
            n += 1;
            if key >> unit & 1 != 0 {
                table[key][n] = 2 * unit as u8 + 1;
                n += 1;
            }
            unit += 1;
        }
        key += 1;
    }
    table
}

const fn window() -> [u8; 48] {
    let mut w = [0x80u8; 48];
    let mut k = 0;
    while k < 16 {
        w[16 + k] = k as u8;
        k += 1;
    }
    w
}

/// A block's encoded bytes: `lo`'s first `tot_lo`, then `hi`'s first
/// `tot_hi` (each at most 16; bytes after them are zero).
#[derive(Clone, Copy)]
pub(in crate::arch::x86_64::avx2) struct Lanes {
    lo: __m128i,
    hi: __m128i,
    tot_lo: usize,
    tot_hi: usize,
}

impl Lanes {
    /// A block from its halves: `lo`'s first `tot_lo` bytes, then `hi`'s
    /// first `tot_hi`; the bytes after them must be zero.
    pub(in crate::arch::x86_64::avx2) fn new(
        lo: __m128i,
        hi: __m128i,
        tot_lo: usize,
        tot_hi: usize,
    ) -> Lanes {
        debug_assert!(tot_lo <= 16 && tot_hi <= 16);
        Lanes {
            lo,
            hi,
            tot_lo,
            tot_hi,
        }
    }

    pub(in crate::arch::x86_64::avx2) fn total(&self) -> usize {
        self.tot_lo + self.tot_hi
    }

    /// The block of [`encode_any`] without its lanes from `count` on,
    /// which must hold zero: each of those encoded to one zero byte, the
    /// last of its half, so dropping them from the counts keeps the halves'
    /// bytes packed with zeros after them.
    pub(in crate::arch::x86_64::avx2) fn first_lanes(self, count: usize) -> Lanes {
        debug_assert!(count <= 8);
        let zeros_hi = (8 - count).min(4);
        let zeros_lo = 8 - count - zeros_hi;
        Lanes {
            tot_lo: self.tot_lo - zeros_lo,
            tot_hi: self.tot_hi - zeros_hi,
            ..self
        }
    }
}

#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn set1(v: u32) -> __m256i {
    _mm256_set1_epi32(v as i32)
}

#[target_feature(enable = "avx2")]
#[inline]
fn set16(v: u16) -> __m256i {
    _mm256_set1_epi16(v as i16)
}

/// The `pshufb` pattern at [`WINDOW`] offset `o`.
#[target_feature(enable = "avx2")]
#[inline]
fn window_at(o: usize) -> __m128i {
    debug_assert!(o <= 32);
    // SAFETY: o <= 32, so bytes o..o+16 lie in the 48-byte table.
    unsafe { _mm_loadu_si128(WINDOW.as_ptr().add(o).cast()) }
}

/// Two compaction patterns, `hi_key`'s for the upper 128-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn patterns(table: &[[u8; 16]; 256], lo_key: usize, hi_key: usize) -> __m256i {
    // SAFETY: both rows are 16 bytes (indexing checks the keys).
    unsafe { _mm256_loadu2_m128i(table[hi_key].as_ptr().cast(), table[lo_key].as_ptr().cast()) }
}

/// All ones in the lanes holding a surrogate or a value above U+10FFFF.
#[target_feature(enable = "avx2")]
#[inline]
fn invalid(units: __m256i) -> __m256i {
    let surrogate = _mm256_cmpeq_epi32(_mm256_and_si256(units, set1(0xFFFF_F800)), set1(0xD800));
    let above = _mm256_cmpgt_epi32(
        _mm256_xor_si256(units, set1(0x8000_0000)),
        set1(0x8010_FFFF),
    );
    _mm256_or_si256(surrogate, above)
}

/// The lanes holding a surrogate or a value above U+10FFFF (bit per lane).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn invalid_lanes(units: __m256i) -> u32 {
    _mm256_movemask_ps(_mm256_castsi256_ps(invalid(units))) as u32
}

/// Whether every unit of `a` and `b` is a scalar value.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn all_valid(a: __m256i, b: __m256i) -> bool {
    let bad = _mm256_or_si256(invalid(a), invalid(b));
    _mm256_testz_si256(bad, bad) != 0
}

/// Whether no lane has a bit of `mask` set.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn none_of(units: __m256i, mask: u32) -> bool {
    _mm256_testz_si256(units, set1(mask)) != 0
}

/// Length classes of valid units: all ones where >= 0x80, >= 0x800,
/// >= 0x10000 (signed compares are exact below 2^31).
#[target_feature(enable = "avx2")]
#[inline]
fn classes(units: __m256i) -> (__m256i, __m256i, __m256i) {
    (
        _mm256_cmpgt_epi32(units, set1(0x7F)),
        _mm256_cmpgt_epi32(units, set1(0x7FF)),
        _mm256_cmpgt_epi32(units, set1(0xFFFF)),
    )
}

/// 8 valid units of any length.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn encode_any(units: __m256i) -> Lanes {
    let (c1, c2, c3) = classes(units);
    // g0 g1 g2 g3 from the lowest byte: bits 18.., 12..17, 6..11, 0..5.
    let g0 = _mm256_srli_epi32::<18>(units);
    let g1 = _mm256_and_si256(_mm256_srli_epi32::<4>(units), set1(0x0000_3F00));
    let g2 = _mm256_and_si256(_mm256_slli_epi32::<10>(units), set1(0x003F_0000));
    let g3 = _mm256_and_si256(_mm256_slli_epi32::<24>(units), set1(0x3F00_0000));
    let groups = _mm256_or_si256(_mm256_or_si256(g0, g1), _mm256_or_si256(g2, g3));
    // 0x80 everywhere and 0xF0 in byte 0; 0xC0 in byte 2 for 2-byte lanes,
    // 0xE0 in byte 1 for 2- and 3-byte lanes (unused bytes do not matter).
    let markers = _mm256_or_si256(
        _mm256_andnot_si256(c2, set1(0x0040_0000)),
        _mm256_andnot_si256(c3, set1(0x0000_6000)),
    );
    let encoded = _mm256_or_si256(groups, _mm256_or_si256(markers, set1(0x8080_80F0)));
    // ASCII lanes: the unit itself in byte 3.
    let encoded = _mm256_blendv_epi8(_mm256_slli_epi32::<24>(units), encoded, c1);
    // Length minus one as two sign bits per lane: byte 0 gets c1^c2^c3
    // (set for lengths 2 and 4), byte 1 gets c2 (lengths 3 and 4).
    let key_bytes = _mm256_xor_si256(
        _mm256_and_si256(_mm256_xor_si256(c1, c3), set1(0x00FF)),
        _mm256_and_si256(c2, set1(0xFFFF)),
    );
    // Bits 4j, 4j+1 for lane j; gather them into 2-bit fields.
    let mut key = _mm256_movemask_epi8(key_bytes) as u32;
    key = (key | key >> 2) & 0x0F0F_0F0F;
    key = (key | key >> 4) & 0x00FF_00FF;
    let (lo_key, hi_key) = ((key & 0xFF) as usize, (key >> 16) as usize);
    let packed = _mm256_shuffle_epi8(encoded, patterns(&COMPACT, lo_key, hi_key));
    Lanes {
        lo: _mm256_castsi256_si128(packed),
        hi: _mm256_extracti128_si256::<1>(packed),
        tot_lo: LANE_TOTAL[lo_key] as usize,
        tot_hi: LANE_TOTAL[hi_key] as usize,
    }
}

/// 16 units, `a` then `b`, as 16-bit words in order (they must be below
/// 0x10000).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn narrow_words(a: __m256i, b: __m256i) -> __m256i {
    // Packing interleaves by 128-bit lane (a0-3 b0-3 | a4-7 b4-7); the
    // permute restores unit order.
    _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi32(a, b))
}

/// 16 units, `a` then `b`, as 16-bit words in the order the pack leaves
/// them: units 0-3, 8-11 | 4-7, 12-15 (they must be below 0x10000). For
/// work that does not need unit order, one permute cheaper than
/// [`narrow_words`].
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn pack_words(a: __m256i, b: __m256i) -> __m256i {
    _mm256_packus_epi32(a, b)
}

/// 32 ASCII units (`a` to `d`, 8 each) as 32 bytes in order.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn narrow_ascii32(a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> __m256i {
    // Per 128-bit lane the packs interleave a, b, c, d by fours: dwords
    // a0 b0 c0 d0 a1 b1 c1 d1; the permute restores unit order.
    let bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
}

/// 16 ASCII words as 16 bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn narrow_bytes(words: __m256i) -> __m128i {
    _mm_packus_epi16(
        _mm256_castsi256_si128(words),
        _mm256_extracti128_si256::<1>(words),
    )
}

/// 16 words below 0x800 as one block of 16 (each lane 8 units): 16-bit
/// pairs `110xxxxx 10xxxxxx`, or the unit and a zero byte; [`COMPACT_PAIRS`]
/// keeps the first byte of each pair and the second of 2-byte ones.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn encode_pairs(words: __m256i) -> Lanes {
    let two = _mm256_cmpgt_epi16(words, set16(0x7F));
    let pair = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_srli_epi16::<6>(words),
            _mm256_and_si256(_mm256_slli_epi16::<8>(words), set16(0x3F00)),
        ),
        set16(0x80C0),
    );
    let encoded = _mm256_blendv_epi8(words, pair, two);
    // One bit per unit: bytes 0..8 and 16..24 of the packed mask.
    let key = _mm256_movemask_epi8(_mm256_packs_epi16(two, two)) as u32;
    let (lo_key, hi_key) = ((key & 0xFF) as usize, ((key >> 16) & 0xFF) as usize);
    let packed = _mm256_shuffle_epi8(encoded, patterns(&COMPACT_PAIRS, lo_key, hi_key));
    Lanes {
        lo: _mm256_castsi256_si128(packed),
        hi: _mm256_extracti128_si256::<1>(packed),
        tot_lo: 8 + lo_key.count_ones() as usize,
        tot_hi: 8 + hi_key.count_ones() as usize,
    }
}

/// Masks of the words that take one byte, and one or two bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn word_classes(words: __m256i) -> (__m256i, __m256i) {
    let zero = _mm256_setzero_si256();
    (
        _mm256_cmpeq_epi16(_mm256_and_si256(words, set16(0xFF80)), zero),
        _mm256_cmpeq_epi16(_mm256_and_si256(words, set16(0xF800)), zero),
    )
}

/// All ones in the words that are surrogates.
#[target_feature(enable = "avx2")]
#[inline]
fn surrogate_words(words: __m256i) -> __m256i {
    _mm256_cmpeq_epi16(_mm256_and_si256(words, set16(0xF800)), set16(0xD800))
}

/// Whether any word of `a` or `b` is a surrogate (pass one vector twice to
/// test one).
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn any_surrogate(a: __m256i, b: __m256i) -> bool {
    let s = _mm256_or_si256(surrogate_words(a), surrogate_words(b));
    _mm256_testz_si256(s, s) == 0
}

/// 16 words that are scalars (1 to 3 bytes each), in [`pack_words`]'
/// order, as two blocks of 8 in unit order: each unit's bytes in a 4-byte
/// slot as `packs::BMP_BYTES` lays them out, packed by [`COMPACT_BMP`].
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(in crate::arch::x86_64::avx2) fn encode_bmp(words: __m256i) -> [Lanes; 2] {
    let (one, short) = word_classes(words);
    // The layout of simdutf's UTF-16 encoder. Bytes 0 and 1 of each slot:
    // the word's low 7 bits (an ASCII character) and `10g3`, from its low
    // byte in both halves.
    let dup = _mm256_shuffle_epi8(
        words,
        _mm256_setr_epi8(
            0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, //
            0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14,
        ),
    );
    let low = _mm256_or_si256(_mm256_and_si256(dup, set16(0x3F7F)), set16(0x8000));
    // Bytes 2 and 3: `1110g1` and `10g2` (`110g2` for 2 bytes, where g2 <
    // 0x20). `maddubs` multiplies the low byte of `(w >> 4) & 0xFFC`
    // (g2 << 2) by 0x40 into the high byte, and adds the high byte (g1).
    let parts = _mm256_maddubs_epi16(
        _mm256_and_si256(_mm256_srli_epi16::<4>(words), set16(0x0FFC)),
        set16(0x0140),
    );
    let high = _mm256_xor_si256(
        _mm256_or_si256(parts, set16(0xC0E0)),
        _mm256_andnot_si256(short, set16(0x4000)),
    );
    // Units 0-3 | 4-7 and 8-11 | 12-15 as 32-bit lanes (the words are in
    // the packs' order).
    let first = _mm256_unpacklo_epi16(low, high);
    let second = _mm256_unpackhi_epi16(low, high);
    // Bytes past the first, in unary, 2 bits a unit: bit 0 for 2 or 3
    // bytes (not `one`), bit 1 for 3 (not `short`; `one` lies in `short`).
    let key_bytes = _mm256_and_si256(short, _mm256_or_si256(one, set16(0xFF00)));
    let key = !(_mm256_movemask_epi8(key_bytes) as u32);
    let k = [0, 8, 16, 24].map(|s| ((key >> s) & 0xFF) as usize);
    let first = _mm256_shuffle_epi8(first, patterns(&COMPACT_BMP, k[0], k[2]));
    let second = _mm256_shuffle_epi8(second, patterns(&COMPACT_BMP, k[1], k[3]));
    let total = |key: usize| 4 + key.count_ones() as usize;
    [
        Lanes {
            lo: _mm256_castsi256_si128(first),
            hi: _mm256_extracti128_si256::<1>(first),
            tot_lo: total(k[0]),
            tot_hi: total(k[2]),
        },
        Lanes {
            lo: _mm256_castsi256_si128(second),
            hi: _mm256_extracti128_si256::<1>(second),
            tot_lo: total(k[1]),
            tot_hi: total(k[3]),
        },
    ]
}

/// Writes the block's bytes, and nothing else, at `out`.
///
/// # Safety
/// `lanes.total() >= 8`, and `out` has room for that many bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) unsafe fn store(lanes: &Lanes, out: *mut u8) {
    let Lanes {
        lo,
        hi,
        tot_lo,
        tot_hi,
    } = *lanes;
    let total = tot_lo + tot_hi;
    debug_assert!(total >= 8);
    if total >= 16 {
        // `lo` as it is, then the last 16 bytes: `hi` moved to the end,
        // `lo`'s last bytes before it. The second store starts at or before
        // tot_lo (tot_hi <= 16) and ends at or after 16, so it covers the
        // zeros the first wrote after `lo`'s bytes.
        let tail = _mm_or_si128(
            _mm_shuffle_epi8(hi, window_at(tot_hi)),
            _mm_shuffle_epi8(lo, window_at(total)),
        );
        // SAFETY: [0, 16) and [total - 16, total) lie in the `total` bytes
        // the caller made room for.
        unsafe {
            _mm_storeu_si128(out.cast(), lo);
            _mm_storeu_si128(out.add(total - 16).cast(), tail);
        }
    } else {
        // All in `head` (`hi` moved up behind `lo`): its first 8 bytes and
        // its bytes total-8..total.
        let head = _mm_or_si128(lo, _mm_shuffle_epi8(hi, window_at(16 - tot_lo)));
        let last8 = _mm_shuffle_epi8(head, window_at(total + 8));
        // SAFETY: 8 <= total: [0, 8) and [total - 8, total) are in room.
        unsafe {
            _mm_storel_epi64(out.cast(), head);
            _mm_storel_epi64(out.add(total - 8).cast(), last8);
        }
    }
}

/// Writes the block's bytes at `out` as two whole 16-byte vectors, the
/// second right after the first half's bytes: up to 16 bytes past the
/// block's output get zeros, which the caller's next store writes over.
/// Returns the block's length.
///
/// # Safety
/// `out` has room for `lanes.total() + 16` bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) unsafe fn store_loose(lanes: &Lanes, out: *mut u8) -> usize {
    // SAFETY: [0, 16) and [tot_lo, tot_lo + 16) lie in [0, total + 16).
    unsafe {
        _mm_storeu_si128(out.cast(), lanes.lo);
        _mm_storeu_si128(out.add(lanes.tot_lo).cast(), lanes.hi);
    }
    lanes.total()
}

/// Writes two blocks' bytes, one after the other, and nothing else, at
/// `out`.
///
/// # Safety
/// Each block has 8 bytes or more, and `out` has room for both.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) unsafe fn store_two(first: &Lanes, second: &Lanes, out: *mut u8) {
    let end = first.total();
    if first.tot_hi + second.total() >= 16 {
        // The first block's lanes unshuffled: its bytes, then 16 - tot_hi
        // zeros after them, inside the second block's output, all of which
        // `store` then writes.
        // SAFETY: [0, 16) and [tot_lo, tot_lo + 16) lie in [0, end + 16 -
        // tot_hi), inside both blocks' room; `store`'s contract holds as
        // below.
        unsafe {
            _mm_storeu_si128(out.cast(), first.lo);
            _mm_storeu_si128(out.add(first.tot_lo).cast(), first.hi);
            store(second, out.add(end));
        }
    } else {
        // SAFETY: each block has 8 bytes or more, in the room one after the
        // other.
        unsafe {
            store(first, out);
            store(second, out.add(end));
        }
    }
}

/// Writes the block's first `n` bytes (`n <= lanes.total()`) at `out`, by
/// way of a stack buffer.
///
/// # Safety
/// `out` has room for `n` bytes.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::arch::x86_64::avx2) unsafe fn store_prefix(lanes: &Lanes, n: usize, out: *mut u8) {
    debug_assert!(n <= lanes.total());
    let mut buf = [0u8; 32];
    // SAFETY: tot_lo <= 16, so both 16-byte stores lie in the 32-byte local
    // buffer; n <= 32 bytes are copied from it into the caller's room (a
    // local cannot overlap `out`).
    unsafe {
        _mm_storeu_si128(buf.as_mut_ptr().cast(), lanes.lo);
        _mm_storeu_si128(buf.as_mut_ptr().add(lanes.tot_lo).cast(), lanes.hi);
        copy_prefix(&buf, n, out);
    }
}

/// Adds each valid unit's encoded bytes beyond the first (0..=3) to `acc`,
/// summed per 64-bit lane (for measuring).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn add_extra_bytes(acc: __m256i, units: __m256i) -> __m256i {
    let (c1, c2, c3) = classes(units);
    let extra = _mm256_sub_epi32(
        _mm256_setzero_si256(),
        _mm256_add_epi32(_mm256_add_epi32(c1, c2), c3),
    );
    // Each dword is 0..=3 in its low byte: a byte sum gives the total.
    _mm256_add_epi64(acc, _mm256_sad_epu8(extra, _mm256_setzero_si256()))
}

/// The sum of the three length classes of 32 valid units, negated (0..=3
/// per unit, in the low byte of each 32-bit lane).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn extra_bytes4(units: [__m256i; 4]) -> __m256i {
    let mut sum = _mm256_setzero_si256();
    for u in units {
        let (c1, c2, c3) = classes(u);
        sum = _mm256_sub_epi32(sum, _mm256_add_epi32(_mm256_add_epi32(c1, c2), c3));
    }
    sum
}

/// Whether all 32 units are scalar values: none is a surrogate, and the
/// largest (unsigned) is at most U+10FFFF.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn all_valid4(units: [__m256i; 4]) -> bool {
    let surrogate = |u| _mm256_cmpeq_epi32(_mm256_and_si256(u, set1(0xFFFF_F800)), set1(0xD800));
    let [a, b, c, d] = units;
    let max = _mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d));
    let bad = _mm256_or_si256(
        _mm256_or_si256(surrogate(a), surrogate(b)),
        _mm256_or_si256(surrogate(c), surrogate(d)),
    );
    let above = _mm256_cmpeq_epi32(_mm256_min_epu32(max, set1(0x10_FFFF)), max);
    // `above` is all ones where the maximum is in range.
    _mm256_testc_si256(above, _mm256_set1_epi32(-1)) != 0 && _mm256_testz_si256(bad, bad) != 0
}

/// [`add_extra_bytes`] for 16 scalar words (0..=2 each).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn add_extra_bytes_words(acc: __m256i, words: __m256i) -> __m256i {
    let (one, short) = word_classes(words);
    // -2 (ASCII), -1 (2 bytes) or 0 (3 bytes), plus 2.
    let extra = _mm256_add_epi16(_mm256_add_epi16(one, short), set16(2));
    _mm256_add_epi64(acc, _mm256_sad_epu8(extra, _mm256_setzero_si256()))
}

/// The sum of the four 64-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn sum_u64x4(acc: __m256i) -> usize {
    let pair = _mm_add_epi64(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    (_mm_cvtsi128_si64(pair) as u64).wrapping_add(_mm_extract_epi64::<1>(pair) as u64) as usize
}
