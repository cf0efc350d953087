//! Code points to UTF-8, for valid scalar values only.
//!
//! A loop per UTF-8 length takes a run of characters of that length with
//! one range check and one bounds check per character; runs of ASCII go
//! eight code points at a time (one OR of the eight values decides).

use crate::arch::FastStop;

/// Encodes the valid scalar values of `src` into `dst` while they fit.
/// Stops at the end, at a character that does not fit (`flagged` is
/// `None`), or before the first surrogate or value above U+10FFFF
/// (`flagged` is its index).
pub(crate) fn encode_valid(src: &[u32], dst: &mut [u8]) -> FastStop {
    let (mut i, mut j) = (0usize, 0usize);
    let stop = |read, written, flagged| FastStop {
        read,
        written,
        flagged,
    };
    while i < src.len() {
        let c = src[i];
        if c < 0x80 {
            let Some(o) = dst.get_mut(j) else {
                return stop(i, j, None);
            };
            *o = c as u8;
            i += 1;
            j += 1;
            // A second ASCII unit starts a run worth taking eight at a time
            // (a lone space between words is not).
            if src.get(i).is_some_and(|&u| u < 0x80) {
                while let (Some(units), Some(out)) = (src.get(i..i + 8), dst.get_mut(j..j + 8)) {
                    if units.iter().fold(0, |a, &u| a | u) >= 0x80 {
                        break;
                    }
                    for (o, &u) in out.iter_mut().zip(units) {
                        *o = u as u8;
                    }
                    i += 8;
                    j += 8;
                }
            }
            continue;
        }
        // Text in one script repeats one length: a loop per length takes
        // the run from its first character on, with one check per
        // character. Out of room, the loop returns (the next character is
        // of its length).
        if c < 0x800 {
            while let Some(&c) = src.get(i) {
                if c.wrapping_sub(0x80) >= 0x800 - 0x80 {
                    break;
                }
                let Some(out) = dst.get_mut(j..j + 2) else {
                    return stop(i, j, None);
                };
                out[0] = 0xC0 | (c >> 6) as u8;
                out[1] = 0x80 | (c & 0x3F) as u8;
                i += 1;
                j += 2;
            }
        } else if c < 0x10000 {
            if c & 0xF800 == 0xD800 {
                return stop(i, j, Some(i));
            }
            while let Some(&c) = src.get(i) {
                if (c.wrapping_sub(0x800) >= 0x10000 - 0x800) | (c & 0xF800 == 0xD800) {
                    break;
                }
                let Some(out) = dst.get_mut(j..j + 3) else {
                    return stop(i, j, None);
                };
                out[0] = 0xE0 | (c >> 12) as u8;
                out[1] = 0x80 | ((c >> 6) & 0x3F) as u8;
                out[2] = 0x80 | (c & 0x3F) as u8;
                i += 1;
                j += 3;
            }
        } else if c <= 0x10FFFF {
            while let Some(&c) = src.get(i) {
                if c.wrapping_sub(0x10000) >= 0x110000 - 0x10000 {
                    break;
                }
                let Some(out) = dst.get_mut(j..j + 4) else {
                    return stop(i, j, None);
                };
                out[0] = 0xF0 | (c >> 18) as u8;
                out[1] = 0x80 | ((c >> 12) & 0x3F) as u8;
                out[2] = 0x80 | ((c >> 6) & 0x3F) as u8;
                out[3] = 0x80 | (c & 0x3F) as u8;
                i += 1;
                j += 4;
            }
        } else {
            return stop(i, j, Some(i));
        }
    }
    stop(i, j, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::samples::Rng;
    use crate::scalar::encode::encode;
    use crate::scalar::sink::SliceSink;
    use crate::{EncodePolicy, Status};

    /// Units of every UTF-8 length, ASCII with probability `ascii`%, and
    /// `bad` of them replaced by surrogates or values above U+10FFFF.
    fn units(rng: &mut Rng, len: usize, ascii: u64, bad: usize) -> Vec<u32> {
        let mut v: Vec<u32> = (0..len)
            .map(|_| {
                if rng.below(100) < ascii {
                    rng.below(0x80) as u32
                } else {
                    let limit = [0x800, 0x10000, 0x110000][rng.below(3) as usize];
                    let c = rng.below(limit) as u32;
                    char::from_u32(c).map_or(0xFFFD, u32::from)
                }
            })
            .collect();
        for _ in 0..bad.min(len) {
            let at = rng.below(len as u64) as usize;
            let which = rng.below(6) as usize;
            v[at] = [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, u32::MAX][which];
        }
        v
    }

    /// The same bytes, and the same stopping point, as the reference encoder
    /// in strict mode, at every output capacity.
    #[test]
    fn matches_the_reference() {
        let mut rng = Rng(0xC0DE);
        let check = |src: &[u32], cap: usize| {
            let mut want = vec![0xAA; cap];
            let p = encode(src, &mut SliceSink::new(&mut want), EncodePolicy::Strict);
            let mut got = vec![0xAA; cap];
            let stop = encode_valid(src, &mut got);
            assert_eq!(
                (stop.read, stop.written),
                (p.read, p.written),
                "{src:X?} cap {cap}"
            );
            assert_eq!(got, want, "{src:X?} cap {cap}");
            // A flag means the reference stops at an error there; no flag
            // short of the end means the next character does not fit.
            let ill_formed = matches!(p.status, Status::IllFormed(_));
            match stop.flagged {
                Some(e) => assert!(ill_formed && e == stop.read, "{src:X?} cap {cap}"),
                None if stop.read < src.len() => {
                    assert_eq!(p.status, Status::OutputFull, "{src:X?} cap {cap}")
                }
                None => assert_eq!(p.status, Status::Done, "{src:X?} cap {cap}"),
            }
        };
        for len in 0..40 {
            for ascii in [0, 50, 90, 100] {
                for bad in [0, 1, 2] {
                    let src = units(&mut rng, len, ascii, bad);
                    for cap in 0..=4 * len + 1 {
                        check(&src, cap);
                    }
                }
            }
        }
        for _ in 0..300 {
            let ascii = rng.below(101);
            let bad = rng.below(2) as usize;
            let src = units(&mut rng, 1000, ascii, bad);
            check(&src, 4 * src.len());
            check(&src, rng.below(4 * src.len() as u64) as usize);
        }
    }
}
