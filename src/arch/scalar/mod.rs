//! The scalar tier: the portable core (`crate::portable`) as a table of
//! kernels, like any other tier's. It runs on every CPU, in safe Rust that
//! the compiler vectorises where it can (the baseline's SSE2 on x86-64,
//! NEON on aarch64); the other tiers are tested against it.
//!
//! The portable functions take slices; the kernels' types take an output
//! pointer and its length (so that a vector tier's call is one indirect
//! call), so each entry here rebuilds the slice its caller took apart and
//! hands it on. Where the portable core has no fast function (the
//! dialects' stopping decoders, CESU-8's pairs, Latin-1 decoding), the
//! entry is `None` and the engine takes its route for a tier without one.

use core::slice;

use crate::arch::{Kernels, Table, Tier};
use crate::contract::{FastStop, Utf8Stats};
use crate::portable::form::{Ucs4, Utf16};
use crate::portable::{count, decode, encode, latin1, sizes, utf16, validate};
use crate::{reference, Progress, Status};

crate::arch::loops::portable_loops!();

/// The longest well-formed prefix of `src`, as a validating kernel reports
/// it: the portable validator finds a prefix a few bytes short of the
/// first error at most, and the reference core the error exactly; the
/// flag is on the byte after its maximal subpart (the one that ruled the
/// character out), as a vector kernel flags the byte where its check
/// fails, so that the engine's window around it covers the whole error.
/// A sequence cut by the end of `src` is not flagged.
fn valid_prefix(src: &[u8]) -> FastStop {
    let read = validate::valid_up_to(src);
    let (read, flagged) = match reference::validate::validate(&src[read..], true) {
        Progress {
            status: Status::IllFormed(e),
            ..
        } => {
            let at = read + e.valid_up_to;
            (at, Some(at + usize::from(e.len)))
        }
        p => (read + p.read, None),
    };
    FastStop {
        read,
        written: 0,
        flagged,
    }
}

/// The caller's output as a slice.
///
/// # Safety
/// `out` points to `cap` writable units, not otherwise in use during the
/// call (every kernel's contract).
unsafe fn output<'a, T>(out: *mut T, cap: usize) -> &'a mut [T] {
    // SAFETY: the caller's promise; callers pass a slice's pointer and
    // length, so `out` is never NULL.
    unsafe { slice::from_raw_parts_mut(out, cap) }
}

fn count(src: &[u8]) -> FastStop {
    let stop = valid_prefix(src);
    FastStop {
        written: count::count_leads(&src[..stop.read]),
        ..stop
    }
}

unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the kernel's contract, passed on.
    decode::decode_valid::<Ucs4>(src, unsafe { output(out, cap) })
}

unsafe fn decode_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the kernel's contract, passed on.
    let dst = unsafe { output(out, cap) };
    match swap {
        true => decode::decode_valid::<Utf16<true>>(src, dst),
        false => decode::decode_valid::<Utf16<false>>(src, dst),
    }
}

unsafe fn encode(src: &[u32], out: *mut u8, cap: usize) -> FastStop {
    // SAFETY: the kernel's contract, passed on.
    encode::encode_valid(src, unsafe { output(out, cap) })
}

fn encoded_len(src: &[u32]) -> FastStop {
    encode::encoded_len_valid(src)
}

/// UTF-16 to UTF-8 up to the first unpaired surrogate (flagged), a high
/// surrogate ending the input (not flagged: with more input it may be
/// paired, which the reference core decides), or the last few bytes of
/// room.
unsafe fn encode_utf16(src: &[u16], out: *mut u8, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the kernel's contract, passed on.
    let (read, written) = utf16::encode_valid(src, unsafe { output(out, cap) }, swap);
    let unit = |i: usize| src.get(i).map(|&u| if swap { u.swap_bytes() } else { u });
    let flagged = match unit(read) {
        Some(u) if u & 0xF800 == 0xD800 => {
            let paired = u < 0xDC00 && unit(read + 1).is_some_and(|l| l & 0xFC00 == 0xDC00);
            let cut = u < 0xDC00 && read + 1 == src.len();
            (!paired && !cut).then_some(read)
        }
        _ => None,
    };
    FastStop {
        read,
        written,
        flagged,
    }
}

unsafe fn encode_latin1(src: &[u8], out: *mut u8, cap: usize) -> FastStop {
    // SAFETY: the kernel's contract, passed on.
    let (read, written) = latin1::encode_latin1(src, unsafe { output(out, cap) });
    FastStop {
        read,
        written,
        flagged: None,
    }
}

fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    let stop = valid_prefix(src);
    (stop, sizes::utf8_stats(&src[..stop.read]), stop.read)
}

static KERNELS: Kernels = {
    let table = Table {
        validate: valid_prefix,
        decode,
        decode_utf16,
        decode_stopping: None,
        decode_utf16_stopping: None,
        validate_stopping: None,
        pairs: None,
        pairs_utf16: None,
        count,
        encode,
        encode_utf16,
        encode_utf16_cesu: None,
        encode_latin1,
        decode_latin1: None,
        stats: loops::utf8_stats,
        utf16_len: loops::utf16_len,
        classify,
        utf8_len_utf16: loops::utf8_len_of_utf16,
        encoded_len,
        count_leads: count::count_leads,
        widen: None,
        find_byte: crate::portable::find::find_byte,
        loops: &loops::LOOPS,
    };
    // SAFETY: every entry is safe Rust for the baseline target (the
    // pointer-taking ones rebuild the slice their caller promises), sound
    // on every CPU this build runs on.
    unsafe { Kernels::new(Tier::Scalar, table) }
};

/// The table, on every CPU.
pub(crate) fn kernels() -> &'static Kernels {
    &KERNELS
}
