//! [`Bytes`] for the NEON tier: one `uint8x16_t`.
//!
//! NEON has no move-mask instruction: a mask is the compare's bytes
//! narrowed by a shift (`SHRN` by 4 of the 16-bit lanes keeps four bits of
//! each byte), a 64-bit scalar with four bits a byte, two instructions
//! where x86 spends one.

use core::arch::aarch64::*;

use crate::arch::generic::vector::Bytes;

/// A vector of the NEON tier (NEON is part of the aarch64 baseline, so
/// every aarch64 CPU runs these).
#[derive(Clone, Copy)]
pub(super) struct Neon(pub(super) uint8x16_t);

/// Sixteen table indices that keep the bytes, then sixteen that clear
/// them (out of range for `TBL`): the sixteen at `SLIDE[s..]` move each
/// byte down by `s` and zero the top `s`.
static SLIDE: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, //
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, //
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
];

/// A compare's result (each byte 00 or FF) as four bits a byte.
#[inline(always)]
fn narrow(m: uint8x16_t) -> u64 {
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
            m,
        ))))
    }
}

/// FF for each byte that is not a continuation byte (signed, above -65).
#[inline(always)]
pub(super) fn leads(v: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe { vcgtq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-65)) }
}

// SAFETY (every `unsafe` block below without its own comment): NEON is
// part of the aarch64 baseline, so its register operations are always
// available; none of them touches memory.
impl Bytes for Neon {
    const MASK_BITS: u32 = 4;
    const PAIRED_GROUPS: bool = true;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Neon {
        Neon(unsafe { vdupq_n_u8(b) })
    }

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Neon {
        // SAFETY: the caller's promise of 16 readable bytes.
        Neon(unsafe { vld1q_u8(p) })
    }

    #[inline(always)]
    unsafe fn table(t: [u8; 16]) -> Neon {
        // SAFETY: `t` is 16 readable bytes.
        Neon(unsafe { vld1q_u8(t.as_ptr()) })
    }

    #[inline(always)]
    unsafe fn chunk(src: &[u8], at: usize) -> Neon {
        let len = src.len();
        if at >= len {
            return Neon(unsafe { vdupq_n_u8(0) });
        }
        let left = len - at;
        if left >= 16 {
            // SAFETY: bytes at..at+16 are in bounds.
            return Neon(unsafe { vld1q_u8(src.as_ptr().add(at)) });
        }
        if len >= 16 {
            // The last 16 bytes hold the `left` wanted ones at their top:
            // move them down by 16 - left, zeroing the rest.
            // SAFETY: bytes len-16..len are in bounds; SLIDE has 16 bytes
            // from 16 - left (1..=15).
            return Neon(unsafe {
                let last = vld1q_u8(src.as_ptr().add(len - 16));
                vqtbl1q_u8(last, vld1q_u8(SLIDE.as_ptr().add(16 - left)))
            });
        }
        // The whole input is under 16 bytes: put it together in two words.
        // (Not through a buffer and `memcpy`: a call in a kernel's loop
        // makes the compiler keep its vector constants on the stack, as
        // only the low halves of v8-v15 survive a call.)
        let mut w = [0u64; 2];
        for (k, &b) in src[at..].iter().enumerate() {
            w[k / 8] |= u64::from(b) << (8 * (k % 8));
        }
        Neon(unsafe { vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(w[0]), vcreate_u64(w[1]))) })
    }

    #[inline(always)]
    fn or(self, b: Neon) -> Neon {
        Neon(unsafe { vorrq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn and(self, b: Neon) -> Neon {
        Neon(unsafe { vandq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Neon) -> Neon {
        Neon(unsafe { veorq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn add(self, b: Neon) -> Neon {
        Neon(unsafe { vaddq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn and_not(self, b: Neon) -> Neon {
        Neon(unsafe { vbicq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn high_nibbles(self) -> Neon {
        Neon(unsafe { vshrq_n_u8::<4>(self.0) })
    }
    #[inline(always)]
    fn low_nibbles(self) -> Neon {
        Neon(unsafe { vandq_u8(self.0, vdupq_n_u8(0x0F)) })
    }
    #[inline(always)]
    fn lookup(self, table: Neon) -> Neon {
        Neon(unsafe { vqtbl1q_u8(table.0, self.0) })
    }
    #[inline(always)]
    fn prev<const N: i32>(self, prev: Neon) -> Neon {
        // EXT takes its byte offset as an immediate; N is 1..=3.
        Neon(unsafe {
            match N {
                1 => vextq_u8::<15>(prev.0, self.0),
                2 => vextq_u8::<14>(prev.0, self.0),
                _ => vextq_u8::<13>(prev.0, self.0),
            }
        })
    }
    #[inline(always)]
    fn sub_sat(self, b: Neon) -> Neon {
        Neon(unsafe { vqsubq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn min(self, b: Neon) -> Neon {
        Neon(unsafe { vminq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: Neon) -> Neon {
        Neon(unsafe { vmaxq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn max_byte(self) -> u8 {
        unsafe { vmaxvq_u8(self.0) }
    }
    #[inline(always)]
    fn min_signed(self, b: Neon) -> Neon {
        Neon(unsafe {
            vreinterpretq_u8_s8(vminq_s8(
                vreinterpretq_s8_u8(self.0),
                vreinterpretq_s8_u8(b.0),
            ))
        })
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        // UMAXV over four 32-bit lanes is cheaper than over sixteen bytes.
        unsafe { vmaxvq_u32(vreinterpretq_u32_u8(self.0)) == 0 }
    }
    #[inline(always)]
    fn any_high(self) -> bool {
        unsafe { vmaxvq_u8(self.0) >= 0x80 }
    }
    #[inline(always)]
    fn all_positive(self) -> bool {
        unsafe { vminvq_s8(vreinterpretq_s8_u8(self.0)) > 0 }
    }
    #[inline(always)]
    fn nonzero_mask(self) -> u64 {
        narrow(unsafe { vtstq_u8(self.0, self.0) })
    }
    #[inline(always)]
    fn zero_mask(self) -> u64 {
        narrow(unsafe { vceqzq_u8(self.0) })
    }
    #[inline(always)]
    fn high_count4(v: [Neon; 4]) -> u32 {
        // Each byte's top bit shifted down and added up in its lane
        // (`USRA`, at most 4 a lane), then one sum of the lanes (at most
        // 64): cheaper than four masks and population counts, which NEON
        // would take through vector registers.
        let [a, b, c, d] = v;
        unsafe {
            let s = vshrq_n_u8::<7>(a.0);
            let s = vsraq_n_u8::<7>(s, b.0);
            let s = vsraq_n_u8::<7>(s, c.0);
            let s = vsraq_n_u8::<7>(s, d.0);
            u32::from(vaddvq_u8(s))
        }
    }
    #[inline(always)]
    fn lead_mask(self) -> u64 {
        narrow(leads(self.0))
    }
    #[inline(always)]
    fn lead_count(self) -> u32 {
        // Each lead is FF, -1: the byte sum is minus the count (at most 16,
        // so no wrap is lost).
        u32::from(unsafe { vaddvq_u8(leads(self.0)) }.wrapping_neg())
    }
    #[inline(always)]
    fn lead_count4(v: [Neon; 4]) -> u32 {
        // As above: the four masks' sum, -1 a lead, is minus the count in
        // each byte (at most 4), and their total at most 64.
        let [a, b, c, d] = v.map(|x| leads(x.0));
        let sum = unsafe { vaddq_u8(vaddq_u8(a, b), vaddq_u8(c, d)) };
        u32::from(unsafe { vaddvq_u8(sum) }.wrapping_neg())
    }
}

// SAFETY (every method below): NEON is part of the aarch64 baseline; loads
// and stores have the caller's promise of 16 bytes.
impl crate::arch::generic::simd::Simd for Neon {
    const BYTES: usize = 16;

    #[inline(always)]
    unsafe fn zero() -> Neon {
        Neon(unsafe { vdupq_n_u8(0) })
    }
    #[inline(always)]
    unsafe fn splat8(b: i8) -> Neon {
        Neon(unsafe { vdupq_n_u8(b as u8) })
    }
    #[inline(always)]
    unsafe fn splat16(w: i16) -> Neon {
        Neon(unsafe { vreinterpretq_u8_u16(vdupq_n_u16(w as u16)) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Neon {
        Neon(unsafe { vld1q_u8(p) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { vst1q_u8(p, self.0) }
    }
    #[inline(always)]
    fn and(self, b: Neon) -> Neon {
        Neon(unsafe { vandq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn or(self, b: Neon) -> Neon {
        Neon(unsafe { vorrq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn sub8(self, b: Neon) -> Neon {
        Neon(unsafe { vsubq_u8(self.0, b.0) })
    }
    #[inline(always)]
    fn gt8(self, b: Neon) -> Neon {
        Neon(unsafe { vcgtq_s8(vreinterpretq_s8_u8(self.0), vreinterpretq_s8_u8(b.0)) })
    }
    #[inline(always)]
    fn add16(self, b: Neon) -> Neon {
        Neon(unsafe {
            vreinterpretq_u8_u16(vaddq_u16(
                vreinterpretq_u16_u8(self.0),
                vreinterpretq_u16_u8(b.0),
            ))
        })
    }
    #[inline(always)]
    fn eq16(self, b: Neon) -> Neon {
        Neon(unsafe {
            vreinterpretq_u8_u16(vceqq_u16(
                vreinterpretq_u16_u8(self.0),
                vreinterpretq_u16_u8(b.0),
            ))
        })
    }
    #[inline(always)]
    fn any_high(self) -> bool {
        unsafe { vmaxvq_u8(self.0) >= 0x80 }
    }
    #[inline(always)]
    fn sum_bytes(self) -> u64 {
        u64::from(unsafe { vaddlvq_u8(self.0) })
    }
    #[inline(always)]
    fn sum16(self) -> i64 {
        i64::from(unsafe { vaddlvq_s16(vreinterpretq_s16_u8(self.0)) })
    }
}
