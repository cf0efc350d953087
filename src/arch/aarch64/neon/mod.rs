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

mod classify;
mod decode;
mod encode_ucs4;
mod encode_utf16;
mod find;
mod lanes;
mod latin1;
mod pairs;
mod plain_runs;
mod sizes;
mod validate;
mod vector;
mod widen;

use crate::arch::{Kernels, Table, Tier};

crate::arch::generic::stopping::stopping_kernels!(
    super::find::find_byte,
    super::widen::units,
    super::plain_runs::scalars,
    super::decode::decode_utf16,
    super::decode::decode
);

crate::arch::loops::portable_loops!();

static KERNELS: Kernels = {
    let table = Table {
        validate: validate::validate::<false>,
        decode: decode::decode,
        decode_utf16: decode::decode_utf16,
        decode_stopping: Some(stops::decode),
        decode_utf16_stopping: Some(stops::decode_utf16),
        validate_stopping: Some(validate::validate_stopping),
        pairs: Some(pairs::pairs_ucs4),
        pairs_utf16: Some(pairs::pairs_utf16),
        count: validate::validate::<true>,
        encode: encode_ucs4::encode,
        encode_utf16: encode_utf16::encode_utf16,
        encode_utf16_cesu: Some(encode_utf16::encode_utf16_cesu),
        encode_latin1: latin1::encode_latin1,
        decode_latin1: Some(latin1::decode_latin1),
        stats: loops::utf8_stats,
        utf16_len: loops::utf16_len,
        classify: classify::classify,
        utf8_len_utf16: sizes::utf8_len_of_utf16,
        encoded_len: encode_ucs4::encoded_len,
        count_leads: validate::count_leads,
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
