//! Code points to UTF-8, 4 a vector.
//!
//! Each lane builds every byte its character could need: the 6-bit groups
//! laid out first-group-lowest, tagged with continuation markers, and with
//! the lead marker placed by the lane's length (three signed comparisons:
//! units are checked to be at most U+10FFFF first). An ASCII lane keeps its
//! unit in byte 0. The four lengths index a table of `PSHUFB` patterns that
//! pack each lane's used bytes together, and give the total. Eight units
//! below U+0800 go together through 16-bit lanes and a table indexed by
//! which of them take two bytes.
//!
//! A round checks a chunk of units ahead for surrogates and values above
//! U+10FFFF. A step's 16-byte stores reach up to 12 bytes past its own
//! output, so steps run only while 12 more checked units (at least 12 bytes)
//! follow and the whole checked stretch fits the output: a later character
//! overwrites those bytes before the kernel returns. Sixteen ASCII units pack
//! to one exact store. The kernel ends with exact scalar writes.

use core::arch::x86_64::*;

use crate::arch::x86_64::units::put;
use crate::contract::FastStop;

/// Units checked per round.
const CHUNK: usize = 64;
/// A step (8 units) runs while this many checked units remain: 8 plus 12.
const STEP_NEED: usize = 20;

/// For each length index (bit `j`: bit 0 of lane `j`'s length - 1; bit
/// `4+j`: its bit 1), the bytes each lane uses, in order, packed to the
/// front (0x80 zeroes the rest): byte 0 of a one-byte lane, bytes
/// `4-len..4` of a longer one.
#[repr(align(16))]
struct Packs([[u8; 16]; 256]);

static PACKS: Packs = {
    let mut table = [[0x80u8; 16]; 256];
    let mut idx = 0;
    while idx < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 4 {
            let len = 1 + (idx >> j & 1) + 2 * (idx >> (4 + j) & 1);
            let first = if len == 1 { 0 } else { 4 - len };
            let mut b = first;
            while b < if len == 1 { 1 } else { 4 } {
                table[idx][n] = (4 * j + b) as u8;
                n += 1;
                b += 1;
            }
            j += 1;
        }
        idx += 1;
    }
    Packs(table)
};

/// Total bytes for each length index.
static PACK_LEN: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut idx = 0;
    while idx < 256 {
        let mut j = 0;
        while j < 4 {
            table[idx] += (1 + (idx >> j & 1) + 2 * (idx >> (4 + j) & 1)) as u8;
            j += 1;
        }
        idx += 1;
    }
    table
};

fn utf8_len(u: u32) -> usize {
    1 + (u >= 0x80) as usize + (u >= 0x800) as usize + (u >= 0x10000) as usize
}

fn is_scalar(u: u32) -> bool {
    u < 0xD800 || (0xE000..=0x10FFFF).contains(&u)
}

/// All-ones lanes for units that are surrogates or above U+10FFFF.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn invalid(u: __m128i) -> __m128i {
    let sign = _mm_set1_epi32(i32::MIN);
    let above = _mm_cmpgt_epi32(
        _mm_xor_si128(u, sign),
        _mm_set1_epi32((0x10FFFF ^ 0x8000_0000u32) as i32),
    );
    let surrogate = _mm_cmpeq_epi32(
        _mm_and_si128(u, _mm_set1_epi32(0xFFFF_F800u32 as i32)),
        _mm_set1_epi32(0xD800),
    );
    _mm_or_si128(above, surrogate)
}

/// Lane masks: at least 2, 3 and 4 bytes long. Units must be valid scalars.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn longer(u: __m128i) -> [__m128i; 3] {
    [0x7F, 0x7FF, 0xFFFF].map(|limit| _mm_cmpgt_epi32(u, _mm_set1_epi32(limit)))
}

/// The packed UTF-8 of four valid scalars and its length in bytes.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) fn encode4(u: __m128i) -> (__m128i, usize) {
    let [m2, m3, m4] = longer(u);
    let set1 = |v: u32| _mm_set1_epi32(v as i32);
    let g3 = _mm_and_si128(_mm_slli_epi32::<24>(u), set1(0x3F00_0000));
    let g2 = _mm_and_si128(_mm_slli_epi32::<10>(u), set1(0x003F_0000));
    let g1 = _mm_and_si128(_mm_srli_epi32::<4>(u), set1(0x0000_3F00));
    let g0 = _mm_srli_epi32::<18>(u);
    // F0 on byte 0, 80 on the rest; E0 on byte 1 of a 3-byte lane, C0 on
    // byte 2 of a 2-byte lane.
    let markers = _mm_or_si128(
        set1(0x8080_80F0),
        _mm_or_si128(
            _mm_and_si128(_mm_andnot_si128(m4, m3), set1(0x6000)),
            _mm_and_si128(_mm_andnot_si128(m3, m2), set1(0x40_0000)),
        ),
    );
    let multi = _mm_or_si128(
        _mm_or_si128(g0, g1),
        _mm_or_si128(_mm_or_si128(g2, g3), markers),
    );
    let lanes = _mm_blendv_epi8(u, multi, m2);
    let low = _mm_movemask_ps(_mm_castsi128_ps(_mm_xor_si128(_mm_xor_si128(m2, m3), m4)));
    let high = _mm_movemask_ps(_mm_castsi128_ps(m3));
    let idx = (low | high << 4) as usize & 0xFF;
    // SAFETY: idx < 256; 16 aligned bytes.
    let pack = unsafe { _mm_load_si128(PACKS.0[idx].as_ptr().cast()) };
    (_mm_shuffle_epi8(lanes, pack), PACK_LEN[idx] as usize)
}

/// For each 8-bit mask of 2-byte lanes among eight 16-bit lanes (lead in
/// the low byte): the used bytes, packed to the front.
#[repr(align(16))]
struct ShortPacks([[u8; 16]; 256]);

static SHORT_PACKS: ShortPacks = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 8 {
            table[mask][n] = 2 * j as u8;
            n += 1;
            if mask >> j & 1 == 1 {
                table[mask][n] = 2 * j as u8 + 1;
                n += 1;
            }
            j += 1;
        }
        mask += 1;
    }
    ShortPacks(table)
};

/// The packed UTF-8 of eight scalars below U+0800 (in `a` and `b`) and its
/// length in bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
fn encode8_short(a: __m128i, b: __m128i) -> (__m128i, usize) {
    encode8_words(_mm_packus_epi32(a, b))
}

/// The packed UTF-8 of eight 16-bit words below U+0800 and its length in
/// bytes (8 to 16).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
pub(super) fn encode8_words(u: __m128i) -> (__m128i, usize) {
    let two = _mm_cmpgt_epi16(u, _mm_set1_epi16(0x7F));
    // Lead 110xxxxx in the low byte, continuation 10xxxxxx in the high one.
    let lead = _mm_or_si128(_mm_srli_epi16::<6>(u), _mm_set1_epi16(0xC0));
    let cont = _mm_or_si128(
        _mm_slli_epi16::<8>(_mm_and_si128(u, _mm_set1_epi16(0x3F))),
        _mm_set1_epi16(0x8000u16 as i16),
    );
    let lanes = _mm_blendv_epi8(u, _mm_or_si128(lead, cont), two);
    let mask = _mm_movemask_epi8(_mm_packs_epi16(two, _mm_setzero_si128())) as usize & 0xFF;
    // SAFETY: mask < 256; 16 aligned bytes.
    let pack = unsafe { _mm_load_si128(SHORT_PACKS.0[mask].as_ptr().cast()) };
    (
        _mm_shuffle_epi8(lanes, pack),
        8 + mask.count_ones() as usize,
    )
}

/// Units `[i, i+16)` are all ASCII.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn all_ascii(v: [__m128i; 4]) -> bool {
    let any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
    _mm_testz_si128(any, _mm_set1_epi32(!0x7F)) == 1
}

/// The four vectors of units `i..i+16`.
///
/// # Safety
/// Units `i..i+16` of `src` are in bounds.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn load16(src: &[u32], i: usize) -> [__m128i; 4] {
    // SAFETY: the caller guarantees units i..i+16 are in bounds.
    unsafe { [0, 4, 8, 12].map(|o| _mm_loadu_si128(src.as_ptr().add(i + o).cast())) }
}

/// The first invalid unit in `src[from..to)`, or `to`.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn first_invalid(src: &[u32], mut from: usize, to: usize) -> usize {
    while from + 16 <= to {
        // SAFETY: units from..from+16 are in bounds.
        let [a, b, c, d] = unsafe { load16(src, from) };
        let bad = _mm_or_si128(
            _mm_or_si128(invalid(a), invalid(b)),
            _mm_or_si128(invalid(c), invalid(d)),
        );
        if _mm_testz_si128(bad, bad) == 0 {
            break;
        }
        from += 16;
    }
    (from..to).find(|&i| !is_scalar(src[i])).unwrap_or(to)
}

/// Encodes the valid units `src[pos..end)` in steps of 8 (or 16 ASCII)
/// while `STEP_NEED` remain. Returns the new `(pos, written)`.
///
/// # Safety
/// `src[pos..end)` are valid scalars and `out` has room for their UTF-8
/// from `written`.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
#[inline]
unsafe fn steps(
    src: &[u32],
    mut pos: usize,
    end: usize,
    out: *mut u8,
    mut written: usize,
) -> (usize, usize) {
    // Every store starts at the current `written` and ends at most 12 bytes
    // past the step's output, which the 12 or more units still to come (one
    // byte at least each, all within the room the caller guarantees) cover.
    while pos + STEP_NEED <= end {
        // SAFETY: units pos..pos+16 are in bounds (pos + 20 <= end).
        let v = unsafe { load16(src, pos) };
        if all_ascii(v) {
            let bytes =
                _mm_packus_epi16(_mm_packus_epi32(v[0], v[1]), _mm_packus_epi32(v[2], v[3]));
            // SAFETY: 16 units, 16 bytes: all output of this step.
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            pos += 16;
            written += 16;
            continue;
        }
        let pair = _mm_or_si128(v[0], v[1]);
        if _mm_testz_si128(pair, _mm_set1_epi32(!0x7FF)) == 1 {
            let (bytes, n) = encode8_short(v[0], v[1]);
            // SAFETY: see the comment above the loop.
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            written += n;
            pos += 8;
            continue;
        }
        for u in [v[0], v[1]] {
            let (bytes, n) = encode4(u);
            // SAFETY: see the comment above the loop.
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            written += n;
        }
        pos += 8;
    }
    (pos, written)
}

/// Encodes the valid units `src[pos..end)` one at a time, as far as `cap`
/// allows. Returns the new `(pos, written)`.
///
/// # Safety
/// `out` points to `cap` writable bytes, and `written <= cap`.
unsafe fn finish(
    src: &[u32],
    mut pos: usize,
    end: usize,
    out: *mut u8,
    mut written: usize,
    cap: usize,
) -> (usize, usize) {
    while pos < end {
        let u = src[pos];
        let n = utf8_len(u);
        if cap - written < n {
            break;
        }
        // SAFETY: n bytes fit at out + written; `u` is a checked scalar.
        written += unsafe { put(u, out.add(written)) };
        pos += 1;
    }
    (pos, written)
}

/// Encodes `src` up to its first invalid unit (reported as `flagged`) or
/// until `out` is full.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn encode(src: &[u32], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut pos, mut written, mut checked) = (0, 0, 0);
    loop {
        let chunk_end = (checked + CHUNK).min(len);
        let end = first_invalid(src, checked, chunk_end);
        let flagged = (end < chunk_end).then_some(end);
        let last = flagged.is_some() || end == len;
        let room = cap - written;
        let fits = room / 4 >= end - pos
            || room >= src[pos..end].iter().map(|&u| utf8_len(u)).sum::<usize>();
        if fits {
            // SAFETY: src[pos..end) are valid; their UTF-8 fits (above).
            (pos, written) = unsafe { steps(src, pos, end, out, written) };
        }
        if last || !fits {
            // SAFETY: `out` has `cap` bytes and written <= cap.
            let (read, written) = unsafe { finish(src, pos, end, out, written, cap) };
            return FastStop {
                read,
                written,
                flagged: flagged.filter(|_| read == end),
            };
        }
        checked = end;
    }
}

/// The UTF-8 length of `src` up to its first invalid unit (reported as
/// `flagged`).
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn encoded_len(src: &[u32]) -> FastStop {
    let len = src.len();
    let hsum = |v: __m128i| {
        let v = _mm_add_epi32(v, _mm_srli_si128::<8>(v));
        _mm_cvtsi128_si32(_mm_add_epi32(v, _mm_srli_si128::<4>(v))) as u32 as usize
    };
    let (mut i, mut total) = (0, 0usize);
    // Per-lane extra bytes (a lane gains at most 12 a step), flushed to
    // `total` every 2^24 steps, long before a lane could overflow.
    let (mut extra, mut steps) = (_mm_setzero_si128(), 0u32);
    while i + 16 <= len {
        // SAFETY: units i..i+16 are in bounds.
        let v = unsafe { load16(src, i) };
        let bad = _mm_or_si128(
            _mm_or_si128(invalid(v[0]), invalid(v[1])),
            _mm_or_si128(invalid(v[2]), invalid(v[3])),
        );
        if _mm_testz_si128(bad, bad) == 0 {
            break; // Found below, one unit at a time.
        }
        for u in v {
            for m in longer(u) {
                extra = _mm_sub_epi32(extra, m);
            }
        }
        i += 16;
        steps += 1;
        if steps == 1 << 24 {
            total += hsum(extra);
            (extra, steps) = (_mm_setzero_si128(), 0);
        }
    }
    total += hsum(extra);
    // The units before `i` are valid: one byte each, plus the extras.
    total += i;
    for (k, &u) in src.iter().enumerate().skip(i) {
        if !is_scalar(u) {
            return FastStop {
                read: k,
                written: total,
                flagged: Some(k),
            };
        }
        total += utf8_len(u);
    }
    FastStop {
        read: len,
        written: total,
        flagged: None,
    }
}
