//! AVX2 tier (Haswell and later, Zen): 32 bytes a step.
//!
//! Validation and counting use the same nibble-lookup algorithm as the
//! AVX-512 tier. Decoding has no byte compress or two-table permute here, so
//! it finds each character's lead with a bit scan over the block's lead mask,
//! copies its four bytes into a lane, and assembles 8 lanes at once.
//! Encoding (`ucs4`) takes 16 code points a step by the cheapest path that
//! fits them all (ASCII; 1-2 bytes as 16-bit pairs; up to 3 bytes from
//! 16-bit words; any length 8 at a time in 32-bit lanes), builds each
//! character's bytes in its lane, packs the used ones per 128-bit lane with
//! a `pshufb` pattern looked up by the lengths, and stores them so that no
//! byte lands past the output of the step (there is no byte-masked store).

mod ucs4;
mod utf8;

use crate::arch::{FastStop, Kernels, Tier};

static KERNELS: Kernels = Kernels {
    tier: Tier::Avx2,
    validate: Some(validate),
    decode: Some(decode),
    count: Some(count),
    encode: Some(encode),
    encoded_len: Some(encoded_len),
    count_leads: Some(count_leads),
};

fn detected() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
}

/// The table, if this CPU has every feature the kernels are compiled for.
pub(crate) fn kernels() -> Option<&'static Kernels> {
    detected().then_some(&KERNELS)
}

// SAFETY (all wrappers): only reachable through KERNELS, which `kernels()`
// hands out only after confirming every target feature the kernels enable.

fn validate(src: &[u8]) -> FastStop {
    // SAFETY: see above.
    unsafe { utf8::validate::<false>(src) }
}

fn count(src: &[u8]) -> FastStop {
    // SAFETY: see above.
    unsafe { utf8::validate::<true>(src) }
}

fn count_leads(src: &[u8]) -> usize {
    // SAFETY: see above.
    unsafe { utf8::count_leads(src) }
}

fn decode(src: &[u8], dst: &mut [u32]) -> FastStop {
    // SAFETY: see above.
    unsafe { utf8::decode(src, dst.as_mut_ptr(), dst.len()) }
}

fn encode(src: &[u32], dst: &mut [u8]) -> FastStop {
    // SAFETY: see above.
    unsafe { ucs4::encode::<false>(src, dst.as_mut_ptr(), dst.len()) }
}

fn encoded_len(src: &[u32]) -> FastStop {
    // SAFETY: see above.
    unsafe { ucs4::measure(src) }
}
