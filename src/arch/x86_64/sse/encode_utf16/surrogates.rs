//! Surrogates in the UTF-16 encoder (see the parent module): four pairs
//! at once in 32-bit lanes, and steps of 4 units that pair them in place.

use core::arch::x86_64::*;

use super::super::encode_ucs4::encode4;
use crate::arch::x86_64::copy::copy_prefix;

/// The UTF-8 of 8 units that are 4 surrogate pairs, high then low: 16
/// bytes, 4 a pair, with no table and no packing.
#[target_feature(enable = "sse4.1")]
#[inline]
pub(super) fn four_pairs(units: __m128i) -> Option<__m128i> {
    let set = |v: u32| _mm_set1_epi32(v as i32);
    let kinds = _mm_and_si128(units, set(0xFC00_FC00));
    if _mm_movemask_epi8(_mm_cmpeq_epi32(kinds, set(0xDC00_D800))) != 0xFFFF {
        return None;
    }
    // Each 32-bit lane is a pair, the high unit in its low half:
    // ((high & 0x3FF) << 10) + (low & 0x3FF) + 0x10000.
    let s = _mm_add_epi32(
        _mm_or_si128(
            _mm_slli_epi32::<10>(_mm_and_si128(units, set(0x3FF))),
            _mm_and_si128(_mm_srli_epi32::<16>(units), set(0x3FF)),
        ),
        set(0x1_0000),
    );
    // Bytes F0|s>>18, 80|s>>12&3F, 80|s>>6&3F, 80|s&3F, lowest first.
    let bytes = _mm_or_si128(
        _mm_or_si128(
            _mm_srli_epi32::<18>(s),
            _mm_and_si128(_mm_srli_epi32::<4>(s), set(0x3F00)),
        ),
        _mm_or_si128(
            _mm_and_si128(_mm_slli_epi32::<10>(s), set(0x3F_0000)),
            _mm_and_si128(_mm_slli_epi32::<24>(s), set(0x3F00_0000)),
        ),
    );
    Some(_mm_or_si128(bytes, set(0x8080_80F0)))
}

/// For each 4-bit mask of 32-bit lanes to keep: a `pshufb` pattern that
/// moves them to the front, in order, and zeroes the rest.
static LEFT_PACK4: [[u8; 16]; 16] = {
    let mut table = [[0x80u8; 16]; 16];
    let mut keep = 0;
    while keep < 16 {
        let (mut n, mut lane) = (0, 0);
        while lane < 4 {
            if keep >> lane & 1 != 0 {
                let mut b = 0;
                while b < 4 {
                    table[keep][4 * n + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                n += 1;
            }
            lane += 1;
        }
        keep += 1;
    }
    table
};

/// 4 units from `src[i..]` in 32-bit lanes, in native order.
///
/// # Safety
/// Units `i..i+4` are in bounds.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn load4<const SWAP: bool>(src: &[u16], i: usize) -> __m128i {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm_loadl_epi64(src.as_ptr().add(i).cast()) };
    let v = if SWAP {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    };
    _mm_cvtepu16_epi32(v)
}

/// How a surrogate step of 4 units ended.
pub(super) enum Step {
    /// All 4 read; whether the last was a high surrogate whose low one,
    /// the next unit, was written with it.
    Read { carry: bool },
    /// Stopped before the unpaired surrogate at this lane.
    Unpaired(usize),
    /// No room: nothing written.
    Full,
}

/// Encodes the 4 units at `i`, stopping before an unpaired surrogate, in
/// 32-bit lanes: a high surrogate followed by a low one becomes their
/// scalar value in its lane (in the last lane, with the fifth unit), the
/// low ones' lanes are dropped with a table shuffle, and the UCS-4
/// encoder's block encodes the rest; the dropped lanes, zero at the end,
/// encode to one zero byte each, which are not counted. With `carry`, the
/// first unit is the low half of a pair already written. Steps are 4
/// units apart whatever their pairs, so that no step's loads wait for the
/// one before.
///
/// # Safety
/// Units `i..i+5` are in bounds; `out` points to `room` writable bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
pub(super) unsafe fn step4<const SWAP: bool>(
    src: &[u16],
    i: usize,
    out: *mut u8,
    room: usize,
    written: &mut usize,
    carry: bool,
) -> Step {
    // SAFETY: units i..i+5 are in bounds.
    let (units, next) = unsafe { (load4::<SWAP>(src, i), load4::<SWAP>(src, i + 1)) };
    let set = |v: u32| _mm_set1_epi32(v as i32);
    let kind = |v| _mm_and_si128(v, set(0xFC00));
    let high = _mm_cmpeq_epi32(kind(units), set(0xD800));
    let low = _mm_cmpeq_epi32(kind(units), set(0xDC00));
    let paired = _mm_and_si128(high, _mm_cmpeq_epi32(kind(next), set(0xDC00)));
    let mask = |v: __m128i| _mm_movemask_ps(_mm_castsi128_ps(v)) as u32;
    let (high_m, low_m, paired_m) = (mask(high), mask(low), mask(paired));
    // A low surrogate is paired when the lane before holds a paired high
    // one, or, in lane 0, with `carry`.
    let paired_low = ((paired_m << 1) & 0xF) | u32::from(carry);
    let unpaired = (high_m | low_m) & !(paired_m | paired_low);
    let mut keep = !paired_low & 0xF;
    if unpaired != 0 {
        keep &= (1 << unpaired.trailing_zeros()) - 1;
    }
    // (high - 0xD800) << 10 + (low - 0xDC00) + 0x10000.
    let joined = _mm_sub_epi32(
        _mm_add_epi32(_mm_slli_epi32::<10>(units), next),
        set(0x035F_DC00),
    );
    let scalars = _mm_blendv_epi8(units, joined, paired);
    // SAFETY: a row is 16 bytes (indexing checks the key).
    let order = unsafe { _mm_loadu_si128(LEFT_PACK4[keep as usize].as_ptr().cast()) };
    let (bytes, total) = encode4(_mm_shuffle_epi8(scalars, order));
    let total = total - (4 - keep.count_ones() as usize);
    if room < total {
        return Step::Full;
    }
    let mut buf = [0u8; 32];
    // SAFETY: 16 bytes into the local; `total` (at most 16) of them into
    // the room checked above.
    unsafe {
        _mm_storeu_si128(buf.as_mut_ptr().cast(), bytes);
        copy_prefix(&buf, total, out);
    }
    *written += total;
    if unpaired != 0 {
        Step::Unpaired(unpaired.trailing_zeros() as usize)
    } else {
        Step::Read {
            carry: paired_m >> 3 != 0,
        }
    }
}
