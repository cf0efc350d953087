//! Loading the bytes of an input that remain short of a whole vector,
//! zero-filled past its end, without copying them to a buffer first.
//!
//! Reading past a slice is not allowed (even where it could not fault), so
//! a tail must be assembled. Copying it into a zeroed buffer and loading
//! that costs a store-forwarding stall: the load spans several smaller
//! stores, so it waits for them to reach the cache, about 15 cycles, once
//! per vector. That was most of a short call's time on the tiers without
//! masked byte loads. Here the tail is loaded whole from the *end* of the
//! input (when the input has 16 bytes) and moved into place with one
//! PSHUFB, or, for inputs under 16 bytes, put together in general registers.

use core::arch::x86_64::*;

/// Sixteen shuffle indices then sixteen "zero this byte" ones: the sixteen
/// bytes at `SLIDE[s..]` move each byte down by `s` and clear the top `s`.
static SLIDE: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, //
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, //
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
];

/// Bytes `[at, at + 16)` of `src`, zero-filled past its end (all zero when
/// `at >= src.len()`).
#[target_feature(enable = "ssse3")]
#[inline]
pub(super) fn chunk16(src: &[u8], at: usize) -> __m128i {
    let len = src.len();
    if at >= len {
        return _mm_setzero_si128();
    }
    let left = len - at;
    if left >= 16 {
        // SAFETY: bytes at..at+16 are in bounds.
        return unsafe { _mm_loadu_si128(src.as_ptr().add(at).cast()) };
    }
    if len >= 16 {
        // The last 16 bytes of the input hold the `left` wanted ones at
        // their top: move them down by 16 - left and zero the rest.
        // SAFETY: bytes len-16..len are in bounds; SLIDE has 16 bytes from
        // 16 - left (1..=15).
        return unsafe {
            let last = _mm_loadu_si128(src.as_ptr().add(len - 16).cast());
            _mm_shuffle_epi8(last, _mm_loadu_si128(SLIDE.as_ptr().add(16 - left).cast()))
        };
    }
    short16(&src[at..])
}

/// `s` (under 16 bytes) in a vector, zero-filled, from at most two
/// overlapping word loads per half.
#[target_feature(enable = "ssse3")]
#[inline]
fn short16(s: &[u8]) -> __m128i {
    let n = s.len();
    let word = |at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default());
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            s[at..at + 4].try_into().unwrap_or_default(),
        ))
    };
    let (lo, hi) = if n >= 8 {
        // Bytes 8..n are the top n - 8 of the last word.
        (
            word(0),
            word(n - 8).checked_shr(8 * (16 - n as u32)).unwrap_or(0),
        )
    } else if n >= 4 {
        // Bytes 4..n are the top n - 4 of the last four.
        (half(0) | (half(n - 4) >> (8 * (8 - n))) << 32, 0)
    } else {
        let bytes = s.iter().enumerate();
        (bytes.fold(0, |v, (k, &b)| v | u64::from(b) << (8 * k)), 0)
    };
    _mm_set_epi64x(hi as i64, lo as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tail_of_every_short_input() {
        if !std::is_x86_feature_detected!("ssse3") {
            eprintln!("skipped: this CPU lacks SSSE3");
            return;
        }
        let bytes: Vec<u8> = (1..=80).collect();
        for len in 0..=80 {
            let src = &bytes[..len];
            for at in 0..=len + 16 {
                // SAFETY: the CPU has SSSE3 (checked above).
                let v = unsafe { chunk16(src, at) };
                let mut got = [0u8; 16];
                // SAFETY: 16 writable bytes.
                unsafe { _mm_storeu_si128(got.as_mut_ptr().cast(), v) };
                let mut expected = [0u8; 16];
                for (k, e) in expected.iter_mut().enumerate() {
                    *e = src.get(at + k).copied().unwrap_or(0);
                }
                assert_eq!(got, expected, "len {len} at {at}");
            }
        }
    }
}
