//! Code points and UTF-16 to each dialect: the reference the fast paths
//! fall back to for the units they leave alone.

use crate::reference::encode::unit_error;
use crate::reference::legacy::unescape;
use crate::reference::sink::Sink;
use crate::reference::utf16::{Next, Units};
use crate::{ByteOrder, Dialect, EncodePolicy, ErrorKind, Progress, Status};

/// Writes the shortest form of `value` (< 2^31) in RFC 2044's table to the
/// start of `buf` and returns its length, 1 to 6 bytes.
#[inline]
pub(crate) fn put_legacy(value: u32, buf: &mut [u8]) -> usize {
    let len = match value {
        0..=0x7F => {
            buf[0] = value as u8;
            return 1;
        }
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    };
    let mut v = value;
    for slot in buf[1..len].iter_mut().rev() {
        *slot = 0x80 | (v & 0x3F) as u8;
        v >>= 6;
    }
    // The lead: `len` one bits, a zero, then the value's top bits.
    buf[0] = (0xFF00u32 >> len) as u8 | v as u8;
    len
}

fn is_surrogate(u: u32) -> bool {
    (0xD800..0xE000).contains(&u)
}

/// Writes `unit` in `dialect` to `buf` and returns its length, or `None` if
/// it is ill-formed there. `pairs_next`: the unit after it is a low
/// surrogate (only WTF-8 cares: a high surrogate then may not stand alone).
#[inline]
fn form(dialect: Dialect, unit: u32, pairs_next: bool, buf: &mut [u8; 6]) -> Option<usize> {
    match dialect {
        Dialect::Standard if is_surrogate(unit) || unit > 0x10_FFFF => None,
        Dialect::Legacy if is_surrogate(unit) || unit > 0x7FFF_FFFF => None,
        Dialect::Cesu8 | Dialect::Mutf8 if is_surrogate(unit) || unit > 0x10_FFFF => None,
        Dialect::Mutf8 if unit == 0 => {
            buf[..2].copy_from_slice(&[0xC0, 0x80]);
            Some(2)
        }
        Dialect::Cesu8 | Dialect::Mutf8 if unit >= 0x1_0000 => {
            let v = unit - 0x1_0000;
            put_legacy(0xD800 | v >> 10, &mut buf[..3]);
            put_legacy(0xDC00 | (v & 0x3FF), &mut buf[3..]);
            Some(6)
        }
        Dialect::Wtf8 | Dialect::Generalized if unit > 0x10_FFFF => None,
        Dialect::Wtf8 if pairs_next && (0xD800..0xDC00).contains(&unit) => None,
        // Below 0x110000 (or 2^31 for legacy) every dialect's form of what
        // it accepts is RFC 2044's shortest form.
        _ => Some(put_legacy(unit, buf)),
    }
}

/// The bytes `unit` becomes in `dialect` under `policy` (empty if the
/// policy drops it), and whether the policy handled it (it is invalid in
/// the dialect); or why it cannot be encoded.
#[inline]
pub(crate) fn unit_bytes_in(
    dialect: Dialect,
    unit: u32,
    pairs_next: bool,
    policy: EncodePolicy,
    buf: &mut [u8; 6],
) -> Result<(&[u8], bool), ErrorKind> {
    if let Some(len) = form(dialect, unit, pairs_next, buf) {
        return Ok((&buf[..len], false));
    }
    handle(dialect, unit, policy, buf).map(|bytes| (bytes, true))
}

/// What `policy` makes of `unit`, which `dialect` cannot write.
fn handle(
    dialect: Dialect,
    unit: u32,
    policy: EncodePolicy,
    buf: &mut [u8; 6],
) -> Result<&[u8], ErrorKind> {
    match policy {
        // A scalar value, which every dialect can write (in its own form:
        // a supplementary replacement is a pair in CESU-8).
        EncodePolicy::Replace(c) => {
            let len = form(dialect, c as u32, false, buf).unwrap_or(0);
            Ok(&buf[..len])
        }
        // Modified UTF-8 also escapes 00, the one ASCII byte it refuses.
        EncodePolicy::Escape if unescape(unit, dialect == Dialect::Mutf8).is_some() => {
            buf[0] = unit as u8;
            Ok(&buf[..1])
        }
        EncodePolicy::Ignore => Ok(&buf[..0]),
        EncodePolicy::Strict | EncodePolicy::Escape => Err(if is_surrogate(unit) {
            ErrorKind::Surrogate
        } else {
            ErrorKind::AboveMax
        }),
    }
}

/// Encodes code points in `dialect` into `sink`; each unit whole or not at
/// all.
pub fn encode<S: Sink<u8>>(
    dialect: Dialect,
    src: &[u32],
    sink: &mut S,
    policy: EncodePolicy,
) -> Progress {
    let mut buf = [0u8; 6];
    let mut handled = 0;
    for (read, &unit) in src.iter().enumerate() {
        let pairs_next = src
            .get(read + 1)
            .is_some_and(|&n| (0xDC00..0xE000).contains(&n));
        let status = match unit_bytes_in(dialect, unit, pairs_next, policy, &mut buf) {
            Ok((bytes, bad)) if sink.push_all(bytes) => {
                handled += usize::from(bad);
                continue;
            }
            Ok(_) => Status::OutputFull,
            Err(kind) => unit_error(read, kind),
        };
        return stop(status, read, handled, sink);
    }
    stop(Status::Done, src.len(), handled, sink)
}

fn stop<S: Sink<u8>>(status: Status, read: usize, handled: usize, sink: &S) -> Progress {
    Progress {
        status,
        read,
        written: sink.written(),
        handled,
    }
}

/// Writes the leading UTF-16 units of `src` (byte-swapped if `swap`) in
/// CESU-8, or Modified UTF-8 with `mutf8`, to `dst`, as far as they fit:
/// there each unit is its own 1- to 3-byte form, a surrogate pair two of
/// them. Stops before an unpaired surrogate and a high surrogate that ends
/// `src` (the general loop decides those). Returns units read and bytes
/// written.
pub(crate) fn cesu_from_utf16(
    src: &[u16],
    dst: &mut [u8],
    swap: bool,
    mutf8: bool,
) -> (usize, usize) {
    let unit = |i: usize| if swap { src[i].swap_bytes() } else { src[i] };
    let (mut i, mut o) = (0, 0);
    while i < src.len() {
        // Runs of pairs (a text of supplementary characters) go without
        // the per-unit length logic.
        while let (Some(&[h, l]), Some(out)) = (src.get(i..i + 2), dst.get_mut(o..o + 6)) {
            let (h, l) = if swap {
                (h.swap_bytes(), l.swap_bytes())
            } else {
                (h, l)
            };
            if h & 0xFC00 != 0xD800 || l & 0xFC00 != 0xDC00 {
                break;
            }
            let half =
                |lead: u8, u: u16| [0xED, lead | (u >> 6) as u8 & 0x0F, 0x80 | u as u8 & 0x3F];
            out.copy_from_slice(&concat(half(0xA0, h), half(0xB0, l)));
            i += 2;
            o += 6;
        }
        if i == src.len() {
            break;
        }
        let u = unit(i);
        let take = if u & 0xF800 != 0xD800 {
            1
        } else if u < 0xDC00 && i + 1 < src.len() && unit(i + 1) & 0xFC00 == 0xDC00 {
            2
        } else {
            break;
        };
        let need = if take == 2 {
            6
        } else if u == 0 && mutf8 {
            2
        } else {
            1 + usize::from(u >= 0x80) + usize::from(u >= 0x800)
        };
        let Some(out) = dst.get_mut(o..o + need) else {
            break;
        };
        let three = |u: u16| {
            [
                0xE0 | (u >> 12) as u8,
                0x80 | (u >> 6) as u8 & 0x3F,
                0x80 | u as u8 & 0x3F,
            ]
        };
        match out {
            [a, b, c, d, e, f] => [*a, *b, *c, *d, *e, *f] = concat(three(u), three(unit(i + 1))),
            [a, b, c] => [*a, *b, *c] = three(u),
            [a, b] if u == 0 => [*a, *b] = [0xC0, 0x80],
            [a, b] => [*a, *b] = [0xC0 | (u >> 6) as u8, 0x80 | u as u8 & 0x3F],
            [a] => *a = u as u8,
            _ => unreachable!("1, 2, 3 or 6 bytes"),
        }
        i += take;
        o += need;
    }
    (i, o)
}

fn concat(a: [u8; 3], b: [u8; 3]) -> [u8; 6] {
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// Encodes UTF-16 `src` (in `order`) in `dialect` into `sink`. A surrogate
/// pair is one character, which CESU-8 and Modified UTF-8 write as two
/// 3-byte halves and the others as 4 bytes; an unpaired surrogate is a
/// 3-byte form in WTF-8 and generalized UTF-8, ill-formed elsewhere. With
/// `more_input`, a high surrogate ending `src` is left unread.
pub fn encode_utf16<S: Sink<u8>>(
    dialect: Dialect,
    src: &[u16],
    sink: &mut S,
    policy: EncodePolicy,
    order: ByteOrder,
    more_input: bool,
) -> Progress {
    let units = Units::new(src, order);
    let mut buf = [0u8; 6];
    let (mut read, mut handled) = (0, 0);
    while read < src.len() {
        let (value, len) = match units.next(read) {
            Next::Unit { value, len } => (value, len),
            Next::CutPair if more_input => {
                return stop(Status::Incomplete { len: 1 }, read, handled, sink)
            }
            Next::CutPair => (u32::from(units.get(read)), 1),
        };
        let status = match unit_bytes_in(dialect, value, false, policy, &mut buf) {
            Ok((bytes, bad)) if sink.push_all(bytes) => {
                read += len;
                handled += usize::from(bad);
                continue;
            }
            Ok(_) => Status::OutputFull,
            Err(kind) => unit_error(read, kind),
        };
        return stop(status, read, handled, sink);
    }
    stop(Status::Done, read, handled, sink)
}
