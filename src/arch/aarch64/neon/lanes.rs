//! [`Lanes`] for the NEON tier: the decoder's lane arithmetic with
//! multiply-subtracts, and its stores with widening moves.
//!
//! A lane holds a character's bytes last byte lowest, payload bits masked:
//! in each 16-bit half `lo + 256 * hi` becomes `lo + 64 * hi`, which is
//! `v - 192 * (v >> 8)`, one `MLS`; in a 32-bit lane the two halves join
//! the same way, `v - 61440 * (v >> 16)`.

use core::arch::aarch64::*;

use super::vector::{leads, Neon};
use crate::arch::generic::lanes::Lanes;
use crate::arch::generic::tables::PAIR_UNITS;

/// `units` (bytes of 16-bit units) in the byte order asked for.
#[inline(always)]
fn order<const SWAP: bool>(units: uint8x16_t) -> uint8x16_t {
    if SWAP {
        // SAFETY: NEON is baseline on aarch64.
        unsafe { vrev16q_u8(units) }
    } else {
        units
    }
}

/// `v`, through an empty assembly statement that the compiler must run
/// where it stands (not pure, so not hoisted out of an outer loop either).
#[inline(always)]
pub(super) fn pin(v: uint8x16_t) -> uint8x16_t {
    let mut v = v;
    // SAFETY: an empty assembly statement, which reads and writes nothing
    // but the register it is given.
    unsafe {
        core::arch::asm!("/* {0:v} */", inout(vreg) v, options(nomem, nostack, preserves_flags));
    }
    v
}

/// `TBL` indices that zero-extend bytes `4k..4k+4` to 32-bit lanes (0xFF
/// gives 0).
pub(super) const WIDEN: [[u8; 16]; 4] = [widen(0), widen(4), widen(8), widen(12)];

const fn widen(first: u8) -> [u8; 16] {
    let mut t = [0xFF; 16];
    let mut k = 0;
    while k < 4 {
        t[4 * k] = first + k as u8;
        k += 1;
    }
    t
}

/// `TBL` indices over 32 bytes that gather, for each of eight 3-byte
/// characters, its last two bytes into a 16-bit lane (last byte lowest),
/// and its lead into the low byte of a lane.
const EIGHT_THREES: [[u8; 16]; 2] = {
    let mut t = [[0xFF; 16]; 2];
    let mut j = 0;
    while j < 8 {
        t[0][2 * j] = 3 * j as u8 + 2;
        t[0][2 * j + 1] = 3 * j as u8 + 1;
        t[1][2 * j] = 3 * j as u8;
        j += 1;
    }
    t
};

/// Joins each 16-bit lane's bytes, six payload bits in the low one.
#[inline(always)]
fn join16(v: uint16x8_t) -> uint16x8_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe { vmlsq_n_u16(v, vshrq_n_u16::<8>(v), 192) }
}

// SAFETY (every `unsafe` block below without its own comment): NEON is
// part of the aarch64 baseline; these are register operations.
impl Lanes for Neon {
    /// 0x1F7F, 0x073F_3F7F, 0x0040_0000, -192, -61440, 0x000F_3F3F, the
    /// four `TBL` indices that zero-extend bytes 0..4, 4..8, 8..12 and
    /// 12..16 to 32-bit lanes, 0x3F3F and the two [`EIGHT_THREES`].
    type Constants = [uint8x16_t; 13];

    #[inline(always)]
    unsafe fn constants() -> Self::Constants {
        unsafe {
            [
                vreinterpretq_u8_u16(vdupq_n_u16(0x1F7F)),
                vreinterpretq_u8_u32(vdupq_n_u32(0x073F_3F7F)),
                vreinterpretq_u8_u32(vdupq_n_u32(0x0040_0000)),
                vreinterpretq_u8_u16(vdupq_n_u16(192u16.wrapping_neg())),
                vreinterpretq_u8_u32(vdupq_n_u32(61440u32.wrapping_neg())),
                vreinterpretq_u8_u32(vdupq_n_u32(0x000F_3F3F)),
                vld1q_u8(WIDEN[0].as_ptr()),
                vld1q_u8(WIDEN[1].as_ptr()),
                vld1q_u8(WIDEN[2].as_ptr()),
                vld1q_u8(WIDEN[3].as_ptr()),
                vreinterpretq_u8_u16(vdupq_n_u16(0x3F3F)),
                vld1q_u8(EIGHT_THREES[0].as_ptr()),
                vld1q_u8(EIGHT_THREES[1].as_ptr()),
            ]
            .map(pin)
        }
    }

    #[inline(always)]
    fn pinned(self) -> Neon {
        Neon(pin(self.0))
    }

    #[inline(always)]
    fn short_lanes_with(self, k: &Self::Constants) -> Neon {
        Neon(unsafe {
            let v = vandq_u8(self.0, k[0]);
            let v = vreinterpretq_u16_u8(v);
            vreinterpretq_u8_u16(vmlaq_u16(
                v,
                vshrq_n_u16::<8>(v),
                vreinterpretq_u16_u8(k[3]),
            ))
        })
    }

    #[inline(always)]
    fn three_lanes_with(self, k: &Self::Constants) -> Neon {
        // A 3-byte lead's four bits, no stray bit to clear.
        Neon(unsafe {
            let h = vreinterpretq_u16_u8(vandq_u8(self.0, k[5]));
            let v = vmlaq_u16(h, vshrq_n_u16::<8>(h), vreinterpretq_u16_u8(k[3]));
            let v = vreinterpretq_u32_u16(v);
            vreinterpretq_u8_u32(vmlaq_u32(
                v,
                vshrq_n_u32::<16>(v),
                vreinterpretq_u32_u8(k[4]),
            ))
        })
    }

    #[inline(always)]
    unsafe fn eight_threes(p: *const u8, k: &Self::Constants) -> Neon {
        // The last two bytes join as in a short lane; `SLI` then puts the
        // lead's four payload bits on top (shifted by 12 in a 16-bit lane,
        // its other bits fall out).
        Neon(unsafe {
            // SAFETY: the caller's 32 readable bytes.
            let x = vld1q_u8_x2(p);
            let low = vandq_u8(vqtbl2q_u8(x, k[11]), k[10]);
            let lead = vreinterpretq_u16_u8(vqtbl2q_u8(x, k[12]));
            let low = vreinterpretq_u16_u8(low);
            let low = vmlaq_u16(low, vshrq_n_u16::<8>(low), vreinterpretq_u16_u8(k[3]));
            vreinterpretq_u8_u16(vsliq_n_u16::<12>(low, lead))
        })
    }

    #[inline(always)]
    fn long_lanes_with(self, k: &Self::Constants) -> Neon {
        Neon(unsafe {
            let x = self.0;
            let t = vandq_u8(x, k[1]);
            let stray = vshrq_n_u32::<1>(vreinterpretq_u32_u8(vandq_u8(x, k[2])));
            let h = vreinterpretq_u16_u8(veorq_u8(t, vreinterpretq_u8_u32(stray)));
            let v = vmlaq_u16(h, vshrq_n_u16::<8>(h), vreinterpretq_u16_u8(k[3]));
            let v = vreinterpretq_u32_u16(v);
            let r = vmlaq_u32(v, vshrq_n_u32::<16>(v), vreinterpretq_u32_u8(k[4]));
            vreinterpretq_u8_u32(r)
        })
    }

    #[inline(always)]
    fn short_lanes(self) -> Neon {
        // 0x1F7F keeps a 2-byte lead's five bits and the last byte's six
        // (a continuation byte's bit 6 is 0), or an ASCII byte whole.
        let v = unsafe { vandq_u16(vreinterpretq_u16_u8(self.0), vdupq_n_u16(0x1F7F)) };
        Neon(unsafe { vreinterpretq_u8_u16(join16(v)) })
    }

    #[inline(always)]
    fn long_lanes(self) -> Neon {
        // 0x07_3F_3F_7F keeps the payload bits, except that a 3-byte lead
        // in byte 2 keeps a stray bit 5, cleared by XOR with its own bit 6
        // (which a continuation byte lacks).
        Neon(unsafe {
            let x = vreinterpretq_u32_u8(self.0);
            let t = vandq_u32(x, vdupq_n_u32(0x073F_3F7F));
            let stray = vshrq_n_u32::<1>(vandq_u32(x, vdupq_n_u32(0x0040_0000)));
            let halves = join16(vreinterpretq_u16_u32(veorq_u32(t, stray)));
            let v = vreinterpretq_u32_u16(halves);
            vreinterpretq_u8_u32(vmlsq_n_u32(v, vshrq_n_u32::<16>(v), 61440))
        })
    }

    #[inline(always)]
    fn leads64(blocks: [Neon; 4]) -> u64 {
        // Each lead's FF keeps its byte's bit of 1, 2, .., 128; three rounds
        // of pairwise adds gather the 64 bits in order.
        const BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        unsafe {
            let bits = vld1q_u8(BITS.as_ptr());
            // (Pinned: knowing the bits disjoint, the compiler would make
            // each pairwise add three instructions, two `UZP` and an `ORR`.)
            let [a, b, c, d] = blocks.map(|v| pin(vandq_u8(leads(v.0), bits)));
            let ab = vpaddq_u8(a, b);
            let cd = vpaddq_u8(c, d);
            let abcd = vpaddq_u8(ab, cd);
            let all = vpadd_u8(vget_low_u8(abcd), vget_high_u8(abcd));
            vget_lane_u64::<0>(vreinterpret_u64_u8(all))
        }
    }

    #[inline(always)]
    unsafe fn ascii_ucs4(self, dst: *mut u32, k: &Self::Constants) {
        // Four `TBL`s, each zero-extending four bytes to four lanes (an
        // index of 0xFF gives 0), where widening moves take six.
        // SAFETY: the four stores cover exactly dst..dst+16, the caller's
        // room.
        unsafe {
            vst1q_u8(dst.cast(), vqtbl1q_u8(self.0, k[6]));
            vst1q_u8(dst.add(4).cast(), vqtbl1q_u8(self.0, k[7]));
            vst1q_u8(dst.add(8).cast(), vqtbl1q_u8(self.0, k[8]));
            vst1q_u8(dst.add(12).cast(), vqtbl1q_u8(self.0, k[9]));
        }
    }

    #[inline(always)]
    unsafe fn ascii_utf16<const SWAP: bool>(self, dst: *mut u16) {
        let (lo, hi) = unsafe { (vmovl_u8(vget_low_u8(self.0)), vmovl_high_u8(self.0)) };
        // SAFETY: the two stores cover exactly dst..dst+16, the caller's
        // room.
        unsafe {
            vst1q_u8(dst.cast(), order::<SWAP>(vreinterpretq_u8_u16(lo)));
            vst1q_u8(dst.add(8).cast(), order::<SWAP>(vreinterpretq_u8_u16(hi)));
        }
    }

    #[inline(always)]
    unsafe fn short_ucs4(self, dst: *mut u32) {
        let v = unsafe { vreinterpretq_u16_u8(self.0) };
        // SAFETY: the two stores cover exactly dst..dst+8, the caller's
        // room.
        unsafe {
            vst1q_u32(dst, vmovl_u16(vget_low_u16(v)));
            vst1q_u32(dst.add(4), vmovl_high_u16(v));
        }
    }

    #[inline(always)]
    unsafe fn short_utf16<const SWAP: bool>(self, dst: *mut u16) {
        // SAFETY: 8 units of room.
        unsafe { vst1q_u8(dst.cast(), order::<SWAP>(self.0)) };
    }

    #[inline(always)]
    unsafe fn long_ucs4(self, dst: *mut u32) {
        // SAFETY: 4 units of room.
        unsafe { vst1q_u8(dst.cast(), self.0) };
    }

    #[inline(always)]
    unsafe fn bmp_utf16<const SWAP: bool>(self, dst: *mut u16) {
        let units = unsafe { vreinterpret_u8_u16(vmovn_u32(vreinterpretq_u32_u8(self.0))) };
        let units = if SWAP {
            unsafe { vrev16_u8(units) }
        } else {
            units
        };
        // SAFETY: 4 units of room.
        unsafe { vst1_u8(dst.cast(), units) };
    }

    #[inline(always)]
    unsafe fn long_utf16<const SWAP: bool>(self, dst: *mut u16) -> usize {
        let cps = unsafe { vreinterpretq_u32_u8(self.0) };
        let supplementary = unsafe { vcgtq_u32(cps, vdupq_n_u32(0xFFFF)) };
        if unsafe { vmaxvq_u32(supplementary) } == 0 {
            let units = unsafe { vmovn_u32(cps) };
            let units = unsafe { vreinterpret_u8_u16(units) };
            let units = if SWAP {
                unsafe { vrev16_u8(units) }
            } else {
                units
            };
            // SAFETY: 4 of the 8 units of room.
            unsafe { vst1_u8(dst.cast(), units) };
            return 0;
        }
        // A pair's high surrogate in its lane's low half, the low one in
        // the high half; a table keyed by the supplementary lanes keeps each
        // lane's one or two units, packed.
        let (lanes, mask) = unsafe {
            let high = vaddq_u32(vshrq_n_u32::<10>(cps), vdupq_n_u32(0xD7C0));
            let low = vorrq_u32(vandq_u32(cps, vdupq_n_u32(0x3FF)), vdupq_n_u32(0xDC00));
            let pair = vorrq_u32(high, vshlq_n_u32::<16>(low));
            const LANE_BITS: [u32; 4] = [1, 2, 4, 8];
            let mask = vaddvq_u32(vandq_u32(supplementary, vld1q_u32(LANE_BITS.as_ptr())));
            (vbslq_u32(supplementary, pair, cps), mask as usize)
        };
        // SAFETY: `mask` < 16, a row of the table (16 bytes).
        let pattern = unsafe { vld1q_u8(PAIR_UNITS[mask].as_ptr()) };
        let units = unsafe { vqtbl1q_u8(vreinterpretq_u8_u32(lanes), pattern) };
        // SAFETY: 8 units of room.
        unsafe { vst1q_u8(dst.cast(), order::<SWAP>(units)) };
        mask.count_ones() as usize
    }
}
