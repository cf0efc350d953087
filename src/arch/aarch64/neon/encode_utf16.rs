//! UTF-16 to UTF-8 (and to CESU-8 and Modified UTF-8) on NEON, 16 units a
//! step.
//!
//! # Algorithm
//!
//! [`encode_utf16`] loads 16 units (one `LD1` of two registers, byte-swapped
//! with `REV16` for the other byte order), takes their largest (`UMAX`,
//! `UMAXV`) and, when that reaches the surrogates, the smallest of
//! `unit - 0xD800` (`SUB`, `UMIN`, `UMINV`: below 0x800 means a surrogate).
//! It then runs the cheapest path that holds for all 16:
//!
//! * **ASCII** (all < 0x80): the low byte of each unit (`UZP1`), one exact
//!   16-byte store; then, while the run lasts, 32 units a test (one `ORR`
//!   of four vectors, a mask of the bits ASCII lacks, `UMAXV`) and one exact
//!   32-byte store (not in Modified UTF-8, whose 0 unit is not ASCII).
//! * **One or two bytes** (all < 0x800): the UCS-4 encoder's 2-byte path
//!   (`encode_ucs4::short16`): each word becomes `110xxxxx 10xxxxxx` or stays
//!   ASCII, and a `TBL` pattern keyed by which words take two bytes packs
//!   the used bytes, 8 words a vector.
//! * **Up to three bytes** (no surrogate): the UCS-4 encoder's BMP path
//!   (`encode_ucs4::bmp16`): each word's bytes spread over two vectors, packed by
//!   two-register `TBL` patterns keyed by four words' lengths.
//! * **Surrogates** (any in the block): the block is written one character
//!   at a time ([`units`]), pairs joined; a pair that starts in the block's
//!   last unit is taken whole (so the next block starts after it, a pair is
//!   never split). An unpaired surrogate stops the kernel and is flagged
//!   for the reference core, which applies the caller's policy to it; a high
//!   surrogate that ends the input stops it unflagged (with more input to
//!   come it may be paired: the reference core decides).
//!
//! The last 15 units or fewer, and anything once the room is short, are
//! written one character at a time too, exactly where the room ends.
//!
//! # Never leaving a byte past `written`
//!
//! The packed vectors of the 2- and 3-byte paths are stored whole, 16
//! bytes each: a step's stores reach up to 12 bytes past its output. Bytes
//! at or past the returned `written` must be left as they were, so such a
//! step runs only when those bytes are certain to be overwritten before the
//! kernel returns: when the next 16 units have no surrogate and the output
//! has room for both blocks ([`STEP_ROOM`]). The next block is then written
//! whole by whichever path takes it (a vector step, which starts its
//! stores at the first garbage byte, or the character loop, which cannot
//! stop in it), 16 bytes or more over the at most 12 of excess. Otherwise
//! the block goes through the character loop, which writes exactly. As in
//! the UCS-4 encoder, the non-ASCII steps run in a loop that carries the
//! next block, loaded and checked once, to the following step.
//!
//! # CESU-8 and Modified UTF-8
//!
//! With the mode as a const parameter ([`encode_utf16_cesu`]), only the
//! character loop differs: it writes each half of a pair as the 3-byte form
//! of its unit value, and for Modified UTF-8 a 0 unit as C0 80. A block
//! with a 0 unit does not take the vector paths in Modified UTF-8 (the
//! smallest unit tells), and goes through the character loop.

use core::arch::aarch64::*;

use super::encode_ucs4::{bmp16, short16};
use crate::arch::generic::units::{encode_units_in, Units};
use crate::contract::{FastStop, Mode};

/// Output room a vector step needs: its own output (at most 48 bytes,
/// whose stores reach at most 12 bytes further) and the next block's (at
/// most 48 bytes), so that all 16 next units (16 bytes or more) are
/// written over the step's excess.
const STEP_ROOM: usize = 96;

/// Sixteen units in native order and what the paths need to know of them.
#[derive(Clone, Copy)]
struct Block {
    lo: uint16x8_t,
    hi: uint16x8_t,
    /// The largest unit.
    max: u16,
    /// Whether a unit is a surrogate.
    surrogate: bool,
    /// Whether the vector paths can write all 16 units in `MODE`: no
    /// surrogate, and in Modified UTF-8 no 0 unit.
    plain: bool,
}

/// Units `i..i+16` of `src`, byte-swapped with `SWAP`.
///
/// # Safety
/// `i + 16 <= src.len()`.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn load<const SWAP: bool, const MODE: u8>(src: &[u16], i: usize) -> Block {
    // SAFETY: units i..i+16 are in bounds (the caller's promise).
    let v = unsafe { vld1q_u16_x2(src.as_ptr().add(i)) };
    let (lo, hi) = if SWAP {
        let swap = |u| vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(u)));
        (swap(v.0), swap(v.1))
    } else {
        (v.0, v.1)
    };
    let max = vmaxvq_u16(vmaxq_u16(lo, hi));
    let surrogate = max >= 0xD800 && {
        let base = vdupq_n_u16(0xD800);
        vminvq_u16(vminq_u16(vsubq_u16(lo, base), vsubq_u16(hi, base))) < 0x800
    };
    let zero = MODE == Mode::MUTF8 && vminvq_u16(vminq_u16(lo, hi)) == 0;
    Block {
        lo,
        hi,
        max,
        surrogate,
        plain: !surrogate && !zero,
    }
}

/// Writes the ASCII run at `src[pos..]`, 32 units a test, exact 32-byte
/// stores; returns where it ended and the bytes written so far. In
/// Modified UTF-8 a 0 unit (two bytes, C0 80) ends the run too.
///
/// # Safety
/// `out` points to `cap` writable bytes; `written <= cap`.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn ascii_run<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    mut pos: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    // The bits that are 0 in an ASCII unit, as loaded (swapped or not).
    let high = vdupq_n_u16(if SWAP { 0x80FF } else { 0xFF80 });
    while src.len() - pos >= 32 && cap - written >= 32 {
        // SAFETY: units pos..pos+32 are in bounds (the loop condition).
        let v = unsafe { vld1q_u16_x4(src.as_ptr().add(pos)) };
        let any = vorrq_u16(vorrq_u16(v.0, v.1), vorrq_u16(v.2, v.3));
        if vmaxvq_u16(vandq_u16(any, high)) != 0 {
            break;
        }
        if MODE == Mode::MUTF8
            && vminvq_u16(vminq_u16(vminq_u16(v.0, v.1), vminq_u16(v.2, v.3))) == 0
        {
            break;
        }
        let bytes = |a, b| {
            let (a, b) = (vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b));
            // Each unit's low byte: its first byte as loaded, or with SWAP
            // its second.
            if SWAP {
                vuzp2q_u8(a, b)
            } else {
                vuzp1q_u8(a, b)
            }
        };
        let bytes = uint8x16x2_t(bytes(v.0, v.1), bytes(v.2, v.3));
        // SAFETY: 32 bytes of room at `written` (the loop condition).
        unsafe { vst1q_u8_x2(out.add(written), bytes) };
        pos += 32;
        written += 32;
    }
    (pos, written)
}

/// Encodes a block that is `plain` and not all ASCII at `out`; returns the
/// bytes written, whose stores reach at most 12 bytes further.
///
/// # Safety
/// `out` has room for 60 bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn step(b: Block, out: *mut u8) -> usize {
    // SAFETY: at most 48 bytes of output, stores reaching 12 bytes further
    // at most (8 for `short16`): within the 60 of room.
    unsafe {
        if b.max < 0x800 {
            short16(b.lo, b.hi, out)
        } else {
            bmp16(b.lo, b.hi, out)
        }
    }
}

#[target_feature(enable = "neon")]
unsafe fn encode<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let len = src.len();
    let (mut pos, mut written) = (0, 0);
    'blocks: while len - pos >= 16 {
        // SAFETY: units pos..pos+16 are in bounds (the loop condition).
        let mut b = unsafe { load::<SWAP, MODE>(src, pos) };
        if b.max < 0x80 && b.plain {
            if cap - written < 16 {
                break;
            }
            let bytes = vuzp1q_u8(vreinterpretq_u8_u16(b.lo), vreinterpretq_u8_u16(b.hi));
            // SAFETY: 16 bytes of room at `written`, checked above.
            unsafe { vst1q_u8(out.add(written), bytes) };
            pos += 16;
            written += 16;
            // SAFETY: `out` has `cap` bytes, written <= cap.
            (pos, written) = unsafe { ascii_run::<SWAP, MODE>(src, pos, out, cap, written) };
            continue;
        }
        // Vector steps, each while the next 16 units have no surrogate and
        // there is room for both blocks: the next block's output then
        // overwrites the step's excess (see the module docs).
        loop {
            if b.plain && len - pos >= 32 && cap - written >= STEP_ROOM {
                // SAFETY: units pos+16..pos+32 are in bounds (checked above).
                let next = unsafe { load::<SWAP, MODE>(src, pos + 16) };
                if !next.surrogate {
                    // SAFETY: STEP_ROOM >= 60 bytes of room at `written`;
                    // the block is plain and not all ASCII (else the outer
                    // loop took it).
                    written += unsafe { step(b, out.add(written)) };
                    pos += 16;
                    if next.max < 0x80 && next.plain {
                        continue 'blocks;
                    }
                    b = next;
                    continue;
                }
            }
            // This block exactly, one character at a time.
            // SAFETY: `out` has `cap` bytes, written <= cap.
            match unsafe { encode_units_in::<SWAP, MODE>(src, pos, pos + 16, out, cap, written) } {
                Units::Done(p, w) => (pos, written) = (p, w),
                Units::Stop(stop) => return stop,
            }
            continue 'blocks;
        }
    }
    // The last 15 units or fewer, or the last 15 bytes of room or fewer.
    // SAFETY: `out` has `cap` bytes, written <= cap.
    match unsafe { encode_units_in::<SWAP, MODE>(src, pos, len, out, cap, written) } {
        Units::Done(read, written) => FastStop {
            read,
            written,
            flagged: None,
        },
        Units::Stop(stop) => stop,
    }
}

crate::arch::generic::encode_utf16::utf16_encoder_entries!("neon");
