//! Classification fused into validation, over vectors of any width (the
//! SSE4.2, NEON and AVX2 tiers): the validator's groups of four blocks, and for
//! each group that is not all ASCII the counts classification needs, taken
//! from values the check computes anyway ([`checked`]).
//!
//! - Characters are bytes less continuation bytes. The check looks up each
//!   byte's high nibble in a table whose top bit is set for the
//!   continuation nibbles (8..B) only; counting the top bits of that lookup
//!   gives a block's continuations.
//! - 4-byte characters are counted by their last byte: the check's
//!   saturating `byte 3 before - 0x70` has its top bit set exactly 3 bytes
//!   after an F0..FF byte, which in checked text is a 4-byte lead. Those
//!   begun in the last 3 bytes before the counting stops are added at the
//!   end.
//! - The group's largest byte tells an ASCII group (the validator ORs the
//!   blocks for that; a maximum costs the same) and goes into a running
//!   maximum. ASCII groups only add to the character count: their largest
//!   byte does not change the width, which is ASCII unless some other byte
//!   says more.
//!
//! The top bits are counted per group ([`Bytes::high_count4`]): a
//! `PMOVMSKB` and a population count a block on SSE4.2 (counters in byte
//! lanes, a compare and an add a block, measured slower there); NEON,
//! whose masks cost more, sums the bits in byte lanes with one reduction
//! a group.
//!
//! At the first group with an error (or an ASCII group after a sequence
//! cut short) the counting stops, and the validator finishes from the start
//! of the last character begun before it; the caller counts what lies
//! between (see `Engine::classify_kernel`).

use super::pair_test::{below_e0, pairs_run};
use super::utf8::{checked, ends_incomplete, plain, validate, NO_STOPS};
use super::vector::load_four;
use super::vector::Bytes;
use crate::contract::{last_start_before, FastStop, Utf8Stats};

/// Validates `src` and counts its valid prefix up to the returned offset
/// (a group boundary), as [`crate::arch::kernels::ClassifyKernel`] says.
///
/// # Safety
/// The CPU has `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn classify<V: Bytes>(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    let len = src.len();
    let group = 4 * V::BYTES;
    // SAFETY: the caller's promise.
    let zero = unsafe { V::splat(0) };
    let mut prev = zero;
    let mut i = 0;
    let (mut leads, mut fours, mut max) = (0usize, 0usize, zero);
    while i + group <= len {
        // SAFETY: bytes i..i+group are in bounds; the CPU has V's set.
        let [a, b, c, d] = unsafe { load_four::<V>(src, i) };
        let top = a.max(b).max(c.max(d));
        if !top.any_high() {
            if ends_incomplete(prev) {
                break;
            }
            (i, prev, leads) = (i + group, d, leads + group);
            // An ASCII run: two groups a test, as the validator skips it.
            while i + 2 * group <= len {
                // SAFETY: bytes i..i+2*group are in bounds.
                let (x, y) = unsafe { (load_four::<V>(src, i), load_four::<V>(src, i + group)) };
                let both = [x[0].or(y[0]), x[1].or(y[1]), x[2].or(y[2]), x[3].or(y[3])];
                if !plain::<V, NO_STOPS>(both) {
                    break;
                }
                (i, prev, leads) = (i + 2 * group, y[3], leads + 2 * group);
            }
            continue;
        }
        let pa = checked::<V, NO_STOPS>(a, prev);
        let pb = checked::<V, NO_STOPS>(b, a);
        let pc = checked::<V, NO_STOPS>(c, b);
        let pd = checked::<V, NO_STOPS>(d, c);
        let errors = pa.errors.or(pb.errors).or(pc.errors.or(pd.errors));
        if !errors.is_zero() {
            break;
        }
        let conts = [
            pa.continuations,
            pb.continuations,
            pc.continuations,
            pd.continuations,
        ];
        leads += group - V::high_count4(conts) as usize;
        fours += V::high_count4([pa.fourths, pb.fourths, pc.fourths, pd.fourths]) as usize;
        max = max.max(top);
        (i, prev) = (i + group, d);
        // As the validator: ASCII-and-2-byte text to the pair test, which
        // counts what it certifies.
        if V::PAIR_TEST && i % (4 * group) == 0 && below_e0([a, b, c, d]) {
            // SAFETY: the caller's promise.
            let (next, last, counts) = unsafe { pairs_run::<V, true, NO_STOPS>(src, i, prev) };
            if next > i {
                leads += counts.chars;
                max = max.max(counts.max);
                (i, prev) = (next, last);
            }
        }
    }
    // The bytes counted (`i <= len`, so never the empty default).
    let done = src.get(..i).unwrap_or_default();
    // 4-byte characters begun in the last 3 bytes before `i` end after it:
    // not counted yet.
    fours += done.iter().rev().take(3).filter(|&&b| b >= 0xF0).count();
    let start = last_start_before(src, i);
    let rest_src = src.get(start..).unwrap_or_default();
    // SAFETY: the caller's promise.
    let rest = unsafe { validate::<V, false, NO_STOPS>(rest_src) };
    let stop = FastStop {
        read: start + rest.read,
        written: 0,
        flagged: rest.flagged.map(|e| start + e),
    };
    let stats = Utf8Stats {
        leads,
        fours,
        max: max.max_byte(),
    };
    (stop, stats, i)
}
