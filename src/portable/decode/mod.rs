//! UTF-8 to code points or UTF-16 units, validating as it goes, for
//! well-formed text only.
//!
//! One character per iteration, branching on its length: on text in one
//! script the branches follow a pattern the predictor learns, and then the
//! loop runs at about two cycles per character. ASCII is widened 64 bytes
//! at a time once a run of it is seen, and the end of the run (found a word
//! at a time) by two overlapping copies. A lone ASCII byte between two-byte
//! characters stays in their loop, and in spaced words (Korean) one or two
//! between three-byte ones. The second byte's range for its lead (Table
//! 3-7) is checked with one table load, one subtraction and one compare.
//! The three-byte loops instead look each byte up in a table of what it
//! sets in the code point, and test the result's top bits in a 64-bit
//! mask ([`three`]); they take two characters a step except in spaced
//! words, whose loop goes a chunk at a time ([`spaced_chunks`]).
//!
//! The first 64 bytes of an input of 256 or more choose between these
//! loops and two others: [`mixed`] where the length changes at almost
//! every character, [`alphabets`] for one- and two-byte text.

use super::form::{Form, RUN_BLOCK};
use super::{alphabets, mixed};
use crate::contract::FastStop;

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

/// The code point of `b0 b1 b2` if they are a well-formed three-byte
/// character. Each byte's entry in [`THREE_PLACES`] is its share of the
/// code point, or [`POISON`] if it is out of place (a lead not E0..EF, a
/// tail not a continuation byte); their OR is below 2^17. Its bits from 11
/// up pick one bit of [`THREE_OK`], which is clear for a poisoned OR, the
/// overlongs (E0 80..9F) and the surrogates (ED A0..BF): three loads and
/// one test, where computing the sum and testing its ranges and the tags
/// took twice the instructions (Korean and CJK decoding 25-40% slower).
#[inline(always)]
fn three(b0: u8, b1: u8, b2: u8) -> Option<u32> {
    let [lead, mid, last] = &THREE_PLACES;
    let c = lead[usize::from(b0)] | mid[usize::from(b1)] | last[usize::from(b2)];
    // `c >> 11` is below 64, the shift's width: nothing wraps.
    if THREE_OK.wrapping_shr(c >> 11) & 1 == 0 {
        return None;
    }
    Some(c)
}

/// What a byte sets in a three-byte character's code point, by place:
/// a lead E0..EF its low bits shifted 12, a continuation byte its low bits
/// shifted 6 or not; any other byte [`POISON`]. One array, so that one
/// register holds the three tables' address.
static THREE_PLACES: [[u32; 256]; 3] = [
    place_table(0xE0, 0xF0, 0x0F, 12),
    place_table(0x80, 0xC0, 0x3F, 6),
    place_table(0x80, 0xC0, 0x3F, 0),
];

/// Set for a byte out of place: bit 16, above any code point's bits here.
const POISON: u32 = 0x1_0000;

/// The table of one place: `bits` of each byte from `from` to `to`
/// (excluded) shifted by `shift`, [`POISON`] for the others.
const fn place_table(from: usize, to: usize, bits: u32, shift: u32) -> [u32; 256] {
    let mut t = [POISON; 256];
    let mut b = from;
    while b < to {
        t[b] = (b as u32 & bits) << shift;
        b += 1;
    }
    t
}

/// Bit `k` says whether code points `k << 11` to `(k << 11) + 0x7FF` are
/// three-byte characters: all below U+10000 (bits 0..32) but the overlongs
/// (0) and the surrogates (0x1B); none from [`POISON`] up (bits 32..64).
const THREE_OK: u64 = 0xFFFF_FFFF & !(1 | 1 << 0x1B);

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

/// How many bytes at the start of the block are ASCII.
#[inline(always)]
fn ascii_prefix(block: &[u8; RUN_BLOCK]) -> usize {
    for (k, word) in block.chunks_exact(8).enumerate() {
        let high = u64::from_le_bytes(word.try_into().expect("8 bytes")) & 0x8080_8080_8080_8080;
        if high != 0 {
            return 8 * k + high.trailing_zeros() as usize / 8;
        }
    }
    RUN_BLOCK
}

/// Widens the ASCII run at the start of `src` into `dst`, a block at a
/// time, as far as it fits. Returns its length (bytes read, units
/// written).
#[inline(always)]
fn ascii_run<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> usize {
    let mut i = 0;
    while let (Some(block), Some(out)) = (src.get(i..i + RUN_BLOCK), dst.get_mut(i..i + RUN_BLOCK))
    {
        let block = block.try_into().expect("a block");
        if !block_is_ascii(block) {
            break;
        }
        F::widen(block, out.try_into().expect("a block"));
        i += RUN_BLOCK;
    }
    i + ascii_tail::<F>(&src[i..], &mut dst[i..])
}

/// The end of an ASCII run (at the start of `src`), shorter than a block:
/// where a block still fits, its length is found a word at a time and,
/// from eight bytes on, it is widened by two overlapping copies of 8, 16
/// or 32 bytes; otherwise byte by byte. Returns its length. (Widening the
/// whole block would leave units written past the run when an error or
/// the end comes next.)
/// Not inlined: inlined, the compiler kept the block loop's words on the
/// stack for it, which slowed the loop over all-ASCII text by a fifth.
#[inline(never)]
fn ascii_tail<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> usize {
    if let (Some(block), Some(out)) = (
        src.first_chunk::<RUN_BLOCK>(),
        dst.first_chunk_mut::<RUN_BLOCK>(),
    ) {
        let n = ascii_prefix(block);
        if n >= 32 {
            widen_ends::<F, 32>(&block[..n], &mut out[..n]);
        } else if n >= 16 {
            widen_ends::<F, 16>(&block[..n], &mut out[..n]);
        } else if n >= 8 {
            widen_ends::<F, 8>(&block[..n], &mut out[..n]);
        }
        if n >= 8 {
            return n;
        }
    }
    let n = src
        .iter()
        .zip(&*dst)
        .take_while(|(b, _)| b.is_ascii())
        .count();
    for (o, &b) in dst[..n].iter_mut().zip(src) {
        *o = F::bmp(u32::from(b));
    }
    n
}

/// Widens the first `N` and the last `N` bytes of `src` (ASCII, `N` to
/// `2N` of them) into `dst`, of the same length.
#[inline(always)]
fn widen_ends<F: Form, const N: usize>(src: &[u8], dst: &mut [F::Unit]) {
    let n = src.len();
    if let (Some(s), Some(d)) = (src.first_chunk::<N>(), dst.first_chunk_mut::<N>()) {
        F::widen(s, d);
    }
    if let (Some(s), Some(d)) = (src.last_chunk::<N>(), dst.last_chunk_mut::<N>()) {
        F::widen(s, d);
    }
    debug_assert!((N..=2 * N).contains(&n));
}

/// Decodes whole well-formed characters of `src` into `dst` (code points or
/// UTF-16 units, as `F` says) while they fit.
/// Stops at the end, at a full `dst` (`flagged` is `None`), or before the
/// first byte that does not start a whole well-formed character (`flagged`
/// is its offset plus 3, the last byte that can tell what is wrong, or the
/// end of `src`).
/// Text whose character lengths change at almost every character (as
/// [`mixed::looks_mixed`] finds in its first bytes) goes through
/// [`mixed::run`] instead, for as long as it stays that way; text of one-
/// and two-byte characters in an alphabet (as [`alphabets::looks_alphabetic`]
/// finds) through [`alphabets::run`].
pub(crate) fn decode_valid<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> FastStop {
    if src.len() >= SAMPLED_MIN {
        // Alphabetic first: words of one or two letters change length at
        // most characters and look mixed too, but the steps of
        // `alphabets` take them several times faster than `mixed`'s
        // one character at a time.
        if alphabets::looks_alphabetic(src) {
            return decode_alphabets::<F>(src, dst);
        }
        if mixed::looks_mixed(src) {
            return decode_mixed::<F>(src, dst);
        }
        if spaced_words(src) {
            return decode_runs::<F, false>(src, dst);
        }
    }
    decode_runs::<F, true>(src, dst)
}

/// [`decode_runs`] from `src[i..]` into `dst[j..]`, its offsets counted
/// from the start.
fn runs_from<F: Form>(src: &[u8], dst: &mut [F::Unit], i: usize, j: usize) -> FastStop {
    after(decode_runs::<F, true>(&src[i..], &mut dst[j..]), i, j)
}

/// `stop`, of a call on `src[i..]` and `dst[j..]`, with its offsets counted
/// from the start.
fn after(stop: FastStop, i: usize, j: usize) -> FastStop {
    FastStop {
        read: i + stop.read,
        written: j + stop.written,
        flagged: stop.flagged.map(|e| i + e),
    }
}

/// [`decode_valid`] by [`mixed::run`] while the text stays mixed.
fn decode_mixed<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> FastStop {
    let (mut i, mut j) = (0, 0);
    loop {
        let (read, written, changes) = mixed::run::<F>(&src[i..], &mut dst[j..]);
        i += read;
        j += written;
        // An error, the last few bytes or units, or runs again: the
        // loops per length from here.
        if read == 0 || changes < mixed::BLOCK / 2 {
            return runs_from::<F>(src, dst, i, j);
        }
    }
}

/// [`decode_valid`] by [`alphabets::run`]; the loops per length take each
/// window it cannot (a longer character, an error, the end), and the next
/// [`ASCII_STRETCH`] bytes when it finds ASCII alone for a while. Text that
/// stops being alphabetic (twice in a row fewer than four windows between
/// such stops) goes to the loops per length for good.
fn decode_alphabets<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> FastStop {
    let (mut i, mut j, mut strikes) = (0, 0, 0);
    loop {
        let (read, written, ascii) = alphabets::run::<F>(&src[i..], &mut dst[j..]);
        i += read;
        j += written;
        strikes = match (ascii, read < 4 * alphabets::WINDOW) {
            (false, true) => strikes + 1,
            _ => 0,
        };
        if strikes == 2 {
            return runs_from::<F>(src, dst, i, j);
        }
        // Every character that starts in the next window ends within its
        // bytes and the three after them.
        let stretch = if ascii {
            ASCII_STRETCH
        } else {
            alphabets::WINDOW + 3
        };
        let end = (i + stretch).min(src.len());
        let stop = decode_runs::<F, true>(&src[i..end], &mut dst[j..]);
        // A flag within three bytes of a slice's end that is not the
        // input's may be the slice cutting a character.
        let at_end = end == src.len();
        let cut = stop.flagged.is_some() && stop.read + 3 >= end - i;
        let full = stop.flagged.is_none() && i + stop.read < end;
        if at_end || full || (stop.flagged.is_some() && !cut) {
            return after(stop, i, j);
        }
        i += stop.read;
        j += stop.written;
    }
}

/// Bytes the loops per length take when the windows find ASCII alone for
/// a while, before the windows try again: enough that a long ASCII
/// stretch runs at their speed, little enough that text with accented
/// letters now and then (a window in five all ASCII) loses little.
const ASCII_STRETCH: usize = 1024;

/// Whether the first [`SAMPLE`] bytes of `src` look like words of
/// three-byte characters with spaces between (Korean): an ASCII byte in
/// sixteen or more and a three-byte lead in eight or more. The three-byte
/// loop takes them one character a step.
fn spaced_words(src: &[u8]) -> bool {
    let sample = &src[..SAMPLE.min(src.len())];
    let ascii = sample.iter().filter(|b| b.is_ascii()).count();
    let three = sample.iter().filter(|&&b| b & 0xF0 == 0xE0).count();
    16 * ascii >= SAMPLE && 8 * three >= SAMPLE
}

/// Bytes [`spaced_words`] samples.
const SAMPLE: usize = 64;

/// Inputs shorter than this always take the loops per length: sampling
/// them would cost more than it could save.
const SAMPLED_MIN: usize = 256;

/// Bytes a step of [`spaced_chunks`] starts within.
const CHUNK: usize = 64;

/// The spaced-words loop of [`decode_runs`] over chunks: while `CHUNK + 2`
/// bytes and `CHUNK` units are left, one character a step, with one bound
/// test a step instead of three. Each step starts below `CHUNK` and writes
/// one unit, so its unit index is below `CHUNK` too; masking it says so to
/// the compiler. A step is a three-byte character, or an ASCII byte with a
/// non-ASCII one in the next two (a space, or punctuation and a space,
/// between words; a longer ASCII run is left to the block loop).
/// The step branches on the lead alone, whose load resolves the branch
/// early: branching on [`three`]'s answer, which waits for its table
/// loads, made each mispredicted word end cost more (words of random
/// lengths decoded 30% slower). Not inlined: alone, the loop keeps the
/// tables' address and the mask in registers.
/// Returns bytes read and units written, up to the first step it cannot
/// take.
#[inline(never)]
fn spaced_chunks<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> (usize, usize) {
    let (mut i, mut j) = (0, 0);
    while let (Some(s), Some(o)) = (
        src[i..].first_chunk::<{ CHUNK + 2 }>(),
        dst[j..].first_chunk_mut::<CHUNK>(),
    ) {
        let (mut p, mut q) = (0, 0);
        while p < CHUNK {
            let (b0, b1, b2) = (s[p], s[p + 1], s[p + 2]);
            if b0 >= 0x80 {
                let Some(c) = three(b0, b1, b2) else {
                    return (i + p, j + q);
                };
                o[q % CHUNK] = F::bmp(c);
                p += 3;
            } else if (b1 | b2) >= 0x80 {
                o[q % CHUNK] = F::bmp(u32::from(b0));
                p += 1;
            } else {
                return (i + p, j + q);
            }
            q += 1;
        }
        i += p;
        j += q;
    }
    (i, j)
}

/// [`decode_valid`] with a loop per character length. With `PAIRS`, the
/// three-byte loop takes two characters a step; without (spaced words,
/// as [`spaced_words`] finds them), one, and keeps a lone ASCII byte.
/// Not inlined: the loops' speed depends on how the compiler lays them out,
/// and inlined into different callers (the C entry points, benchmarks)
/// they came out 1.5x to 6x slower in some.
#[inline(never)]
fn decode_runs<F: Form, const PAIRS: bool>(src: &[u8], dst: &mut [F::Unit]) -> FastStop {
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
            dst[j] = F::bmp(u32::from(b0));
            i += 1;
            j += 1;
            // A second ASCII byte starts a run worth taking a block at a
            // time (a lone space between words is not).
            if src.get(i).is_some_and(|b| b.is_ascii()) {
                let n = ascii_run::<F>(&src[i..], &mut dst[j..]);
                i += n;
                j += n;
            }
            continue;
        }
        let Some((c, len)) = multi_byte(src, i) else {
            // What is wrong (and how long the maximal subpart is) depends on
            // up to four bytes from `i`; the engine's window for a flag
            // runs to the first boundary after the flagged byte.
            return stop(i, j, Some((i + 3).min(src.len())));
        };
        if len < 4 {
            dst[j] = F::bmp(c);
            j += 1;
        } else {
            let Some(n) = F::supplementary(&mut dst[j..], c) else {
                return stop(i, j, None);
            };
            j += n;
        }
        i += len;
        // Text in one script repeats one length: runs of it skip the
        // dispatch on the lead, and their checks are one branch.
        if len == 3 && PAIRS {
            // Two characters a step: CJK and Indic text 5-15% faster. Not
            // for words with a space between (Korean), below.
            while let (Some(s), Some(o)) = (src.get(i..i + 6), dst.get_mut(j..j + 2)) {
                let (Some(c0), Some(c1)) = (three(s[0], s[1], s[2]), three(s[3], s[4], s[5]))
                else {
                    break;
                };
                o[0] = F::bmp(c0);
                o[1] = F::bmp(c1);
                i += 6;
                j += 2;
            }
            while let (Some(s), Some(o)) = (src.get(i..i + 3), dst.get_mut(j)) {
                let Some(c) = three(s[0], s[1], s[2]) else {
                    break;
                };
                *o = F::bmp(c);
                i += 3;
                j += 1;
            }
        } else if len == 3 {
            // Spaced words: a chunk at a time while one fits, then one
            // character a step, and a lone ASCII byte between words stays
            // in the loop (in CJK text, that test cost 5-7%).
            let (read, written) = spaced_chunks::<F>(&src[i..], &mut dst[j..]);
            i += read;
            j += written;
            while let (Some(s), Some(o)) = (src.get(i..i + 3), dst.get_mut(j)) {
                if let Some(c) = three(s[0], s[1], s[2]) {
                    *o = F::bmp(c);
                    i += 3;
                } else if (s[0] < 0x80) & (s[1] >= 0x80) {
                    *o = F::bmp(u32::from(s[0]));
                    i += 1;
                } else {
                    break;
                }
                j += 1;
            }
        } else if len == 4 {
            // Two characters a step while both are well formed and fit:
            // one 8-byte load, one test of the eight bytes' tag bits, both
            // code points computed at once (one in each 32-bit half), and
            // their range (U+10000..U+10FFFF) tested instead of each
            // second byte, which rules out the same F0 and F4 sequences,
            // and F5..F7. The loop below takes what is left. (The same for
            // three-byte characters, six bytes of eight, ran CJK no faster
            // and Hindi and Korean 10% slower on Zen 5; their pairs are
            // read a byte at a time.)
            while let Some(s) = src.get(i..i + 8) {
                let w = u64::from_le_bytes(s.try_into().expect("8 bytes"));
                let c = (w & 0x0000_0007_0000_0007) << 18
                    | (w & 0x0000_3F00_0000_3F00) << 4
                    | (w >> 10) & 0x0000_0FC0_0000_0FC0
                    | (w >> 24) & 0x0000_003F_0000_003F;
                // Each code point's bits from 16 up (at most 0x1F here)
                // are 1..=16 when adding 15 sets bit 4 but not bit 5.
                let planes = (c >> 16) & 0x0000_001F_0000_001F;
                let bad = (w & 0xC0C0_C0F8_C0C0_C0F8 != 0x8080_80F0_8080_80F0)
                    | ((planes + 0x0000_000F_0000_000F) & 0x0000_0030_0000_0030
                        != 0x0000_0010_0000_0010);
                if bad {
                    break;
                }
                let Some(n) = F::two_supplementary(&mut dst[j..], c as u32, (c >> 32) as u32)
                else {
                    break;
                };
                i += 8;
                j += n;
            }
            while let Some(s) = src.get(i..i + 4) {
                let w = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                let (low, width) = SECOND_RANGE[usize::from(s[0])];
                let b1 = (w >> 8) & 0xFF;
                let bad = (w & 0xC0C0_00F8 != 0x8080_00F0)
                    | (b1.wrapping_sub(u32::from(low)) > u32::from(width));
                if bad {
                    break;
                }
                let c = (w & 0x07) << 18 | (b1 & 0x3F) << 12 | (w >> 10) & 0xFC0 | (w >> 24) & 0x3F;
                let Some(n) = F::supplementary(&mut dst[j..], c) else {
                    break;
                };
                i += 4;
                j += n;
            }
        } else if len == 2 {
            while let (Some(s), Some(o)) = (src.get(i..i + 2), dst.get_mut(j)) {
                let (b0, b1) = (u32::from(s[0]), u32::from(s[1]));
                if (b0.wrapping_sub(0xC2) > 0xDF - 0xC2) | (b1 & 0xC0 != 0x80) {
                    // A lone ASCII byte between words stays in the loop.
                    if (b0 < 0x80) & (b1 >= 0x80) {
                        *o = F::bmp(b0);
                        i += 1;
                        j += 1;
                        continue;
                    }
                    break;
                }
                *o = F::bmp((b0 & 0x1F) << 6 | b1 & 0x3F);
                i += 2;
                j += 1;
            }
        }
    }
    stop(i, j, None)
}

#[cfg(test)]
mod tests;
