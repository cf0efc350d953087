//! Widening ASCII on NEON, as x86's `widen` does: a short string the engine
//! has found to be all ASCII to code points (`widen`, a leaf function of a
//! few loads, widening moves and stores, so that a 64-byte string costs one
//! call instead of the decoder's set-up), and the ASCII blocks that start a
//! run of UTF-8 to UTF-16 units (`ascii_units_stopping`, for the stopping
//! decoders' plain runs, 00 a stop or not).
//!
//! `widen` ends a length that is not a multiple of 16 with one more vector
//! over the *last* 16 bytes, overlapping the one before: it rewrites the
//! same values, so no store lands past `out[len - 1]`. Strings shorter
//! than 16 bytes go byte by byte (the engine widens those inline anyway).

use core::arch::aarch64::*;

use super::plain_runs::{join, plain, plain_groups};

/// Zero-extends each byte of `src` (at most 64) into `out[..src.len()]`:
/// `UXTL`, `UXTL2` to 16-bit lanes, then again to 32-bit ones.
///
/// # Safety
/// `out` is valid for `src.len()` code points (NEON is baseline).
pub(super) unsafe fn widen(src: &[u8], out: *mut u32) {
    let (ptr, len) = (src.as_ptr(), src.len());
    if len < 16 {
        for (i, &b) in src.iter().enumerate() {
            // SAFETY: i < src.len(), the caller's room.
            unsafe { out.add(i).write(u32::from(b)) };
        }
        return;
    }
    // SAFETY (each step): bytes i..i+16 lie in src and code points i..i+16
    // in out, because i <= len - 16.
    let step = |i: usize| unsafe {
        let v = vld1q_u8(ptr.add(i));
        let (lo, hi) = (vmovl_u8(vget_low_u8(v)), vmovl_high_u8(v));
        vst1q_u32(out.add(i), vmovl_u16(vget_low_u16(lo)));
        vst1q_u32(out.add(i + 4), vmovl_high_u16(lo));
        vst1q_u32(out.add(i + 8), vmovl_u16(vget_low_u16(hi)));
        vst1q_u32(out.add(i + 12), vmovl_high_u16(hi));
    };
    let mut i = 0;
    while i + 16 < len {
        step(i);
        i += 16;
    }
    step(len - 16);
}

/// [`ascii_units_stopping`], 00 a stop if `zero`: a
/// `generic::stopping::PlainUnits`.
///
/// # Safety
/// As [`ascii_units_stopping`].
pub(super) unsafe fn units(src: &[u8], out: *mut u16, cap: usize, swap: bool, zero: bool) -> usize {
    // SAFETY: the caller's promises.
    unsafe {
        if zero {
            ascii_units_stopping::<true>(src, out, cap, swap)
        } else {
            ascii_units_stopping::<false>(src, out, cap, swap)
        }
    }
}

/// Widens the whole 32-byte blocks of ASCII (with `ZERO`, of 01..7F) at
/// the start of `src` into the `cap` units at `out` (each byte in the high
/// half with `swap`), as far as they fit; returns how many bytes it
/// widened.
///
/// # Safety
/// `out` is valid for `cap` units (NEON is baseline).
pub(super) unsafe fn ascii_units_stopping<const ZERO: bool>(
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
) -> usize {
    // SAFETY: the caller's promises.
    unsafe {
        if swap {
            unit_blocks::<ZERO, true>(src, out, cap)
        } else {
            unit_blocks::<ZERO, false>(src, out, cap)
        }
    }
}

/// [`ascii_units_stopping`] with the byte order fixed: two 32-byte blocks
/// are tested together while there are two, so that a long run costs one
/// test per 64 bytes, then a lone block (or the first of two that were not
/// both plain) alone.
///
/// # Safety
/// As [`ascii_units_stopping`].
#[inline(always)]
unsafe fn unit_blocks<const ZERO: bool, const SWAP: bool>(
    src: &[u8],
    out: *mut u16,
    cap: usize,
) -> usize {
    let (ptr, limit) = (src.as_ptr(), src.len().min(cap));
    // SAFETY (both closures): the loops below pass offsets `i` with
    // `i + 16 <= limit`, so bytes i..i+16 lie in `src` and units i..i+16
    // in the `cap` at `out`.
    let load = |i: usize| unsafe { vld1q_u8(ptr.add(i)) };
    let widen = |i: usize, v: uint8x16_t| unsafe {
        // `USHLL` by 8 puts each byte in its unit's high half: swapping
        // costs nothing.
        let (lo, hi) = if SWAP {
            (vshll_n_u8::<8>(vget_low_u8(v)), vshll_high_n_u8::<8>(v))
        } else {
            (vmovl_u8(vget_low_u8(v)), vmovl_high_u8(v))
        };
        vst1q_u16(out.add(i), lo);
        vst1q_u16(out.add(i + 8), hi);
    };
    // SAFETY: `widen` is sound for those offsets (above).
    let mut i = unsafe { plain_groups::<ZERO>(src, limit, widen) };
    if limit - i >= 32 {
        let (a, b) = (load(i), load(i + 16));
        if plain::<ZERO>(join::<ZERO>(a, b)) {
            widen(i, a);
            widen(i + 16, b);
            i += 32;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Called directly (the engine only sends it strings longer than it
    /// widens inline): every length 0..=64 at every output offset within a
    /// prefilled buffer; all bytes, not only ASCII.
    #[test]
    fn widens_every_length_and_touches_nothing_else() {
        let bytes: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0x5A).collect();
        for len in 0..=64 {
            for offset in 0..16 {
                let src = &bytes[offset..offset + len];
                let mut out = vec![0xAAAA_AAAAu32; offset + len + 16];
                // SAFETY: out has room for len code points at offset.
                unsafe { widen(src, out.as_mut_ptr().add(offset)) };
                let mut expected = vec![0xAAAA_AAAAu32; out.len()];
                for (e, &b) in expected[offset..].iter_mut().zip(src) {
                    *e = u32::from(b);
                }
                assert_eq!(out, expected, "len {len} offset {offset}");
            }
        }
    }

    /// Lengths 0..=160 and rooms 0..=160 at and around the block edges,
    /// each byte order, with and without 00 a stop, with one byte that
    /// stops (80, or 00) at places around the block edges (and every 5th)
    /// or none: exactly the whole plain 32-byte blocks before it that fit,
    /// and nothing stored past them.
    #[test]
    fn ascii_units_take_whole_plain_blocks() {
        let text: Vec<u8> = (0..160u8).map(|i| 0x20 + i % 0x5F).collect();
        let edge = |n: usize| n % 32 <= 1 || n % 32 >= 15 && n % 32 <= 16 || n % 32 == 31;
        let places = (0..160).filter(|&p| p % 5 == 0 || edge(p)).map(Some);
        for stop in places.chain([None]) {
            for bad in [0x80u8, 0x00] {
                let mut src = text.clone();
                if let Some(at) = stop {
                    src[at] = bad;
                }
                for len in (0..=160).filter(|&n| n % 7 == 0 || edge(n)) {
                    for cap in [0, 31, 32, 63, 64, 95, 96, 128, 160] {
                        for swap in [false, true] {
                            for zero in [false, true] {
                                check_units(&src[..len], cap, swap, zero);
                            }
                        }
                    }
                }
            }
        }
    }

    fn check_units(src: &[u8], cap: usize, swap: bool, zero: bool) {
        let mut out = vec![0xAAAAu16; cap + 16];
        // SAFETY: out has room for cap units.
        let n = unsafe {
            if zero {
                ascii_units_stopping::<true>(src, out.as_mut_ptr(), cap, swap)
            } else {
                ascii_units_stopping::<false>(src, out.as_mut_ptr(), cap, swap)
            }
        };
        let stops = |b: u8| b >= 0x80 || (zero && b == 0);
        let plain = src.iter().position(|&b| stops(b)).unwrap_or(src.len());
        let expected_n = plain.min(cap) / 32 * 32;
        let what = format!("len {} cap {cap} swap {swap} zero {zero}", src.len());
        assert_eq!(n, expected_n, "{what}");
        let mut expected = vec![0xAAAAu16; out.len()];
        for (e, &b) in expected.iter_mut().zip(&src[..n]) {
            *e = if swap {
                u16::from(b) << 8
            } else {
                u16::from(b)
            };
        }
        assert_eq!(out, expected, "{what}");
    }
}
