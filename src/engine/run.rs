//! The shared loop of every route: a fast kernel over the valid stretches
//! of the input, the reference core over the few units around each error.
//!
//! A kernel that flags an error at unit `e` has already emitted everything
//! before a *restart point* `q` (the segment start at or just before the
//! damage). The reference core then converts the window from `q` to the
//! end the route gives for `e` (for UTF-8, the first boundary after it:
//! see `reference::boundary`, converting up to a boundary separately gives
//! exactly the whole-input output), applying the policy, and the kernel
//! resumes after it. The window is at most a handful of units.

use crate::contract::{rebase, FastStop};
use crate::reference::boundary::next_boundary;
use crate::{Progress, Status};

/// Where decoded or encoded units go, with the fast and scalar ways there.
pub(super) trait Output<In> {
    /// Runs the fast kernel on `src`, appending to the output.
    fn fast(&mut self, src: &[In]) -> FastStop;
    /// Runs the reference core on `src`, appending to the output.
    fn scalar(&mut self, src: &[In], last: bool) -> Progress;
    fn written(&self) -> usize;
}

/// The shared loop: fast kernel, scalar window at each flagged error, again.
/// `window_end` gives the end of the scalar window for an error flagged at
/// an absolute position.
pub(super) fn run<In, O: Output<In>>(
    src: &[In],
    out: &mut O,
    window_end: impl Fn(usize) -> usize,
) -> Progress {
    let first = out.fast(src);
    resume(src, out, window_end, first)
}

/// [`run`] after its first kernel call, which stopped at `stop`.
pub(super) fn resume<In, O: Output<In>>(
    src: &[In],
    out: &mut O,
    window_end: impl Fn(usize) -> usize,
    mut stop: FastStop,
) -> Progress {
    let mut read = 0;
    // Only the scalar windows apply a policy; the kernels stop before it.
    let mut handled = 0;
    loop {
        let flagged = stop.flagged.map(|e| read + e);
        read += stop.read;
        let end = match flagged {
            Some(e) => window_end(e),
            None if read == src.len() => {
                return Progress {
                    status: Status::Done,
                    read,
                    written: out.written(),
                    handled,
                }
            }
            // Out of room for a whole block: the reference core fills the rest
            // exactly and reports `OutputFull` within a block's worth.
            None => src.len(),
        };
        debug_assert!(end > read, "a scalar window always makes progress");
        let last = end == src.len();
        let p = out.scalar(&src[read..end], last);
        let status = rebase(p.status, read);
        read += p.read;
        handled += p.handled;
        if status != Status::Done || last {
            return Progress {
                status,
                read,
                written: out.written(),
                handled,
            };
        }
        stop = out.fast(&src[read..]);
    }
}

/// The scalar window for a UTF-8 error flagged at byte `e`: up to the first
/// boundary after it.
pub(super) fn utf8_window(src: &[u8]) -> impl Fn(usize) -> usize + '_ {
    move |e| next_boundary(src, (e + 1).min(src.len()))
}

pub(super) fn done(read: usize, written: usize) -> Progress {
    Progress {
        status: Status::Done,
        read,
        written,
        handled: 0,
    }
}

/// `p`, from the reference decoder run after a well-formed prefix of `read`
/// bytes and `written` units, as a result for the whole input.
pub(super) fn after_prefix(p: Progress, read: usize, written: usize) -> Progress {
    Progress {
        status: rebase(p.status, read),
        read: read + p.read,
        written: written + p.written,
        handled: p.handled,
    }
}
