//! Runs of CESU-8 surrogate pairs (see `x86_64::pairs` for the SSE4.1
//! kernel and the arithmetic), eight pairs (48 bytes) a step: a text of
//! Emoji in CESU-8 or Modified UTF-8 is nothing else.
//!
//! A masked load takes the step's bytes, however few are left, so the
//! kernel takes every whole pair of a run: a byte-masked compare against
//! the pattern finds the first byte that breaks it, and the pairs before
//! that byte are written with a masked store. One byte permute (VPERMB)
//! puts each half's two payload bytes in a 16-bit lane.

use core::arch::x86_64::*;
use core::mem::transmute;

use super::validate::low_bits;

const PAIRS: usize = 8;
const BYTES: usize = 6 * PAIRS;

/// The bits of each byte of eight pairs that the pattern fixes, and their
/// values (the last 16 bytes are not tested).
const MASK: __m512i = repeat([0xFF, 0xF0, 0xC0, 0xFF, 0xF0, 0xC0]);
const PATTERN: __m512i = repeat([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]);

/// Six bytes eight times, then zeros.
const fn repeat(six: [u8; 6]) -> __m512i {
    let mut v = [0u8; 64];
    let mut j = 0;
    while j < BYTES {
        v[j] = six[j % 6];
        j += 1;
    }
    // SAFETY: 64 plain bytes; every bit pattern is a valid __m512i.
    unsafe { transmute(v) }
}

/// 16-bit lane `j` takes the payload bytes of half `j`: 3j+1 and 3j+2.
const HALVES: __m512i = {
    let mut v = [0u8; 64];
    let mut j = 0;
    while j < 2 * PAIRS {
        v[2 * j] = (3 * j + 1) as u8;
        v[2 * j + 1] = (3 * j + 2) as u8;
        j += 1;
    }
    // SAFETY: as above.
    unsafe { transmute(v) }
};

/// The pairs at `p` (at most `room` of them, `avail` readable): how many
/// lead the bytes, at most eight and `room`, and the units of the eight
/// (a unit in each of the low 16 lanes of 16 bits).
///
/// # Safety
/// The CPU must support the enabled features; `p` points to `6 * avail`
/// readable bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
unsafe fn step(p: *const u8, avail: usize, room: usize) -> (usize, __m512i) {
    let live = low_bits(6 * avail.min(PAIRS));
    // (`avail` is a constant 8 in the whole steps, and so is this mask.)
    // SAFETY: only the live bytes, which the caller has, are read.
    let v = unsafe { _mm512_maskz_loadu_epi8(live, p.cast()) };
    let broken = _mm512_mask_cmpneq_epi8_mask(live, _mm512_and_si512(v, MASK), PATTERN);
    let whole = if broken == 0 {
        avail.min(PAIRS)
    } else {
        broken.trailing_zeros() as usize / 6
    };
    let payload = _mm512_and_si512(_mm512_permutexvar_epi8(HALVES, v), _mm512_set1_epi8(0x3F));
    let units = _mm512_maddubs_epi16(payload, _mm512_set1_epi16(0x0140));
    let units = _mm512_or_si512(units, _mm512_set1_epi16(0xD000u16 as i16));
    (whole.min(room), units)
}

/// The loop of both kernels: `write(n, k, units)` writes pairs `n..n+k`
/// from [`step`]'s units. Whole steps run while eight pairs are left and
/// fit, with constant masks and a constant stride (a stride of the pairs
/// found made each load wait for the compare before it: 13 GB/s, against
/// 19 with a constant one); then one step takes what is left.
///
/// # Safety
/// The CPU must support the enabled features; `write` may be called with
/// any `k <= room` of the `room` passed for that `n`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
unsafe fn run(
    src: &[u8],
    room: impl Fn(usize) -> usize,
    mut write: impl FnMut(usize, usize, __m512i),
) -> usize {
    let mut n = 0;
    while src.len() - 6 * n >= BYTES && room(n) >= PAIRS {
        // SAFETY: eight pairs' bytes from 6n are in `src`.
        let (k, units) = unsafe { step(src.as_ptr().add(6 * n), PAIRS, PAIRS) };
        write(n, k, units);
        if k < PAIRS {
            return n + k;
        }
        n += PAIRS;
    }
    let avail = (src.len() - 6 * n) / 6;
    // SAFETY: `avail` pairs' bytes from 6n are in `src`.
    let (k, units) = unsafe { step(src.as_ptr().add(6 * n), avail, room(n)) };
    write(n, k, units);
    n + k
}

/// Decodes the run of pairs at the start of `src` into UTF-16 units at
/// `out` (byte-swapped with `swap`), while they fit; returns the pairs
/// decoded (6 bytes and 2 units each): every whole pair that leads `src`,
/// or as many as fit in `cap`.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable units.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn pairs_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> usize {
    let room = |n: usize| (cap - 2 * n) / 2;
    let write = |n: usize, k: usize, units: __m512i| {
        let units = if swap {
            _mm512_or_si512(_mm512_slli_epi16::<8>(units), _mm512_srli_epi16::<8>(units))
        } else {
            units
        };
        // SAFETY: units 2n..2n+2k are within `cap` (k <= room(n)).
        unsafe { _mm512_mask_storeu_epi16(out.add(2 * n).cast(), low_bits(2 * k) as u32, units) };
    };
    // SAFETY: the caller's promises; `write` stays within `room`.
    unsafe { run(src, room, write) }
}

/// [`pairs_utf16`] to code points (6 bytes and one code point a pair).
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable code points.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn pairs_ucs4(src: &[u8], out: *mut u32, cap: usize) -> usize {
    let room = |n: usize| cap - n;
    let write = |n: usize, k: usize, units: __m512i| {
        // (high & 0x3FF) * 1024 + (low & 0x3FF), plus 0x10000, per pair.
        let offsets = _mm512_madd_epi16(
            _mm512_and_si512(units, _mm512_set1_epi16(0x3FF)),
            _mm512_set1_epi32(0x0001_0400),
        );
        let scalars = _mm512_add_epi32(offsets, _mm512_set1_epi32(0x1_0000));
        // SAFETY: code points n..n+k are within `cap` (k <= room(n)).
        unsafe { _mm512_mask_storeu_epi32(out.add(n).cast(), low_bits(k) as u16, scalars) };
    };
    // SAFETY: the caller's promises; `write` stays within `room`.
    unsafe { run(src, room, write) }
}
