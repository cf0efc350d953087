//! `u8x decode`, `u8x encode` and `u8x convert`: one input to one output,
//! a chunk at a time.

use std::fs::File;
use std::io::{Read, Write};

use u8x::{ByteOrder, Dialect, EncodePolicy, Latin1Policy, Policy, Status};

use crate::lines::{Locator, Place, Position};
use crate::progress::Progress;
use crate::stream::{Chunks, CHUNK};
use crate::Failure;

/// A form of Unicode text other than UTF-8: what `decode` writes and
/// `encode` reads. None has a byte order mark; one in the text is a
/// character like any other.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// 4 bytes per code point, little-endian
    #[value(name = "utf-32le")]
    Utf32Le,
    /// 4 bytes per code point, big-endian
    #[value(name = "utf-32be")]
    Utf32Be,
    /// 2 bytes per UTF-16 unit, little-endian
    #[value(name = "utf-16le")]
    Utf16Le,
    /// 2 bytes per UTF-16 unit, big-endian
    #[value(name = "utf-16be")]
    Utf16Be,
    /// ISO-8859-1, one byte per character up to U+00FF
    #[value(name = "latin1")]
    Latin1,
}

impl Form {
    /// The name as messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Form::Utf32Le => "UTF-32LE",
            Form::Utf32Be => "UTF-32BE",
            Form::Utf16Le => "UTF-16LE",
            Form::Utf16Be => "UTF-16BE",
            Form::Latin1 => "Latin-1",
        }
    }

    /// Bytes per code unit.
    pub fn unit_bytes(self) -> usize {
        match self {
            Form::Utf32Le | Form::Utf32Be => 4,
            Form::Utf16Le | Form::Utf16Be => 2,
            Form::Latin1 => 1,
        }
    }

    /// The unit at the start of `bytes` (at least one unit long).
    pub fn unit(self, bytes: &[u8]) -> u32 {
        match self {
            Form::Utf32Le => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            Form::Utf32Be => u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
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

    /// Whether a UTF-32 form is big-endian.
    fn big32(self) -> bool {
        self == Form::Utf32Be
    }
}

/// What `decode` writes, and what it does with what it cannot decode or
/// write. The policy applies to ill-formed UTF-8, and for Latin-1 also to
/// characters above U+00FF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeTo {
    /// UTF-32 in this form (`Utf32Le` or `Utf32Be`).
    Utf32(Form, Policy),
    /// UTF-16 in this form (`Utf16Le` or `Utf16Be`).
    Utf16(Form, Policy),
    Latin1(Latin1Policy),
}

impl DecodeTo {
    /// Whether decoding stops at the first error, which is then reported
    /// with its line and column.
    fn strict(self) -> bool {
        matches!(
            self,
            DecodeTo::Utf32(_, Policy::Strict)
                | DecodeTo::Utf16(_, Policy::Strict)
                | DecodeTo::Latin1(Latin1Policy::Strict)
        )
    }
}

/// Where a strict decode stopped: the byte offset, line and column of the
/// error, and how many UTF-32 and UTF-16 units the text before it holds
/// (what locates it in the input of `convert` when that was not UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub offset: u64,
    pub at: Position,
    pub chars: u64,
    pub units16: u64,
}

/// How `decode` ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Decoded {
    Done,
    /// Strict policy: the input is ill-formed here.
    IllFormed {
        stop: Stop,
        kind: u8x::ErrorKind,
    },
    /// Strict policy: the character here has no place in the output form
    /// (above U+00FF for Latin-1, above U+10FFFF for UTF-16).
    Unrepresentable {
        stop: Stop,
        /// The character's value, when the library's error length spans
        /// exactly one.
        value: Option<u32>,
    },
}

/// Decodes UTF-8 in `dialect` from `input` to the form `to` on `out`.
/// `file` is the input when it is a regular file: the line and column of a
/// strict stop are then found by reading it again, not kept all along.
/// Latin-1 is RFC 3629 UTF-8 only. Returns how it ended and how many
/// errors the policy handled (the library's `handled`, summed over every
/// call: maximal subparts, and to Latin-1 characters above U+00FF).
pub fn decode<W: Write>(
    input: Chunks<impl Read>,
    out: &mut W,
    to: DecodeTo,
    dialect: Dialect,
    progress: &Progress,
    file: Option<&File>,
) -> Result<(Decoded, u64), Failure> {
    let place = place(to.strict(), file, dialect);
    decode_counting(input, out, to, dialect, progress, place, false)
}

/// How a decode knows where it stopped: nothing to know unless it can
/// stop; looked up afterwards in a regular file; kept up to date otherwise.
fn place(strict: bool, file: Option<&File>, dialect: Dialect) -> Place<'_> {
    match (strict, file) {
        (false, _) => Place::Unknown,
        (true, Some(file)) => Place::Located(Locator::new(file, dialect)),
        (true, None) => Place::Tracked(Position::default(), dialect),
    }
}

/// The bytes of `units` in memory order: no copy between the library's
/// output and the write.
pub fn bytes_of<T: Copy>(units: &[T]) -> &[u8] {
    // SAFETY: `T` is u16 or u32 here (plain integers: no padding, every byte
    // initialised); u8 has no alignment requirement and any value is valid;
    // the slice covers exactly the `size_of_val(units)` bytes of `units` and
    // borrows them for as long as `units` is borrowed.
    unsafe { std::slice::from_raw_parts(units.as_ptr().cast::<u8>(), size_of_val(units)) }
}

/// [`decode`]; with `count_units`, a strict stop also says how many
/// characters and UTF-16 units came before it (RFC 3629 only: it counts
/// with the library's fast counts of valid UTF-8).
///
/// Each output buffer holds [`CHUNK`] units, and no input byte decodes to
/// more than one unit under any policy or dialect (a 4-byte character is
/// two UTF-16 units, a CESU-8 pair 6 bytes and two units), so each call is
/// given at most [`CHUNK`] bytes and never fills its buffer: a byte-wise
/// policy (escape, latin1, cp1252) stopped by a full buffer between the
/// bytes of one maximal subpart would have the rest counted again.
fn decode_counting<W: Write>(
    input: Chunks<impl Read>,
    out: &mut W,
    to: DecodeTo,
    dialect: Dialect,
    progress: &Progress,
    place: Place,
    count_units: bool,
) -> Result<(Decoded, u64), Failure> {
    debug_assert!(!count_units || dialect == Dialect::Standard);
    let track = Track {
        place,
        count_units: to.strict() && count_units,
    };
    match to {
        DecodeTo::Utf32(form, policy) => {
            let mut units = vec![0u32; CHUNK];
            decode_with(input, out, track, progress, CHUNK, |src, more, out| {
                let p = u8x::decode_ucs4_in(dialect, src, &mut units, policy, more);
                let units = &mut units[..p.written];
                for u in units.iter_mut() {
                    *u = if form.big32() { u.to_be() } else { u.to_le() };
                }
                out.write_all(bytes_of(units)).map(|()| p)
            })
        }
        DecodeTo::Utf16(form, policy) => {
            let mut units = vec![0u16; CHUNK];
            decode_with(input, out, track, progress, CHUNK, |src, more, out| {
                let order = form.order();
                let p = u8x::decode_utf16_in(dialect, src, &mut units, policy, order, more);
                // The units are stored in the form's byte order: their bytes
                // in memory are the bytes of the form.
                out.write_all(bytes_of(&units[..p.written])).map(|()| p)
            })
        }
        DecodeTo::Latin1(policy) => {
            assert_eq!(dialect, Dialect::Standard, "Latin-1 is RFC 3629 only");
            let mut bytes = vec![0u8; CHUNK];
            decode_with(input, out, track, progress, CHUNK, |src, more, out| {
                let p = u8x::decode_latin1(src, &mut bytes, policy, more);
                out.write_all(&bytes[..p.written]).map(|()| p)
            })
        }
    }
}

/// Copies UTF-8 from `input` to `out` up to its first ill-formed sequence:
/// `convert --from utf-8 --to utf-8 --policy strict`.
pub fn copy<W: Write>(
    input: Chunks<impl Read>,
    out: &mut W,
    progress: &Progress,
    file: Option<&File>,
) -> Result<Decoded, Failure> {
    let track = Track {
        place: place(true, file, Dialect::Standard),
        count_units: false,
    };
    let whole = usize::MAX;
    let copied = decode_with(input, out, track, progress, whole, |src, more, out| {
        let p = u8x::validate_chunk(src, more);
        out.write_all(&src[..p.read]).map(|()| p)
    });
    copied.map(|(decoded, _)| decoded)
}

/// What a decode keeps count of for an error report.
struct Track<'f> {
    place: Place<'f>,
    /// Characters and UTF-16 units before the stop (strict only).
    count_units: bool,
}

/// Runs `step` over the input a chunk at a time, at most `most` bytes a
/// call. `step(src, more, out)` decodes a prefix of `src`, writes its
/// output to `out` and returns the library's progress. Returns how the
/// input ended and the sum of the calls' `handled`.
fn decode_with<W: Write>(
    mut chunks: Chunks<impl Read>,
    out: &mut W,
    mut track: Track,
    progress: &Progress,
    most: usize,
    mut step: impl FnMut(&[u8], bool, &mut W) -> std::io::Result<u8x::Progress>,
) -> Result<(Decoded, u64), Failure> {
    let mut stop = Stop {
        offset: 0,
        at: Position::default(),
        chars: 0,
        units16: 0,
    };
    let mut handled = 0u64;
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        let data = chunk.data;
        let mut pos = 0usize;
        loop {
            // A piece cut short of the chunk's end is followed by more
            // input: a sequence it cuts is carried over, as at a chunk's
            // end, so the pieces decode (and count) as the whole chunk.
            let end = pos.saturating_add(most).min(data.len());
            let more = chunk.more || end < data.len();
            let p = step(&data[pos..end], more, out).map_err(Failure::Output)?;
            handled += p.handled as u64;
            // Tracked only under the strict policy: what was read is valid.
            let valid = &data[pos..pos + p.read];
            track.place.valid(valid);
            if track.count_units {
                stop.chars += u8x::count_valid(valid) as u64;
                stop.units16 += u8x::utf16_len_valid(valid) as u64;
            }
            pos += p.read;
            match p.status {
                Status::IllFormed(e) => {
                    stop.offset = chunk.offset + pos as u64;
                    stop.at = track.place.error(stop.offset, e.len as usize)?;
                    if e.kind != u8x::ErrorKind::NotRepresentable {
                        return Ok((Decoded::IllFormed { stop, kind: e.kind }, handled));
                    }
                    // Above U+00FF (to Latin-1) or, in legacy UTF-8, above
                    // U+10FFFF (to UTF-16): legacy UTF-8 reads either.
                    let bad = data.get(pos..pos + e.len as usize).unwrap_or_default();
                    let mut one = [0u32];
                    let p =
                        u8x::decode_ucs4_in(Dialect::Legacy, bad, &mut one, Policy::Strict, false);
                    let whole = p.status == Status::Done && p.written == 1 && !bad.is_empty();
                    let value = whole.then_some(one[0]);
                    return Ok((Decoded::Unrepresentable { stop, value }, handled));
                }
                // The output buffers hold what `most` bytes decode to, but
                // resume where the call stopped all the same.
                Status::OutputFull => assert!(p.read > 0 || p.written > 0, "no progress"),
                // Done, or Incomplete: on to the next piece, or at the
                // chunk's end the cut sequence is carried over.
                Status::Done | Status::Incomplete { .. } if end < data.len() => {
                    assert!(p.read > 0, "no progress");
                }
                Status::Done | Status::Incomplete { .. } => break,
            }
        }
        progress.advance(pos as u64);
        chunks.consume(pos);
    }
    Ok((Decoded::Done, handled))
}

/// What `encode` reads, and what it does with units that are not Unicode
/// scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeFrom {
    /// UTF-32 in this form (`Utf32Le` or `Utf32Be`).
    Utf32(Form, EncodePolicy),
    /// UTF-16 in this form (`Utf16Le` or `Utf16Be`); the policy applies to
    /// unpaired surrogates.
    Utf16(Form, EncodePolicy),
    /// Every byte is a character: nothing to apply a policy to.
    Latin1,
}

impl EncodeFrom {
    pub fn form(self) -> Form {
        match self {
            EncodeFrom::Utf32(form, _) | EncodeFrom::Utf16(form, _) => form,
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

/// Encodes a form to UTF-8 a chunk at a time, handing out each chunk's
/// UTF-8 as it is asked for: [`encode`] writes it, [`Utf8Reader`] reads it.
struct Encoder<R> {
    from: EncodeFrom,
    /// The UTF-8 written (RFC 3629 for Latin-1).
    dialect: Dialect,
    chunks: Chunks<R>,
    /// Each unit encodes to 4 bytes at most (UTF-32), 3 (UTF-16: a pair is
    /// two units and 4 bytes) or 2 (Latin-1); in a dialect, to 6 (legacy
    /// UTF-32) or 3 (UTF-16: a CESU-8 pair is 6 bytes): room for a whole
    /// chunk all the same (the loop below resumes when it is full anyway).
    bytes: Vec<u8>,
    units32: Vec<u32>,
    units16: Vec<u16>,
    /// How the input ended, once it has.
    end: Option<Encoded>,
    /// The sum of the calls' `handled`: invalid units replaced, escaped or
    /// dropped. A full output buffer never splits what one unit becomes.
    handled: u64,
}

impl<R: Read> Encoder<R> {
    fn new(chunks: Chunks<R>, from: EncodeFrom, dialect: Dialect) -> Self {
        assert!(
            from != EncodeFrom::Latin1 || dialect == Dialect::Standard,
            "Latin-1 is RFC 3629 only"
        );
        Encoder {
            from,
            dialect,
            chunks,
            bytes: vec![0u8; 2 * CHUNK],
            units32: Vec::new(),
            units16: Vec::new(),
            end: None,
            handled: 0,
        }
    }

    /// Encodes the next chunk and passes its UTF-8 to `emit`, in one or more
    /// pieces; false once the input has ended (see `end`).
    fn next(
        &mut self,
        progress: &Progress,
        mut emit: impl FnMut(&[u8]) -> Result<(), Failure>,
    ) -> Result<bool, Failure> {
        if self.end.is_some() {
            return Ok(false);
        }
        let (from, form, dialect) = (self.from, self.from.form(), self.dialect);
        let width = form.unit_bytes();
        let Some(chunk) = self.chunks.next_chunk().map_err(Failure::Input)? else {
            self.end = Some(Encoded::Done);
            return Ok(false);
        };
        let whole = chunk.data.len() / width;
        let data = &chunk.data[..whole * width];
        match from {
            EncodeFrom::Utf32(..) => {
                self.units32.clear();
                let units = data.chunks_exact(4).map(|u| form.unit(u));
                self.units32.extend(units);
            }
            EncodeFrom::Utf16(..) => {
                // As stored: the library reads them in the form's order.
                self.units16.clear();
                let units = data
                    .chunks_exact(2)
                    .map(|u| u16::from_ne_bytes([u[0], u[1]]));
                self.units16.extend(units);
            }
            EncodeFrom::Latin1 => {}
        }
        let mut done = 0;
        let status = loop {
            let bytes = &mut self.bytes;
            let p = match from {
                EncodeFrom::Utf32(_, policy) => {
                    u8x::encode_in(dialect, &self.units32[done..], Some(bytes), policy)
                }
                EncodeFrom::Utf16(form, policy) => u8x::encode_utf16_in(
                    dialect,
                    &self.units16[done..],
                    Some(bytes),
                    policy,
                    form.order(),
                    chunk.more,
                ),
                EncodeFrom::Latin1 => u8x::encode_latin1(&data[done..], bytes),
            };
            emit(&bytes[..p.written])?;
            self.handled += p.handled as u64;
            done += p.read;
            if p.status != Status::OutputFull {
                break p.status;
            }
            assert!(p.read > 0 || p.written > 0, "no progress");
        };
        if let Status::IllFormed(e) = status {
            self.end = Some(Encoded::Invalid {
                form,
                index: chunk.offset / width as u64 + done as u64,
                value: form.unit(&data[done * width..]),
                kind: e.kind,
            });
            return Ok(false);
        }
        // Done, or Incomplete: a high surrogate ends the chunk and is
        // carried over with any odd byte after it.
        let consumed = done * width;
        if !chunk.more && consumed < chunk.data.len() {
            self.end = Some(Encoded::BadLength {
                form,
                len: chunk.offset + chunk.data.len() as u64,
            });
            return Ok(false);
        }
        progress.advance(consumed as u64);
        self.chunks.consume(consumed);
        Ok(true)
    }
}

/// Encodes the form `from` on `input` to UTF-8 in `dialect` on `out`
/// (RFC 3629 from Latin-1). Returns how it ended and how many invalid
/// units the policy handled.
pub fn encode(
    input: Chunks<impl Read>,
    out: &mut impl Write,
    from: EncodeFrom,
    dialect: Dialect,
    progress: &Progress,
) -> Result<(Encoded, u64), Failure> {
    let mut encoder = Encoder::new(input, from, dialect);
    while encoder.next(progress, |bytes| {
        out.write_all(bytes).map_err(Failure::Output)
    })? {}
    let end = encoder.end.take().expect("the input has ended");
    Ok((end, encoder.handled))
}

/// The UTF-8 an [`Encoder`] produces, as a reader: what `convert` decodes
/// when neither side is UTF-8. It ends where the encoder stops; a read
/// error of the input is passed on.
struct Utf8Reader<'a, R> {
    encoder: Encoder<R>,
    progress: &'a Progress,
    pending: Vec<u8>,
    taken: usize,
}

impl<R: Read> Read for Utf8Reader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.taken == self.pending.len() {
            self.pending.clear();
            self.taken = 0;
            let pending = &mut self.pending;
            let more = self.encoder.next(self.progress, |bytes| {
                pending.extend_from_slice(bytes);
                Ok(())
            });
            match more {
                Ok(true) => {}
                Ok(false) if self.pending.is_empty() => return Ok(0),
                Ok(false) => break,
                Err(Failure::Input(e) | Failure::Output(e)) => return Err(e),
            }
        }
        let n = buf.len().min(self.pending.len() - self.taken);
        buf[..n].copy_from_slice(&self.pending[self.taken..self.taken + n]);
        self.taken += n;
        Ok(n)
    }
}

/// How `convert` between two forms other than UTF-8 ended: the first of
/// the two stages to stop says why.
#[derive(Debug, PartialEq, Eq)]
pub enum Transcoded {
    Encoded(Encoded),
    /// The output stage stopped (strict, to Latin-1).
    Decoded(Decoded),
}

/// Converts the form of `from` to the form of `to` through UTF-8, a chunk
/// at a time. Returns how it ended and how many errors the policy handled:
/// each invalid unit of the input once, and each character the Latin-1
/// output cannot hold once.
pub fn transcode(
    input: Chunks<impl Read>,
    out: &mut impl Write,
    from: EncodeFrom,
    to: DecodeTo,
    progress: &Progress,
) -> Result<(Transcoded, u64), Failure> {
    let mut reader = Utf8Reader {
        encoder: Encoder::new(input, from, Dialect::Standard),
        progress,
        pending: Vec::new(),
        taken: 0,
    };
    let std = Dialect::Standard;
    let place = place(to.strict(), None, std);
    let chunks = Chunks::new(&mut reader);
    let (decoded, decoding) =
        decode_counting(chunks, out, to, std, &Progress::none(), place, true)?;
    let encoding = reader.encoder.handled;
    let handled = match to {
        // Each invalid unit became U+FFFD, which is not in Latin-1 either:
        // the output stage counted it again with the characters.
        DecodeTo::Latin1(Latin1Policy::Replace(_)) => decoding,
        // Dropped units left nothing for the output stage; it counts only
        // the characters it dropped.
        DecodeTo::Latin1(_) => encoding + decoding,
        // The output stage is strict, or (escape) turns the bytes the
        // input stage wrote for U+DC80..U+DCFF back into those units:
        // nothing more to count.
        DecodeTo::Utf32(..) | DecodeTo::Utf16(..) => encoding,
    };
    if decoded != Decoded::Done {
        return Ok((Transcoded::Decoded(decoded), handled));
    }
    let end = reader.encoder.end.take().unwrap_or(Encoded::Done);
    Ok((Transcoded::Encoded(end), handled))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`encode`] of a whole input in memory.
    fn encode_into(input: &[u8], out: &mut Vec<u8>, from: EncodeFrom) -> Result<Encoded, Failure> {
        encode(
            Chunks::new(input),
            out,
            from,
            Dialect::Standard,
            &Progress::none(),
        )
        .map(|(end, _)| end)
    }

    /// [`decode`] of a whole input in memory.
    fn decode_into(input: &[u8], out: &mut Vec<u8>, to: DecodeTo) -> Result<Decoded, Failure> {
        decode(
            Chunks::new(input),
            out,
            to,
            Dialect::Standard,
            &Progress::none(),
            None,
        )
        .map(|(end, _)| end)
    }

    #[test]
    fn decode_then_encode_escape_round_trips() {
        let input: Vec<u8> = (0..=255u8).cycle().take(3 * CHUNK + 7).collect();
        let mut utf32 = Vec::new();
        assert!(matches!(
            decode_into(
                &input[..],
                &mut utf32,
                DecodeTo::Utf32(Form::Utf32Le, Policy::Escape)
            )
            .unwrap(),
            Decoded::Done
        ));
        let mut back = Vec::new();
        assert!(matches!(
            encode_into(
                &utf32[..],
                &mut back,
                EncodeFrom::Utf32(Form::Utf32Le, EncodePolicy::Escape),
            )
            .unwrap(),
            Encoded::Done
        ));
        assert_eq!(back, input);
    }

    #[test]
    fn utf16_escape_round_trips_across_chunks() {
        let input: Vec<u8> = (0..=255u8).cycle().take(3 * CHUNK + 7).collect();
        for form in [Form::Utf16Le, Form::Utf16Be] {
            let mut utf16 = Vec::new();
            let to = DecodeTo::Utf16(form, Policy::Escape);
            assert_eq!(
                decode_into(&input[..], &mut utf16, to).unwrap(),
                Decoded::Done
            );
            let from = EncodeFrom::Utf16(form, EncodePolicy::Escape);
            let mut back = Vec::new();
            assert_eq!(
                encode_into(&utf16[..], &mut back, from).unwrap(),
                Encoded::Done
            );
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
        assert_eq!(encode_into(&le[..], &mut out, from).unwrap(), Encoded::Done);
        assert_eq!(&out[out.len() - 5..], "a😀".as_bytes());
        // The same high half followed by 'b': unpaired, at its unit index.
        let n = le.len();
        le[n - 2..].copy_from_slice(b"b\0");
        assert_eq!(
            encode_into(&le[..], &mut Vec::new(), from).unwrap(),
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
            encode_into(&le[..], &mut Vec::new(), from).unwrap(),
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
            decode_into(text.as_bytes(), &mut out, strict).unwrap(),
            Decoded::Unrepresentable {
                stop: Stop {
                    offset: 8,
                    at: Position { line: 0, column: 6 },
                    // Counted only for `convert` between two other forms.
                    chars: 0,
                    units16: 0,
                },
                value: Some(0x100),
            }
        );
        assert_eq!(out, b"caf\xE9 \xFF");
        let mut out = Vec::new();
        let replace = DecodeTo::Latin1(Latin1Policy::Replace(b'?'));
        let input = [text.as_bytes(), b"\xE2\x82!"].concat();
        assert_eq!(
            decode_into(&input[..], &mut out, replace).unwrap(),
            Decoded::Done
        );
        assert_eq!(out, b"caf\xE9 \xFF???!");
        let mut back = Vec::new();
        assert_eq!(
            encode_into(&out[..], &mut back, EncodeFrom::Latin1).unwrap(),
            Encoded::Done
        );
        assert_eq!(back, "caf\u{E9} \u{FF}???!".as_bytes());
    }
}
