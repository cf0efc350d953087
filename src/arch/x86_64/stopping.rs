//! The stopping kernels of the x86 tiers whose kernels do not stop at
//! CESU-8's and Modified UTF-8's forms themselves (decoding on AVX2 and
//! SSE4.2, validation on every tier): `arch::stopping`'s loop over each
//! tier's plain-ASCII runs (`plain_runs`), byte search and RFC 3629 kernel.

use crate::arch::kernels::{DecodeKernel, DecodeU16Kernel, FindByteKernel, ScanKernel, Stops};
use crate::arch::stopping::run;
use crate::arch::FastStop;

/// Widens the plain blocks at the start of a slice into the `cap` units
/// at the pointer (swapped with the first flag; 00 a stop with the second).
pub(super) type PlainUnits = unsafe fn(&[u8], *mut u16, usize, bool, bool) -> usize;
/// Widens the plain blocks into the `cap` code points at the pointer
/// (00 a stop with the flag).
pub(super) type PlainScalars = unsafe fn(&[u8], *mut u32, usize, bool) -> usize;
/// The bytes in the plain blocks at the start of a slice (00 a stop with
/// the flag).
pub(super) type PlainSkip = unsafe fn(&[u8], bool) -> usize;

/// A `StopDecodeU16Kernel` from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU; `out` points to `cap` writable
/// units.
pub(super) unsafe fn decode_utf16(
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
pub(super) unsafe fn decode(
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

/// A `StopScanKernel` validating, from a tier's parts.
///
/// # Safety
/// The parts must be callable on this CPU.
pub(super) unsafe fn validate(
    (find, plain, validate): (FindByteKernel, PlainSkip, ScanKernel<u8>),
    src: &[u8],
    stops: Stops,
) -> FastStop {
    // SAFETY (each call below): the parts are callable (the caller's
    // promise).
    unsafe {
        run(
            src,
            stops,
            |s, b, t| find(s, b, t),
            |s, _, zero| (plain(s, zero), 0),
            |s, _| validate(s),
        )
    }
}

/// A tier's `mod stops`: its three stopping kernels from its parts (the
/// byte search, the plain-ASCII runs to units, to code points and skipped,
/// and the RFC 3629 UTF-16 decoder, UCS-4 decoder and validator).
macro_rules! stopping_kernels {
    ($find:path, $units:path, $scalars:path, $skip:path, $to_utf16:path, $to_ucs4:path, $validate:path) => {
        /// The stopping kernels of this tier (see `x86_64::stopping`).
        mod stops {
            use crate::arch::x86_64::stopping;
            use crate::arch::{FastStop, Stops};

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

            /// # Safety
            /// As for any `StopScanKernel` of this tier.
            pub(super) unsafe fn validate(src: &[u8], stops: Stops) -> FastStop {
                let parts = ($find as _, $skip as _, $validate as _);
                // SAFETY: as above.
                unsafe { stopping::validate(parts, src, stops) }
            }
        }
    };
}
pub(super) use stopping_kernels;
