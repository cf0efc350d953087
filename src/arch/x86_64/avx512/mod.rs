//! AVX-512 tier (F, BW, CD, VBMI, VBMI2): 64 bytes or 16 code points a step.
//!
//! * `utf8`: validation by the Keiser-Lemire nibble lookups (three 16-entry
//!   tables over each byte and its predecessor, plus a check that bytes 2-3
//!   of long sequences are continuations); decoding by compressing the lead
//!   byte positions of a block (VPCOMPRESSB), gathering each character's four
//!   bytes with one two-table byte permute (VPERMT2B) and assembling 16 code
//!   points at once with two multiply-adds and a variable shift.
//! * `ucs4`: encoding by computing each code point's four UTF-8 bytes in its
//!   lane and compressing away the unused ones.

mod decode;
mod ucs4;
mod utf8;

use crate::arch::{FastStop, Kernels, Tier};

static KERNELS: Kernels = Kernels {
    tier: Tier::Avx512,
    validate: Some(validate),
    decode: Some(decode),
    count: Some(count),
    encode: Some(encode),
    encoded_len: Some(encoded_len),
    count_leads: Some(count_leads),
};

fn detected() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512cd")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("avx512vbmi2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
}

/// The table, if this CPU has every feature the kernels are compiled for.
/// The safe wrappers below are reachable only through it.
pub(crate) fn kernels() -> Option<&'static Kernels> {
    detected().then_some(&KERNELS)
}

// SAFETY (all five wrappers): they are only reachable through KERNELS, which
// `kernels()` hands out only after confirming every target feature the
// kernels enable.

fn validate(src: &[u8]) -> FastStop {
    // SAFETY: see above (and the length for the one-block function).
    unsafe {
        if src.len() <= 64 {
            utf8::validate_one_block(src)
        } else {
            utf8::validate(src)
        }
    }
}

fn decode(src: &[u8], dst: &mut [u32]) -> FastStop {
    let (len, out) = (src.len(), dst.as_mut_ptr());
    // SAFETY: see above; a short all-ASCII input fits when len <= dst.len().
    unsafe {
        if len != 0 && len <= 64 && len <= dst.len() && decode::widen_short_ascii(src, out) {
            return FastStop {
                read: len,
                written: len,
                flagged: None,
            };
        }
        decode::decode(src, out, dst.len())
    }
}

fn count(src: &[u8]) -> FastStop {
    // SAFETY: see above.
    unsafe { utf8::count(src) }
}

fn count_leads(src: &[u8]) -> usize {
    // SAFETY: see above.
    unsafe { utf8::count_leads(src) }
}

fn encode(src: &[u32], dst: &mut [u8]) -> FastStop {
    // SAFETY: see above.
    unsafe { ucs4::encode(src, dst.as_mut_ptr(), dst.len()) }
}

fn encoded_len(src: &[u32]) -> FastStop {
    // SAFETY: see above.
    unsafe { ucs4::encoded_len(src) }
}
