//! The walk over UTF-8 that `check` and `fix` share: the library finds each
//! ill-formed sequence at vector speed, and a [`Visitor`] sees the valid
//! stretches between them and each maximal subpart.

use std::ops::ControlFlow;

use u8x::{Dialect, Status, Utf8Error};

use crate::Failure;

/// What a scan reports to.
pub trait Visitor {
    /// A stretch of well-formed UTF-8 (possibly empty).
    fn valid(&mut self, bytes: &[u8]) -> Result<(), Failure>;
    /// One ill-formed sequence: `at` is its index in the scanned data,
    /// `bytes` its maximal subpart. `Break` ends the scan after it.
    fn bad(
        &mut self,
        at: usize,
        error: Utf8Error,
        bytes: &[u8],
    ) -> Result<ControlFlow<()>, Failure>;
}

/// Scans `data[..limit]`; bytes from `limit` on are only looked at to
/// classify a sequence that ends at `limit` (a block of a file cut at a
/// character boundary is followed by the next block's first bytes, so that
/// an error before the cut gets the kind the whole file gives it). With
/// `more`, input continues after `data`, and a sequence cut by its end is
/// left unscanned. Returns how far the scan went: `limit` unless a sequence
/// was cut or the visitor stopped it (then just after that sequence).
pub fn scan(
    data: &[u8],
    limit: usize,
    more: bool,
    visitor: &mut impl Visitor,
) -> Result<(usize, ControlFlow<()>), Failure> {
    scan_in(Dialect::Standard, data, limit, more, visitor)
}

/// [`scan`] of UTF-8 in `dialect`: what is valid and ill-formed is what it
/// is in that dialect, and a cut sequence may be up to 5 bytes.
pub fn scan_in(
    dialect: Dialect,
    data: &[u8],
    limit: usize,
    more: bool,
    visitor: &mut impl Visitor,
) -> Result<(usize, ControlFlow<()>), Failure> {
    let mut pos = 0;
    while pos < limit {
        let p = u8x::validate_in(dialect, &data[pos..], more);
        let valid_end = (pos + p.read).min(limit);
        visitor.valid(&data[pos..valid_end])?;
        let Status::IllFormed(e) = p.status else {
            // Done, or a sequence cut by the end of `data`: carried over.
            return Ok((valid_end, ControlFlow::Continue(())));
        };
        pos = valid_end;
        if pos == limit {
            break; // The error belongs to what follows `limit`.
        }
        let end = pos + e.len as usize;
        let flow = visitor.bad(pos, e, &data[pos..end])?;
        pos = end;
        if flow.is_break() {
            return Ok((pos, flow));
        }
    }
    Ok((pos, ControlFlow::Continue(())))
}
