//! Validation: the offset, kind and maximal-subpart length of the first
//! ill-formed subsequence.

use super::ascii::ascii_prefix_len;
use super::segment::{next_segment, Segment};
use crate::types::{ErrorKind, Progress, Status, Utf8Error};

/// Validates `src`. `read` is the length of the well-formed prefix; `written`
/// is always 0.
pub fn validate(src: &[u8], more_input: bool) -> Progress {
    let mut read = 0usize;
    let status = loop {
        read += ascii_prefix_len(&src[read..]);
        if read == src.len() {
            break Status::Done;
        }
        match next_segment(&src[read..]) {
            Segment::Char { len, .. } => read += len as usize,
            Segment::Truncated { len } if more_input => break Status::Incomplete { len },
            Segment::Truncated { len } => {
                break Status::IllFormed(Utf8Error {
                    valid_up_to: read,
                    kind: ErrorKind::EndOfInput,
                    len,
                })
            }
            Segment::Invalid { kind, len } => {
                break Status::IllFormed(Utf8Error {
                    valid_up_to: read,
                    kind,
                    len,
                })
            }
        }
    };
    Progress {
        status,
        read,
        written: 0,
        handled: 0,
    }
}

/// Bytes of `src` that are not continuation bytes: the number of code points
/// when `src` is well-formed. The oracle of the portable core's count.
#[cfg(test)]
pub fn count_leads(src: &[u8]) -> usize {
    src.iter()
        .filter(|&&b| !super::segment::is_continuation(b))
        .count()
}
