//! The element-wise loops between the chunk buffer and the caller's form,
//! written once in plain Rust ([`generic`]) and compiled again for each
//! vector tier with `#[target_feature]`, so the compiler vectorises them with
//! that tier's full width. Each loop is branch-free over its slice (a
//! reduction first, then the copy), which is what lets it vectorise.

use crate::Engine;
#[cfg(target_arch = "x86_64")]
use crate::Tier;

/// The plain loops; `#[inline(always)]` so each tier's copy is compiled
/// with that tier's features.
mod generic {
    /// Writes `cps` as Latin-1 bytes into `dst` (at least as long): a code
    /// point above 0xFF becomes `replacement`, or with `None` ends the copy.
    /// Returns how many were written.
    #[inline(always)]
    pub fn narrow_latin1(cps: &[u32], dst: &mut [u8], replacement: Option<u8>) -> usize {
        let n = match replacement {
            Some(_) => cps.len(),
            None if cps.iter().fold(0, |acc, &c| acc | c) <= 0xFF => cps.len(),
            None => cps.iter().position(|&c| c > 0xFF).unwrap_or(cps.len()),
        };
        let r = replacement.unwrap_or(0);
        for (d, &c) in dst[..n].iter_mut().zip(&cps[..n]) {
            *d = if c <= 0xFF { c as u8 } else { r };
        }
        n
    }

    /// Whether `units` holds a surrogate (in `swap`ped order or not).
    #[inline(always)]
    pub fn has_surrogate(units: &[u16], swap: bool) -> bool {
        units.iter().fold(false, |acc, &u| {
            let u = if swap { u.swap_bytes() } else { u };
            acc | (u & 0xF800 == 0xD800)
        })
    }

    /// Zero-extends `units` into `dst` (at least as long).
    #[inline(always)]
    pub fn widen_u16(units: &[u16], dst: &mut [u32], swap: bool) {
        for (d, &u) in dst[..units.len()].iter_mut().zip(units) {
            *d = u32::from(if swap { u.swap_bytes() } else { u });
        }
    }

    /// Zero-extends `bytes` into `dst` (at least as long).
    #[inline(always)]
    pub fn widen_u8(bytes: &[u8], dst: &mut [u32]) {
        for (d, &b) in dst[..bytes.len()].iter_mut().zip(bytes) {
            *d = u32::from(b);
        }
    }

    /// Bytes at the start of `bytes` in whole 32-byte blocks of ASCII.
    #[inline(always)]
    pub fn ascii_blocks(bytes: &[u8]) -> usize {
        bytes
            .chunks_exact(32)
            .take_while(|b| b.iter().fold(0, |acc, &x| acc | x) < 0x80)
            .count()
            * 32
    }

    /// Units at the start of `units` in whole 32-unit blocks below U+0080.
    #[inline(always)]
    pub fn ascii_unit_blocks(units: &[u16], swap: bool) -> usize {
        units
            .chunks_exact(32)
            .take_while(|b| {
                let any = b.iter().fold(0, |acc, &u| acc | u);
                (if swap { any.swap_bytes() } else { any }) < 0x80
            })
            .count()
            * 32
    }

    /// Narrows units below U+0080 into bytes in `dst` (at least as long).
    #[inline(always)]
    pub fn narrow_ascii(units: &[u16], dst: &mut [u8], swap: bool) {
        let shift = if swap { 8 } else { 0 };
        for (d, &u) in dst[..units.len()].iter_mut().zip(units) {
            *d = (u >> shift) as u8;
        }
    }

    /// See [`crate::portable::validate_utf16::valid_prefix`].
    #[inline(always)]
    pub fn valid_utf16_prefix(units: &[u16], swap: bool) -> usize {
        crate::portable::validate_utf16::valid_prefix_in(units, swap)
    }

    #[inline(always)]
    pub fn utf8_stats(src: &[u8]) -> super::super::sizes::Utf8Stats {
        super::super::sizes::utf8_stats(src)
    }

    #[inline(always)]
    pub fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
        super::super::sizes::utf8_len_of_utf16(src, swap)
    }
}

/// For each loop: a function taking the engine first, which runs that tier's
/// compilation of the loop.
macro_rules! per_tier {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        #[inline]
        pub(crate) fn $name(engine: &Engine, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw")]
                unsafe fn avx512($($arg: $ty),*) -> $ret {
                    generic::$name($($arg),*)
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($($arg: $ty),*) -> $ret {
                    generic::$name($($arg),*)
                }
                #[target_feature(enable = "sse4.1")]
                unsafe fn sse41($($arg: $ty),*) -> $ret {
                    generic::$name($($arg),*)
                }
                match engine.tier() {
                    // SAFETY: an engine of a tier exists only on a CPU with
                    // the tier's features (`Engine::new`), which include
                    // these.
                    Tier::Avx512 => return unsafe { avx512($($arg),*) },
                    // SAFETY: as above.
                    Tier::Avx2 => return unsafe { avx2($($arg),*) },
                    // SAFETY: as above.
                    Tier::Sse42 => return unsafe { sse41($($arg),*) },
                    _ => {}
                }
            }
            // The scalar tier, and every tier elsewhere (no vector tier
            // compiles these loops there yet).
            #[cfg(not(target_arch = "x86_64"))]
            let _ = engine;
            generic::$name($($arg),*)
        }
    )*};
}

per_tier! {
    fn narrow_latin1(cps: &[u32], dst: &mut [u8], replacement: Option<u8>) -> usize;
    fn has_surrogate(units: &[u16], swap: bool) -> bool;
    fn valid_utf16_prefix(units: &[u16], swap: bool) -> usize;
    fn widen_u16(units: &[u16], dst: &mut [u32], swap: bool) -> ();
    fn widen_u8(bytes: &[u8], dst: &mut [u32]) -> ();
    fn utf8_stats(src: &[u8]) -> super::sizes::Utf8Stats;
    fn ascii_blocks(bytes: &[u8]) -> usize;
    fn ascii_unit_blocks(units: &[u16], swap: bool) -> usize;
    fn narrow_ascii(units: &[u16], dst: &mut [u8], swap: bool) -> ();
    fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize;
}
