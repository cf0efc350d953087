//! The Keiser-Lemire validation tables and the code point assembly tables,
//! shared by every vector tier (each broadcasts them to its vector width),
//! and the kinds of stop the tables serve (`STOPS`).
//!
//! Each error bit names one way a byte pair can be wrong; a pair is
//! ill-formed when the bit is set in all three lookups (previous byte's high
//! nibble, its low nibble, this byte's high nibble).

/// `STOPS` of the validators and decoders that stop at CESU-8's and
/// Modified UTF-8's forms by themselves, as at errors (`Stops`): none,
/// `Stops::Fours` ([`BYTE_1_HIGH_FOURS`]), `Stops::FoursAndZero`.
pub(crate) const NO_STOPS: u8 = 0;
pub(crate) const FOURS: u8 = 1;
pub(crate) const FOURS_ZERO: u8 = 2;

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
pub(crate) const BYTE_1_HIGH: [u8; 16] = [
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
pub(crate) const BYTE_1_HIGH_FOURS: [u8; 16] = {
    let mut t = BYTE_1_HIGH;
    t[15] |= TOO_LONG;
    t
};

/// The three tables for a check whose caller flags bytes F0..FF itself
/// and must also stop at 00 (Modified UTF-8 in AVX-512's BMP decoding
/// loop): the bit that only lead F0..FF used (`TOO_LARGE_1000` and
/// `OVERLONG_4`) is taken out of those rows and set instead in
/// [`BYTE_1_HIGH`]'s row 0, [`BYTE_1_LOW`]'s row 0 and every row of
/// [`BYTE_2_HIGH`], so that it marks exactly the bytes after a 00. What
/// else the tables flag is unchanged, but for pairs led by F0..FF.
#[cfg(target_arch = "x86_64")]
pub(crate) const ZERO_STOP_TABLES: [[u8; 16]; 3] = {
    const AFTER_ZERO: u8 = TOO_LARGE_1000;
    let (mut high, mut low, mut second) = (BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH);
    high[15] &= !AFTER_ZERO;
    high[0] |= AFTER_ZERO;
    let mut k = 0;
    while k < 16 {
        low[k] &= !AFTER_ZERO;
        second[k] |= AFTER_ZERO;
        k += 1;
    }
    low[0] |= AFTER_ZERO;
    [high, low, second]
};

/// Indexed by the low nibble of the previous byte.
pub(crate) const BYTE_1_LOW: [u8; 16] = [
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
pub(crate) const BYTE_2_HIGH: [u8; 16] = [
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
#[cfg(target_arch = "x86_64")] // AVX-512's decoder.
pub(crate) const PAYLOAD_MASK: [u32; 8] = [0x7F, 0, 0x3F1F, 0x3F3F0F, 0x3F3F3F07, 0, 0, 0];
/// ... and how far right the joined 24-bit value must move.
#[cfg(target_arch = "x86_64")]
pub(crate) const FINAL_SHIFT: [u32; 8] = [18, 0, 12, 6, 0, 0, 0, 0];

/// Byte limits above which a block's last three bytes start a sequence that
/// the block cannot finish: a lead needing 4, 3 or 2 bytes.
pub(crate) const LAST_THREE_LIMITS: [u8; 3] = [0xF0 - 1, 0xE0 - 1, 0xC0 - 1];

/// Repeats a 16-byte table to fill a vector of `N` bytes.
#[cfg(target_arch = "x86_64")] // The wider x86 vectors.
pub(crate) const fn splat<const N: usize>(t: [u8; 16]) -> [u8; N] {
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
pub(crate) const fn incomplete_limits<const N: usize>() -> [u8; N] {
    let mut out = [0xFFu8; N];
    out[N - 3] = LAST_THREE_LIMITS[0];
    out[N - 2] = LAST_THREE_LIMITS[1];
    out[N - 1] = LAST_THREE_LIMITS[2];
    out
}

/// For each mask of supplementary lanes among four 32-bit lanes that hold
/// a unit, or a pair (high surrogate low): a byte shuffle (`PSHUFB`, `TBL`) that packs
/// each lane's units to the front, in order.
pub(crate) static PAIR_UNITS: [[u8; 16]; 16] = {
    let mut table = [[0x80u8; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut n, mut lane) = (0, 0);
        while lane < 4 {
            let units = if mask >> lane & 1 != 0 { 2 } else { 1 };
            let mut b = 0;
            while b < 2 * units {
                table[mask][n] = (4 * lane + b) as u8;
                n += 1;
                b += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// For a mask of which of 8 bytes to keep: their indices, packed to the
/// front, then `0x80` (a zero byte); and the same plus 8, for the upper
/// half of a 128-bit lane (the Latin-1 decoders of every tier drop continuation bytes
/// with them, 8 bytes at a time).
pub(crate) static KEEP_BYTES: [[[u8; 8]; 256]; 2] = [keep_bytes(0), keep_bytes(8)];

const fn keep_bytes(base: u8) -> [[u8; 8]; 256] {
    let mut table = [[0x80u8; 8]; 256];
    let mut key = 0;
    while key < 256 {
        let (mut n, mut k) = (0, 0);
        while k < 8 {
            if key >> k & 1 != 0 {
                table[key][n] = base + k as u8;
                n += 1;
            }
            k += 1;
        }
        key += 1;
    }
    table
}

/// For two groups of `n2` and `n3` bytes (at index `9 * n2 + n3`), packed
/// to the front of a vector's halves by [`KEEP_BYTES`] rows: the indices of their last 8 bytes
/// together (zero bytes where the groups have fewer than 8).
pub(crate) static KEEP_TAIL: [[u8; 8]; 81] = {
    let mut table = [[0x80u8; 8]; 81];
    let mut n2 = 0;
    while n2 <= 8 {
        let mut n3 = 0;
        while n3 <= 8 {
            let mut j = 0;
            while j < 8 {
                // Byte `q` of the two groups, counted from the first.
                if n2 + n3 + j >= 8 {
                    let q = n2 + n3 + j - 8;
                    table[9 * n2 + n3][j] = if q < n2 { q } else { 8 + q - n2 } as u8;
                }
                j += 1;
            }
            n3 += 1;
        }
        n2 += 1;
    }
    table
};

/// Two CESU-8 surrogate pairs (`ED A0..AF xx ED B0..BF xx`, 12 bytes): the
/// bits of each byte that the pattern fixes, then their values; the last
/// four bytes are not tested (mask and value 0). The pair kernels of SSE4.2
/// and NEON test 16 loaded bytes against them at once.
pub(crate) const PAIRS_MASK: [u8; 16] = [
    0xFF, 0xF0, 0xC0, 0xFF, 0xF0, 0xC0, 0xFF, 0xF0, 0xC0, 0xFF, 0xF0, 0xC0, 0, 0, 0, 0,
];
pub(crate) const PAIRS_PATTERN: [u8; 16] = [
    0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80, 0, 0, 0, 0,
];
/// A byte shuffle (`PSHUFB`, `TBL`) putting the two payload bytes of each
/// of those four 3-byte halves in a 16-bit lane, last byte lowest (as the
/// decoders' lanes hold a character's bytes); 0x80 gives 0.
pub(crate) const PAIRS_HALVES: [u8; 16] = [
    2, 1, 5, 4, 8, 7, 11, 10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
];
