//! The stopping decoders of the vector tiers whose decoders do not stop at
//! CESU-8's and Modified UTF-8's forms themselves (AVX2, SSE4.2 and NEON;
//! their validators, and AVX-512's decoders, flag those forms as errors):
//! `portable::stopping`'s loop over each tier's plain-ASCII runs (x86's and
//! aarch64's `plain_runs`), byte search and RFC 3629 decoder. Only those
//! parts differ between tiers, so the glue is written once, here, and each
//! tier instantiates it with [`stopping_kernels!`].

use crate::arch::kernels::{DecodeKernel, DecodeU16Kernel, FindByteKernel};

use crate::contract::FastStop;
use crate::contract::Stops;
use crate::portable::stopping::run;

/// Widens the plain blocks at the start of a slice into the `cap` units
/// at the pointer (swapped with the first flag; 00 a stop with the second).
pub(crate) type PlainUnits = unsafe fn(&[u8], *mut u16, usize, bool, bool) -> usize;
/// Widens the plain blocks into the `cap` code points at the pointer
/// (00 a stop with the flag).
pub(crate) type PlainScalars = unsafe fn(&[u8], *mut u32, usize, bool) -> usize;

/// A `StopDecodeU16Kernel` from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU; `out` points to `cap` writable
/// units.
pub(crate) unsafe fn decode_utf16(
    (find, plain, decode): (FindByteKernel, PlainUnits, DecodeU16Kernel),
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
    stops: Stops,
) -> FastStop {
    // SAFETY (each call below): the parts are callable (the caller's
    // promise), and `out + written` has `cap - written` units.
    unsafe {
        run(
            src,
            stops,
            |s, b, t| find(s, b, t),
            |s, w, zero| {
                let n = plain(s, out.add(w), cap - w, swap, zero);
                (n, n)
            },
            |s, w| decode(s, out.add(w), cap - w, swap),
        )
    }
}

/// A `StopDecodeKernel` from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU; `out` points to `cap` writable
/// code points.
pub(crate) unsafe fn decode(
    (find, plain, decode): (FindByteKernel, PlainScalars, DecodeKernel),
    src: &[u8],
    out: *mut u32,
    cap: usize,
    stops: Stops,
) -> FastStop {
    // SAFETY (each call below): the parts are callable (the caller's
    // promise), and `out + written` has `cap - written` code points.
    unsafe {
        run(
            src,
            stops,
            |s, b, t| find(s, b, t),
            |s, w, zero| {
                let n = plain(s, out.add(w), cap - w, zero);
                (n, n)
            },
            |s, w| decode(s, out.add(w), cap - w),
        )
    }
}

/// A tier's `mod stops`: its two stopping decoders from its parts (the
/// byte search, the plain-ASCII runs to units and to code points, and the
/// RFC 3629 UTF-16 and UCS-4 decoders).
macro_rules! stopping_kernels {
    ($find:path, $units:path, $scalars:path, $to_utf16:path, $to_ucs4:path) => {
        /// The stopping kernels of this tier (see `arch::generic::stopping`).
        mod stops {
            use crate::arch::generic::stopping;
            use crate::contract::{FastStop, Stops};

            /// # Safety
            /// As for any `StopDecodeU16Kernel` of this tier.
            pub(super) unsafe fn decode_utf16(
                src: &[u8],
                out: *mut u16,
                cap: usize,
                swap: bool,
                stops: Stops,
            ) -> FastStop {
                let parts = ($find as _, $units as _, $to_utf16 as _);
                // SAFETY: this tier's parts, on a CPU that has its features.
                unsafe { stopping::decode_utf16(parts, src, out, cap, swap, stops) }
            }

            /// # Safety
            /// As for any `StopDecodeKernel` of this tier.
            pub(super) unsafe fn decode(
                src: &[u8],
                out: *mut u32,
                cap: usize,
                stops: Stops,
            ) -> FastStop {
                let parts = ($find as _, $scalars as _, $to_ucs4 as _);
                // SAFETY: as above.
                unsafe { stopping::decode(parts, src, out, cap, stops) }
            }
        }
    };
}
pub(crate) use stopping_kernels;
