//! Where the standard fast paths must stop for a dialect: the few inputs
//! that RFC 3629 accepts but the dialect reads or writes differently.
//!
//! RFC 3629's kernels stop by themselves at everything they reject, which
//! covers legacy UTF-8's long forms and WTF-8's surrogates. What they
//! accept and CESU-8 does not is a 4-byte form (and a code point above
//! U+FFFF, which CESU-8 writes as a pair), and Modified UTF-8 also refuses
//! the byte 00 (and writes U+0000 as C0 80). Decoding and validating, the
//! kernels stop there themselves ([`stops`] says where; see
//! `engine::stopping`); encoding code points, and measuring UTF-16's
//! encoded length, scan for them here, a block at a time with no branch
//! inside a block, which the compiler vectorises.

use crate::contract::Stops;
use crate::{ByteOrder, Dialect};

/// Elements tested per block before looking for the exact position.
const BLOCK: usize = 64;

/// Elements scanned ahead at a time. A scan of 16 KiB that the kernel
/// then reads again from L1 measured 2-3% slower than this (one kernel
/// call per 64 KiB instead of per 16 KiB): `cargo bench --bench dialects`.
const SCAN: usize = 64 * 1024;

/// What a scan found: the fast path may take `take` elements, and `hit`
/// says whether a form of the dialect follows them (else they are merely
/// all that was scanned).
#[derive(Clone, Copy)]
pub struct Stretch {
    pub take: usize,
    pub hit: bool,
}

/// Runs `find` (the index of the first hit in a slice, or its length) on
/// at most [`SCAN`] elements of `src`.
fn ahead<T>(src: &[T], find: impl FnOnce(&[T]) -> usize) -> Stretch {
    let scanned = &src[..src.len().min(SCAN)];
    let take = find(scanned);
    Stretch {
        take,
        hit: take < scanned.len(),
    }
}

/// All of `src`: a dialect that RFC 3629's kernels stop for by themselves,
/// or a kernel that stops at the dialect's forms.
pub(crate) fn all<T>(src: &[T]) -> Stretch {
    Stretch {
        take: src.len(),
        hit: false,
    }
}

/// The index of the first element of `src` for which `hit` holds, or
/// `src.len()`.
#[inline(always)]
fn first<T: Copy>(src: &[T], hit: impl Fn(T) -> bool) -> usize {
    let mut i = 0;
    for block in src.chunks_exact(BLOCK) {
        if block.iter().fold(false, |any, &x| any | hit(x)) {
            break;
        }
        i += BLOCK;
    }
    i + src[i..]
        .iter()
        .position(|&x| hit(x))
        .unwrap_or(src.len() - i)
}

/// The bytes the decoding kernels stop at for `dialect`, if it has any that
/// RFC 3629 accepts.
pub(crate) fn stops(dialect: Dialect) -> Option<Stops> {
    match dialect {
        Dialect::Cesu8 => Some(Stops::Fours),
        Dialect::Mutf8 => Some(Stops::FoursAndZero),
        _ => None,
    }
}

/// How many leading code points of `src` the standard encoder may take.
pub fn code_points(dialect: Dialect, src: &[u32]) -> Stretch {
    match dialect {
        Dialect::Cesu8 => ahead(src, |s| first(s, |c| c >= 0x1_0000)),
        Dialect::Mutf8 => ahead(src, |s| first(s, |c| c.wrapping_sub(1) >= 0xFFFF)),
        _ => all(src),
    }
}

/// How many leading UTF-16 units of `src` (in `order`) the standard encoder
/// may take: up to the first surrogate for CESU-8 (its pairs are written
/// as two halves), or surrogate or 0 for Modified UTF-8.
pub fn units(dialect: Dialect, src: &[u16], order: ByteOrder) -> Stretch {
    let swap = order.swaps();
    let native = move |u: u16| if swap { u.swap_bytes() } else { u };
    match dialect {
        Dialect::Cesu8 => ahead(src, |s| first(s, |u| native(u) & 0xF800 == 0xD800)),
        Dialect::Mutf8 => ahead(src, |s| {
            first(s, |u| {
                let u = native(u);
                u & 0xF800 == 0xD800 || u == 0
            })
        }),
        _ => all(src),
    }
}
