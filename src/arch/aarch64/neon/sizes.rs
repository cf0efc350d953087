//! The UTF-8 size of well-formed UTF-16, 32 units a step.
//!
//! A unit takes 1 byte, 1 more from U+0080, 1 more from U+0800, and 1 less
//! for a surrogate (a pair makes 4). The first two follow from the unit's
//! leading zeros (`CLZ` on 16-bit lanes: 9 or more below U+0080, 5 to 8
//! below U+0800, 4 or fewer above), which a `TBL` of 16 bytes turns into
//! the extra bytes, 0, 1 or 2 (a zero unit's 16 is past the table, which
//! gives 0 too). The leading-zero counts of 16 units fit in one vector of
//! bytes (`UZP1` keeps their low bytes), and so do their high bytes
//! (`UZP2`), where a surrogate is `D8..DF`: one mask and one compare for
//! 16 units. Two counters take 16 units each; a step adds the extras and
//! the surrogates' -1 in their byte lanes, so a lane moves by -1 to 2 a
//! step, and the lanes are summed (`SADDLV`) every 63 steps, before one
//! could leave -128..127. Against the SSE4.2 kernel's three tests a unit on 16-bit
//! lanes (`x86_64/sse/sizes.rs`), 33 instructions per 32 units became 24.
//!
//! Byte-swapped input is swapped back first (`REV16`), which is cheaper
//! than swapping the table's meaning.

use core::arch::aarch64::*;

use super::lanes::pin;

/// Steps of 32 units between sums: a byte lane moves by -1 to 2 a step.
const FOLD_STEPS: usize = 63;

/// The extra UTF-8 bytes of a unit, by its leading zeros (16 and more are
/// past the table and give 0).
const EXTRA: [u8; 16] = [2, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];

/// UTF-8 bytes for well-formed UTF-16 `src` (byte-swapped with `swap`).
///
/// # Safety
/// None beyond the kernel contract: NEON is baseline on aarch64.
pub(super) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    if swap {
        utf8_len::<true>(src)
    } else {
        utf8_len::<false>(src)
    }
}

/// The constants of a step, made once.
struct Tests {
    extra: uint8x16_t,
    high_mask: uint8x16_t,
    high_surrogate: uint8x16_t,
}

impl Tests {
    #[inline(always)]
    fn new() -> Tests {
        // SAFETY: EXTRA is 16 readable bytes; register operations (NEON is
        // baseline on aarch64). Pinned, so that the loop keeps them in
        // registers.
        unsafe {
            Tests {
                extra: pin(vld1q_u8(EXTRA.as_ptr())),
                high_mask: pin(vdupq_n_u8(0xF8)),
                high_surrogate: pin(vdupq_n_u8(0xD8)),
            }
        }
    }

    /// `acc` plus, in each byte lane, the extra bytes of one unit of `a`
    /// (lanes 0-7) or `b` (lanes 8-15) less 1 for a surrogate.
    #[inline(always)]
    fn add<const SWAP: bool>(&self, a: uint16x8_t, b: uint16x8_t, acc: int8x16_t) -> int8x16_t {
        // SAFETY: register operations; NEON is baseline on aarch64.
        unsafe {
            let (a, b) = if SWAP {
                (
                    vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(a))),
                    vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(b))),
                )
            } else {
                (a, b)
            };
            let zeros = vuzp1q_u8(
                vreinterpretq_u8_u16(vclzq_u16(a)),
                vreinterpretq_u8_u16(vclzq_u16(b)),
            );
            let extra = vqtbl1q_u8(self.extra, zeros);
            let high = vuzp2q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b));
            let surrogate = vceqq_u8(vandq_u8(high, self.high_mask), self.high_surrogate);
            let acc = vaddq_s8(acc, vreinterpretq_s8_u8(extra));
            vaddq_s8(acc, vreinterpretq_s8_u8(surrogate))
        }
    }
}

#[inline(always)]
fn utf8_len<const SWAP: bool>(src: &[u16]) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut extra = 0isize;
    let mut i = 0;
    let tests = Tests::new();
    // SAFETY: a register operation; NEON is baseline on aarch64.
    let zero = unsafe { vdupq_n_s8(0) };
    while len - i >= 32 {
        let end = i + (len - i).min(32 * FOLD_STEPS) / 32 * 32;
        let (mut x, mut y) = (zero, zero);
        while i < end {
            // SAFETY: units i..i+32 are in bounds (i + 32 <= end <= len).
            let [ua, ub, uc, ud] = unsafe {
                let p = ptr.add(i);
                [
                    vld1q_u16(p),
                    vld1q_u16(p.add(8)),
                    vld1q_u16(p.add(16)),
                    vld1q_u16(p.add(24)),
                ]
            };
            x = tests.add::<SWAP>(ua, ub, x);
            y = tests.add::<SWAP>(uc, ud, y);
            i += 32;
        }
        // SAFETY: register operations; NEON is baseline on aarch64.
        extra += unsafe { isize::from(vaddlvq_s8(x)) + isize::from(vaddlvq_s8(y)) };
    }
    let tail = src[i..].iter().map(|&u| {
        let u = if SWAP { u.swap_bytes() } else { u };
        1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) - usize::from(u & 0xF800 == 0xD800)
    });
    // Every unit takes a byte or more, so the sum is at least `i`.
    (i as isize + extra) as usize + tail.sum::<usize>()
}
