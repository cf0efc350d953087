//! UTF-8 to code points, validating as it goes, for well-formed text only.
//!
//! One character per iteration, branching on its length: on text in one
//! script the branches follow a pattern the predictor learns, and then the
//! loop runs at about two cycles per character. ASCII is widened 64 bytes
//! at a time once a run of it is seen. The second byte's range for its
//! lead (Table 3-7) is checked with one table load, one subtraction and one
//! compare.

use crate::arch::FastStop;

/// For each lead byte of two to four bytes: the low bound of the second
/// byte's range and its width minus one (Table 3-7: E0 needs A0..BF, ED
/// 80..9F, F0 90..BF, F4 80..8F, the others 80..BF); for every other byte a
/// bound that no byte reaches. A table, not a `match`: compilers turn the
/// `match` into a jump table, an indirect branch per character that
/// mispredicts whenever the leads vary (CJK text).
static SECOND_RANGE: [(u16, u8); 256] = {
    let mut t = [(0x100, 0); 256];
    let mut b = 0xC2;
    while b <= 0xF4 {
        t[b] = match b {
            0xE0 => (0xA0, 0x1F),
            0xED => (0x80, 0x1F),
            0xF0 => (0x90, 0x2F),
            0xF4 => (0x80, 0x0F),
            _ => (0x80, 0x3F),
        };
        b += 1;
    }
    t
};

/// The well-formed character at `src[i..]` (non-empty, first byte not
/// ASCII) and its length, or `None` for anything else, a cut sequence
/// included.
#[inline(always)]
fn multi_byte(src: &[u8], i: usize) -> Option<(u32, usize)> {
    let b0 = src[i];
    let tail = |k: usize| {
        src.get(i + k)
            .copied()
            .filter(|&b| (b as i8) < -64)
            .map(u32::from)
    };
    let (low, width) = SECOND_RANGE[usize::from(b0)];
    let b1 = u32::from(*src.get(i + 1)?);
    if b1.wrapping_sub(u32::from(low)) > u32::from(width) {
        return None;
    }
    let b0 = u32::from(b0);
    if b0 < 0xE0 {
        if b0 < 0xC2 {
            return None;
        }
        Some(((b0 & 0x1F) << 6 | b1 & 0x3F, 2))
    } else if b0 < 0xF0 {
        Some(((b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | tail(2)? & 0x3F, 3))
    } else {
        let (b2, b3) = (tail(2)?, tail(3)?);
        let c = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | b3 & 0x3F;
        Some((c, 4))
    }
}

/// Bytes per block of an ASCII run.
const RUN_BLOCK: usize = 64;

/// Whether the block is all ASCII: one OR over its eight words.
#[inline(always)]
fn block_is_ascii(block: &[u8; RUN_BLOCK]) -> bool {
    let word = |k: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&block[8 * k..8 * k + 8]);
        u64::from_ne_bytes(w)
    };
    (0..RUN_BLOCK / 8).fold(0, |acc, k| acc | word(k)) & 0x8080_8080_8080_8080 == 0
}

/// Zero-extends a block of bytes into code points. Out of line on purpose:
/// inlined next to the test above, the compiler reused the test's loads and
/// widened byte by byte; alone it widens with vector unpacks.
#[inline(never)]
fn widen(block: &[u8; RUN_BLOCK], out: &mut [u32; RUN_BLOCK]) {
    for (o, &b) in out.iter_mut().zip(block) {
        *o = u32::from(b);
    }
}

/// Widens the ASCII run at the start of `src` into `dst`, a block at a
/// time, as far as it fits. Returns its length (bytes read, code points
/// written).
#[inline(always)]
fn ascii_run(src: &[u8], dst: &mut [u32]) -> usize {
    let mut i = 0;
    while let (Some(block), Some(out)) = (src.get(i..i + RUN_BLOCK), dst.get_mut(i..i + RUN_BLOCK))
    {
        let block = block.try_into().expect("a block");
        if !block_is_ascii(block) {
            break;
        }
        widen(block, out.try_into().expect("a block"));
        i += RUN_BLOCK;
    }
    // The end of the run: byte by byte.
    let n = src[i..]
        .iter()
        .zip(&dst[i..])
        .take_while(|(b, _)| b.is_ascii())
        .count();
    for (o, &b) in dst[i..i + n].iter_mut().zip(&src[i..]) {
        *o = u32::from(b);
    }
    i + n
}

/// Decodes whole well-formed characters of `src` into `dst` while they fit.
/// Stops at the end, at a full `dst` (`flagged` is `None`), or before the
/// first byte that does not start a whole well-formed character (`flagged`
/// is its offset plus 3, the last byte that can tell what is wrong, or the
/// end of `src`).
/// Not inlined: the loops' speed depends on how the compiler lays them out,
/// and inlined into different callers (the C entry points, benchmarks)
/// they came out 1.5x to 6x slower in some.
#[inline(never)]
pub(crate) fn decode_valid(src: &[u8], dst: &mut [u32]) -> FastStop {
    let (mut i, mut j) = (0usize, 0usize);
    let stop = |read, written, flagged| FastStop {
        read,
        written,
        flagged,
    };
    while i < src.len() {
        if j == dst.len() {
            return stop(i, j, None);
        }
        let b0 = src[i];
        if b0 < 0x80 {
            dst[j] = u32::from(b0);
            i += 1;
            j += 1;
            // A second ASCII byte starts a run worth taking a block at a
            // time (a lone space between words is not).
            if src.get(i).is_some_and(|b| b.is_ascii()) {
                let n = ascii_run(&src[i..], &mut dst[j..]);
                i += n;
                j += n;
            }
            continue;
        }
        let Some((c, len)) = multi_byte(src, i) else {
            // What is wrong (and how long the maximal subpart is) depends on
            // up to four bytes from `i`; the driver's window for a flag
            // runs to the first boundary after the flagged byte.
            return stop(i, j, Some((i + 3).min(src.len())));
        };
        dst[j] = c;
        i += len;
        j += 1;
        // Text in one script repeats one length: runs of it skip the
        // dispatch on the lead, and their checks are one branch.
        if len == 3 {
            while let (Some(s), Some(o)) = (src.get(i..i + 3), dst.get_mut(j)) {
                let (b0, b1, b2) = (u32::from(s[0]), u32::from(s[1]), u32::from(s[2]));
                let (low, width) = SECOND_RANGE[usize::from(s[0])];
                let bad = (b0 & 0xF0 != 0xE0)
                    | (b1.wrapping_sub(u32::from(low)) > u32::from(width))
                    | (b2 & 0xC0 != 0x80);
                if bad {
                    break;
                }
                *o = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | b2 & 0x3F;
                i += 3;
                j += 1;
            }
        } else if len == 4 {
            while let (Some(s), Some(o)) = (src.get(i..i + 4), dst.get_mut(j)) {
                let w = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                let (low, width) = SECOND_RANGE[usize::from(s[0])];
                let b1 = (w >> 8) & 0xFF;
                let bad = (w & 0xC0C0_00F8 != 0x8080_00F0)
                    | (b1.wrapping_sub(u32::from(low)) > u32::from(width));
                if bad {
                    break;
                }
                *o = (w & 0x07) << 18 | (b1 & 0x3F) << 12 | (w >> 10) & 0xFC0 | (w >> 24) & 0x3F;
                i += 4;
                j += 1;
            }
        } else if len == 2 {
            while let (Some(s), Some(o)) = (src.get(i..i + 2), dst.get_mut(j)) {
                let (b0, b1) = (u32::from(s[0]), u32::from(s[1]));
                if (b0.wrapping_sub(0xC2) > 0xDF - 0xC2) | (b1 & 0xC0 != 0x80) {
                    break;
                }
                *o = (b0 & 0x1F) << 6 | b1 & 0x3F;
                i += 2;
                j += 1;
            }
        }
    }
    stop(i, j, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::samples::{text, Rng};
    use crate::scalar::decode::decode;
    use crate::scalar::sink::SliceSink;
    use crate::{Policy, Status};

    /// Every input of up to three bytes, and the four-byte inputs led by
    /// F0..FF with every second byte and the edge values of the others,
    /// against the reference: alone, and after a character of each length
    /// (so that the loops over runs of one length see them too), each with
    /// and without an ASCII byte after it (those loops read a whole word).
    /// Under an emulator the last byte takes the values of
    /// `samples::inner_bytes`.
    #[test]
    fn every_short_input() {
        for prefix in ["", "\u{E9}", "\u{20AC}", "\u{1F600}"] {
            let check = |tail: &[u8]| {
                for after in [&b""[..], b"A"] {
                    let mut src = [0u8; 9];
                    let n = prefix.len() + tail.len();
                    src[..prefix.len()].copy_from_slice(prefix.as_bytes());
                    src[prefix.len()..n].copy_from_slice(tail);
                    src[n..n + after.len()].copy_from_slice(after);
                    let src = &src[..n + after.len()];
                    let mut want = [0u32; 9];
                    let p = decode(src, &mut SliceSink::new(&mut want), Policy::Strict, false);
                    let mut got = [0u32; 9];
                    let stop = decode_valid(src, &mut got);
                    assert_eq!(
                        (stop.read, stop.written, got),
                        (p.read, p.written, want),
                        "{src:02X?}"
                    );
                }
            };
            let inner = crate::portable::samples::inner_bytes();
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    for &c in &inner {
                        check(&[a, b, c]);
                    }
                    check(&[a, b]);
                }
                check(&[a]);
            }
            let edges = [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF];
            for a in 0xF0..=0xFFu8 {
                for b in 0..=255u8 {
                    for c in edges {
                        for d in edges {
                            check(&[a, b, c, d]);
                        }
                    }
                }
            }
        }
    }

    /// The same characters, and the same stopping point, as the reference
    /// decoder in strict mode: at every output capacity for short inputs,
    /// and on long inputs of every mix of ASCII, with and without damage.
    #[test]
    fn matches_the_reference() {
        let mut rng = Rng(0x5EED);
        let check = |src: &[u8], cap: usize| {
            let mut want = vec![0xAAAA_AAAA; cap];
            let p = decode(src, &mut SliceSink::new(&mut want), Policy::Strict, false);
            let mut got = vec![0xAAAA_AAAA; cap];
            let stop = decode_valid(src, &mut got);
            assert_eq!(
                (stop.read, stop.written),
                (p.read, p.written),
                "{src:02X?} cap {cap}"
            );
            assert_eq!(got, want, "{src:02X?} cap {cap}");
            // A flag means the reference stops at an error there; no flag
            // short of the end means the output is full (the reference may
            // still see an error first: it needs no room to report one).
            let ill_formed = matches!(p.status, Status::IllFormed(_));
            match stop.flagged {
                Some(e) => {
                    assert!(ill_formed, "{src:02X?} cap {cap}");
                    assert_eq!(e, (stop.read + 3).min(src.len()), "{src:02X?} cap {cap}");
                }
                None if stop.read < src.len() => {
                    assert_eq!(stop.written, cap, "{src:02X?} cap {cap}")
                }
                None => assert_eq!(p.status, Status::Done, "{src:02X?} cap {cap}"),
            }
        };
        for len in 0..80 {
            for ascii in [0, 50, 90, 100] {
                for damage in [0, 1, 3] {
                    let src = text(&mut rng, len, ascii, damage);
                    for cap in 0..=src.len() + 1 {
                        check(&src, cap);
                    }
                }
            }
        }
        for _ in 0..300 {
            let ascii = rng.below(101);
            let damage = rng.below(3) as usize;
            let src = text(&mut rng, 2000, ascii, damage);
            check(&src, src.len());
            check(&src, rng.below(src.len() as u64) as usize);
        }
    }
}
