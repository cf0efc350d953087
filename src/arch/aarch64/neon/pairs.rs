//! Runs of CESU-8 surrogate pairs (`ED A0..AF xx ED B0..BF xx`) on NEON,
//! two pairs a step, as x86's `pairs` does with the same pattern
//! (`generic::tables`): 16 loaded bytes masked and compared with it at
//! once (the last four are not tested), a `TBL` putting each 3-byte half's
//! two low bytes in a 16-bit lane, last byte lowest.
//!
//! The bytes are joined unmasked: `l + 256 * h` becomes `l + 64 * h` with
//! one `MLS` (`v - 192 * (v >> 8)`, as in the decoder's `lanes`), and since
//! the pattern fixed both bytes' top bits to `10`, that is the half's 12
//! payload bits plus `0x80 + 64 * 0x80` = 0x2080. A unit is then one
//! addition (its 0xD000 less 0x2080), and a code point one widening
//! multiply and pairwise add (`1024 * high + low`) and a subtraction.

use core::arch::aarch64::*;

use super::lanes::pin;
use crate::arch::generic::tables::{PAIRS_HALVES, PAIRS_MASK, PAIRS_PATTERN};

/// What [`join`] adds to each half's 12 payload bits.
const JOIN_BIAS: u16 = 0x80 + 64 * 0x80;
/// A half's unit less its joined value (wrapping).
const UNIT_FROM_JOINED: u16 = 0xD000u16.wrapping_sub(JOIN_BIAS);
/// `1024 * high + low` of two joined halves less the pair's code point:
/// the units' 0xD800 and 0xDC00 and the bias, less 0x10000.
const SCALAR_FROM_JOINED: u32 =
    1024 * (0xD800 - 0xD000 + JOIN_BIAS as u32) + (0xDC00 - 0xD000 + JOIN_BIAS as u32) - 0x1_0000;

/// The pattern's mask, values and byte shuffle, loaded once a call.
#[inline(always)]
fn constants() -> [uint8x16_t; 3] {
    // SAFETY: each table is 16 readable bytes. (Pinned: the compiler would
    // otherwise load them again inside the loop.)
    unsafe {
        [
            pin(vld1q_u8(PAIRS_MASK.as_ptr())),
            pin(vld1q_u8(PAIRS_PATTERN.as_ptr())),
            pin(vld1q_u8(PAIRS_HALVES.as_ptr())),
        ]
    }
}

/// The four halves of the two pairs in the 16 bytes at `p`, joined (their
/// low four 16-bit lanes), if those bytes start with two pairs.
///
/// # Safety
/// `p` points to 16 readable bytes.
#[inline(always)]
unsafe fn join(p: *const u8, k: &[uint8x16_t; 3]) -> Option<uint16x8_t> {
    // SAFETY: the caller's promise; the rest are register operations.
    unsafe {
        let v = vld1q_u8(p);
        let broken = veorq_u8(vandq_u8(v, k[0]), k[1]);
        if vmaxvq_u32(vreinterpretq_u32_u8(broken)) != 0 {
            return None;
        }
        let lanes = vreinterpretq_u16_u8(vqtbl1q_u8(v, k[2]));
        Some(vmlsq_n_u16(lanes, vshrq_n_u16::<8>(lanes), 192))
    }
}

/// Decodes the run of pairs at the start of `src` into UTF-16 units at
/// `out` (byte-swapped with `swap`), two pairs a step while 16 bytes remain
/// and four units fit; returns the pairs decoded (6 bytes and 2 units
/// each).
///
/// # Safety
/// `out` points to `cap` writable units (NEON is baseline).
pub(super) unsafe fn pairs_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> usize {
    // SAFETY: the caller's promise.
    unsafe {
        if swap {
            units::<true>(src, out, cap)
        } else {
            units::<false>(src, out, cap)
        }
    }
}

/// [`pairs_utf16`] with the byte order fixed.
///
/// # Safety
/// As [`pairs_utf16`].
#[inline(always)]
unsafe fn units<const SWAP: bool>(src: &[u8], out: *mut u16, cap: usize) -> usize {
    let k = constants();
    let mut n = 0;
    while src.len() - 6 * n >= 16 && cap - 2 * n >= 4 {
        // SAFETY: bytes 6n..6n+16 are in `src` (checked above).
        let Some(joined) = (unsafe { join(src.as_ptr().add(6 * n), &k) }) else {
            break;
        };
        // SAFETY: register operations, then units 2n..2n+4, within `cap`
        // (checked above).
        unsafe {
            let units = vaddq_u16(joined, vdupq_n_u16(UNIT_FROM_JOINED));
            let units = if SWAP {
                vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(units)))
            } else {
                units
            };
            vst1_u16(out.add(2 * n), vget_low_u16(units));
        }
        n += 2;
    }
    n
}

/// [`pairs_utf16`] to code points (6 bytes and one code point a pair).
///
/// # Safety
/// `out` points to `cap` writable code points (NEON is baseline).
pub(super) unsafe fn pairs_ucs4(src: &[u8], out: *mut u32, cap: usize) -> usize {
    let k = constants();
    let mut n = 0;
    while src.len() - 6 * n >= 16 && cap - n >= 2 {
        // SAFETY: bytes 6n..6n+16 are in `src` (checked above).
        let Some(joined) = (unsafe { join(src.as_ptr().add(6 * n), &k) }) else {
            break;
        };
        // SAFETY: register operations, then code points n..n+2, within
        // `cap` (checked above).
        unsafe {
            // Lanes high, low, high, low: times 1024, 1, 1024, 1.
            let weights = vcreate_u16(0x0001_0400_0001_0400);
            let terms = vmull_u16(vget_low_u16(joined), weights);
            let sums = vpadd_u32(vget_low_u32(terms), vget_high_u32(terms));
            vst1_u32(out.add(n), vsub_u32(sums, vdup_n_u32(SCALAR_FROM_JOINED)));
        }
        n += 2;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CESU-8 of supplementary `c`: two 3-byte halves.
    fn cesu(c: u32, out: &mut Vec<u8>) {
        let v = c - 0x1_0000;
        for unit in [0xD800 | v >> 10, 0xDC00 | (v & 0x3FF)] {
            out.push((0xE0 | unit >> 12) as u8);
            out.push((0x80 | (unit >> 6 & 0x3F)) as u8);
            out.push((0x80 | (unit & 0x3F)) as u8);
        }
    }

    /// The code points of the pairs that `s` starts with, by the bits.
    fn reference(s: &[u8]) -> Vec<u32> {
        let half = |b: &[u8], second: u8| {
            (b[0] == 0xED && b[1] & 0xF0 == second && b[2] & 0xC0 == 0x80)
                .then(|| u32::from(b[1] & 0x0F) << 6 | u32::from(b[2] & 0x3F))
        };
        s.chunks_exact(6)
            .map_while(|p| Some(0x1_0000 + (half(p, 0xA0)? << 10 | half(&p[3..], 0xB0)?)))
            .collect()
    }

    /// Runs of 0..12 pairs (extreme and middle code points) and a tail,
    /// each with a bit flipped in each byte (breaking the pattern or only
    /// changing a payload) or none, at every room, in each byte order:
    /// each kernel takes exactly the whole steps of two pairs that match,
    /// fit and have 16 bytes to read, and stores nothing past them.
    #[test]
    fn pairs_take_whole_matching_steps() {
        let cps = [0x1_0000, 0x10_FFFF, 0x1_F600, 0x2_3456, 0xF_0C0F, 0x10_0000];
        for pairs in 0..12 {
            let mut src = Vec::new();
            for i in 0..pairs {
                cesu(cps[i % cps.len()], &mut src);
            }
            src.extend(b"tail");
            for damage in (0..src.len()).map(Some).chain([None]) {
                for flip in [0x40u8, 0x10, 0x01] {
                    let mut s = src.clone();
                    if let Some(at) = damage {
                        s[at] ^= flip;
                    }
                    check(&s, &format!("{pairs} pairs, {flip:#x} at {damage:?}"));
                }
            }
        }
    }

    fn check(s: &[u8], what: &str) {
        let chars = reference(s);
        // Whole steps of two pairs that match, fit `room` pairs and have
        // 16 bytes to read.
        let steps = |room: usize| {
            let mut n = 0;
            while n + 2 <= chars.len() && n + 2 <= room && s.len() - 6 * n >= 16 {
                n += 2;
            }
            n
        };
        for cap in 0..2 * chars.len() + 3 {
            for swap in [false, true] {
                let mut out = vec![0xAAAAu16; cap + 8];
                // SAFETY: out has room for cap units.
                let n = unsafe { pairs_utf16(s, out.as_mut_ptr(), cap, swap) };
                assert_eq!(n, steps(cap / 2), "utf16 cap {cap}: {what}");
                let mut expected = vec![0xAAAAu16; out.len()];
                for (k, &c) in chars[..n].iter().enumerate() {
                    let v = c - 0x1_0000;
                    for (j, unit) in [0xD800 | v >> 10, 0xDC00 | (v & 0x3FF)]
                        .into_iter()
                        .enumerate()
                    {
                        let unit = unit as u16;
                        expected[2 * k + j] = if swap { unit.swap_bytes() } else { unit };
                    }
                }
                assert_eq!(out, expected, "utf16 cap {cap} swap {swap}: {what}");
            }
            let mut out = vec![0xAAAA_AAAAu32; cap + 8];
            // SAFETY: out has room for cap code points.
            let n = unsafe { pairs_ucs4(s, out.as_mut_ptr(), cap) };
            assert_eq!(n, steps(cap), "ucs4 cap {cap}: {what}");
            let mut expected = vec![0xAAAA_AAAAu32; out.len()];
            expected[..n].copy_from_slice(&chars[..n]);
            assert_eq!(out, expected, "ucs4 cap {cap}: {what}");
        }
    }
}
