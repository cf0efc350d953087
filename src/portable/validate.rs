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

use super::ascii::{block_is_ascii, BLOCK};
use crate::scalar::segment::is_continuation;

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

/// A character boundary `p` such that `src[..p]` is well-formed; `p` is
/// `src.len()` exactly when all of `src` is. Otherwise the first
/// ill-formed or cut sequence starts within about 35 bytes after `p`,
/// where the reference core finds it exactly.
pub(crate) fn valid_up_to(src: &[u8]) -> usize {
    let mut state = u64::from(ACCEPT);
    let mut i = 0;
    for block in src.chunks_exact(BLOCK) {
        let block: &[u8; BLOCK] = block.try_into().expect("chunks_exact gives whole blocks");
        if is(state, ACCEPT) && block_is_ascii(block) {
            i += BLOCK;
            continue;
        }
        let before = state;
        for &b in block {
            state = step(state, b);
        }
        if is(state, REJECT) {
            return boundary_before(src, i, before);
        }
        i += BLOCK;
    }
    let before = state;
    for &b in &src[i..] {
        state = step(state, b);
    }
    if is(state, ACCEPT) {
        src.len()
    } else {
        boundary_before(src, i, before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The DFA against `std` on every input of up to three bytes, and on
    /// every four-byte input led by C0..FF, embedded at every offset of a
    /// block so that both the block loop and the tail see it.
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
        check(&[]);
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                for c in 0..=255u8 {
                    check(&[a, b, c]);
                }
            }
        }
        for a in 0xC0..=0xFFu8 {
            for b in 0x80..=0xBFu8 {
                for c in 0x80..=0xBFu8 {
                    for d in 0..=255u8 {
                        check(&[a, b, c, d]);
                    }
                }
            }
        }
    }

    /// `valid_up_to` is a boundary of the well-formed prefix, and the whole
    /// length only for well-formed input, wherever the damage is.
    #[test]
    fn valid_up_to_stops_before_the_first_error() {
        let text = "aé€😀 Ωz".repeat(20);
        let bytes = text.as_bytes();
        for damage in [
            &b"\x80"[..],
            b"\xE2\x82",
            b"\xF0\x90\x80",
            b"\xED\xA0\x80",
            b"\xC0\xAF",
        ] {
            for at in 0..bytes.len() {
                if is_continuation(bytes[at]) {
                    continue;
                }
                let mut v = bytes[..at].to_vec();
                v.extend_from_slice(damage);
                v.extend_from_slice(&bytes[at..]);
                let good = core::str::from_utf8(&v).unwrap_err().valid_up_to();
                let p = valid_up_to(&v);
                assert!(p <= good && good - p <= BLOCK + 3, "at {at}: {p} vs {good}");
                assert!(core::str::from_utf8(&v[..p]).is_ok());
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
