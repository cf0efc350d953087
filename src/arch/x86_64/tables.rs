//! The Keiser-Lemire validation tables and the code point assembly tables,
//! shared by every x86-64 tier (each broadcasts them to its vector width).
//!
//! Each error bit names one way a byte pair can be wrong; a pair is
//! ill-formed when the bit is set in all three lookups (previous byte's high
//! nibble, its low nibble, this byte's high nibble).

const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the previous byte.
pub(super) const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG, // 0_______
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,                                           // 10______
    TOO_SHORT | OVERLONG_2,                              // 1100____
    TOO_SHORT,                                           // 1101____
    TOO_SHORT | OVERLONG_3 | SURROGATE,                  // 1110____
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4, // 1111____
];

/// [`BYTE_1_HIGH`] for validators that stop at CESU-8's and Modified
/// UTF-8's 4-byte leads: a byte F0..FF is an error whatever follows it
/// (TOO_SHORT before a non-continuation, TOO_LONG before a continuation),
/// flagged at the byte after it, for no extra operation.
pub(super) const BYTE_1_HIGH_FOURS: [u8; 16] = {
    let mut t = BYTE_1_HIGH;
    t[15] |= TOO_LONG;
    t
};

/// Indexed by the low nibble of the previous byte.
pub(super) const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, // ____0000
    CARRY | OVERLONG_2,                           // ____0001
    CARRY,
    CARRY,
    CARRY | TOO_LARGE, // ____0100
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, // ____1101
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Indexed by the high nibble of this byte.
pub(super) const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT, // 0_______
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4, // 1000____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE, // 1001____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, // 101_____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT, // 11______
];

/// By the lead's count of leading ones (0, 2, 3, 4): the payload bits of a
/// lane holding a character's four bytes, lead lowest.
pub(super) const PAYLOAD_MASK: [u32; 8] = [0x7F, 0, 0x3F1F, 0x3F3F0F, 0x3F3F3F07, 0, 0, 0];
/// ... and how far right the joined 24-bit value must move.
pub(super) const FINAL_SHIFT: [u32; 8] = [18, 0, 12, 6, 0, 0, 0, 0];

/// Byte limits above which a block's last three bytes start a sequence that
/// the block cannot finish: a lead needing 4, 3 or 2 bytes.
pub(super) const LAST_THREE_LIMITS: [u8; 3] = [0xF0 - 1, 0xE0 - 1, 0xC0 - 1];

/// Repeats a 16-byte table to fill a vector of `N` bytes.
pub(super) const fn splat<const N: usize>(t: [u8; 16]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = t[i % 16];
        i += 1;
    }
    out
}

/// A vector of `N` bytes, all 0xFF but the last three, which are
/// `LAST_THREE_LIMITS`.
pub(super) const fn incomplete_limits<const N: usize>() -> [u8; N] {
    let mut out = [0xFFu8; N];
    out[N - 3] = LAST_THREE_LIMITS[0];
    out[N - 2] = LAST_THREE_LIMITS[1];
    out[N - 1] = LAST_THREE_LIMITS[2];
    out
}
