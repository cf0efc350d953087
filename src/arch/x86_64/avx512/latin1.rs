//! Latin-1 to UTF-8, 64 bytes a step: an all-ASCII block is copied; any
//! other is widened to two vectors of 16-bit units (each byte is the code
//! point U+0000..U+00FF) and written by the UCS-4 encoder's two-byte path.

use core::arch::x86_64::*;

use super::encode_ucs4::{encode_short_units, encode_short_units_into, low_bits};
use crate::contract::FastStop;

/// Copies whole 256-byte all-ASCII runs from `i` while `room` bytes fit;
/// returns how many bytes it copied.
///
/// # Safety
/// `ptr` points to `len` readable bytes and `out` to `room` writable ones.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn copy_ascii_runs(ptr: *const u8, len: usize, out: *mut u8, room: usize) -> usize {
    let mut i = 0;
    while len - i >= 256 && room - i >= 256 {
        // SAFETY: bytes i..i+256 are in bounds.
        let blocks =
            unsafe { [0, 64, 128, 192].map(|o| _mm512_loadu_si512(ptr.add(i + o).cast())) };
        let any = _mm512_ternarylogic_epi32::<0xFE>(
            blocks[0],
            blocks[1],
            _mm512_or_si512(blocks[2], blocks[3]),
        );
        if _mm512_movepi8_mask(any) != 0 {
            break;
        }
        for (k, block) in blocks.into_iter().enumerate() {
            // SAFETY: bytes i..i+256 of the `room` checked above.
            unsafe { _mm512_storeu_si512(out.add(i + 64 * k).cast(), block) };
        }
        i += 256;
    }
    i
}

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
        // SAFETY: bytes i..len are readable, `cap - written` writable.
        let run = unsafe { copy_ascii_runs(ptr.add(i), len - i, out.add(written), cap - written) };
        (i, written) = (i + run, written + run);
        if i == len {
            break;
        }
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
            // Whole-vector stores when another whole block follows and the
            // room for this one and the next is there: a half writes at
            // least 32 bytes, so the garbage past it (at most 32) is
            // overwritten by what comes next.
            let whole_stores = len - i >= 128 && cap - written >= 256;
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
                    written += if whole_stores {
                        // SAFETY: 64 bytes fit (checked with `whole_stores`);
                        // what follows overwrites the garbage: this block's
                        // other half, or the next block, which is whole and
                        // fits, and writes at least 32 bytes.
                        unsafe { encode_short_units_into::<true>(units, valid, out.add(written)) }
                    } else {
                        // SAFETY: two bytes at most for each valid lane,
                        // within the room checked above.
                        unsafe { encode_short_units(units, valid, out.add(written)) }
                    };
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

/// UTF-8 to Latin-1, 64 bytes a step, for text made of ASCII and the
/// two-byte characters U+0080..U+00FF (leads C2 and C3). A block of other
/// bytes, or a lead without its continuation byte, ends the run at that
/// byte; the reference core then applies the policy (an error, a character
/// above U+00FF, a replacement) and the kernel resumes after it.
///
/// A lead in a block's last byte takes its continuation from the next
/// block, which then skips that byte (`carry`).
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn decode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    let mut carry = 0u64;
    let byte = |v: u8| _mm512_set1_epi8(v as i8);
    while i < len {
        if carry == 0 {
            // SAFETY: bytes i..len are readable, `cap - written` writable.
            let run =
                unsafe { copy_ascii_runs(ptr.add(i), len - i, out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            if i == len {
                break;
            }
        }
        let rest = (len - i).min(64);
        let valid = low_bits(rest as u32);
        let block = if rest == 64 {
            // SAFETY: bytes i..i+64 are in bounds.
            unsafe { _mm512_loadu_si512(ptr.add(i).cast()) }
        } else {
            // SAFETY: the lanes cover only bytes i..len; masked-off lanes
            // do not fault.
            unsafe { _mm512_maskz_loadu_epi8(valid, ptr.add(i).cast()) }
        };
        let non_ascii = _mm512_movepi8_mask(block) & valid;
        if non_ascii == 0 && carry == 0 {
            if cap - written < rest {
                break;
            }
            if rest == 64 {
                // SAFETY: 64 bytes, which fit (checked just above).
                unsafe { _mm512_storeu_si512(out.add(written).cast(), block) };
            } else {
                // SAFETY: `rest` bytes, which fit (checked just above).
                unsafe { _mm512_mask_storeu_epi8(out.add(written).cast(), valid, block) };
            }
            written += rest;
            i += rest;
            continue;
        }
        let cont = _mm512_cmplt_epi8_mask(block, byte(0xC0)) & valid;
        let leads = _mm512_cmpeq_epi8_mask(_mm512_and_si512(block, byte(0xFE)), byte(0xC2)) & valid;
        // The byte after a lead in the last lane, from the next block.
        let next = if leads >> 63 != 0 && len - i > 64 {
            // SAFETY: byte i+64 is in bounds.
            unsafe { _mm512_maskz_loadu_epi8(1, ptr.add(i + 64).cast()) }
        } else {
            _mm512_setzero_si512()
        };
        let expect = (leads << 1) | carry;
        let bad = (non_ascii & !leads & !cont) | (cont ^ (expect & valid)) | (expect & !valid);
        let last_lead_cut = leads >> 63 != 0 && _mm512_cmplt_epi8_mask(next, byte(0xC0)) & 1 == 0;
        // The first bad byte, and where the run ends: before it, or before
        // the lead it should have continued.
        let error = if bad != 0 {
            Some(bad.trailing_zeros() as usize)
        } else if last_lead_cut {
            Some(64)
        } else {
            None
        };
        let limit = match error {
            Some(e) if e < 64 && (expect >> e) & 1 != 0 => e - 1,
            Some(64) => 63,
            Some(e) => e,
            None => rest,
        };
        let keep = !cont & low_bits(limit as u32) & valid;
        let n = keep.count_ones() as usize;
        if cap - written < n {
            return FastStop {
                read: i + carry as usize,
                written,
                flagged: None,
            };
        }
        // A lead and its continuation make ((lead & 3) << 6) | (cont & 0x3F).
        let after = _mm512_permutex2var_epi8(block, super::decode::NEXT_BYTES, next);
        let joined =
            _mm512_ternarylogic_epi32::<0xE4>(_mm512_slli_epi16::<6>(block), after, byte(0xC0));
        let values = _mm512_mask_blend_epi8(leads, block, joined);
        let packed = _mm512_maskz_compress_epi8(keep, values);
        // SAFETY: `n` bytes, which fit (checked just above).
        unsafe { _mm512_mask_storeu_epi8(out.add(written).cast(), low_bits(n as u32), packed) };
        written += n;
        if let Some(e) = error {
            // Flagged three bytes on, so that the scalar window takes in the
            // whole sequence a bad lead starts: its error kind depends on
            // the byte after it.
            return FastStop {
                read: i + limit,
                written,
                flagged: Some((i + e + 3).min(len)),
            };
        }
        carry = leads >> 63;
        i += rest;
    }
    FastStop {
        read: i.min(len),
        written,
        flagged: None,
    }
}
