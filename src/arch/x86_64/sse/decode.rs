//! UTF-8 to UCS-4, 12 bytes a step.
//!
//! The decoder validates a chunk (up to 256 bytes) ahead of its output, then
//! converts the valid part. Each step looks at the 16 bytes at the current
//! character boundary; bit `j` of a 12-bit mask says that a character ends at
//! byte `j` (byte `j+1` is not a continuation). That mask selects a plan
//! from a table built at compile time: how many bytes the step consumes, how
//! many characters it writes, and a `PSHUFB` index that gathers each
//! character's bytes into a lane, *last byte lowest*, zero-filled:
//!
//! - "short": six to eight characters of one or two bytes, in 16-bit lanes.
//!   Masking with `0x1F7F` keeps the payload bits and one multiply-add
//!   (`PMADDUBSW` by 1 and 64) joins them; two zero-extensions write 8 lanes.
//! - "long": three or four characters of one to four bytes, in 32-bit lanes.
//!   Masking with `0x07_3F_3F_7F` keeps the payload bits, except that a
//!   3-byte lead in byte 2 keeps a stray bit 5, cleared by XOR with its own
//!   bit 6 (which a continuation byte lacks); two multiply-adds join them.
//!
//! Sixteen ASCII bytes take a shortcut. A step stores up to 8 lanes, a few
//! past its own characters; it runs only while 8 more bytes (so at least 2
//! more characters) of validated input follow it and the whole validated
//! stretch fits the output, so every such lane is overwritten by a later
//! character before the kernel returns. The kernel ends with exact scalar
//! writes, so no lane at or past the returned `written` is ever touched.

use core::arch::x86_64::*;

use super::super::partial::chunk16;

use super::utf8::{
    check_block, ends_incomplete, flagged_bytes, four_leads, four_valid, load_block, load_four,
    non_ascii,
};
use crate::arch::{restart_point, FastStop};

/// Bytes validated per round.
const CHUNK: usize = 256;
/// A step runs while this many validated bytes remain: its 12 plus 8.
const STEP_NEED: usize = 20;

/// Plan ids: "long" plans of 4 and 3 characters (2 bits of length - 1 each),
/// then "short" plans of 6, 7 and 8 characters (1 bit each).
const LONG_4: usize = 0;
const LONG_3: usize = 256;
const SHORT_6: usize = 320;
const SHORT_7: usize = 384;
const SHORT_8: usize = 512;
const PLANS: usize = 768;
/// The long plan of four 3-byte characters.
const FOUR_THREES: usize = LONG_4 + 0b10_10_10_10;

/// The characters of plan `id`: how many, and their lengths.
const fn plan_chars(id: usize) -> (usize, [usize; 8]) {
    let mut lens = [0usize; 8];
    let (k, code, bits) = if id < LONG_3 {
        (4, id - LONG_4, 2)
    } else if id < SHORT_6 {
        (3, id - LONG_3, 2)
    } else if id < SHORT_7 {
        (6, id - SHORT_6, 1)
    } else if id < SHORT_8 {
        (7, id - SHORT_7, 1)
    } else {
        (8, id - SHORT_8, 1)
    };
    let mut j = 0;
    while j < k {
        lens[j] = ((code >> (bits * j)) & ((1 << bits) - 1)) + 1;
        j += 1;
    }
    (k, lens)
}

/// The byte shuffle of each plan (0x80 zeroes a byte). Every index is below
/// 16: at most 4 characters of 4 bytes or 8 of 2.
#[repr(align(16))]
struct Shuffles([[u8; 16]; PLANS]);

static SHUFFLES: Shuffles = {
    let mut table = [[0x80u8; 16]; PLANS];
    let mut id = 0;
    while id < PLANS {
        let (k, lens) = plan_chars(id);
        let (mut j, mut start) = (0, 0);
        while j < k {
            let last = start + lens[j] - 1;
            let mut t = 0;
            while t < lens[j] {
                let lane_byte = if id < SHORT_6 { 4 * j + t } else { 2 * j + t };
                table[id][lane_byte] = (last - t) as u8;
                t += 1;
            }
            start += lens[j];
            j += 1;
        }
        id += 1;
    }
    Shuffles(table)
};

/// For each 12-bit end-of-character mask: the bytes its plan consumes (bits
/// 0..8), the plan id (bits 8..24) and the characters it writes (bits
/// 24..32). Masks that valid input cannot produce (a character longer than 4
/// bytes) get a harmless plan: every plan writes at most as many characters
/// as it consumes bytes, which the capacity reasoning in `steps` relies on.
static STEPS: [u32; 4096] = {
    let mut table = [0u32; 4096];
    let mut mask = 0;
    while mask < 4096 {
        let mut lens = [0usize; 12];
        let (mut n, mut start, mut p) = (0, 0, 0);
        while p < 12 {
            if mask >> p & 1 == 1 {
                lens[n] = p + 1 - start;
                n += 1;
                start = p + 1;
            }
            p += 1;
        }
        let mut short = 0;
        while short < n && short < 8 && lens[short] <= 2 {
            short += 1;
        }
        let mut long = 0;
        while long < n && long < 4 && lens[long] <= 4 {
            long += 1;
        }
        let (id, mut k, bits) = if short >= 6 {
            let base = [SHORT_6, SHORT_7, SHORT_8][short - 6];
            (base, short, 1)
        } else if long >= 3 {
            ([LONG_3, LONG_4][long - 3], long, 2)
        } else {
            (LONG_3, 0, 2)
        };
        let (mut code, mut consumed, mut j) = (0, 0, 0);
        while j < k {
            code |= (lens[j] - 1) << (bits * j);
            consumed += lens[j];
            j += 1;
        }
        if k == 0 {
            // Three one-byte characters, as `LONG_3 + 0`.
            (consumed, k) = (3, 3);
        }
        table[mask] = (consumed | (id + code) << 8 | k << 24) as u32;
        mask += 1;
    }
    table
};

/// Non-continuation bits of bytes `[at, at+64)` of `src`, zero-filled past
/// its end (so the bits past the end are set).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn leads64(src: &[u8], at: usize) -> u64 {
    let blocks = if src.len() - at >= 64 {
        // SAFETY: bytes at..at+64 are in bounds.
        unsafe { load_four(src, at) }
    } else {
        [0, 16, 32, 48].map(|o| chunk16(src, at + o))
    };
    four_leads(blocks)
}

/// Code points from 32-bit lanes holding a character's bytes, last byte
/// lowest, zero-filled (a "long" plan).
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn long_lanes(x: __m128i) -> __m128i {
    let t = _mm_and_si128(x, _mm_set1_epi32(0x073F_3F7F));
    let stray = _mm_srli_epi32::<1>(_mm_and_si128(x, _mm_set1_epi32(0x0040_0000)));
    let pairs = _mm_maddubs_epi16(_mm_xor_si128(t, stray), _mm_set1_epi16(0x4001));
    _mm_madd_epi16(pairs, _mm_set1_epi32(0x1000_0001))
}

/// Writes the 16 ASCII bytes of `input` as 16 code points at `dst`.
///
/// # Safety
/// `dst` has room for 16 code points.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn widen_ascii(input: __m128i, dst: *mut u32) {
    // SAFETY: the four stores cover exactly dst..dst+16.
    unsafe {
        _mm_storeu_si128(dst.cast(), _mm_cvtepu8_epi32(input));
        _mm_storeu_si128(
            dst.add(4).cast(),
            _mm_cvtepu8_epi32(_mm_srli_si128::<4>(input)),
        );
        _mm_storeu_si128(
            dst.add(8).cast(),
            _mm_cvtepu8_epi32(_mm_srli_si128::<8>(input)),
        );
        _mm_storeu_si128(
            dst.add(12).cast(),
            _mm_cvtepu8_epi32(_mm_srli_si128::<12>(input)),
        );
    }
}

/// Decodes whole steps of the valid stretch `src[pos..end)` to `out +
/// written`, while at least `STEP_NEED` bytes remain. Returns the new
/// `(pos, written)`.
///
/// # Safety
/// `src[pos..end)` is valid UTF-8 starting at a character boundary, and `out`
/// has room for `end - pos` code points from `written`.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
#[inline]
unsafe fn steps(
    src: &[u8],
    mut pos: usize,
    end: usize,
    out: *mut u32,
    mut written: usize,
) -> (usize, usize) {
    if pos + STEP_NEED > end {
        return (pos, written);
    }
    // Bit j of `ends`: a character ends at byte pos+j (byte pos+j+1 is not a
    // continuation); valid for j < 63 - at, where `at` counts the bytes
    // consumed since `ends` was loaded. Shifting it by each step's byte count
    // keeps the table index two instructions after the table load.
    let mut ends = leads64(src, pos) >> 1;
    let mut at = 0;
    // Capacity: with w0, p0 the entry values, every plan writes at most one
    // character per byte consumed, so written - w0 <= pos - p0 <= end - 20
    // - p0, and the furthest store (16 lanes for ASCII, 8 otherwise) ends at
    // most at w0 + end - p0 - 4, within the room the caller guarantees.
    while pos + STEP_NEED <= end {
        if at > 47 {
            ends = leads64(src, pos) >> 1;
            at = 0;
        }
        // SAFETY: pos + 16 <= end <= src.len().
        let input = unsafe { _mm_loadu_si128(src.as_ptr().add(pos).cast()) };
        if non_ascii(input) == 0 {
            let mut input = input;
            loop {
                // SAFETY: 16 lanes from `written` are in room (see above).
                unsafe { widen_ascii(input, out.add(written)) };
                pos += 16;
                written += 16;
                if pos + STEP_NEED > end {
                    break;
                }
                // SAFETY: pos + 16 <= end <= src.len().
                input = unsafe { _mm_loadu_si128(src.as_ptr().add(pos).cast()) };
                if non_ascii(input) != 0 {
                    break;
                }
            }
            at = 64; // Reload `ends` at the next step.
            continue;
        }
        let dst = out.wrapping_add(written);
        // Bits 0..12 of `ends` are valid (at <= 47).
        if ends & 0xFFF == 0b1001_0010_0100 {
            // Four 3-byte characters (most CJK text): a fixed plan, which
            // keeps the table load off the chain from one step to the next.
            // SAFETY: 16 aligned bytes.
            let shuffle = unsafe { _mm_load_si128(SHUFFLES.0[FOUR_THREES].as_ptr().cast()) };
            // SAFETY: 4 lanes from `written` are in room (see above).
            unsafe { _mm_storeu_si128(dst.cast(), long_lanes(_mm_shuffle_epi8(input, shuffle))) };
            ends >>= 12;
            at += 12;
            pos += 12;
            written += 4;
            continue;
        }
        let plan = STEPS[(ends & 0xFFF) as usize] as usize;
        let id = (plan >> 8) & 0xFFFF;
        // SAFETY: id < PLANS (the table holds only valid ids); 16 aligned bytes.
        let shuffle = unsafe { _mm_load_si128(SHUFFLES.0[id].as_ptr().cast()) };
        let x = _mm_shuffle_epi8(input, shuffle);
        if id < SHORT_6 {
            // SAFETY: 4 lanes from `written` are in room (see above).
            unsafe { _mm_storeu_si128(dst.cast(), long_lanes(x)) };
        } else {
            let cps = _mm_maddubs_epi16(
                _mm_and_si128(x, _mm_set1_epi16(0x1F7F)),
                _mm_set1_epi16(0x4001),
            );
            // SAFETY: 8 lanes from `written` are in room (see above).
            unsafe {
                _mm_storeu_si128(dst.cast(), _mm_cvtepu16_epi32(cps));
                _mm_storeu_si128(
                    dst.add(4).cast(),
                    _mm_cvtepu16_epi32(_mm_srli_si128::<8>(cps)),
                );
            }
        }
        let consumed = plan & 0xFF;
        ends >>= consumed;
        at += consumed;
        pos += consumed;
        written += plan >> 24;
    }
    (pos, written)
}

/// Decodes the valid stretch `src[pos..end)` one character at a time, as far
/// as `cap` allows. Returns the new `(pos, written)`.
///
/// # Safety
/// `out` points to `cap` writable code points, and `written <= cap`.
unsafe fn finish(
    src: &[u8],
    mut pos: usize,
    end: usize,
    out: *mut u32,
    mut written: usize,
    cap: usize,
) -> (usize, usize) {
    while pos < end && written < cap {
        let lead = src[pos];
        let (n, mut cp) = match lead {
            0x00..=0x7F => (1, lead as u32),
            0x80..=0xDF => (2, (lead & 0x1F) as u32),
            0xE0..=0xEF => (3, (lead & 0x0F) as u32),
            _ => (4, (lead & 0x07) as u32),
        };
        for &b in &src[pos + 1..pos + n] {
            cp = cp << 6 | (b & 0x3F) as u32;
        }
        // SAFETY: written < cap.
        unsafe { out.add(written).write(cp) };
        written += 1;
        pos += n;
    }
    (pos, written)
}

/// Decodes the longest valid prefix of `src`, stopping at a character
/// boundary before the first error or when `out` is full.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// code points.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    let len = src.len();
    let (mut pos, mut written) = (0, 0);
    let mut checked = 0;
    let mut prev = _mm_setzero_si128();
    loop {
        // Validate the next chunk.
        let chunk_end = (checked + CHUNK).min(len);
        let mut error = None;
        while checked + 64 <= chunk_end {
            // SAFETY: bytes checked..checked+64 are in bounds.
            let four = unsafe { load_four(src, checked) };
            if !four_valid(four, prev) {
                break; // Found one block at a time below.
            }
            prev = four[3];
            checked += 64;
        }
        while checked < chunk_end {
            let block = load_block(src, checked);
            let bad = if non_ascii(block) == 0 {
                if ends_incomplete(prev) {
                    Some(checked)
                } else {
                    None
                }
            } else {
                match flagged_bytes(check_block(block, prev)) {
                    0 => None,
                    f => Some(checked + f.trailing_zeros() as usize),
                }
            };
            if let Some(e) = bad {
                error = Some(e.min(len));
                break;
            }
            prev = block;
            checked += 16;
        }
        let last = error.is_some() || checked >= len;
        if last && error.is_none() && ends_incomplete(prev) {
            error = Some(len);
        }
        // Everything before `end` is complete and valid: up to the restart
        // point of an error, or short of a character the chunk may cut.
        let end = match error {
            Some(e) => restart_point(src, e),
            None if last => len,
            None => restart_point(src, checked),
        };
        debug_assert!(end >= pos, "restart points never move back");
        let end = end.max(pos);
        let fits = cap - written >= end - pos;
        if fits {
            // SAFETY: src[pos..end) is valid from a boundary; room for end - pos.
            (pos, written) = unsafe { steps(src, pos, end, out, written) };
        }
        if last || !fits {
            // SAFETY: `out` has `cap` code points and written <= cap.
            let (read, written) = unsafe { finish(src, pos, end, out, written, cap) };
            return FastStop {
                read,
                written,
                flagged: if read == end { error } else { None },
            };
        }
    }
}
