//! Conversions between the runtimes' forms with no UTF-8 in between
//! (Latin-1, UTF-16 and UCS-4, each way), one item at a time: the oracle
//! the engine's `convert` routes are tested against, and the code that
//! applies the caller's policy at each unit their fast loops stop before.
//!
//! A conversion reads its input as [`Item`]s: a Unicode scalar value (one
//! unit, or a UTF-16 surrogate pair), a surrogate that is not half of a
//! pair, a UCS-4 value above 0x10FFFF, or, when more input follows, a
//! high surrogate ending the chunk. The output form writes a scalar, or
//! says it cannot hold it (Latin-1 above U+00FF); everything it cannot
//! write goes to the policy ([`OnInvalid`]), exactly as in the UTF-8
//! functions: the strict policy stops at it, the others replace, escape
//! or drop it and count it in `handled`.
//!
//! Escaping keeps a surrogate as the same value in the other form, so any
//! UTF-16 goes to UCS-4 and back unchanged. From UCS-4 to UTF-16 a high
//! surrogate followed by a low one cannot be escaped: the two units would
//! read back as one pair, a different text. It stops as the strict policy
//! does, as does a value above 0x10FFFF, which no form here can hold; and
//! with more input to come, a high surrogate ending the chunk waits for
//! the next one (`Status::Incomplete`), which decides.

use super::sink::Sink;
use crate::types::{EncodePolicy, ErrorKind, Latin1Policy, Progress, Status, Utf8Error};

/// What starts at one input position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A Unicode scalar value, and how many input units it takes.
    Scalar(u32, usize),
    /// A surrogate code point that is not half of a pair.
    Surrogate(u32),
    /// A UCS-4 value above 0x10FFFF.
    AboveMax,
    /// A high surrogate ending the input, which more input may pair.
    Incomplete,
}

/// What the policy does with an item the output form cannot write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInvalid {
    /// Stops before it (`Status::IllFormed`).
    Stop,
    /// Writes this value instead (a scalar the output form holds).
    Replace(u32),
    /// Writes a surrogate as the same value (see the module documentation).
    Escape,
    /// Writes nothing.
    Drop,
}

impl From<EncodePolicy> for OnInvalid {
    fn from(p: EncodePolicy) -> Self {
        match p {
            EncodePolicy::Strict => OnInvalid::Stop,
            EncodePolicy::Replace(c) => OnInvalid::Replace(u32::from(c)),
            EncodePolicy::Escape => OnInvalid::Escape,
            EncodePolicy::Ignore => OnInvalid::Drop,
        }
    }
}

impl From<Latin1Policy> for OnInvalid {
    fn from(p: Latin1Policy) -> Self {
        match p {
            Latin1Policy::Strict => OnInvalid::Stop,
            Latin1Policy::Replace(b) => OnInvalid::Replace(u32::from(b)),
            Latin1Policy::Ignore => OnInvalid::Drop,
        }
    }
}

#[inline(always)]
fn is_surrogate(v: u32) -> bool {
    v & 0xFFFF_F800 == 0xD800
}

/// An input form.
pub trait Reader: Copy {
    /// One unit of the form in memory.
    type Unit: Copy;
    /// The item at `src[at]` (`at < src.len()`).
    fn item(self, src: &[Self::Unit], at: usize, more_input: bool) -> Item;
}

/// An output form.
pub trait Writer: Copy {
    /// One unit of the form in memory.
    type Unit: Copy + Default;
    /// The units of the scalar `value` in `buf`, or `None` if the form
    /// cannot hold it.
    fn scalar(self, value: u32, buf: &mut [Self::Unit; 2]) -> Option<usize>;
    /// The unit of the lone surrogate `s` kept as it is, or `None` if the
    /// form has no place for it.
    fn surrogate(self, s: u32, buf: &mut [Self::Unit; 2]) -> Option<usize>;
    /// Whether the surrogate `first`, kept, and then `next`, kept, would
    /// read back as one character.
    fn joins(self, first: u32, next: u32) -> bool;
}

/// Latin-1 bytes: every byte is the scalar of the same value.
#[derive(Clone, Copy, Debug)]
pub struct Latin1;

/// UTF-16 units; `swap` when their byte order is not the machine's.
#[derive(Clone, Copy, Debug)]
pub struct Utf16 {
    pub swap: bool,
}

/// UCS-4 (UTF-32) units; `swap` when their byte order is not the machine's.
#[derive(Clone, Copy, Debug)]
pub struct Ucs4 {
    pub swap: bool,
}

impl Reader for Latin1 {
    type Unit = u8;
    #[inline(always)]
    fn item(self, src: &[u8], at: usize, _more_input: bool) -> Item {
        Item::Scalar(u32::from(src[at]), 1)
    }
}

impl Utf16 {
    #[inline(always)]
    fn get(self, u: u16) -> u32 {
        u32::from(if self.swap { u.swap_bytes() } else { u })
    }
    #[inline(always)]
    fn put(self, u: u32) -> u16 {
        let u = u as u16;
        if self.swap {
            u.swap_bytes()
        } else {
            u
        }
    }
}

impl Reader for Utf16 {
    type Unit = u16;
    #[inline(always)]
    fn item(self, src: &[u16], at: usize, more_input: bool) -> Item {
        let u = self.get(src[at]);
        if !is_surrogate(u) {
            return Item::Scalar(u, 1);
        }
        if u >= 0xDC00 {
            return Item::Surrogate(u);
        }
        match src.get(at + 1).map(|&n| self.get(n)) {
            Some(low @ 0xDC00..=0xDFFF) => {
                Item::Scalar(0x1_0000 + ((u - 0xD800) << 10) + (low - 0xDC00), 2)
            }
            None if more_input => Item::Incomplete,
            _ => Item::Surrogate(u),
        }
    }
}

impl Writer for Utf16 {
    type Unit = u16;
    #[inline(always)]
    fn scalar(self, value: u32, buf: &mut [u16; 2]) -> Option<usize> {
        if value < 0x1_0000 {
            buf[0] = self.put(value);
            return Some(1);
        }
        let v = value - 0x1_0000;
        buf[0] = self.put(0xD800 | (v >> 10));
        buf[1] = self.put(0xDC00 | (v & 0x3FF));
        Some(2)
    }
    #[inline(always)]
    fn surrogate(self, s: u32, buf: &mut [u16; 2]) -> Option<usize> {
        buf[0] = self.put(s);
        Some(1)
    }
    #[inline(always)]
    fn joins(self, first: u32, next: u32) -> bool {
        (0xD800..0xDC00).contains(&first) && (0xDC00..0xE000).contains(&next)
    }
}

impl Ucs4 {
    #[inline(always)]
    fn get(self, v: u32) -> u32 {
        if self.swap {
            v.swap_bytes()
        } else {
            v
        }
    }
}

impl Reader for Ucs4 {
    type Unit = u32;
    #[inline(always)]
    fn item(self, src: &[u32], at: usize, _more_input: bool) -> Item {
        match self.get(src[at]) {
            v if is_surrogate(v) => Item::Surrogate(v),
            v if v > 0x10_FFFF => Item::AboveMax,
            v => Item::Scalar(v, 1),
        }
    }
}

impl Writer for Ucs4 {
    type Unit = u32;
    #[inline(always)]
    fn scalar(self, value: u32, buf: &mut [u32; 2]) -> Option<usize> {
        buf[0] = self.get(value);
        Some(1)
    }
    #[inline(always)]
    fn surrogate(self, s: u32, buf: &mut [u32; 2]) -> Option<usize> {
        buf[0] = self.get(s);
        Some(1)
    }
    #[inline(always)]
    fn joins(self, _first: u32, _next: u32) -> bool {
        false
    }
}

impl Writer for Latin1 {
    type Unit = u8;
    #[inline(always)]
    fn scalar(self, value: u32, buf: &mut [u8; 2]) -> Option<usize> {
        buf[0] = u8::try_from(value).ok()?;
        Some(1)
    }
    #[inline(always)]
    fn surrogate(self, _s: u32, _buf: &mut [u8; 2]) -> Option<usize> {
        None
    }
    #[inline(always)]
    fn joins(self, _first: u32, _next: u32) -> bool {
        false
    }
}

/// Converts `src` from the form `r` reads to the form `w` writes, into
/// `sink`, applying `on_invalid` to what `w` cannot write; stops before the
/// first item that starts at or after `stop_after` (pass `src.len()` for
/// all of it: the engine passes 1, to have one item converted).
///
/// Each item is written whole or not at all (`Status::OutputFull` before
/// it otherwise); `read` counts input units, `written` output units.
pub fn convert<R: Reader, W: Writer, S: Sink<W::Unit>>(
    r: R,
    w: W,
    src: &[R::Unit],
    sink: &mut S,
    on_invalid: OnInvalid,
    more_input: bool,
    stop_after: usize,
) -> Progress {
    let mut handled = 0;
    let mut i = 0;
    let end = |status, read, handled, sink: &S| Progress {
        status,
        read,
        written: sink.written(),
        handled,
    };
    while i < src.len() && i < stop_after {
        let mut buf = [W::Unit::default(); 2];
        let item = r.item(src, i, more_input);
        let (written, len, kind) = match item {
            Item::Incomplete => return end(Status::Incomplete { len: 1 }, i, handled, sink),
            Item::Scalar(v, len) => match w.scalar(v, &mut buf) {
                Some(n) => (Some(n), len, ErrorKind::NotRepresentable),
                None => (None, len, ErrorKind::NotRepresentable),
            },
            Item::Surrogate(_) => (None, 1, ErrorKind::Surrogate),
            Item::AboveMax => (None, 1, ErrorKind::AboveMax),
        };
        let (n, invalid) = match written {
            Some(n) => (n, false),
            None => {
                let n = match (on_invalid, item) {
                    (OnInvalid::Replace(c), _) => w.scalar(c, &mut buf),
                    (OnInvalid::Escape, Item::Surrogate(s)) => {
                        let next = (i + 1 < src.len()).then(|| r.item(src, i + 1, more_input));
                        match next {
                            Some(Item::Surrogate(t)) if w.joins(s, t) => None,
                            // What follows decides whether it can be kept.
                            None if more_input && w.joins(s, 0xDC00) => {
                                return end(Status::Incomplete { len: 1 }, i, handled, sink)
                            }
                            _ => w.surrogate(s, &mut buf),
                        }
                    }
                    (OnInvalid::Drop, _) => Some(0),
                    _ => None,
                };
                let Some(n) = n else {
                    let error = Utf8Error {
                        valid_up_to: i,
                        kind,
                        len: len as u8,
                    };
                    return end(Status::IllFormed(error), i, handled, sink);
                };
                (n, true)
            }
        };
        if !sink.push_all(&buf[..n]) {
            return end(Status::OutputFull, i, handled, sink);
        }
        handled += usize::from(invalid);
        i += len;
    }
    end(Status::Done, i, handled, sink)
}

/// Checks that every unit of `src` is a Unicode scalar value: `read` is
/// the length of the valid prefix, the error the first surrogate or value
/// above 0x10FFFF.
pub fn validate_ucs4(src: &[u32], swap: bool) -> Progress {
    let mut sink = super::sink::CountSink::default();
    let mut p = convert(
        Ucs4 { swap },
        Ucs4 { swap },
        src,
        &mut sink,
        OnInvalid::Stop,
        false,
        src.len(),
    );
    p.written = 0;
    p
}
