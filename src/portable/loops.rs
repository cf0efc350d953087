//! The element-wise loops the engine's Latin-1 routes run between a buffer
//! of code points and the caller's form, written once in plain Rust,
//! branch-free over their slices (a reduction first, then the copy), so
//! that the compiler vectorises them. Every tier's table holds them
//! compiled with that tier's features (`arch::portable_loops!`); the scalar
//! tier's, for the baseline.

/// Writes `cps` as Latin-1 bytes into `dst` (at least as long): a code
/// point above 0xFF becomes `replacement`, or with `None` ends the copy.
/// Returns how many were written.
#[inline(always)]
pub(crate) fn narrow_latin1(cps: &[u32], dst: &mut [u8], replacement: Option<u8>) -> usize {
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

/// Bytes at the start of `bytes` in whole 32-byte blocks of ASCII.
#[inline(always)]
pub(crate) fn ascii_blocks(bytes: &[u8]) -> usize {
    bytes
        .chunks_exact(32)
        .take_while(|b| b.iter().fold(0, |acc, &x| acc | x) < 0x80)
        .count()
        * 32
}
