//! UTF-8 validation and counting over vectors of any width, four blocks a
//! step: the algorithm of the SSE4.2, NEON and AVX2 tiers, written once.
//!
//! Each block is checked against the three bytes before it with the
//! Keiser-Lemire nibble lookups ("Validating UTF-8 in less than one
//! instruction per byte", 2021): a 16-entry table lookup gives error bits
//! for the previous byte's high nibble, its low nibble and this byte's
//! high nibble ([`tables`]), and a byte is bad when a bit survives the
//! AND of the three (or a byte 2 or 3 after a long lead is not a
//! continuation byte). Four in-bounds blocks are checked together with one
//! test for the lot; a group with an error is retried block by block to
//! find the first bad byte. All-ASCII runs are skipped eight blocks a test.
//!
//! CESU-8 and Modified UTF-8 decoders need the validator to stop where
//! they read differently from RFC 3629 (`STOPS`): a 4-byte lead costs
//! nothing (`tables::BYTE_1_HIGH_FOURS` makes F0..FF an error whatever
//! follows, flagged at the byte after it, and [`stop_at`] moves the stop
//! back), and 00 costs one compare of the four blocks' minimum, located
//! exactly only after a block fails.

use super::pair_test::{below_e0, pairs_run};
use super::tables;
pub(crate) use super::tables::{FOURS, FOURS_ZERO, NO_STOPS};
use super::vector::load_four;
use super::vector::Bytes;
use crate::contract::{count_until_error, FastStop};

/// Where a validator with `STOPS` stops, given its first flagged byte `e`:
/// the lookups (`tables::BYTE_1_HIGH_FOURS`) flag a stop F0..FF at the byte
/// after it, where no error can come before it (the first error or stop is
/// at `e` or `e - 1`).
pub(crate) fn stop_at<const STOPS: u8>(src: &[u8], e: usize) -> usize {
    if STOPS != NO_STOPS && e > 0 && e <= src.len() && src[e - 1] >= 0xF0 {
        e - 1
    } else {
        e
    }
}

/// What [`checked`] finds, with two of its steps that also say what the
/// bytes are (classification counts them).
pub(crate) struct Checked<V> {
    /// The error bits.
    pub errors: V,
    /// The top bit of each byte set where it is a continuation byte.
    pub continuations: V,
    /// The top bit of each byte set where the byte 3 before it is F0..FF:
    /// in well-formed text, the last bytes of 4-byte characters.
    pub fourths: V,
}

/// The error bits of `input` given the block before it, also flagging the
/// byte after each F0..FF with `STOPS` (see [`stop_at`]).
#[inline(always)]
pub(crate) fn checked<V: Bytes, const STOPS: u8>(input: V, prev: V) -> Checked<V> {
    let before = [
        input.prev::<1>(prev),
        input.prev::<2>(prev),
        input.prev::<3>(prev),
    ];
    checked_after::<V, STOPS>(input, before)
}

/// [`checked`] given the bytes 1, 2 and 3 places before each byte.
#[inline(always)]
fn checked_after<V: Bytes, const STOPS: u8>(input: V, [prev1, prev2, prev3]: [V; 3]) -> Checked<V> {
    // SAFETY: a `V` exists, so the CPU has its instruction set.
    let (byte_1_high, byte_1_low, byte_2_high, third_min, fourth_min, top) = unsafe {
        (
            V::table(if STOPS == NO_STOPS {
                tables::BYTE_1_HIGH
            } else {
                tables::BYTE_1_HIGH_FOURS
            }),
            V::table(tables::BYTE_1_LOW),
            V::table(tables::BYTE_2_HIGH),
            V::splat(0xE0 - 0x80),
            V::splat(0xF0 - 0x80),
            V::splat(0x80),
        )
    };
    // Of this lookup's bits, only the continuation nibbles (8..B) have
    // TWO_CONTS, the top bit.
    let byte_2 = input.high_nibbles().lookup(byte_2_high);
    let special = prev1
        .high_nibbles()
        .lookup(byte_1_high)
        .and(prev1.low_nibbles().lookup(byte_1_low))
        .and(byte_2);
    let third = prev2.sub_sat(third_min);
    let fourth = prev3.sub_sat(fourth_min);
    let must_continue = third.or(fourth).and(top);
    Checked {
        errors: must_continue.xor(special),
        continuations: byte_2,
        fourths: fourth,
    }
}

/// Whether the block ends inside a sequence it cannot finish.
#[inline(always)]
pub(crate) fn ends_incomplete<V: Bytes>(block: V) -> bool {
    // SAFETY: a `V` exists, so the CPU has its instruction set.
    let limits = unsafe { V::incomplete_limits() };
    !block.sub_sat(limits).is_zero()
}

/// The 00 bytes of `block` with `FOURS_ZERO` (Modified UTF-8's stop that
/// the lookups cannot flag), as a mask.
#[inline(always)]
fn zeros<V: Bytes, const STOPS: u8>(block: V) -> u64 {
    if STOPS == FOURS_ZERO {
        block.zero_mask()
    } else {
        0
    }
}

/// Two blocks as one for [`plain`]: their OR, or with `FOURS_ZERO` their
/// signed minimum.
#[inline(always)]
fn combine<V: Bytes, const STOPS: u8>(a: V, b: V) -> V {
    if STOPS == FOURS_ZERO {
        a.min_signed(b)
    } else {
        a.or(b)
    }
}

/// Whether the four blocks are plain ASCII, with no byte in `STOPS` (with
/// `FOURS_ZERO`: every byte is 01..7F, a signed minimum above 0).
#[inline(always)]
pub(crate) fn plain<V: Bytes, const STOPS: u8>([a, b, c, d]: [V; 4]) -> bool {
    let all = combine::<V, STOPS>(combine::<V, STOPS>(a, b), combine::<V, STOPS>(c, d));
    if STOPS == FOURS_ZERO {
        all.all_positive()
    } else {
        !all.any_high()
    }
}

/// Whether the four blocks `blocks` are valid after `prev` and hold no
/// byte in `STOPS` (one test for all four; plain blocks only need `prev`
/// to end complete).
#[inline(always)]
pub(crate) fn four_valid<V: Bytes, const STOPS: u8>(blocks: [V; 4], prev: V) -> bool {
    if plain::<V, STOPS>(blocks) {
        return !ends_incomplete(prev);
    }
    mixed_valid::<V, STOPS>(blocks, prev)
}

/// [`four_valid`] for blocks known not to be plain.
#[inline(always)]
fn mixed_valid<V: Bytes, const STOPS: u8>(blocks: [V; 4], prev: V) -> bool {
    // (No closures on the hot paths: a closure is a function of its own,
    // without the caller's target features, and an intrinsic it calls
    // stays a call when it is not inlined.)
    let [a, b, c, d] = blocks;
    let ab = checked::<V, STOPS>(a, prev)
        .errors
        .or(checked::<V, STOPS>(b, a).errors);
    let cd = checked::<V, STOPS>(c, b)
        .errors
        .or(checked::<V, STOPS>(d, c).errors);
    all_clear::<V, STOPS>(blocks, ab.or(cd))
}

/// Whether the error bits `all` of `blocks` are clear, and with
/// `FOURS_ZERO` the blocks hold no 00 byte.
#[inline(always)]
fn all_clear<V: Bytes, const STOPS: u8>(blocks: [V; 4], mut all: V) -> bool {
    if STOPS == FOURS_ZERO {
        let [a, b, c, d] = blocks;
        // A 00 byte shows as a 0 minimum; any other byte makes no error
        // bit here, since bits only ever have to be 0.
        let low = a.min(b).min(c.min(d));
        // SAFETY: a `V` exists, so the CPU has its instruction set.
        let one = unsafe { V::splat(1) };
        all = all.or(one.sub_sat(low));
    }
    all.is_zero()
}

/// The longest valid prefix of `src` with no byte in `STOPS`, at block
/// granularity, and with `COUNT` the number of characters in it. At an
/// error whose restart point lies in the previous block, that block's
/// characters from the restart point on are taken back out of the count.
///
/// # Safety
/// The CPU has `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn validate<V: Bytes, const COUNT: bool, const STOPS: u8>(
    src: &[u8],
) -> FastStop {
    let len = src.len();
    let (w, group) = (V::BYTES, 4 * V::BYTES);
    // SAFETY: the caller's promise.
    let mut prev = unsafe { V::splat(0) };
    let mut prev_leads = 0u64;
    let mut counted = 0usize;
    let mut i = 0;
    let stop = |e: usize, i: usize, counted: usize, block_leads: u64, prev_leads: u64| {
        let (counted, block_leads, prev_leads) = if COUNT {
            (
                counted,
                V::bit_per_byte(block_leads),
                V::bit_per_byte(prev_leads),
            )
        } else {
            (0, 0, 0)
        };
        let e = stop_at::<STOPS>(src, e);
        count_until_error(src, e, (i, w), counted, block_leads, prev_leads)
    };
    while i < len {
        // Whole groups of four blocks, in a loop of their own; an error in
        // a group leaves it to the block loop below.
        while i + group <= len {
            // SAFETY: bytes i..i+group are in bounds; the CPU has V's set.
            let four = unsafe { load_four::<V>(src, i) };
            if plain::<V, STOPS>(four) {
                if ends_incomplete(prev) {
                    break;
                }
                counted += group;
                prev_leads = V::first_bytes(w);
                prev = four[3];
                i += group;
                // An ASCII run: two groups a test, with no carry to check.
                while i + 2 * group <= len {
                    // SAFETY: bytes i..i+2*group are in bounds.
                    let (a, b) =
                        unsafe { (load_four::<V>(src, i), load_four::<V>(src, i + group)) };
                    let both = [
                        combine::<V, STOPS>(a[0], b[0]),
                        combine::<V, STOPS>(a[1], b[1]),
                        combine::<V, STOPS>(a[2], b[2]),
                        combine::<V, STOPS>(a[3], b[3]),
                    ];
                    if !plain::<V, STOPS>(both) {
                        break;
                    }
                    counted += 2 * group;
                    prev = b[3];
                    i += 2 * group;
                }
                continue;
            }
            if !mixed_valid::<V, STOPS>(four, prev) {
                // Find the error in this group, a block at a time, rather
                // than leave it to the block loop, which would check the
                // group again a block further on (a call that meets an
                // error returns sooner; locating every error of a text is
                // a chain of such calls). The blocks are loaded again from
                // an opaque offset: reusing the loop's values kept more of
                // them live in the loop, which cost valid text 3-4%.
                let at = core::hint::black_box(i);
                let mut before = prev;
                let mut leads_before = prev_leads;
                for k in 0..4 {
                    let at = at + k * w;
                    // SAFETY: bytes at..at+w are in the group, in bounds.
                    let block = unsafe { V::load(src.as_ptr().add(at)) };
                    let flags = checked::<V, STOPS>(block, before).errors.nonzero_mask()
                        | zeros::<V, STOPS>(block);
                    let leads = if COUNT { block.lead_mask() } else { 0 };
                    if flags != 0 {
                        return stop(at + V::first_set(flags), at, counted, leads, leads_before);
                    }
                    if COUNT {
                        counted += (leads.count_ones() / V::MASK_BITS) as usize;
                        leads_before = leads;
                    }
                    before = block;
                }
                break;
            }
            if COUNT {
                counted += V::lead_count4(four) as usize;
                prev_leads = four[3].lead_mask();
            }
            if V::PAIRED_GROUPS && i + 2 * group <= len {
                // SAFETY: bytes i+group..i+2*group are in bounds.
                let next = unsafe { load_four::<V>(src, i + group) };
                if mixed_valid::<V, STOPS>(next, four[3]) {
                    if COUNT {
                        counted += V::lead_count4(next) as usize;
                        prev_leads = next[3].lead_mask();
                    }
                    prev = next[3];
                    i += 2 * group;
                    continue;
                }
                // The next group has the error: to the block loop.
                prev = four[3];
                i += group;
                break;
            }
            prev = four[3];
            i += group;
            // Every fourth group: if this one is ASCII-and-2-byte text, the
            // pair test may take over (cheaper; a group it rejects comes
            // back here).
            // (The group is loaded again rather than kept: over 32-byte
            // vectors, on AVX2's 16 registers, keeping it spilled the CJK
            // loop's constants.)
            // SAFETY: bytes i-group..i are in bounds (the group just passed).
            if V::PAIR_TEST
                && i % (4 * group) == 0
                && below_e0(unsafe { load_four::<V>(src, i - group) })
            {
                // SAFETY: the CPU has V's set.
                let (next, last, counts) = unsafe { pairs_run::<V, COUNT, STOPS>(src, i, prev) };
                if next > i {
                    if COUNT {
                        counted += counts.chars;
                        prev_leads = counts.last_leads;
                    }
                    (i, prev) = (next, last);
                }
            }
        }
        // The group at i has an error, or fewer than a group's bytes are
        // left: one block at a time, to the group's end (where the error
        // is found, without checking the group again a block further on).
        let until = (i + group).min(len);
        while i < until {
            // SAFETY: the CPU has V's set.
            let block = unsafe { V::chunk(src, i) };
            let valid = V::first_bytes(len - i);
            // (A partial block's zeros are no 00 of the input.)
            let stops = zeros::<V, STOPS>(block) & valid;
            if !block.any_high() && stops == 0 {
                if ends_incomplete(prev) {
                    return stop(i, i, counted, valid, prev_leads);
                }
                counted += (len - i).min(w);
                prev_leads = valid;
                prev = block;
                i += w;
                continue;
            }
            let leads = block.lead_mask() & valid;
            let flags = checked::<V, STOPS>(block, prev).errors.nonzero_mask() | stops;
            if flags != 0 {
                let e = i + V::first_set(flags);
                return stop(e, i, counted, leads, prev_leads);
            }
            counted += (leads.count_ones() / V::MASK_BITS) as usize;
            prev_leads = leads;
            prev = block;
            i += w;
        }
    }
    if ends_incomplete(prev) {
        return stop(len, len, counted, 0, prev_leads);
    }
    FastStop {
        read: len,
        written: if COUNT { counted } else { 0 },
        flagged: None,
    }
}
