//! Code points to UTF-8.

use super::legacy::unescape;
use super::sink::Sink;
use crate::types::{EncodePolicy, ErrorKind, Progress, Status, Utf8Error};

/// The UTF-8 that `unit` encodes to under `policy` (in `buf`; empty when
/// the policy drops it), or why it cannot be encoded. Shared by the UCS-4 and UTF-16 encoders, so that a lone
/// surrogate is handled the same way in both.
#[inline]
pub(crate) fn unit_bytes(
    unit: u32,
    policy: EncodePolicy,
    buf: &mut [u8; 4],
) -> Result<&[u8], ErrorKind> {
    match char::from_u32(unit) {
        Some(c) => Ok(c.encode_utf8(buf).as_bytes()),
        None => match policy {
            EncodePolicy::Replace(c) => Ok(c.encode_utf8(buf).as_bytes()),
            EncodePolicy::Escape if unescape(unit, false).is_some() => {
                buf[0] = unit as u8;
                Ok(&buf[..1])
            }
            EncodePolicy::Ignore => Ok(&buf[..0]),
            EncodePolicy::Strict | EncodePolicy::Escape => {
                if (0xD800..=0xDFFF).contains(&unit) {
                    Err(ErrorKind::Surrogate)
                } else {
                    Err(ErrorKind::AboveMax)
                }
            }
        },
    }
}

/// The error for input unit `read`, which cannot be encoded.
pub(crate) fn unit_error(read: usize, kind: ErrorKind) -> Status {
    Status::IllFormed(Utf8Error {
        valid_up_to: read,
        kind,
        len: 1,
    })
}

/// Encodes `src` into `sink`. Each unit is written whole or not at all.
pub fn encode<S: Sink<u8>>(src: &[u32], sink: &mut S, policy: EncodePolicy) -> Progress {
    let mut handled = 0;
    let stop = |status, read, handled, sink: &S| Progress {
        status,
        read,
        written: sink.written(),
        handled,
    };
    let mut buf = [0u8; 4];
    for (read, &unit) in src.iter().enumerate() {
        let bytes = match unit_bytes(unit, policy, &mut buf) {
            Ok(bytes) => bytes,
            Err(kind) => return stop(unit_error(read, kind), read, handled, sink),
        };
        if !sink.push_all(bytes) {
            return stop(Status::OutputFull, read, handled, sink);
        }
        handled += usize::from(char::from_u32(unit).is_none());
    }
    stop(Status::Done, src.len(), handled, sink)
}
