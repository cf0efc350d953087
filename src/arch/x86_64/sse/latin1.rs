//! Latin-1 to UTF-8 and back, 16 or 32 bytes a step.
//!
//! Latin-1 to UTF-8 ([`encode_latin1`]), 16 bytes a step:
//!
//! ASCII is copied; after an ASCII block, 64 bytes a test. Any other block
//! is widened to two vectors of eight 16-bit words (each byte is the code
//! point U+0000..U+00FF) and each is encoded by the UCS-4 encoder's step for
//! eight characters below U+0800 ([`encode8_words`]): 8 to 16 bytes, packed
//! to the front, zeros after them. The two are stored loosely, whole vectors
//! one after the other, when another whole block follows and the room after
//! this block's output holds that block's largest output (32 bytes): the
//! next block then stores 16 bytes or more from where this one ends, over
//! the (at most 8) zeros. Otherwise the block goes out exactly, through a
//! stack buffer. The last 15 bytes or fewer are left to the reference core
//! (the engine's loop, `engine::run`).
//!
//! UTF-8 to Latin-1 ([`decode_latin1`]), 32 bytes (two vectors) a step, for
//! text made of ASCII and the two-byte characters U+0080..U+00FF (leads C2
//! and C3), with the AVX2 kernel's 32-bit masks: of the non-ASCII bytes, the
//! continuation bytes and the leads. Every lead must be followed by a
//! continuation and every continuation must follow a lead ([`run_end`]); the
//! first byte that breaks this, or any other non-ASCII byte, ends the run
//! before it (or before the lead it should have continued). The reference core
//! then applies the policy and the kernel resumes after it. A lead and the
//! byte after it are joined into the lead's byte, `((lead & 3) << 6) |
//! (cont & 0x3F)`; a lead in the last byte takes its continuation from the
//! next block, which then skips that byte (`carry`). The continuation bytes
//! are dropped by one `pshufb` per vector, from two 8-byte rows of `tables::KEEP_BYTES`:
//! each group of 8 input bytes keeps its bytes at the front of its 8 output
//! bytes. The four groups are stored exactly ([`store_groups`]): 8-byte
//! stores, each over the zeros after the one before, and the step's last 8
//! bytes from a second `pshufb` ([`TAIL`]). The last 31 bytes or fewer are
//! left to the reference core.

use core::arch::x86_64::*;

use super::encode_ucs4::encode8_words;
use crate::arch::generic::tables::{KEEP_BYTES, KEEP_TAIL as TAIL};
use crate::arch::x86_64::copy::copy_prefix;
use crate::contract::FastStop;

/// Copies whole all-ASCII runs from the start of `src` while they fit in
/// `room` (`generic::ascii`); returns how many bytes it copied.
///
/// # Safety
/// `out` points to `room` writable bytes.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn copy_ascii_runs(src: &[u8], out: *mut u8, room: usize) -> usize {
    // SAFETY: the caller's promise; the CPU has the tier's features.
    unsafe { crate::arch::generic::ascii::copy_ascii_runs::<super::vector::Sse>(src, out, room) }
}

/// Encodes as much of `src` as fits in the `cap` bytes at `out`, up to its
/// last 15 bytes or fewer.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn encode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut i, mut written) = (0usize, 0usize);
    while len - i >= 16 {
        let room = cap - written;
        // SAFETY: bytes i..i+16 are in bounds.
        let bytes = unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast()) };
        if _mm_movemask_epi8(bytes) == 0 {
            if room < 16 {
                break;
            }
            // SAFETY: 16 bytes of room (checked just above).
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            (i, written) = (i + 16, written + 16);
            // SAFETY: the `cap - written` bytes at out + written are
            // writable.
            let run = unsafe { copy_ascii_runs(&src[i..], out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            continue;
        }
        let zero = _mm_setzero_si128();
        let (lo, n_lo) = encode8_words(_mm_unpacklo_epi8(bytes, zero));
        let (hi, n_hi) = encode8_words(_mm_unpackhi_epi8(bytes, zero));
        let total = n_lo + n_hi;
        if room < total {
            break;
        }
        if len - i >= 32 && room - total >= 32 {
            // SAFETY: [0, 16) and [n_lo, n_lo + 16) lie in [0, total + 8)
            // (total >= 16, n_hi >= 8), inside the room checked above.
            unsafe {
                _mm_storeu_si128(out.add(written).cast(), lo);
                _mm_storeu_si128(out.add(written + n_lo).cast(), hi);
            }
        } else {
            let mut buf = [0u8; 32];
            // SAFETY: n_lo <= 16, so both stores lie in the local buffer;
            // `total` bytes of it are copied into the room checked above.
            unsafe {
                _mm_storeu_si128(buf.as_mut_ptr().cast(), lo);
                _mm_storeu_si128(buf.as_mut_ptr().add(n_lo).cast(), hi);
                copy_prefix(&buf, total, out.add(written));
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

/// Where a run of ASCII and C2/C3 pairs in a 32-byte block ends, from the
/// block's masks (bit `k` for byte `k`): its non-ASCII bytes, continuation
/// bytes and leads (C2, C3), whether byte 0 continues the block before
/// (`carry`), and the byte after the block (0 if there is none).
///
/// Returns the first bad byte, if any (32 for a lead in the last byte
/// whose continuation is missing), and how many bytes the run takes:
/// all 32, up to the bad byte, or up to the lead it should have continued.
#[inline(always)]
fn run_end(non_ascii: u32, cont: u32, leads: u32, carry: u32, next: u8) -> (Option<usize>, usize) {
    let expect = (leads << 1) | carry;
    let bad = (non_ascii & !leads & !cont) | (cont ^ expect);
    let error = if bad != 0 {
        Some(bad.trailing_zeros() as usize)
    } else if leads >> 31 != 0 && next & 0xC0 != 0x80 {
        Some(32)
    } else {
        None
    };
    let limit = match error {
        // A byte expected to continue a lead: the run ends before the lead
        // (which is at e - 1 >= 0: byte 0 is expected only after a carry,
        // and then it is a continuation, checked by the block before).
        Some(e) if e < 32 && (expect >> e) & 1 != 0 => e - 1,
        Some(32) => 31,
        Some(e) => e,
        None => 32,
    };
    (error, limit)
}

/// The 32-bit mask of the top bits of two vectors' bytes.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn mask32(v: [__m128i; 2]) -> u32 {
    (_mm_movemask_epi8(v[0]) as u32) | (_mm_movemask_epi8(v[1]) as u32) << 16
}

/// Each 8-byte group of `values` with the bytes `keep` marks packed to its
/// front, and how many each group keeps.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
fn compact(values: [__m128i; 2], keep: u32) -> ([__m128i; 2], [usize; 4]) {
    let k = [0, 8, 16, 24].map(|s| ((keep >> s) & 0xFF) as usize);
    // SAFETY: each row is 8 bytes (indexing checks the keys).
    let row =
        |half: usize, key: usize| unsafe { _mm_loadl_epi64(KEEP_BYTES[half][key].as_ptr().cast()) };
    let pattern = |v: usize| _mm_unpacklo_epi64(row(0, k[2 * v]), row(1, k[2 * v + 1]));
    let packed = [
        _mm_shuffle_epi8(values[0], pattern(0)),
        _mm_shuffle_epi8(values[1], pattern(1)),
    ];
    (packed, k.map(|key| key.count_ones() as usize))
}

/// Writes the four groups of `packed` (`n[g]` bytes at the front of each
/// half), one after the other, and nothing else, at `out`.
///
/// # Safety
/// `n[2] + n[3] >= 8`, and `out` has room for all the groups' bytes.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn store_groups(packed: [__m128i; 2], n: [usize; 4], out: *mut u8) {
    let [n0, n1, n2, n3] = n;
    let total = n0 + n1 + n2 + n3;
    // SAFETY: n2, n3 <= 8 (popcounts of 8-bit keys), so the row exists.
    let tail = unsafe { _mm_loadl_epi64(TAIL[9 * n2 + n3].as_ptr().cast()) };
    let last8 = _mm_shuffle_epi8(packed[1], tail);
    // Each 8-byte store starts where the group before it ends, over the
    // zeros that group's store left; the last one ends the output. Each
    // lies in [0, total): the groups from the third on hold 8 bytes or
    // more.
    // SAFETY: [0, 8), [n0, n0 + 8), [n0 + n1, n0 + n1 + 8) and
    // [total - 8, total) lie in the `total` bytes of room.
    unsafe {
        _mm_storel_epi64(out.cast(), packed[0]);
        _mm_storel_epi64(out.add(n0).cast(), _mm_srli_si128::<8>(packed[0]));
        _mm_storel_epi64(out.add(n0 + n1).cast(), packed[1]);
        _mm_storel_epi64(out.add(total - 8).cast(), last8);
    }
}

/// Writes the first `count` bytes of the four groups of `packed` at `out`,
/// by way of a stack buffer.
///
/// # Safety
/// `count` is at most the groups' total, and `out` has room for it.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn store_prefix(packed: [__m128i; 2], n: [usize; 4], count: usize, out: *mut u8) {
    let mut buf = [0u8; 32];
    let halves = [
        packed[0],
        _mm_srli_si128::<8>(packed[0]),
        packed[1],
        _mm_srli_si128::<8>(packed[1]),
    ];
    let mut at = 0;
    for (half, len) in halves.into_iter().zip(n) {
        // SAFETY: the groups before this one hold at most 24 bytes, so its
        // 8 bytes lie in the local buffer.
        unsafe { _mm_storel_epi64(buf.as_mut_ptr().add(at).cast(), half) };
        at += len;
    }
    // SAFETY: count <= at <= 32 bytes of the local buffer go into the room
    // the caller made (a local cannot overlap `out`).
    unsafe { copy_prefix(&buf, count, out) };
}

/// UTF-8 to Latin-1, 32 bytes a step (see the module documentation): the
/// longest prefix of ASCII and C2/C3 pairs that fits, up to the last 31
/// bytes or fewer; a bad byte is reported as `flagged`.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "ssse3,sse4.1,sse4.2,popcnt")]
pub(super) unsafe fn decode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut i, mut written) = (0usize, 0usize);
    let mut carry = 0u32;
    let byte = |v: u8| _mm_set1_epi8(v as i8);
    while len - i >= 32 {
        // SAFETY: bytes i..i+32 are in bounds.
        let v = unsafe { [0, 16].map(|o| _mm_loadu_si128(src.as_ptr().add(i + o).cast())) };
        let non_ascii = mask32(v);
        if non_ascii == 0 {
            // (Not after a carry: then byte 0 is a continuation.)
            if cap - written < 32 {
                break;
            }
            // SAFETY: 32 bytes, which fit (checked just above).
            unsafe {
                _mm_storeu_si128(out.add(written).cast(), v[0]);
                _mm_storeu_si128(out.add(written + 16).cast(), v[1]);
            }
            (i, written) = (i + 32, written + 32);
            // SAFETY: the `cap - written` bytes at out + written are
            // writable.
            let run = unsafe { copy_ascii_runs(&src[i..], out.add(written), cap - written) };
            (i, written) = (i + run, written + run);
            continue;
        }
        // Signed, 0x80..0xBF are the bytes below 0xC0 (-64).
        let cont = mask32(v.map(|b| _mm_cmpgt_epi8(byte(0xC0), b)));
        let lead_bytes = v.map(|b| _mm_cmpeq_epi8(_mm_and_si128(b, byte(0xFE)), byte(0xC2)));
        let leads = mask32(lead_bytes);
        // The byte after a lead in the last byte, from the next block.
        let next = if leads >> 31 != 0 && len - i > 32 {
            src[i + 32]
        } else {
            0
        };
        let (error, limit) = run_end(non_ascii, cont, leads, carry, next);
        let keep = !cont & ((1u64 << limit) - 1) as u32;
        let n = keep.count_ones() as usize;
        if cap - written < n {
            return FastStop {
                read: i + carry as usize,
                written,
                flagged: None,
            };
        }
        // `after` holds each byte's next one.
        let after = [
            _mm_alignr_epi8::<1>(v[1], v[0]),
            _mm_alignr_epi8::<1>(_mm_cvtsi32_si128(i32::from(next)), v[1]),
        ];
        let values = [0, 1].map(|k| {
            let joined = _mm_or_si128(
                _mm_and_si128(_mm_slli_epi16::<6>(v[k]), byte(0xC0)),
                _mm_and_si128(after[k], byte(0x3F)),
            );
            _mm_blendv_epi8(v[k], joined, lead_bytes[k])
        });
        let (packed, counts) = compact(values, keep);
        // SAFETY: `n` bytes, the groups' total, which fit (checked above).
        // Without an error the last two groups keep 8 bytes or more (a
        // character starts in at least 8 of the last 16 bytes).
        unsafe {
            if error.is_none() {
                store_groups(packed, counts, out.add(written));
            } else {
                store_prefix(packed, counts, n, out.add(written));
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
