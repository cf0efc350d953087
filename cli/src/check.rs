//! `u8x check`: report where files stop being UTF-8.

use std::ffi::OsString;
use std::io::{self, Read, Write};

use u8x::Status;

use crate::stream::{describe_io, Chunks, Source};
use crate::{describe, hex, Failure};

/// Line and column of the next character, both counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    line: u64,
    column: u64,
}

impl Position {
    /// Moves past `valid`, which is well-formed UTF-8: lines end at 0x0A,
    /// columns count code points (bytes that are not continuation bytes).
    fn advance(&mut self, valid: &[u8]) {
        fn chars(bytes: &[u8]) -> u64 {
            bytes.iter().filter(|&&b| (b as i8) >= -64).count() as u64
        }
        match valid.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                self.line += valid[..=last].iter().filter(|&&b| b == b'\n').count() as u64;
                self.column = chars(&valid[last + 1..]);
            }
            None => self.column += chars(valid),
        }
    }
}

/// What checking one input found.
enum Verdict {
    Valid,
    Invalid,
}

/// Runs `u8x check` on `files` (standard input if empty) and returns the exit
/// status: 0 all valid, 1 some invalid, 2 some could not be read.
pub fn run(files: &[OsString], all: bool, quiet: bool) -> Result<u8, Failure> {
    let stdin = [OsString::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut status = 0;
    for file in files {
        let source = Source::from_arg(file);
        let name = source.name();
        let result = match source.open() {
            Ok(input) => check(input.reader, &name, all, quiet, &mut out),
            Err(e) => Err(Failure::Input(e)),
        };
        match result {
            Ok(Verdict::Valid) => {}
            Ok(Verdict::Invalid) => status = status.max(1),
            Err(Failure::Input(e)) => {
                // Keep the reports and the message in order on a terminal.
                out.flush().map_err(Failure::Output)?;
                eprintln!("u8x: {name}: {}", describe_io(&e));
                status = 2;
            }
            Err(other) => return Err(other),
        }
    }
    out.flush().map_err(Failure::Output)?;
    Ok(status)
}

/// Checks one input, writing a line per reported error to `out`.
fn check(
    input: impl Read,
    name: &str,
    all: bool,
    quiet: bool,
    out: &mut impl Write,
) -> Result<Verdict, Failure> {
    let mut chunks = Chunks::new(input);
    let mut at = Position { line: 0, column: 0 };
    let mut verdict = Verdict::Valid;
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let data = chunk.data;
        let mut pos = 0;
        while pos < data.len() {
            let p = u8x::validate_chunk(&data[pos..], chunk.more);
            at.advance(&data[pos..pos + p.read]);
            pos += p.read;
            let e = match p.status {
                Status::IllFormed(e) => e,
                // Done, or a sequence cut by the chunk end: it is carried
                // into the next chunk.
                _ => break,
            };
            verdict = Verdict::Invalid;
            if quiet {
                return Ok(verdict);
            }
            let bad = &data[pos..pos + e.len as usize];
            writeln!(
                out,
                "{name}:{}:{}: byte offset {}: {} (bytes {})",
                at.line + 1,
                at.column + 1,
                chunk.offset + pos as u64,
                describe(e.kind),
                hex(bad)
            )
            .map_err(Failure::Output)?;
            if !all {
                return Ok(verdict);
            }
            // Resume after the maximal subpart, which counts as one character
            // (the U+FFFD it would be replaced by) and never holds a newline.
            at.column += 1;
            pos += bad.len();
        }
        chunks.consume(pos);
    }
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_counts_lines_and_code_points() {
        let mut at = Position { line: 0, column: 0 };
        at.advance("aé€😀".as_bytes());
        assert_eq!(at, Position { line: 0, column: 4 });
        at.advance("x\n\nyé".as_bytes());
        assert_eq!(at, Position { line: 2, column: 2 });
        at.advance(b"\n");
        assert_eq!(at, Position { line: 3, column: 0 });
    }

    fn report(input: &[u8], all: bool) -> String {
        let mut out = Vec::new();
        check(input, "f", all, false, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn reports() {
        assert_eq!(report(b"ok\n", true), "");
        assert_eq!(
            report(b"ab\ncd\xC0\xAFe\xE2\x82", true),
            "f:2:3: byte offset 5: byte never valid in UTF-8 (bytes C0)\n\
             f:2:4: byte offset 6: unexpected continuation byte (bytes AF)\n\
             f:2:6: byte offset 8: input ends inside a sequence (bytes E2 82)\n"
        );
        assert_eq!(
            report(b"\xED\xA0\x80", false),
            "f:1:1: byte offset 0: surrogate (bytes ED)\n"
        );
    }
}
