//! Line and column of a byte offset, kept up to date at memory speed.
//!
//! Errors are reported as FILE:LINE:COLUMN, so every command that reports
//! one has to know how many lines and characters come before it. Walking
//! each valid byte for that costs five times what validating it does;
//! instead, each stretch of valid text is passed over with three vector
//! loops: the newlines counted, the last one found (`memrchr`), and the
//! characters after it counted by the library (`u8x::count_valid`). In a
//! regular file even that is left until an error is found ([`Locator`]).

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use crate::stream::CHUNK;
use crate::Failure;

/// Line and column of the next character, both counted from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub line: u64,
    pub column: u64,
}

impl Position {
    /// Moves past `valid`, which is well-formed UTF-8: lines end at 0x0A,
    /// columns count code points.
    pub fn advance(&mut self, valid: &[u8]) {
        match memchr::memrchr(b'\n', valid) {
            Some(last) => {
                self.line += count_newlines(&valid[..last]) + 1;
                self.column = u8x::count_valid(&valid[last + 1..]) as u64;
            }
            None => self.column += u8x::count_valid(valid) as u64,
        }
    }

    /// Moves past one ill-formed sequence, which counts as one character
    /// (the U+FFFD it would be replaced by) and never holds a newline.
    pub fn skip_bad(&mut self) {
        self.column += 1;
    }
}

/// Finds the line and column of errors in a regular file by reading it
/// again from the previous error (or the start) to the next one: a valid
/// file is read once, and positions cost only when there are errors.
pub struct Locator<'f> {
    file: &'f File,
    /// Where `at` is: the byte after the last error located.
    offset: u64,
    at: Position,
    buf: Vec<u8>,
}

impl<'f> Locator<'f> {
    pub fn new(file: &'f File) -> Self {
        Locator {
            file,
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
            // by its first byte, and newlines are single bytes.
            let n = (offset - self.offset).min(self.buf.len() as u64) as usize;
            self.file.read_exact_at(&mut self.buf[..n], self.offset)?;
            self.at.advance(&self.buf[..n]);
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
    /// Kept up to date over every valid byte (a stream read once).
    Tracked(Position),
    /// Found when an error is (a regular file).
    Located(Locator<'f>),
}

impl Place<'_> {
    pub fn valid(&mut self, bytes: &[u8]) {
        if let Place::Tracked(at) = self {
            at.advance(bytes);
        }
    }

    /// The position of an error at `offset`, `len` bytes long, met after
    /// every byte before it was passed to [`Place::valid`].
    pub fn error(&mut self, offset: u64, len: usize) -> Result<Position, Failure> {
        Ok(match self {
            Place::Unknown => Position::default(),
            Place::Tracked(at) => {
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
        at.advance("aé€😀".as_bytes());
        assert_eq!(at, Position { line: 0, column: 4 });
        at.advance("x\n\nyé".as_bytes());
        assert_eq!(at, Position { line: 2, column: 2 });
        at.advance(b"\n");
        assert_eq!(at, Position { line: 3, column: 0 });
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
