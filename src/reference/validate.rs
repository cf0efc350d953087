//! Validation: the offset, kind and maximal-subpart length of the first
//! ill-formed subsequence.

use super::ascii::ascii_prefix_len;
use super::segment::{next_segment, Segment};
use crate::types::{ErrorKind, Progress, Status, Utf8Error};

/// Validates `src`. `read` is the length of the well-formed prefix; `written`
/// is always 0.
#[inline(always)] // Small, and on the path of every error the kernels meet.
pub fn validate(src: &[u8], more_input: bool) -> Progress {
    // (Each exit builds its `Progress` whole: a status built in the loop
    // and moved out of it went through the stack in pieces, and reading it
    // back stalled the path of every error the kernels meet.)
    let stop = |status, read| Progress {
        status,
        read,
        written: 0,
        handled: 0,
    };
    let ill = |read, kind, len| {
        stop(
            Status::IllFormed(Utf8Error {
                valid_up_to: read,
                kind,
                len,
            }),
            read,
        )
    };
    let mut read = 0usize;
    loop {
        read += ascii_prefix_len(&src[read..]);
        if read == src.len() {
            return stop(Status::Done, read);
        }
        match next_segment(&src[read..]) {
            Segment::Char { len, .. } => read += len as usize,
            Segment::Truncated { len } if more_input => {
                return stop(Status::Incomplete { len }, read)
            }
            Segment::Truncated { len } => return ill(read, ErrorKind::EndOfInput, len),
            Segment::Invalid { kind, len } => return ill(read, kind, len),
        }
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
