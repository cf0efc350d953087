//! aarch64 kernels: the NEON tier, 16 bytes a vector.
//!
//! NEON is part of the aarch64 baseline, so the tier needs no runtime
//! detection and its functions no `#[target_feature]`: the shared
//! algorithms of `arch::generic` are instantiated over [`vector::Neon`]
//! here, where the SSE4.2 tier instantiates them over its `__m128i`.
//!
//! So far the tier validates (RFC 3629, and stopping at CESU-8's and
//! Modified UTF-8's forms), decodes to UCS-4 and UTF-16 (also CESU-8 and
//! Modified UTF-8: `generic::stopping`'s glue over this tier's byte search,
//! `find`, its plain-ASCII runs, `plain_runs`, and its decoders; their
//! runs of surrogate pairs, `pairs`), widens ASCII (`widen`: short strings
//! to UCS-4, the blocks that start a stretch to UTF-16), counts characters
//! and lead bytes, classifies (validation fused with the counts, as on
//! SSE4.2), searches bytes, encodes UCS-4 and UTF-16 (also to CESU-8 and
//! Modified UTF-8), sizes UTF-16 as UTF-8 (`sizes`), and converts Latin-1
//! to UTF-8 and back (`latin1`). Only `stats` and `utf16_len`, which
//! SSE4.2 lacks too, run the portable core (`src/portable/`), whose loops
//! the compiler vectorises with NEON.

mod find;
mod lanes;
mod latin1;
mod pairs;
mod plain_runs;
mod sizes;
mod ucs4;
mod utf16;
mod vector;
mod widen;

use crate::arch::generic::decode as decoder;
use crate::arch::generic::utf8::{self as generic, FOURS, FOURS_ZERO, NO_STOPS};
use crate::arch::{Kernels, Table, Tier};
use crate::contract::{FastStop, Stops, Utf8Stats};
use vector::Neon;

/// The longest valid prefix of `src`, with `COUNT` its characters.
///
/// # Safety
/// None beyond the kernel contract: NEON is baseline here (the table's
/// kernels are `unsafe fn`s on every tier).
unsafe fn validate<const COUNT: bool>(src: &[u8]) -> FastStop {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe { generic::validate::<Neon, COUNT, NO_STOPS>(src) }
}

/// [`validate`] stopping also at `stops`.
///
/// # Safety
/// As [`validate`].
unsafe fn validate_stopping(src: &[u8], stops: Stops) -> FastStop {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe {
        match stops {
            Stops::Fours => generic::validate::<Neon, false, FOURS>(src),
            Stops::FoursAndZero => generic::validate::<Neon, false, FOURS_ZERO>(src),
        }
    }
}

/// Validates `src`, counting characters, 4-byte characters and the largest
/// byte on the way (`generic::classify`, shared with SSE4.2).
///
/// # Safety
/// As [`validate`].
unsafe fn classify(src: &[u8]) -> (FastStop, Utf8Stats, usize) {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe { crate::arch::generic::classify::classify::<Neon>(src) }
}

/// Bytes of `src` that are not continuation bytes: 64 a step, counted in
/// byte lanes (each lead's compare mask, -1, subtracted from an
/// accumulator) and summed once every 63 steps, before a lane (at most 4 a
/// step) could pass 255.
///
/// # Safety
/// As [`validate`].
unsafe fn count_leads(src: &[u8]) -> usize {
    use core::arch::aarch64::*;
    let (mut i, mut n) = (0, 0);
    while i + 64 <= src.len() {
        let steps = ((src.len() - i) / 64).min(63);
        // SAFETY: register operations (NEON is baseline).
        let mut acc = unsafe { vdupq_n_u8(0) };
        for _ in 0..steps {
            // SAFETY: bytes i..i+64 are in bounds (`steps` whole steps
            // remain); NEON is baseline.
            let [a, b, c, d] = unsafe { generic::load_four::<Neon>(src, i) };
            let [a, b, c, d] = [a, b, c, d].map(|v| vector::leads(v.0));
            // SAFETY: register operations.
            acc = unsafe { vsubq_u8(vsubq_u8(acc, a), vaddq_u8(b, vaddq_u8(c, d))) };
            i += 64;
        }
        // SAFETY: a register operation.
        n += usize::from(unsafe { vaddlvq_u8(acc) });
    }
    n + crate::portable::count::count_leads(&src[i..])
}

/// Decodes the longest valid prefix of `src` into the `cap` code points at
/// `out`.
///
/// # Safety
/// `out` points to `cap` writable code points.
unsafe fn decode(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the caller's promise; NEON is baseline.
    unsafe { decoder::decode::<Neon>(src, out, cap) }
}

/// Decodes the longest valid prefix of `src` into the `cap` UTF-16 units
/// at `out`, byte-swapped with `swap`.
///
/// # Safety
/// `out` points to `cap` writable units.
unsafe fn decode_utf16(src: &[u8], out: *mut u16, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the caller's promise; NEON is baseline.
    unsafe { decoder::decode_utf16::<Neon>(src, out, cap, swap) }
}

crate::arch::generic::stopping::stopping_kernels!(
    super::find::find_byte,
    super::widen::units,
    super::plain_runs::scalars,
    super::decode_utf16,
    super::decode
);

crate::arch::loops::portable_loops!();

static KERNELS: Kernels = {
    let table = Table {
        validate: validate::<false>,
        decode: decode,
        decode_utf16: decode_utf16,
        decode_stopping: Some(stops::decode),
        decode_utf16_stopping: Some(stops::decode_utf16),
        validate_stopping: Some(validate_stopping),
        pairs: Some(pairs::pairs_ucs4),
        pairs_utf16: Some(pairs::pairs_utf16),
        count: validate::<true>,
        encode: ucs4::encode,
        encode_utf16: utf16::encode_utf16,
        encode_utf16_cesu: Some(utf16::encode_utf16_cesu),
        encode_latin1: latin1::encode_latin1,
        decode_latin1: Some(latin1::decode_latin1),
        stats: loops::utf8_stats,
        utf16_len: loops::utf16_len,
        classify: classify,
        utf8_len_utf16: sizes::utf8_len_of_utf16,
        encoded_len: ucs4::encoded_len,
        count_leads: count_leads,
        widen: Some(widen::widen),
        find_byte: find::find_byte,
        loops: &loops::LOOPS,
    };
    // SAFETY: every entry is a NEON kernel, sound on any aarch64 CPU for
    // any input.
    unsafe { Kernels::new(Tier::Neon, table) }
};

/// The NEON table: every aarch64 CPU has NEON.
pub(crate) fn kernels() -> Option<&'static Kernels> {
    Some(&KERNELS)
}
