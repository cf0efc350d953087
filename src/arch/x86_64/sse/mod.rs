//! SSE tier (SSSE3 + SSE4.1/4.2, every x86-64 CPU since about 2009): 16
//! bytes a step.
//!
//! Validation and counting are the nibble-lookup algorithm of the wider
//! tiers on 16-byte vectors, four blocks per error test. Decoding validates
//! a chunk ahead, then converts it 12 bytes at a time: the end-of-character
//! bits of the next 12 bytes index a table of byte shuffles (see
//! [`decode`]); it writes code points or UTF-16 units. Encoding packs four
//! characters a step, or eight below U+0800 (see [`encode_ucs4`]); UTF-16 has an
//! encoder of its own (see [`encode_utf16`]).
//! Latin-1 converts to and from UTF-8 with kernels of its own (see
//! [`latin1`]).

mod classify;
mod decode;
mod encode_ucs4;
mod encode_utf16;
mod lanes;
mod latin1;
mod sizes;
mod validate;
mod vector;

use crate::arch::{Kernels, Table, Tier};

crate::arch::generic::stopping::stopping_kernels!(
    crate::arch::x86_64::find::find_byte_sse,
    crate::arch::x86_64::plain_runs::units_sse,
    crate::arch::x86_64::plain_runs::widen_sse,
    super::decode::decode_utf16,
    super::decode::decode
);

crate::arch::loops::portable_loops!("sse4.1");

static KERNELS: Kernels = {
    let table = Table {
        validate: validate::validate::<false>,
        decode: decode::decode,
        decode_utf16: decode::decode_utf16,
        decode_stopping: Some(stops::decode),
        decode_utf16_stopping: Some(stops::decode_utf16),
        validate_stopping: Some(validate::validate_stopping),
        pairs: Some(super::pairs::pairs_ucs4),
        pairs_utf16: Some(super::pairs::pairs_utf16),
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
        widen: Some(super::widen::sse41),
        find_byte: super::find::find_byte_sse,
        loops: &loops::LOOPS,
    };
    // SAFETY: every entry is a kernel of this tier, sound on any CPU with
    // the features `detected` checks for any input and any output pointer
    // valid for `cap` units; `kernels()` hands the table out only after
    // that check.
    unsafe { Kernels::new(Tier::Sse42, table) }
};

fn detected() -> bool {
    use super::cpu::{has, Features as F};
    has(F::SSSE3.and(F::SSE41).and(F::SSE42).and(F::POPCNT))
}

/// The table, if this CPU has every feature the kernels are compiled for.
pub(crate) fn kernels() -> Option<&'static Kernels> {
    detected().then_some(&KERNELS)
}
