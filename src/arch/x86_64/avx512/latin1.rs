//! Latin-1 to UTF-8, 64 bytes a step: an all-ASCII block is copied; any
//! other, while whole vectors can be stored, is written by
//! [`encode_block_whole`] (one byte permute interleaves the block's halves,
//! each 16-bit lane then becomes the two bytes of its character by a
//! funnel shift or a ternary-logic op, and two compressions drop the lead
//! bytes of ASCII characters); near the end of the input or the output,
//! each half is widened to 16-bit units (each byte is the code point
//! U+0000..U+00FF) and written by the UCS-4 encoder's two-byte path with a
//! masked store.
//!
//! UTF-8 to Latin-1 the other way: whole blocks of ASCII and C2/C3 pairs
//! are checked by masks and packed by one compression
//! ([`decode_pairs_run`]); any other block, and the last, take the general
//! step, which finds and places the first error.
//!
//! Both look for long runs of ASCII (256 bytes a test) only at the start and
//! after an ASCII block.

use core::arch::x86_64::*;

use super::blocks::bytes;
use super::encode_ucs4::{encode_short_units, low_bits};
use crate::contract::FastStop;

/// VPERMB indices that interleave a block's halves: byte `2j` of the
/// result is byte `j`, byte `2j + 1` is byte `j + 32`.
const INTERLEAVE: __m512i = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 32 {
        idx[2 * j] = j as u8;
        idx[2 * j + 1] = (j + 32) as u8;
        j += 1;
    }
    bytes(idx)
};

/// Writes the UTF-8 of the 64 Latin-1 bytes of `block` at `out`, as two
/// whole 64-byte stores, and returns its length; the bytes past it (at most
/// 32) are garbage.
///
/// Lane `j` of the interleaved block holds bytes `j` and `j + 32`. The first
/// half's characters: the funnel shift puts byte `j` above a C2 lead (`C2
/// x`), and from C0 the lead becomes C3 and `x` loses 0x40 (one add of
/// 0xC001 under the mask). The second half's: `x` is in the lane's high
/// byte already, so one ternary-logic op sets the low byte to C2 or C3 and
/// clears bit 6 of `x` where it must. Each half keeps every lane's high
/// byte and the lead of each character above 7F. This is simdutf's
/// `icelake` algorithm; widening each half to 16-bit units for the UCS-4
/// encoder's two-byte path took twice the operations, 0.54x-0.56x
/// simdutf 9.1 on text with one Latin-1 letter in ten on AMD Zen 4.
///
/// # Safety
/// The CPU must support the enabled features; `out` has room for 128
/// bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")]
#[inline]
unsafe fn encode_block_whole(block: __m512i, out: *mut u8) -> usize {
    let w = |v: u16| _mm512_set1_epi16(v as i16);
    let pairs = _mm512_permutexvar_epi8(INTERLEAVE, block);
    let above_bf = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xC0u8 as i8));
    let first = _mm512_shldi_epi16::<8>(pairs, w(0xC2C2));
    let first = _mm512_mask_add_epi16(first, above_bf as u32, first, w(0xC001));
    let leads = _mm512_mask_blend_epi16((above_bf >> 32) as u32, w(0x00C2), w(0x40C3));
    // (pairs & FF00) ^ leads.
    let second = _mm512_ternarylogic_epi32::<0x6A>(pairs, w(0xFF00), leads);
    let above_7f = _mm512_movepi8_mask(block);
    let odd = 0xAAAA_AAAA_AAAA_AAAAu64;
    let even = !odd;
    let (keep_first, keep_second) = (
        core::arch::x86_64::_pdep_u64(above_7f, even) | odd,
        core::arch::x86_64::_pdep_u64(above_7f >> 32, even) | odd,
    );
    // The halves' lengths from the block's own mask, not the spread ones:
    // ready sooner for the second store's address.
    let n = 32 + (above_7f as u32).count_ones() as usize;
    // SAFETY: 64 bytes from `out` and from `out + n` (n <= 64), within the
    // 128 the caller provides.
    unsafe {
        _mm512_storeu_si512(out.cast(), _mm512_maskz_compress_epi8(keep_first, first));
        _mm512_storeu_si512(
            out.add(n).cast(),
            _mm512_maskz_compress_epi8(keep_second, second),
        );
    }
    64 + above_7f.count_ones() as usize
}

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
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
pub(super) unsafe fn encode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    // Runs of ASCII are looked for at the start and after an ASCII block
    // only: in text with a letter above 7F every few dozen bytes, a test
    // of the next 256 bytes before each block fails every time (it held
    // such text at 0.6x simdutf 9.1 on AMD Zen 4).
    let mut after_ascii = true;
    while i < len {
        if after_ascii {
            // SAFETY: bytes i..len are readable, `cap - written` writable.
            let run =
                unsafe { copy_ascii_runs(ptr.add(i), len - i, out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            if i == len {
                break;
            }
        }
        // Blocks with a letter above 7F, while another whole block follows
        // and the room for this one and the next is there: stored as whole
        // vectors, this block's garbage (at most 32 bytes) overwritten by
        // the next, which is whole and fits, and writes at least 64 bytes.
        // A loop of its own: the general step's bounds and masks below
        // cost as much again.
        after_ascii = false;
        while len - i >= 128 && cap - written >= 256 {
            // SAFETY: bytes i..i+64 are in bounds.
            let block = unsafe { _mm512_loadu_si512(ptr.add(i).cast()) };
            if _mm512_movepi8_mask(block) == 0 {
                // SAFETY: 64 bytes fit (checked above).
                unsafe { _mm512_storeu_si512(out.add(written).cast(), block) };
                (i, written) = (i + 64, written + 64);
                after_ascii = true;
                break;
            }
            // SAFETY: 128 bytes fit (checked above).
            written += unsafe { encode_block_whole(block, out.add(written)) };
            i += 64;
        }
        if after_ascii || i == len {
            continue;
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
        after_ascii = _mm512_movepi8_mask(block) == 0;
        if after_ascii {
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

/// Decodes whole blocks of ASCII and well-formed two-byte characters
/// U+0080..U+00FF from `ptr` while a block's Latin-1 fits in `room`;
/// returns the bytes read and written, stopping before a block with
/// anything else (which the general step below then reads, errors
/// included) and never after a lead (a pair cut by a block's end is read
/// whole, its lead one block and its continuation the next).
///
/// A block is checked with masks alone: its leads (C0 and above) must all
/// be C2 or C3, and its bytes above 7F that are no lead must be exactly
/// the bytes after one. A continuation's value is its byte, plus 0x40 after
/// C3; the leads are dropped by one compression. This is simdutf's
/// `icelake` algorithm; the general step's byte permute to join each pair,
/// and its look at the next block's first byte, ran text with one Latin-1
/// letter in ten at 0.54x-0.65x simdutf 9.1 on AMD Zen 4.
///
/// # Safety
/// `ptr` points to `len` readable bytes and `out` to `room` writable ones.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
unsafe fn decode_pairs_run(
    ptr: *const u8,
    len: usize,
    out: *mut u8,
    room: usize,
) -> (usize, usize) {
    let byte = |v: u8| _mm512_set1_epi8(v as i8);
    let (mut i, mut written) = (0, 0);
    // A lead ended the block before, and whether it was C3.
    let (mut lead_before, mut c3_before) = (0u64, 0u64);
    while len - i >= 64 && room - written >= 64 {
        // SAFETY: bytes i..i+64 are in bounds.
        let block = unsafe { _mm512_loadu_si512(ptr.add(i).cast()) };
        let above_7f = _mm512_movepi8_mask(block);
        let leads = _mm512_cmpge_epu8_mask(block, byte(0xC0));
        // C2 -> 0, C3 -> 1, other leads above 1.
        let from_c2 = _mm512_xor_si512(block, byte(0xC2));
        if _mm512_mask_cmpgt_epu8_mask(leads, from_c2, byte(1)) != 0
            || above_7f ^ leads != (leads << 1) | lead_before
        {
            break;
        }
        let c3 = _mm512_mask_cmpeq_epi8_mask(leads, from_c2, byte(1));
        let values = _mm512_mask_add_epi8(block, (c3 << 1) | c3_before, block, byte(0x40));
        let keep = !leads;
        let n = keep.count_ones() as usize;
        let packed = _mm512_maskz_compress_epi8(keep, values);
        // SAFETY: `n` <= 64 bytes, within the room checked above.
        unsafe { _mm512_mask_storeu_epi8(out.add(written).cast(), low_bits(n as u32), packed) };
        written += n;
        (lead_before, c3_before) = (leads >> 63, c3 >> 63);
        i += 64;
    }
    // A lead ending the last block is read again with its continuation.
    (i - lead_before as usize, written)
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
    // Runs of ASCII are looked for at the start and after an ASCII block
    // only, as in `encode_latin1`.
    let mut after_ascii = true;
    while i < len {
        if carry == 0 && after_ascii {
            // SAFETY: bytes i..len are readable, `cap - written` writable.
            let run =
                unsafe { copy_ascii_runs(ptr.add(i), len - i, out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            if i == len {
                break;
            }
        }
        if carry == 0 {
            // SAFETY: bytes i..len are readable, `cap - written` writable.
            let (read, wrote) =
                unsafe { decode_pairs_run(ptr.add(i), len - i, out.add(written), cap - written) };
            (i, written) = (i + read, written + wrote);
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
        after_ascii = non_ascii == 0;
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
            return FastStop::latin1_error(i + limit, written, i + e, len);
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
