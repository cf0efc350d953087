//! Decoding to Latin-1 through a buffer of code points, for a tier without
//! a Latin-1 decoder (the scalar tier) and to measure Latin-1 output.
//!
//! The conversion runs the tier's UTF-8 -> UCS-4 decoder a chunk at a time
//! into a stack buffer of code points ([`CHUNK`]), and narrows that buffer
//! into the caller's form ([`Narrow`]). The UCS-4 decoder already applies
//! every policy exactly, so the only new question is where a chunk stops:
//! when the caller's buffer fills in the middle of a chunk, or a character
//! does not fit the form (above U+00FF), the chunk is decoded again with
//! room for exactly the code points taken, and the UCS-4 decoder's `read`
//! is then the exact byte offset.

use crate::contract::rebase;
use crate::reference::segment::{next_segment, Segment};
use crate::{Engine, Policy, Progress, Status};

/// Code points per trip through the stack buffer: long enough that the
/// kernel's set-up is paid rarely, short enough to stay in L1 (4 KiB).
pub(crate) const CHUNK: usize = 1024;

/// The buffer for inputs of at most this many units (bytes or UTF-16
/// units), which can hold no more code points.
pub(crate) const SHORT_BUF: usize = 64;

/// How many of a chunk's code points an output took.
pub(crate) enum Taken {
    /// All of them.
    All,
    /// The first `n`; the next does not fit in the caller's buffer.
    Full(usize),
    /// The first `n`; the next cannot be represented in the output form.
    Unrepresentable(usize),
}

/// An output form fed with decoded code points.
pub(crate) trait Narrow {
    /// Output units left (`usize::MAX` when only measuring); at least one
    /// code point fits per unit if any does.
    fn room(&self) -> usize;
    /// Whether the form drops some code points, writing nothing for them
    /// (Latin-1's characters above U+00FF under the ignore policy): then a
    /// full buffer does not bound how many code points it can take.
    fn drops(&self) -> bool {
        false
    }
    /// Writes the leading code points of `cps` that fit.
    fn take(&mut self, cps: &[u32]) -> Taken;
    /// Code points the form replaced or dropped since the last call (a
    /// character above U+00FF in Latin-1), for [`Progress::handled`].
    fn handled(&mut self) -> usize {
        0
    }
    /// Writes the whole 32-byte blocks of ASCII at the start of `bytes`, as
    /// characters, as far as they fit; returns how many bytes it wrote.
    fn take_ascii_blocks(&mut self, bytes: &[u8]) -> usize;
    /// Output units written (or counted) so far.
    fn written(&self) -> usize;
    /// Whether this well-formed character is an error for the form, which
    /// takes precedence over a full buffer (as an ill-formed sequence
    /// does in the UCS-4 decoder).
    fn rejects(&self, scalar: u32) -> bool;
}

/// Decodes `src` with `engine`'s UCS-4 decoder into `out`, a chunk at a time.
///
/// Each chunk is at most [`CHUNK`] bytes of input, so its code points (at
/// most one a byte, under every policy) always fit the buffer and the
/// kernel runs to the chunk's end. Chunks before the last are decoded with
/// `more_input`: a sequence the cut splits is left for the next chunk,
/// which is what makes chunked decoding equal to one-shot decoding.
pub(crate) fn through_ucs4<N: Narrow>(
    engine: &Engine,
    src: &[u8],
    policy: Policy,
    more_input: bool,
    out: &mut N,
) -> Progress {
    // A short input gets a short buffer: zeroing 4 KiB would cost more than
    // its conversion.
    let (mut small, mut large);
    let buf: &mut [u32] = if src.len() <= SHORT_BUF {
        small = [0u32; SHORT_BUF];
        &mut small
    } else {
        large = [0u32; CHUNK];
        &mut large
    };
    let mut read = 0;
    let mut handled = 0;
    loop {
        // ASCII runs skip the code point buffer.
        read += out.take_ascii_blocks(&src[read..]);
        let end = chunk_end(src, read);
        let last = end == src.len();
        let chunk = &src[read..end];
        let more = more_input || !last;
        let k = if out.drops() {
            buf.len()
        } else {
            out.room().min(buf.len())
        };
        let p = engine.decode_ucs4(chunk, &mut buf[..k], policy, more);
        let (n, cut) = match out.take(&buf[..p.written]) {
            Taken::All => (p.written, None),
            Taken::Full(n) => (n, Some(false)),
            Taken::Unrepresentable(n) => (n, Some(true)),
        };
        if let Some(unrepresentable) = cut {
            // Decoding again with room for exactly `n` code points stops
            // where code point `n` starts.
            let q = engine.decode_ucs4(chunk, &mut buf[..n], policy, more);
            debug_assert_eq!(q.status, Status::OutputFull);
            // `q`, not `p`: only the subparts before code point `n` count.
            handled += q.handled + out.handled();
            let at = read + q.read;
            let status = if unrepresentable {
                Status::IllFormed(crate::Utf8Error {
                    valid_up_to: at,
                    kind: crate::ErrorKind::NotRepresentable,
                    len: crate::reference::segment::sequence_len(src[at]),
                })
            } else {
                Status::OutputFull
            };
            return Progress {
                status,
                read: at,
                written: out.written(),
                handled,
            };
        }
        handled += p.handled + out.handled();
        let base = read;
        read += p.read;
        match p.status {
            // The chunk is done, or its last few bytes wait for the next.
            Status::Done | Status::Incomplete { .. } if !last => continue,
            // The form dropped some of the code points, so the caller's
            // buffer still has room: the rest of the chunk may fill it.
            Status::OutputFull if out.room() > 0 => continue,
            _ => {}
        }
        let mut status = rebase(p.status, base);
        if status == Status::OutputFull {
            if let Segment::Char { scalar, len } = next_segment(&src[read..]) {
                if out.rejects(scalar) {
                    status = Status::IllFormed(crate::Utf8Error {
                        valid_up_to: read,
                        kind: crate::ErrorKind::NotRepresentable,
                        len,
                    });
                }
            }
        }
        return Progress {
            status,
            read,
            written: out.written(),
            handled,
        };
    }
}

/// Where the chunk starting at `read` ends: the end of the input, or a byte
/// that is not a continuation byte within [`CHUNK`] bytes (at most 3 back
/// from the limit), so that valid text never has a character cut; cut
/// damaged text is handled by `more_input`.
fn chunk_end(src: &[u8], read: usize) -> usize {
    let limit = read + CHUNK;
    if limit >= src.len() {
        return src.len();
    }
    (limit - 3..=limit)
        .rev()
        .find(|&i| !crate::reference::segment::is_continuation(src[i]))
        .unwrap_or(limit)
}
