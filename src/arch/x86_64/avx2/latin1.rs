//! Latin-1 to UTF-8 and back.
//!
//! Latin-1 to UTF-8, 16 or 32 bytes a step:
//!
//! ASCII is copied, 128 or 32 bytes at a time. Any other block of 16 bytes
//! is widened to 16-bit words (each byte is the code point U+0000..U+00FF)
//! and written by the UCS-4 encoder's pair block. That block is stored
//! loosely (whole vectors, zeros after its bytes) when another whole block
//! follows and the room after it holds that block's largest output: the
//! next block then stores 16 bytes or more from where this one ends, over
//! the zeros. Otherwise it is stored exactly. The last 15 bytes or fewer
//! are left to the reference core (the engine's loop, `engine::run`).

use core::arch::x86_64::*;

use super::encode_ucs4::block::{encode_pairs, store, store_loose, store_prefix, store_two, Lanes};
use crate::arch::generic::tables::KEEP_BYTES;
use crate::contract::FastStop;

/// Copies whole all-ASCII runs from the start of `src` while they fit in
/// `room` (`generic::ascii`); returns how many bytes it copied.
///
/// # Safety
/// `out` points to `room` writable bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn copy_ascii_runs(src: &[u8], out: *mut u8, room: usize) -> usize {
    // SAFETY: the caller's promise; the CPU has the tier's features.
    unsafe { crate::arch::generic::ascii::copy_ascii_runs::<super::vector::Avx2>(src, out, room) }
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
                let run = unsafe { copy_ascii_runs(&src[i..], out.add(written), cap - written) };
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

/// The bytes of `values` that `keep` marks, as two blocks (one per 128-bit
/// lane) in the encoder's [`Lanes`] form.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn compact(values: __m256i, keep: u32) -> [Lanes; 2] {
    let k = [0, 8, 16, 24].map(|s| ((keep >> s) & 0xFF) as usize);
    // SAFETY: each row is 8 bytes (indexing checks the keys).
    let row =
        |half: usize, key: usize| unsafe { _mm_loadl_epi64(KEEP_BYTES[half][key].as_ptr().cast()) };
    let pattern = _mm256_set_m128i(
        _mm_unpacklo_epi64(row(0, k[2]), row(1, k[3])),
        _mm_unpacklo_epi64(row(0, k[0]), row(1, k[1])),
    );
    let packed = _mm256_shuffle_epi8(values, pattern);
    let n = k.map(|key| key.count_ones() as usize);
    let block = |lane: __m128i, n0: usize, n1: usize| {
        Lanes::new(_mm_move_epi64(lane), _mm_srli_si128::<8>(lane), n0, n1)
    };
    [
        block(_mm256_castsi256_si128(packed), n[0], n[1]),
        block(_mm256_extracti128_si256::<1>(packed), n[2], n[3]),
    ]
}

/// UTF-8 to Latin-1, 32 bytes a step, for text made of ASCII and the
/// two-byte characters U+0080..U+00FF (leads C2 and C3), with the masks
/// of the AVX-512 kernel in 32 bits: a lead's continuation is checked
/// against the byte after it, the pair is joined into the lead's byte, and
/// continuation bytes are dropped by a `pshufb` per 8 bytes. A block of
/// other bytes, or a lead without its continuation, ends the run at that
/// byte; the reference core then applies the policy and the kernel resumes
/// after it. A lead in a block's last byte takes its continuation from the
/// next block, which then skips that byte (`carry`). Stores are exact. The
/// last 31 bytes or fewer are left to the reference core.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn decode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    let mut carry = 0u32;
    let byte = |v: u8| _mm256_set1_epi8(v as i8);
    while len - i >= 32 {
        if carry == 0 {
            // SAFETY: bytes i..len are readable, `cap - written` writable.
            let run = unsafe { copy_ascii_runs(&src[i..], out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            if len - i < 32 {
                break;
            }
        }
        // SAFETY: bytes i..i+32 are in bounds.
        let block = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        let non_ascii = _mm256_movemask_epi8(block) as u32;
        if non_ascii == 0 {
            // (Not after a carry: then byte 0 is a continuation.)
            if cap - written < 32 {
                break;
            }
            // SAFETY: 32 bytes, which fit (checked just above).
            unsafe { _mm256_storeu_si256(out.add(written).cast(), block) };
            (i, written) = (i + 32, written + 32);
            continue;
        }
        // Signed, 0x80..0xBF are the bytes below 0xC0 (-64).
        let cont = _mm256_movemask_epi8(_mm256_cmpgt_epi8(byte(0xC0), block)) as u32;
        let lead_bytes = _mm256_cmpeq_epi8(_mm256_and_si256(block, byte(0xFE)), byte(0xC2));
        let leads = _mm256_movemask_epi8(lead_bytes) as u32;
        // The byte after a lead in the last lane, from the next block.
        let next = if leads >> 31 != 0 && len - i > 32 {
            // SAFETY: byte i+32 is in bounds.
            unsafe { *ptr.add(i + 32) }
        } else {
            0
        };
        let expect = (leads << 1) | carry;
        let bad = (non_ascii & !leads & !cont) | (cont ^ expect);
        let last_lead_cut = leads >> 31 != 0 && next & 0xC0 != 0x80;
        // The first bad byte, and where the run ends: before it, or before
        // the lead it should have continued.
        let error = if bad != 0 {
            Some(bad.trailing_zeros() as usize)
        } else if last_lead_cut {
            Some(32)
        } else {
            None
        };
        let limit = match error {
            Some(e) if e < 32 && (expect >> e) & 1 != 0 => e - 1,
            Some(32) => 31,
            Some(e) => e,
            None => 32,
        };
        let keep = !cont & ((1u64 << limit) - 1) as u32;
        let n = keep.count_ones() as usize;
        if cap - written < n {
            return FastStop {
                read: i + carry as usize,
                written,
                flagged: None,
            };
        }
        // A lead and its continuation make ((lead & 3) << 6) | (cont &
        // 0x3F), in the lead's byte; `after` is each byte's next one.
        let upper = _mm256_permute2x128_si256::<0x21>(block, _mm256_set1_epi8(next as i8));
        let after = _mm256_alignr_epi8::<1>(upper, block);
        let joined = _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi16::<6>(block), byte(0xC0)),
            _mm256_and_si256(after, byte(0x3F)),
        );
        let values = _mm256_blendv_epi8(block, joined, lead_bytes);
        let [first, second] = compact(values, keep);
        // SAFETY: `n` bytes, which fit (checked above). Without an error
        // each half keeps 8 bytes or more (a character starts in at least
        // 8 of its 16 bytes).
        unsafe {
            if error.is_none() {
                store_two(&first, &second, out.add(written));
            } else {
                store_prefix(&first, first.total().min(n), out.add(written));
                let rest = n - first.total().min(n);
                store_prefix(&second, rest, out.add(written + first.total().min(n)));
            }
        }
        written += n;
        if let Some(e) = error {
            return FastStop::latin1_error(i + limit, written, i + e, len);
        }
        carry = leads >> 31;
        i += 32;
    }
    FastStop {
        read: i + carry as usize,
        written,
        flagged: None,
    }
}
