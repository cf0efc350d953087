//! Latin-1 to UTF-8, 16 or 32 bytes a step.
//!
//! ASCII is copied, 128 or 32 bytes at a time. Any other block of 16 bytes
//! is widened to 16-bit words (each byte is the code point U+0000..U+00FF)
//! and written by the UCS-4 encoder's pair block. That block is stored
//! loosely (whole vectors, zeros after its bytes) when another whole block
//! follows and the room after it holds that block's largest output: the
//! next block then stores 16 bytes or more from where this one ends, over
//! the zeros. Otherwise it is stored exactly. The last 15 bytes or fewer
//! are left to the scalar core (the driver's `run`).

use core::arch::x86_64::*;

use super::ucs4::block::{encode_pairs, store, store_loose};
use crate::arch::FastStop;

/// Copies whole 128-byte all-ASCII runs while they fit; returns how many
/// bytes it copied.
///
/// # Safety
/// `ptr` points to `len` readable bytes and `out` to `room` writable ones.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn copy_ascii_runs(ptr: *const u8, len: usize, out: *mut u8, room: usize) -> usize {
    let mut i = 0;
    while len - i >= 128 && room - i >= 128 {
        // SAFETY: bytes i..i+128 are in bounds.
        let v = unsafe { [0, 32, 64, 96].map(|o| _mm256_loadu_si256(ptr.add(i + o).cast())) };
        let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
        if _mm256_movemask_epi8(any) != 0 {
            break;
        }
        for (k, block) in v.into_iter().enumerate() {
            // SAFETY: bytes i..i+128 of the `room` checked above.
            unsafe { _mm256_storeu_si256(out.add(i + 32 * k).cast(), block) };
        }
        i += 128;
    }
    i
}

/// Encodes as much of `src` as fits in the `cap` bytes at `out`, up to its
/// last 15 bytes or fewer.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn encode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    while len - i >= 16 {
        let room = cap - written;
        if len - i >= 32 && room >= 32 {
            // SAFETY: bytes i..i+32 are in bounds.
            let block = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
            if _mm256_movemask_epi8(block) == 0 {
                // SAFETY: 32 bytes of room (checked above).
                unsafe { _mm256_storeu_si256(out.add(written).cast(), block) };
                (i, written) = (i + 32, written + 32);
                // SAFETY: bytes i..len are readable, `cap - written`
                // writable.
                let run = unsafe {
                    copy_ascii_runs(ptr.add(i), len - i, out.add(written), cap - written)
                };
                (i, written) = (i + run, written + run);
                continue;
            }
        }
        // SAFETY: bytes i..i+16 are in bounds.
        let bytes = unsafe { _mm_loadu_si128(ptr.add(i).cast()) };
        if _mm_movemask_epi8(bytes) == 0 {
            if room < 16 {
                break;
            }
            // SAFETY: 16 bytes of room (checked just above).
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            (i, written) = (i + 16, written + 16);
            continue;
        }
        let lanes = encode_pairs(_mm256_cvtepu8_epi16(bytes));
        let total = lanes.total();
        if room < total {
            break;
        }
        // Loose only if the next block is whole and has room for its
        // largest output (32 bytes, more than the 16-byte overhang): then
        // it is stored, starting with 16 bytes or more where this one ends.
        let loose = len - i >= 32 && room - total >= 32;
        // SAFETY: the block's 16 to 32 bytes fit, and when loose, 16 more
        // (the room checked for the next block).
        unsafe {
            if loose {
                store_loose(&lanes, out.add(written));
            } else {
                store(&lanes, out.add(written));
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
