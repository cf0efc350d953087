//! UTF-8 to code points or UTF-16 units in fixed windows of 16 bytes, for
//! text of one- and two-byte characters: the alphabets UTF-8 writes in two
//! bytes (Greek, Cyrillic, Armenian, Hebrew, Arabic) with ASCII spaces and
//! punctuation between their words, and Latin text with many accented
//! letters.
//!
//! The loops per length in [`super::decode`] branch on each character's
//! length, which mispredicts about once a word in such text (about four
//! cycles a character on Zen 5). Here nothing branches on a character:
//! each window starts at a character boundary and holds the characters
//! whose leads are among its 16 bytes (a two-byte character led by its
//! last byte ends one byte past it).
//!
//! For each window:
//! - every byte is checked against the byte after it (ASCII or a lead
//!   C2..DF, and a continuation byte exactly after each lead), and each
//!   position gets the value of the character it leads (garbage at
//!   continuation bytes), in two loops the compiler turns into vector
//!   code: one on the sixteen bytes (masks of 00 or FF, the value's high
//!   and low bits), one widening those bits to 16-bit values;
//! - the leads' top bits are gathered into one 8-bit mask per half (a
//!   multiplication), whose complement shifted by one is where characters
//!   start;
//! - [`STARTS`] lists, for each half's mask, the positions of its
//!   characters, and each half writes eight units from those positions
//!   whatever its count (4 to 8): the first half's extra units are
//!   overwritten by the second half's, and the second half's by the next
//!   window's. The next window is checked before this one is written, so
//!   that the last window of a run writes its second half exactly.
//!
//! About 170 instructions a window on baseline x86-64, 2.3 GB/s on Arabic
//! against 2.0 for the loops per length (Sapphire Rapids); text with a two-byte character in
//! ten (`latin1-10%`) goes from 0.8 to 2.3 GB/s. Mostly ASCII text stays
//! with the loops per length, which widen ASCII a block at a time, and
//! [`ASCII_WINDOWS`] all-ASCII windows in a row hand a stretch back to
//! them.

#![forbid(unsafe_code)]

use super::form::Form;

/// Bytes a window holds.
pub(crate) const WINDOW: usize = 16;

/// All-ASCII windows in a row after which [`run`] hands over to the loops
/// per length: 64 bytes, which text with a two-byte character in ten
/// holds about once in 800 windows.
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

/// One window's characters: where they start in each half (masks), and
/// the bytes the window consumes.
struct Window {
    starts: [u8; 2],
    read: usize,
}

/// Each position's value, at its position in the window (garbage at
/// continuation bytes). 8 + 256 entries so that an index read from a
/// `u8`, plus 8 for the second half, needs no bounds check; only the first
/// [`WINDOW`] are used.
type Values = [u16; 8 + 256];

/// Reads the window at the start of `s` (its 16 bytes and the byte after
/// them) and writes its values, or `None` if any of its characters is not
/// a well-formed one- or two-byte character.
#[inline(always)]
fn window(s: &[u8; WINDOW + 1], values: &mut Values) -> Option<Window> {
    // Byte lanes first, as masks of 00 or FF, and 16-bit lanes only to
    // widen: one loop doing both ran the checks eight bytes at a time (the
    // values' width), and bools or a mask gathered bit by bit made the
    // compiler take the lanes apart. The checks and values took about 75
    // instructions that way, about 45 this way.
    let mask = |c: bool| 0u8.wrapping_sub(u8::from(c));
    let (mut bad, mut high, mut low) = ([0u8; WINDOW], [0u8; WINDOW], [0u8; WINDOW]);
    for k in 0..WINDOW {
        let (b, n) = (s[k], s[k + 1]);
        let lead = mask(b >= 0xC0);
        let valid = b.wrapping_sub(0xC2) <= 0xDF - 0xC2;
        let continues = n & 0xC0 == 0x80;
        // A lead C2..DF exactly before each byte that continues; no other
        // lead (C0, C1, E0..FF). The first byte is checked below.
        bad[k] = mask(valid != continues) | lead ^ mask(valid);
        high[k] = b & 0x1F & lead;
        low[k] = n & 0x3F & lead | b & !lead;
    }
    for k in 0..WINDOW {
        values[k] = u16::from(high[k]) << 6 | u16::from(low[k]);
    }
    if bad.iter().fold(0, |a, &x| a | x) != 0 || s[0] & 0xC0 == 0x80 {
        return None;
    }
    // Well formed, so a character starts at every byte but those after a
    // lead: leads are the bytes whose top two bits are set.
    let word = |k: usize| u64::from_le_bytes(s[k..k + 8].try_into().expect("8 bytes"));
    let leads = |x: u64| top_bits(x & x << 1 & 0x8080_8080_8080_8080);
    let (low, high) = (leads(word(0)), leads(word(8)));
    let starts = [!(low << 1), !(high << 1 | low >> 7)];
    let read = WINDOW + usize::from(high >> 7);
    Some(Window { starts, read })
}

/// Decodes well-formed one- and two-byte characters a window at a time.
/// Stops at the first window that holds anything else (a longer
/// character, an ill-formed sequence), within 17 bytes of the end of `src`
/// or 16 units of the end of `dst`, or after [`ASCII_WINDOWS`] windows in
/// a row of ASCII alone (then the last value returned is `true`). Returns
/// bytes read and units written.
///
/// Each window's second half is written as eight units whatever its count,
/// the units past its characters being overwritten by the next window; so
/// the next window is checked before this one is written, and the last
/// one writes its second half exactly, leaving every unit past what is
/// reported written as it was.
pub(crate) fn run<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> (usize, usize, bool) {
    let at = |i: usize| -> Option<&[u8; WINDOW + 1]> {
        src.get(i..i + WINDOW + 1)
            .map(|s| s.try_into().expect("a window"))
    };
    // Two sets of values: the window being written, the one after it.
    let (mut here, mut after): (Values, Values) = ([0; 8 + 256], [0; 8 + 256]);
    let (mut values, mut next_values) = (&mut here, &mut after);
    let (mut i, mut j, room, mut ascii_windows) = (0, 0, dst.len(), 0);
    let Some(mut w) = at(0).and_then(|s| window(s, values)) else {
        return (0, 0, false);
    };
    while let Some(out) = dst.get_mut(j..j + WINDOW) {
        let out: &mut [F::Unit; WINDOW] = out.try_into().expect("a window");
        let (first, first_count) = &STARTS[usize::from(w.starts[0])];
        let (second, second_count) = &STARTS[usize::from(w.starts[1])];
        let (first_count, second_count) = (usize::from(*first_count), usize::from(*second_count));
        let written = first_count + second_count;
        // The next window, if there is room for it.
        let next = match room - j >= written + WINDOW {
            true => at(i + w.read).and_then(|s| window(s, next_values)),
            false => None,
        };
        // Eight characters from each half: those past the first half's
        // are overwritten by the second half's.
        for c in 0..8 {
            out[c] = F::bmp(u32::from(values[usize::from(first[c])]));
        }
        let out = &mut out[first_count.min(8)..][..8];
        // Two loops, not one to a count of 8 or fewer: that one compared
        // the count at every unit.
        if next.is_some() {
            for (o, &at) in out.iter_mut().zip(second) {
                *o = F::bmp(u32::from(values[8 + usize::from(at)]));
            }
        } else {
            for (o, &at) in out.iter_mut().zip(&second[..second_count.min(8)]) {
                *o = F::bmp(u32::from(values[8 + usize::from(at)]));
            }
        }
        // Windows all ASCII (no byte continues, the last does not lead):
        // after a few in a row the text may have left the alphabet for
        // ASCII, which the loops per length widen several times faster.
        let ascii = written == WINDOW && w.read == WINDOW;
        ascii_windows = if ascii { ascii_windows + 1 } else { 0 };
        i += w.read;
        j += written;
        match next {
            Some(n) if ascii_windows < ASCII_WINDOWS => w = n,
            _ => break,
        }
        core::mem::swap(&mut values, &mut next_values);
    }
    (i, j, ascii_windows == ASCII_WINDOWS)
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
    /// the reference decodes it (nothing written past it is checked: the
    /// windows may write there), each window it takes is one the oracle
    /// takes, and it stops only where a window does not pass, or near
    /// either end.
    fn check_run<F: Reference>(src: &[u8], fill: F::Unit) -> (usize, bool)
    where
        F::Unit: PartialEq + core::fmt::Debug,
    {
        let mut got = vec![fill; src.len() + WINDOW];
        let (read, written, ascii) = run::<F>(src, &mut got);
        let (p, want) = F::reference(&src[..read], written, fill);
        assert_eq!(
            (p.status, p.read, p.written),
            (Status::Done, read, written),
            "{src:02X?}"
        );
        assert_eq!(got[..written], want[..], "{src:02X?}");
        let mut i = 0;
        while i < read {
            let n = window_oracle(&src[i..]);
            assert!(n > 0, "took a window the oracle refuses at {i}: {src:02X?}");
            i += n;
        }
        assert_eq!(i, read, "{src:02X?}");
        if ascii {
            let ascii_bytes = ASCII_WINDOWS * WINDOW;
            assert!(read >= ascii_bytes, "{src:02X?}");
            assert!(src[read - ascii_bytes..read].is_ascii(), "{src:02X?}");
        } else if read + WINDOW < src.len() {
            assert_eq!(
                window_oracle(&src[read..]),
                0,
                "stopped at {read}: {src:02X?}"
            );
        }
        (read, ascii)
    }

    /// Windows of ASCII alone: [`ASCII_WINDOWS`] of them in a row stop the
    /// run, fewer do not, wherever they start.
    #[test]
    fn stops_after_a_stretch_of_ascii_windows() {
        for lead in 0..3 {
            for ascii in 0..=ASCII_WINDOWS * WINDOW + 2 * WINDOW {
                let src = "\u{E9}".repeat(8 + lead) + &"A".repeat(ascii) + &"\u{436}".repeat(40);
                let (read, stopped) = check_run::<Ucs4>(src.as_bytes(), 0xAAAA_AAAA);
                // The windows' ASCII-only ones: those wholly inside the run
                // of ASCII, counted from where the windows fall.
                let first = (2 * (8 + lead)).div_ceil(WINDOW) * WINDOW;
                let whole = (2 * (8 + lead) + ascii).saturating_sub(first) / WINDOW;
                assert_eq!(stopped, whole >= ASCII_WINDOWS, "{lead} {ascii}");
                if stopped {
                    assert_eq!(read, first + ASCII_WINDOWS * WINDOW, "{lead} {ascii}");
                }
            }
        }
    }

    /// Every input of one or two bytes at every position of a window and
    /// just past it, after ASCII or after two-byte characters, and before
    /// two windows of two-byte characters; the three-byte inputs led by
    /// C0..FF at the last position, where a two-byte character would end
    /// past the window.
    #[test]
    fn every_short_input_at_every_position() {
        let mut prefixes = Vec::new();
        for p in 0..=WINDOW + 1 {
            prefixes.push("A".repeat(p));
            prefixes.push("\u{E9}".repeat(p / 2) + &"A".repeat(p % 2));
        }
        let suffix = "\u{0430}".repeat(2 * WINDOW);
        let place = |prefix: &str, input: &[u8]| {
            let mut src = prefix.as_bytes().to_vec();
            src.extend_from_slice(input);
            src.extend_from_slice(suffix.as_bytes());
            src
        };
        for a in 0..=255u8 {
            for b in (0..=255u8).map(Some).chain([None]) {
                let input: Vec<u8> = [a].into_iter().chain(b).collect();
                for prefix in &prefixes {
                    let src = place(prefix, &input);
                    check_run::<Ucs4>(&src, 0xAAAA_AAAA);
                    check_run::<Utf16<true>>(&src, 0xAAAA);
                }
            }
        }
        let inner = crate::samples::inner_bytes();
        let last = "A".repeat(WINDOW - 1);
        for a in 0xC0..=0xFFu8 {
            for b in 0..=255u8 {
                for &c in &inner {
                    check_run::<Ucs4>(&place(&last, &[a, b, c]), 0xAAAA_AAAA);
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
