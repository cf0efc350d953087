//! Latin-1 to UTF-8. Bytes 00..7F stay as they are and 80..FF become two
//! bytes (C2 or C3, then 80..BF), so every input is valid and the only
//! stop is a full output.
//!
//! All-ASCII blocks of 32 bytes are copied. Eight bytes that hold a letter
//! above 7F are written without a branch per byte: each byte writes its
//! first UTF-8 byte and a second one whatever its length, and the next
//! byte starts where its length says, over the second byte of an ASCII
//! one. Text with a letter above 7F now and then (French, German, Spanish)
//! changes length every few bytes, which a branch per byte mispredicts.
//! Where the bytes go is computed for the eight at once, so that no byte
//! waits for the one before. On Sapphire Rapids, baseline x86-64: 22 GB/s
//! on ASCII, 1.2 GB/s with 10% letters above 7F (the reference core's
//! byte loop 2.6 and 0.87, encoding_rs 10 and 0.73).

#![forbid(unsafe_code)]

use super::ascii::{block_is_ascii, BLOCK};

/// Input bytes a step takes.
const STEP: usize = 8;

/// Output bytes a step needs: two a byte, and one more. A step ending in
/// an ASCII byte has written one byte past its length, which is at most 15;
/// the byte after the step then fits (and writes over it) whatever its
/// length.
const ROOM: usize = 2 * STEP + 1;

/// Encodes Latin-1 `src` as UTF-8 into `dst`, as far as whole characters
/// fit. Returns bytes read and written; nothing past the bytes written is
/// changed.
pub(crate) fn encode_latin1(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let (mut i, mut j) = (0, 0);
    loop {
        // All-ASCII blocks, copied.
        while let (Some(s), Some(d)) = (src.get(i..i + BLOCK), dst.get_mut(j..j + BLOCK)) {
            let s: &[u8; BLOCK] = s.try_into().expect("a block");
            if !block_is_ascii(s) {
                break;
            }
            d.copy_from_slice(s);
            i += BLOCK;
            j += BLOCK;
        }
        // Steps of eight bytes while another byte follows them (it writes
        // over the last step's extra byte) and the output has room for
        // the step and that byte.
        let start = i;
        while let (Some(s), Some(d)) = (src.get(i..i + STEP + 1), dst.get_mut(j..j + ROOM)) {
            let s: &[u8; STEP] = s[..STEP].try_into().expect("a step");
            let d: &mut [u8; ROOM] = d.try_into().expect("room");
            j += step(s, d);
            i += STEP;
            // Tested on the bytes again, not on the step's length (which
            // says the same): that ran text with 10% letters above 7F at
            // 1.07 GB/s against 1.32.
            if i - start >= 4 * BLOCK && u64::from_ne_bytes(*s) & 0x8080_8080_8080_8080 == 0 {
                // ASCII again: back to the blocks.
                break;
            }
        }
        if i == start {
            break;
        }
    }
    // The rest a byte at a time, each written exactly.
    while let Some(&b) = src.get(i) {
        if b < 0x80 {
            let Some(d) = dst.get_mut(j) else { break };
            *d = b;
            j += 1;
        } else {
            let Some(d) = dst.get_mut(j..j + 2) else {
                break;
            };
            d.copy_from_slice(&[0xC0 | b >> 6, 0x80 | b & 0x3F]);
            j += 2;
        }
        i += 1;
    }
    (i, j)
}

/// Writes the eight bytes of `s` at the start of `d`; returns how many
/// bytes they take (8 to 16). `d[that]` may be changed too.
#[inline(always)]
fn step(s: &[u8; STEP], d: &mut [u8; ROOM]) -> usize {
    let two = u64::from_le_bytes(*s) >> 7 & 0x0101_0101_0101_0101;
    write_eight(s.map(u16::from), two, d)
}

/// Writes eight characters below U+0800, one or two bytes each, at the
/// start of `d`: `values` are their code points and byte `n` of `two` is 1
/// where character `n` takes two bytes (is U+0080 or above). Returns how
/// many bytes they take (8 to 16); `d[that]` may be changed too.
#[inline(always)]
pub(super) fn write_eight<const ROOM: usize>(
    values: [u16; 8],
    two: u64,
    d: &mut [u8; ROOM],
) -> usize {
    const { assert!(ROOM > 2 * 8) };
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Where each character goes: its index plus the two-byte characters
    // before it, all at once (each byte of the product sums the bytes of
    // `two` up to it; shifted one byte, those before it). Each sum fits
    // its byte, so nothing carries. Computing each start from the one
    // before made a chain that ran at 1 GB/s on text with 10% letters
    // above 7F.
    let sums = two.wrapping_mul(ONES);
    let at = (sums << 8) + 0x0706_0504_0302_0100;
    for (n, &v) in values.iter().enumerate() {
        // At most 14 (character 7, after seven of two bytes): the mask is
        // the identity and spares the bounds checks.
        let p = usize::from((at >> (8 * n)) as u8 & 15);
        d[p] = if v < 0x80 {
            v as u8
        } else {
            0xC0 | (v >> 6) as u8
        };
        d[p + 1] = 0x80 | (v & 0x3F) as u8;
    }
    8 + (sums >> 56) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::Rng;

    /// The reference: each byte as its character, by std.
    fn want(src: &[u8]) -> Vec<u8> {
        src.iter()
            .map(|&b| char::from(b))
            .collect::<String>()
            .into_bytes()
    }

    /// `encode_latin1` into a destination of `cap` bytes filled with a
    /// marker: whole characters as far as they fit, and nothing changed
    /// past them.
    fn check(src: &[u8], cap: usize) {
        let all = want(src);
        let mut dst = vec![0xEE; cap];
        let (read, written) = encode_latin1(src, &mut dst);
        let fits = src
            .iter()
            .scan(0, |n, &b| {
                *n += 1 + usize::from(b >> 7);
                Some(*n)
            })
            .take_while(|&n| n <= cap)
            .count();
        assert_eq!(read, fits, "{src:02X?} into {cap}");
        assert_eq!(written, want(&src[..read]).len(), "{src:02X?} into {cap}");
        assert_eq!(dst[..written], all[..written], "{src:02X?} into {cap}");
        assert!(
            dst[written..].iter().all(|&b| b == 0xEE),
            "{src:02X?} into {cap}"
        );
    }

    #[test]
    fn every_byte_at_every_position_of_a_step() {
        for len in 0..=2 * STEP + 2 {
            for at in 0..len {
                for b in 0..=255u8 {
                    for fill in [b'a', 0xE9] {
                        let mut src = vec![fill; len];
                        src[at] = b;
                        check(&src, 2 * len + 1);
                    }
                }
            }
        }
    }

    #[test]
    fn every_step_shape_at_every_capacity() {
        // Each step of ASCII and letters above 7F, after an ASCII block or
        // not, then a letter above 7F or ASCII: every output size cuts it.
        for mask in 0..=255u32 {
            let step = (0..8).map(|k| if mask >> k & 1 == 1 { 0xE9 } else { b'e' });
            for before in [0, 32] {
                for after in [[0xFFu8, b'!'], [b'!', 0xFF]] {
                    let src: Vec<u8> = core::iter::repeat_n(b'a', before)
                        .chain(step.clone())
                        .chain(after)
                        .collect();
                    for cap in 0..=want(&src).len() + 1 {
                        check(&src, cap);
                    }
                }
            }
        }
    }

    #[test]
    fn matches_std_at_every_capacity() {
        let mut rng = Rng(0x1A7E);
        for round in 0..400 {
            let len = if round % 4 == 0 {
                rng.below(2000)
            } else {
                rng.below(90)
            } as usize;
            // Letters above 7F in runs, now and then, or everywhere.
            let above = [0, 2, 10, 50, 100][rng.below(5) as usize];
            let src: Vec<u8> = (0..len)
                .map(|_| match rng.below(100) < above {
                    true => 0x80 + rng.below(0x80) as u8,
                    false => rng.below(0x80) as u8,
                })
                .collect();
            let full = want(&src).len();
            let caps: Vec<usize> = match len <= 90 {
                true => (0..=full + 1).collect(),
                false => vec![
                    0,
                    1,
                    full - 1,
                    full,
                    full + 1,
                    rng.below(full as u64 + 1) as usize,
                ],
            };
            for cap in caps {
                check(&src, cap);
            }
        }
    }
}
