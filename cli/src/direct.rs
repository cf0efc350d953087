//! `convert` between two of Latin-1, UTF-16 and UTF-32 with no UTF-8 in
//! between: the library's `convert_*` functions, a chunk at a time. A
//! UTF-16 high surrogate (or, escaping from UTF-32, a high surrogate value)
//! ending a chunk is carried to the next, as are the bytes of a cut unit.
//!
//! The policies mean what they mean for the library's conversions: to
//! UTF-16 and UTF-32 the input's invalid units are replaced by U+FFFD,
//! dropped, or under escape kept as their values (any lone surrogate goes
//! from UTF-16 to UTF-32 and back unchanged); to Latin-1 each invalid unit
//! and each character above U+00FF becomes `?` or is dropped, counted once.

use std::io::{Read, Write};

use u8x::{ErrorKind, Progress as Step, Status};

use crate::convert::{bytes_of, DecodeTo, Decoded, EncodeFrom, Encoded, Form, Stop, Transcoded};
use crate::lines::Position;
use crate::progress::Progress;
use crate::stream::{Chunks, CHUNK};
use crate::Failure;

/// Whether `convert --from from --to to` takes the direct way.
pub fn applies(from: EncodeFrom, to: DecodeTo) -> bool {
    matches!(
        (from, to),
        (
            EncodeFrom::Latin1,
            DecodeTo::Utf16(..) | DecodeTo::Utf32(..)
        ) | (
            EncodeFrom::Utf16(..),
            DecodeTo::Latin1(_) | DecodeTo::Utf32(..)
        ) | (
            EncodeFrom::Utf32(..),
            DecodeTo::Latin1(_) | DecodeTo::Utf16(..)
        )
    )
}

fn order(form: Form) -> u8x::ByteOrder {
    match form {
        Form::Utf16Be | Form::Utf32Be => u8x::ByteOrder::Big,
        _ => u8x::ByteOrder::Little,
    }
}

/// One chunk's input units, as stored (the library reads them in the
/// form's order), and the output buffers.
struct Buffers {
    in16: Vec<u16>,
    in32: Vec<u32>,
    out8: Vec<u8>,
    out16: Vec<u16>,
    out32: Vec<u32>,
}

impl Buffers {
    /// One library call on `bytes` (whole units of `from`) from unit
    /// `done`, into the output buffer of `to`; the output as bytes.
    fn convert(
        &mut self,
        from: EncodeFrom,
        to: DecodeTo,
        bytes: &[u8],
        done: usize,
        more: bool,
    ) -> (Step, &[u8]) {
        // `done` counts units of the input form; each arm slices its own.
        match (from, to) {
            (EncodeFrom::Latin1, DecodeTo::Utf16(f, _)) => {
                let p =
                    u8x::convert_latin1_to_utf16(&bytes[done..], Some(&mut self.out16), order(f));
                (p, bytes_of(&self.out16[..p.written]))
            }
            (EncodeFrom::Latin1, DecodeTo::Utf32(f, _)) => {
                let p =
                    u8x::convert_latin1_to_ucs4(&bytes[done..], Some(&mut self.out32), order(f));
                (p, bytes_of(&self.out32[..p.written]))
            }
            (EncodeFrom::Utf16(f, _), DecodeTo::Latin1(policy)) => {
                let p = u8x::convert_utf16_to_latin1(
                    &self.in16[done..],
                    Some(&mut self.out8),
                    policy,
                    order(f),
                    more,
                );
                (p, &self.out8[..p.written])
            }
            (EncodeFrom::Utf32(f, _), DecodeTo::Latin1(policy)) => {
                let p = u8x::convert_ucs4_to_latin1(
                    &self.in32[done..],
                    Some(&mut self.out8),
                    policy,
                    order(f),
                );
                (p, &self.out8[..p.written])
            }
            (EncodeFrom::Utf16(f, policy), DecodeTo::Utf32(t, _)) => {
                let orders = (order(f), order(t));
                let p = u8x::convert_utf16_to_ucs4(
                    &self.in16[done..],
                    Some(&mut self.out32),
                    policy,
                    orders,
                    more,
                );
                (p, bytes_of(&self.out32[..p.written]))
            }
            (EncodeFrom::Utf32(f, policy), DecodeTo::Utf16(t, _)) => {
                let orders = (order(f), order(t));
                let p = u8x::convert_ucs4_to_utf16(
                    &self.in32[done..],
                    Some(&mut self.out16),
                    policy,
                    orders,
                    more,
                );
                (p, bytes_of(&self.out16[..p.written]))
            }
            _ => unreachable!("not a direct conversion (see `applies`)"),
        }
    }
}

/// The value of the character or unit at the start of `bytes` (whole
/// units of `form`), as its error reports it.
fn value_at(form: Form, bytes: &[u8], len: u8) -> u32 {
    let unit = |i: usize| form.unit(&bytes[i * form.unit_bytes()..]);
    match (form, len) {
        (Form::Utf16Le | Form::Utf16Be, 2) => {
            0x1_0000 + ((unit(0) - 0xD800) << 10) + (unit(1) - 0xDC00)
        }
        _ => unit(0),
    }
}

/// Converts `from` on `input` to `to` on `out` (see the module
/// documentation). Returns how it ended and how many invalid units and
/// unrepresentable characters the policy handled.
pub fn transcode(
    mut input: Chunks<impl Read>,
    out: &mut impl Write,
    from: EncodeFrom,
    to: DecodeTo,
    progress: &Progress,
) -> Result<(Transcoded, u64), Failure> {
    let form = from.form();
    let width = form.unit_bytes();
    // Each input unit gives at most two output units (UTF-32 to UTF-16).
    let mut buffers = Buffers {
        in16: Vec::new(),
        in32: Vec::new(),
        out8: vec![0; CHUNK],
        out16: vec![0; CHUNK],
        out32: vec![0; CHUNK],
    };
    let mut handled = 0u64;
    loop {
        let Some(chunk) = input.next_chunk().map_err(Failure::Input)? else {
            return Ok((Transcoded::Encoded(Encoded::Done), handled));
        };
        let whole = chunk.data.len() / width;
        let data = &chunk.data[..whole * width];
        buffers.in16.clear();
        buffers.in32.clear();
        match width {
            2 => buffers.in16.extend(
                data.chunks_exact(2)
                    .map(|u| u16::from_ne_bytes([u[0], u[1]])),
            ),
            4 => buffers.in32.extend(
                data.chunks_exact(4)
                    .map(|u| u32::from_ne_bytes([u[0], u[1], u[2], u[3]])),
            ),
            _ => {}
        }
        let mut done = 0;
        let status = loop {
            let (p, bytes) = buffers.convert(from, to, data, done, chunk.more);
            out.write_all(bytes).map_err(Failure::Output)?;
            handled += p.handled as u64;
            done += p.read;
            if p.status != Status::OutputFull {
                break p.status;
            }
        };
        if let Status::IllFormed(e) = status {
            let index = chunk.offset / width as u64 + done as u64;
            let value = value_at(form, &data[done * width..], e.len);
            let end = if e.kind == ErrorKind::NotRepresentable {
                let stop = Stop {
                    offset: 0,
                    at: Position::default(),
                    chars: index,
                    units16: index,
                };
                Transcoded::Decoded(Decoded::Unrepresentable {
                    stop,
                    value: Some(value),
                })
            } else {
                Transcoded::Encoded(Encoded::Invalid {
                    form,
                    index,
                    value,
                    kind: e.kind,
                })
            };
            return Ok((end, handled));
        }
        // Done, or Incomplete: a high surrogate ends the chunk and is
        // carried over with any odd bytes after it.
        let consumed = done * width;
        if !chunk.more && consumed < chunk.data.len() {
            let len = chunk.offset + chunk.data.len() as u64;
            return Ok((
                Transcoded::Encoded(Encoded::BadLength { form, len }),
                handled,
            ));
        }
        progress.advance(consumed as u64);
        input.consume(consumed);
    }
}
