//! UTF-8 to code points or UTF-16 units in fixed steps of 32 or 16 bytes,
//! for text of one- and two-byte characters: the alphabets UTF-8 writes in
//! two bytes (Greek, Cyrillic, Armenian, Hebrew, Arabic) with ASCII spaces
//! and punctuation between their words, and Latin text with many accented
//! letters.
//!
//! The loops per length in [`super::decode`] branch on each character's
//! length, which mispredicts about once a word in such text (about four
//! cycles a character on Zen 5). Here nothing branches on a character:
//! each step starts at a character boundary and holds the characters
//! whose leads are among its bytes (a two-byte character led by its last
//! byte ends one byte past it). Blocks of [`BLOCK`] bytes run while they
//! pass; from the first that does not, windows of [`WINDOW`] bytes bring
//! the stop to within a window of what stopped them.
//!
//! For each step:
//! - every byte is checked against the byte after it (ASCII or a lead
//!   C2..DF, and a continuation byte exactly after each lead), and each
//!   position gets the value of the character it leads (garbage at
//!   continuation bytes), in two loops the compiler turns into vector
//!   code: one on the bytes (masks of 00 or FF, the value's high and low
//!   bits), one widening those bits to 16-bit values;
//! - each half of eight bytes gets a mask of where its characters start
//!   (the bytes that do not continue, their top bits gathered by one
//!   multiplication);
//! - [`STARTS`] lists, for each mask, the positions of its characters,
//!   and each half writes [`USUAL`] units from those positions whatever
//!   its count (4 to 8), and three more only when it holds more: a half's
//!   extra units are overwritten by the next half's, and the last half's
//!   by the next step's. The next step is
//!   checked before this one's last half is written, so that the last step
//!   of a run writes its last half exactly.
//!
//! Writing the units is about half of the time: three to five
//! instructions a unit, five units a half in the alphabets, whatever the
//! count. Blocks of 32 bytes share the rest (the next step's bounds, the
//! ASCII count) between four halves rather than two. On Sapphire Rapids,
//! Arabic decodes at 2.9 GB/s (2.6 with eight units a half always, 2.3 in
//! windows of 16 alone, 2.0 in the loops per length). Mostly ASCII text
//! stays with the loops per length, which widen ASCII a block at a time,
//! and [`ASCII_WINDOWS`] windows' worth of all-ASCII steps in a row hand a
//! stretch back to them.

#![forbid(unsafe_code)]

use super::form::Form;

/// Bytes a window holds.
pub(crate) const WINDOW: usize = 16;

/// All-ASCII windows in a row (or blocks making as many bytes) after
/// which [`run`] hands over to the loops per length: 64 bytes, which text
/// with a two-byte character in ten holds about once in 800 windows.
const ASCII_WINDOWS: usize = 4;

/// Bytes [`looks_alphabetic`] samples.
const SAMPLE: usize = 64;

/// Whether the first [`SAMPLE`] bytes of `src` hold no byte above DF
/// (nothing longer than two bytes) and at least one two-byte character in
/// sixteen characters. Below that, text is mostly ASCII, whose runs the
/// loops per length widen a block at a time, faster than windows. If they
/// are ASCII alone (a markup or a header before the text), the same is
/// asked of the [`SAMPLE`] bytes in the middle of `src`.
pub(crate) fn looks_alphabetic(src: &[u8]) -> bool {
    let (leads, starts, longer) = census(&src[..SAMPLE.min(src.len())]);
    let (leads, starts, longer) = match (leads, longer) {
        (0, false) => {
            let middle = &src[src.len() / 2..];
            census(&middle[..SAMPLE.min(middle.len())])
        }
        _ => (leads, starts, longer),
    };
    !longer && 16 * leads >= starts && leads > 0
}

/// The leads, the characters' starts, and whether any byte is above DF.
fn census(sample: &[u8]) -> (u32, u32, bool) {
    let (mut starts, mut leads, mut longer) = (0u32, 0u32, 0u32);
    for &b in sample {
        starts += u32::from(b & 0xC0 != 0x80);
        leads += u32::from(b >= 0xC0);
        longer |= u32::from(b >= 0xE0);
    }
    (leads, starts, longer != 0)
}

/// For each set of positions in eight bytes at which characters start
/// (bit `k` for byte `k`): those positions in order, the rest of the eight
/// entries filled with the last of them; then how many there are.
static STARTS: [([u8; 8], u8); 256] = {
    let mut t = [([0u8; 8], 0u8); 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut n, mut k) = (0, 0);
        while k < 8 {
            if mask & 1 << k != 0 {
                t[mask].0[n] = k as u8;
                n += 1;
            }
            k += 1;
        }
        t[mask].1 = n as u8;
        while n > 0 && n < 8 {
            t[mask].0[n] = t[mask].0[n - 1];
            n += 1;
        }
        mask += 1;
    }
    t
};

/// The top bits of the eight bytes of `x` (the others clear) as an 8-bit
/// mask, bit `k` for byte `k` of the little-endian word: each product term
/// lands on its own bit from 56 up, and no two terms carry into each
/// other.
#[inline(always)]
fn top_bits(x: u64) -> u8 {
    (x.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u8
}

/// The [`STARTS`] entry of eight checked bytes: a character starts at
/// each byte that does not continue (10xxxxxx), whose bit 7 is set in
/// `!(x & !(x << 1))`.
#[inline(always)]
fn starts(eight: &[u8]) -> &'static ([u8; 8], u8) {
    let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
    &STARTS[usize::from(top_bits(!(x & !(x << 1)) & 0x8080_8080_8080_8080))]
}

/// Each position's value, at its position in a step (garbage at
/// continuation bytes). [`BLOCK`] - 8 + 256 entries so that a position read
/// from a `u8`, plus 8 for each half before it, needs no bounds check.
type Values = [u16; BLOCK - 8 + 256];

/// Checks the `N` bytes of `s` and the byte after them (`next` is
/// `s[1..=N]`), and writes their values into the first `N` of `values`:
/// whether every character starting in them is a well-formed one- or
/// two-byte character.
#[inline(always)]
fn check<const N: usize>(s: &[u8; N], next: &[u8; N], values: &mut [u16; N]) -> bool {
    // Byte lanes first, as masks of 00 or FF, and 16-bit lanes only to
    // widen: one loop doing both ran the checks eight bytes at a time (the
    // values' width), and bools or a mask gathered bit by bit made the
    // compiler take the lanes apart. The checks and values took about 75
    // instructions a window that way, about 45 this way.
    let mask = |c: bool| 0u8.wrapping_sub(u8::from(c));
    let (mut bad, mut high, mut low) = ([0u8; N], [0u8; N], [0u8; N]);
    for k in 0..N {
        let (b, n) = (s[k], next[k]);
        let lead = mask(b >= 0xC0);
        let valid = b.wrapping_sub(0xC2) <= 0xDF - 0xC2;
        let continues = n & 0xC0 == 0x80;
        // A lead C2..DF exactly before each byte that continues; no other
        // lead (C0, C1, E0..FF). The first byte is checked below.
        bad[k] = mask(valid != continues) | lead ^ mask(valid);
        high[k] = b & 0x1F & lead;
        low[k] = n & 0x3F & lead | b & !lead;
    }
    for k in 0..N {
        values[k] = u16::from(high[k]) << 6 | u16::from(low[k]);
    }
    bad.iter().fold(0, |a, &x| a | x) == 0 && s[0] & 0xC0 != 0x80
}

/// The `N` bytes at `src[i..]`, if the byte after them is there too and
/// they pass [`check`] (their values then in `values`).
#[inline(always)]
fn checked<'s, const N: usize>(
    src: &'s [u8],
    i: usize,
    values: &mut Values,
) -> Option<&'s [u8; N]> {
    let s = src.get(i..i + N + 1)?;
    let (here, next) = (s[..N].try_into().expect("N"), s[1..].try_into().expect("N"));
    let values = (&mut values[..N]).try_into().expect("N");
    check::<N>(here, next, values).then_some(here)
}

/// Units a half writes before asking whether it holds more. In Arabic,
/// Hebrew and Russian lipsum, 54-59% of halves hold four characters,
/// 39-44% five, 2% six and none more, so the question is nearly always
/// answered "no" and three units a half are not written (Arabic 2.6 -> 2.9
/// GB/s). Text with many ASCII letters (Latin with accents) mostly hears
/// "yes", and where it is a toss-up (random Latin-1 letters among ASCII,
/// 10% to 70% of them) it measured within 5% of eight units always.
const USUAL: usize = 5;

/// Writes the characters of the half `h` of a step (`starts` of its eight
/// bytes) at the start of `out`: exactly if `exact`, else as [`USUAL`]
/// units, or eight if it holds more, whatever their count (the rest
/// garbage).
#[inline(always)]
fn write_half<F: Form>(
    starts: &([u8; 8], u8),
    h: usize,
    values: &Values,
    out: &mut [F::Unit; 8],
    exact: bool,
) {
    let (positions, count) = starts;
    // Two loops, not one to a count of 8 or fewer: that one compared the
    // count at every unit. `out` is an array, not a slice, for the same
    // reason (a slice's length was compared at every unit: 7% slower).
    // The positions are read as one word, not byte by byte: one load
    // instead of eight (the writing alone 12% faster).
    if exact {
        for (o, &p) in out.iter_mut().zip(&positions[..usize::from(*count).min(8)]) {
            *o = F::bmp(u32::from(values[8 * h + usize::from(p)]));
        }
    } else {
        let word = u64::from_le_bytes(*positions);
        let unit = |k: usize| {
            F::bmp(u32::from(
                values[8 * h + usize::from((word >> (8 * k)) as u8)],
            ))
        };
        for (k, o) in out[..USUAL].iter_mut().enumerate() {
            *o = unit(k);
        }
        if usize::from(*count) > USUAL {
            for (k, o) in out.iter_mut().enumerate().skip(USUAL) {
                *o = unit(k);
            }
        }
    }
}

/// Decodes well-formed one- and two-byte characters `N` bytes a step (a
/// multiple of 8 from 16 to [`BLOCK`]). Stops at the first step that holds
/// anything else (a longer character, an ill-formed sequence), within
/// `N + 1` bytes of the end of `src` or `N` units of the end of `dst`, or
/// after [`ASCII_WINDOWS`] windows' worth of steps in a row of ASCII
/// alone (then the last value returned is `true`). Returns bytes read and
/// units written.
///
/// Each half of eight bytes is written as [`USUAL`] or eight units
/// whatever its count, the units past its characters being overwritten by
/// the next half; so
/// the next step is checked before this one's last half is written, and
/// the last step writes its last half exactly, leaving every unit past
/// what is reported written as it was.
fn steps<F: Form, const N: usize>(src: &[u8], dst: &mut [F::Unit]) -> (usize, usize, bool) {
    const { assert!(N.is_multiple_of(8) && N >= 16 && N <= BLOCK) };
    let ascii_limit = ASCII_WINDOWS * WINDOW / N;
    // Two sets of values: the step being written, the one after it.
    let (mut here, mut after): (Values, Values) = ([0; BLOCK - 8 + 256], [0; BLOCK - 8 + 256]);
    let (mut values, mut next_values) = (&mut here, &mut after);
    let (mut i, mut j, room, mut ascii_steps) = (0, 0, dst.len(), 0);
    let Some(mut s) = checked::<N>(src, 0, values) else {
        return (0, 0, false);
    };
    while let Some(out) = dst.get_mut(j..j + N) {
        let out: &mut [F::Unit; N] = out.try_into().expect("a step");
        // The last byte leads if the one after it continues.
        let read = N + usize::from(src[i + N] & 0xC0 == 0x80);
        // A half holds at most 8 characters, so half `h` starts at most
        // `8 * h` units in: the `min`s never bind, and spare the bounds
        // checks.
        let mut written = 0;
        for h in 0..N / 8 - 1 {
            let starts = starts(&s[8 * h..][..8]);
            let out = (&mut out[written.min(N - 16)..][..8]).try_into();
            write_half::<F>(starts, h, values, out.expect("8 units"), false);
            written += usize::from(starts.1);
        }
        let last = N / 8 - 1;
        let last_starts = starts(&s[8 * last..]);
        // The next step, if there is room for it.
        let next = match room - j >= written + usize::from(last_starts.1) + N {
            true => checked::<N>(src, i + read, next_values),
            false => None,
        };
        let out = (&mut out[written.min(N - 8)..][..8]).try_into();
        write_half::<F>(
            last_starts,
            last,
            values,
            out.expect("8 units"),
            next.is_none(),
        );
        written += usize::from(last_starts.1);
        // Steps all ASCII (no byte continues, the last does not lead):
        // after a few in a row the text may have left the alphabet for
        // ASCII, which the loops per length widen several times faster.
        let ascii = written == N && read == N;
        ascii_steps = if ascii { ascii_steps + 1 } else { 0 };
        i += read;
        j += written;
        match next {
            Some(n) if ascii_steps < ascii_limit => s = n,
            _ => break,
        }
        core::mem::swap(&mut values, &mut next_values);
    }
    (i, j, ascii_steps == ascii_limit)
}

/// Bytes a block holds: the steps [`run`] takes while they pass. On
/// Sapphire Rapids, with eight units a half always, blocks of 32 bytes
/// decoded Arabic at 2.6 GB/s, where windows of 16 (their bookkeeping
/// twice as often) reached 2.3 and blocks of 64 2.45 (Russian 2.25-2.45).
pub(crate) const BLOCK: usize = 2 * WINDOW;

/// Decodes well-formed one- and two-byte characters a block of [`BLOCK`]
/// bytes at a time, then a window of [`WINDOW`] at a time from the first
/// block that does not pass, so that the stop falls within a window of
/// what stops it. Stops at the first window that holds anything else (a
/// longer character, an ill-formed sequence), within 17 bytes of the end
/// of `src` or 16 units of the end of `dst`, or after [`ASCII_WINDOWS`]
/// windows' worth of ASCII alone (then the last value returned is
/// `true`). Returns bytes read and units written, leaving every unit past
/// them as it was.
pub(crate) fn run<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> (usize, usize, bool) {
    let (i, j, ascii) = steps::<F, BLOCK>(src, dst);
    if ascii {
        return (i, j, true);
    }
    let (read, written, ascii) = steps::<F, WINDOW>(&src[i..], &mut dst[j..]);
    (i + read, j + written, ascii)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::form::{Reference, Ucs4, Utf16};
    use crate::Status;

    #[test]
    fn top_bits_gathers_each_byte_in_place() {
        for mask in 0..=255u8 {
            let x = (0..8)
                .filter(|k| mask & 1 << k != 0)
                .fold(0u64, |x, k| x | 0x80 << (8 * k));
            assert_eq!(top_bits(x), mask, "{mask:08b}");
        }
    }

    #[test]
    fn starts_lists_each_set_bit_in_order() {
        for (mask, (positions, count)) in STARTS.iter().enumerate() {
            let want: Vec<u8> = (0..8).filter(|k| mask & 1 << k != 0).collect();
            assert_eq!(usize::from(*count), want.len(), "{mask:08b}");
            assert_eq!(positions[..want.len()], want[..], "{mask:08b}");
            if let Some(&last) = want.last() {
                assert!(
                    positions[want.len()..].iter().all(|&p| p == last),
                    "{mask:08b}"
                );
            }
        }
    }

    /// What a window at the start of `s` should consume: 16 bytes if the
    /// characters starting in them are well-formed one- and two-byte
    /// characters that end there (and the byte after them does not
    /// continue: the next window would refuse it first anyway), 17 if the
    /// last of them ends one byte later, else none (std's decoder is the
    /// judge).
    fn window_oracle(s: &[u8]) -> usize {
        let short = |n: usize| {
            core::str::from_utf8(&s[..n]).is_ok_and(|t| t.chars().all(|c| c.len_utf8() <= 2))
        };
        if short(WINDOW) && s[WINDOW] & 0xC0 != 0x80 {
            WINDOW
        } else if short(WINDOW + 1) && s[WINDOW - 1] >= 0xC0 {
            WINDOW + 1
        } else {
            0
        }
    }

    /// `run` on `src` against the reference: what it decodes is decoded as
    /// the reference decodes it, with nothing written past it (the steps
    /// write garbage past their characters, which must be overwritten or
    /// never written), and holds one- and two-byte characters alone; it
    /// stops only where a window does not pass, near either end, or after
    /// a stretch of ASCII.
    fn check_run<F: Reference>(src: &[u8], fill: F::Unit) -> (usize, bool)
    where
        F::Unit: PartialEq + core::fmt::Debug,
    {
        check_run_into::<F>(src, src.len() + WINDOW, fill)
    }

    /// [`check_run`] into `room` units: it may also stop within a window
    /// of their end.
    fn check_run_into<F: Reference>(src: &[u8], room: usize, fill: F::Unit) -> (usize, bool)
    where
        F::Unit: PartialEq + core::fmt::Debug,
    {
        let mut got = vec![fill; room];
        let (read, written, ascii) = run::<F>(src, &mut got);
        let (p, want) = F::reference(&src[..read], written, fill);
        assert_eq!(
            (p.status, p.read, p.written),
            (Status::Done, read, written),
            "{src:02X?}"
        );
        assert_eq!(got[..written], want[..], "{src:02X?}");
        assert!(
            got[written..].iter().all(|&u| u == fill),
            "{room} {src:02X?}"
        );
        let text = core::str::from_utf8(&src[..read]).expect("checked above");
        assert!(text.chars().all(|c| c.len_utf8() <= 2), "{src:02X?}");
        if ascii {
            let ascii_bytes = ASCII_WINDOWS * WINDOW;
            assert!(read >= ascii_bytes, "{src:02X?}");
            assert!(src[read - ascii_bytes..read].is_ascii(), "{src:02X?}");
        } else if read + WINDOW < src.len() && written + WINDOW <= room {
            assert_eq!(
                window_oracle(&src[read..]),
                0,
                "stopped at {read}: {src:02X?}"
            );
        }
        (read, ascii)
    }

    /// Into every room up to what the text needs and a block more: the
    /// steps stop within a window of the end and write nothing past what
    /// they report.
    #[test]
    fn stops_within_a_window_of_a_short_destination() {
        let mut rng = crate::samples::Rng(0x5EED);
        for ascii in [0, 30, 90] {
            for len in [40, 100, 300] {
                let src = crate::samples::alphabet_text(&mut rng, len, ascii, 0, 0);
                let chars = core::str::from_utf8(&src)
                    .expect("well formed")
                    .chars()
                    .count();
                for room in 0..=chars + BLOCK {
                    check_run_into::<Ucs4>(&src, room, 0xAAAA_AAAA);
                    check_run_into::<Utf16<false>>(&src, room, 0xAAAA);
                }
            }
        }
    }

    /// Blocks of ASCII alone: [`ASCII_WINDOWS`] windows' worth of them in
    /// a row stop the run, fewer do not, wherever they start.
    #[test]
    fn stops_after_a_stretch_of_ascii_blocks() {
        let limit = ASCII_WINDOWS * WINDOW / BLOCK;
        for lead in 0..3 {
            for ascii in 0..=ASCII_WINDOWS * WINDOW + 2 * BLOCK {
                let src = "\u{E9}".repeat(8 + lead) + &"A".repeat(ascii) + &"\u{436}".repeat(40);
                let (read, stopped) = check_run::<Ucs4>(src.as_bytes(), 0xAAAA_AAAA);
                // The blocks' ASCII-only ones: those wholly inside the run
                // of ASCII, counted from where the blocks fall (every
                // BLOCK bytes: none before it ends past its last byte).
                let first = (2 * (8 + lead)).div_ceil(BLOCK) * BLOCK;
                let whole = (2 * (8 + lead) + ascii).saturating_sub(first) / BLOCK;
                assert_eq!(stopped, whole >= limit, "{lead} {ascii}");
                if stopped {
                    assert_eq!(read, first + limit * BLOCK, "{lead} {ascii}");
                } else {
                    // The windows take the last block's worth.
                    assert!(read + WINDOW + 1 > src.len(), "{lead} {ascii}");
                }
            }
        }
    }

    /// Every input of one or two bytes at every position of a block (and
    /// so of both its windows) and just past it, after ASCII or after
    /// two-byte characters, and before two blocks of two-byte characters;
    /// the three-byte inputs led by C0..FF at the last position of a
    /// window and of a block, where a two-byte character would end past
    /// it.
    #[test]
    fn every_short_input_at_every_position() {
        let mut prefixes = Vec::new();
        for p in 0..=BLOCK + 1 {
            prefixes.push("A".repeat(p));
            prefixes.push("\u{E9}".repeat(p / 2) + &"A".repeat(p % 2));
        }
        let suffix = "\u{0430}".repeat(2 * BLOCK);
        let place = |prefix: &str, input: &[u8]| {
            let mut src = prefix.as_bytes().to_vec();
            src.extend_from_slice(input);
            src.extend_from_slice(suffix.as_bytes());
            src
        };
        let middle = crate::samples::middle_bytes();
        for a in 0..=255u8 {
            for b in middle.iter().copied().map(Some).chain([None]) {
                let input: Vec<u8> = [a].into_iter().chain(b).collect();
                for prefix in &prefixes {
                    let src = place(prefix, &input);
                    check_run::<Ucs4>(&src, 0xAAAA_AAAA);
                    check_run::<Utf16<true>>(&src, 0xAAAA);
                }
            }
        }
        let inner = crate::samples::inner_bytes();
        for last in ["A".repeat(WINDOW - 1), "A".repeat(BLOCK - 1)] {
            for a in 0xC0..=0xFFu8 {
                for &b in &middle {
                    for &c in &inner {
                        check_run::<Ucs4>(&place(&last, &[a, b, c]), 0xAAAA_AAAA);
                    }
                }
            }
        }
    }

    #[test]
    fn looks_alphabetic_at_one_two_byte_character_in_sixteen_first_or_in_the_middle() {
        let text = |two: usize, ascii: usize| "\u{430}".repeat(two) + &"a".repeat(ascii);
        assert!(looks_alphabetic(text(32, 0).as_bytes()));
        assert!(looks_alphabetic(text(4, 56).as_bytes()));
        assert!(!looks_alphabetic(text(3, 58).as_bytes()));
        assert!(!looks_alphabetic(text(0, 64).as_bytes()));
        assert!(!looks_alphabetic(
            ("\u{20AC}".to_string() + &text(30, 0)).as_bytes()
        ));
        // ASCII first: the middle decides.
        let later = |ascii: usize, two: usize| "<p>".repeat(ascii) + &text(two, 0);
        assert!(looks_alphabetic(later(40, 100).as_bytes()));
        assert!(!looks_alphabetic(later(100, 40).as_bytes()));
        let cjk = "a".repeat(200) + &"\u{4E2D}".repeat(100);
        assert!(!looks_alphabetic(cjk.as_bytes()));
    }
}
