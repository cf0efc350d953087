//! The standard fast paths over the stretches a dialect shares with RFC
//! 3629, the dialect's reference core over the rest.
//!
//! Each trip runs the tier's RFC 3629 kernel, strict and expecting more
//! input, on the input up to the next form [`crate::dialect::scan`] says it must not
//! see (or on all of it, if the kernel stops at the dialect's forms
//! itself: see [`Leg::fast`]). Whatever it stops at (an ill-formed sequence by RFC 3629, a cut
//! sequence, or that form) starts a dialect segment: everything before it
//! is RFC 3629 UTF-8 with none of the dialect's special forms, which every
//! dialect reads and writes alike. The dialect's reference core then takes a
//! window from there to a dialect boundary [`WINDOW`] elements on, applies
//! the policy, and the kernel resumes after it. A window cut at a boundary
//! gives exactly the output of the whole (see [`crate::dialect::boundary`]).

use crate::dialect::scan::Stretch;
use crate::{Dialect, Progress, Status};

/// Elements the reference core takes past each stop, at first: a text dense
/// with the dialect's forms doubles it at each stop the kernel makes
/// within [`DENSE`] elements, up to [`MAX_WINDOW`], and stays in the
/// reference core instead of paying a kernel call per form.
pub(super) const WINDOW: usize = 32;
const MAX_WINDOW: usize = 4096;
const DENSE: usize = 256;

/// One conversion in a dialect: its standard fast path and reference core.
pub(super) trait Leg<In> {
    /// The tier's RFC 3629 kernel on `src`, strict, more input expected;
    /// appends to the output. A kernel that stops at the dialect's forms
    /// itself returns `Done` short of the end of `src` where it stopped.
    fn fast(&mut self, src: &[In]) -> Progress;
    /// The dialect's reference core on `src`; appends to the output.
    fn scalar(&mut self, src: &[In], more_input: bool) -> Progress;
    /// Output units so far.
    fn written(&self) -> usize;
}

/// Runs `leg` over `src`. `special` says how many leading elements of a
/// slice the fast path may take, and whether a form of the dialect follows; `window_end(start, n)` is the end of a scalar
/// window of about `n` elements from `start` (a dialect boundary, or the
/// end).
pub(super) fn drive<In, L: Leg<In>>(
    src: &[In],
    leg: &mut L,
    special: impl Fn(&[In]) -> Stretch,
    window_end: impl Fn(usize, usize) -> usize,
    more_input: bool,
) -> Progress {
    let (mut read, mut handled) = (0, 0);
    // `src[read..limit]` holds none of the dialect's forms.
    let mut limit = 0;
    // Whether `limit` is a form of the dialect rather than the end of what
    // was scanned.
    let mut hit = false;
    let mut window = WINDOW;
    loop {
        if limit <= read {
            let stretch = special(&src[read..]);
            (limit, hit) = (read + stretch.take, stretch.hit);
        }
        if limit > read {
            let p = leg.fast(&src[read..limit]);
            read += p.read;
            // An "incomplete" at the end still needs the reference core: the
            // caller may not expect more input.
            let finished = p.status == Status::Done && read == src.len();
            if finished || p.status == Status::OutputFull {
                return at(p.status, read, leg.written(), handled);
            }
            if p.status == Status::Done && read == limit && !hit {
                // Only the end of a scan: nothing for the reference core.
                continue;
            }
            // Else the fast path stopped short of `limit`: at an error by
            // RFC 3629, or at a form of the dialect that its kernel flags.
            window = if p.read < DENSE {
                (window * 2).min(MAX_WINDOW)
            } else {
                WINDOW
            };
        } else {
            // The dialect's forms start right here: dense.
            window = (window * 2).min(MAX_WINDOW);
        }
        let end = window_end(read, window).max(read + 1).min(src.len());
        let last = end == src.len();
        // Short of the end, the window is decoded as if more followed: a
        // sequence its end cuts is left for the next trip, which sees the
        // bytes after it (decoded here, it would be reported cut short by
        // the end of the input, the wrong kind).
        let p = leg.scalar(&src[read..end], more_input || !last);
        let status = crate::contract::rebase(p.status, read);
        read += p.read;
        handled += p.handled;
        let resumable = matches!(status, Status::Done | Status::Incomplete { .. });
        if last || !resumable {
            return at(status, read, leg.written(), handled);
        }
    }
}

fn at(status: Status, read: usize, written: usize, handled: usize) -> Progress {
    Progress {
        status,
        read,
        written,
        handled,
    }
}

/// The end of a scalar window over bytes starting at `read`.
pub(super) fn byte_window(dialect: Dialect, src: &[u8]) -> impl Fn(usize, usize) -> usize + '_ {
    move |read, n| crate::dialect::boundary::next_boundary(dialect, src, (read + n).min(src.len()))
}

/// The end of a scalar window over code points or UTF-16 units starting at
/// `read`: never right after a high surrogate, whose meaning in WTF-8 (and
/// pairing in UTF-16) depends on the unit after it.
pub(super) fn unit_window<'a, T: Copy>(
    src: &'a [T],
    is_high: impl Fn(T) -> bool + 'a,
) -> impl Fn(usize, usize) -> usize + 'a {
    move |read, n| {
        let mut end = (read + n).min(src.len());
        while end < src.len() && is_high(src[end - 1]) {
            end += 1;
        }
        end
    }
}
