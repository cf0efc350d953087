//! The UTF-8 size of well-formed UTF-16, over any [`Simd`] width.
//!
//! A unit takes 3 bytes, less 1 below U+0800, 1 more below U+0080, and 1
//! for a surrogate (a pair makes 4). Each of the three tests is a mask and
//! a compare, `(unit & mask) == value`; the compares give -1 where they
//! hold, summed in 16-bit lanes.
//!
//! Byte-swapped input needs no shuffle: a test of the swapped unit is the
//! same test of the unit as it lies, with its mask and value swapped.
//!
//! Four sums take a register each, so that the adds of one step do not
//! wait on each other (one sum would chain three adds a step). A lane falls
//! by at most 2 a step; the sums are folded into a 64-bit total well before
//! a lane could pass -32768.

use super::simd::Simd;

/// Steps between folds: a lane falls by at most 2 a step, and must stay
/// above -32768.
const FOLD_STEPS: usize = 8192;

/// A 16-bit constant for units read in the order `SWAP` says.
#[inline(always)]
const fn word<const SWAP: bool>(v: u16) -> i16 {
    (if SWAP { v.swap_bytes() } else { v }) as i16
}

/// `sum` plus the three compares for a register of units (0, -1 or -2 a
/// lane).
#[inline(always)]
fn fewer<V: Simd, const SWAP: bool>(units: V, sum: V, [m80, m800, d800, zero]: [V; 4]) -> V {
    let high = units.and(m800);
    let below_80 = units.and(m80).eq16(zero);
    let below_800 = high.eq16(zero);
    let surrogate = high.eq16(d800);
    sum.add16(below_80.add16(below_800.add16(surrogate)))
}

/// UTF-8 bytes for well-formed UTF-16 `src`, byte-swapped with `SWAP`.
///
/// # Safety
/// The CPU has `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn utf8_len_of_utf16<V: Simd, const SWAP: bool>(src: &[u16]) -> usize {
    let lanes = V::BYTES / 2;
    let step = 4 * lanes;
    let (ptr, len) = (src.as_ptr(), src.len());
    // SAFETY: the caller's promise.
    let consts = unsafe {
        [
            V::splat16(word::<SWAP>(0xFF80)),
            V::splat16(word::<SWAP>(0xF800)),
            V::splat16(word::<SWAP>(0xD800)),
            V::zero(),
        ]
    };
    let mut delta = 0i64;
    let mut i = 0;
    while len - i >= step {
        let end = i + (len - i).min(step * FOLD_STEPS) / step * step;
        let mut sums = [consts[3]; 4];
        while i < end {
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: units i..i+step are in bounds (i + step <= end
                // <= len); the CPU has V's set.
                let units = unsafe { V::load(ptr.add(i + lanes * k).cast()) };
                *sum = fewer::<V, SWAP>(units, *sum, consts);
            }
            i += step;
        }
        delta += sums.iter().map(|s| s.sum16()).sum::<i64>();
    }
    while len - i >= lanes {
        // SAFETY: units i..i+lanes are in bounds.
        let units = unsafe { V::load(ptr.add(i).cast()) };
        delta += fewer::<V, SWAP>(units, consts[3], consts).sum16();
        i += lanes;
    }
    let tail = src[i..]
        .iter()
        .map(|&u| crate::portable::sizes::utf8_len_of_unit(if SWAP { u.swap_bytes() } else { u }));
    // 3 a unit less the compares' count; at least 1 a unit, so no wrap.
    (3 * i as i64 + delta) as usize + tail.sum::<usize>()
}
