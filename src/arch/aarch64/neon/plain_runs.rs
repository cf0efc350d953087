//! Runs of plain ASCII for NEON's stopping decoders (`generic::stopping`):
//! whole 16-byte blocks of bytes 01..7F, or 00..7F when 00 is not a stop,
//! widened to code points (to UTF-16 units, `widen` has the loop, over
//! [`plain_groups`]) in one pass, as x86's `plain_runs` does for AVX2 and
//! SSE4.2.
//!
//! Blocks are tested four at a time while there are four (one test per 64
//! bytes, as on SSE4.2, where testing each block alone decoded Latin text
//! at 0.63x), then one at a time. A group is plain when its signed minimum
//! is above 0 (with `ZERO`: no byte is 00 or >= 80) or its OR has no high
//! bit (without).

use core::arch::aarch64::*;

use super::lanes::{pin, WIDEN};

/// Two blocks folded into one that is plain only if both are.
#[inline(always)]
pub(super) fn join<const ZERO: bool>(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: register operations (NEON is baseline on aarch64).
    unsafe {
        if ZERO {
            vreinterpretq_u8_s8(vminq_s8(vreinterpretq_s8_u8(a), vreinterpretq_s8_u8(b)))
        } else {
            vorrq_u8(a, b)
        }
    }
}

/// Whether the 16 bytes of `v` (or the blocks [`join`]ed into it) are
/// plain.
#[inline(always)]
pub(super) fn plain<const ZERO: bool>(v: uint8x16_t) -> bool {
    // SAFETY: register operations.
    unsafe {
        if ZERO {
            vminvq_s8(vreinterpretq_s8_u8(v)) > 0
        } else {
            // UMAXV over four 32-bit lanes is cheaper than over sixteen
            // bytes; the high bits survive it if any byte has one.
            vmaxvq_u32(vreinterpretq_u32_u8(vandq_u8(v, vdupq_n_u8(0x80)))) == 0
        }
    }
}

/// Passes each block of the whole plain 64-byte groups at the start of
/// `src[..limit]` to `widen` (its offset and bytes), one test a group;
/// returns how many bytes they hold.
///
/// # Safety
/// `limit <= src.len()`, and `widen(i, _)` is sound for every `i` with
/// `i + 16 <= limit`.
#[inline(always)]
pub(super) unsafe fn plain_groups<const ZERO: bool>(
    src: &[u8],
    limit: usize,
    widen: impl Fn(usize, uint8x16_t),
) -> usize {
    let ptr = src.as_ptr();
    // SAFETY: the loop passes offsets `i` with `i + 64 <= limit <=
    // src.len()`.
    let load = |i: usize| unsafe { vld1q_u8(ptr.add(i)) };
    let mut i = 0;
    while limit - i >= 64 {
        let (a, b, c, d) = (load(i), load(i + 16), load(i + 32), load(i + 48));
        if !plain::<ZERO>(join::<ZERO>(join::<ZERO>(a, b), join::<ZERO>(c, d))) {
            break;
        }
        widen(i, a);
        widen(i + 16, b);
        widen(i + 32, c);
        widen(i + 48, d);
        i += 64;
    }
    i
}

/// Widens the whole plain 16-byte blocks at the start of `src` into the
/// `cap` code points at `out`, as far as they fit; returns how many bytes.
/// Each block takes four `TBL`s (the decoder's tables, zero-extending
/// four bytes each), where widening moves take six.
///
/// # Safety
/// `out` is valid for `cap` code points.
unsafe fn scalar_blocks<const ZERO: bool>(src: &[u8], out: *mut u32, cap: usize) -> usize {
    let limit = src.len().min(cap);
    let ptr = src.as_ptr();
    // SAFETY: each table is 16 readable bytes. (Pinned: the compiler
    // would otherwise load them again on the path that takes a block.)
    let t = unsafe {
        [
            pin(vld1q_u8(WIDEN[0].as_ptr())),
            pin(vld1q_u8(WIDEN[1].as_ptr())),
            pin(vld1q_u8(WIDEN[2].as_ptr())),
            pin(vld1q_u8(WIDEN[3].as_ptr())),
        ]
    };
    // SAFETY (both closures): the loops below pass offsets `i` with
    // `i + 16 <= limit`, so bytes i..i+16 lie in `src` and code points
    // i..i+16 in the `cap` at `out`.
    let load = |i: usize| unsafe { vld1q_u8(ptr.add(i)) };
    let widen = |i: usize, v: uint8x16_t| unsafe {
        vst1q_u8(out.add(i).cast(), vqtbl1q_u8(v, t[0]));
        vst1q_u8(out.add(i + 4).cast(), vqtbl1q_u8(v, t[1]));
        vst1q_u8(out.add(i + 8).cast(), vqtbl1q_u8(v, t[2]));
        vst1q_u8(out.add(i + 12).cast(), vqtbl1q_u8(v, t[3]));
    };
    // SAFETY: `widen` is sound for those offsets (above).
    let mut i = unsafe { plain_groups::<ZERO>(src, limit, widen) };
    while limit - i >= 16 {
        let v = load(i);
        if !plain::<ZERO>(v) {
            break;
        }
        widen(i, v);
        i += 16;
    }
    i
}

/// [`scalar_blocks`], 00 a stop if `zero`: a `generic::stopping::PlainScalars`.
///
/// # Safety
/// As [`scalar_blocks`].
pub(super) unsafe fn scalars(src: &[u8], out: *mut u32, cap: usize, zero: bool) -> usize {
    // SAFETY: the caller's promises.
    unsafe {
        if zero {
            scalar_blocks::<true>(src, out, cap)
        } else {
            scalar_blocks::<false>(src, out, cap)
        }
    }
}
