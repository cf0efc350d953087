//! Random and enumerated inputs for the crate's unit tests, which compare
//! the fast loops with the reference core, and the policies they run under.

use crate::{EncodePolicy, Policy};

/// Every decoding policy.
pub(crate) const POLICIES: [Policy; 6] = [
    Policy::Strict,
    Policy::Replace('\u{FFFD}'),
    Policy::Escape,
    Policy::Latin1,
    Policy::Cp1252,
    Policy::Ignore,
];

/// Every encoding policy.
pub(crate) const ENCODE_POLICIES: [EncodePolicy; 4] = [
    EncodePolicy::Strict,
    EncodePolicy::Replace('\u{FFFD}'),
    EncodePolicy::Escape,
    EncodePolicy::Ignore,
];

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

/// Whether the unit tests run in full: `U8X_FULL=1` (what `.ci/run`
/// runs natively) and not under an emulator (`U8X_EMULATED`, set by
/// `.ci/run` for its qemu runs). Otherwise the run is sampled, as
/// `tests/common` defines it: the quick check before a commit, or an
/// emulated run.
pub(crate) fn full() -> bool {
    let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    set("U8X_FULL") && !set("U8X_EMULATED")
}

/// Whether the tests run under an emulator: `.ci/run` sets `U8X_EMULATED`
/// for its qemu-user runs (aarch64, s390x).
pub(crate) fn emulated() -> bool {
    std::env::var_os("U8X_EMULATED").is_some_and(|v| !v.is_empty() && v != "0")
}

/// How far apart a sampled run's innermost values are: every 7th (every
/// `U8X_EMULATED_STRIDE`th under an emulator where that is set); 1 in the
/// full suite.
pub(crate) fn stride() -> usize {
    if full() {
        return 1;
    }
    std::env::var("U8X_EMULATED_STRIDE")
        .ok()
        .filter(|_| std::env::var_os("U8X_EMULATED").is_some_and(|v| !v.is_empty()))
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(7)
}

/// The innermost byte of an enumeration: every byte in the full suite, or
/// in a sampled run every [`stride`]th plus every range edge of Table 3-7,
/// as `tests/common` does.
pub(crate) fn inner_bytes() -> Vec<u8> {
    let stride = stride();
    if stride == 1 {
        return (0..=255).collect();
    }
    let mut v: Vec<u8> = (0..=255u8).step_by(stride).collect();
    v.extend([
        0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
        0xF0, 0xF4, 0xF5, 0xFF,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Well-formed text of about `len` bytes in an alphabet: characters ASCII
/// with probability `ascii`%, of three or four bytes with probability
/// `longer` per mille, else of two bytes; then `damage` random bytes
/// overwritten by random values.
pub(crate) fn alphabet_text(
    rng: &mut Rng,
    len: usize,
    ascii: u64,
    longer: u64,
    damage: usize,
) -> Vec<u8> {
    let mut s = String::new();
    while s.len() < len {
        let c = if rng.below(100) < ascii {
            char::from(b' ' + rng.below(95) as u8)
        } else if rng.below(1000) < longer {
            char::from_u32(0x800 + rng.below(0x10F800) as u32).unwrap_or('\u{FFFD}')
        } else {
            char::from_u32(0x80 + rng.below(0x780) as u32).expect("two bytes")
        };
        s.push(c);
    }
    damaged(rng, s.into_bytes(), damage)
}

/// `v` with `damage` random bytes overwritten by random values.
fn damaged(rng: &mut Rng, mut v: Vec<u8>, damage: usize) -> Vec<u8> {
    for _ in 0..if v.is_empty() { 0 } else { damage } {
        let at = rng.below(v.len() as u64) as usize;
        v[at] = rng.below(256) as u8;
    }
    v
}

/// The second byte of a three- or four-byte enumeration: every byte,
/// except under an emulator (`U8X_EMULATED`), where it is sampled as
/// [`inner_bytes`] is (Table 3-7's edges kept): there the innermost
/// byte's stride alone left the short-input enumerations at minutes
/// each, and a second byte's classes are its edges.
pub(crate) fn middle_bytes() -> Vec<u8> {
    if emulated() {
        inner_bytes()
    } else {
        (0..=255).collect()
    }
}

/// Passes `check` every input of one and two bytes, the three-byte ones
/// (the second byte from [`middle_bytes`], the third from
/// [`inner_bytes`]) and the four-byte inputs led by F0..FF with every
/// second byte of [`middle_bytes`] and the edge values of the others.
pub(crate) fn each_short_input(mut check: impl FnMut(&[u8])) {
    let inner = inner_bytes();
    let middle = middle_bytes();
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
        }
        for &b in &middle {
            for &c in &inner {
                check(&[a, b, c]);
            }
        }
    }
    let edges = [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF];
    for a in 0xF0..=0xFFu8 {
        for &b in &middle {
            for c in edges {
                for d in edges {
                    check(&[a, b, c, d]);
                }
            }
        }
    }
}

/// Words of one to six three-byte characters (any from U+0800 to U+FFFF)
/// with a space between, as Korean is written: a word in eight ends with a
/// full stop or a comma, a space in sixteen is a newline. About `len`
/// bytes, with `damage` random bytes overwritten by random values.
pub(crate) fn spaced_text(rng: &mut Rng, len: usize, damage: usize) -> Vec<u8> {
    let mut s = String::new();
    while s.len() < len {
        for _ in 0..=rng.below(6) {
            let c = char::from_u32(0x800 + rng.below(0xF800) as u32).unwrap_or('\u{FFFD}');
            s.push(c);
        }
        if rng.below(8) == 0 {
            s.push([',', '.'][rng.below(2) as usize]);
        }
        s.push(if rng.below(16) == 0 { '\n' } else { ' ' });
    }
    damaged(rng, s.into_bytes(), damage)
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
    damaged(rng, s.into_bytes(), damage)
}
