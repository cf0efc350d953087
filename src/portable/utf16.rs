//! Well-formed UTF-16 to UTF-8, for the scalar tier.
//!
//! All-ASCII blocks of 32 units are narrowed (one OR decides); otherwise a
//! loop per UTF-8 length takes a run of characters of that length, each
//! written exactly, with one range check and one bounds check a character.
//! A lone ASCII unit between longer characters (a space between words)
//! stays in their loop. Reading the units directly saves the pass through
//! a buffer of code points that the other conversions share.

#![forbid(unsafe_code)]

/// Encodes the well-formed UTF-16 at the start of `src` (in `SWAP`ped byte
/// order or not) into `dst`. Stops at the end, before a lone surrogate or
/// a high surrogate ending `src`, or within 4 bytes of the end of `dst`
/// (whose last characters the caller writes exactly). Returns units read
/// and bytes written; nothing past the bytes written is changed.
pub(crate) fn encode_valid(src: &[u16], dst: &mut [u8], swap: bool) -> (usize, usize) {
    match swap {
        true => encode_in_order::<true>(src, dst),
        false => encode_in_order::<false>(src, dst),
    }
}

/// Units of an all-ASCII block.
const BLOCK: usize = 32;

/// [`encode_valid`] with the byte order fixed.
fn encode_in_order<const SWAP: bool>(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    let unit = |u: u16| if SWAP { u.swap_bytes() } else { u };
    let (mut i, mut j) = (0, 0);
    loop {
        // All-ASCII blocks, narrowed.
        while let (Some(s), Some(d)) = (src.get(i..i + BLOCK), dst.get_mut(j..j + BLOCK)) {
            if unit(s.iter().fold(0, |a, &u| a | u)) >= 0x80 {
                break;
            }
            for (d, &u) in d.iter_mut().zip(s) {
                *d = unit(u) as u8;
            }
            i += BLOCK;
            j += BLOCK;
        }
        // A run of characters of one length, while four bytes of room
        // are left; a lone ASCII unit between longer characters (a space)
        // stays in the run.
        let start = i;
        let Some(&first) = src.get(i) else {
            return (i, j);
        };
        let first = unit(first);
        let ascii_then =
            |i: usize, long: fn(u16) -> bool| src.get(i + 1).is_some_and(|&n| long(unit(n)));
        if first < 0x80 {
            // Eight at a time while eight are ASCII, then one at a time.
            while let (Some(s), Some(d)) = (src.get(i..i + 8), dst.get_mut(j..j + 8)) {
                if unit(s.iter().fold(0, |a, &u| a | u)) >= 0x80 {
                    break;
                }
                for (d, &u) in d.iter_mut().zip(s) {
                    *d = unit(u) as u8;
                }
                (i, j) = (i + 8, j + 8);
            }
            while let (Some(&u), Some(d)) = (src.get(i), dst.get_mut(j..j + 4)) {
                let u = unit(u);
                if u >= 0x80 {
                    break;
                }
                d[0] = u as u8;
                (i, j) = (i + 1, j + 1);
            }
        } else if first < 0x800 {
            // Eight units below U+0800 at a time, without a branch on each
            // one's length, where another of the next seven units is above
            // 7F too (a lone one among ASCII, as in `ascii+1%2B`, goes
            // faster through the loop below and back to the blocks); while
            // the unit after them is no surrogate (it is written next, over
            // the extra byte a step ending in ASCII leaves) and 19 bytes of
            // room are left (such a step takes 15 at most, and the loops
            // below write a character while four are left).
            let dense = src
                .get(i + 1..i + 8)
                .is_some_and(|s| s.iter().any(|&u| unit(u) >= 0x80));
            let mut ascii_steps = 0;
            while let (true, Some(s), Some(d)) = (dense, src.get(i..i + 9), dst.get_mut(j..j + 19))
            {
                let s: [u16; 9] = core::array::from_fn(|k| unit(s[k]));
                let eight: [u16; 8] = core::array::from_fn(|k| s[k]);
                if eight.iter().fold(0, |a, &u| a | u) >= 0x800 || s[8] & 0xF800 == 0xD800 {
                    break;
                }
                let two = (0..8).fold(0u64, |m, k| m | u64::from(eight[k] >= 0x80) << (8 * k));
                let d: &mut [u8; 19] = d.try_into().expect("room");
                j += super::latin1::write_eight(eight, two, d);
                i += 8;
                // Two steps of ASCII alone in a row: back to the blocks,
                // which take mostly ASCII text several times faster (text
                // with 10% letters above 7F has such a pair about one step
                // in five).
                ascii_steps = if two == 0 { ascii_steps + 1 } else { 0 };
                if ascii_steps == 2 {
                    break;
                }
            }
            while let (Some(&u), Some(d)) = (src.get(i), dst.get_mut(j..j + 4)) {
                let u = unit(u);
                if (0x80..0x800).contains(&u) {
                    d[..2].copy_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
                    (i, j) = (i + 1, j + 2);
                } else if u < 0x80 && ascii_then(i, |n| (0x80..0x800).contains(&n)) {
                    d[0] = u as u8;
                    (i, j) = (i + 1, j + 1);
                } else {
                    break;
                }
            }
        } else if first & 0xF800 != 0xD800 {
            let three = |u: u16| u >= 0x800 && u & 0xF800 != 0xD800;
            while let (Some(&u), Some(d)) = (src.get(i), dst.get_mut(j..j + 4)) {
                let u = unit(u);
                if three(u) {
                    d[..3].copy_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | (u >> 6 & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                    (i, j) = (i + 1, j + 3);
                } else if u < 0x80 && ascii_then(i, three) {
                    d[0] = u as u8;
                    (i, j) = (i + 1, j + 1);
                } else {
                    break;
                }
            }
        } else {
            // Pairs; a lone surrogate ends the run.
            while let (Some(&[h, l]), Some(d)) = (src.get(i..i + 2), dst.get_mut(j..j + 4)) {
                let (h, l) = (unit(h), unit(l));
                if h & 0xFC00 != 0xD800 || l & 0xFC00 != 0xDC00 {
                    break;
                }
                let c = 0x1_0000 + ((u32::from(h) & 0x3FF) << 10 | u32::from(l) & 0x3FF);
                d[..4].copy_from_slice(&[
                    0xF0 | (c >> 18) as u8,
                    0x80 | (c >> 12 & 0x3F) as u8,
                    0x80 | (c >> 6 & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                ]);
                (i, j) = (i + 2, j + 4);
            }
        }
        if i == start {
            return (i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::Rng;

    /// `encode_valid` of `src` into `cap` bytes filled with a marker,
    /// against std: what it read must be well-formed and encoded as std
    /// does, it must stop only where it may, and nothing past what it
    /// wrote may change.
    fn check(src: &[u16], cap: usize) {
        for swap in [false, true] {
            let units: Vec<u16> = src
                .iter()
                .map(|&u| if swap { u.swap_bytes() } else { u })
                .collect();
            let mut dst = vec![0xEE; cap];
            let (read, written) = encode_valid(&units, &mut dst, swap);
            let what = || format!("{src:04X?} into {cap}, swapped {swap}");
            let prefix = String::from_utf16(&src[..read]).unwrap_or_else(|_| panic!("{}", what()));
            assert_eq!(dst[..written], *prefix.as_bytes(), "{}", what());
            assert!(dst[written..].iter().all(|&b| b == 0xEE), "{}", what());
            // Where it stopped: the end, a surrogate that is not a pair
            // there, or near the end of the output.
            let lone = match src[read..] {
                [] => true,
                [h, l, ..] => {
                    (0xD800..0xE000).contains(&h)
                        && !((0xD800..0xDC00).contains(&h) && (0xDC00..0xE000).contains(&l))
                }
                [u] => (0xD800..0xE000).contains(&u),
            };
            assert!(lone || cap - written < 4, "{}: stopped at {read}", what());
        }
    }

    #[test]
    fn every_unit_and_pair_after_each_kind() {
        let kinds: [&[u16]; 5] = [&[], &[0x41], &[0xE9], &[0x4E2D], &[0xD83D, 0xDE00]];
        let mut units: Vec<u16> = (0..=0xFFFF).step_by(7).collect();
        units.extend([
            0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
        ]);
        for before in kinds {
            for &u in &units {
                for after in [&[][..], &[0xDC00], &[0x41, 0x42], &[0xDFFF, 0x20]] {
                    let src: Vec<u16> = before.iter().chain(&[u]).chain(after).copied().collect();
                    check(&src, 3 * src.len() + 9);
                }
            }
        }
    }

    #[test]
    fn every_step_shape_at_every_capacity() {
        // Each step of ASCII and two-byte characters, after an ASCII
        // block or not, then characters of each other length: every
        // output size cuts it.
        for mask in 0..=255u32 {
            let step = (0..8).map(|k| if mask >> k & 1 == 1 { 0x416 } else { 0x65 });
            for before in [0, 32] {
                for after in [
                    [0x4E2D, 0x21],
                    [0x21, 0x4E2D],
                    [0x21, 0x22],
                    [0xD83D, 0xDE00],
                ] {
                    let src: Vec<u16> = core::iter::repeat_n(0x61, before)
                        .chain([0xE9])
                        .chain(step.clone())
                        .chain(after)
                        .collect();
                    for cap in 0..=3 * src.len() + 1 {
                        check(&src, cap);
                    }
                }
            }
        }
    }

    #[test]
    fn matches_std_at_every_capacity() {
        let mut rng = Rng(0x16E5);
        for round in 0..300 {
            let len = if round % 4 == 0 {
                rng.below(600)
            } else {
                rng.below(40)
            } as usize;
            let ascii = [0, 30, 90, 100][rng.below(4) as usize];
            let src: Vec<u16> = (0..len)
                .map(|_| match rng.below(100) < ascii {
                    true => rng.below(0x80) as u16,
                    false => match rng.below(10) {
                        0 => 0xD800 + rng.below(0x800) as u16,
                        _ => rng.below(0x10000) as u16,
                    },
                })
                .collect();
            // Pairs, made by joining a high surrogate to the next unit.
            let src: Vec<u16> = src
                .iter()
                .enumerate()
                .map(
                    |(k, &u)| match k > 0 && (0xD800..0xDC00).contains(&src[k - 1]) {
                        true if rng.below(4) > 0 => 0xDC00 | u & 0x3FF,
                        _ => u,
                    },
                )
                .collect();
            let full = 4 * src.len() + 8;
            let caps: Vec<usize> = match len <= 40 {
                true => (0..=full).collect(),
                false => vec![0, 7, 8, full, rng.below(full as u64) as usize],
            };
            for cap in caps {
                check(&src, cap);
            }
        }
    }
}
