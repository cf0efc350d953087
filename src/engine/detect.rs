//! Which of UTF-8, UTF-16LE/BE and UTF-32LE/BE bytes of unknown encoding
//! are valid as, in one pass: the input is taken a chunk at a time, and
//! each encoding still possible validates that chunk (streaming, so a
//! sequence or pair cut by the chunk's end goes on in the next) while it
//! is in cache; an encoding that fails drops out, and the pass ends when
//! none is left. The UTF-16 and UTF-32 chunks are copied into aligned
//! buffers of units first, since the bytes need not be aligned.
//!
//! A byte order mark decides alone: only its encoding is considered, after
//! it (FF FE 00 00 is UTF-32LE's mark when what follows is UTF-32LE, and
//! otherwise UTF-16LE's mark and U+0000). Without one, the most likely
//! encoding is UTF-8 if the bytes are valid UTF-8 (ASCII is) with no NUL
//! byte, or valid as nothing else (UTF-16 and UTF-32 of ASCII text are
//! valid UTF-8, NULs and all); then UTF-32 (valid UTF-32 is rare by
//! chance: three of every four bytes are small); then UTF-16,
//! little-endian unless more units have a zero high byte read big-endian.

use crate::portable::convert::PairStats;
use crate::types::{ByteOrder, Detection, Encoding};
use crate::{Engine, Status};

/// Bytes a chunk holds.
const CHUNK: usize = 4096;

/// One encoding's progress through the input.
struct Candidate {
    encoding: Encoding,
    /// Bytes validated; the next chunk starts here.
    at: usize,
    alive: bool,
}

/// The byte order marks, longest first where one begins another.
const MARKS: [(&[u8], Encoding); 5] = [
    (b"\xEF\xBB\xBF", Encoding::Utf8),
    (b"\xFF\xFE\x00\x00", Encoding::Utf32Le),
    (b"\x00\x00\xFE\xFF", Encoding::Utf32Be),
    (b"\xFF\xFE", Encoding::Utf16Le),
    (b"\xFE\xFF", Encoding::Utf16Be),
];

impl Engine {
    /// See [`crate::detect_encoding`].
    pub fn detect_encoding(&self, src: &[u8]) -> Detection {
        for (mark, encoding) in MARKS {
            let Some(rest) = src.strip_prefix(mark) else {
                continue;
            };
            if self.valid_set(rest, &[encoding]).0 != 0 {
                return Detection {
                    valid: encoding.bit(),
                    likely: Some(encoding),
                    bom_len: mark.len(),
                };
            }
            // FF FE 00 00 not followed by UTF-32LE: try UTF-16LE's mark.
            if encoding != Encoding::Utf32Le {
                return Detection {
                    valid: 0,
                    likely: None,
                    bom_len: 0,
                };
            }
        }
        let (valid, zero_high) = self.valid_set(src, &Encoding::ALL);
        let is = |e: Encoding| valid & e.bit() != 0;
        // Text is rarely UTF-8 with NUL bytes in it; UTF-16 and UTF-32 of
        // ASCII are, and are valid UTF-8 too.
        let nul = zero_high.0 + zero_high.1 > 0;
        let utf8 = is(Encoding::Utf8) && !(nul && valid != Encoding::Utf8.bit());
        let likely = [Encoding::Utf32Le, Encoding::Utf32Be]
            .into_iter()
            .filter(|_| !utf8)
            .find(|&e| is(e))
            .or(utf8.then_some(Encoding::Utf8))
            .or(match (is(Encoding::Utf16Le), is(Encoding::Utf16Be)) {
                (true, true) if zero_high.1 > zero_high.0 => Some(Encoding::Utf16Be),
                (true, _) => Some(Encoding::Utf16Le),
                (false, true) => Some(Encoding::Utf16Be),
                (false, false) => None,
            });
        Detection {
            valid,
            likely,
            bom_len: 0,
        }
    }

    /// The encodings of `which` that `src` is valid as (a bit set), and
    /// how many of its 2-byte units have a zero high byte read
    /// little-endian and big-endian (counted while a UTF-16 reading is
    /// possible).
    fn valid_set(&self, src: &[u8], which: &[Encoding]) -> (u32, (usize, usize)) {
        let mut candidates: [Candidate; 5] = Encoding::ALL.map(|encoding| Candidate {
            encoding,
            at: 0,
            alive: which.contains(&encoding) && src.len().is_multiple_of(encoding.unit()),
        });
        let mut zero_high = (0, 0);
        let mut units = Units {
            u16s: [0; CHUNK / 2 + 1],
            u32s: [0; CHUNK / 4],
        };
        let convert = self.kernels.loops().convert();
        let mut start = 0;
        while candidates.iter().any(|c| c.alive && c.at < src.len()) {
            let end = src.len().min(start + CHUNK);
            // One pass over the chunk's byte pairs: a UTF-16 reading with
            // no surrogate in the chunk is valid there without converting
            // a unit (chunks start at even offsets).
            let stats = if candidates[1].alive || candidates[2].alive {
                convert.utf16_byte_stats(&src[start..end])
            } else {
                PairStats::default()
            };
            zero_high.0 += stats.zero_high[0];
            zero_high.1 += stats.zero_high[1];
            for c in candidates.iter_mut().filter(|c| c.alive && c.at < end) {
                let side = usize::from(c.encoding == Encoding::Utf16Be);
                let utf16 = matches!(c.encoding, Encoding::Utf16Le | Encoding::Utf16Be);
                if utf16 && c.at == start && !stats.surrogates[side] {
                    c.at = end;
                    continue;
                }
                c.alive = self.validate_part(c, src, end, &mut units);
            }
            start = end;
        }
        let valid = candidates
            .iter()
            .filter(|c| c.alive)
            .fold(0, |bits, c| bits | c.encoding.bit());
        (valid, zero_high)
    }

    /// Validates `c`'s encoding from where it stands up to about `end`;
    /// whether it is still possible.
    fn validate_part(&self, c: &mut Candidate, src: &[u8], end: usize, units: &mut Units) -> bool {
        let last = end == src.len();
        match c.encoding {
            Encoding::Utf8 => {
                let p = self.validate_chunk(&src[c.at..end], !last);
                c.at += p.read;
                matches!(p.status, Status::Done | Status::Incomplete { .. })
            }
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let order = if c.encoding == Encoding::Utf16Le {
                    ByteOrder::Little
                } else {
                    ByteOrder::Big
                };
                // A high surrogate carried from the chunk before, and this
                // chunk: at most CHUNK / 2 + 1 units.
                let bytes = &src[c.at..end];
                let n = bytes.len() / 2;
                for (u, b) in units.u16s.iter_mut().zip(bytes.chunks_exact(2)) {
                    *u = u16::from_ne_bytes([b[0], b[1]]);
                }
                let p = self.validate_utf16(&units.u16s[..n], order, !last);
                c.at += 2 * p.read;
                // Incomplete: a high surrogate ends the chunk; it is read
                // again with the next.
                matches!(p.status, Status::Done | Status::Incomplete { .. })
            }
            Encoding::Utf32Le | Encoding::Utf32Be => {
                let order = if c.encoding == Encoding::Utf32Le {
                    ByteOrder::Little
                } else {
                    ByteOrder::Big
                };
                let bytes = &src[c.at..end];
                let n = bytes.len() / 4;
                for (u, b) in units.u32s.iter_mut().zip(bytes.chunks_exact(4)) {
                    *u = u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
                }
                c.at += 4 * n;
                self.validate_ucs4(&units.u32s[..n], order).status == Status::Done
            }
        }
    }
}

/// A chunk's units, as the validators take them (the bytes need not be
/// aligned): made once for a whole detection.
struct Units {
    u16s: [u16; CHUNK / 2 + 1],
    u32s: [u32; CHUNK / 4],
}
