//! UTF-8 to UCS-4, 64 bytes a step.
//!
//! Decoding runs one block ahead of its output: block `k` is written only
//! after block `k+1` validated, because a character led in `k` may end in
//! `k+1`. Each block takes the cheapest of three paths, by its longest
//! character:
//! - up to 2 bytes (most alphabetic scripts): to UTF-16, every byte is
//!   paired with the next in a 16-bit lane and joined, and the leads' lanes
//!   are compressed ([`emit_short`]); to UCS-4, the leads and the bytes
//!   right after them are compressed into two vectors, and each group of
//!   16 pairs them up with one permute and joins them with a shift and a
//!   select;
//! - up to 3 bytes (CJK, Indic scripts, Korean): `emit::BmpUnits` gathers each
//!   character's lead and last two bytes into 16-bit lanes, 32 a vector;
//! - with a 4-byte character: the lead positions are compressed into one
//!   vector; for 16 characters at a time a byte permute over blocks `k`
//!   and `k+1` gathers each one's four bytes into a 32-bit lane, its
//!   lead's count of leading ones selects the payload mask and final
//!   shift, and two multiply-adds join the 6-bit groups.

mod emit;

use core::arch::x86_64::*;

use super::validate::{
    check_block, check_block_flagging_fours, ends_incomplete, flagged_bytes, load_block, low_bits,
    non_ascii, stop_bytes, FOURS, FOURS_ZERO, NO_STOPS,
};
use crate::contract::{restart_point, FastStop, Stops};
pub(super) use emit::NEXT_BYTES;
use emit::{emit, emit_bmp, emit_short, widen_block};

/// Decodes the longest valid prefix of `src` to UCS-4.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable code points.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the caller's promises, with 4-byte units.
    unsafe { decode_into::<false, false, NO_STOPS>(src, out.cast(), cap) }
}

/// Decodes the longest valid prefix of `src` to UTF-16, byte-swapped with
/// `swap`. A character above U+FFFF takes two units, written together.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable units.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn decode_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the caller's promises, with 2-byte units.
    unsafe {
        if swap {
            decode_into::<true, true, NO_STOPS>(src, out.cast(), cap)
        } else {
            decode_into::<true, false, NO_STOPS>(src, out.cast(), cap)
        }
    }
}

/// [`decode`] stopping also at `stops`, which it flags.
///
/// # Safety
/// As for [`decode`].
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn decode_stopping(
    src: &[u8],
    out: *mut u32,
    cap: usize,
    stops: Stops,
) -> FastStop {
    // SAFETY: the caller's promises, with 4-byte units.
    unsafe {
        match stops {
            Stops::Fours => decode_into::<false, false, FOURS>(src, out.cast(), cap),
            Stops::FoursAndZero => decode_into::<false, false, FOURS_ZERO>(src, out.cast(), cap),
        }
    }
}

/// [`decode_utf16`] stopping also at `stops`, which it flags.
///
/// # Safety
/// As for [`decode_utf16`].
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) unsafe fn decode_utf16_stopping(
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
    stops: Stops,
) -> FastStop {
    let out = out.cast();
    // SAFETY: the caller's promises, with 2-byte units.
    unsafe {
        match (stops, swap) {
            (Stops::Fours, false) => decode_into::<true, false, FOURS>(src, out, cap),
            (Stops::Fours, true) => decode_into::<true, true, FOURS>(src, out, cap),
            (Stops::FoursAndZero, false) => decode_into::<true, false, FOURS_ZERO>(src, out, cap),
            (Stops::FoursAndZero, true) => decode_into::<true, true, FOURS_ZERO>(src, out, cap),
        }
    }
}

/// Whether the first `live` bytes of `block` hold one the ASCII paths
/// must not take: non-ASCII, or 00 when it is a stop. The test for 00 is
/// made only of ASCII blocks (a non-ASCII block is checked anyway): made of
/// every block, it cost Modified UTF-8 a further 7% on CJK text.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn not_plain<const STOPS: u8>(block: __m512i, live: u64) -> bool {
    non_ascii(block) & live != 0
        || STOPS == FOURS_ZERO && _mm512_testn_epi8_mask(block, block) & live != 0
}

/// The decoder, writing units of the form (`UTF16`, `SWAP`: see `emit::store`).
/// `cap` counts units.
///
/// Text without 4-byte characters (CJK, Indic, Korean; to UTF-16, also
/// alphabetic text dense in 2-byte characters) runs in a loop of its own,
/// [`bmp_run`], with a fraction of the general loop's ([`decode_blocks`])
/// bookkeeping: the general loop returns when two blocks in a row have
/// taken its BMP path, `bmp_run` goes on while it can, and the general
/// loop starts again where it stopped. Both stop at character boundaries,
/// so a new start needs no context. The two loops are apart because
/// together, even with the BMP loop never entered, they slowed Emoji and
/// Cyrillic decoding 5-18% (registers and code layout). Handing Cyrillic
/// over took it from 7.9 to 8.7 GB/s to UTF-16 on Zen 4, but to UCS-4 it
/// slowed CJK 4% and ASCII with 1% 2-byte characters 15% (code layout
/// again: those never took the new path), so UCS-4 keeps 1-2-byte text in
/// the general loop.
///
/// # Safety
/// As for [`decode`], with `out` pointing to `cap` units of the form.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
unsafe fn decode_into<const UTF16: bool, const SWAP: bool, const STOPS: u8>(
    src: &[u8],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let unit = if UTF16 { 2 } else { 4 };
    let (mut base, mut written) = (0, 0);
    loop {
        // SAFETY: `out` has `cap` units and written <= cap.
        let (stop, bmp) = unsafe {
            decode_blocks::<UTF16, SWAP, STOPS>(
                &src[base..],
                out.add(written * unit),
                cap - written,
            )
        };
        written += stop.written;
        let start = base;
        base += stop.read;
        if !bmp {
            return FastStop {
                read: base,
                written,
                flagged: stop.flagged.map(|e| start + e),
            };
        }
        // SAFETY: as above.
        (base, written) = unsafe { bmp_run::<UTF16, SWAP, STOPS>(src, base, out, cap, written) };
    }
}

/// The bytes of `block` that are not continuation bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn leads_of(block: __m512i) -> u64 {
    !_mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(-64))
}

/// Decodes blocks of characters up to U+FFFF from `src[p..]`, `p` a
/// character boundary, a block a step while the next full block holds no
/// byte F0..FF nor a stop, checks clean and is not all ASCII, and 64 units
/// fit. Returns the new `(p, written)`: the first character not written
/// (the bytes before it, if any, end one that was). A first block that
/// does not check clean writes nothing.
///
/// # Safety
/// As for [`decode_into`]; `written <= cap`.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
#[inline(never)]
unsafe fn bmp_run<const UTF16: bool, const SWAP: bool, const STOPS: u8>(
    src: &[u8],
    mut p: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let unit = if UTF16 { 2 } else { 4 };
    let (ptr, len) = (src.as_ptr(), src.len());
    // Bytes F0..FF (CESU-8's stops, and Modified UTF-8's but 00, which
    // the check flags), as nonzero bytes.
    let unwanted = |x| _mm512_subs_epu8(x, _mm512_set1_epi8(0xEFu8 as i8));
    let zero = STOPS == FOURS_ZERO;
    if len - p < 128 {
        return (p, written);
    }
    // SAFETY: p + 128 <= len.
    let mut block = unsafe { _mm512_loadu_si512(ptr.add(p).cast()) };
    // As if after ASCII other than 00: `p` is a character boundary.
    let before = _mm512_set1_epi8(b' ' as i8);
    let bad = _mm512_or_si512(
        check_block_flagging_fours(block, before, zero),
        unwanted(block),
    );
    if flagged_bytes(bad) != 0 {
        return (p, written);
    }
    while len - p >= 128 && cap - written >= 64 {
        // SAFETY: p + 128 <= len.
        let following = unsafe { _mm512_loadu_si512(ptr.add(p + 64).cast()) };
        let bad = _mm512_or_si512(
            check_block_flagging_fours(following, block, zero),
            unwanted(following),
        );
        if flagged_bytes(bad) != 0 || non_ascii(following) == 0 {
            break;
        }
        let leads = leads_of(block);
        let long = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xE0u8 as i8));
        let n = leads.count_ones() as usize;
        // SAFETY: room for 64 units was checked just above.
        unsafe {
            let out = out.add(written * unit);
            if UTF16 && long == 0 {
                emit_short::<UTF16, SWAP>(block, following, leads, n, out)
            } else {
                emit_bmp::<UTF16, SWAP>(block, following, leads, long, n, out)
            }
        };
        written += n;
        p += 64;
        block = following;
    }
    (p + leads_of(block).trailing_zeros() as usize, written)
}

/// The general loop of [`decode_into`]. It also returns `true` when
/// [`bmp_run`] should take over, from `read`. The bytes in `STOPS` are
/// flagged as errors are: a block that holds one is checked, and its stops
/// OR-ed into the check's flags; only Modified UTF-8's 00 can be in an
/// ASCII block, so for CESU-8 the ASCII paths are those of RFC 3629.
///
/// # Safety
/// As for [`decode`], with `out` pointing to `cap` units of the form.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
#[inline(never)]
unsafe fn decode_blocks<const UTF16: bool, const SWAP: bool, const STOPS: u8>(
    src: &[u8],
    out: *mut u8,
    cap: usize,
) -> (FastStop, bool) {
    let unit = if UTF16 { 2 } else { 4 };
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut written = 0usize;
    if len == 0 {
        return (
            FastStop {
                read: 0,
                written,
                flagged: None,
            },
            false,
        );
    }
    let mut i = 0usize;
    // SAFETY: 0 < len.
    let mut block = unsafe { load_block(ptr, 0, len) };
    let live = low_bits(len);
    let mut block_flags = if !not_plain::<STOPS>(block, live) {
        0
    } else {
        let errors = check_block(block, _mm512_setzero_si512());
        flagged_bytes(_mm512_or_si512(errors, stop_bytes::<STOPS>(block, live)))
    };
    loop {
        if block_flags == 0 && !not_plain::<STOPS>(block, u64::MAX) {
            // An ASCII run: widen it a block a step, with none of the
            // general step's bookkeeping, while the next full block is
            // ASCII too and 64 fit (the general step handles the run's last
            // block, whose successor may need an error window that starts
            // in it). On AMD Zen 5 this loop is what lets ASCII decode at
            // the store bandwidth; the general step took twice as long.
            while len - i >= 128 && cap - written >= 64 {
                // SAFETY: i + 128 <= len.
                let following = unsafe { _mm512_loadu_si512(ptr.add(i + 64).cast()) };
                if not_plain::<STOPS>(following, u64::MAX) {
                    break;
                }
                // SAFETY: room for 64 was checked just above.
                unsafe { widen_block::<UTF16, SWAP>(block, out.add(written * unit)) };
                written += 64;
                i += 64;
                block = following;
            }
        }
        let next = if len - i > 64 {
            // SAFETY: i + 64 < len.
            unsafe { load_block(ptr, i + 64, len) }
        } else {
            _mm512_setzero_si512()
        };
        let block_ascii = non_ascii(block) == 0;
        // The zeros past the end are not stops. Only Modified UTF-8's 00
        // needs them masked: the others' tests read zeros as ASCII and
        // find nothing there, and the mask, computed every block, cost
        // RFC 3629 decoding a few instructions a block.
        let next_live = if STOPS != FOURS_ZERO {
            u64::MAX
        } else if len - i > 64 {
            low_bits(len - i - 64)
        } else {
            0
        };
        let next_flags = if not_plain::<STOPS>(next, next_live) {
            let errors = check_block(next, block);
            flagged_bytes(_mm512_or_si512(
                errors,
                stop_bytes::<STOPS>(next, next_live),
            ))
        } else {
            (!block_ascii && ends_incomplete(block)) as u64
        };
        let continuation = _mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(-64));
        let mut leads = !continuation & low_bits(len - i);
        let mut error = None;
        if block_flags != 0 {
            // Only the first block can get here: later ones are checked as
            // `next` and stopped at below, unless their restart point lies
            // in them.
            let e = i + block_flags.trailing_zeros() as usize;
            error = Some(e);
        } else if next_flags != 0 {
            let e = i + 64 + next_flags.trailing_zeros() as usize;
            if restart_point(src, e) < i + 64 {
                error = Some(e);
            }
        }
        if let Some(e) = error {
            let q = restart_point(src, e);
            debug_assert!(q >= i);
            leads &= low_bits(q - i);
        }
        // Units: one a character, two for a 4-byte one in UTF-16.
        let n = if UTF16 {
            let fours = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xF0u8 as i8)) & leads;
            (leads.count_ones() + fours.count_ones()) as usize
        } else {
            leads.count_ones() as usize
        };
        if cap - written < n {
            let read = if leads == 0 {
                i
            } else {
                i + leads.trailing_zeros() as usize
            };
            return (
                FastStop {
                    read,
                    written,
                    flagged: None,
                },
                false,
            );
        }
        // SAFETY: room for n units was checked just above.
        let (emitted, bmp) = unsafe {
            emit::<UTF16, SWAP, STOPS>(block, next, leads, block_ascii, out.add(written * unit))
        };
        written += emitted;
        if let Some(e) = error {
            return (
                FastStop {
                    read: restart_point(src, e),
                    written,
                    flagged: Some(e.min(len)),
                },
                false,
            );
        }
        if len - i <= 64 {
            return (
                FastStop {
                    read: len,
                    written,
                    flagged: None,
                },
                false,
            );
        }
        if bmp && next_flags == 0 && len - i >= 192 {
            // Two blocks in a row without a 4-byte character: hand the run
            // to `bmp_run`, from the next block's first character (the
            // bytes before it end one this block wrote).
            let read = i + 64 + leads_of(next).trailing_zeros() as usize;
            return (
                FastStop {
                    read,
                    written,
                    flagged: None,
                },
                true,
            );
        }
        i += 64;
        block = next;
        block_flags = next_flags;
    }
}
