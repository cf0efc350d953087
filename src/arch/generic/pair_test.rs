//! Validating text of ASCII and 2-byte characters only, with fewer
//! operations than the general check ([`super::utf8::checked`]).
//!
//! Text in Cyrillic, Greek, Hebrew or Arabic script, and Latin text with
//! accents, has no byte at or above 0xE0. There a group of blocks is valid
//! exactly when no byte is C0 or C1 and each byte is a continuation
//! (10xxxxxx) exactly when the byte before it is a lead (11xxxxxx): bit 7
//! of `x AND NOT (x + x)` marks a continuation, bit 7 of `p AND (p + p)` a
//! lead, and their XOR must be clear. That is about half the work of the
//! general check and no branch on whether a block is ASCII, which text with
//! scattered accents makes unpredictable. The AVX2 tier's own validator
//! has it too (`avx2/pair_check.rs`, on masks); the AVX-512 tier's had it
//! before the shared validator replaced it. Without it, the shared
//! validator over 64-byte vectors ran Arabic, Hebrew and Russian at 0.55x
//! of that kernel on AMD Zen 4; with it, 0.88x while the bytes before each
//! block were shifted in (`Bytes::prev`), and 1.09x-1.10x with them loaded
//! from memory (one unaligned load a block) and the validator's group
//! loaded again for its below-E0 test rather than kept in registers.
//!
//! The byte before a run is the last one the general check passed, without
//! the byte after it: a C0 or C1 there (an overlong lead, which that check
//! flags only at the next byte) ends the run before it starts.
//!
//! The test only certifies: a group it rejects goes back to the general
//! check, which places the error or passes the group (it holds 3- or
//! 4-byte characters, or continues one from the block before: a
//! continuation there follows a byte that is not a 2-byte lead, so the
//! test rejects it).

use super::tables::FOURS_ZERO;
use super::vector::load_four;
use super::vector::Bytes;

/// Whether no byte of the four blocks is E0 or above (they may be
/// ASCII-and-2-byte text).
#[inline(always)]
pub(crate) fn below_e0<V: Bytes>([a, b, c, d]: [V; 4]) -> bool {
    // SAFETY: a `V` exists, so the CPU has its instruction set.
    let limit = unsafe { V::splat(0xDF) };
    a.max(b).max(c.max(d)).sub_sat(limit).is_zero()
}

/// Bit 7 set where a byte of `x` is a continuation and the byte before it
/// (`before`) is not a lead, or the other way round.
#[inline(always)]
fn mismatch<V: Bytes>(x: V, before: V) -> V {
    let lead_before = before.and(before.add(before));
    x.and_not(x.add(x)).xor(lead_before)
}

/// Zero exactly where a byte of `x` is C0 or C1: `(x AND FE) XOR C0`.
#[inline(always)]
fn c0_c1<V: Bytes>(x: V) -> V {
    // SAFETY: a `V` exists, so the CPU has its instruction set.
    let (fe, c0) = unsafe { (V::splat(0xFE), V::splat(0xC0)) };
    x.and(fe).xor(c0)
}

/// Whether the four blocks at byte `i` of `src` (all below E0, see
/// [`below_e0`]) pass the test after `prev`, the block before them. With
/// `FOURS_ZERO` a group holding a 00 byte fails (Modified UTF-8's stop;
/// the other stops, 4-byte leads, are E0 or above).
///
/// # Safety
/// Bytes `i..i + 4 * V::BYTES` of `src` are in bounds.
#[inline(always)]
unsafe fn group_passes<V: Bytes, const STOPS: u8>(
    src: &[u8],
    i: usize,
    prev: V,
    [a, b, c, d]: [V; 4],
) -> bool {
    let w = V::BYTES;
    let before = if i >= 1 {
        // SAFETY: bytes i-1..i+4w-1 are in bounds (the caller's promise,
        // i >= 1); a `V` exists, so the CPU has its instruction set.
        unsafe {
            let p = src.as_ptr().add(i - 1);
            [
                V::load(p),
                V::load(p.add(w)),
                V::load(p.add(2 * w)),
                V::load(p.add(3 * w)),
            ]
        }
    } else {
        [
            a.prev::<1>(prev),
            b.prev::<1>(a),
            c.prev::<1>(b),
            d.prev::<1>(c),
        ]
    };
    let mismatches = mismatch(a, before[0])
        .or(mismatch(b, before[1]))
        .or(mismatch(c, before[2]).or(mismatch(d, before[3])));
    let mut low = c0_c1(a).min(c0_c1(b)).min(c0_c1(c).min(c0_c1(d)));
    if STOPS == FOURS_ZERO {
        low = low.min(a.min(b).min(c.min(d)));
    }
    !mismatches.any_high() && low.zero_mask() == 0
}

/// What [`pairs_run`] counted (with `COUNT`): the characters that start in
/// the groups it certified (their non-continuation bytes), the lead mask
/// of the last block, and the largest byte.
pub(crate) struct PairCounts<V> {
    pub chars: usize,
    pub last_leads: u64,
    pub max: V,
}

/// Certifies groups of four blocks of `src` from `i` (`prev` the block
/// before them, already checked) while they pass the test. Returns where it
/// stopped and the block before that: at a group the test rejects (for the
/// general check), after four groups of pure ASCII in a row (an ASCII run,
/// which the general loop skips faster), or with less than a group left.
///
/// # Safety
/// The CPU has `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn pairs_run<V: Bytes, const COUNT: bool, const STOPS: u8>(
    src: &[u8],
    mut i: usize,
    mut prev: V,
) -> (usize, V, PairCounts<V>) {
    let (len, group) = (src.len(), 4 * V::BYTES);
    // SAFETY: the caller's promise.
    let zero = unsafe { V::splat(0) };
    let mut counts = PairCounts {
        chars: 0,
        last_leads: 0,
        max: zero,
    };
    let mut quiet = 0;
    // The byte before the run is the last of `prev`, which the general
    // check passed without its next byte: a C0 or C1 there (an overlong
    // lead, flagged only at the byte after it) is left to that check.
    if i > 0 && src.get(i - 1).is_some_and(|&b| b & 0xFE == 0xC0) {
        return (i, prev, counts);
    }
    while len - i >= group {
        // SAFETY: bytes i..i+group are in bounds; the CPU has V's set.
        let blocks = unsafe { load_four::<V>(src, i) };
        // SAFETY: as above.
        if !below_e0(blocks) || !unsafe { group_passes::<V, STOPS>(src, i, prev, blocks) } {
            break;
        }
        (i, prev) = (i + group, blocks[3]);
        let [a, b, c, d] = blocks;
        let top = a.max(b).max(c.max(d));
        if COUNT {
            counts.chars += V::lead_count4(blocks) as usize;
            counts.last_leads = d.lead_mask();
            counts.max = counts.max.max(top);
        }
        quiet = if top.any_high() { 0 } else { quiet + 1 };
        if quiet == 4 {
            break;
        }
    }
    (i, prev, counts)
}
