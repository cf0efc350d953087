//! Code points to UTF-8, 16 a step.
//!
//! Each lane is checked (no surrogate, nothing above U+10FFFF) and its
//! leading-zero count (VPLZCNTD) indexes 32-entry tables (VPERMT2D) that say,
//! for the character's length: where each of its UTF-8 bytes starts in the
//! code point (VPMULTISHIFTQB pulls those bit fields into the lane's bytes,
//! lead lowest), which payload bits each byte keeps, and its marker bits.
//! The kept payload doubles as the mask of used bytes, which VPCOMPRESSB packs
//! together. Per 16 code points that is one table-driven pass and no
//! per-length branches. Blocks of 64 that are all ASCII skip it, and blocks
//! of 64 below U+0800 take a 16-bit path that packs 32 characters per
//! compress.
//!
//! Measuring (`encoded_len`) needs only the length table, summed in vector
//! lanes.

use core::arch::x86_64::*;
use core::mem::transmute;

use crate::contract::FastStop;

const fn dwords(f: [u32; 16]) -> __m512i {
    // SAFETY: 64 plain bytes; every bit pattern is a valid __m512i.
    unsafe { transmute(f) }
}

/// UTF-8 length by leading-zero count. A zero code point has 32 leading zeros,
/// which the 5-bit table index sees as 0; counts 1..=10 (above U+1FFFFF) are
/// rejected before the tables matter.
const fn length_for(lz: usize) -> usize {
    match lz {
        0 => 1,
        1..=15 => 4,
        16..=20 => 3,
        21..=24 => 2,
        _ => 1,
    }
}

/// A 32-entry table indexed by leading-zero count, from one value per
/// length 1..=4: the two halves VPERMT2D takes.
const fn by_lz(per_length: [u32; 4]) -> [__m512i; 2] {
    let mut t = [[0u32; 16]; 2];
    let mut lz = 0;
    while lz < 32 {
        t[lz / 16][lz % 16] = per_length[length_for(lz) - 1];
        lz += 1;
    }
    [dwords(t[0]), dwords(t[1])]
}

/// Byte `k` of a character of length `n` holds the bits from `6 * (n-1-k)`
/// up: the multishift offsets, lead first.
const FIELD_START: [__m512i; 2] = by_lz([0, 0x06, 0x06_0C, 0x06_0C_12]);
const PAYLOAD: [__m512i; 2] = by_lz([0x7F, 0x3F1F, 0x3F_3F0F, 0x3F3F_3F07]);
const MARKERS: [__m512i; 2] = by_lz([0, 0x80C0, 0x80_80E0, 0x8080_80F0]);
const LENGTH: [__m512i; 2] = by_lz([1, 2, 3, 4]);

/// Multishift offsets count from the start of the 64-bit lane: odd dwords
/// start 32 bits in.
const ODD_DWORD_OFFSET: __m512i = {
    let mut f = [0u32; 16];
    let mut j = 1;
    while j < 16 {
        f[j] = 0x2020_2020;
        j += 2;
    }
    dwords(f)
};

/// Byte 0 of each dword of two vectors: 32 bytes, in order.
const PACK_LOW_BYTES: __m512i = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 32 {
        idx[j] = if j < 16 {
            4 * j as u8
        } else {
            64 + 4 * (j as u8 - 16)
        };
        j += 1;
    }
    // SAFETY: 64 plain bytes; every bit pattern is a valid __m512i.
    unsafe { transmute::<[u8; 64], __m512i>(idx) }
};

#[inline(always)]
pub(super) fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[inline(always)]
fn set1(v: u32) -> __m512i {
    // SAFETY: AVX-512F is enabled in every caller (the attribute is on them).
    unsafe { _mm512_set1_epi32(v as i32) }
}

/// Each lane minus the bounds of the scalars: a surrogate maps below 0 (so
/// wraps high) and everything above U+10FFFF stays above `SCALAR_LIMIT`.
#[target_feature(enable = "avx512f")]
#[inline]
fn scalar_distance(units: __m512i) -> __m512i {
    _mm512_sub_epi32(_mm512_xor_si512(units, set1(0xD800)), set1(0x800))
}
const SCALAR_LIMIT: u32 = 0x10FFFF - 0x800;

/// The lanes of `lanes` that are not Unicode scalar values.
#[target_feature(enable = "avx512f")]
#[inline]
fn invalid(units: __m512i, lanes: u16) -> u16 {
    _mm512_mask_cmpgt_epu32_mask(lanes, scalar_distance(units), set1(SCALAR_LIMIT))
}

/// 16 units starting at `i` (fewer at the end, zero-filled), and which lanes
/// hold them.
///
/// # Safety
/// `i < src.len()`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load_units(src: &[u32], i: usize) -> (__m512i, u16) {
    let rest = src.len() - i;
    let lanes = if rest >= 16 {
        u16::MAX
    } else {
        (1u16 << rest) - 1
    };
    // SAFETY: the lanes cover only units i..len; masked-off lanes do not
    // fault.
    (
        unsafe { _mm512_maskz_loadu_epi32(lanes, src.as_ptr().add(i).cast()) },
        lanes,
    )
}

/// Encodes `src` up to its first invalid unit, which is reported as
/// `flagged`.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn encode(src: &[u32], out: *mut u8, cap: usize) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    // After a block of 64 fit neither fast path, its units take the general
    // one.
    let mut classify_from = 0usize;
    while i < len {
        if i >= classify_from && len - i >= 64 && cap - written >= 128 {
            // SAFETY: units i..i+64 are in bounds.
            let [a, b, c, d] =
                unsafe { [0, 16, 32, 48].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
            let any = _mm512_ternarylogic_epi32::<0xFE>(a, b, _mm512_or_si512(c, d));
            if _mm512_cmpge_epu32_mask(any, set1(0x80)) == 0 {
                let low = _mm512_permutex2var_epi8(a, PACK_LOW_BYTES, b);
                let high = _mm512_permutex2var_epi8(c, PACK_LOW_BYTES, d);
                let packed = _mm512_inserti64x4::<1>(low, _mm512_castsi512_si256(high));
                // SAFETY: 64 bytes of room were checked above.
                unsafe { _mm512_storeu_si512(out.add(written).cast(), packed) };
                written += 64;
                i += 64;
                continue;
            }
            if _mm512_cmpge_epu32_mask(any, set1(0x800)) == 0 {
                // SAFETY: each half writes at most 64 bytes, and 128 fit.
                unsafe {
                    written += encode_short_pairs(a, b, out.add(written));
                    written += encode_short_pairs(c, d, out.add(written));
                }
                i += 64;
                continue;
            }
            classify_from = i + 64;
        }
        // SAFETY: i < len.
        let (units, lanes) = unsafe { load_units(src, i) };
        let bad = invalid(units, lanes);
        let good = if bad == 0 {
            lanes
        } else {
            (1u16 << bad.trailing_zeros()) - 1
        };
        let (encoded, used) = utf8_lanes(units, good);
        let total = used.count_ones();
        if cap - written < total as usize {
            return FastStop {
                read: i,
                written,
                flagged: None,
            };
        }
        let packed = _mm512_maskz_compress_epi8(used, encoded);
        // SAFETY: exactly `total` bytes are written, and they fit (checked
        // just above).
        unsafe { _mm512_mask_storeu_epi8(out.add(written).cast(), low_bits(total), packed) };
        written += total as usize;
        if bad != 0 {
            let i = i + good.count_ones() as usize;
            return FastStop {
                read: i,
                written,
                flagged: Some(i),
            };
        }
        // A fixed step keeps the next load independent of this one's result.
        i += 16;
    }
    FastStop {
        read: len,
        written,
        flagged: None,
    }
}

/// Encodes 32 code points below U+0800 (one or two bytes each) from two
/// vectors, as 16-bit lanes: one compress per 32 characters. Returns the
/// bytes written.
///
/// # Safety
/// `out` has room for 64 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
unsafe fn encode_short_pairs(a: __m512i, b: __m512i, out: *mut u8) -> usize {
    // PACKUSDW interleaves the two sources by 128-bit lane; put the 64-bit
    // pieces back in order.
    const IN_ORDER: __m512i = {
        let q: [u64; 8] = [0, 2, 4, 6, 1, 3, 5, 7];
        // SAFETY: 64 plain bytes; every bit pattern is a valid __m512i.
        unsafe { transmute(q) }
    };
    let units = _mm512_permutexvar_epi64(IN_ORDER, _mm512_packus_epi32(a, b));
    // SAFETY: the caller's promise.
    unsafe { encode_short_units(units, u32::MAX, out) }
}

/// Encodes the `valid` 16-bit lanes of `units` (a prefix), all below
/// U+0800. Returns the bytes written.
///
/// # Safety
/// `out` has room for 64 bytes, or for the bytes of the valid lanes when
/// they are fewer than 32.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
pub(super) unsafe fn encode_short_units(units: __m512i, valid: u32, out: *mut u8) -> usize {
    let (packed, used) = short_units(units, valid);
    let total = used.count_ones();
    // SAFETY: `total` bytes, which the caller provides.
    unsafe { _mm512_mask_storeu_epi8(out.cast(), low_bits(total), packed) };
    total as usize
}

/// The UTF-8 of the `valid` units of `units` (each below U+0800), packed
/// from the lowest byte, and which of the 64 bytes were used before packing
/// (their count is the length).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
pub(super) fn short_units(units: __m512i, valid: u32) -> (__m512i, u64) {
    let set1w = |v: u16| _mm512_set1_epi16(v as i16);
    let ascii = _mm512_cmplt_epu16_mask(units, set1w(0x80));
    // 110xxxxx 10xxxxxx, lead in the low byte.
    let pair = _mm512_or_si512(
        _mm512_ternarylogic_epi32::<0xEA>(
            _mm512_slli_epi16::<8>(units),
            set1w(0x3F00),
            _mm512_srli_epi16::<6>(units),
        ),
        set1w(0x80C0),
    );
    let encoded = _mm512_mask_blend_epi16(ascii, pair, units);
    let used_bytes = _mm512_mask_blend_epi16(ascii, set1w(0xFFFF), set1w(0x00FF));
    let used = _mm512_mask_test_epi8_mask(spread_words(valid), used_bytes, used_bytes);
    (_mm512_maskz_compress_epi8(used, encoded), used)
}

/// Both byte bits of each 16-bit lane bit of `lanes` (a prefix).
#[inline(always)]
fn spread_words(lanes: u32) -> u64 {
    low_bits(2 * lanes.count_ones())
}

/// The UTF-8 of the scalars in the `keep` lanes of `units`, in each lane's
/// bytes lead lowest, and which bytes are used (other lanes use none).
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi")]
#[inline]
pub(super) fn utf8_lanes(units: __m512i, keep: u16) -> (__m512i, u64) {
    let lz = _mm512_lzcnt_epi32(units);
    let start = _mm512_permutex2var_epi32(FIELD_START[0], lz, FIELD_START[1]);
    let fields = _mm512_multishift_epi64_epi8(_mm512_add_epi8(start, ODD_DWORD_OFFSET), units);
    let payload = _mm512_maskz_permutex2var_epi32(keep, PAYLOAD[0], lz, PAYLOAD[1]);
    let markers = _mm512_permutex2var_epi32(MARKERS[0], lz, MARKERS[1]);
    // (fields & payload) | markers
    let encoded = _mm512_ternarylogic_epi32::<0xEA>(fields, payload, markers);
    (encoded, _mm512_test_epi8_mask(payload, payload))
}

/// The UTF-8 length of each lane of `units` in `lanes` (0 elsewhere).
#[target_feature(enable = "avx512f,avx512cd")]
#[inline]
fn lengths(units: __m512i, lanes: u16) -> __m512i {
    _mm512_maskz_permutex2var_epi32(lanes, LENGTH[0], _mm512_lzcnt_epi32(units), LENGTH[1])
}

/// Measures the UTF-8 of `src` up to its first invalid unit, which is
/// reported as `flagged`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx512f,avx512cd,popcnt")]
pub(super) unsafe fn encoded_len(src: &[u32]) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut total) = (0usize, 0usize);
    // 64 units a step, summed in 16 dword lanes; a lane gains at most 16 a
    // step, so folding the sums into `total` every 2^20 steps keeps even
    // their total (16 * 2^24) within 32 bits.
    'chunks: while len - i >= 64 {
        let end = i + (len - i).min(64 << 20) / 64 * 64;
        let mut sums = _mm512_setzero_si512();
        while i < end {
            // SAFETY: units i..i+64 are in bounds (i + 64 <= end <= len).
            let [a, b, c, d] =
                unsafe { [0, 16, 32, 48].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
            // Text that is not mostly ASCII pays for one test of `a`.
            let not_ascii = |v| _mm512_test_epi32_mask(v, set1(0xFFFF_FF80)) != 0;
            if !not_ascii(a) && !not_ascii(_mm512_or_si512(_mm512_or_si512(b, c), d)) {
                // All ASCII: one byte each, without the length lookups.
                total += 64;
                i += 64;
                continue;
            }
            let worst = _mm512_max_epu32(
                _mm512_max_epu32(scalar_distance(a), scalar_distance(b)),
                _mm512_max_epu32(scalar_distance(c), scalar_distance(d)),
            );
            if _mm512_cmpgt_epu32_mask(worst, set1(SCALAR_LIMIT)) != 0 {
                // The 16-at-a-time loop below finds the exact unit.
                total += _mm512_reduce_add_epi32(sums) as u32 as usize;
                break 'chunks;
            }
            let step = _mm512_add_epi32(
                _mm512_add_epi32(lengths(a, u16::MAX), lengths(b, u16::MAX)),
                _mm512_add_epi32(lengths(c, u16::MAX), lengths(d, u16::MAX)),
            );
            sums = _mm512_add_epi32(sums, step);
            i += 64;
        }
        total += _mm512_reduce_add_epi32(sums) as u32 as usize;
    }
    while i < len {
        // SAFETY: i < len.
        let (units, lanes) = unsafe { load_units(src, i) };
        let bad = invalid(units, lanes);
        let good = if bad == 0 {
            lanes
        } else {
            (1u16 << bad.trailing_zeros()) - 1
        };
        total += _mm512_reduce_add_epi32(lengths(units, good)) as usize;
        if bad != 0 {
            let i = i + good.count_ones() as usize;
            return FastStop {
                read: i,
                written: total,
                flagged: Some(i),
            };
        }
        i += 16;
    }
    FastStop {
        read: len,
        written: total,
        flagged: None,
    }
}
