//! UTF-16 to UTF-8, 8 units a step.
//!
//! # Algorithm
//!
//! Each step takes blocks of 8 units by the cheapest path that holds for
//! all of them, in loops of their own per kind ([`runs`]):
//!
//! * **Below U+0800**, ASCII or not, 16 units a step: 16-bit pairs
//!   (`110xxxxx 10xxxxxx`, or the unit and a zero byte) packed by a table
//!   keyed by which take 2 bytes (the UCS-4 encoder's `encode8_words`).
//!   Sixteen ASCII units are narrowed with one pack instead, and a longer
//!   run 32 units a test; but ASCII between Latin-1 letters stays on the
//!   pair path, as branching to the ASCII path and back costs more.
//! * **Any other BMP unit**, two blocks a step: the byte layout of
//!   simdutf's UTF-16 encoder, each unit's bytes in a 4-byte slot built with
//!   one shuffle and one `maddubs`; each half of four slots is packed by a
//!   table keyed by the lengths in unary (from two saturating adds), so that
//!   a half's length is 4 plus a population count (one fixed pattern when
//!   all eight take 3 bytes).
//! * **Surrogates** ([`mod@surrogates`]): four pairs (emoji text) are joined and
//!   encoded in 32-bit lanes with no table; other blocks go 4 units a step
//!   in 32-bit lanes, pairs joined in place and their low halves' lanes
//!   dropped by a table shuffle, through the UCS-4 encoder's lane block
//!   (one character at a time in the last 8 units, as are the last units of
//!   the input, by `units::encode_units_in`). An unpaired surrogate
//!   stops the kernel and is flagged for the reference core, which applies the
//!   caller's policy to it; a high surrogate that ends the input is left to
//!   the reference core unflagged (with more input to come it is incomplete).
//!
//! A block is stored as whole vectors, up to 8 bytes past its output (12
//! for the first of two blocks, which the second covers), only when the
//! next block surely follows: it is whole, has no surrogate, and fits the
//! output after this one; it then writes 8 bytes or more over those.
//! Otherwise the block is stored exactly. So when the kernel returns, no
//! byte past `written` has changed. Output that does not fit is left to the
//! reference core.
//!
//! # CESU-8 and Modified UTF-8
//!
//! With the mode as a const parameter ([`encode_utf16_cesu`]), each half
//! of a pair is written as the 3-byte form of its unit value, which is
//! what the BMP block does with any unit of U+0800 or more: a block whose
//! surrogates all pair within it (its high-surrogate mask, shifted by one
//! unit, is its low-surrogate mask) takes the BMP path as CJK text does,
//! and "no surrogate" reads "no surrogate the BMP path cannot take" in
//! every test above, the store rule included. Any other block with a
//! surrogate (an unpaired one, or a high one in its last unit, whose pair
//! it would split) is written one character at a time
//! (`units::encode_units_in`, which stops before an unpaired surrogate and
//! ends after a pair that crosses the block's end, so the blocks after it
//! are aligned to the pairs). For Modified UTF-8 a 0 unit (C0 80) is not
//! ASCII nor below U+0800 for these tests, and its block takes that path
//! too.

mod runs;
mod surrogates;

use core::arch::x86_64::*;

use super::super::units::{encode_units_in, Units};
use crate::contract::{FastStop, Mode};
use runs::{bmp_run, short_block, short_run};
use surrogates::{four_pairs, step4, Step};

crate::arch::generic::encode_utf16::utf16_encoder_entries!("ssse3,sse4.1,popcnt");

fn set16(v: u16) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set1_epi16(v as i16) }
}

/// 8 units from `src[i..]` in native order.
///
/// # Safety
/// Units `i..i+8` are in bounds.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn load8<const SWAP: bool>(src: &[u16], i: usize) -> __m128i {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast()) };
    if SWAP {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    }
}

/// Whether no unit of `words` has a bit of `mask` set.
#[target_feature(enable = "sse4.1")]
#[inline]
fn none_of(words: __m128i, mask: u16) -> bool {
    _mm_testz_si128(words, set16(mask)) == 1
}

/// Whether any unit of `words` is a surrogate.
#[target_feature(enable = "sse4.1")]
#[inline]
fn any_surrogate(words: __m128i) -> bool {
    let hit = _mm_cmpeq_epi16(_mm_and_si128(words, set16(0xF800)), set16(0xD800));
    _mm_testz_si128(hit, hit) == 0
}

/// Whether no unit of `a` or `b` is 0 (always, but for Modified UTF-8,
/// which writes it as C0 80).
#[target_feature(enable = "sse4.1")]
#[inline]
fn no_zero<const MODE: u8>(a: __m128i, b: __m128i) -> bool {
    if MODE != Mode::MUTF8 {
        return true;
    }
    let hit = _mm_cmpeq_epi16(_mm_min_epu16(a, b), _mm_setzero_si128());
    _mm_testz_si128(hit, hit) == 1
}

/// Whether no unit of `words` has a bit of `mask` set, and none is 0 in
/// Modified UTF-8: all of them take `MODE`'s short forms.
#[target_feature(enable = "sse4.1")]
#[inline]
fn short<const MODE: u8>(words: __m128i, mask: u16) -> bool {
    none_of(words, mask) && no_zero::<MODE>(words, words)
}

/// Whether the BMP block writes the 8 units in `MODE`: they have no
/// surrogate; or, in CESU-8 and Modified UTF-8, every surrogate pairs with
/// its neighbour in the block (each half is then its unit's 3-byte form).
#[target_feature(enable = "sse4.1")]
#[inline]
fn bmp<const MODE: u8>(words: __m128i) -> bool {
    if !any_surrogate(words) {
        return no_zero::<MODE>(words, words);
    }
    if MODE == Mode::UTF8 {
        return false;
    }
    let kind = _mm_and_si128(words, set16(0xFC00));
    let of = |k: u16| _mm_movemask_epi8(_mm_cmpeq_epi16(kind, set16(k))) as u32;
    // Two bits a unit: a low surrogate exactly after each high one, and
    // none in the last unit.
    of(0xD800) << 2 == of(0xDC00) && no_zero::<MODE>(words, words)
}

#[target_feature(enable = "ssse3,sse4.1,popcnt")]
unsafe fn encode<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let len = src.len();
    let (mut pos, mut written) = (0usize, 0usize);
    // A block takes 24 bytes at most; with less room left, the reference core
    // writes what fits.
    while len - pos >= 8 && cap - written >= 24 {
        // SAFETY: units pos..pos+8 are in bounds.
        let a = unsafe { load8::<SWAP>(src, pos) };
        if short::<MODE>(a, 0xF800) {
            // SAFETY: `out` has `cap` bytes.
            let (p, w) = unsafe { short_run::<SWAP, MODE>(src, pos, out, cap, written) };
            if p == pos {
                // Too close to the end for the run: this block alone.
                // SAFETY: 24 bytes of room (the loop's condition).
                let n = unsafe { short_block(a, out.add(written)) };
                (pos, written) = (pos + 8, written + n);
            } else {
                (pos, written) = (p, w);
            }
            continue;
        }
        if bmp::<MODE>(a) {
            // SAFETY: the block is whole and `bmp`; 24 bytes free.
            (pos, written) = unsafe { bmp_run::<SWAP, MODE>(src, pos, out, cap, written) };
            continue;
        }
        if MODE != Mode::UTF8 {
            // An unpaired surrogate, a pair the block would split, or (in
            // Modified UTF-8) a 0 unit: one character at a time.
            // SAFETY: `out` has `cap` bytes, written <= cap.
            match unsafe { encode_units_in::<SWAP, MODE>(src, pos, pos + 8, out, cap, written) } {
                Units::Done(p, w) => (pos, written) = (p, w),
                Units::Stop(stop) => return stop,
            }
            continue;
        }
        let start = pos;
        while len - pos >= 8 && cap - written >= 16 {
            // SAFETY: units pos..pos+8 are in bounds.
            let Some(bytes) = four_pairs(unsafe { load8::<SWAP>(src, pos) }) else {
                break;
            };
            // SAFETY: 16 bytes of room (checked above).
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            (pos, written) = (pos + 8, written + 16);
        }
        if pos != start {
            continue;
        }
        if len - pos < 9 {
            // SAFETY: `out` has `cap` bytes, written <= cap.
            match unsafe { encode_units_in::<SWAP, MODE>(src, pos, pos + 8, out, cap, written) } {
                Units::Done(p, w) => (pos, written) = (p, w),
                Units::Stop(stop) => return stop,
            }
            continue;
        }
        // Two steps of 4; with `carry`, the unit after a step is the low
        // half of a pair it wrote.
        let mut carry = false;
        for base in [pos, pos + 4] {
            // SAFETY: units base..base+5 are in bounds (pos + 9 <= len);
            // `out + written` has `cap - written` bytes.
            let step = unsafe {
                let at = out.add(written);
                step4::<SWAP>(src, base, at, cap - written, &mut written, carry)
            };
            match step {
                Step::Read { carry: c } => carry = c,
                Step::Unpaired(k) => {
                    return FastStop {
                        read: base + k,
                        written,
                        flagged: Some(base + k),
                    }
                }
                Step::Full => {
                    return FastStop {
                        read: base + usize::from(carry),
                        written,
                        flagged: None,
                    }
                }
            }
        }
        pos += 8 + usize::from(carry);
    }
    // The last 7 units or fewer, or the last 23 bytes of room or fewer.
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
