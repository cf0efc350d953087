//! Latin-1 to UTF-8 and back on NEON, 16 bytes a step.
//!
//! # Latin-1 to UTF-8 ([`encode_latin1`])
//!
//! An all-ASCII block (`UMAXV` below 0x80) is copied with one exact
//! 16-byte store, then whole 64-byte ASCII runs likewise. Any other block
//! is widened to two vectors of eight 16-bit words (`UXTL`, `UXTL2`: each
//! byte is the code point U+0000..U+00FF) and each goes through the UCS-4
//! encoder's step for eight characters below U+0800 (`ucs4::short8`): lead
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
//! the scalar core (the driver's `run`).
//!
//! # UTF-8 to Latin-1 ([`decode_latin1`])
//!
//! For text made of ASCII and the two-byte characters U+0080..U+00FF
//! (leads C2 and C3). ASCII blocks are copied as above. Any other block is
//! checked with the validator's block check (`generic::utf8::checked`,
//! against the block before) and must have no lead other than C2 or C3
//! (no byte C0, C1 or C4..FF); a C2/C3 in the block's last byte takes its
//! continuation from the next byte, which must be one, and the next block
//! then starts after it (`carry`). Each lead becomes `(lead << 6) | (next &
//! 3F)` in one `SLI` from an unaligned load of the bytes one on, and the
//! continuation bytes are dropped by one `TBL` whose pattern is two 8-byte
//! rows of `tables::KEEP_BYTES` keyed by the 8-bit masks of the bytes to
//! keep (gathered with pairwise adds): each half of the vector keeps its
//! bytes at its front. A clean block gives 8 to 16 bytes (a character takes
//! at most 2 of its 16 bytes), stored exactly: the low half (8 bytes) at
//! the start, then the last 8 bytes of the output, picked from both halves
//! by a second `TBL` (`tables::KEEP_TAIL`), over the low half's zeros.
//!
//! A block with anything else ends the kernel before the block (after
//! the carried continuation), flagging three bytes past the first bad
//! byte (so that the scalar window takes in the whole sequence that a bad
//! lead starts). The scalar core then applies the policy to that window,
//! writing what of the block is good, and the kernel resumes after it.
//! The blocks run while 17 bytes or more remain (the byte after the block
//! is always there); the rest is left to the scalar core.

use core::arch::aarch64::*;

use super::ucs4::short8;
use super::vector::Neon;
use crate::arch::generic::tables::{KEEP_BYTES, KEEP_TAIL};
use crate::arch::generic::utf8::{checked, load_four, NO_STOPS};
use crate::arch::FastStop;

/// Copies whole 64-byte all-ASCII runs from the start of `src` while they
/// fit in `room`; returns how many bytes it copied.
///
/// # Safety
/// `out` points to `room` writable bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn copy_ascii_runs(src: &[u8], out: *mut u8, room: usize) -> usize {
    let limit = src.len().min(room);
    let mut i = 0;
    while limit - i >= 64 {
        // SAFETY: bytes i..i+64 are in bounds (i + 64 <= src.len()).
        let four = unsafe { load_four::<Neon>(src, i) }.map(|v| v.0);
        let all = vorrq_u8(vorrq_u8(four[0], four[1]), vorrq_u8(four[2], four[3]));
        if vmaxvq_u8(all) >= 0x80 {
            break;
        }
        // SAFETY: bytes i..i+64 lie in the `room` (i + 64 <= room).
        unsafe { vst1q_u8_x4(out.add(i), uint8x16x4_t(four[0], four[1], four[2], four[3])) };
        i += 64;
    }
    i
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

/// The 8-bit masks of the two halves of `m` (each byte 00 or FF), low
/// half first: one bit a byte, gathered by three pairwise adds.
#[target_feature(enable = "neon")]
#[inline]
fn masks8(m: uint8x16_t) -> (usize, usize) {
    const BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: BITS is 16 readable bytes.
    let bits = vandq_u8(m, unsafe { vld1q_u8(BITS.as_ptr()) });
    let p = vpaddq_u8(bits, bits);
    let p = vpaddq_u8(p, p);
    let p = vpaddq_u8(p, p);
    let both = vgetq_lane_u16::<0>(vreinterpretq_u16_u8(p));
    (usize::from(both & 0xFF), usize::from(both >> 8))
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
/// 16 bytes or fewer; a block with a bad byte ends it, flagged.
///
/// # Safety
/// `out` points to `cap` writable bytes (NEON is baseline on aarch64).
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut i, mut written) = (0usize, 0usize);
    // Whether byte 0 of the block at `i` continues the block before's last
    // byte, whose character is already written.
    let mut carry = 0usize;
    let mut prev = vdupq_n_u8(0);
    let dup = vdupq_n_u8;
    while len - i > 16 {
        // SAFETY: bytes i..i+16 are in bounds (the loop condition).
        let v = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        if vmaxvq_u8(v) < 0x80 {
            // (Not after a carry: then byte 0 is a continuation.)
            if cap - written < 16 {
                break;
            }
            // SAFETY: 16 bytes of room (checked just above).
            unsafe { vst1q_u8(out.add(written), v) };
            (i, written) = (i + 16, written + 16);
            // SAFETY: the `cap - written` bytes at out + written are
            // writable.
            let run = unsafe { copy_ascii_runs(&src[i..], out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            // An ASCII block before checks the same as none.
            prev = dup(0);
            continue;
        }
        // Leads C2, C3; bad bytes C0, C1, C4..FF.
        let leads = vceqq_u8(vandq_u8(v, dup(0xFE)), dup(0xC2));
        let bad = vorrq_u8(
            vcgtq_u8(v, dup(0xC3)),
            vceqq_u8(vandq_u8(v, dup(0xFE)), dup(0xC0)),
        );
        let errors = vorrq_u8(bad, checked::<Neon, NO_STOPS>(Neon(v), Neon(prev)).errors.0);
        let last_lead = src[i + 15] & 0xFE == 0xC2;
        let first_bad = if vmaxvq_u8(errors) != 0 {
            Some(first_set(errors))
        } else if last_lead && src[i + 16] & 0xC0 != 0x80 {
            Some(16)
        } else {
            None
        };
        if let Some(e) = first_bad {
            // e >= carry: a carried byte 0 is a continuation after C2/C3.
            return FastStop {
                read: i + carry,
                written,
                flagged: Some((i + e + 3).min(len)),
            };
        }
        // Keep all but the continuation bytes (signed, below -64).
        let keep = vcgtq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-65));
        let (k0, k1) = masks8(keep);
        let (n0, n1) = (k0.count_ones() as usize, k1.count_ones() as usize);
        let n = n0 + n1;
        if cap - written < n {
            break;
        }
        // SAFETY: bytes i+1..i+17 are in bounds (17 bytes or more remain);
        // k0, k1 < 256 and n0, n1 <= 8 are rows of the tables.
        let (after, pattern, tail) = unsafe {
            (
                vld1q_u8(src.as_ptr().add(i + 1)),
                vcombine_u8(
                    vld1_u8(KEEP_BYTES[0][k0].as_ptr()),
                    vld1_u8(KEEP_BYTES[1][k1].as_ptr()),
                ),
                vld1_u8(KEEP_TAIL[9 * n0 + n1].as_ptr()),
            )
        };
        let values = vbslq_u8(leads, vsliq_n_u8::<6>(after, v), v);
        let packed = vqtbl1q_u8(values, pattern);
        // SAFETY: 8 <= n (a character takes at most 2 of the 16 bytes) and
        // n bytes of room (checked above): [0, 8) and [n - 8, n) lie in it,
        // and the second covers the low half's zeros, [n0, 8).
        unsafe {
            vst1_u8(out.add(written), vget_low_u8(packed));
            vst1_u8(out.add(written + n - 8), vqtbl1_u8(packed, tail));
        }
        written += n;
        carry = usize::from(last_lead);
        prev = v;
        i += 16;
    }
    FastStop {
        read: i + carry,
        written,
        flagged: None,
    }
}
