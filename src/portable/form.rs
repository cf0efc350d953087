//! What the portable decoders write: code points or UTF-16 units, one
//! trait over both so that each loop is written once.

#![forbid(unsafe_code)]

/// Bytes per block of an ASCII run.
pub(crate) const RUN_BLOCK: usize = 64;

/// What the decoder writes: code points ([`Ucs4`]) or UTF-16 units
/// ([`Utf16`]).
pub(crate) trait Form {
    type Unit: Copy;
    /// The unit of a code point below U+10000.
    fn bmp(c: u32) -> Self::Unit;
    /// Writes the code point `c`, U+10000 or above, at the start of `out`:
    /// how many units, or `None` if they do not fit.
    fn supplementary(out: &mut [Self::Unit], c: u32) -> Option<usize>;
    /// Writes two such code points, `c0` then `c1`: how many units, or
    /// `None` (nothing written) if they do not both fit.
    fn two_supplementary(out: &mut [Self::Unit], c0: u32, c1: u32) -> Option<usize>;
    /// Writes any code point at the start of `out`: how many units.
    fn any(out: &mut [Self::Unit; 2], c: u32) -> usize;
    /// Zero-extends `N` ASCII bytes into units.
    fn widen<const N: usize>(block: &[u8; N], out: &mut [Self::Unit; N]);
}

/// Code points, one a character.
pub(crate) struct Ucs4;

impl Form for Ucs4 {
    type Unit = u32;
    #[inline(always)]
    fn bmp(c: u32) -> u32 {
        c
    }
    #[inline(always)]
    fn supplementary(out: &mut [u32], c: u32) -> Option<usize> {
        *out.first_mut()? = c;
        Some(1)
    }
    #[inline(always)]
    fn two_supplementary(out: &mut [u32], c0: u32, c1: u32) -> Option<usize> {
        *out.first_chunk_mut()? = [c0, c1];
        Some(2)
    }
    #[inline(always)]
    fn any(out: &mut [u32; 2], c: u32) -> usize {
        out[0] = c;
        1
    }
    /// Out of line on purpose: inlined next to the ASCII test, the compiler
    /// reused the test's loads and widened byte by byte; alone it widens
    /// with vector unpacks.
    #[inline(never)]
    fn widen<const N: usize>(block: &[u8; N], out: &mut [u32; N]) {
        for (o, &b) in out.iter_mut().zip(block) {
            *o = u32::from(b);
        }
    }
}

/// UTF-16 units, byte-swapped with `SWAP`; a character above U+FFFF is a
/// surrogate pair, written whole or not at all.
pub(crate) struct Utf16<const SWAP: bool>;

impl<const SWAP: bool> Utf16<SWAP> {
    #[inline(always)]
    fn unit(u: u16) -> u16 {
        if SWAP {
            u.swap_bytes()
        } else {
            u
        }
    }
}

impl<const SWAP: bool> Form for Utf16<SWAP> {
    type Unit = u16;
    #[inline(always)]
    fn bmp(c: u32) -> u16 {
        Self::unit(c as u16)
    }
    #[inline(always)]
    fn supplementary(out: &mut [u16], c: u32) -> Option<usize> {
        let pair = out.get_mut(..2)?;
        let v = c - 0x1_0000;
        pair[0] = Self::unit(0xD800 | (v >> 10) as u16);
        pair[1] = Self::unit(0xDC00 | (v & 0x3FF) as u16);
        Some(2)
    }
    #[inline(always)]
    fn two_supplementary(out: &mut [u16], c0: u32, c1: u32) -> Option<usize> {
        let out: &mut [u16; 4] = out.first_chunk_mut()?;
        let (a, b) = out.split_at_mut(2);
        Self::supplementary(a, c0)?;
        Self::supplementary(b, c1)?;
        Some(4)
    }
    /// With a branch on the plane: writing the second unit always would
    /// leave it past the end of the output after the last character.
    #[inline(always)]
    fn any(out: &mut [u16; 2], c: u32) -> usize {
        if c > 0xFFFF {
            Self::supplementary(out, c).expect("room for a pair")
        } else {
            out[0] = Self::unit(c as u16);
            1
        }
    }
    /// Out of line, as [`Ucs4::widen`].
    #[inline(never)]
    fn widen<const N: usize>(block: &[u8; N], out: &mut [u16; N]) {
        for (o, &b) in out.iter_mut().zip(block) {
            *o = Self::unit(u16::from(b));
        }
    }
}

#[cfg(test)]
pub(crate) use reference::Reference;

/// The reference core as the tests' oracle, in each form.
#[cfg(test)]
mod reference {
    use super::{Form, Ucs4, Utf16};
    use crate::reference::{decode::decode, sink::SliceSink, utf16::Utf16Sink};
    use crate::{ByteOrder, Policy, Progress};

    /// The reference core's strict decoding of `src` into `cap` units of
    /// the form `F` stands for, from `fill`ed units.
    pub(crate) trait Reference: Form {
        fn reference(src: &[u8], cap: usize, fill: Self::Unit) -> (Progress, Vec<Self::Unit>);
    }

    impl Reference for Ucs4 {
        fn reference(src: &[u8], cap: usize, fill: u32) -> (Progress, Vec<u32>) {
            let mut want = vec![fill; cap];
            let p = decode(src, &mut SliceSink::new(&mut want), Policy::Strict, false);
            (p, want)
        }
    }

    impl<const SWAP: bool> Reference for Utf16<SWAP> {
        fn reference(src: &[u8], cap: usize, fill: u16) -> (Progress, Vec<u16>) {
            let mut want = vec![fill; cap];
            // The order that is not native is the swapped one.
            let order = match (SWAP, cfg!(target_endian = "little")) {
                (false, _) => ByteOrder::Native,
                (true, true) => ByteOrder::Big,
                (true, false) => ByteOrder::Little,
            };
            let mut sink = Utf16Sink::new(SliceSink::new(&mut want), order);
            let p = decode(src, &mut sink, Policy::Strict, false);
            (p, want)
        }
    }
}
