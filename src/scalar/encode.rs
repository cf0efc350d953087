//! Code points to UTF-8.

use super::sink::Sink;
use crate::types::{EncodePolicy, ErrorKind, Progress, Status, Utf8Error};

/// Encodes `src` into `sink`. Each unit is written whole or not at all.
pub fn encode<S: Sink<u8>>(src: &[u32], sink: &mut S, policy: EncodePolicy) -> Progress {
    let stop = |status, read, sink: &S| Progress {
        status,
        read,
        written: sink.written(),
    };
    let mut buf = [0u8; 4];
    for (read, &unit) in src.iter().enumerate() {
        let bytes: &[u8] = match char::from_u32(unit) {
            Some(c) => c.encode_utf8(&mut buf).as_bytes(),
            None => match policy {
                EncodePolicy::Replace(c) => c.encode_utf8(&mut buf).as_bytes(),
                EncodePolicy::Escape if (0xDC80..=0xDCFF).contains(&unit) => {
                    buf[0] = unit as u8;
                    &buf[..1]
                }
                EncodePolicy::Strict | EncodePolicy::Escape => {
                    let kind = if (0xD800..=0xDFFF).contains(&unit) {
                        ErrorKind::Surrogate
                    } else {
                        ErrorKind::AboveMax
                    };
                    let error = Utf8Error {
                        valid_up_to: read,
                        kind,
                        len: 1,
                    };
                    return stop(Status::IllFormed(error), read, sink);
                }
            },
        };
        if !sink.push_all(bytes) {
            return stop(Status::OutputFull, read, sink);
        }
    }
    stop(Status::Done, src.len(), sink)
}
