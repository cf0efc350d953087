//! Line and column of a byte offset, kept up to date at memory speed.
//!
//! Errors are reported as FILE:LINE:COLUMN, so every command that reports
//! one has to know how many lines and characters come before it. Walking
//! each valid byte for that costs five times what validating it does;
//! instead, each stretch of valid text is passed over with three vector
//! loops: the newlines counted, the last one found (`memrchr`), and the
//! characters after it counted by the library (`u8x::count_valid`). In a
//! regular file even that is left until an error is found ([`Locator`]).
//!
//! In a UTF-8 dialect (`--dialect`) every character still has exactly one
//! byte that is not a continuation byte (80..BF), but for CESU-8's and
//! Modified UTF-8's pairs: there a character above U+FFFF is two 3-byte
//! surrogates, and the second one's lead (ED followed by B0..BF, never
//! valid on its own there) is taken off the count.

use std::fs::File;
use std::io;

use u8x::Dialect;

use crate::dialect::has_pairs;
use crate::stream::CHUNK;
use crate::Failure;

/// Line and column of the next character, both counted from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub line: u64,
    pub column: u64,
}

impl Position {
    /// Moves past `valid`, which is well-formed UTF-8 in `dialect`: lines
    /// end at 0x0A, columns count code points. In CESU-8 and Modified
    /// UTF-8, `valid` must not end between the lead of a low surrogate and
    /// its second byte.
    pub fn advance(&mut self, dialect: Dialect, valid: &[u8]) {
        match memchr::memrchr(b'\n', valid) {
            Some(last) => {
                self.line += count_newlines(&valid[..last]) + 1;
                self.column = count_chars(dialect, &valid[last + 1..]);
            }
            None => self.column += count_chars(dialect, valid),
        }
    }

    /// Moves past one ill-formed sequence, which counts as one character
    /// (the U+FFFD it would be replaced by) and never holds a newline.
    pub fn skip_bad(&mut self) {
        self.column += 1;
    }
}

/// The code points in `valid`, well-formed in `dialect`: its bytes that are
/// not continuation bytes, less the second halves of CESU-8 pairs.
fn count_chars(dialect: Dialect, valid: &[u8]) -> u64 {
    let leads = u8x::count_valid(valid) as u64;
    if !has_pairs(dialect) {
        return leads;
    }
    let low = |&i: &usize| matches!(valid.get(i + 1), Some(0xB0..=0xBF));
    leads - memchr::memchr_iter(0xED, valid).filter(low).count() as u64
}

/// Finds the line and column of errors in a regular file by reading it
/// again from the previous error (or the start) to the next one: a valid
/// file is read once, and positions cost only when there are errors.
pub struct Locator<'f> {
    file: &'f File,
    dialect: Dialect,
    /// Where `at` is: the byte after the last error located.
    offset: u64,
    at: Position,
    buf: Vec<u8>,
}

impl<'f> Locator<'f> {
    /// A locator for `file`, which is UTF-8 in `dialect`.
    pub fn new(file: &'f File, dialect: Dialect) -> Self {
        Locator {
            file,
            dialect,
            offset: 0,
            at: Position::default(),
            buf: vec![0; CHUNK],
        }
    }

    /// The position of the error at `offset`, `len` bytes long; everything
    /// between the last error and it is valid UTF-8.
    fn locate(&mut self, offset: u64, len: usize) -> io::Result<Position> {
        while self.offset < offset {
            // Pieces may cut a character: `advance` counts each character
            // by its first byte, and newlines are single bytes. A CESU-8
            // low surrogate is known by its first two bytes: a piece does
            // not end between them.
            let left = offset - self.offset;
            let mut n = left.min(self.buf.len() as u64) as usize;
            crate::files::read_exact_at(self.file, &mut self.buf[..n], self.offset)?;
            if has_pairs(self.dialect) && (n as u64) < left && self.buf[n - 1] == 0xED {
                n -= 1;
            }
            self.at.advance(self.dialect, &self.buf[..n]);
            self.offset += n as u64;
        }
        let at = self.at;
        self.at.skip_bad();
        self.offset = offset + len as u64;
        Ok(at)
    }
}

/// How the position of an error is known.
pub enum Place<'f> {
    /// Not needed (`-q`, `-l`).
    Unknown,
    /// Kept up to date over every valid byte (a stream read once), which
    /// is UTF-8 in this dialect.
    Tracked(Position, Dialect),
    /// Found when an error is (a regular file).
    Located(Locator<'f>),
}

impl Place<'_> {
    pub fn valid(&mut self, bytes: &[u8]) {
        if let Place::Tracked(at, dialect) = self {
            at.advance(*dialect, bytes);
        }
    }

    /// The position of an error at `offset`, `len` bytes long, met after
    /// every byte before it was passed to [`Place::valid`].
    pub fn error(&mut self, offset: u64, len: usize) -> Result<Position, Failure> {
        Ok(match self {
            Place::Unknown => Position::default(),
            Place::Tracked(at, _) => {
                let here = *at;
                at.skip_bad();
                here
            }
            Place::Located(locator) => locator.locate(offset, len).map_err(Failure::Input)?,
        })
    }
}

/// The number of 0x0A bytes in `bytes`. Per 255 blocks of 64 bytes the
/// counts are summed in `u8` lanes, which the compiler turns into vector
/// compares and subtractions; memchr's iterator pays per match instead.
pub fn count_newlines(bytes: &[u8]) -> u64 {
    const LANES: usize = 64;
    let mut total = 0u64;
    let mut blocks = bytes.chunks_exact(LANES * 255);
    for block in &mut blocks {
        let mut sums = [0u8; LANES];
        for group in block.chunks_exact(LANES) {
            for (sum, &b) in sums.iter_mut().zip(group) {
                *sum += u8::from(b == b'\n');
            }
        }
        total += sums.iter().map(|&s| u64::from(s)).sum::<u64>();
    }
    let rest = blocks.remainder();
    total + rest.iter().filter(|&&b| b == b'\n').count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_counts_lines_and_code_points() {
        let mut at = Position::default();
        at.advance(Dialect::Standard, "aé€😀".as_bytes());
        assert_eq!(at, Position { line: 0, column: 4 });
        at.advance(Dialect::Standard, "x\n\nyé".as_bytes());
        assert_eq!(at, Position { line: 2, column: 2 });
        at.advance(Dialect::Standard, b"\n");
        assert_eq!(at, Position { line: 3, column: 0 });
    }

    #[test]
    fn position_counts_a_cesu_8_pair_as_one_code_point() {
        // "a😀b" in CESU-8: D83D DE00 as ED A0 BD ED B8 80; U+D55C (ED 95 9C)
        // and a lone-looking ED B0 80 in generalized UTF-8 are one each.
        let cesu = b"a\xED\xA0\xBD\xED\xB8\x80b\xED\x95\x9C";
        for (dialect, column) in [(Dialect::Cesu8, 4), (Dialect::Mutf8, 4)] {
            let mut at = Position::default();
            at.advance(dialect, cesu);
            assert_eq!(at, Position { line: 0, column }, "{dialect:?}");
        }
        let mut at = Position::default();
        at.advance(
            Dialect::Generalized,
            b"\xED\xA0\xBD\xED\xB8\x80\n\xED\xB0\x80",
        );
        assert_eq!(at, Position { line: 1, column: 1 });
    }

    #[test]
    fn newlines_counted_at_every_length_and_place() {
        // Lengths around the 64-byte groups and the 255-group blocks, with
        // newlines at every 7th byte and a full block of them (255 * 64
        // newlines would overflow a u8 lane if the blocks were longer).
        for len in [
            0,
            1,
            63,
            64,
            65,
            64 * 255 - 1,
            64 * 255,
            64 * 255 + 1,
            3 * 64 * 255 + 17,
        ] {
            let sparse: Vec<u8> = (0..len)
                .map(|i| if i % 7 == 3 { b'\n' } else { b'a' })
                .collect();
            let expected = sparse.iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(count_newlines(&sparse), expected, "sparse {len}");
            let dense = vec![b'\n'; len];
            assert_eq!(count_newlines(&dense), len as u64, "dense {len}");
        }
    }
}
