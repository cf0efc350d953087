//! UTF-16 both ways, the reference for the runtimes' two-byte strings.
//!
//! Decoding reuses the UTF-8 decoder ([`super::decode`]) with an output that
//! turns each scalar into one unit or a surrogate pair, so every policy means
//! exactly what it means for UCS-4. Encoding pairs surrogates first and then
//! encodes the scalar (RFC 3629 section 3: never the halves one by one, which
//! would be CESU-8); a surrogate left unpaired goes through the same policy
//! code as a surrogate in UCS-4 ([`super::encode::unit_bytes`]).

use super::encode::{unit_bytes, unit_error};
use super::sink::{AsciiSink, Sink};
use crate::types::{ByteOrder, EncodePolicy, Progress, Status};

/// The UTF-16 units of `scalar` (a Unicode scalar value, or a lone surrogate
/// as the escape policy produces): one, or a surrogate pair.
#[inline(always)]
pub(crate) fn units_of(scalar: u32, buf: &mut [u16; 2]) -> &[u16] {
    if scalar < 0x1_0000 {
        buf[0] = scalar as u16;
        &buf[..1]
    } else {
        let v = scalar - 0x1_0000;
        buf[0] = 0xD800 | (v >> 10) as u16;
        buf[1] = 0xDC00 | (v & 0x3FF) as u16;
        &buf[..2]
    }
}

/// An output of UTF-16 units in a byte order, over any unit output (a
/// buffer, or a counter). It takes one scalar at a time, and writes a
/// surrogate pair whole or not at all.
pub struct Utf16Sink<S> {
    inner: S,
    swap: bool,
}

impl<S: Sink<u16>> Utf16Sink<S> {
    pub fn new(inner: S, order: ByteOrder) -> Self {
        Utf16Sink {
            inner,
            swap: order.swaps(),
        }
    }

    #[inline(always)]
    fn push_scalar(&mut self, scalar: u32) -> bool {
        let mut buf = [0u16; 2];
        let n = units_of(scalar, &mut buf).len();
        if self.swap {
            buf = buf.map(u16::swap_bytes);
        }
        self.inner.push_all(&buf[..n])
    }
}

impl<S: Sink<u16>> Sink<u32> for Utf16Sink<S> {
    /// The decoder pushes one scalar at a time; each is all-or-nothing.
    #[inline]
    fn push_all(&mut self, scalars: &[u32]) -> bool {
        scalars.iter().all(|&s| self.push_scalar(s))
    }
    #[inline]
    fn written(&self) -> usize {
        self.inner.written()
    }
}

impl<S: Sink<u16>> AsciiSink for Utf16Sink<S> {
    #[inline]
    fn push_ascii(&mut self, bytes: &[u8]) -> usize {
        bytes
            .iter()
            .take_while(|&&b| self.push_scalar(u32::from(b)))
            .count()
    }
}

/// Reads UTF-16 units in a byte order.
#[derive(Clone, Copy)]
pub(crate) struct Units<'a> {
    src: &'a [u16],
    swap: bool,
}

/// What starts at a unit: a scalar (from one unit or a pair), a lone
/// surrogate, or a high surrogate that ends the input.
pub(crate) enum Next {
    Unit { value: u32, len: usize },
    CutPair,
}

impl<'a> Units<'a> {
    pub fn new(src: &'a [u16], order: ByteOrder) -> Self {
        Units {
            src,
            swap: order.swaps(),
        }
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> u16 {
        let u = self.src[i];
        if self.swap {
            u.swap_bytes()
        } else {
            u
        }
    }

    /// What starts at unit `i` (< len): `value` is a scalar, or a lone
    /// surrogate as it stands.
    #[inline(always)]
    pub fn next(&self, i: usize) -> Next {
        let u = self.get(i);
        if !(0xD800..0xDC00).contains(&u) {
            return Next::Unit {
                value: u32::from(u),
                len: 1,
            };
        }
        if i + 1 == self.src.len() {
            return Next::CutPair;
        }
        let low = self.get(i + 1);
        if (0xDC00..0xE000).contains(&low) {
            let value = 0x1_0000 + ((u32::from(u) - 0xD800) << 10 | (u32::from(low) - 0xDC00));
            Next::Unit { value, len: 2 }
        } else {
            Next::Unit {
                value: u32::from(u),
                len: 1,
            }
        }
    }
}

/// Encodes UTF-16 `src` as UTF-8 into `sink`. A surrogate pair is read and
/// written whole. With `more_input`, a high surrogate at the very end is
/// left unread ([`Status::Incomplete`], `len` 1).
pub fn encode<S: Sink<u8>>(
    src: &[u16],
    sink: &mut S,
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    let units = Units::new(src, order);
    let stop = |status, read, handled, sink: &S| Progress {
        status,
        read,
        written: sink.written(),
        handled,
    };
    let mut buf = [0u8; 4];
    let mut read = 0;
    let mut handled = 0;
    while read < src.len() {
        let (value, len) = match units.next(read) {
            Next::Unit { value, len } => (value, len),
            Next::CutPair if more_input => {
                return stop(Status::Incomplete { len: 1 }, read, handled, sink)
            }
            Next::CutPair => (u32::from(units.get(read)), 1),
        };
        let bytes = match unit_bytes(value, policy, &mut buf) {
            Ok(bytes) => bytes,
            Err(kind) => return stop(unit_error(read, kind), read, handled, sink),
        };
        if !sink.push_all(bytes) {
            return stop(Status::OutputFull, read, handled, sink);
        }
        handled += usize::from(char::from_u32(value).is_none());
        read += len;
    }
    stop(Status::Done, read, handled, sink)
}

/// Checks that `src` is well-formed UTF-16: every surrogate paired. `read`
/// is the length of the well-formed prefix; the error is the first unpaired
/// surrogate (kind surrogate, `len` 1).
pub fn validate(src: &[u16], order: ByteOrder, more_input: bool) -> Progress {
    let units = Units::new(src, order);
    let mut read = 0;
    let status = loop {
        if read == src.len() {
            break Status::Done;
        }
        match units.next(read) {
            Next::Unit { value, len } if !(0xD800..0xE000).contains(&value) => read += len,
            Next::CutPair if more_input => break Status::Incomplete { len: 1 },
            _ => break unit_error(read, crate::ErrorKind::Surrogate),
        }
    };
    Progress {
        status,
        read,
        written: 0,
        handled: 0,
    }
}

/// UTF-16 units of `src` when it is well-formed UTF-8: one per character,
/// two for each 4-byte one.
#[cfg(test)] // The oracle of `engine::classify`'s tests.
pub fn utf16_len_valid(src: &[u8]) -> usize {
    src.iter()
        .map(|&b| usize::from(!super::segment::is_continuation(b)) + usize::from(b >= 0xF0))
        .sum()
}

/// UTF-8 bytes of `src` when it is well-formed UTF-16: a pair's two units
/// make four bytes, two each.
#[cfg(test)] // The oracle of `engine::classify`'s tests.
pub fn utf8_len_valid(src: &[u16], order: ByteOrder) -> usize {
    let units = Units::new(src, order);
    (0..src.len())
        .map(|i| {
            let u = units.get(i);
            1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) - usize::from(u & 0xF800 == 0xD800)
        })
        .sum()
}
