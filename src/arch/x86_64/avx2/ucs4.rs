//! Code points to UTF-8, 8 a step (one `__m256i` of 32-bit units).
//!
//! # Algorithm
//!
//! * **ASCII runs.** While the previous block was ASCII, 32 units are tested
//!   at once and, if all are below 0x80, narrowed with two rounds of
//!   saturating packs and one dword permute into 32 bytes. A lone ASCII
//!   block of 8 is narrowed to 8 bytes the same way.
//! * **Checks.** A block is valid when no unit is a surrogate
//!   (`u & 0xFFFF_F800 == 0xD800`) and none is above U+10FFFF (a signed
//!   compare after flipping the sign bit). The first block with an invalid
//!   unit ends the kernel: nothing of it is written and the bad unit's index
//!   is flagged, so the driver hands that stretch to the scalar core.
//! * **Bytes in place.** Three compares give each lane's length class
//!   (`c1`: >= 0x80, `c2`: >= 0x800, `c3`: >= 0x10000). Each lane is built
//!   as four bytes `g0 g1 g2 g3` (lowest address first), the 6-bit groups of
//!   a 4-byte character, and tagged: `0x80` on every byte, plus `0x40` on
//!   byte 2 unless `c2` and `0x60` on byte 1 unless `c3`. A character of
//!   length `n` is then exactly bytes `4-n .. 4` of its lane (a 2-byte one
//!   is `110g2 10g3`, a 3-byte one `1110g1 10g2 10g3`, ...); ASCII lanes
//!   get the unit itself in byte 3.
//! * **Compaction.** The length of each lane minus one (2 bits, from the
//!   compares' sign bits with one `movemask`) forms an 8-bit key per 128-bit
//!   lane of four characters. [`COMPACT`] (256 entries, built by a `const
//!   fn`) maps a key to the `pshufb` pattern gathering the used bytes to the
//!   front, zero-filling the rest; [`LANE_TOTAL`] gives their count.
//!
//! # Never writing past `written`
//!
//! AVX2 has no byte-masked store (`vpmaskmovd` works on whole dwords), and a
//! plain 16-byte store of a half-empty lane would leave junk after the
//! output; if the kernel then stopped (an error in the next block, a full
//! output, the end of the input), that junk would lie past the reported
//! `written`, where the caller's bytes must stay untouched. So every store
//! of a step lies *inside that step's own output* `[written, written +
//! total)`, and `total` bytes fit in `cap` before anything is stored:
//!
//! * `total >= 16`: the two lanes (`lo`: `tot_lo` bytes, `hi`: `tot_hi`) are
//!   joined by sliding-window shuffles ([`WINDOW`]) into the first 16 output
//!   bytes (`head`) and the last 16 (`tail`), stored at `written` and
//!   `written + total - 16`. The two may overlap; they agree there.
//! * `8 <= total < 16` (8 units make at least 8 bytes): `head` holds all of
//!   it; its first 8 and last 8 bytes are stored the same way.
//! * The last, partial block is loaded with `vpmaskmovd` (no read past the
//!   input), encoded into a stack buffer and copied with its exact length.

use core::arch::x86_64::*;
use core::ptr::copy_nonoverlapping;

use crate::arch::FastStop;

/// For a key holding the lengths minus one of four characters (2 bits each,
/// the first lowest): the byte indices, in a 16-byte lane of four 4-byte
/// slots, of the bytes they use (`4-n .. 4` of slot `j` for length `n`),
/// packed to the front; `0x80` (a zero byte) after them.
static COMPACT: [[u8; 16]; 256] = compact_table();

/// For the same key: how many bytes the four characters take.
static LANE_TOTAL: [u8; 256] = lane_totals();

/// 16 bytes loaded from offset `o` (`0..=32`) are a `pshufb` pattern that
/// moves byte `k` of a lane to `k + 16 - o` (zero where nothing lands).
static WINDOW: [u8; 48] = window();

const fn compact_table() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut n = 0;
        let mut slot = 0;
        while slot < 4 {
            let len = ((key >> (2 * slot)) & 3) + 1;
            let mut byte = 4 - len;
            while byte < 4 {
                table[key][n] = (4 * slot + byte) as u8;
                n += 1;
                byte += 1;
            }
            slot += 1;
        }
        key += 1;
    }
    table
}

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

const fn window() -> [u8; 48] {
    let mut w = [0x80u8; 48];
    let mut k = 0;
    while k < 16 {
        w[16 + k] = k as u8;
        k += 1;
    }
    w
}

#[target_feature(enable = "avx2")]
#[inline]
fn set1(v: u32) -> __m256i {
    _mm256_set1_epi32(v as i32)
}

/// The `pshufb` pattern at [`WINDOW`] offset `o`.
#[target_feature(enable = "avx2")]
#[inline]
fn window_at(o: usize) -> __m128i {
    debug_assert!(o <= 32);
    // SAFETY: o <= 32, so bytes o..o+16 lie in the 48-byte table.
    unsafe { _mm_loadu_si128(WINDOW.as_ptr().add(o).cast()) }
}

/// The lanes holding a surrogate or a value above U+10FFFF (bit per lane).
#[target_feature(enable = "avx2")]
#[inline]
fn invalid_lanes(units: __m256i) -> u32 {
    let surrogate = _mm256_cmpeq_epi32(_mm256_and_si256(units, set1(0xFFFF_F800)), set1(0xD800));
    let above = _mm256_cmpgt_epi32(
        _mm256_xor_si256(units, set1(0x8000_0000)),
        set1(0x8010_FFFF),
    );
    _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(surrogate, above))) as u32
}

/// Whether every lane is below 0x80.
#[target_feature(enable = "avx2")]
#[inline]
fn all_ascii(units: __m256i) -> bool {
    _mm256_testz_si256(units, set1(0xFFFF_FF80)) != 0
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

/// A valid block encoded and compacted: each 128-bit lane's bytes packed to
/// its front (zeros after them), and the two lanes' byte counts.
#[target_feature(enable = "avx2")]
#[inline]
fn encode_block(units: __m256i) -> (__m128i, __m128i, usize, usize) {
    let (c1, c2, c3) = classes(units);
    // g0 g1 g2 g3 from the lowest byte: the groups of bits 18.., 12..17,
    // 6..11 and 0..5.
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
    // SAFETY: keys are below 256, the tables' length.
    let pattern = unsafe {
        _mm256_loadu2_m128i(
            COMPACT[hi_key].as_ptr().cast(),
            COMPACT[lo_key].as_ptr().cast(),
        )
    };
    let packed = _mm256_shuffle_epi8(encoded, pattern);
    (
        _mm256_castsi256_si128(packed),
        _mm256_extracti128_si256::<1>(packed),
        LANE_TOTAL[lo_key] as usize,
        LANE_TOTAL[hi_key] as usize,
    )
}

/// Writes the `tot_lo` front bytes of `lo` then the `tot_hi` of `hi`, and
/// nothing else (bytes of `lo`, `hi` past those counts are zero).
///
/// # Safety
/// `tot_lo + tot_hi >= 8`, both at most 16, and `out` has room for
/// `tot_lo + tot_hi` bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_exact(lo: __m128i, hi: __m128i, tot_lo: usize, tot_hi: usize, out: *mut u8) {
    let total = tot_lo + tot_hi;
    // The first 16 output bytes: `hi` moved up behind `lo`.
    let head = _mm_or_si128(lo, _mm_shuffle_epi8(hi, window_at(16 - tot_lo)));
    if total >= 16 {
        // The last 16: `hi` moved to the end, `lo`'s last bytes before it.
        let tail = _mm_or_si128(
            _mm_shuffle_epi8(hi, window_at(tot_hi)),
            _mm_shuffle_epi8(lo, window_at(total)),
        );
        // SAFETY: [0, 16) and [total - 16, total) lie in the `total` bytes
        // the caller made room for.
        unsafe {
            _mm_storeu_si128(out.cast(), head);
            _mm_storeu_si128(out.add(total - 16).cast(), tail);
        }
    } else {
        // All in `head`: its first 8 bytes, and its bytes total-8..total.
        let last8 = _mm_shuffle_epi8(head, window_at(total + 8));
        // SAFETY: 8 <= total: [0, 8) and [total - 8, total) are in room.
        unsafe {
            _mm_storel_epi64(out.cast(), head);
            _mm_storel_epi64(out.add(total - 8).cast(), last8);
        }
    }
}

/// 8 ASCII units as 8 bytes in the low half.
#[target_feature(enable = "avx2")]
#[inline]
fn narrow8(units: __m256i) -> __m128i {
    let words = _mm_packus_epi32(
        _mm256_castsi256_si128(units),
        _mm256_extracti128_si256::<1>(units),
    );
    _mm_packus_epi16(words, words)
}

/// Adds each lane's encoded bytes beyond the first (0..=3) to `acc`, summed
/// per 64-bit lane (for `MEASURE`).
#[target_feature(enable = "avx2")]
#[inline]
fn add_extra_bytes(acc: __m256i, units: __m256i) -> __m256i {
    let (c1, c2, c3) = classes(units);
    let extra = _mm256_sub_epi32(
        _mm256_setzero_si256(),
        _mm256_add_epi32(_mm256_add_epi32(c1, c2), c3),
    );
    // Each dword is 0..=3 in its low byte: a byte sum gives the total.
    _mm256_add_epi64(acc, _mm256_sad_epu8(extra, _mm256_setzero_si256()))
}

#[target_feature(enable = "avx2")]
#[inline]
fn sum_u64x4(acc: __m256i) -> usize {
    let pair = _mm_add_epi64(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    (_mm_cvtsi128_si64(pair) as u64).wrapping_add(_mm_extract_epi64::<1>(pair) as u64) as usize
}

/// Encodes (or, with `MEASURE`, measures) `src` up to its first block with
/// an invalid unit, whose index is reported as `flagged`, or until the next
/// block's bytes would not fit in `cap`.
///
/// # Safety
/// The CPU must support the enabled features; unless `MEASURE`, `out` points
/// to `cap` writable bytes.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn encode<const MEASURE: bool>(
    src: &[u32],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    // MEASURE: bytes beyond one per unit, in 64-bit lanes.
    let mut extra = _mm256_setzero_si256();
    let mut ascii_run = true;
    let stop = |read: usize, written: usize, extra: __m256i, flagged: Option<usize>| FastStop {
        read,
        written: written + if MEASURE { sum_u64x4(extra) } else { 0 },
        flagged,
    };
    while len - i >= 8 {
        if ascii_run && len - i >= 32 && (MEASURE || cap - written >= 32) {
            // SAFETY: units i..i+32 are in bounds.
            let (a, b, c, d) = unsafe {
                let p = ptr.add(i).cast::<__m256i>();
                (
                    _mm256_loadu_si256(p),
                    _mm256_loadu_si256(p.add(1)),
                    _mm256_loadu_si256(p.add(2)),
                    _mm256_loadu_si256(p.add(3)),
                )
            };
            let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
            if all_ascii(any) {
                if !MEASURE {
                    // Per 128-bit lane the packs interleave a,b,c,d by
                    // fours: dwords a0 b0 c0 d0 a1 b1 c1 d1.
                    let bytes =
                        _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
                    let ordered = _mm256_permutevar8x32_epi32(
                        bytes,
                        _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7),
                    );
                    // SAFETY: cap - written >= 32 was checked above.
                    unsafe { _mm256_storeu_si256(out.add(written).cast(), ordered) };
                }
                written += 32;
                i += 32;
                continue;
            }
        }
        // SAFETY: units i..i+8 are in bounds.
        let units = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        if all_ascii(units) {
            if !MEASURE {
                if cap - written < 8 {
                    return stop(i, written, extra, None);
                }
                // SAFETY: 8 bytes of room were just checked.
                unsafe { _mm_storel_epi64(out.add(written).cast(), narrow8(units)) };
            }
            written += 8;
            i += 8;
            ascii_run = true;
            continue;
        }
        ascii_run = false;
        let bad = invalid_lanes(units);
        if bad != 0 {
            return stop(i, written, extra, Some(i + bad.trailing_zeros() as usize));
        }
        if MEASURE {
            extra = add_extra_bytes(extra, units);
            written += 8;
        } else {
            let (lo, hi, tot_lo, tot_hi) = encode_block(units);
            if cap - written < tot_lo + tot_hi {
                return stop(i, written, extra, None);
            }
            // SAFETY: 8 <= tot_lo + tot_hi (one byte or more per unit),
            // and that many bytes fit (checked just above).
            unsafe { store_exact(lo, hi, tot_lo, tot_hi, out.add(written)) };
            written += tot_lo + tot_hi;
        }
        i += 8;
    }
    if i == len {
        return stop(len, written, extra, None);
    }
    // The last 1..=7 units; the lanes past them load as zero.
    let n = len - i;
    let lanes = (1u32 << n) - 1;
    let load_mask = _mm256_cmpgt_epi32(
        _mm256_set1_epi32(n as i32),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    );
    // SAFETY: only lanes 0..n (units i..len, in bounds) are read; masked-off
    // lanes are not accessed and do not fault.
    let units = unsafe { _mm256_maskload_epi32(ptr.add(i).cast(), load_mask) };
    let bad = invalid_lanes(units) & lanes;
    if bad != 0 {
        return stop(i, written, extra, Some(i + bad.trailing_zeros() as usize));
    }
    if MEASURE {
        extra = add_extra_bytes(extra, units);
        return stop(len, written + n, extra, None);
    }
    // Zero lanes encode to one zero byte each, after the real characters of
    // their 128-bit lane, so the real output is the first `total` bytes.
    let (lo, hi, tot_lo, tot_hi) = encode_block(units);
    let total = tot_lo + tot_hi - (8 - n);
    if cap - written < total {
        return stop(i, written, extra, None);
    }
    let mut buf = [0u8; 48];
    // SAFETY: tot_lo <= 16, so both 16-byte stores lie in the 48-byte local
    // buffer; `total` <= 32 bytes are copied from it into the room checked
    // above (`buf` and `out` cannot overlap).
    unsafe {
        _mm_storeu_si128(buf.as_mut_ptr().cast(), lo);
        _mm_storeu_si128(buf.as_mut_ptr().add(tot_lo).cast(), hi);
        copy_nonoverlapping(buf.as_ptr(), out.add(written), total);
    }
    stop(len, written + total, extra, None)
}
