//! Validation: the offset, kind and maximal-subpart length of the first
//! ill-formed subsequence.

use super::segment::{next_segment, Segment};
use crate::types::{ErrorKind, Progress, Status, Utf8Error};

const WORD: usize = core::mem::size_of::<usize>();
const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);

/// How far the decoders look for the end of an ASCII run at once.
pub(crate) const ASCII_LOOK_AHEAD: usize = 4096;

/// Length of the all-ASCII prefix of `src`, a word at a time.
#[inline]
pub fn ascii_prefix_len(src: &[u8]) -> usize {
    let mut i = 0;
    for word in src.chunks_exact(WORD) {
        let w = usize::from_ne_bytes(word.try_into().unwrap_or([0xFF; WORD]));
        if w & HIGH_BITS != 0 {
            break;
        }
        i += WORD;
    }
    i + src[i..].iter().take_while(|b| b.is_ascii()).count()
}

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
