//! Latin-1 to UTF-8 and back on NEON, 16 bytes a step.
//!
//! # Latin-1 to UTF-8 ([`encode_latin1`])
//!
//! An all-ASCII block (`UMAXV` below 0x80) is copied with one exact
//! 16-byte store, then whole 64-byte ASCII runs likewise. Any other block
//! is widened to two vectors of eight 16-bit words (`UXTL`, `UXTL2`: each
//! byte is the code point U+0000..U+00FF) and each goes through the UCS-4
//! encoder's step for eight characters below U+0800 (`encode_ucs4::short8`): lead
//! `C0 | b >> 6` in each word's low byte and continuation `80 | b & 3F` in
//! its high byte (or the ASCII byte alone), compacted by a `TBL` pattern
//! keyed by the 8 bits of which words take two bytes (a table of 256 rows
//! of 16), 8 to 16 bytes packed to the front, zeros after them.
//!
//! The two packed vectors go out whole, one after the other, when another
//! whole block follows and the room after this block's output holds that
//! block's largest output (32 bytes): the second store reaches at most 8
//! bytes past the block's output, and the next block, which the kernel
//! then always writes, stores 16 bytes or more from where this one ends
//! (the kernel never stops for anything but room). Otherwise the block goes
//! out exactly: the first vector's 16 bytes (the output has 16 or more),
//! then the output's last 16 bytes, read back from a stack buffer that
//! holds the two vectors joined. The last 15 bytes or fewer are left to
//! the reference core (the engine's loop, `engine::run`).
//!
//! # UTF-8 to Latin-1 ([`decode_latin1`])
//!
//! For text made of ASCII and the two-byte characters U+0080..U+00FF
//! (leads C2 and C3). ASCII blocks are copied as above. Any other block
//! must hold only ASCII, continuation bytes and the leads C2 and C3, each
//! lead followed by a continuation byte and each continuation byte after a
//! lead: for these leads that is all of Table 3-7, so the validator's
//! block check is not needed. The tests are against the block before's
//! leads (`EXT`) and the bytes one on (an unaligned load, so a C2/C3 in
//! the block's last byte takes its continuation from the next block, which
//! then starts after it: `carry`). Each lead becomes `(lead << 6) | (next
//! & 3F)` in one `SLI` from those bytes one on, and the continuation bytes
//! are dropped by one `TBL` whose pattern is two 8-byte rows of
//! `tables::KEEP_BYTES` keyed by the 8-bit masks of the bytes to keep; one
//! chain of pairwise adds gathers both masks and both counts. Each half of
//! the vector keeps its bytes at its front. A clean block gives 8 to 16
//! bytes (a character takes at most 2 of its 16 bytes), stored exactly:
//! the low half (8 bytes) at the start, then the last 8 bytes of the
//! output, picked from both halves by a second `TBL` (`tables::KEEP_TAIL`),
//! over the low half's zeros.
//!
//! A block with anything else ends the kernel before the block (after
//! the carried continuation), flagging three bytes past the first bad
//! byte (so that the scalar window takes in the whole sequence that a bad
//! lead starts). The reference core then applies the policy to that window,
//! writing what of the block is good, and the kernel resumes after it.
//! The blocks run while 17 bytes or more remain (the byte after the block
//! is always there); the rest is left to the reference core.

use core::arch::aarch64::*;

use super::encode_ucs4::short8;
use super::lanes::pin;
use crate::arch::generic::tables::{KEEP_BYTES, KEEP_TAIL};
use crate::contract::FastStop;

/// Copies whole all-ASCII runs from the start of `src` while they fit in
/// `room` (`generic::ascii`); returns how many bytes it copied.
///
/// # Safety
/// `out` points to `room` writable bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn copy_ascii_runs(src: &[u8], out: *mut u8, room: usize) -> usize {
    // SAFETY: the caller's promise; the CPU has the tier's features.
    unsafe { crate::arch::generic::ascii::copy_ascii_runs::<super::vector::Neon>(src, out, room) }
}

/// Latin-1 to UTF-8 (see the module documentation): as much of `src` as
/// fits in the `cap` bytes at `out`, up to its last 15 bytes or fewer.
///
/// # Safety
/// `out` points to `cap` writable bytes (NEON is baseline on aarch64).
#[target_feature(enable = "neon")]
pub(super) unsafe fn encode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut i, mut written) = (0usize, 0usize);
    while len - i >= 16 {
        let room = cap - written;
        // SAFETY: bytes i..i+16 are in bounds (the loop condition).
        let bytes = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        if vmaxvq_u8(bytes) < 0x80 {
            if room < 16 {
                break;
            }
            // SAFETY: 16 bytes of room (checked just above).
            unsafe { vst1q_u8(out.add(written), bytes) };
            (i, written) = (i + 16, written + 16);
            // SAFETY: the `cap - written` bytes at out + written are
            // writable.
            let run = unsafe { copy_ascii_runs(&src[i..], out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            continue;
        }
        let (lo, n_lo) = short8(vmovl_u8(vget_low_u8(bytes)));
        let (hi, n_hi) = short8(vmovl_high_u8(bytes));
        let total = n_lo + n_hi;
        if room < total {
            break;
        }
        if len - i >= 32 && room - total >= 32 {
            // SAFETY: [0, 16) and [n_lo, n_lo + 16) lie in [0, total + 8)
            // (total >= 16, n_hi >= 8), inside the room checked above; the
            // next block's output (at most 32 bytes, which fit) starts at
            // `total` with a store of 16 bytes or more, and covers the
            // excess.
            unsafe {
                vst1q_u8(out.add(written), lo);
                vst1q_u8(out.add(written + n_lo), hi);
            }
        } else {
            let mut buf = [0u8; 32];
            // SAFETY: n_lo <= 16, so both buffer stores lie in the local
            // buffer, and 16 <= total <= 32, so its bytes total-16..total
            // are in it; the two stores at `out` are [0, 16) and
            // [total - 16, total), in the room checked above.
            unsafe {
                vst1q_u8(buf.as_mut_ptr(), lo);
                vst1q_u8(buf.as_mut_ptr().add(n_lo), hi);
                let last = vld1q_u8(buf.as_ptr().add(total - 16));
                vst1q_u8(out.add(written), lo);
                vst1q_u8(out.add(written + total - 16), last);
            }
        }
        (i, written) = (i + 16, written + total);
    }
    FastStop {
        read: i,
        written,
        flagged: None,
    }
}

/// The keys and the counts of the bytes that `keep_a` and `keep_b` mark
/// (each byte 00 or FF) in their halves: bytes 0-3 of the result are the
/// 8-bit masks (one bit a byte) of `keep_a`'s low and high halves and of
/// `keep_b`'s, bytes 4-7 their population counts. One chain of pairwise
/// adds sums both: the bytes weighted by their bits, and the bytes as
/// ones.
#[target_feature(enable = "neon")]
#[inline]
fn keys_and_counts(keep_a: uint8x16_t, keep_b: uint8x16_t) -> u64 {
    const BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: BITS is 16 readable bytes.
    let bits = unsafe { vld1q_u8(BITS.as_ptr()) };
    let one = vdupq_n_u8(1);
    // (Pinned: the compiler rewrites a chain of `ADDP`s it can see into
    // more instructions.)
    let keys = pin(vpaddq_u8(vandq_u8(keep_a, bits), vandq_u8(keep_b, bits)));
    let counts = pin(vpaddq_u8(vandq_u8(keep_a, one), vandq_u8(keep_b, one)));
    let p = pin(vpaddq_u8(keys, counts));
    vgetq_lane_u64::<0>(vreinterpretq_u64_u8(pin(vpaddq_u8(p, p))))
}

/// A block's tests (see the module documentation), each byte 00 or FF.
struct Block {
    /// The leads C2 and C3.
    leads: uint8x16_t,
    /// The continuation bytes.
    cont: uint8x16_t,
    /// Bad bytes, stray continuation bytes and leads without one.
    errors: uint8x16_t,
}

/// Tests the block `v`, given the 16 bytes one on (`after`) and the block
/// before's leads.
#[target_feature(enable = "neon")]
#[inline]
fn check(v: uint8x16_t, after: uint8x16_t, prev_leads: uint8x16_t) -> Block {
    let dup = vdupq_n_u8;
    // Leads C2, C3; bad bytes C0, C1, C4..FF; continuation bytes 80..BF
    // (signed, below -64).
    let leads = vceqq_u8(vandq_u8(v, dup(0xFE)), dup(0xC2));
    let bad = vbicq_u8(vcgeq_u8(v, dup(0xC0)), leads);
    let below = |x: uint8x16_t| vcltq_s8(vreinterpretq_s8_u8(x), vdupq_n_s8(-64));
    let (cont, cont_after) = (below(v), below(after));
    // Every continuation byte follows a lead (the block before's last byte
    // for byte 0), and every lead is followed by one (byte 16 for the
    // last): this is all Table 3-7 asks of C2 and C3.
    let stray = vbicq_u8(cont, vextq_u8::<15>(prev_leads, leads));
    let cut = vbicq_u8(leads, cont_after);
    let errors = vorrq_u8(bad, vorrq_u8(stray, cut));
    Block {
        leads,
        cont,
        errors,
    }
}

/// The Latin-1 bytes of the clean block `v` (tested as `b`; `after` its
/// bytes one on) at the front of each half, zeros after them; `k0` and
/// `k1` are the keys of the bytes its halves keep.
///
/// # Safety
/// `k0, k1 < 256`.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn pack(v: uint8x16_t, after: uint8x16_t, b: &Block, k0: usize, k1: usize) -> uint8x16_t {
    // SAFETY: the keys index the table (the caller's promise).
    let pattern = unsafe {
        vcombine_u8(
            vld1_u8(KEEP_BYTES.get_unchecked(0).get_unchecked(k0).as_ptr()),
            vld1_u8(KEEP_BYTES.get_unchecked(1).get_unchecked(k1).as_ptr()),
        )
    };
    let values = vbslq_u8(b.leads, vsliq_n_u8::<6>(after, v), v);
    vqtbl1q_u8(values, pattern)
}

/// Writes the clean block `v` (tested as `b`; `after` its bytes one on)
/// at `out`: its `n0 + n1` Latin-1 bytes exactly, `k0` and `k1` the keys
/// of the bytes its halves keep and `n0`, `n1` their counts.
///
/// # Safety
/// `out` points to `n0 + n1` writable bytes; the keys and counts are those
/// of `b` (so `k0, k1 < 256` and `n0, n1 <= 8`, which index the tables,
/// and `n0 + n1 >= 8`, a character taking at most 2 of the 16 bytes).
#[target_feature(enable = "neon")]
#[inline]
unsafe fn store_block(v: uint8x16_t, after: uint8x16_t, b: &Block, keys: [usize; 4], out: *mut u8) {
    let [k0, k1, n0, n1] = keys;
    // SAFETY: the keys and counts index the tables (the caller's promise).
    let (packed, tail) = unsafe {
        (
            pack(v, after, b, k0, k1),
            vld1_u8(KEEP_TAIL.get_unchecked(9 * n0 + n1).as_ptr()),
        )
    };
    // SAFETY: 8 <= n0 + n1, the room the caller promises: [0, 8) and
    // [n - 8, n) lie in it, and the second covers the low half's zeros,
    // [n0, 8).
    unsafe {
        vst1_u8(out, vget_low_u8(packed));
        vst1_u8(out.add(n0 + n1 - 8), vqtbl1_u8(packed, tail));
    }
}

/// The index of the first nonzero byte of `m` (which has one).
#[target_feature(enable = "neon")]
#[inline]
fn first_set(m: uint8x16_t) -> usize {
    let nibbles = vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
        vtstq_u8(m, m),
    ))));
    nibbles.trailing_zeros() as usize / 4
}

/// UTF-8 to Latin-1 (see the module documentation): the longest prefix of
/// ASCII and C2/C3 pairs that fits, at block granularity, up to the last
/// 16 bytes or fewer; a block with a bad byte ends it, flagged. Two blocks
/// go together while 33 bytes or more remain (one test for ASCII, errors
/// and room, one gathering of the keys); a pair with an error, or whose
/// output does not fit, goes again one block at a time, to find where.
///
/// # Safety
/// `out` points to `cap` writable bytes (NEON is baseline on aarch64).
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut i, mut written) = (0usize, 0usize);
    // The block before's leads (FF a lead): its last byte says whether
    // byte 0 of the block at `i` continues a character already written.
    let mut prev = vdupq_n_u8(0);
    let carry = |prev: uint8x16_t| usize::from(vgetq_lane_u8::<15>(prev) != 0);
    let ptr = src.as_ptr();
    while len - i > 16 {
        while len - i > 32 {
            // SAFETY: bytes i..i+33 are in bounds (the loop condition).
            let (v, w, after_v, after_w) = unsafe {
                (
                    vld1q_u8(ptr.add(i)),
                    vld1q_u8(ptr.add(i + 16)),
                    vld1q_u8(ptr.add(i + 1)),
                    vld1q_u8(ptr.add(i + 17)),
                )
            };
            if vmaxvq_u8(vorrq_u8(v, w)) < 0x80 {
                // (Not after a carry: then byte 0 is a continuation.)
                if cap - written < 32 {
                    break;
                }
                // SAFETY: 32 bytes of room (checked just above); the
                // `cap - written` bytes at out + written are writable.
                let run = unsafe {
                    vst1q_u8(out.add(written), v);
                    vst1q_u8(out.add(written + 16), w);
                    copy_ascii_runs(&src[i + 32..], out.add(written + 32), cap - written - 32)
                };
                (i, written) = (i + 32 + run, written + 32 + run);
                // No lead ends an ASCII block.
                prev = vdupq_n_u8(0);
                continue;
            }
            let a = check(v, after_v, prev);
            let b = check(w, after_w, a.leads);
            let keys = keys_and_counts(vmvnq_u8(a.cont), vmvnq_u8(b.cont));
            let byte = |k: u32| (keys >> (8 * k) & 0xFF) as usize;
            let (na, nb) = (byte(4) + byte(5), byte(6) + byte(7));
            if vmaxvq_u8(vorrq_u8(a.errors, b.errors)) != 0 || cap - written < na + nb {
                break;
            }
            // SAFETY: na + nb bytes of room (checked above); the keys and
            // counts are the blocks'. The first block's halves go out
            // whole: the high one ends 8 - n1 <= 4 bytes past its output
            // (a half keeps 4 bytes or more), inside the second block's,
            // which is written next, exactly, and has 8 bytes or more.
            unsafe {
                let packed = pack(v, after_v, &a, byte(0), byte(1));
                vst1_u8(out.add(written), vget_low_u8(packed));
                vst1_u8(out.add(written + byte(4)), vget_high_u8(packed));
                store_block(
                    w,
                    after_w,
                    &b,
                    [byte(2), byte(3), byte(6), byte(7)],
                    out.add(written + na),
                );
            }
            (i, written, prev) = (i + 32, written + na + nb, b.leads);
        }
        if len - i <= 16 {
            break;
        }
        // SAFETY: bytes i..i+16 are in bounds (the test above).
        let v = unsafe { vld1q_u8(ptr.add(i)) };
        if vmaxvq_u8(v) < 0x80 {
            if cap - written < 16 {
                break;
            }
            // SAFETY: 16 bytes of room (checked just above).
            unsafe { vst1q_u8(out.add(written), v) };
            (i, written, prev) = (i + 16, written + 16, vdupq_n_u8(0));
            continue;
        }
        // SAFETY: bytes i+1..i+17 are in bounds (17 bytes or more remain).
        let after = unsafe { vld1q_u8(ptr.add(i + 1)) };
        let a = check(v, after, prev);
        if vmaxvq_u8(a.errors) != 0 {
            // The first bad byte is past any carried continuation (which
            // follows its lead).
            return FastStop::latin1_error(i + carry(prev), written, i + first_set(a.errors), len);
        }
        let keys = keys_and_counts(vmvnq_u8(a.cont), vdupq_n_u8(0));
        let byte = |k: u32| (keys >> (8 * k) & 0xFF) as usize;
        let n = byte(4) + byte(5);
        if cap - written < n {
            break;
        }
        // SAFETY: n bytes of room (checked above); the keys and counts are
        // the block's.
        unsafe {
            store_block(
                v,
                after,
                &a,
                [byte(0), byte(1), byte(4), byte(5)],
                out.add(written),
            )
        };
        (i, written, prev) = (i + 16, written + n, a.leads);
    }
    FastStop {
        read: i + carry(prev),
        written,
        flagged: None,
    }
}
