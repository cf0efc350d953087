//! The run loops of the UTF-16 encoder (see the parent module for the
//! algorithm and the store rule): ASCII runs, units below U+0800 16 a
//! step, and BMP units in simdutf's byte layout two blocks a step.

use core::arch::x86_64::*;

use super::super::encode_ucs4::encode8_words;
use super::{bmp, load8, no_zero, none_of, set16, short};
use crate::arch::x86_64::copy::copy_prefix;
use crate::arch::x86_64::packs::COMPACT_BMP;
use crate::contract::Mode;

/// Narrows runs of 32 ASCII units in `src[pos..end)` while they fit the
/// `room` bytes at `out`, then the whole blocks of 8 ASCII units that begin
/// the 32 units where the run ends; returns the units done (as many bytes
/// were written). ASCII units are never surrogates: no scan needs to come
/// first.
///
/// # Safety
/// `out` points to `room` writable bytes.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
pub(super) unsafe fn ascii_runs<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    pos: usize,
    end: usize,
    out: *mut u8,
    room: usize,
) -> usize {
    let mut i = 0;
    while end - pos - i >= 32 && room - i >= 32 {
        // SAFETY: units pos+i..pos+i+32 are in bounds.
        let v = unsafe { [0, 8, 16, 24].map(|o| load8::<SWAP>(src, pos + i + o)) };
        let any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
        let (front, back) = (_mm_packus_epi16(v[0], v[1]), _mm_packus_epi16(v[2], v[3]));
        if MODE == Mode::MUTF8
            && !no_zero::<MODE>(_mm_min_epu16(v[0], v[1]), _mm_min_epu16(v[2], v[3]))
        {
            // A 0 unit (C0 80): the caller's blocks take it.
            return i;
        }
        if !none_of(any, 0xFF80) {
            // A unit's byte has its high bit set when the unit is not
            // ASCII: adding 0x7F80 (saturating) sets bit 15 exactly then,
            // and the signed pack keeps it.
            let wide = |a, b| {
                let top = |v| _mm_adds_epu16(v, set16(0x7F80));
                _mm_movemask_epi8(_mm_packs_epi16(top(a), top(b))) as u32
            };
            let wide = wide(v[0], v[1]) | wide(v[2], v[3]) << 16;
            // The whole ASCII blocks before the first wide unit.
            let blocks = wide.trailing_zeros() as usize / 8;
            // SAFETY: 8 * blocks <= 24 bytes of the `room` checked above,
            // all of them ASCII units' bytes.
            unsafe {
                let at = out.add(i);
                match blocks {
                    0 => {}
                    1 => _mm_storel_epi64(at.cast(), front),
                    _ => {
                        _mm_storeu_si128(at.cast(), front);
                        if blocks == 3 {
                            _mm_storel_epi64(at.add(16).cast(), back);
                        }
                    }
                }
            }
            return i + 8 * blocks;
        }
        // SAFETY: bytes i..i+32 of the `room` checked above.
        unsafe {
            _mm_storeu_si128(out.add(i).cast(), front);
            _mm_storeu_si128(out.add(i + 16).cast(), back);
        }
        i += 32;
    }
    i
}

/// The UTF-8 of 8 units: the first `n_lo` bytes of `lo`, then the first
/// `n_hi` of `hi`, 8 to 24 in all.
struct Encoded {
    lo: __m128i,
    hi: __m128i,
    n_lo: usize,
    n_hi: usize,
}

/// 8 units that are not surrogates, in simdutf's layout (see the module
/// docs).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
fn encode_bmp(words: __m128i) -> Encoded {
    // Bit 15 set for 2 or more bytes (`two`), for 3 bytes (`three`).
    let two = _mm_adds_epu16(words, set16(0x7F80));
    let three = _mm_adds_epu16(words, set16(0x7800));
    // Bytes 0 and 1 of each slot: the word's low 7 bits (an ASCII
    // character) and `10g3`, from its low byte in both halves.
    let dup = _mm_shuffle_epi8(
        words,
        _mm_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14),
    );
    let low = _mm_or_si128(_mm_and_si128(dup, set16(0x3F7F)), set16(0x8000));
    // Bytes 2 and 3: `1110g1` and `10g2` (`110g2` for 2 bytes, where g2 <
    // 0x20). `maddubs` multiplies the low byte of `(w >> 4) & 0xFFC`
    // (g2 << 2) by 0x40 into the high byte, and adds the high byte (g1).
    let parts = _mm_maddubs_epi16(
        _mm_and_si128(_mm_srli_epi16::<4>(words), set16(0x0FFC)),
        set16(0x0140),
    );
    let high = _mm_xor_si128(
        _mm_or_si128(parts, set16(0xC0E0)),
        _mm_and_si128(_mm_srli_epi16::<1>(three), set16(0x4000)),
    );
    let first = _mm_unpacklo_epi16(low, high);
    let second = _mm_unpackhi_epi16(low, high);
    // Bytes past the first, in unary, 2 bits a unit (the high bits of its
    // two bytes): bit 0 for 2 or 3 bytes, bit 1 for 3.
    let key_bytes = _mm_or_si128(
        _mm_srli_epi16::<8>(two),
        _mm_and_si128(three, set16(0xFF00)),
    );
    let key = _mm_movemask_epi8(key_bytes) as u32;
    let pattern = |k: usize| {
        // SAFETY: a row is 16 bytes (indexing checks the key).
        unsafe { _mm_loadu_si128(COMPACT_BMP[k].as_ptr().cast()) }
    };
    if key == 0xFFFF {
        // All 3 bytes (CJK text): one pattern for both halves.
        let all = pattern(0xFF);
        return Encoded {
            lo: _mm_shuffle_epi8(first, all),
            hi: _mm_shuffle_epi8(second, all),
            n_lo: 12,
            n_hi: 12,
        };
    }
    let (k_lo, k_hi) = ((key & 0xFF) as usize, (key >> 8) as usize);
    Encoded {
        lo: _mm_shuffle_epi8(first, pattern(k_lo)),
        hi: _mm_shuffle_epi8(second, pattern(k_hi)),
        n_lo: 4 + k_lo.count_ones() as usize,
        n_hi: 4 + k_hi.count_ones() as usize,
    }
}

/// Writes `e` at `out` as whole vectors: up to 8 bytes past its output get
/// stray bytes. The first store reaches byte 16, at most 8 past the output
/// (8 units take 8 bytes or more); the second half goes at `n_lo` in two
/// halves of 8 bytes, the upper one only if `n_hi` is above 8 (else into a
/// local, chosen without a branch: `n_hi` varies from block to block in
/// text that mixes ASCII with 3-byte characters), so it ends at most 8
/// bytes past the output too.
///
/// # Safety
/// `out` has room for `e.n_lo + e.n_hi` bytes and 8 more.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn store_loose(e: &Encoded, out: *mut u8) {
    let mut sink = [0u8; 8];
    // SAFETY: every store ends at most 8 bytes past the output (above), or
    // lies in the local.
    unsafe {
        _mm_storeu_si128(out.cast(), e.lo);
        let at = out.add(e.n_lo);
        _mm_storel_epi64(at.cast(), e.hi);
        let upper = if e.n_hi > 8 {
            at.add(8)
        } else {
            sink.as_mut_ptr()
        };
        _mm_storeh_pd(upper.cast(), _mm_castsi128_pd(e.hi));
    }
}

/// Writes `e`'s bytes, and nothing else, at `out`.
///
/// # Safety
/// `out` has room for `e.n_lo + e.n_hi` bytes.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn store_exact(e: &Encoded, out: *mut u8) {
    let mut buf = [0u8; 32];
    // SAFETY: both stores lie in the 32-byte local (n_lo <= 16); the
    // n_lo + n_hi <= 24 bytes copied fit the caller's room, which a local
    // cannot overlap.
    unsafe {
        _mm_storeu_si128(buf.as_mut_ptr().cast(), e.lo);
        _mm_storeu_si128(buf.as_mut_ptr().add(e.n_lo).cast(), e.hi);
        copy_prefix(&buf, e.n_lo + e.n_hi, out);
    }
}

/// Units below U+0800 from `pos` (ASCII, Latin, Cyrillic, Arabic...), 16 a
/// step, in a loop of their own, whether or not they are ASCII: in text
/// with a Latin-1 letter every ten units or so, a branch to the ASCII path
/// and back for every block costs more than encoding ASCII as pairs. A
/// step of 16 ASCII units is narrowed and stored exactly, and a longer
/// ASCII run follows it in [`ascii_runs`]. Any other step encodes two
/// blocks of pairs and stores them as whole vectors, up to 8 bytes past
/// each block's output: the second block writes over the first's excess,
/// and the next block over the second's, as it is whole, has no surrogate
/// and has room (the loop's conditions), so the caller or the next step
/// encodes it. A step that is not all below U+0800 ends the run, after its
/// first block if that one is. Returns where it stopped.
///
/// # Safety
/// `out` points to `cap` writable bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline(never)]
pub(super) unsafe fn short_run<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    mut pos: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let len = src.len();
    // Room for a step (32 bytes at most) and the next block (24).
    while len - pos >= 24 && cap - written >= 32 + 24 {
        // SAFETY: units pos..pos+24 are in bounds.
        let [a, b, next] = unsafe { [0, 8, 16].map(|o| load8::<SWAP>(src, pos + o)) };
        let both = _mm_or_si128(a, b);
        let no_zero = no_zero::<MODE>(a, b);
        if none_of(both, 0xFF80) && no_zero {
            // SAFETY: 16 bytes of room (the loop's condition).
            unsafe { _mm_storeu_si128(out.add(written).cast(), _mm_packus_epi16(a, b)) };
            (pos, written) = (pos + 16, written + 16);
            // SAFETY: `out + written` has `cap - written` bytes.
            let run =
                unsafe { ascii_runs::<SWAP, MODE>(src, pos, len, out.add(written), cap - written) };
            (pos, written) = (pos + run, written + run);
            continue;
        }
        let (first, n) = encode8_words(a);
        if !none_of(both, 0xF800) || !no_zero {
            if short::<MODE>(a, 0xF800) && bmp::<MODE>(b) {
                // SAFETY: room for this block and 8 bytes more, which the
                // caller's next block (it has no surrogate and room) writes
                // over.
                unsafe { _mm_storeu_si128(out.add(written).cast(), first) };
                (pos, written) = (pos + 8, written + n);
            }
            return (pos, written);
        }
        let (second, m) = encode8_words(b);
        let follows = bmp::<MODE>(next);
        // SAFETY: room for both blocks and 8 bytes more (the loop's
        // condition); the second block's store covers the first's excess.
        unsafe { _mm_storeu_si128(out.add(written).cast(), first) };
        let e = Encoded {
            lo: second,
            hi: _mm_setzero_si128(),
            n_lo: m,
            n_hi: 0,
        };
        // SAFETY: as above; an excess past the second block only when the
        // next block writes over it.
        unsafe {
            if follows {
                _mm_storeu_si128(out.add(written + n).cast(), second);
            } else {
                store_exact(&e, out.add(written + n));
            }
        }
        (pos, written) = (pos + 16, written + n + m);
        if !follows {
            return (pos, written);
        }
    }
    (pos, written)
}

/// Blocks of 8 units without surrogates from `pos`, in a loop of their own,
/// two at a time while the second is whole, has no surrogate and both fit
/// with a third block's room to spare: the first is stored as whole vectors
/// (up to 12 bytes past its output), which the second's first store (16
/// bytes) writes over; the second is stored loosely (up to 8 bytes past its
/// output) when the next block is whole, has no surrogate and fits after
/// it, and exactly otherwise, which ends the run; a next block below U+0800
/// also ends it, for the pair block. Single blocks go the same way. Returns
/// where it stopped.
///
/// # Safety
/// The block at `pos` is whole and [`bmp`] in `MODE`; `out` points to `cap`
/// writable bytes, of which 24 or more are free from `written`.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline(never)]
pub(super) unsafe fn bmp_run<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    mut pos: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let len = src.len();
    // SAFETY: the block is whole.
    let mut units = unsafe { load8::<SWAP>(src, pos) };
    loop {
        if len - pos >= 16 && cap - written >= 48 + 24 {
            // SAFETY: units pos+8..pos+16 are in bounds.
            let second = unsafe { load8::<SWAP>(src, pos + 8) };
            if bmp::<MODE>(second) {
                let (e1, e2) = (encode_bmp(units), encode_bmp(second));
                let n1 = e1.n_lo + e1.n_hi;
                let (next, end) = (pos + 16, written + n1 + e2.n_lo + e2.n_hi);
                let follows = len - next >= 8 && {
                    // SAFETY: the block at `next` is whole.
                    units = unsafe { load8::<SWAP>(src, next) };
                    bmp::<MODE>(units)
                };
                // SAFETY: 48 bytes of room (checked above) hold both
                // blocks' output and the excess past the first: 12 bytes at
                // most, which the second's loose store (16 bytes from its
                // start) writes over, or 8 at most, which its exact store
                // (8 bytes or more) does. 24 bytes of room after both
                // blocks hold the next block, which writes 8 bytes or more
                // over the 8 at most past the second when that one is
                // loose.
                unsafe {
                    let (at1, at2) = (out.add(written), out.add(written + n1));
                    if follows {
                        _mm_storeu_si128(at1.cast(), e1.lo);
                        _mm_storeu_si128(at1.add(e1.n_lo).cast(), e1.hi);
                        store_loose(&e2, at2);
                    } else {
                        store_loose(&e1, at1);
                        store_exact(&e2, at2);
                    }
                }
                (pos, written) = (next, end);
                if !follows || short::<MODE>(units, 0xF800) {
                    return (pos, written);
                }
                continue;
            }
        }
        let e = encode_bmp(units);
        let (next, n) = (pos + 8, e.n_lo + e.n_hi);
        if len - next >= 8 && cap - written >= n + 24 {
            // SAFETY: the block at `next` is whole.
            units = unsafe { load8::<SWAP>(src, next) };
            if bmp::<MODE>(units) {
                // SAFETY: room for this block and the next (24 bytes at
                // most), which writes 8 bytes or more over the 8 at most
                // past this one's.
                unsafe { store_loose(&e, out.add(written)) };
                (pos, written) = (next, written + n);
                if short::<MODE>(units, 0xF800) {
                    return (pos, written); // The pair block's.
                }
                continue;
            }
        }
        // SAFETY: 24 bytes of room or more (the caller's promise or the
        // check above).
        unsafe { store_exact(&e, out.add(written)) };
        return (next, written + n);
    }
}

/// Writes the UTF-8 of the 8 units below U+0800 in `units`, and nothing
/// else, at `out`; returns its length.
///
/// # Safety
/// `out` has room for 16 bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(super) unsafe fn short_block(units: __m128i, out: *mut u8) -> usize {
    let (bytes, n) = encode8_words(units);
    let e = Encoded {
        lo: bytes,
        hi: _mm_setzero_si128(),
        n_lo: n,
        n_hi: 0,
    };
    // SAFETY: 16 bytes of room, n <= 16.
    unsafe { store_exact(&e, out) };
    n
}
