//! `u8x fix`: well-formed UTF-8 copied, each ill-formed sequence rewritten,
//! from a stream or, with `-j`, from the blocks of a file on several
//! threads, with the same output.

use std::fs::File;
use std::io::{Read, Write};
use std::ops::ControlFlow;

use u8x::{EncodePolicy, Policy, Status, Utf8Error};

use crate::parallel;
use crate::progress::Progress;
use crate::scan::{scan, Visitor};
use crate::stream::Chunks;
use crate::Failure;

/// How `fix` writes an ill-formed sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixPolicy {
    /// As the library decodes it under this policy (replace, latin1, cp1252,
    /// ignore).
    Decode(Policy),
    /// Each byte as the ASCII text `\xhh` (Python's "backslashreplace").
    Backslash,
}

/// Copies well-formed UTF-8 and rewrites each maximal subpart: the visitor
/// behind `fix`, for a stream or for one block of a file.
struct Fixer<'a, W> {
    out: &'a mut W,
    policy: FixPolicy,
    fixed: u64,
}

impl<W: Write> Visitor for Fixer<'_, W> {
    fn valid(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        // Well-formed UTF-8 decodes and re-encodes to itself: copy it.
        self.out.write_all(bytes).map_err(Failure::Output)
    }

    fn bad(&mut self, _: usize, _: Utf8Error, bytes: &[u8]) -> Result<ControlFlow<()>, Failure> {
        self.fixed += 1;
        write_fixed(bytes, self.policy, self.out).map_err(Failure::Output)?;
        Ok(ControlFlow::Continue(()))
    }
}

/// Copies `input` to `out`, rewriting each ill-formed sequence under `policy`.
/// Returns the number of ill-formed sequences (maximal subparts) rewritten.
pub fn fix(
    mut chunks: Chunks<impl Read>,
    out: &mut impl Write,
    policy: FixPolicy,
    progress: &Progress,
) -> Result<u64, Failure> {
    let mut fixer = Fixer {
        out,
        policy,
        fixed: 0,
    };
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let (pos, _) = scan(chunk.data, chunk.data.len(), chunk.more, &mut fixer)?;
        progress.advance(pos as u64);
        chunks.consume(pos);
    }
    Ok(fixer.fixed)
}

/// Repairs one block into a buffer that does not grow: past `cap` bytes it
/// stops, and the block is left to the main thread.
struct BlockFixer {
    out: Vec<u8>,
    cap: usize,
    policy: FixPolicy,
    fixed: u64,
    full: bool,
}

/// Room past `cap` for the last repair written (at most 4 bytes of
/// `\xhh` for each of a maximal subpart's bytes).
const SLACK: usize = 64;

impl Visitor for BlockFixer {
    fn valid(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        if self.out.len() + bytes.len() > self.cap {
            self.full = true;
        }
        if !self.full {
            self.out.extend_from_slice(bytes);
        }
        Ok(())
    }

    fn bad(&mut self, _: usize, _: Utf8Error, bytes: &[u8]) -> Result<ControlFlow<()>, Failure> {
        if !self.full {
            self.fixed += 1;
            write_fixed(bytes, self.policy, &mut self.out).map_err(Failure::Output)?;
            self.full = self.out.len() > self.cap;
        }
        Ok(match self.full {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        })
    }
}

/// What a worker made of its block.
enum Repaired {
    /// The repaired block, and how many sequences it repaired.
    Done(Vec<u8>, u64),
    /// Its repair outgrew the buffer: to be repaired again as a stream.
    TooLarge(parallel::Span),
}

/// [`fix`] of a regular file on `threads` threads: each block is fixed into
/// a buffer of its own, of the block's size and an eighth, and the buffers
/// are written in file order. A block whose repair is larger than that
/// (text that is mostly errors: `escape` writes 4 bytes for each bad byte)
/// is read again and repaired by this thread straight into `out`, so memory
/// stays within 3 N + 1 such buffers whatever the input.
pub fn fix_parallel(
    file: &File,
    size: u64,
    threads: usize,
    out: &mut impl Write,
    policy: FixPolicy,
    progress: &Progress,
) -> Result<u64, Failure> {
    let work = |block: parallel::Block| {
        let cap = block.limit + block.limit / 8;
        let mut fixer = BlockFixer {
            out: Vec::with_capacity(cap + SLACK),
            cap,
            policy,
            fixed: 0,
            full: false,
        };
        let _ = scan(block.data, block.limit, block.more, &mut fixer)?;
        let repaired = match fixer.full {
            true => Repaired::TooLarge(block.span()),
            false => Repaired::Done(fixer.out, fixer.fixed),
        };
        Ok((repaired, block.limit as u64))
    };
    let mut fixed = 0;
    let mut buf = Vec::new();
    parallel::run(file, size, threads, work, |(repaired, len)| {
        progress.advance(len);
        match repaired {
            Repaired::Done(bytes, n) => {
                fixed += n;
                out.write_all(&bytes).map_err(Failure::Output)?;
            }
            Repaired::TooLarge(span) => {
                let block = parallel::read_span(file, &span, &mut buf)?;
                let mut fixer = Fixer {
                    out: &mut *out,
                    policy,
                    fixed: 0,
                };
                let _ = scan(block.data, block.limit, block.more, &mut fixer)?;
                fixed += fixer.fixed;
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(fixed)
}

/// Writes the valid UTF-8 that replaces one maximal subpart `bad`.
fn write_fixed(bad: &[u8], policy: FixPolicy, out: &mut impl Write) -> std::io::Result<()> {
    match policy {
        FixPolicy::Backslash => {
            for b in bad {
                write!(out, "\\x{b:02x}")?;
            }
            Ok(())
        }
        FixPolicy::Decode(policy) => {
            // A maximal subpart is a whole input that ends inside a sequence,
            // so decoding it alone gives what it decodes to in context.
            let mut units = [0u32; 3];
            let d = u8x::decode_ucs4(bad, &mut units, policy, false);
            let mut bytes = [0u8; 12];
            let e = u8x::encode(&units[..d.written], &mut bytes, EncodePolicy::Strict);
            assert!(
                d.status == Status::Done && e.status == Status::Done,
                "policy {policy:?} gave no scalar values for {bad:02X?}: {d:?}, {e:?}"
            );
            out.write_all(&bytes[..e.written])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(input: &[u8], policy: FixPolicy) -> (String, u64) {
        let mut out = Vec::new();
        let n = fix(Chunks::new(input), &mut out, policy, &Progress::none()).unwrap();
        (String::from_utf8(out).unwrap(), n)
    }

    #[test]
    fn fix_policies() {
        let input = b"a\xE2\x82b\x80\x9D\xF0\x9F";
        assert_eq!(
            fixed(input, FixPolicy::Decode(u8x::REPLACE)),
            ("a\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}".to_string(), 4)
        );
        assert_eq!(
            fixed(input, FixPolicy::Decode(Policy::Latin1)),
            ("a\u{E2}\u{82}b\u{80}\u{9D}\u{F0}\u{9F}".to_string(), 4)
        );
        assert_eq!(
            fixed(input, FixPolicy::Decode(Policy::Cp1252)),
            ("a\u{E2}\u{201A}b\u{20AC}\u{9D}\u{F0}\u{178}".to_string(), 4)
        );
        assert_eq!(
            fixed(input, FixPolicy::Decode(Policy::Ignore)),
            ("ab".to_string(), 4)
        );
        assert_eq!(
            fixed(input, FixPolicy::Backslash),
            ("a\\xe2\\x82b\\x80\\x9d\\xf0\\x9f".to_string(), 4)
        );
    }
}
