//! The UTF-8 size of well-formed UTF-16, 32 units a step: the SSE4.2
//! kernel's tests (`x86_64/sse/sizes.rs`) in NEON.
//!
//! A unit takes 1 byte, 1 more from U+0080, 1 more from U+0800, and 1 less
//! for a surrogate (a pair makes 4). The first two are `CMTST` (some bit
//! of a mask set), the surrogate a mask and a compare; each gives -1 where
//! it holds, and their sum (0, -1 or -2 a unit) is subtracted from an
//! unsigned 16-bit counter of the extra bytes.
//!
//! Byte-swapped input needs no `REV16`: a test of the swapped unit is the
//! same test of the unit as it lies, with its mask and value swapped.
//!
//! Four counters take 8 units each, so that the adds of one step do not
//! wait on each other; each is summed into the total (`UADDLV`) before a
//! lane, rising by at most 2 a step, could pass 65535.

use core::arch::aarch64::*;

use super::lanes::pin;

/// Steps of 32 units between sums: a lane rises by at most 2 a step.
const FOLD_STEPS: usize = 16384;

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

/// A 16-bit constant for units read in the order `SWAP` says.
#[inline(always)]
const fn word<const SWAP: bool>(v: u16) -> u16 {
    if SWAP {
        v.swap_bytes()
    } else {
        v
    }
}

/// The tests' masks and value, in the order `SWAP` says, made once and
/// hidden from the compiler (`lanes::pin`): seeing the swapped mask 0x80FF
/// as a constant, it tests with a `BIC` of 0x7F00 and a copy instead.
struct Tests {
    from_80: uint16x8_t,
    from_800: uint16x8_t,
    surrogate: uint16x8_t,
}

impl Tests {
    #[inline(always)]
    fn new<const SWAP: bool>() -> Tests {
        let w = |v: u16| {
            // SAFETY: register operations; NEON is baseline on aarch64.
            unsafe { vreinterpretq_u16_u8(pin(vreinterpretq_u8_u16(vdupq_n_u16(word::<SWAP>(v))))) }
        };
        Tests {
            from_80: w(0xFF80),
            from_800: w(0xF800),
            surrogate: w(0xD800),
        }
    }

    /// `extra` plus the extra bytes of 8 units (0, 1 or 2 each).
    #[inline(always)]
    fn more(&self, units: uint16x8_t, extra: uint16x8_t) -> uint16x8_t {
        // SAFETY: register operations; NEON is baseline on aarch64.
        unsafe {
            let from_80 = vtstq_u16(units, self.from_80);
            let from_800 = vtstq_u16(units, self.from_800);
            let surrogate = vceqq_u16(vandq_u16(units, self.from_800), self.surrogate);
            // Minus the unit's extra bytes: -1 for each test that holds.
            let minus = vsubq_u16(vaddq_u16(from_80, from_800), surrogate);
            vsubq_u16(extra, minus)
        }
    }
}

/// The sum of a counter's lanes.
#[inline(always)]
fn fold(extra: uint16x8_t) -> usize {
    // SAFETY: a register operation; NEON is baseline on aarch64.
    unsafe { vaddlvq_u16(extra) as usize }
}

fn utf8_len<const SWAP: bool>(src: &[u16]) -> usize {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut extra = 0usize;
    let mut i = 0;
    // SAFETY: a register operation; NEON is baseline on aarch64.
    let zero = unsafe { vdupq_n_u16(0) };
    let tests = Tests::new::<SWAP>();
    while len - i >= 32 {
        let end = i + (len - i).min(32 * FOLD_STEPS) / 32 * 32;
        let (mut a, mut b, mut c, mut d) = (zero, zero, zero, zero);
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
            a = tests.more(ua, a);
            b = tests.more(ub, b);
            c = tests.more(uc, c);
            d = tests.more(ud, d);
            i += 32;
        }
        extra += fold(a) + fold(b) + fold(c) + fold(d);
    }
    while len - i >= 8 {
        // SAFETY: units i..i+8 are in bounds.
        let units = unsafe { vld1q_u16(ptr.add(i)) };
        extra += fold(tests.more(units, zero));
        i += 8;
    }
    let tail = src[i..].iter().map(|&u| {
        let u = if SWAP { u.swap_bytes() } else { u };
        1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) - usize::from(u & 0xF800 == 0xD800)
    });
    // 1 byte a unit plus the extra ones.
    i + extra + tail.sum::<usize>()
}
