//! SSE tier (SSSE3 + SSE4.1/4.2, every x86-64 CPU since about 2009): 16
//! bytes a step.
//!
//! Validation and counting are the nibble-lookup algorithm of the wider
//! tiers on 16-byte vectors, four blocks per error test. Decoding validates
//! a chunk ahead, then converts it 12 bytes at a time: the end-of-character
//! bits of the next 12 bytes index a table of byte shuffles (see
//! [`decode`]). Encoding uses the scalar core.

mod decode;
mod ucs4;
mod utf8;

use crate::arch::{FastStop, Kernels, Tier};

static KERNELS: Kernels = Kernels {
    tier: Tier::Sse42,
    validate: Some(validate),
    decode: Some(decode),
    count: Some(count),
    encode: Some(encode),
    encoded_len: Some(encoded_len),
    count_leads: Some(count_leads),
};

fn detected() -> bool {
    std::is_x86_feature_detected!("ssse3")
        && std::is_x86_feature_detected!("sse4.1")
        && std::is_x86_feature_detected!("sse4.2")
        && std::is_x86_feature_detected!("popcnt")
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
    // SAFETY: see above; `dst` provides `dst.len()` writable code points.
    unsafe { decode::decode(src, dst.as_mut_ptr(), dst.len()) }
}

fn encode(src: &[u32], dst: &mut [u8]) -> FastStop {
    // SAFETY: see above; `dst` provides `dst.len()` writable bytes.
    unsafe { ucs4::encode(src, dst.as_mut_ptr(), dst.len()) }
}

fn encoded_len(src: &[u32]) -> FastStop {
    // SAFETY: see above.
    unsafe { ucs4::encoded_len(src) }
}
