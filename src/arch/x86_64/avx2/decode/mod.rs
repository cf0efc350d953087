//! UTF-8 to UCS-4 and UTF-16, 32 bytes a step: each block is checked with
//! the validator's checks (`super::validate`), then its characters are
//! written by the path its lengths call for: ASCII widened, one- and
//! two-byte text (`two`), one to four bytes a lane (`quads`), or for text of
//! 3- and 4-byte characters the steps of `steps`; `window` gives each path
//! the bytes around the block, `utf16` turns code points into units.

mod quads;
mod steps;
mod two;
mod utf16;
mod window;

use core::arch::x86_64::*;

use super::lanes::{assemble, store_lanes, LEFT_PACK};
use super::validate::{
    bytes, check_block, ends_incomplete, flagged_bytes, lead_bytes, load_block, low_bits, non_ascii,
};
use crate::contract::{restart_point, FastStop};
use quads::{emit_quads, fits};
use steps::emit_steps;
use two::emit_two;
pub(super) use utf16::decode_utf16;
use window::{Tail, Window};

/// For 8 consecutive positions: lane `k` takes the 4 bytes starting at
/// position `k` (both 128-bit lanes hold the same 16 bytes from the first
/// position).
const FOUR_FROM_EACH: __m256i = bytes([
    0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, // from the first position
    4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10, // four positions on
]);

/// Writes the characters led at the set bits of `leads`, a mask over the
/// 32 bytes at `window`. Returns how many. With `slack`, every group stores
/// 8 lanes; the caller knows that more code points will be written over
/// the extra ones.
///
/// Eight positions at a time: every position gets the code point it would
/// start if it were a lead, and the real leads' values are packed to the
/// front with one permute.
///
/// # Safety
/// `window` is registers or points to 48 readable bytes; `out` has room
/// for `leads.count_ones()` code points, and with `slack` for 7 more.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn emit(window: impl Window, leads: u32, out: *mut u32, slack: bool) -> usize {
    let total = leads.count_ones() as usize;
    let mut written = 0;
    for g in 0..4 {
        let mask = (leads >> (8 * g)) as u8;
        if mask == 0 {
            continue;
        }
        // Both 128-bit lanes get the 16 bytes from position 8g (a broadcast
        // load needs no shuffle port); the upper lane's pattern starts 4 on.
        // SAFETY: the caller's promise for the window.
        let data = _mm256_broadcastsi128_si256(unsafe { window.group(g) });
        let candidates = assemble(_mm256_shuffle_epi8(data, FOUR_FROM_EACH));
        // SAFETY: the index is a valid row of the table.
        let pack = unsafe { _mm256_loadu_si256(LEFT_PACK[mask as usize].as_ptr().cast()) };
        let n = mask.count_ones() as usize;
        let packed = _mm256_permutevar8x32_epi32(candidates, pack);
        if slack || written + 8 <= total {
            // All 8 lanes fall inside this block's own output, or inside
            // the slack; the lanes past the n real ones are overwritten by
            // the groups after this one or by the caller.
            // SAFETY: room for `total` code points at `out`, or for 7 more
            // (n >= 1).
            unsafe { _mm256_storeu_si256(out.add(written).cast(), packed) };
        } else {
            // SAFETY: these n are among the `total` that fit.
            unsafe { store_lanes(out.add(written), packed, n) };
        }
        written += n;
    }
    written
}

/// Widens the first `n` bytes of an ASCII block.
///
/// # Safety
/// `out` has room for `n` code points.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn emit_ascii(block: __m256i, n: usize, out: *mut u32) {
    let halves = [
        _mm256_castsi256_si128(block),
        _mm256_extracti128_si256::<1>(block),
    ];
    for g in 0..n.div_ceil(8) {
        let half = halves[g / 2];
        let part = if g % 2 == 0 {
            half
        } else {
            _mm_srli_si128::<8>(half)
        };
        // SAFETY: n - 8g of the n code points fit at out + 8g.
        unsafe { store_lanes(out.add(8 * g), _mm256_cvtepu8_epi32(part), n - 8 * g) };
    }
}

/// Decodes the longest valid prefix of `src` (one block ahead of its output,
/// as in the AVX-512 tier).
///
/// Each block's characters are written one of four ways:
/// * ASCII blocks are widened;
/// * blocks of 1- and 2-byte characters go through [`emit_two`] (every
///   position's value at once, packed by lead mask);
/// * on text of 3- and 4-byte characters with little ASCII (chosen once per
///   call, [`prefers_steps`]), while the block and the next are well-formed
///   and 64 bytes are readable, [`emit_steps`] walks the characters in
///   12-byte steps that run on over the block edge: `carry` bytes at the
///   start of the next block are then already written;
/// * on the hot path, blocks with at most 4 leads per 8 positions go
///   through [`emit_quads`];
/// * everything else (other text, and near an error or the end of the
///   input or output) goes through `emit`, which writes exactly the
///   characters led in the block from `carry` on.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// code points.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the caller's promises.
    unsafe {
        if prefers_steps(src) {
            decode_with::<true>(src, out, cap)
        } else {
            decode_with::<false>(src, out, cap)
        }
    }
}

/// Whether `src` looks like text of 3- and 4-byte characters with little
/// ASCII between them (under one byte in 32), judged on its first 256
/// bytes: there the steps beat the per-position paths, which are faster
/// on everything else (and cheaper to switch between block by block).
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn prefers_steps(src: &[u8]) -> bool {
    let (mut ascii, mut wide, mut i) = (0, 0, 0);
    while i + 32 <= src.len().min(256) {
        // SAFETY: bytes i..i+32 are in bounds.
        let block = unsafe { _mm256_loadu_si256(src.as_ptr().add(i).cast()) };
        ascii += (!non_ascii(block)).count_ones() as usize;
        wide |= _mm256_movemask_epi8(_mm256_cmpgt_epi8(block, _mm256_set1_epi8(-33))) as u32
            & non_ascii(block);
        i += 32;
    }
    wide != 0 && ascii * 32 <= i
}

/// [`decode`], with steps where `STEPS` and the block has 3- or 4-byte
/// characters.
///
/// # Safety
/// As for [`decode`].
#[target_feature(enable = "avx2,popcnt,bmi1")]
#[inline(never)]
unsafe fn decode_with<const STEPS: bool>(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    let len = src.len();
    let mut written = 0usize;
    if len == 0 {
        return FastStop {
            read: 0,
            written,
            flagged: None,
        };
    }
    let mut i = 0usize;
    let mut carry = 0usize;
    let mut block = load_block(src, 0);
    let mut block_flags = if non_ascii(block) == 0 {
        0
    } else {
        flagged_bytes(check_block(block, _mm256_setzero_si256()))
    };
    loop {
        if non_ascii(block) == 0 && block_flags == 0 && carry == 0 {
            // An ASCII run: widen it 32 bytes a step while the next full
            // block is ASCII too (the general step below handles the last
            // ASCII block, whose successor may need an error window that
            // starts in it) and 32 fit.
            while len - i >= 64 && cap - written >= 32 {
                let following = load_block(src, i + 32);
                if non_ascii(following) != 0 {
                    break;
                }
                // SAFETY: room for 32 was checked just above.
                unsafe { emit_ascii(block, 32, out.add(written)) };
                written += 32;
                i += 32;
                block = following;
            }
        }
        let next = if len - i > 32 {
            load_block(src, i + 32)
        } else {
            _mm256_setzero_si256()
        };
        let block_ascii = non_ascii(block) == 0;
        let next_flags = if non_ascii(next) != 0 {
            flagged_bytes(check_block(next, block))
        } else {
            (!block_ascii && ends_incomplete(block)) as u32
        };
        // Bytes of 3- and 4-byte characters (signed: 0xE0 and above).
        let wide = _mm256_movemask_epi8(_mm256_cmpgt_epi8(block, _mm256_set1_epi8(-33))) as u32
            & non_ascii(block);
        let narrow = wide == 0;
        if block_flags | next_flags == 0
            && len - i >= 64
            && cap - written >= 64
            && STEPS
            && wide != 0
        {
            // Both blocks are well-formed, so every byte followed by a
            // non-continuation byte within them ends a character; bit 63
            // stays clear (its successor is unseen).
            let starts = lead_bytes(block) as u64 | (lead_bytes(next) as u64) << 32;
            // SAFETY: bytes i..i+64 are in bounds; `carry` (< 32: the block
            // is well-formed, so leads are at most 4 bytes apart) is the
            // lead of the first character not yet written; the characters
            // marked are well-formed; room for 64 was checked.
            let (n, stop) =
                unsafe { emit_steps(src.as_ptr().add(i), starts >> 1, carry, out.add(written)) };
            written += n;
            carry = stop - 32;
            i += 32;
            block = next;
            block_flags = next_flags;
            continue;
        }
        // Characters led before `carry` were written with the block before.
        let mut leads = lead_bytes(block) & low_bits(len - i) & !low_bits(carry);
        let mut error = None;
        if block_flags != 0 {
            error = Some(i + block_flags.trailing_zeros() as usize);
        } else if next_flags != 0 {
            let e = i + 32 + next_flags.trailing_zeros() as usize;
            if restart_point(src, e) < i + 32 {
                error = Some(e);
            }
        }
        if let Some(e) = error {
            // The restart point is never before `carry`: the characters
            // written ahead were followed by a lead before the next block.
            leads &= low_bits(restart_point(src, e) - i);
        }
        let n = leads.count_ones() as usize;
        if cap - written < n {
            let read = if leads == 0 {
                i
            } else {
                i + leads.trailing_zeros() as usize
            };
            return FastStop {
                read,
                written,
                flagged: None,
            };
        }
        if block_ascii && carry == 0 {
            // SAFETY: room for n was checked above.
            unsafe { emit_ascii(block, n, out.add(written)) };
        } else if block_ascii {
            // The rest of an ASCII block that the steps entered
            // (carry < len - i: the characters written lay in the input).
            let rest = load_block(src, i + carry);
            // SAFETY: room for n was checked above.
            unsafe { emit_ascii(rest, n, out.add(written)) };
        } else {
            // Whether a group may store all 8 lanes even past this block's
            // output: when the next block is whole and well-formed it
            // writes at least 7 code points right after (8 characters start
            // in any 32 well-formed bytes; an error found after it can cut
            // only its last 3 bytes), and with room for all of them it does
            // not stop early.
            let slack = block_flags | next_flags == 0 && len - i >= 64 && cap - written >= n + 32;
            // SAFETY: room for n was checked, and for 7 more with `slack`;
            // the window has 48 readable bytes, or is registers.
            unsafe {
                if len - i < 48 {
                    // The last block or two (no slack): the rest of the
                    // input in registers.
                    let window = Tail::new(src, i);
                    if narrow {
                        emit_two(window, leads, out.add(written), false)
                    } else {
                        emit(window, leads, out.add(written), false)
                    }
                } else {
                    let window = src.as_ptr().add(i);
                    if narrow {
                        emit_two(window, leads, out.add(written), slack)
                    } else if slack && fits(leads) {
                        emit_quads(window, leads, out.add(written))
                    } else {
                        emit(window, leads, out.add(written), slack)
                    }
                }
            };
        }
        written += n;
        if let Some(e) = error {
            return FastStop {
                read: restart_point(src, e),
                written,
                flagged: Some(e.min(len)),
            };
        }
        if len - i <= 32 {
            return FastStop {
                read: len,
                written,
                flagged: None,
            };
        }
        // With steps, the next block's first lead: bytes before it continue
        // a character written here (32 if there is none, which only
        // ill-formed text has). Without, the leads tell that already.
        carry = if STEPS {
            lead_bytes(next).trailing_zeros() as usize
        } else {
            0
        };
        i += 32;
        block = next;
        block_flags = next_flags;
    }
}
