//! UTF-8 to UTF-16: the UCS-4 decoder into a buffer on the stack, [`BUF`]
//! code points at a time, then narrowed.
//!
//! The decoder's paths (ASCII runs, pairs, quads, 12-byte steps, per-position
//! assembly) all write 32-bit lanes. Narrowing them while they are still in
//! L1 costs a load, a pack, a permute and a store per 16 code points; a
//! decoder of its own for 16-bit output would repeat every one of those
//! paths. Through the engine's generic loop (a chunk at a time, the engine
//! and the narrowing behind calls of their own) the same decoder ran CJK
//! text at 0.85x simdutf's `haswell` kernel.
//!
//! Runs of ASCII are widened straight into the output, 32 bytes a test.
//! The buffer is filled with at most half the output's room, so that every
//! code point decoded fits whatever its units: a call never has to be
//! undone, and a pair is never split. Sixteen code points below U+10000
//! narrow with one pack and are stored exactly; other code points go four
//! at a time through the units of [`utf16_of_four`], stored as whole
//! vectors (up to 4 units past their own) only while 4 more code points
//! follow, whose units write over them; the last ones of a buffer are
//! written one at a time. So no unit past `written` is changed.

use core::arch::x86_64::*;

use crate::arch::x86_64::packs::utf16_of_four;
use crate::arch::x86_64::units::put16;
use crate::arch::x86_64::widen;
use crate::contract::FastStop;

/// Code points decoded per call of the UCS-4 decoder (16 KiB of stack). A
/// call costs some 170 cycles of its own (its set-up, and the exact paths
/// it takes near the end of its room): with 512 code points a call, CJK
/// text ran 15% slower.
const BUF: usize = 4096;

/// Decodes the longest valid prefix of `src` to UTF-16 (byte-swapped with
/// `swap`), stopping before the first error or when `out` is full.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// units.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(in super::super) unsafe fn decode_utf16(
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
) -> FastStop {
    // SAFETY: the caller's promises.
    unsafe {
        if swap {
            decode::<true>(src, out, cap)
        } else {
            decode::<false>(src, out, cap)
        }
    }
}

#[target_feature(enable = "avx2,popcnt,bmi1")]
unsafe fn decode<const SWAP: bool>(src: &[u8], out: *mut u16, cap: usize) -> FastStop {
    let mut buf = core::mem::MaybeUninit::<[u32; BUF]>::uninit();
    let cps: *mut u32 = buf.as_mut_ptr().cast();
    let (mut read, mut written) = (0usize, 0usize);
    loop {
        // ASCII runs skip the buffer.
        // SAFETY: `out + written` has `cap - written` units.
        let run =
            unsafe { widen::ascii_units_avx2(&src[read..], out.add(written), cap - written, SWAP) };
        (read, written) = (read + run, written + run);
        let want = BUF.min((cap - written) / 2);
        if want == 0 || read == src.len() {
            // Left to the reference core: the end, or a last unit of room.
            return FastStop {
                read,
                written,
                flagged: None,
            };
        }
        // SAFETY: the buffer has room for `want` <= BUF code points; this
        // function has the decoder's features.
        let stop = unsafe { super::decode(&src[read..], cps, want) };
        // SAFETY: the decoder wrote `stop.written` code points, whose units
        // (two at most each) fit the room: want <= (cap - written) / 2.
        written += unsafe { narrow::<SWAP>(cps, stop.written, out.add(written)) };
        let base = read;
        read += stop.read;
        if let Some(e) = stop.flagged {
            return FastStop {
                read,
                written,
                flagged: Some(base + e),
            };
        }
        if stop.read == 0 {
            // The decoder left the rest to the reference core (the last bytes,
            // or a character its room cannot hold).
            return FastStop {
                read,
                written,
                flagged: None,
            };
        }
    }
}

/// `units` in the byte order asked for.
#[target_feature(enable = "avx2")]
#[inline]
fn order16<const SWAP: bool>(units: __m128i) -> __m128i {
    if SWAP {
        _mm_shuffle_epi8(
            units,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        units
    }
}

/// Writes the UTF-16 of the `n` code points at `cps` at `out`; returns how
/// many units.
///
/// # Safety
/// `cps` points to `n` scalar values; `out` has room for `2 * n` units.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn narrow<const SWAP: bool>(cps: *const u32, n: usize, out: *mut u16) -> usize {
    let (mut i, mut w) = (0usize, 0usize);
    while n - i >= 8 {
        if n - i >= 16 {
            // SAFETY: code points i..i+16 are in the buffer.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(cps.add(i).cast()),
                    _mm256_loadu_si256(cps.add(i + 8).cast()),
                )
            };
            let big = _mm256_cmpgt_epi32(_mm256_or_si256(a, b), _mm256_set1_epi32(0xFFFF));
            if _mm256_testz_si256(big, big) == 1 {
                // The pack interleaves by 128-bit lane; the permute restores
                // the order.
                let units = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi32(a, b));
                let units = if SWAP {
                    _mm256_shuffle_epi8(
                        units,
                        _mm256_setr_epi8(
                            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, //
                            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                        ),
                    )
                } else {
                    units
                };
                // SAFETY: 16 units for 16 code points, within the room.
                unsafe { _mm256_storeu_si256(out.add(w).cast(), units) };
                (i, w) = (i + 16, w + 16);
                continue;
            }
        }
        // SAFETY: code points i..i+4 are in the buffer.
        let four = unsafe { _mm_loadu_si128(cps.add(i).cast()) };
        let (units, extra) = utf16_of_four(four);
        // SAFETY: the store's 8 units lie in the room (w <= 2i and i + 4 <=
        // n); the 4 at most past these four's units are written over by
        // those of the 4 or more code points after them.
        unsafe { _mm_storeu_si128(out.add(w).cast(), order16::<SWAP>(units)) };
        (i, w) = (i + 4, w + 4 + extra);
    }
    for k in i..n {
        // SAFETY: code point k is in the buffer; its units fit the room
        // (two at most a code point).
        w += unsafe { put16::<SWAP>(cps.add(k).read(), out.add(w)) };
    }
    w
}
