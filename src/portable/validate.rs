//! Validation with a shift-based DFA.
//!
//! The grammar of Table 3-7 is a DFA of nine states: *accept* (between
//! characters), *reject*, and seven states inside a character that say how
//! many continuation bytes are still due and which range the next one must
//! fall in. Each state is a multiple of 6 below 64, and the table row of a
//! byte holds, in the 6 bits at each state's offset, the state that byte
//! leads to. One step is then `row[byte] >> state`: the low 6 bits of the
//! result are the next state, and the garbage above them is ignored by the
//! next shift (a 64-bit shift uses only the low 6 bits of its count, and
//! `wrapping_shr` says so in Rust). The loop-carried work per byte is one
//! shift, so the DFA runs at about a byte per cycle whatever the text's
//! script, with no branch per character (see Per Vognsen's and Dougall
//! Johnson's write-ups of shift-based DFAs).
//!
//! Blocks of 32 bytes that are all ASCII while the DFA is between
//! characters are skipped without stepping it.
//!
//! Text of four-byte characters (emoji) is checked two characters at a
//! time instead, each by one mask and one range test on its four bytes
//! read big-endian: about two instructions a byte where the DFA takes
//! four or five, and where `std`, with a branch per character that such
//! text always predicts, runs as fast as the DFA.

use super::ascii::{block_is_ascii, BLOCK};
use crate::reference::segment::is_continuation;

const ACCEPT: u32 = 0;
const REJECT: u32 = 6;
/// One continuation byte due, any of 80..BF.
const C1: u32 = 12;
/// Two continuation bytes due, the first any of 80..BF.
const C2: u32 = 18;
/// Three due, the first any of 80..BF.
const C3: u32 = 24;
/// After E0: two due, the first in A0..BF (no overlong forms).
const E0: u32 = 30;
/// After ED: two due, the first in 80..9F (no surrogates).
const ED: u32 = 36;
/// After F0: three due, the first in 90..BF (no overlong forms).
const F0: u32 = 42;
/// After F4: three due, the first in 80..8F (nothing above U+10FFFF).
const F4: u32 = 48;

const STATES: [u32; 9] = [ACCEPT, REJECT, C1, C2, C3, E0, ED, F0, F4];

/// The state after byte `b` in state `s` (Table 3-7).
const fn next(s: u32, b: u8) -> u32 {
    let cont = b >= 0x80 && b <= 0xBF;
    match s {
        ACCEPT => match b {
            0x00..=0x7F => ACCEPT,
            0xC2..=0xDF => C1,
            0xE0 => E0,
            0xED => ED,
            0xE1..=0xEF => C2,
            0xF0 => F0,
            0xF4 => F4,
            0xF1..=0xF3 => C3,
            _ => REJECT,
        },
        C1 if cont => ACCEPT,
        C2 if cont => C1,
        C3 if cont => C2,
        E0 if b >= 0xA0 && b <= 0xBF => C1,
        ED if b >= 0x80 && b <= 0x9F => C1,
        F0 if b >= 0x90 && b <= 0xBF => C2,
        F4 if b >= 0x80 && b <= 0x8F => C2,
        _ => REJECT,
    }
}

const fn build() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < STATES.len() {
            let s = STATES[k];
            table[b] |= (next(s, b as u8) as u64) << s;
            k += 1;
        }
        b += 1;
    }
    table
}

static TABLE: [u64; 256] = build();

/// One DFA step. Only the low 6 bits of `state` matter.
#[inline(always)]
fn step(state: u64, b: u8) -> u64 {
    TABLE[b as usize].wrapping_shr(state as u32)
}

#[inline(always)]
fn is(state: u64, s: u32) -> bool {
    (state & 63) as u32 == s
}

/// The last character boundary at or before `i`, given the DFA's `state` at
/// `i`: `i` itself between characters, else the lead byte 1-3 bytes back.
fn boundary_before(src: &[u8], i: usize, state: u64) -> usize {
    if is(state, ACCEPT) {
        return i;
    }
    (i.saturating_sub(3)..i)
        .rev()
        .find(|&q| !is_continuation(src[q]))
        .unwrap_or(i)
}

/// The DFA running over one stretch of the input, a block at a time.
struct Stream<'a> {
    src: &'a [u8],
    /// The next block's start.
    i: usize,
    /// The DFA's state at `i`.
    state: u64,
}

impl<'a> Stream<'a> {
    fn new(src: &'a [u8]) -> Self {
        Stream {
            src,
            i: 0,
            state: u64::from(ACCEPT),
        }
    }

    /// Whole blocks left.
    fn blocks_left(&self) -> usize {
        (self.src.len() - self.i) / BLOCK
    }

    /// Steps over the next block (there must be one), unless the DFA
    /// rejects in it: then it stays before the block and says so.
    #[inline(always)]
    fn block(&mut self) -> bool {
        let block: &[u8; BLOCK] = self.src[self.i..self.i + BLOCK]
            .try_into()
            .expect("a whole block");
        if is(self.state, ACCEPT) && block_is_ascii(block) {
            self.i += BLOCK;
            return true;
        }
        let state = one_block(block, self.state);
        if is(state, REJECT) {
            return false;
        }
        self.state = state;
        self.i += BLOCK;
        true
    }

    /// Runs to the end of the stretch alone: its well-formed prefix, as
    /// [`valid_up_to`] gives it.
    fn finish(mut self) -> usize {
        while self.blocks_left() > 0 {
            if !self.block() {
                return boundary_before(self.src, self.i, self.state);
            }
        }
        let mut state = self.state;
        for &b in &self.src[self.i..] {
            state = step(state, b);
        }
        if is(state, ACCEPT) {
            self.src.len()
        } else {
            boundary_before(self.src, self.i, self.state)
        }
    }
}

/// Below this length one stream is as fast as two.
const TWO_STREAMS: usize = 512;

/// Steps the DFA over a block. Returns its state. Not inlined: inlined,
/// the compiler merged it with [`two_blocks`] and lost the interleaving.
#[inline(never)]
fn one_block(a: &[u8; BLOCK], mut state: u64) -> u64 {
    for &x in a {
        state = step(state, x);
    }
    state
}

/// Steps two DFAs over a block each, a byte of each in turn, so that their
/// chains of shifts interleave. Returns both states.
#[inline(always)]
fn two_blocks(a: &[u8; BLOCK], b: &[u8; BLOCK], mut sa: u64, mut sb: u64) -> (u64, u64) {
    for (&x, &y) in a.iter().zip(b) {
        sa = step(sa, x);
        sb = step(sb, y);
    }
    (sa, sb)
}

/// A character boundary `p` such that `src[..p]` is well-formed; `p` is
/// `src.len()` exactly when all of `src` is. Otherwise the first
/// ill-formed or cut sequence starts within about 35 bytes after `p`,
/// where the reference core finds it exactly.
///
/// Text of four-byte characters (emoji, historic scripts) goes to
/// [`four_byte_runs`], which takes two of them a step; the DFA's byte a
/// step is slower there than `std`'s character a step.
#[inline(never)]
pub(crate) fn valid_up_to(src: &[u8]) -> usize {
    let start = src
        .chunks_exact(BLOCK)
        .take_while(|&block| block_is_ascii(block.try_into().expect("a whole block")))
        .count()
        * BLOCK;
    let rest = &src[start..];
    if looks_four_byte(rest) {
        return start + four_byte_runs(rest);
    }
    start + dfa_up_to(rest)
}

/// Bytes [`looks_four_byte`] samples.
const SAMPLE: usize = 64;

/// Whether `src` holds at least [`SAMPLE`] bytes, and the first
/// [`SAMPLE`] lead 14 four-byte characters or more (56 of their bytes).
fn looks_four_byte(src: &[u8]) -> bool {
    src.len() >= SAMPLE && src[..SAMPLE].iter().filter(|&&b| b >= 0xF0).count() >= 14
}

/// Whether the four bytes of `x`, read big-endian, are a well-formed
/// four-byte character. With its last three bytes tagged as continuation
/// bytes, byte order is numeric order, and the well-formed characters are
/// exactly the values from F0 90 80 80 (U+10000) to F4 8F BF BF
/// (U+10FFFF): the range takes the lead, the overlongs and what lies past
/// U+10FFFF.
#[inline(always)]
fn is_four_byte(x: u32) -> bool {
    (x & 0x00C0_C0C0 == 0x0080_8080) & (x.wrapping_sub(0xF090_8080) <= 0xF48F_BFBF - 0xF090_8080)
}

/// Short runs of four-byte characters in a row after which
/// [`four_byte_runs`] hands the rest to the DFA.
const SHORT_RUNS: u32 = 4;

/// [`valid_up_to`] for text of four-byte characters: two of them a step
/// while both are well formed, any other character stepped through the DFA
/// alone. After [`SHORT_RUNS`] runs in a row of fewer than four characters
/// the text is no longer mostly four-byte characters, and the rest goes to
/// [`dfa_up_to`]. Until then, it returns exactly the first error's start.
#[inline(never)]
fn four_byte_runs(src: &[u8]) -> usize {
    let (mut i, mut short) = (0, 0);
    loop {
        let run = i;
        while let Some(pair) = src.get(i..i + 8) {
            let pair = u64::from_be_bytes(pair.try_into().expect("8 bytes"));
            if !(is_four_byte((pair >> 32) as u32) & is_four_byte(pair as u32)) {
                break;
            }
            i += 8;
        }
        if let Some(one) = src.get(i..i + 4) {
            if is_four_byte(u32::from_be_bytes(one.try_into().expect("4 bytes"))) {
                i += 4;
            }
        }
        short = if i - run < 16 { short + 1 } else { 0 };
        if short == SHORT_RUNS {
            return i + dfa_up_to(&src[i..]);
        }
        // One character through the DFA, or the end.
        let mut state = u64::from(ACCEPT);
        let mut j = i;
        loop {
            // The end: at `i` itself, or cutting the character there.
            let Some(&b) = src.get(j) else {
                return i;
            };
            state = step(state, b);
            j += 1;
            if is(state, ACCEPT) {
                break;
            }
            if is(state, REJECT) {
                return i;
            }
        }
        i = j;
    }
}

/// [`valid_up_to`] by the DFA, after the leading ASCII blocks.
///
/// After the leading ASCII blocks, a long input is cut in two at a
/// character boundary near the middle of the rest and the halves are
/// checked together, a block of each per step, a byte of each in turn: the
/// two DFA chains do not depend on each other, so the processor runs them
/// side by side.
/// Not inlined: the loops' speed depends on how the compiler lays them out,
/// and inlined into different callers (the C entry points, benchmarks)
/// they came out 1.5x to 6x slower in some.
#[inline(never)]
fn dfa_up_to(rest: &[u8]) -> usize {
    if rest.len() < TWO_STREAMS {
        return Stream::new(rest).finish();
    }
    // The first byte at or after the middle that is not a continuation
    // byte (a well-formed input has one within three bytes).
    let half = rest.len() / 2;
    let mid = (half..half + 4)
        .find(|&q| !is_continuation(rest[q]))
        .unwrap_or(half);
    let (mut first, mut second) = (Stream::new(&rest[..mid]), Stream::new(&rest[mid..]));
    let pairs = first
        .src
        .chunks_exact(BLOCK)
        .zip(second.src.chunks_exact(BLOCK));
    for (a, b) in pairs {
        let a: &[u8; BLOCK] = a.try_into().expect("a whole block");
        let b: &[u8; BLOCK] = b.try_into().expect("a whole block");
        let (sa, sb) = (first.state, second.state);
        // An ASCII block between characters leaves its DFA as it is.
        let skip_a = is(sa, ACCEPT) & block_is_ascii(a);
        let skip_b = is(sb, ACCEPT) & block_is_ascii(b);
        let (sa, sb) = match (skip_a, skip_b) {
            (true, true) => (sa, sb),
            (true, false) => (sa, one_block(b, sb)),
            (false, true) => (one_block(a, sa), sb),
            (false, false) => two_blocks(a, b, sa, sb),
        };
        if is(sa, REJECT) | is(sb, REJECT) {
            break;
        }
        (first.state, second.state) = (sa, sb);
        first.i += BLOCK;
        second.i += BLOCK;
    }
    // Each stream finishes what it stopped short of (a block it rejected
    // is run again to find the boundary before it); an error in the first
    // half is the first error.
    let p = first.finish();
    if p < mid {
        return p;
    }
    mid + second.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Damage of each kind: a lone continuation byte, a cut sequence of 2
    /// and 3 bytes, a surrogate, an overlong form, a byte that never occurs.
    const DAMAGE: [&[u8]; 6] = [
        b"\x80",
        b"\xE2\x82",
        b"\xF0\x90\x80",
        b"\xED\xA0\x80",
        b"\xC0\xAF",
        b"\xFF",
    ];

    /// `bytes` with `insertion` put in at `at`.
    fn inserted(bytes: &[u8], at: usize, insertion: &[u8]) -> Vec<u8> {
        let mut v = bytes[..at].to_vec();
        v.extend_from_slice(insertion);
        v.extend_from_slice(&bytes[at..]);
        v
    }

    /// `valid_up_to` on `v`, which must be ill-formed: a boundary of the
    /// well-formed prefix, at most a block and a character before the
    /// first error.
    #[track_caller]
    fn assert_stops_before_the_error(v: &[u8]) {
        let good = core::str::from_utf8(v).unwrap_err().valid_up_to();
        let p = valid_up_to(v);
        assert!(p <= good && good - p <= BLOCK + 3, "{p} vs {good}");
        assert!(core::str::from_utf8(&v[..p]).is_ok());
    }

    /// The DFA against `std` on every input of up to three bytes, and on
    /// every four-byte input led by C0..FF whose second and third bytes are
    /// continuation bytes. Under an emulator the last byte takes the values
    /// of `samples::inner_bytes`. (The block loop and the tail are checked
    /// by the tests below, with damage at every offset.)
    #[test]
    fn accepts_exactly_what_std_accepts() {
        let check = |s: &[u8]| {
            let mut state = u64::from(ACCEPT);
            for &b in s {
                state = step(state, b);
            }
            assert_eq!(
                is(state, ACCEPT),
                core::str::from_utf8(s).is_ok(),
                "{s:02X?}"
            );
        };
        let inner = crate::samples::inner_bytes();
        check(&[]);
        crate::samples::each_short_input(check);
        for a in 0xC0..=0xFFu8 {
            for b in 0x80..=0xBFu8 {
                for c in 0x80..=0xBFu8 {
                    for &d in &inner {
                        check(&[a, b, c, d]);
                    }
                }
            }
        }
    }

    /// The same on inputs long enough for two streams: damage of every kind
    /// at every position (around the middle cut above all), in text of
    /// each UTF-8 length, cut at every length near the two-stream limit.
    #[test]
    fn two_streams_stop_before_the_first_error() {
        let check = |v: &[u8]| match core::str::from_utf8(v) {
            Ok(_) => assert_eq!(valid_up_to(v), v.len()),
            Err(_) => assert_stops_before_the_error(v),
        };
        for unit in [
            "a",
            "\u{E9}",
            "\u{20AC}",
            "\u{1F600}",
            "a\u{E9}\u{20AC}\u{1F600}",
        ] {
            let text = unit.repeat(1100 / unit.len());
            let bytes = text.as_bytes();
            for len in TWO_STREAMS - 8..TWO_STREAMS + 8 {
                check(&bytes[..len]);
            }
            for damage in DAMAGE {
                for at in 0..=bytes.len() {
                    check(&inserted(bytes, at, damage));
                }
            }
        }
    }

    /// `is_four_byte` against `std` on every four-byte input led by F0..FF
    /// or a few other bytes, its last byte among the values next to the
    /// bounds of a continuation byte (only its tag matters to the ranges).
    #[test]
    fn is_four_byte_accepts_exactly_what_std_accepts() {
        let inner = crate::samples::inner_bytes();
        let leads = (0xF0..=0xFFu8).chain([0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xDF, 0xE0, 0xEF]);
        let lasts = [0x00, 0x3F, 0x40, 0x7F, 0x80, 0x81, 0xBE, 0xBF, 0xC0, 0xFF];
        for a in leads {
            for b in 0..=255u8 {
                for &c in &inner {
                    for d in lasts {
                        let v = [a, b, c, d];
                        let want = core::str::from_utf8(&v).is_ok_and(|s| s.chars().count() == 1);
                        assert_eq!(is_four_byte(u32::from_be_bytes(v)), want, "{v:02X?}");
                    }
                }
            }
        }
    }

    /// Emoji and other four-byte characters with damage, or another
    /// character, at every position (mid-character too), cut at every
    /// length: `four_byte_runs` stops exactly where `std` does. No input
    /// here has four short runs in a row, so the DFA never takes over.
    #[test]
    fn four_byte_runs_stop_exactly_at_the_first_error() {
        let text = "\u{1F600}\u{10000}\u{10FFFF}\u{E0001}\u{1F4A9}".repeat(5);
        let bytes = text.as_bytes();
        let others: [&[u8]; 4] = [
            b"a",
            "\u{E9}".as_bytes(),
            "\u{20AC}".as_bytes(),
            b"\xF4\x90\x80\x80",
        ];
        for insertion in DAMAGE.iter().chain(&others) {
            for at in 0..=bytes.len() {
                let v = inserted(bytes, at, insertion);
                for len in 0..=v.len() {
                    let want = match core::str::from_utf8(&v[..len]) {
                        Ok(_) => len,
                        Err(e) => e.valid_up_to(),
                    };
                    assert_eq!(four_byte_runs(&v[..len]), want, "at {at}, len {len}");
                }
            }
        }
    }

    /// Text of four-byte characters, a byte-order mark first as in the
    /// lipsum file, is sampled as such; mixed text and other scripts are
    /// not. Emoji followed by other text hands over to the DFA, which finds
    /// damage there as it does alone.
    #[test]
    fn four_byte_text_is_sampled_and_handed_over() {
        let emoji = "\u{FEFF}".to_string() + &"\u{1F600}".repeat(16);
        assert!(looks_four_byte(emoji.as_bytes()));
        for other in [
            "a\u{1F600}",
            "\u{4E2D}",
            "\u{E9}",
            "a",
            "\u{1F600}\u{4E2D}\u{4E2D}",
        ] {
            assert!(!looks_four_byte(other.repeat(64).as_bytes()), "{other}");
        }
        let tail = "\u{4E2D}\u{6587} a\u{E9}".repeat(100);
        let text = "\u{1F600}".repeat(40) + &tail;
        assert!(looks_four_byte(text.as_bytes()));
        let bytes = text.as_bytes();
        assert_eq!(valid_up_to(bytes), bytes.len());
        for damage in DAMAGE {
            for at in (0..bytes.len()).step_by(7) {
                assert_stops_before_the_error(&inserted(bytes, at, damage));
            }
        }
    }

    /// `valid_up_to` is a boundary of the well-formed prefix, and the whole
    /// length only for well-formed input, wherever the damage is.
    #[test]
    fn valid_up_to_stops_before_the_first_error() {
        let text = "aé€😀 Ωz".repeat(20);
        let bytes = text.as_bytes();
        for damage in DAMAGE {
            for at in 0..bytes.len() {
                if is_continuation(bytes[at]) {
                    continue;
                }
                let v = inserted(bytes, at, damage);
                assert_stops_before_the_error(&v);
                for len in 0..v.len() {
                    let p = valid_up_to(&v[..len]);
                    let whole = core::str::from_utf8(&v[..len]).is_ok();
                    assert_eq!(p == len, whole, "at {at}, len {len}");
                    assert!(core::str::from_utf8(&v[..p]).is_ok());
                }
            }
        }
    }
}
