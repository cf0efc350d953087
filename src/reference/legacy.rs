//! Single-byte fallbacks for bytes that are not UTF-8.

/// windows-1252 bytes 80..9F as the WHATWG Encoding Standard maps them; the
/// five bytes Microsoft leaves undefined (81, 8D, 8F, 90, 9D) map to the C1
/// control of the same value, so every byte has a character and none is lost.
const CP1252_80_9F: [u16; 32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, //
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, //
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, //
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
];

/// The character windows-1252 gives byte `b`.
#[inline]
pub fn cp1252(b: u8) -> u32 {
    match b {
        0x80..=0x9F => CP1252_80_9F[(b - 0x80) as usize] as u32,
        _ => b as u32,
    }
}

/// The UTF-8B escape for byte `b`: U+DC80..U+DCFF for the bytes that can be
/// ill-formed in RFC 3629, which are never ASCII, and U+DC00 for the one
/// ASCII byte Modified UTF-8 refuses, 00.
#[inline]
pub fn escape(b: u8) -> u32 {
    0xDC00 | b as u32
}

/// The byte that `unit` escapes, if it is one [`escape`] makes: U+DC80..
/// U+DCFF, and with `zero` (Modified UTF-8, where 00 is ill-formed) also
/// U+DC00.
#[inline]
pub fn unescape(unit: u32, zero: bool) -> Option<u8> {
    ((0xDC80..=0xDCFF).contains(&unit) || zero && unit == 0xDC00).then_some(unit as u8)
}
