//! The kernel contract: what every layer says about a fast kernel's work,
//! apart from how a kernel is chosen.
//!
//! A fast kernel runs over a *valid prefix* of its input at full speed and
//! stops, at a character boundary, before the first block in which it sees
//! an error (or before it would overrun the output); it reports where in a
//! [`FastStop`]. The engine then hands the few units around the error to the
//! reference core, which applies the caller's policy exactly, and restarts
//! the kernel after them. The types and the restart points here are that
//! handshake's vocabulary: the kernels of every tier, the portable core, the
//! dialects and the engine import them, and they import nothing above the
//! reference core.
use crate::Status;

/// Where a fast kernel stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FastStop {
    /// Input consumed: everything before it was well-formed and was emitted.
    /// Always a character boundary.
    pub read: usize,
    /// Output units written (or counted).
    pub written: usize,
    /// Where the kernel saw an error (a byte offset for UTF-8 input, a unit
    /// index for UCS-4 input). `None` when it stopped at the end of the input
    /// or for lack of output room.
    pub flagged: Option<usize>,
}

impl FastStop {
    /// A UTF-8 -> Latin-1 kernel's stop at an error at byte `e` (of `len`),
    /// having read `read` and written `written`: flagged three bytes on, so
    /// that the reference core's window takes in the whole sequence a bad
    /// lead starts (its error kind depends on the bytes after it).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))] // Used by the vector kernels.
    pub(crate) fn latin1_error(read: usize, written: usize, e: usize, len: usize) -> FastStop {
        FastStop {
            read,
            written,
            flagged: Some((e + 3).min(len)),
        }
    }
}

/// The forms the UTF-16 encoders write, as their `MODE` const parameter:
/// RFC 3629 UTF-8, CESU-8 (a surrogate pair as two 3-byte forms, one per
/// unit) or Modified UTF-8 (CESU-8, and U+0000 as C0 80).
pub(crate) struct Mode;

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl Mode {
    pub(crate) const UTF8: u8 = 0;
    pub(crate) const CESU8: u8 = 1;
    pub(crate) const MUTF8: u8 = 2;
}

/// Bytes that a dialect's decoder must not let the RFC 3629 kernel take,
/// though RFC 3629 accepts them: a kernel stopping at them flags them as it
/// flags an error, and the dialect's reference core reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stops {
    /// F0..FF: the 4-byte leads CESU-8 refuses (F5..FF are errors anyway).
    Fours,
    /// F0..FF and 00: Modified UTF-8, which also refuses the byte 00.
    FoursAndZero,
}
/// Facts about well-formed UTF-8, gathered in one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Utf8Stats {
    /// Bytes that are not continuation bytes: the characters.
    pub leads: usize,
    /// Bytes F0..FF: the 4-byte characters.
    pub fours: usize,
    /// The largest byte (0 for empty input).
    pub max: u8,
}

/// Where a validating count stops at an error flagged at byte `e`, found
/// while checking the `width`-byte block at `i` (whose lead bytes are
/// `block_leads`) after counting `counted` characters up to `i`.
///
/// The count resumes exactly at the restart point `q`: when `q` lies in this
/// block, its leads before `q` are added; when it lies in the previous block
/// (`prev_leads`, already counted), that block's leads from `q` on are taken
/// back.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))] // Used by the vector kernels.
pub(crate) fn count_until_error(
    src: &[u8],
    e: usize,
    (i, width): (usize, usize),
    counted: usize,
    block_leads: u64,
    prev_leads: u64,
) -> FastStop {
    let below = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let q = restart_point(src, e);
    let counted = if q >= i {
        counted + (block_leads & below(q - i)).count_ones() as usize
    } else {
        counted - (prev_leads & !below(q + width - i)).count_ones() as usize
    };
    FastStop {
        read: q,
        written: counted,
        flagged: Some(e.min(src.len())),
    }
}

/// Where to restart exactly after a kernel flagged an error at byte `e`: the
/// last segment start in `e-3..e` (a multi-byte sequence that the error cut
/// short starts there), or `e` itself. Every byte before it is well-formed.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))] // Used by the vector kernels.
pub(crate) fn restart_point(src: &[u8], e: usize) -> usize {
    let e = e.min(src.len());
    (e.saturating_sub(3)..e)
        .rev()
        .find(|&q| !crate::reference::segment::is_continuation(src[q]))
        .unwrap_or(e)
}

/// Where validation goes on after a block-wise pass that checked and
/// counted `src[..i]`: the start of the last character begun before `i`
/// (after at most 3 continuation bytes), which the pass checked only as far
/// as `i`. Every character before it was checked whole; re-checking that
/// one costs a few bytes. (0 when `i` is 0.)
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))] // Used by the vector kernels.
pub(crate) fn last_start_before(src: &[u8], i: usize) -> usize {
    let conts = src
        .get(..i)
        .unwrap_or_default()
        .iter()
        .rev()
        .take(3)
        .take_while(|&&b| crate::reference::segment::is_continuation(b))
        .count();
    i.saturating_sub(1 + conts)
}

/// Shifts an error found in `src[base..]` to an offset in `src`.
pub(crate) fn rebase(status: Status, base: usize) -> Status {
    match status {
        Status::IllFormed(mut e) => {
            e.valid_up_to += base;
            Status::IllFormed(e)
        }
        other => other,
    }
}
