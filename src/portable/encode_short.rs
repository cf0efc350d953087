//! Strings of a few characters to UTF-8, from code points, UTF-16 units or
//! Latin-1 bytes: one plain loop, a branch per character's length, no
//! set-up. On short strings a kernel's set-up costs more than this loop;
//! the engine tries it first (below 16 code points, up to 16 Latin-1 bytes,
//! up to 6 UTF-16 units: bounds measured with `cargo bench --bench short`)
//! and takes the general way at anything it does not handle (an invalid
//! unit, too little room), from the start. What the loop wrote by then is
//! a prefix of what the general way writes, so nothing past the final
//! `written` is touched.

use super::encode::is_scalar;

/// Writes the UTF-8 of `c` (below 0x110000, not a surrogate) at `dst[j..]`
/// and returns where it ends, or `None` without writing if it does not fit.
/// One branch per length: on a short string the branches predict well
/// (most text keeps to one or two lengths), while the branch-free word of
/// [`super::encode`]'s mixed path with a four-byte store ran at about 3 ns
/// a character here (AMD Zen 4), three to six times slower.
#[inline(always)]
fn put_short(c: u32, dst: &mut [u8], j: usize) -> Option<usize> {
    if c < 0x80 {
        *dst.get_mut(j)? = c as u8;
        Some(j + 1)
    } else if c < 0x800 {
        let d = dst.get_mut(j..j + 2)?;
        d[0] = (0xC0 | c >> 6) as u8;
        d[1] = (0x80 | c & 0x3F) as u8;
        Some(j + 2)
    } else if c < 0x1_0000 {
        let d = dst.get_mut(j..j + 3)?;
        d[0] = (0xE0 | c >> 12) as u8;
        d[1] = (0x80 | c >> 6 & 0x3F) as u8;
        d[2] = (0x80 | c & 0x3F) as u8;
        Some(j + 3)
    } else {
        let d = dst.get_mut(j..j + 4)?;
        d[0] = (0xF0 | c >> 18) as u8;
        d[1] = (0x80 | c >> 12 & 0x3F) as u8;
        d[2] = (0x80 | c >> 6 & 0x3F) as u8;
        d[3] = (0x80 | c & 0x3F) as u8;
        Some(j + 4)
    }
}

/// A short string of code points (a few dozen), encoded whole in one plain
/// loop: the bytes written, or `None` at the first unit that is not a
/// scalar value or when `dst` is too small, and then the caller takes the
/// general way from the start (a few nanoseconds, for a string this
/// short).
#[inline]
pub(crate) fn encode_short(src: &[u32], dst: &mut [u8]) -> Option<usize> {
    let mut j = 0;
    for &c in src {
        if !is_scalar(c) {
            return None;
        }
        j = put_short(c, dst, j)?;
    }
    Some(j)
}

/// [`encode_short`] for Latin-1 bytes, each a code point: `None` only when
/// `dst` is too small.
#[inline]
pub(crate) fn encode_short_latin1(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let mut j = 0;
    for &b in src {
        j = put_short(u32::from(b), dst, j)?;
    }
    Some(j)
}

/// [`encode_short`] for UTF-16 units (`swap`: of the other byte order): a
/// high surrogate followed by a low one is one character; `None` at an
/// unpaired surrogate too (an error, or with more input to come a pair's
/// first half, both the general way's to report).
#[inline]
pub(crate) fn encode_short_utf16(src: &[u16], dst: &mut [u8], swap: bool) -> Option<usize> {
    let unit = |u: u16| u32::from(if swap { u.swap_bytes() } else { u });
    let (mut i, mut j) = (0, 0);
    while let Some(&u) = src.get(i) {
        let mut c = unit(u);
        i += 1;
        if c & 0xF800 == 0xD800 {
            let low = unit(*src.get(i)?);
            if c >= 0xDC00 || low & 0xFC00 != 0xDC00 {
                return None;
            }
            c = 0x1_0000 + ((c - 0xD800) << 10) + (low - 0xDC00);
            i += 1;
        }
        j = put_short(c, dst, j)?;
    }
    Some(j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::Rng;

    /// Every scalar value alone, at every capacity up to its length, and
    /// every value that is not one.
    #[test]
    fn every_code_point() {
        let mut buf = [0u8; 4];
        for c in 0..0x11_0000u32 {
            let Some(ch) = char::from_u32(c) else {
                assert_eq!(encode_short(&[c], &mut [0; 8]), None, "{c:X}");
                continue;
            };
            let want = ch.encode_utf8(&mut buf).as_bytes().to_vec();
            for cap in 0..=want.len() {
                let mut got = vec![0xAA; cap];
                let fits = cap == want.len();
                let n = encode_short(&[c], &mut got);
                assert_eq!(n, fits.then_some(want.len()), "{c:X} cap {cap}");
                if fits {
                    assert_eq!(got, want, "{c:X}");
                } else {
                    assert!(
                        got.iter().all(|&b| b == 0xAA),
                        "{c:X} cap {cap}: nothing written"
                    );
                }
            }
        }
        for c in [0x11_0000, 0x7FFF_FFFF, u32::MAX] {
            assert_eq!(encode_short(&[0x41, c], &mut [0; 8]), None, "{c:X}");
        }
    }

    /// Every unit alone and every pair of a high and a low surrogate, in
    /// both byte orders, against std's UTF-16 decoder; a lone surrogate
    /// anywhere gives `None`.
    #[test]
    fn every_unit_and_pair() {
        let check = |units: &[u16]| {
            let std: Result<String, _> = char::decode_utf16(units.iter().copied()).collect();
            let want = std.ok().map(String::into_bytes);
            for swap in [false, true] {
                let given: Vec<u16> = if swap {
                    units.iter().map(|u| u.swap_bytes()).collect()
                } else {
                    units.to_vec()
                };
                let mut got = [0u8; 16];
                let n = encode_short_utf16(&given, &mut got, swap);
                assert_eq!(
                    n.map(|n| got[..n].to_vec()),
                    want,
                    "{units:04X?} swap {swap}"
                );
            }
        };
        for u in 0..=0xFFFF {
            check(&[u]);
            check(&[0x41, u]);
            check(&[0xD83D, u]);
            check(&[u, 0xDE00]);
        }
        for high in 0xD800..0xDC00 {
            for low in (0xDC00..0xE000).step_by(7).chain([0xDFFF]) {
                check(&[high, low]);
            }
        }
    }

    /// Random short strings of every length class with lone surrogates and
    /// values above U+10FFFF mixed in, at every capacity, against std.
    #[test]
    fn short_strings_at_every_capacity() {
        let mut rng = Rng(0x5407);
        for _ in 0..20_000 {
            let len = rng.below(20) as usize;
            let units: Vec<u32> = (0..len)
                .map(|_| match rng.below(10) {
                    0 => [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000][rng.below(5) as usize],
                    1..=3 => rng.below(0x80) as u32,
                    _ => {
                        let limit = [0x800, 0x1_0000, 0x11_0000][rng.below(3) as usize];
                        rng.below(limit) as u32
                    }
                })
                .collect();
            let want: Option<Vec<u8>> = units
                .iter()
                .map(|&c| char::from_u32(c))
                .collect::<Option<String>>()
                .map(String::into_bytes);
            let utf16: Option<Vec<u16>> = want
                .as_ref()
                .map(|b| core::str::from_utf8(b).unwrap().encode_utf16().collect());
            for cap in 0..=4 * len {
                let mut got = vec![0xAA; cap];
                let n = encode_short(&units, &mut got);
                let fits = want.as_ref().filter(|w| w.len() <= cap);
                assert_eq!(
                    n.map(|n| &got[..n]),
                    fits.map(|w| &w[..]),
                    "{units:X?} cap {cap}"
                );
                if let Some(w) = fits {
                    assert!(
                        got[w.len()..].iter().all(|&b| b == 0xAA),
                        "{units:X?} cap {cap}"
                    );
                }
                let bytes: Vec<u8> = units.iter().map(|&c| c as u8).collect();
                let latin1: String = bytes.iter().map(|&b| char::from(b)).collect();
                let mut got = vec![0xAA; cap];
                let n = encode_short_latin1(&bytes, &mut got);
                let fits_latin1 = (latin1.len() <= cap).then_some(latin1.as_bytes());
                assert_eq!(n.map(|n| &got[..n]), fits_latin1, "{bytes:X?} cap {cap}");
                if let Some(u) = &utf16 {
                    let mut got = vec![0xAA; cap];
                    let n = encode_short_utf16(u, &mut got, false);
                    assert_eq!(
                        n.map(|n| &got[..n]),
                        fits.map(|w| &w[..]),
                        "{u:X?} cap {cap}"
                    );
                }
            }
        }
    }
}
