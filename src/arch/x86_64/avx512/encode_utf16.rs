//! UTF-16 to UTF-8, 32 or 31 units a step.
//!
//! Runs of 32 units below U+0800 with no surrogate take 16-bit paths: all
//! ASCII narrows with one VPMOVWB, otherwise the UCS-4 encoder's 16-bit pair
//! path writes one or two bytes a unit. Other steps take 31 units, widened
//! to two halves of 32-bit lanes, and the 32nd only to see whether the
//! 31st begins a pair. Surrogates are paired by their masks, a unit a bit,
//! in general registers: a high surrogate in lane `j` followed by a low one
//! becomes the scalar in lane `j` (joined with the unit after it), and the
//! low one's lane writes no bytes; a pair begun by a step's last unit is
//! written by that step, and the next step, starting at its low half,
//! skips it (`carry`). Then the UCS-4 encoder's lane encoding
//! ([`utf8_lanes`]) and one VPCOMPRESSB a half write the step. A step stops
//! before an unpaired surrogate, which it flags for the reference core's
//! policy. Steps of 16 units, pairs found by vector compares against the
//! units before and after each lane, ran text of random 1- to 4-byte
//! characters at 0.53x simdutf 9.1 (which takes 31 units a step the same
//! way) on AMD Zen 4.
//!
//! After a step of nothing but surrogates, 32 units that are 16 pairs (high
//! then low) are tried first: they need no table and no compression, only
//! the 4-byte form of each 32-bit lane, and one 64-byte store.
//!
//! # CESU-8 and Modified UTF-8
//!
//! The same code, with the mode as a const parameter
//! ([`encode_utf16_cesu`]), writes each half of a pair in its own lane as
//! the 3-byte form of its unit value, which is exactly CESU-8's: the
//! pairing check is the same, the joining is skipped and the low halves'
//! lanes are kept. A step never writes a high surrogate without its low
//! one: a pair that its last lane would split ends the step a lane early,
//! so every stop (an unpaired surrogate, or no room) is between
//! characters. Since each unit's form depends on the unit alone, 32 units
//! that are 16 pairs take a path of their own with no table, every unit 3
//! bytes: 96 bytes placed by two fixed byte permutes. For Modified UTF-8 a
//! 0 unit is not ASCII (the 16-bit tests look for units 1 to 0x7F, or to
//! 0x7FF), and the lane path writes it as 0x80 with the lead byte C2
//! turned into C0.

use core::arch::x86_64::*;

use super::encode_ucs4::{encode_short_units, low_bits, short_units, utf8_lanes};
use crate::contract::{FastStop, Mode};

crate::arch::generic::encode_utf16::utf16_encoder_entries!(
    "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1"
);

#[target_feature(enable = "avx512bw")]
#[inline]
fn swap16(v: __m512i) -> __m512i {
    _mm512_or_si512(_mm512_slli_epi16::<8>(v), _mm512_srli_epi16::<8>(v))
}

/// Narrows runs of 128 ASCII units four vectors a test, while they fit;
/// returns the units done (as many bytes were written).
///
/// # Safety
/// `ptr` points to `len` readable units and `out` to `room` writable bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn narrow_ascii_runs<const SWAP: bool, const MODE: u8>(
    ptr: *const u16,
    len: usize,
    out: *mut u8,
    room: usize,
) -> usize {
    let mut i = 0;
    while len - i >= 128 && room - i >= 128 {
        // SAFETY: units i..i+128 are in bounds.
        let v = unsafe { [0, 32, 64, 96].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
        let any = _mm512_ternarylogic_epi32::<0xFE>(v[0], v[1], _mm512_or_si512(v[2], v[3]));
        let any = if SWAP { swap16(any) } else { any };
        if _mm512_cmpge_epu16_mask(any, _mm512_set1_epi16(0x80)) != 0 {
            break;
        }
        if MODE == Mode::MUTF8 {
            // A 0 unit is C0 80: not for this path.
            let min = _mm512_min_epu16(_mm512_min_epu16(v[0], v[1]), _mm512_min_epu16(v[2], v[3]));
            if _mm512_cmpeq_epi16_mask(min, _mm512_setzero_si512()) != 0 {
                break;
            }
        }
        for (k, units) in v.into_iter().enumerate() {
            let units = if SWAP { swap16(units) } else { units };
            // SAFETY: bytes i..i+128 of the `room` checked above.
            unsafe { _mm256_storeu_si256(out.add(i + 32 * k).cast(), _mm512_cvtepi16_epi8(units)) };
        }
        i += 128;
    }
    i
}

/// Encodes steps of 32 units below U+0800 (with `MODE` Modified UTF-8,
/// and above 0) from `ptr` while 32 units are left and 64 bytes of room,
/// in a loop of its own like [`bmp_runs`]; returns the units done and the
/// bytes written.
///
/// Each step is compressed and stored as a whole 64-byte vector when the
/// next step is known to run (it writes at least 32 bytes where this one's
/// spare bytes went, since every unit takes one byte or two); only a run's
/// last step takes the masked store, slow on AMD Zen 4. After a step of
/// ASCII, further ASCII steps narrow in a loop of their own (text with a
/// letter every hundred units or so stays in this function). On Zen 4,
/// against the masked store every step: 2-byte scripts 1.04-1.10x,
/// `latin1-10%` 1.10x, `ascii+1%2B` 1.56x (12.2 to 19.0 GB/s); testing
/// every step for ASCII instead cost the 2-byte scripts 7-11%.
///
/// # Safety
/// The CPU must support the enabled features; `ptr` points to `len`
/// readable units and `out` to `room` writable bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline(never)]
unsafe fn short_runs<const SWAP: bool, const MODE: u8>(
    ptr: *const u16,
    len: usize,
    out: *mut u8,
    room: usize,
) -> (usize, usize) {
    let (mut i, mut written) = (0, 0);
    let w = |v: u16| _mm512_set1_epi16(v as i16);
    // Units minus one for Modified UTF-8: 0 wraps to 0xFFFF.
    let tested = |units: __m512i| {
        if MODE == Mode::MUTF8 {
            _mm512_sub_epi16(units, w(1))
        } else {
            units
        }
    };
    let floor = u16::from(MODE == Mode::MUTF8);
    if len < 32 || room < 64 {
        return (0, 0);
    }
    // SAFETY: units 0..32 are in bounds.
    let mut units = unsafe { load_units::<SWAP>(ptr) };
    loop {
        if _mm512_cmpge_epu16_mask(tested(units), w(0x800 - floor)) != 0 {
            break;
        }
        let (packed, used) = short_units(units, u32::MAX);
        let total = used.count_ones() as usize;
        i += 32;
        // Whether the next step runs and covers this one's spare bytes.
        let next = len - i >= 32 && room - written - total >= 64 && {
            // SAFETY: units i..i+32 are in bounds.
            units = unsafe { load_units::<SWAP>(ptr.add(i)) };
            _mm512_cmpge_epu16_mask(tested(units), w(0x800 - floor)) == 0
        };
        // SAFETY: 64 bytes are within the room checked by the loop; with a
        // masked store, `total` of them.
        unsafe {
            if next {
                _mm512_storeu_si512(out.add(written).cast(), packed);
            } else {
                _mm512_mask_storeu_epi8(out.add(written).cast(), low_bits(total as u32), packed);
            }
        }
        written += total;
        if !next {
            break;
        }
        if total == 32 {
            // An ASCII step: in text with a letter every hundred units or
            // so, more are likely, and narrowing them is cheaper.
            while _mm512_cmpge_epu16_mask(tested(units), w(0x80 - floor)) == 0 {
                // SAFETY: 32 bytes, within the 64 of room checked above.
                unsafe {
                    _mm256_storeu_si256(out.add(written).cast(), _mm512_cvtepi16_epi8(units))
                };
                (i, written) = (i + 32, written + 32);
                if len - i < 32 || room - written < 64 {
                    return (i, written);
                }
                // SAFETY: units i..i+32 are in bounds.
                units = unsafe { load_units::<SWAP>(ptr.add(i)) };
            }
        }
    }
    (i, written)
}

/// 32 units from `ptr`, byte-swapped with `SWAP`.
///
/// # Safety
/// `ptr` points to 32 readable units.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn load_units<const SWAP: bool>(ptr: *const u16) -> __m512i {
    // SAFETY: the caller's promise.
    let raw = unsafe { _mm512_loadu_si512(ptr.cast()) };
    if SWAP {
        swap16(raw)
    } else {
        raw
    }
}

/// Whether none of the 32 units is a surrogate.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn no_surrogate(units: __m512i) -> bool {
    let kind = _mm512_and_si512(units, _mm512_set1_epi16(0xF800u16 as i16));
    _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(0xD800u16 as i16)) == 0
}

/// Encodes steps of 32 units without a surrogate from `ptr` (the first
/// one such), both halves by the lane encoding without the pairing, while
/// 32 units are left and 96 bytes of room; returns the units done and the
/// bytes written.
///
/// # Safety
/// The CPU must support the enabled features; `ptr` points to `len >= 32`
/// readable units, the first 32 without a surrogate, and `out` to `room
/// >= 96` writable bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline(never)]
unsafe fn bmp_runs<const SWAP: bool, const MODE: u8>(
    ptr: *const u16,
    len: usize,
    out: *mut u8,
    room: usize,
) -> (usize, usize) {
    let (mut i, mut written) = (0, 0);
    while len - i >= 32 && room - written >= 96 {
        // SAFETY: units i..i+32 are in bounds.
        let raw = unsafe { _mm512_loadu_si512(ptr.add(i).cast()) };
        let units = if SWAP { swap16(raw) } else { raw };
        if i > 0 && !no_surrogate(units) {
            break;
        }
        for half in [
            _mm512_castsi512_si256(units),
            _mm512_extracti64x4_epi64::<1>(units),
        ] {
            // SAFETY: at most 48 bytes each, within the 96 checked.
            written += unsafe { bmp_lanes::<MODE>(_mm512_cvtepu16_epi32(half), out.add(written)) };
        }
        i += 32;
    }
    (i, written)
}

/// The UTF-8 of 32 units that are 16 surrogate pairs, high then low (text
/// of emoji, or of other supplementary characters without spaces): 64
/// bytes, 4 a pair, with no compression.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn sixteen_pairs(units: __m512i) -> Option<__m512i> {
    let set = |v: u32| _mm512_set1_epi32(v as i32);
    let kinds = _mm512_and_si512(units, set(0xFC00_FC00));
    if _mm512_cmpeq_epi16_mask(kinds, set(0xDC00_D800)) != u32::MAX {
        return None;
    }
    // Each 32-bit lane is a pair, the high unit in its low half:
    // ((high & 0x3FF) << 10) + (low & 0x3FF) + 0x10000.
    let s = _mm512_add_epi32(
        _mm512_or_si512(
            _mm512_slli_epi32::<10>(_mm512_and_si512(units, set(0x3FF))),
            _mm512_and_si512(_mm512_srli_epi32::<16>(units), set(0x3FF)),
        ),
        set(0x1_0000),
    );
    // Bytes F0|s>>18, 80|s>>12&3F, 80|s>>6&3F, 80|s&3F, lowest first; the
    // ternary logic ORs the three terms.
    let bytes = _mm512_ternarylogic_epi32::<0xFE>(
        _mm512_srli_epi32::<18>(s),
        _mm512_and_si512(_mm512_srli_epi32::<4>(s), set(0x3F00)),
        _mm512_or_si512(
            _mm512_and_si512(_mm512_slli_epi32::<10>(s), set(0x3F_0000)),
            _mm512_and_si512(_mm512_slli_epi32::<24>(s), set(0x3F00_0000)),
        ),
    );
    Some(_mm512_or_si512(bytes, set(0x8080_80F0)))
}

/// For the CESU-8 of 32 units from byte `64 * half` of the output: the
/// byte of the units' continuation pairs (two a unit, [`sixteen_cesu_pairs`])
/// that each output byte takes, and which of them are continuation bytes
/// (a unit at every third byte, its lead ED first).
const fn cesu_layout(half: usize) -> ([u8; 64], u64) {
    let (mut index, mut cont) = ([0u8; 64], 0u64);
    let mut k = 0;
    while k < 64 {
        let p = 64 * half + k;
        if !p.is_multiple_of(3) && p < 96 {
            index[k] = (2 * (p / 3) + p % 3 - 1) as u8;
            cont |= 1 << k;
        }
        k += 1;
    }
    (index, cont)
}

const CESU_LAYOUT: [([u8; 64], u64); 2] = [cesu_layout(0), cesu_layout(1)];

/// The CESU-8 of 32 units that are 16 surrogate pairs, high then low: each
/// unit's 3-byte form, ED and two continuation bytes, 96 bytes with no
/// table lookup by value (the first 64, then 32).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn sixteen_cesu_pairs(units: __m512i) -> Option<[__m512i; 2]> {
    let set = |v: u32| _mm512_set1_epi32(v as i32);
    let kinds = _mm512_and_si512(units, set(0xFC00_FC00));
    if _mm512_cmpeq_epi16_mask(kinds, set(0xDC00_D800)) != u32::MAX {
        return None;
    }
    // Each unit's continuation bytes, 80|u>>6&3F then 80|u&3F; the lead of
    // every surrogate is ED (E0 | 0xD).
    let cont = _mm512_ternarylogic_epi32::<0xFE>(
        _mm512_and_si512(_mm512_srli_epi16::<6>(units), set(0x003F_003F)),
        _mm512_and_si512(_mm512_slli_epi16::<8>(units), set(0x3F00_3F00)),
        set(0x8080_8080),
    );
    let place = |(index, mask): ([u8; 64], u64)| {
        // SAFETY: a 64-byte array.
        let index = unsafe { _mm512_loadu_si512(index.as_ptr().cast()) };
        _mm512_mask_permutexvar_epi8(_mm512_set1_epi8(0xEDu8 as i8), mask, index, cont)
    };
    Some([place(CESU_LAYOUT[0]), place(CESU_LAYOUT[1])])
}

/// Writes the UTF-8 (or, with `MODE`, Modified UTF-8) of 16 units in
/// 32-bit lanes, none a surrogate, at `out`; returns the bytes written.
///
/// # Safety
/// `out` has room for 48 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
unsafe fn bmp_lanes<const MODE: u8>(v: __m512i, out: *mut u8) -> usize {
    // U+0000 in Modified UTF-8, as in the general step.
    let zeros = if MODE == Mode::MUTF8 {
        _mm512_cmpeq_epi32_mask(v, _mm512_setzero_si512())
    } else {
        0
    };
    let scalars = _mm512_mask_mov_epi32(v, zeros, _mm512_set1_epi32(0x80));
    let (encoded, used) = utf8_lanes(scalars, u16::MAX);
    // (No branch: a masked XOR costs less.)
    let encoded = _mm512_mask_xor_epi32(encoded, zeros, encoded, _mm512_set1_epi32(2));
    let total = used.count_ones() as usize;
    let packed = _mm512_maskz_compress_epi8(used, encoded);
    // SAFETY: exactly `total` (at most 48) bytes, which the caller has.
    unsafe { _mm512_mask_storeu_epi8(out.cast(), low_bits(total as u32), packed) };
    total
}

#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
unsafe fn encode<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let cesu = MODE != Mode::UTF8;
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    // Whether the step before paired its last unit with unit `i`, and
    // whether its units were all surrogates (then 16 pairs may follow).
    let (mut carry, mut all_surrogates) = (false, false);
    let w = |v: u16| _mm512_set1_epi16(v as i16);
    while i < len {
        let rest = len - i;
        let lanes32 = if rest >= 32 {
            u32::MAX
        } else {
            (1u32 << rest) - 1
        };
        // SAFETY: the lanes cover only units i..len; masked-off lanes do
        // not fault.
        let raw = if rest >= 32 {
            // SAFETY: units i..i+32 are in bounds.
            unsafe { _mm512_loadu_si512(ptr.add(i).cast()) }
        } else {
            // SAFETY: the lanes cover only units i..len; masked-off lanes
            // do not fault.
            unsafe { _mm512_maskz_loadu_epi16(lanes32, ptr.add(i).cast()) }
        };
        let units = if SWAP { swap16(raw) } else { raw };
        let n = rest.min(32);
        // For Modified UTF-8, units 1..=0x7F (and 1..=0x7FF): a unit minus
        // one wraps 0 to 0xFFFF.
        let (tested, floor) = if MODE == Mode::MUTF8 {
            (_mm512_sub_epi16(units, w(1)), 1)
        } else {
            (units, 0)
        };
        if cap - written >= 2 * n {
            if _mm512_mask_cmpge_epu16_mask(lanes32, tested, w(0x80 - floor)) == 0 {
                if n == 32 {
                    // SAFETY: 32 bytes, within the room checked.
                    unsafe {
                        _mm256_storeu_si256(out.add(written).cast(), _mm512_cvtepi16_epi8(units))
                    };
                } else {
                    // SAFETY: the `n` lanes' bytes, within the room checked.
                    unsafe {
                        _mm512_mask_cvtepi16_storeu_epi8(out.add(written).cast(), lanes32, units)
                    };
                }
                written += n;
                i += n;
                // After an ASCII step, a longer run is likely.
                // SAFETY: units i..len are readable, `cap - written` bytes
                // writable.
                let run = unsafe {
                    narrow_ascii_runs::<SWAP, MODE>(
                        ptr.add(i),
                        len - i,
                        out.add(written),
                        cap - written,
                    )
                };
                (i, written) = (i + run, written + run);
                continue;
            }
            if _mm512_mask_cmpge_epu16_mask(lanes32, tested, w(0x800 - floor)) == 0 {
                // SAFETY: at most two bytes a lane, within the room checked.
                written += unsafe { encode_short_units(units, lanes32, out.add(written)) };
                i += n;
                // A run of them is likely (Cyrillic, Greek, Arabic, Hebrew).
                // SAFETY: units i..len are readable, `cap - written` bytes
                // writable.
                let (units_done, bytes) = unsafe {
                    short_runs::<SWAP, MODE>(ptr.add(i), len - i, out.add(written), cap - written)
                };
                (i, written) = (i + units_done, written + bytes);
                continue;
            }
        }
        // Unit `j` is the first not yet written: with `carry`, unit `i` is
        // the low half of a pair the step before wrote.
        let j = i + usize::from(carry);
        // Only tried after a step of nothing but surrogates, so that other
        // text pays nothing.
        if cesu && all_surrogates && len - i >= 32 && cap - written >= 96 {
            if let Some([a, b]) = sixteen_cesu_pairs(units) {
                // SAFETY: 96 bytes of room were just checked.
                unsafe {
                    _mm512_storeu_si512(out.add(written).cast(), a);
                    _mm256_storeu_si256(out.add(written + 64).cast(), _mm512_castsi512_si256(b));
                }
                (i, written) = (i + 32, written + 96);
                continue;
            }
        }
        if !cesu && all_surrogates && len - j >= 32 && cap - written >= 64 {
            let at_j = if carry {
                // SAFETY: units j..j+32 are in bounds (checked just above).
                let raw = unsafe { _mm512_loadu_si512(ptr.add(j).cast()) };
                if SWAP {
                    swap16(raw)
                } else {
                    raw
                }
            } else {
                units
            };
            if let Some(bytes) = sixteen_pairs(at_j) {
                // SAFETY: 64 bytes of room were just checked.
                unsafe { _mm512_storeu_si512(out.add(written).cast(), bytes) };
                (i, written, carry) = (j + 32, written + 64, false);
                // The step ended with a low surrogate: nothing to pair.
                continue;
            }
        }
        // 32 units with no surrogate (CJK, Indic scripts): a run of such
        // steps, in a loop of its own (out of line: in this loop, the
        // code cost Emoji a quarter of its speed). Not tried after a step
        // of nothing but surrogates.
        if !all_surrogates && rest >= 32 && cap - written >= 96 && no_surrogate(units) {
            // SAFETY: units i..len are readable, `cap - written` bytes
            // writable.
            let (units_done, bytes) = unsafe {
                bmp_runs::<SWAP, MODE>(ptr.add(i), len - i, out.add(written), cap - written)
            };
            (i, written) = (i + units_done, written + bytes);
            carry = false;
            continue;
        }
        // Units i..i+31 (or to the end) in two halves of 32-bit lanes, the
        // second with 15; unit i+31 only tells whether unit i+30 is the
        // high half of a pair. The surrogates' masks are 32 bits, a unit
        // a bit, so pairing is shifts of general registers.
        let valid = if rest >= 32 { u32::MAX >> 1 } else { lanes32 };
        let kind = _mm512_and_si512(units, w(0xFC00));
        let high = _mm512_mask_cmpeq_epi16_mask(lanes32, kind, w(0xD800));
        let low = _mm512_mask_cmpeq_epi16_mask(lanes32, kind, w(0xDC00));
        let (mut step, mut bad) = (valid.count_ones() as usize, None);
        // The low half of a pair the step before wrote, in lane 0.
        let paired_low = low & ((high << 1) | u32::from(carry));
        let paired_high = high & (low >> 1) & valid;
        let unpaired = ((high | low) & valid) & !(paired_high | paired_low);
        all_surrogates = (high | low) & valid == valid;
        carry = false;
        if unpaired != 0 {
            step = unpaired.trailing_zeros() as usize;
            bad = Some(step);
        }
        let keep = if cesu {
            // Each half is its own lane's 3-byte form; a pair the step's
            // end would split waits for the next step.
            if unpaired == 0 && (paired_high >> 30) & 1 != 0 {
                step = 30;
            }
            low_bits(step as u32) as u32
        } else {
            carry = bad.is_none() && (paired_high >> 30) & 1 != 0;
            low_bits(step as u32) as u32 & !paired_low
        };
        let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(units));
        let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(units));
        let (lo_scalars, hi_scalars) = if cesu || paired_high == 0 {
            (lo, hi)
        } else {
            // (high - 0xD800) << 10 + (low - 0xDC00) + 0x10000, from the
            // unit after each lane.
            let join = |v: __m512i, next: __m512i, pairs: u16| {
                let joined = _mm512_sub_epi32(
                    _mm512_add_epi32(_mm512_slli_epi32::<10>(v), next),
                    _mm512_set1_epi32(0x035F_DC00),
                );
                _mm512_mask_mov_epi32(v, pairs, joined)
            };
            (
                join(lo, _mm512_alignr_epi32::<1>(hi, lo), paired_high as u16),
                join(
                    hi,
                    _mm512_alignr_epi32::<1>(_mm512_setzero_si512(), hi),
                    (paired_high >> 16) as u16,
                ),
            )
        };
        let mut halves = [(lo_scalars, keep as u16), (hi_scalars, (keep >> 16) as u16)];
        let mut totals = [0usize; 2];
        let mut encoded = [_mm512_setzero_si512(); 2];
        let mut used = [0u64; 2];
        for (h, (scalars, keep)) in halves.iter_mut().enumerate() {
            // U+0000 in Modified UTF-8: encoded as 0x80 (C2 80), then its
            // lead made C0.
            let zeros = if MODE == Mode::MUTF8 {
                _mm512_mask_cmpeq_epi32_mask(*keep, *scalars, _mm512_setzero_si512())
            } else {
                0
            };
            if zeros != 0 {
                *scalars = _mm512_mask_mov_epi32(*scalars, zeros, _mm512_set1_epi32(0x80));
            }
            let (mut e, u) = utf8_lanes(*scalars, *keep);
            if zeros != 0 {
                e = _mm512_mask_xor_epi32(e, zeros, e, _mm512_set1_epi32(2));
            }
            (encoded[h], used[h], totals[h]) = (e, u, u.count_ones() as usize);
        }
        if cap - written < totals[0] + totals[1] {
            // A low surrogate in lane 0 was written with the step before
            // (not in CESU-8, whose steps never split a pair).
            return FastStop {
                read: i + (paired_low & 1) as usize,
                written,
                flagged: None,
            };
        }
        for h in 0..2 {
            let packed = _mm512_maskz_compress_epi8(used[h], encoded[h]);
            // SAFETY: exactly `totals[h]` bytes, which fit (checked just
            // above).
            unsafe {
                _mm512_mask_storeu_epi8(out.add(written).cast(), low_bits(totals[h] as u32), packed)
            };
            written += totals[h];
        }
        i += step;
        if let Some(at) = bad {
            debug_assert_eq!(at, step);
            return FastStop {
                read: i,
                written,
                flagged: Some(i),
            };
        }
    }
    FastStop {
        read: len,
        written,
        flagged: None,
    }
}
