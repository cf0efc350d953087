//! Code points to UTF-8, for valid scalar values only.
//!
//! A loop per UTF-8 length takes a run of characters of that length with
//! one range check and one bounds check per character; runs of ASCII go
//! eight code points at a time (one OR of the eight values decides).

use crate::contract::FastStop;

/// Units per block of the branch-free path.
const MIXED: usize = 32;

/// Every this many runs, the units they covered are compared with
/// [`SHORT_RUNS`] units: fewer (runs of under 1.5 characters on average, the
/// UTF-8 length changing at almost every character) and the branch-free
/// path takes over for a while. (Korean text, with a space every two or
/// three syllables, averages about two, and is faster on the run loops.)
const RUNS: usize = 64;
const SHORT_RUNS: usize = RUNS * 3 / 2;

/// Blocks the branch-free path takes before the run loops try again.
const MIXED_BLOCKS: usize = 8;

/// The UTF-8 of the scalar value `c` (first byte lowest) and its length,
/// without a branch: the four 6-bit groups are spread over four bytes with
/// the continuation marker, shifted down to the length, and the lead
/// byte's marker is added.
#[inline(always)]
fn utf8_word(c: u32) -> (u32, usize) {
    let len = 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800) + usize::from(c >= 0x1_0000);
    let spread = (c >> 18 | (c >> 4) & 0x3F00 | (c << 10) & 0x3F_0000 | (c << 24) & 0x3F00_0000)
        | 0x8080_8080;
    // 0x80 | 0x40 = C0, | 0x60 = E0, | 0x70 = F0 on the lead byte.
    let lead = (0x7060_4000u32 >> (8 * (len - 1))) & 0xFF;
    let multi = (spread >> (8 * (4 - len))) | lead;
    // ASCII is itself. Selected with a mask: an `if` here was compiled
    // into a branch, which mispredicts on mixed text.
    let ascii = 0u32.wrapping_sub(u32::from(len == 1));
    (c & ascii | multi & !ascii, len)
}

/// Encodes a block of valid scalar values with one four-byte store each:
/// the excess of each store is overwritten by the next character's. With
/// `last`, nothing follows, and the last three characters are written
/// exactly, which covers the excess of the last four-byte store (at most
/// three bytes); else the caller writes four bytes at the returned length
/// next. Returns the bytes written.
#[inline(always)]
fn encode_mixed(units: &[u32; MIXED], out: &mut [u8; 4 * MIXED], last: bool) -> usize {
    let whole = if last { MIXED - 3 } else { MIXED };
    let mut j = 0;
    for &c in &units[..whole] {
        let (word, len) = utf8_word(c);
        // `j` is at most 4 * (MIXED - 4): the `min` only tells the compiler.
        let at = j.min(4 * MIXED - 4);
        out[at..at + 4].copy_from_slice(&word.to_le_bytes());
        j += len;
    }
    for &c in &units[whole..] {
        let (word, len) = utf8_word(c);
        out[j..j + len].copy_from_slice(&word.to_le_bytes()[..len]);
        j += len;
    }
    j
}

/// Whether `c` is a scalar value: no surrogate, nothing above U+10FFFF.
#[inline(always)]
pub(super) fn is_scalar(c: u32) -> bool {
    ((c ^ 0xD800) >= 0x800) & (c < 0x11_0000)
}

/// Whether every unit is a scalar value, tested without a branch per unit.
#[inline(always)]
fn all_scalars(units: &[u32; MIXED]) -> bool {
    units.iter().fold(true, |ok, &c| ok & is_scalar(c))
}

/// Units per block of [`encoded_len_valid`].
const LEN_BLOCK: usize = 64;

/// The UTF-8 length of the valid scalar values of `src`: bytes counted
/// up to the end, or up to the first surrogate or value above U+10FFFF
/// (`flagged` is its index). A block of [`LEN_BLOCK`] units at a time adds
/// each unit's length (one byte, and one more for each of U+0080, U+0800
/// and U+10000 it reaches) and ORs its verdict, without a branch, which
/// the compiler turns into vector code; a block with an invalid unit, and
/// the last units, are taken one at a time.
#[inline(never)]
pub(crate) fn encoded_len_valid(src: &[u32]) -> FastStop {
    let len = |c: u32| 1 + u32::from(c >= 0x80) + u32::from(c >= 0x800) + u32::from(c >= 0x1_0000);
    let invalid = |c: u32| u32::from(!is_scalar(c));
    let (mut i, mut n) = (0, 0);
    for block in src.chunks_exact(LEN_BLOCK) {
        let (bytes, bad) = block.iter().fold((0, 0), |(bytes, bad), &c| {
            (bytes + len(c), bad | invalid(c))
        });
        if bad != 0 {
            break;
        }
        i += LEN_BLOCK;
        n += bytes as usize;
    }
    for (k, &c) in src[i..].iter().enumerate() {
        if invalid(c) != 0 {
            return FastStop {
                read: i + k,
                written: n,
                flagged: Some(i + k),
            };
        }
        n += len(c) as usize;
    }
    FastStop {
        read: src.len(),
        written: n,
        flagged: None,
    }
}

/// What [`lone_ascii`] did with the ASCII character at `src[i]`.
enum Lone {
    /// Wrote it at `dst[j]`.
    Written,
    /// Left it: the next character is ASCII too (a run for the ASCII
    /// loop), or there is none.
    Leave,
    /// Left it: `dst` is full.
    Full,
}

/// A lone ASCII character (a space between words) met in the loop for
/// characters of two or three bytes stays in that loop: the loops per
/// length would otherwise leave and re-enter it at every space (Korean text
/// has one every two or three syllables).
#[inline(always)]
fn lone_ascii(src: &[u32], dst: &mut [u8], i: usize, j: usize) -> Lone {
    if src.get(i + 1).is_none_or(|&u| u < 0x80) {
        return Lone::Leave;
    }
    let Some(o) = dst.get_mut(j) else {
        return Lone::Full;
    };
    *o = src[i] as u8;
    Lone::Written
}

/// Encodes the valid scalar values of `src` into `dst` while they fit.
/// Stops at the end, at a character that does not fit (`flagged` is
/// `None`), or before the first surrogate or value above U+10FFFF
/// (`flagged` is its index).
/// Not inlined: the loops' speed depends on how the compiler lays them out,
/// and inlined into different callers (the C entry points, benchmarks)
/// they came out 1.5x to 6x slower in some.
#[inline(never)]
pub(crate) fn encode_valid(src: &[u32], dst: &mut [u8]) -> FastStop {
    let (mut i, mut j) = (0usize, 0usize);
    let stop = |read, written, flagged| FastStop {
        read,
        written,
        flagged,
    };
    let (mut runs, mut mark) = (0, 0);
    while i < src.len() {
        runs += 1;
        if runs == RUNS {
            let mixed = i - mark < SHORT_RUNS;
            (runs, mark) = (0, i);
            if !mixed {
                continue;
            }
            // Text whose length class changes at every character (random
            // mixes of scripts and symbols): the run loops mispredict at
            // every character, the branch-free path does not.
            // Each block is checked before the one before it is written,
            // which may leave excess bytes only if this one overwrites them.
            let room = dst.len();
            let block = |i: usize, j: usize| {
                let units: &[u32; MIXED] = src.get(i..i + MIXED)?.try_into().ok()?;
                let room = room.checked_sub(j)? >= 4 * MIXED;
                (room && all_scalars(units)).then_some(units)
            };
            let mut next = block(i, j);
            for k in 0..MIXED_BLOCKS {
                let Some(units) = next else {
                    break;
                };
                // The most this block can write, so where the next starts
                // at the latest.
                next = if k + 1 < MIXED_BLOCKS {
                    block(i + MIXED, j + 4 * MIXED)
                } else {
                    None
                };
                let out = (&mut dst[j..j + 4 * MIXED])
                    .try_into()
                    .expect("room for a block");
                j += encode_mixed(units, out, next.is_none());
                i += MIXED;
            }
            mark = i;
            continue;
        }
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
                if c < 0x80 {
                    match lone_ascii(src, dst, i, j) {
                        Lone::Written => (i, j) = (i + 1, j + 1),
                        Lone::Leave => break,
                        Lone::Full => return stop(i, j, None),
                    }
                    continue;
                }
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
                if c < 0x80 {
                    match lone_ascii(src, dst, i, j) {
                        Lone::Written => (i, j) = (i + 1, j + 1),
                        Lone::Leave => break,
                        Lone::Full => return stop(i, j, None),
                    }
                    continue;
                }
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
    use crate::reference::encode::encode;
    use crate::reference::sink::{CountSink, SliceSink};
    use crate::samples::Rng;
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

    /// Words of one to five characters of `n` UTF-8 bytes (2 or 3) between
    /// one or two ASCII characters, as in Korean or Arabic text, with `bad`
    /// units replaced by a surrogate, a value above U+10FFFF, or a
    /// character (four bytes, ASCII) that breaks the run.
    fn words(rng: &mut Rng, len: usize, n: usize, bad: usize) -> Vec<u32> {
        let (low, high) = if n == 2 {
            (0x80, 0x800)
        } else {
            (0x800, 0x1_0000)
        };
        let mut v = Vec::new();
        while v.len() < len {
            for _ in 0..=rng.below(5) {
                let c = (low + rng.below(high - low)) as u32;
                v.push(char::from_u32(c).map_or(0xFFFD, u32::from));
            }
            for _ in 0..=rng.below(2) {
                v.push(0x20 + rng.below(0x5F) as u32);
            }
        }
        v.truncate(len);
        for _ in 0..bad.min(len) {
            let at = rng.below(len as u64) as usize;
            v[at] = [0xD800, 0xDFFF, 0x110000, 0x10000, 0x41][rng.below(5) as usize];
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
        for len in 0..40 {
            for n in [2, 3] {
                for bad in [0, 1] {
                    let src = words(&mut rng, len, n, bad);
                    for cap in 0..=3 * len + 1 {
                        check(&src, cap);
                    }
                }
            }
        }
        for _ in 0..300 {
            let (n, bad) = (2 + rng.below(2) as usize, rng.below(2) as usize);
            let src = words(&mut rng, 1000, n, bad);
            check(&src, 3 * src.len());
            check(&src, rng.below(3 * src.len() as u64) as usize);
        }
        for _ in 0..300 {
            let ascii = rng.below(101);
            let bad = rng.below(2) as usize;
            let src = units(&mut rng, 1000, ascii, bad);
            check(&src, 4 * src.len());
            check(&src, rng.below(4 * src.len() as u64) as usize);
        }
    }

    /// [`encoded_len_valid`] against the reference encoder counting in
    /// strict mode: the same bytes counted, and a flag exactly where the
    /// reference stops at an error.
    fn check_len(src: &[u32]) {
        let p = encode(src, &mut CountSink::default(), EncodePolicy::Strict);
        let stop = encoded_len_valid(src);
        let flagged = matches!(p.status, Status::IllFormed(_)).then_some(p.read);
        assert_eq!(
            (stop.read, stop.written, stop.flagged),
            (p.read, p.written, flagged),
            "{src:X?}"
        );
    }

    /// Every value up to U+10FFFF and a few above it, 64 consecutive ones
    /// to a block (each invalid one also in the middle of a block of
    /// valid ones); then random text of every length around the blocks',
    /// with and without invalid units anywhere.
    #[test]
    fn encoded_len_matches_the_reference() {
        let values: Vec<u32> = (0..0x11_0000 + 256)
            .chain([u32::MAX - 1, u32::MAX])
            .collect();
        for block in values.chunks(LEN_BLOCK) {
            check_len(block);
        }
        for bad in [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000, u32::MAX] {
            let mut src = [0x10FFFFu32; 3 * LEN_BLOCK];
            for at in [
                0,
                1,
                LEN_BLOCK - 1,
                LEN_BLOCK,
                2 * LEN_BLOCK + 5,
                3 * LEN_BLOCK - 1,
            ] {
                src[at] = bad;
                check_len(&src);
                src[at] = 0x10FFFF;
            }
        }
        let mut rng = Rng(0x1E17);
        for len in 0..4 * LEN_BLOCK {
            for ascii in [0, 50, 100] {
                for bad in [0, 1, 2] {
                    check_len(&units(&mut rng, len, ascii, bad));
                }
            }
        }
    }
}
