//! UTF-8 to code points or UTF-16 units with no branch on a character's
//! length, for text whose length changes at almost every character.
//!
//! The loops per length in [`super::decode`] mispredict once or twice a
//! character on such text (0.37 GB/s on random one- to four-byte
//! characters on Zen 5). Here each step reads the four bytes from a lead,
//! looks up the lead's length, computes the code point of all four bytes
//! and shifts off those that are not its own; one test per character
//! catches anything not well formed. A step waits on the one before it
//! (the next lead's position comes from this one's length), about ten
//! cycles, which is slower than the loops per length wherever runs of one
//! length let them predict: [`looks_mixed`] chooses.

#![forbid(unsafe_code)]

use super::form::Form;

/// The length of the character each byte leads: 1..=4, or 0 for a byte
/// that leads none (a continuation byte, C0, C1, F5..FF).
static LEAD_LEN: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b {
            0x00..=0x7F => 1,
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 0,
        };
        b += 1;
    }
    t
};

/// What a character of each length (the index; 0 for none) looks like in
/// the four bytes from its lead, little-endian: the lead's payload mask,
/// the shift that drops the bytes after the character, the tag bits of its
/// continuation bytes and their value, and its smallest code point. Length
/// 0 fails the tag test, whatever the bytes.
static SHAPES: [(u32, u32, u32, u32, u32); 5] = [
    (0, 0, 0, 1, 0),
    (0x7F, 18, 0, 0, 0),
    (0x1F, 12, 0xC000, 0x8000, 0x80),
    (0x0F, 6, 0xC0_C000, 0x80_8000, 0x800),
    (0x07, 0, 0xC0C0_C000, 0x8080_8000, 0x1_0000),
];

/// Characters [`run`] takes a call.
pub(crate) const BLOCK: usize = 64;

/// Bytes [`looks_mixed`] samples.
const SAMPLE: usize = 64;

/// Whether the first [`SAMPLE`] bytes of `src` change length at five
/// characters in eight or more: random lengths change at three in four;
/// Korean (three-byte words, ASCII spaces) at about two in five; Arabic,
/// Hindi and CJK less.
pub(crate) fn looks_mixed(src: &[u8]) -> bool {
    let (mut leads, mut changes, mut previous) = (0u32, 0u32, 1u8);
    for &b in src.iter().take(SAMPLE) {
        let len = LEAD_LEN[usize::from(b)];
        let lead = u32::from((b as i8) >= -64);
        leads += lead;
        changes += lead & u32::from(len != previous);
        if lead == 1 {
            previous = len;
        }
    }
    8 * changes >= 5 * leads && leads > 0
}

/// Decodes up to [`BLOCK`] well-formed characters. Stops before the first
/// character that is not well formed, within four bytes of the end of
/// `src`, or within two units of the end of `dst`. Returns bytes read,
/// units written, and how many characters differed in length from the one
/// before.
pub(crate) fn run<F: Form>(src: &[u8], dst: &mut [F::Unit]) -> (usize, usize, usize) {
    let (mut i, mut j, mut changes, mut previous) = (0, 0, 0, 0);
    for _ in 0..BLOCK {
        let (Some(s), Some(o)) = (src.get(i..i + 4), dst.get_mut(j..j + 2)) else {
            break;
        };
        let w = u32::from_le_bytes(s.try_into().expect("4 bytes"));
        let len = LEAD_LEN[usize::from(s[0])];
        let (lead_mask, shift, tag_mask, tag, min) = SHAPES[usize::from(len)];
        let x = w & 0x3F3F_3F00 | w & lead_mask;
        let c = ((x & 0x7F) << 18 | (x & 0x3F00) << 4 | (x >> 10) & 0xFC0 | x >> 24) >> shift;
        let bad = (w & tag_mask != tag) | (c < min) | (c & 0xFFFF_F800 == 0xD800) | (c > 0x10_FFFF);
        if bad {
            break;
        }
        j += F::any(o.try_into().expect("2 units"), c);
        i += usize::from(len);
        changes += usize::from(len != previous);
        previous = len;
    }
    (i, j, changes)
}
