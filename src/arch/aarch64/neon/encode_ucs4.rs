//! Code points (UCS-4) to UTF-8 on NEON, 16 units a step, and the UTF-8
//! size of code points.
//!
//! # Algorithm
//!
//! [`encode`] loads 16 units (one `LD1` of four registers), takes their
//! largest (`UMAX`, `UMAXV`) and runs the cheapest path that holds for all
//! of them:
//!
//! * **ASCII** (all < 0x80): one four-register `TBL` picks byte 0 of each
//!   unit, and one exact 16-byte store writes them.
//! * **One or two bytes** (all < 0x800, hence valid): narrowed to 16-bit
//!   words (`UZP1`), 8 a vector. Each word becomes `110xxxxx 10xxxxxx` in
//!   its low and high byte (`USHR`, `SLI`, a mask and the markers), or stays
//!   the unit for ASCII (`BSL`). Which words take two bytes, as 8 bits
//!   (`AND` with one bit per lane, `ADDV`), index a table of `TBL` patterns
//!   that keep the used bytes in order, and a table of their count.
//! * **Up to three bytes** (all < 0x10000, no surrogate): as 16-bit words,
//!   each word's bytes are spread over two vectors: `P` holds the lead of a
//!   3-byte character (low byte) and the byte before the last (high byte:
//!   the middle byte of a 3-byte character, the lead of a 2-byte one), `Q`
//!   the last byte (`10xxxxxx`, or the unit for ASCII). For each group of
//!   four words, their lengths minus one (2 bits each, from the two compare
//!   masks with pairwise adds) and which half of the vectors the group is
//!   in form a key to a table of two-register `TBL` patterns over `P` and
//!   `Q`, and to a table of lengths.
//! * **Anything else** (4-byte characters): per vector of 4 units, each
//!   32-bit lane holds every byte its character could need, in order
//!   (`F0|g0 80|g1 80|g2 80|g3`, the 6-bit groups placed by shifts and
//!   `SLI`; `E0` on byte 1 of a 3-byte lane, `C0` on byte 2 of a 2-byte
//!   one), or the unit in byte 0 for ASCII; the lengths minus one key a
//!   table of patterns taking bytes `4-len..4` of each lane (byte 0 for
//!   ASCII).
//!
//! A step that is not ASCII needs its 16 units valid (no surrogates, none
//! above U+10FFFF: the largest unit and the smallest of `unit - 0xD800`
//! tell) and the next 16 too (see below). Non-ASCII steps run in a loop of
//! their own that carries the next block's vectors and largest unit to the
//! following step, so each block is loaded and checked once; an ASCII
//! block sends it back to the outer loop. Where a step cannot run (an
//! invalid unit in either block, too little room, the last 31 units or
//! fewer), the kernel ends with exact scalar writes, which stop at the
//! first invalid unit and flag it.
//!
//! # Never leaving a byte past `written`
//!
//! The packed vectors are stored whole, 16 bytes each, although they hold
//! only 4 to 16 used bytes: a step's last store may reach up to 12 bytes
//! past the step's output. Bytes at or past the returned `written` must be
//! left as they were, so such a step runs only when those bytes are certain
//! to be overwritten before the kernel returns: when the next 16 units are
//! valid too, and the output has room for both blocks (`STEP_ROOM`). The
//! next step then starts its stores at the first garbage byte, or the loop
//! ends and the scalar tail encodes at least those 16 valid units (16 bytes
//! or more), which fit. ASCII steps store exactly their 16 bytes and need
//! neither.
//!
//! # Measuring
//!
//! [`encoded_len`] takes 16 units a step: nothing to add for ASCII; else a
//! validity check and one compare per length threshold the largest unit
//! reaches (0x7F, 0x7FF, 0xFFFF), whose all-ones lanes are subtracted from
//! per-lane counters and added into 64-bit sums every step (`UADALP`). A
//! step with an invalid unit, and the last 15 units or fewer, are measured
//! one unit at a time, which flags the first invalid unit.

use core::arch::aarch64::*;

use crate::arch::generic::units::put;
use crate::contract::FastStop;

/// Output room a non-ASCII step needs: its own output (at most 64 bytes,
/// whose stores reach at most 12 bytes further) and the next block's (at
/// most 64 bytes), so that all 16 next units (16 bytes or more) are
/// written over the step's excess, by the next step or the scalar tail.
const STEP_ROOM: usize = 128;

/// Sixteen `TBL` indices a row.
#[repr(align(16))]
struct Patterns<const N: usize>([[u8; 16]; N]);

/// For each 8-bit mask of 2-byte words among eight 16-bit lanes (lead or
/// ASCII byte low, continuation byte high): the used bytes, in order,
/// packed to the front (0xFF, out of range, zeroes the rest).
static SHORT: Patterns<256> = {
    let mut table = [[0xFFu8; 16]; 256];
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
    Patterns(table)
};

/// Bytes [`SHORT`]'s row keeps: 8 plus the 2-byte words.
static SHORT_LEN: [u8; 256] = {
    let mut table = [8u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] += (mask as u32).count_ones() as u8;
        mask += 1;
    }
    table
};

/// For each key of a group of four 16-bit words (bits `2j..2j+2`: word
/// `j`'s length minus one, 0 to 2; bit 8: the group is words 4..7 of its
/// vectors): `TBL` indices into the register pair `P` (0..16) and `Q`
/// (16..32) that take each word's bytes in order: `P`'s low byte for a
/// 3-byte word, `P`'s high byte for a 2- or 3-byte word, and `Q`'s low
/// byte.
static WORDS: Patterns<512> = {
    let mut table = [[0xFFu8; 16]; 512];
    let mut key = 0;
    while key < 512 {
        let (mut n, mut j) = (0, 0);
        while j < 4 {
            let class = key >> (2 * j) & 3;
            let at = (2 * j + 8 * (key >> 8)) as u8;
            if class == 2 {
                table[key][n] = at;
                n += 1;
            }
            if class >= 1 {
                table[key][n] = at + 1;
                n += 1;
            }
            table[key][n] = 16 + at;
            n += 1;
            j += 1;
        }
        key += 1;
    }
    Patterns(table)
};

/// For each key of four 32-bit lanes (bits `2j..2j+2`: lane `j`'s length
/// minus one): the used bytes, in order, packed to the front; bytes
/// `4-len..4` of a longer lane, byte 0 of an ASCII one.
static GENERAL: Patterns<256> = {
    let mut table = [[0xFFu8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 4 {
            let len = 1 + (key >> (2 * j) & 3);
            let (first, end) = if len == 1 { (0, 1) } else { (4 - len, 4) };
            let mut b = first;
            while b < end {
                table[key][n] = (4 * j + b) as u8;
                n += 1;
                b += 1;
            }
            j += 1;
        }
        key += 1;
    }
    Patterns(table)
};

/// Bytes of a [`WORDS`] or [`GENERAL`] key: 4 plus its four 2-bit fields
/// (bit 8 is not a length).
static LEN: [u8; 512] = {
    let mut table = [4u8; 512];
    let mut key = 0;
    while key < 512 {
        let mut j = 0;
        while j < 4 {
            table[key] += (key >> (2 * j) & 3) as u8;
            j += 1;
        }
        key += 1;
    }
    table
};

pub(super) fn utf8_len(u: u32) -> usize {
    1 + (u >= 0x80) as usize + (u >= 0x800) as usize + (u >= 0x10000) as usize
}

fn is_scalar(u: u32) -> bool {
    u < 0xD800 || (0xE000..=0x10FFFF).contains(&u)
}

/// A vector of 16 constant bytes (the compiler keeps it in a register).
#[target_feature(enable = "neon")]
#[inline]
fn constant(t: [u8; 16]) -> uint8x16_t {
    // SAFETY: `t` is 16 readable bytes.
    unsafe { vld1q_u8(t.as_ptr()) }
}

/// Row `key` of a pattern table.
#[target_feature(enable = "neon")]
#[inline]
fn pattern<const N: usize>(table: &Patterns<N>, key: usize) -> uint8x16_t {
    constant(table.0[key])
}

/// Units `i..i+16` of `src`, in four vectors.
///
/// # Safety
/// `i + 16 <= src.len()`.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn load16(src: &[u32], i: usize) -> uint32x4x4_t {
    // SAFETY: units i..i+16 are in bounds (the caller's promise).
    unsafe { vld1q_u32_x4(src.as_ptr().add(i)) }
}

/// The largest of 16 units.
#[target_feature(enable = "neon")]
#[inline]
fn largest(v: uint32x4x4_t) -> u32 {
    vmaxvq_u32(vmaxq_u32(vmaxq_u32(v.0, v.1), vmaxq_u32(v.2, v.3)))
}

/// Whether 16 units, the largest `max`, are all scalar values: none above
/// U+10FFFF, and no `unit - 0xD800` (wrapping) below 0x800.
#[target_feature(enable = "neon")]
#[inline]
fn all_valid(v: uint32x4x4_t, max: u32) -> bool {
    if max < 0xD800 {
        return true;
    }
    let base = vdupq_n_u32(0xD800);
    let off = |u| vsubq_u32(u, base);
    let least = vminvq_u32(vminq_u32(
        vminq_u32(off(v.0), off(v.1)),
        vminq_u32(off(v.2), off(v.3)),
    ));
    max <= 0x10FFFF && least >= 0x800
}

/// Byte 0 of each of 16 units below 0x80: their UTF-8.
#[target_feature(enable = "neon")]
#[inline]
fn ascii(v: uint32x4x4_t) -> uint8x16_t {
    let table = uint8x16x4_t(
        vreinterpretq_u8_u32(v.0),
        vreinterpretq_u8_u32(v.1),
        vreinterpretq_u8_u32(v.2),
        vreinterpretq_u8_u32(v.3),
    );
    let low = constant([0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60]);
    vqtbl4q_u8(table, low)
}

/// Units `2k` and `2k+1` of `v`, both below 0x10000, as 8 words.
#[target_feature(enable = "neon")]
#[inline]
fn words(a: uint32x4_t, b: uint32x4_t) -> uint16x8_t {
    vuzp1q_u16(vreinterpretq_u16_u32(a), vreinterpretq_u16_u32(b))
}

/// The packed UTF-8 of eight words below U+0800 and its length (8 to 16).
#[target_feature(enable = "neon")]
#[inline]
pub(super) fn short8(w: uint16x8_t) -> (uint8x16_t, usize) {
    let two = vcgtq_u16(w, vdupq_n_u16(0x7F));
    // Lead 110xxxxx low (w >> 6 has 5 bits), continuation 10xxxxxx high.
    let pair = vsliq_n_u16::<8>(vshrq_n_u16::<6>(w), w);
    let pair = vorrq_u16(vandq_u16(pair, vdupq_n_u16(0x3FFF)), vdupq_n_u16(0x80C0));
    let lanes = vreinterpretq_u8_u16(vbslq_u16(two, pair, w));
    let bits = vreinterpretq_u16_u8(constant([
        1, 0, 2, 0, 4, 0, 8, 0, 16, 0, 32, 0, 64, 0, 128, 0,
    ]));
    let mask = usize::from(vaddvq_u16(vandq_u16(two, bits))) & 0xFF;
    (
        vqtbl1q_u8(lanes, pattern(&SHORT, mask)),
        usize::from(SHORT_LEN[mask]),
    )
}

/// `P`, `Q` (see the module docs) of eight words below U+10000 that are
/// not surrogates, and each word's length minus one times its weight in
/// its group's key (1, 4, 16, 64).
#[target_feature(enable = "neon")]
#[inline]
fn spread8(w: uint16x8_t) -> (uint8x16x2_t, uint16x8_t) {
    let dup = vdupq_n_u16;
    let two = vcgtq_u16(w, dup(0x7F));
    let three = vcgtq_u16(w, dup(0x7FF));
    // Low: w >> 12 (4 bits); high: w >> 6, kept to 6 bits.
    let p = vsliq_n_u16::<8>(vshrq_n_u16::<12>(w), vshrq_n_u16::<6>(w));
    let markers = vbslq_u16(three, dup(0x80E0), dup(0xC0E0));
    let p = vorrq_u16(vandq_u16(p, dup(0x3FFF)), markers);
    let last = vorrq_u16(vandq_u16(w, dup(0x3F)), dup(0x80));
    let q = vbslq_u16(two, last, w);
    let weights = vreinterpretq_u16_u8(constant([
        1, 0, 4, 0, 16, 0, 64, 0, 1, 0, 4, 0, 16, 0, 64, 0,
    ]));
    let key = vaddq_u16(vandq_u16(two, weights), vandq_u16(three, weights));
    (
        uint8x16x2_t(vreinterpretq_u8_u16(p), vreinterpretq_u8_u16(q)),
        key,
    )
}

/// The packed UTF-8 of four valid scalars and its length (4 to 16).
#[target_feature(enable = "neon")]
#[inline]
fn general4(u: uint32x4_t) -> (uint8x16_t, usize) {
    let dup = vdupq_n_u32;
    let two = vcgtq_u32(u, dup(0x7F));
    let three = vcgtq_u32(u, dup(0x7FF));
    let four = vcgtq_u32(u, dup(0xFFFF));
    // Bytes 0..4: u >> 18, u >> 12, u >> 6, u, then cut to 3, 6, 6, 6 bits.
    let g = vsliq_n_u32::<8>(vshrq_n_u32::<18>(u), vshrq_n_u32::<12>(u));
    let g = vsliq_n_u32::<16>(g, vshrq_n_u32::<6>(u));
    let g = vandq_u32(vsliq_n_u32::<24>(g, u), dup(0x3F3F_3F07));
    // F0 80 80 80; E0 on byte 1 of a 3-byte lane, C0 on byte 2 of a 2-byte
    // one (each marker bit flips back in the longer lanes).
    let markers = veorq_u32(
        veorq_u32(dup(0x8080_80F0), vandq_u32(two, dup(0x0040_0000))),
        veorq_u32(
            vandq_u32(three, dup(0x0040_6000)),
            vandq_u32(four, dup(0x6000)),
        ),
    );
    let lanes = vreinterpretq_u8_u32(vbslq_u32(two, vorrq_u32(g, markers), u));
    let weights =
        vreinterpretq_u32_u8(constant([1, 0, 0, 0, 4, 0, 0, 0, 16, 0, 0, 0, 64, 0, 0, 0]));
    let key = vaddq_u32(
        vaddq_u32(vandq_u32(two, weights), vandq_u32(three, weights)),
        vandq_u32(four, weights),
    );
    let key = vaddvq_u32(key) as usize & 0xFF;
    (
        vqtbl1q_u8(lanes, pattern(&GENERAL, key)),
        usize::from(LEN[key]),
    )
}

/// Stores the packed vectors at `out` one after another; returns the
/// bytes they hold.
///
/// # Safety
/// `out` has room for their bytes plus 16 minus the last one's.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn put_packed<const N: usize>(packed: [(uint8x16_t, usize); N], out: *mut u8) -> usize {
    let mut n = 0;
    for (bytes, len) in packed {
        // SAFETY: this store ends 16 - len bytes past this vector's bytes,
        // within the room the caller guarantees (earlier vectors' excess is
        // overwritten by the next one, which starts at their end).
        unsafe { vst1q_u8(out.add(n), bytes) };
        n += len;
    }
    n
}

/// Encodes 16 valid units that are not all ASCII at `out`; returns the
/// bytes written, whose stores reach at most 12 bytes further.
///
/// # Safety
/// `out` has room for 76 bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn step(v: uint32x4x4_t, max: u32, out: *mut u8) -> usize {
    // SAFETY (all three): at most 64 bytes of output, and the last vector
    // holds at least 4 (8 for `short8`), so the stores end within 76.
    unsafe {
        if max < 0x800 {
            short16(words(v.0, v.1), words(v.2, v.3), out)
        } else if max < 0x10000 {
            bmp16(words(v.0, v.1), words(v.2, v.3), out)
        } else {
            put_packed(
                [general4(v.0), general4(v.1), general4(v.2), general4(v.3)],
                out,
            )
        }
    }
}

/// Encodes 16 words below U+0800 (`lo`, then `hi`) at `out`; returns the
/// bytes written (16 to 32), whose stores reach at most 8 bytes further.
///
/// # Safety
/// `out` has room for 40 bytes.
#[target_feature(enable = "neon")]
#[inline]
pub(super) unsafe fn short16(lo: uint16x8_t, hi: uint16x8_t, out: *mut u8) -> usize {
    // SAFETY: at most 32 bytes, the last vector holding at least 8.
    unsafe { put_packed([short8(lo), short8(hi)], out) }
}

/// Encodes 16 words below U+10000 (`lo`, then `hi`; a surrogate's value
/// gets its 3-byte form) at `out`; returns the bytes written (16 to 48),
/// whose stores reach at most 12 bytes further.
///
/// # Safety
/// `out` has room for 60 bytes.
#[target_feature(enable = "neon")]
#[inline]
pub(super) unsafe fn bmp16(lo: uint16x8_t, hi: uint16x8_t, out: *mut u8) -> usize {
    let (lo, key_lo) = spread8(lo);
    let (hi, key_hi) = spread8(hi);
    // Sums of four weighted lengths: [lo 0..4, lo 4..8, hi 0..4, hi 4..8]
    // in the low four words; bit 8 marks the upper groups.
    let sums = vpaddq_u16(key_lo, key_hi);
    let sums = vpaddq_u16(sums, sums);
    let upper = vreinterpretq_u16_u8(constant([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]));
    let keys = vgetq_lane_u64::<0>(vreinterpretq_u64_u16(vaddq_u16(sums, upper)));
    let group = |tbl: uint8x16x2_t, k: usize| {
        let key = (keys >> (16 * k)) as usize & 0x1FF;
        (vqtbl2q_u8(tbl, pattern(&WORDS, key)), usize::from(LEN[key]))
    };
    // SAFETY: at most 48 bytes, the last vector holding at least 4.
    unsafe {
        put_packed(
            [group(lo, 0), group(lo, 1), group(hi, 2), group(hi, 3)],
            out,
        )
    }
}

/// Encodes `src` up to its first invalid unit (reported as `flagged`) or
/// until `out` is full.
///
/// # Safety
/// `out` points to `cap` writable bytes (NEON is baseline on aarch64).
#[target_feature(enable = "neon")]
pub(super) unsafe fn encode(src: &[u32], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut pos, mut written) = (0, 0);
    'blocks: while len - pos >= 16 {
        // SAFETY: units pos..pos+16 are in bounds (the loop condition).
        let mut v = unsafe { load16(src, pos) };
        let mut max = largest(v);
        if max < 0x80 {
            if cap - written < 16 {
                break;
            }
            // SAFETY: 16 bytes of room at `written`, checked above.
            unsafe { vst1q_u8(out.add(written), ascii(v)) };
            pos += 16;
            written += 16;
            continue;
        }
        if !all_valid(v, max) {
            break;
        }
        // Non-ASCII steps, each while the next 16 units are valid and there
        // is room for both blocks: the next block's output then overwrites
        // the step's excess (see the module docs).
        loop {
            if len - pos < 32 || cap - written < STEP_ROOM {
                break 'blocks;
            }
            // SAFETY: units pos+16..pos+32 are in bounds (checked above).
            let next = unsafe { load16(src, pos + 16) };
            let next_max = largest(next);
            if !all_valid(next, next_max) {
                break 'blocks;
            }
            // SAFETY: STEP_ROOM >= 76 bytes of room at `written`; the units
            // are valid and not all ASCII.
            written += unsafe { step(v, max, out.add(written)) };
            pos += 16;
            if next_max < 0x80 {
                continue 'blocks;
            }
            (v, max) = (next, next_max);
        }
    }
    // The rest one unit at a time, exactly.
    while pos < len {
        let u = src[pos];
        if !is_scalar(u) {
            return FastStop {
                read: pos,
                written,
                flagged: Some(pos),
            };
        }
        if cap - written < utf8_len(u) {
            break;
        }
        // SAFETY: the character fits at `out + written` (checked above).
        written += unsafe { put(u, out.add(written)) };
        pos += 1;
    }
    FastStop {
        read: pos,
        written,
        flagged: None,
    }
}

/// Per-lane counts (as all-ones lanes subtracted) of the units of `v`
/// above each of `limits`.
#[target_feature(enable = "neon")]
#[inline]
fn longer<const L: usize>(v: uint32x4x4_t, limits: [u32; L]) -> uint32x4_t {
    let mut acc = vdupq_n_u32(0);
    for limit in limits {
        let limit = vdupq_n_u32(limit);
        for u in [v.0, v.1, v.2, v.3] {
            acc = vsubq_u32(acc, vcgtq_u32(u, limit));
        }
    }
    acc
}

/// The UTF-8 length of `src` up to its first invalid unit (reported as
/// `flagged`).
///
/// # Safety
/// None beyond the kernel contract (NEON is baseline on aarch64).
#[target_feature(enable = "neon")]
pub(super) unsafe fn encoded_len(src: &[u32]) -> FastStop {
    let len = src.len();
    let mut pos = 0;
    // Bytes past the first of each unit before `pos`, in two 64-bit sums.
    let mut extra = vdupq_n_u64(0);
    while len - pos >= 16 {
        // SAFETY: units pos..pos+16 are in bounds (the loop condition).
        let v = unsafe { load16(src, pos) };
        let max = largest(v);
        if max >= 0x80 {
            let counts = if max < 0x800 {
                longer(v, [0x7F])
            } else if max < 0x10000 && all_valid(v, max) {
                longer(v, [0x7F, 0x7FF])
            } else if all_valid(v, max) {
                longer(v, [0x7F, 0x7FF, 0xFFFF])
            } else {
                break; // Found below, one unit at a time.
            };
            extra = vpadalq_u32(extra, counts);
        }
        pos += 16;
    }
    // The units before `pos` are valid: one byte each, plus the extras.
    let mut total = pos + vaddvq_u64(extra) as usize;
    for (k, &u) in src.iter().enumerate().skip(pos) {
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
