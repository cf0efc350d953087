//! `u8x fix`, `u8x decode` and `u8x encode`: one input to one output, a chunk
//! at a time.

use std::io::{Read, Write};

use u8x::{ByteOrder, EncodePolicy, Latin1Policy, Policy, Progress, Status};

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

/// A form of Unicode text other than UTF-8: what `decode` writes and
/// `encode` reads. None has a byte order mark; one in the text is a
/// character like any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Utf32Le,
    Utf16Le,
    Utf16Be,
    Latin1,
}

impl Form {
    /// The names `--to` and `--from` take, as a usage message lists them.
    pub const NAMES: &'static str = "utf-32le, utf-16le, utf-16be, latin1";

    /// The form a `--to` or `--from` value names (ASCII case ignored).
    pub fn parse(name: &str) -> Option<Form> {
        [Form::Utf32Le, Form::Utf16Le, Form::Utf16Be, Form::Latin1]
            .into_iter()
            .find(|f| name.eq_ignore_ascii_case(f.option_name()))
    }

    /// The name as `--to` and `--from` take it.
    pub fn option_name(self) -> &'static str {
        match self {
            Form::Utf32Le => "utf-32le",
            Form::Utf16Le => "utf-16le",
            Form::Utf16Be => "utf-16be",
            Form::Latin1 => "latin1",
        }
    }

    /// The name as messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Form::Utf32Le => "UTF-32LE",
            Form::Utf16Le => "UTF-16LE",
            Form::Utf16Be => "UTF-16BE",
            Form::Latin1 => "Latin-1",
        }
    }

    /// Bytes per code unit.
    pub fn unit_bytes(self) -> usize {
        match self {
            Form::Utf32Le => 4,
            Form::Utf16Le | Form::Utf16Be => 2,
            Form::Latin1 => 1,
        }
    }

    /// The unit at the start of `bytes` (at least one unit long).
    fn unit(self, bytes: &[u8]) -> u32 {
        match self {
            Form::Utf32Le => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            Form::Utf16Le => u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
            Form::Utf16Be => u32::from(u16::from_be_bytes([bytes[0], bytes[1]])),
            Form::Latin1 => u32::from(bytes[0]),
        }
    }

    /// The library's byte order for a UTF-16 form.
    fn order(self) -> ByteOrder {
        match self {
            Form::Utf16Be => ByteOrder::Big,
            _ => ByteOrder::Little,
        }
    }
}

/// What `decode` writes, and what it does with what it cannot decode or
/// write. The policy applies to ill-formed UTF-8, and for Latin-1 also to
/// characters above U+00FF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeTo {
    Utf32Le(Policy),
    /// UTF-16 in this form (`Utf16Le` or `Utf16Be`).
    Utf16(Form, Policy),
    Latin1(Latin1Policy),
}

/// How `decode` ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Decoded {
    Done,
    /// Strict policy: the input is ill-formed at this byte offset.
    IllFormed {
        offset: u64,
        kind: u8x::ErrorKind,
    },
    /// Strict policy: the character at this byte offset has no place in the
    /// output form (above U+00FF for Latin-1).
    Unrepresentable {
        offset: u64,
        /// The character, when the library's error length spans exactly one.
        character: Option<char>,
    },
}

/// Decodes UTF-8 from `input` to the form `to` on `out`.
pub fn decode(input: impl Read, out: &mut impl Write, to: DecodeTo) -> Result<Decoded, Failure> {
    // Room for everything a chunk decodes to: one code point per byte at
    // most, so one UTF-32 or Latin-1 unit, and for UTF-16 one unit per byte
    // too (a pair comes from four bytes).
    match to {
        DecodeTo::Utf32Le(policy) => {
            let mut units = vec![0u32; CHUNK];
            decode_with(input, out, |src, more, bytes| {
                let p = u8x::decode_ucs4(src, &mut units, policy, more);
                bytes.extend(units[..p.written].iter().flat_map(|u| u.to_le_bytes()));
                p
            })
        }
        DecodeTo::Utf16(form, policy) => {
            let mut units = vec![0u16; CHUNK];
            decode_with(input, out, |src, more, bytes| {
                let p = u8x::decode_utf16(src, &mut units, policy, form.order(), more);
                // The units are stored in the form's byte order: their bytes
                // in memory are the bytes of the form.
                bytes.extend(units[..p.written].iter().flat_map(|u| u.to_ne_bytes()));
                p
            })
        }
        DecodeTo::Latin1(policy) => decode_with(input, out, |src, more, bytes| {
            bytes.resize(src.len(), 0);
            let p = u8x::decode_latin1(src, bytes, policy, more);
            bytes.truncate(p.written);
            p
        }),
    }
}

/// Runs `step` over the input a chunk at a time. `step(src, more, bytes)`
/// decodes a prefix of `src` and appends the output to `bytes` (empty on
/// entry), returning the library's progress.
fn decode_with(
    input: impl Read,
    out: &mut impl Write,
    mut step: impl FnMut(&[u8], bool, &mut Vec<u8>) -> Progress,
) -> Result<Decoded, Failure> {
    let mut chunks = Chunks::new(input);
    let mut bytes = Vec::with_capacity(4 * CHUNK);
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let data = chunk.data;
        let mut pos = 0;
        loop {
            bytes.clear();
            let p = step(&data[pos..], chunk.more, &mut bytes);
            out.write_all(&bytes).map_err(Failure::Output)?;
            pos += p.read;
            match p.status {
                Status::IllFormed(e) => {
                    let offset = chunk.offset + pos as u64;
                    if e.kind != u8x::ErrorKind::NotRepresentable {
                        return Ok(Decoded::IllFormed {
                            offset,
                            kind: e.kind,
                        });
                    }
                    let bad = data.get(pos..pos + e.len as usize).unwrap_or_default();
                    let character = std::str::from_utf8(bad)
                        .ok()
                        .and_then(|s| s.chars().next().filter(|c| c.len_utf8() == bad.len()));
                    return Ok(Decoded::Unrepresentable { offset, character });
                }
                // The output buffers hold a whole chunk's output, but resume
                // where the call stopped all the same.
                Status::OutputFull => assert!(p.read > 0 || p.written > 0, "no progress"),
                // Done, or Incomplete: the cut sequence is carried over.
                Status::Done | Status::Incomplete { .. } => break,
            }
        }
        chunks.consume(pos);
    }
    Ok(Decoded::Done)
}

/// What `encode` reads, and what it does with units that are not Unicode
/// scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeFrom {
    Utf32Le(EncodePolicy),
    /// UTF-16 in this form (`Utf16Le` or `Utf16Be`); the policy applies to
    /// unpaired surrogates.
    Utf16(Form, EncodePolicy),
    /// Every byte is a character: nothing to apply a policy to.
    Latin1,
}

impl EncodeFrom {
    pub fn form(self) -> Form {
        match self {
            EncodeFrom::Utf32Le(_) => Form::Utf32Le,
            EncodeFrom::Utf16(form, _) => form,
            EncodeFrom::Latin1 => Form::Latin1,
        }
    }
}

/// How `encode` ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Encoded {
    Done,
    /// The unit at this index (counted in units of the form) is not allowed
    /// by the policy: a surrogate or a value above 0x10FFFF in UTF-32, an
    /// unpaired surrogate in UTF-16.
    Invalid {
        form: Form,
        index: u64,
        value: u32,
        kind: u8x::ErrorKind,
    },
    /// The input length is not a multiple of the form's unit size.
    BadLength {
        form: Form,
        len: u64,
    },
}

/// Encodes the form `from` on `input` to UTF-8 on `out`.
pub fn encode(
    input: impl Read,
    out: &mut impl Write,
    from: EncodeFrom,
) -> Result<Encoded, Failure> {
    let form = from.form();
    let width = form.unit_bytes();
    let mut chunks = Chunks::new(input);
    // Each unit encodes to 4 bytes at most (UTF-32), 3 (UTF-16: a pair is
    // two units and 4 bytes) or 2 (Latin-1): room for a whole chunk.
    let mut bytes = vec![0u8; 2 * CHUNK];
    let mut units32 = Vec::new();
    let mut units16 = Vec::new();
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let whole = chunk.data.len() / width;
        let data = &chunk.data[..whole * width];
        match from {
            EncodeFrom::Utf32Le(_) => {
                units32.clear();
                units32.extend(data.chunks_exact(4).map(|u| form.unit(u)));
            }
            EncodeFrom::Utf16(..) => {
                // As stored: the library reads them in the form's order.
                units16.clear();
                units16.extend(
                    data.chunks_exact(2)
                        .map(|u| u16::from_ne_bytes([u[0], u[1]])),
                );
            }
            EncodeFrom::Latin1 => {}
        }
        let mut done = 0;
        let status = loop {
            let p = match from {
                EncodeFrom::Utf32Le(policy) => u8x::encode(&units32[done..], &mut bytes, policy),
                EncodeFrom::Utf16(form, policy) => u8x::encode_utf16(
                    &units16[done..],
                    &mut bytes,
                    policy,
                    form.order(),
                    chunk.more,
                ),
                EncodeFrom::Latin1 => u8x::encode_latin1(&data[done..], &mut bytes),
            };
            out.write_all(&bytes[..p.written])
                .map_err(Failure::Output)?;
            done += p.read;
            if p.status != Status::OutputFull {
                break p.status;
            }
            assert!(p.read > 0 || p.written > 0, "no progress");
        };
        if let Status::IllFormed(e) = status {
            return Ok(Encoded::Invalid {
                form,
                index: chunk.offset / width as u64 + done as u64,
                value: form.unit(&data[done * width..]),
                kind: e.kind,
            });
        }
        // Done, or Incomplete: a high surrogate ends the chunk and is
        // carried over with any odd byte after it.
        let consumed = done * width;
        if !chunk.more && consumed < chunk.data.len() {
            return Ok(Encoded::BadLength {
                form,
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
            decode(&input[..], &mut utf32, DecodeTo::Utf32Le(Policy::Escape)).unwrap(),
            Decoded::Done
        ));
        let mut back = Vec::new();
        assert!(matches!(
            encode(
                &utf32[..],
                &mut back,
                EncodeFrom::Utf32Le(EncodePolicy::Escape)
            )
            .unwrap(),
            Encoded::Done
        ));
        assert_eq!(back, input);
    }

    #[test]
    fn form_names() {
        for form in [Form::Utf32Le, Form::Utf16Le, Form::Utf16Be, Form::Latin1] {
            assert_eq!(Form::parse(form.option_name()), Some(form));
            assert!(Form::NAMES.contains(form.option_name()));
        }
        assert_eq!(Form::parse("UTF-16be"), Some(Form::Utf16Be));
        assert_eq!(Form::parse("utf16le"), None);
    }

    #[test]
    fn utf16_escape_round_trips_across_chunks() {
        let input: Vec<u8> = (0..=255u8).cycle().take(3 * CHUNK + 7).collect();
        for form in [Form::Utf16Le, Form::Utf16Be] {
            let mut utf16 = Vec::new();
            let to = DecodeTo::Utf16(form, Policy::Escape);
            assert_eq!(decode(&input[..], &mut utf16, to).unwrap(), Decoded::Done);
            let from = EncodeFrom::Utf16(form, EncodePolicy::Escape);
            let mut back = Vec::new();
            assert_eq!(encode(&utf16[..], &mut back, from).unwrap(), Encoded::Done);
            assert_eq!(back, input, "{form:?}");
        }
    }

    #[test]
    fn utf16_pair_and_lone_surrogate_at_the_chunk_edge() {
        // U+1F600 as D83D DE00, its high half the last unit of the chunk.
        let mut le = b"a\0".repeat(CHUNK / 2 - 1);
        le.extend_from_slice(b"\x3D\xD8\x00\xDE");
        let mut out = Vec::new();
        let from = EncodeFrom::Utf16(Form::Utf16Le, EncodePolicy::Strict);
        assert_eq!(encode(&le[..], &mut out, from).unwrap(), Encoded::Done);
        assert_eq!(&out[out.len() - 5..], "a😀".as_bytes());
        // The same high half followed by 'b': unpaired, at its unit index.
        let n = le.len();
        le[n - 2..].copy_from_slice(b"b\0");
        assert_eq!(
            encode(&le[..], &mut Vec::new(), from).unwrap(),
            Encoded::Invalid {
                form: Form::Utf16Le,
                index: CHUNK as u64 / 2 - 1,
                value: 0xD83D,
                kind: u8x::ErrorKind::Surrogate,
            }
        );
        // An odd byte at the end.
        le[n - 4..n - 2].copy_from_slice(b"c\0");
        le.push(0);
        assert_eq!(
            encode(&le[..], &mut Vec::new(), from).unwrap(),
            Encoded::BadLength {
                form: Form::Utf16Le,
                len: le.len() as u64,
            }
        );
    }

    #[test]
    fn latin1_both_ways() {
        let text = "caf\u{E9} \u{FF}\u{100}\u{20AC}";
        let mut out = Vec::new();
        let strict = DecodeTo::Latin1(Latin1Policy::Strict);
        assert_eq!(
            decode(text.as_bytes(), &mut out, strict).unwrap(),
            Decoded::Unrepresentable {
                offset: 8,
                character: Some('\u{100}'),
            }
        );
        assert_eq!(out, b"caf\xE9 \xFF");
        let mut out = Vec::new();
        let replace = DecodeTo::Latin1(Latin1Policy::Replace(b'?'));
        let input = [text.as_bytes(), b"\xE2\x82!"].concat();
        assert_eq!(
            decode(&input[..], &mut out, replace).unwrap(),
            Decoded::Done
        );
        assert_eq!(out, b"caf\xE9 \xFF???!");
        let mut back = Vec::new();
        assert_eq!(
            encode(&out[..], &mut back, EncodeFrom::Latin1).unwrap(),
            Encoded::Done
        );
        assert_eq!(back, "caf\u{E9} \u{FF}???!".as_bytes());
    }
}
