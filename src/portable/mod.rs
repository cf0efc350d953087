//! The portable fast core: what the scalar tier runs on every machine
//! without a vector tier (and for the short inputs and error windows of the
//! vector tiers, through the reference core it hands over to).
//!
//! Like a vector kernel, each function here runs over a *valid prefix* of
//! its input and stops at a character boundary before the first error, a cut
//! sequence or a full output; the driver then hands the next few bytes to
//! the reference core in [`crate::scalar`], which applies the policy and
//! reports the error exactly. So these loops handle only well-formed text,
//! need no policy, and are tested against the reference on every input the
//! tier tests build (`cargo test` runs this module's own comparisons too).
//!
//! Everything is safe Rust, so the compiler checks every index; the loops
//! are shaped so that it can drop most of those checks (fixed-size blocks,
//! `u8` indexes into 256-entry tables, chunk iterators).
//!
//! - [`ascii`]: whether a block of 32 bytes is all ASCII.
//! - [`validate`]: a shift-based DFA over the UTF-8 grammar of Table 3-7.
//! - [`decode`]: UTF-8 to code points, fused with validation.
//! - [`encode`]: code points to UTF-8.
//! - [`count`]: the characters of well-formed text.

#![forbid(unsafe_code)]

pub(crate) mod ascii;
pub(crate) mod count;
pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod validate;

/// Random inputs for this module's comparisons with the reference core.
#[cfg(test)]
mod samples {
    /// xorshift64*: enough to spread inputs, and the same on every run.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
        }
    }

    /// The innermost byte of an enumeration: every byte, or under an
    /// emulator (`U8X_EMULATED`, set by `.ci/run` for its qemu run) every
    /// 7th plus every range edge of Table 3-7, as `tests/common` does.
    pub(crate) fn inner_bytes() -> Vec<u8> {
        if std::env::var_os("U8X_EMULATED").is_none_or(|v| v.is_empty()) {
            return (0..=255).collect();
        }
        let mut v: Vec<u8> = (0..=255u8).step_by(7).collect();
        v.extend([
            0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED,
            0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Well-formed text of about `len` bytes whose characters are ASCII with
    /// probability `ascii`%, else of any length, with `damage` random bytes
    /// overwritten by random values (0 for valid text).
    pub(crate) fn text(rng: &mut Rng, len: usize, ascii: u64, damage: usize) -> Vec<u8> {
        let mut s = String::new();
        while s.len() < len {
            let c = if rng.below(100) < ascii {
                char::from(b' ' + rng.below(95) as u8)
            } else {
                let limit = [0x800, 0x10000, 0x110000][rng.below(3) as usize];
                char::from_u32(rng.below(limit) as u32).unwrap_or('\u{FFFD}')
            };
            s.push(c);
        }
        let mut v = s.into_bytes();
        for _ in 0..if v.is_empty() { 0 } else { damage } {
            let at = rng.below(v.len() as u64) as usize;
            v[at] = rng.below(256) as u8;
        }
        v
    }
}
