//! Latin-1 to UTF-8, 64 bytes a step: an all-ASCII block is copied; any
//! other is widened to two vectors of 16-bit units (each byte is the code
//! point U+0000..U+00FF) and written by the UCS-4 encoder's two-byte path.

use core::arch::x86_64::*;

use super::ucs4::{encode_short_units, low_bits};
use crate::arch::FastStop;

/// Encodes as much of `src` as fits in the `cap` bytes at `out`.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn encode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    while i < len {
        let rest = (len - i).min(64);
        // The most this step can write: two bytes a byte.
        if cap - written < 2 * rest {
            break;
        }
        let lanes = low_bits(rest as u32);
        let block = if rest == 64 {
            // SAFETY: bytes i..i+64 are in bounds.
            unsafe { _mm512_loadu_si512(ptr.add(i).cast()) }
        } else {
            // SAFETY: the lanes cover only bytes i..i+rest; masked-off
            // lanes do not fault.
            unsafe { _mm512_maskz_loadu_epi8(lanes, ptr.add(i).cast()) }
        };
        if _mm512_movepi8_mask(block) == 0 {
            if rest == 64 {
                // SAFETY: 64 bytes, within the room checked above.
                unsafe { _mm512_storeu_si512(out.add(written).cast(), block) };
            } else {
                // SAFETY: `rest` bytes, within the room checked above.
                unsafe { _mm512_mask_storeu_epi8(out.add(written).cast(), lanes, block) };
            }
            written += rest;
        } else {
            let halves = [
                _mm512_castsi512_si256(block),
                _mm512_extracti64x4_epi64::<1>(block),
            ];
            for (h, half) in halves.into_iter().enumerate() {
                let valid = (lanes >> (32 * h)) as u32;
                if valid == u32::MAX && _mm256_movemask_epi8(half) == 0 {
                    // An ASCII half: copied.
                    // SAFETY: 32 bytes, within the room checked above.
                    unsafe { _mm256_storeu_si256(out.add(written).cast(), half) };
                    written += 32;
                } else {
                    let units = _mm512_cvtepu8_epi16(half);
                    // SAFETY: two bytes at most for each valid lane, within
                    // the room checked above.
                    written += unsafe { encode_short_units(units, valid, out.add(written)) };
                }
            }
        }
        i += rest;
    }
    FastStop {
        read: i,
        written,
        flagged: None,
    }
}
