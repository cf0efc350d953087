//! AVX-512 tier (F, BW, CD, VBMI, VBMI2; and BMI2, which every CPU with
//! VBMI2 has): 64 bytes or 16 code points a step.
//!
//! * `utf8`: validation by the Keiser-Lemire nibble lookups (three 16-entry
//!   tables over each byte and its predecessor, plus a check that bytes 2-3
//!   of long sequences are continuations); decoding by compressing the lead
//!   byte positions of a block (VPCOMPRESSB), gathering each character's four
//!   bytes with one two-table byte permute (VPERMT2B) and assembling 16 code
//!   points at once with two multiply-adds and a variable shift. Runs of
//!   ASCII-and-2-byte text are validated by a cheaper test (`pair_check`).
//! * `encode_ucs4`: encoding by computing each code point's four UTF-8 bytes in its
//!   lane and compressing away the unused ones.
//! * `decode`: the decoder, writing UCS-4 or (`decode_utf16`) UTF-16 units,
//!   surrogate pairs packed with VPCOMPRESSW.
//! * `encode_utf16`: UTF-16 to UTF-8, surrogates paired in place, then `encode_ucs4`'s
//!   lane encoding.
//! * `latin1`: Latin-1 to UTF-8 and back, ASCII runs copied.
//! * `pairs`: runs of CESU-8 surrogate pairs (Emoji in CESU-8 and Modified
//!   UTF-8), eight a step.
//! * `sizes`: classification folded into the validation loop, and the
//!   sizes of valid text (characters, UTF-16 units, UTF-8 bytes of UTF-16).
//! * `validate_utf16`: UTF-16 validation by comparing the high and low
//!   surrogates' masks (in place of the portable loop, `arch::loops`).
//! * `utf16_ucs4`: UTF-16 <-> UCS-4 with pairs by compression (in place of
//!   the portable loops, `arch::loops`).

mod blocks;
mod classify;
mod decode;
mod encode_ucs4;
mod encode_utf16;
mod latin1;
mod pairs;
mod sizes;
mod utf16_ucs4;
mod validate;
mod validate_utf16;
mod vector;

use crate::arch::{Kernels, Table, Tier};

crate::arch::loops::portable_loops!(
    "avx512f,avx512bw"; valid_utf16_prefix = super::validate_utf16::valid_utf16_prefix;
    pairs = super::utf16_ucs4::utf16_to_ucs4, super::utf16_ucs4::ucs4_to_utf16
);

static KERNELS: Kernels = {
    let table = Table {
        validate: validate::validate,
        decode: decode::decode,
        decode_utf16: decode::decode_utf16,
        decode_stopping: Some(decode::decode_stopping),
        decode_utf16_stopping: Some(decode::decode_utf16_stopping),
        validate_stopping: Some(validate::validate_stopping),
        pairs: Some(pairs::pairs_ucs4),
        pairs_utf16: Some(pairs::pairs_utf16),
        count: validate::count,
        encode: encode_ucs4::encode,
        encode_utf16: encode_utf16::encode_utf16,
        encode_utf16_cesu: Some(encode_utf16::encode_utf16_cesu),
        encode_latin1: latin1::encode_latin1,
        decode_latin1: Some(latin1::decode_latin1),
        stats: sizes::stats,
        utf16_len: sizes::utf16_len,
        classify: classify::classify,
        utf8_len_utf16: sizes::utf8_len_of_utf16,
        encoded_len: encode_ucs4::encoded_len,
        count_leads: validate::count_leads,
        widen: Some(super::widen::avx512),
        find_byte: super::find::find_byte_avx512,
        loops: &loops::LOOPS,
    };
    // SAFETY: every entry is a kernel of this tier, sound on any CPU with
    // the features `detected` checks for any input and any output pointer
    // valid for `cap` units; `kernels()` hands the table out only after
    // that check.
    unsafe { Kernels::new(Tier::Avx512, table) }
};

fn detected() -> bool {
    use super::cpu::{has, Features as F};
    let avx512 = F::AVX512F.and(F::AVX512BW).and(F::AVX512CD);
    has(avx512
        .and(F::AVX512VBMI)
        .and(F::AVX512VBMI2)
        .and(F::POPCNT)
        .and(F::BMI1)
        .and(F::BMI2))
}

/// The table, if this CPU has every feature the kernels are compiled for.
pub(crate) fn kernels() -> Option<&'static Kernels> {
    detected().then_some(&KERNELS)
}
