//! `u8x fix`, `u8x decode` and `u8x encode`: one input to one output, a chunk
//! at a time.

use std::io::{Read, Write};

use u8x::{EncodePolicy, Policy, Status};

use crate::stream::{Chunks, CHUNK};
use crate::Failure;

/// How `fix` writes an ill-formed sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixPolicy {
    /// As the library decodes it under this policy (replace, latin1, cp1252).
    Decode(Policy),
    /// Each byte as the ASCII text `\xHH` (Python's "backslashreplace").
    Backslash,
}

/// Copies `input` to `out`, rewriting each ill-formed sequence under `policy`.
/// Returns the number of ill-formed sequences (maximal subparts) rewritten.
pub fn fix(input: impl Read, out: &mut impl Write, policy: FixPolicy) -> Result<u64, Failure> {
    let mut chunks = Chunks::new(input);
    let mut fixed = 0u64;
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let data = chunk.data;
        let mut pos = 0;
        while pos < data.len() {
            let p = u8x::validate_chunk(&data[pos..], chunk.more);
            // Well-formed UTF-8 decodes and re-encodes to itself: copy it.
            out.write_all(&data[pos..pos + p.read])
                .map_err(Failure::Output)?;
            pos += p.read;
            let Status::IllFormed(e) = p.status else {
                break; // Done, or a cut sequence carried into the next chunk.
            };
            let bad = &data[pos..pos + e.len as usize];
            write_fixed(bad, policy, out).map_err(Failure::Output)?;
            fixed += 1;
            pos += bad.len();
        }
        chunks.consume(pos);
    }
    Ok(fixed)
}

/// Writes the valid UTF-8 that replaces one maximal subpart `bad`.
fn write_fixed(bad: &[u8], policy: FixPolicy, out: &mut impl Write) -> std::io::Result<()> {
    match policy {
        FixPolicy::Backslash => {
            for b in bad {
                write!(out, "\\x{b:02X}")?;
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

/// How `decode` ended.
pub enum Decoded {
    Done,
    /// Strict policy: the input is ill-formed at this byte offset.
    IllFormed {
        offset: u64,
        kind: u8x::ErrorKind,
    },
}

/// Decodes UTF-8 from `input` to UTF-32LE on `out` under `policy`.
pub fn decode(input: impl Read, out: &mut impl Write, policy: Policy) -> Result<Decoded, Failure> {
    let mut chunks = Chunks::new(input);
    // One code point per byte at most, four bytes each.
    let mut units = vec![0u32; CHUNK];
    let mut bytes = Vec::with_capacity(4 * CHUNK);
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let p = u8x::decode_ucs4(chunk.data, &mut units, policy, chunk.more);
        bytes.clear();
        bytes.extend(units[..p.written].iter().flat_map(|u| u.to_le_bytes()));
        out.write_all(&bytes).map_err(Failure::Output)?;
        if let Status::IllFormed(e) = p.status {
            return Ok(Decoded::IllFormed {
                offset: chunk.offset + p.read as u64,
                kind: e.kind,
            });
        }
        // Done, Incomplete (the cut sequence is carried over) or OutputFull
        // (cannot happen with this much room; resumes where it stopped).
        chunks.consume(p.read);
    }
    Ok(Decoded::Done)
}

/// How `encode` ended.
pub enum Encoded {
    Done,
    /// The unit at this index is not allowed by the policy.
    Invalid {
        index: u64,
        value: u32,
        kind: u8x::ErrorKind,
    },
    /// The input length is not a multiple of 4.
    BadLength {
        len: u64,
    },
}

/// Encodes UTF-32LE from `input` to UTF-8 on `out` under `policy`.
pub fn encode(
    input: impl Read,
    out: &mut impl Write,
    policy: EncodePolicy,
) -> Result<Encoded, Failure> {
    let mut chunks = Chunks::new(input);
    let mut units = vec![0u32; CHUNK / 4];
    let mut bytes = vec![0u8; CHUNK];
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let whole = chunk.data.len() / 4;
        for (unit, le) in units.iter_mut().zip(chunk.data.chunks_exact(4)) {
            *unit = u32::from_le_bytes([le[0], le[1], le[2], le[3]]);
        }
        let src = &units[..whole];
        let mut done = 0;
        while done < src.len() {
            let p = u8x::encode(&src[done..], &mut bytes, policy);
            out.write_all(&bytes[..p.written])
                .map_err(Failure::Output)?;
            done += p.read;
            if let Status::IllFormed(e) = p.status {
                return Ok(Encoded::Invalid {
                    index: chunk.offset / 4 + done as u64,
                    value: src[done],
                    kind: e.kind,
                });
            }
        }
        let consumed = 4 * whole;
        if !chunk.more && consumed < chunk.data.len() {
            return Ok(Encoded::BadLength {
                len: chunk.offset + chunk.data.len() as u64,
            });
        }
        chunks.consume(consumed);
    }
    Ok(Encoded::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(input: &[u8], policy: FixPolicy) -> (String, u64) {
        let mut out = Vec::new();
        let n = fix(input, &mut out, policy).unwrap();
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
            fixed(input, FixPolicy::Backslash),
            ("a\\xE2\\x82b\\x80\\x9D\\xF0\\x9F".to_string(), 4)
        );
    }

    #[test]
    fn decode_then_encode_escape_round_trips() {
        let input: Vec<u8> = (0..=255u8).cycle().take(3 * CHUNK + 7).collect();
        let mut utf32 = Vec::new();
        assert!(matches!(
            decode(&input[..], &mut utf32, Policy::Escape).unwrap(),
            Decoded::Done
        ));
        let mut back = Vec::new();
        assert!(matches!(
            encode(&utf32[..], &mut back, EncodePolicy::Escape).unwrap(),
            Encoded::Done
        ));
        assert_eq!(back, input);
    }
}
