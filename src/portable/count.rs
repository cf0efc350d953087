//! Counting the characters of well-formed UTF-8: its bytes that are not
//! continuation bytes.
//!
//! Summed in chunks of 255 bytes into an 8-bit total, which cannot
//! overflow there: compilers turn that into byte-wide vector compares and
//! adds, where a `usize` count per byte (`filter().count()`) stays 8x
//! narrower.

/// The bytes of `src` that are not continuation bytes (80..BF).
#[inline(never)]
pub(crate) fn count_leads(src: &[u8]) -> usize {
    src.chunks(255)
        .map(|chunk| {
            let leads = chunk
                .iter()
                .fold(0u8, |n, &b| n + u8::from((b as i8) >= -64));
            usize::from(leads)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{text, Rng};

    /// The same count as the reference, on inputs of every length around
    /// the chunk size and on long random bytes and text.
    #[test]
    fn counts_like_the_reference() {
        let mut rng = Rng(0xC0);
        for len in 0..600 {
            let v: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            assert_eq!(
                count_leads(&v),
                crate::reference::validate::count_leads(&v),
                "{len}"
            );
        }
        for ascii in [0, 50, 100] {
            let v = text(&mut rng, 100_000, ascii, 0);
            let want = core::str::from_utf8(&v).expect("valid").chars().count();
            assert_eq!(count_leads(&v), want);
        }
        assert_eq!(count_leads(&[0x80; 1000]), 0);
        assert_eq!(count_leads(&[0xC0; 1000]), 1000);
    }
}
