//! AVX2 tier (Haswell and later, Zen): 32 bytes a step.
//!
//! Validation and counting use the same nibble-lookup algorithm as the
//! AVX-512 tier; validation hands runs of ASCII-and-2-byte text to a
//! cheaper test (`pair_check`). Decoding has no byte compress or two-table permute here:
//! text of 3- and 4-byte characters is decoded in 12-byte steps driven by a
//! table indexed by where characters end (`steps`), blocks of 1- and 2-byte
//! characters by packing every position's value with a PSHUFB per lead
//! mask (`two`), blocks with at most 4 leads in each 8 positions by
//! assembling 4 characters per 128-bit lane (`quads`), and other blocks by
//! assembling a candidate code point at every position and packing the
//! leads' with a permute (`decode::emit`). On the hot path (the next block
//! is whole and well-formed, and the output has room for it) these store
//! whole vectors past the block's output; the next block writes over them.
//! Encoding (`encode_ucs4`) runs blocks of one kind in tight loops of their own
//! while the output has room to spare (`encode_ucs4::runs`), and otherwise takes
//! 16 code points a step by the cheapest path that fits them all (ASCII; 1-2 bytes as 16-bit pairs; up to 3 bytes from
//! 16-bit words; any length 8 at a time in 32-bit lanes), builds each
//! character's bytes in its lane, packs the used ones per 128-bit lane with
//! a `pshufb` pattern looked up by the lengths, and stores them so that no
//! byte lands past the output of the step (there is no byte-masked store).
//! UTF-16 to UTF-8 (`encode_utf16`) uses the same blocks on 16-bit words, with
//! loops of its own for runs of 1-2-byte, BMP and paired units.
//! UTF-8 to UTF-16 (`decode::utf16`) runs the UCS-4 decoder into a buffer on
//! the stack and narrows it there.
//! Latin-1 (`latin1`) is written by the pair block, and read back with the
//! AVX-512 kernel's masks in 32 bits and a `pshufb` per 8 bytes.
//! The UTF-8 size of UTF-16 (`sizes`) and the lead count are written once
//! over any width (`generic::sizes`, `generic::count`).
//! Classification and counting (`classify`) count inside the validator's
//! loop and its pair test.

mod classify;
mod decode;
mod encode_ucs4;
mod encode_utf16;
mod lanes;
mod latin1;
mod pair_check;
mod sizes;
mod validate;
mod vector;

use crate::arch::{Kernels, Table, Tier};

crate::arch::generic::stopping::stopping_kernels!(
    crate::arch::x86_64::find::find_byte_avx2,
    crate::arch::x86_64::plain_runs::units_avx2,
    crate::arch::x86_64::plain_runs::widen_avx2,
    super::decode::decode_utf16,
    super::decode::decode
);

crate::arch::loops::portable_loops!("avx2");

static KERNELS: Kernels = {
    let table = Table {
        validate: validate::validate,
        decode: decode::decode,
        decode_utf16: decode::decode_utf16,
        decode_stopping: Some(stops::decode),
        decode_utf16_stopping: Some(stops::decode_utf16),
        validate_stopping: Some(validate::validate_stopping),
        pairs: Some(super::pairs::pairs_ucs4),
        pairs_utf16: Some(super::pairs::pairs_utf16),
        count: classify::count,
        encode: encode_ucs4::encode::<false>,
        encode_utf16: encode_utf16::encode_utf16,
        encode_utf16_cesu: Some(encode_utf16::encode_utf16_cesu),
        encode_latin1: latin1::encode_latin1,
        decode_latin1: Some(latin1::decode_latin1),
        stats: loops::utf8_stats,
        utf16_len: loops::utf16_len,
        classify: classify::classify,
        utf8_len_utf16: sizes::utf8_len_of_utf16,
        encoded_len: encode_ucs4::measure,
        count_leads: validate::count_leads,
        widen: Some(super::widen::avx2),
        find_byte: super::find::find_byte_avx2,
        loops: &loops::LOOPS,
    };
    // SAFETY: every entry is a kernel of this tier, sound on any CPU with
    // the features `detected` checks for any input and any output pointer
    // valid for `cap` units; `kernels()` hands the table out only after
    // that check.
    unsafe { Kernels::new(Tier::Avx2, table) }
};

fn detected() -> bool {
    use super::cpu::{has, Features as F};
    has(F::AVX2.and(F::POPCNT).and(F::BMI1))
}

/// The table, if this CPU has every feature the kernels are compiled for.
pub(crate) fn kernels() -> Option<&'static Kernels> {
    detected().then_some(&KERNELS)
}
