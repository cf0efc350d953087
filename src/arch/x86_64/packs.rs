//! `pshufb` patterns that pack the UTF-8 bytes of four characters, each
//! built in a 4-byte slot, to the front of a 16-byte lane: shared by the
//! encoders of the SSE and AVX2 tiers.

/// For a key holding the lengths minus one of four characters (2 bits each,
/// the first lowest): the byte indices, in a 16-byte lane of four 4-byte
/// slots, of the bytes they use (`4-n .. 4` of slot `j` for length `n`),
/// packed to the front; `0x80` (a zero byte) after them.
pub(super) static COMPACT: [[u8; 16]; 256] = compact_table(false, &LAST_BYTES);

/// For keys whose 2-bit fields count the bytes past the first in unary
/// (`00`, `01`, `11` for lengths 1, 2, 3; `10` does not occur), so that a
/// lane's length is 4 plus the key's population count: the byte indices of
/// the characters' bytes in slots laid out as [`BMP_BYTES`] says, packed to
/// the front.
pub(super) static COMPACT_BMP: [[u8; 16]; 256] = compact_table(true, &BMP_BYTES);

/// Where a character's bytes lie in its 4-byte slot, in order, by length:
/// the last `n` bytes (the AVX2 encoder's any-length block),
const LAST_BYTES: [&[usize]; 4] = [&[3], &[2, 3], &[1, 2, 3], &[0, 1, 2, 3]];
/// or the layout of simdutf's UTF-16 encoder, which the blocks of
/// 1- to 3-byte characters use: byte 0 the ASCII character, 1 the last
/// byte of a longer one, 2 a 3-byte lead, 3 a 2-byte lead or the middle
/// byte of 3.
const BMP_BYTES: [&[usize]; 4] = [&[0], &[3, 1], &[2, 3, 1], &[]];

const fn compact_table(unary: bool, layout: &[&[usize]; 4]) -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut n = 0;
        let mut slot = 0;
        while slot < 4 {
            let field = (key >> (2 * slot)) & 3;
            let len = if unary {
                [1, 2, 3, 3][field]
            } else {
                field + 1
            };
            let bytes = layout[len - 1];
            let mut k = 0;
            while k < bytes.len() {
                table[key][n] = (4 * slot + bytes[k]) as u8;
                n += 1;
                k += 1;
            }
            slot += 1;
        }
        key += 1;
    }
    table
}
