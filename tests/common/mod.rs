//! Shared helpers for the oracle suites (exhaustive, differential, kuhn):
//! a seeded PRNG, an independent Table 3-7 error classifier, and decode /
//! encode oracles built only from `std` (and `encoding_rs` tables), never
//! from u8x itself.
#![allow(dead_code)]

use u8x::{EncodePolicy, ErrorKind, Policy, Progress, Status, Utf8Error, REPLACE};

// ---------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, seedable, good enough for
/// test-case generation. Same seed, same cases, on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    /// Uniform in `0..n` (`n` > 0); the modulo bias is irrelevant here.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % (hi as u64 - lo as u64 + 1)) as u32
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------

/// Every decoding policy (with the usual U+FFFD replacement).
pub const POLICIES: [Policy; 6] = [
    Policy::Strict,
    REPLACE,
    Policy::Escape,
    Policy::Latin1,
    Policy::Cp1252,
    Policy::Ignore,
];

/// Every non-strict decoding policy, including replacements other than U+FFFD
/// (ASCII and a 4-byte scalar).
pub const NON_STRICT: [Policy; 7] = [
    REPLACE,
    Policy::Replace('?'),
    Policy::Replace('\u{10FFFF}'),
    Policy::Escape,
    Policy::Latin1,
    Policy::Cp1252,
    Policy::Ignore,
];

pub const ENCODE_POLICIES: [EncodePolicy; 6] = [
    EncodePolicy::Strict,
    EncodePolicy::Replace('\u{FFFD}'),
    EncodePolicy::Replace('a'),
    EncodePolicy::Replace('\u{10FFFF}'),
    EncodePolicy::Escape,
    EncodePolicy::Ignore,
];

// ---------------------------------------------------------------------------
// Independent Table 3-7 classifier
// ---------------------------------------------------------------------------

/// The rows of Unicode Table 3-7 ("Well-Formed UTF-8 Byte Sequences") that
/// start a multi-byte sequence: lead byte range, second byte range, total
/// length. Third and fourth bytes are always 80..BF.
const TABLE_3_7: [(u8, u8, u8, u8, usize); 8] = [
    (0xC2, 0xDF, 0x80, 0xBF, 2),
    (0xE0, 0xE0, 0xA0, 0xBF, 3),
    (0xE1, 0xEC, 0x80, 0xBF, 3),
    (0xED, 0xED, 0x80, 0x9F, 3),
    (0xEE, 0xEF, 0x80, 0xBF, 3),
    (0xF0, 0xF0, 0x90, 0xBF, 4),
    (0xF1, 0xF3, 0x80, 0xBF, 4),
    (0xF4, 0xF4, 0x80, 0x8F, 4),
];

/// Why a continuation byte `b1` outside the row's second-byte range makes
/// `b0 b1` ill-formed, derived from the code points the sequence could still
/// denote rather than from a lead-byte table: every completion too small for
/// its length is overlong, every completion in D800..DFFF a surrogate, every
/// completion above 10FFFF out of range.
fn excluded_second_byte_kind(b0: u8, b1: u8, len: usize) -> ErrorKind {
    let lead_bits = (b0 as u32) & (0x7F >> len);
    let rest_bits = 6 * (len as u32 - 2);
    let lo = ((lead_bits << 6) | (b1 as u32 & 0x3F)) << rest_bits;
    let hi = lo | ((1 << rest_bits) - 1);
    let shortest_min = [0, 0, 0x80, 0x800, 0x1_0000][len];
    if hi < shortest_min {
        ErrorKind::Overlong
    } else if lo >= 0xD800 && hi <= 0xDFFF {
        ErrorKind::Surrogate
    } else if lo > 0x10_FFFF {
        ErrorKind::AboveMax
    } else {
        panic!("{b0:02X} {b1:02X} excluded by Table 3-7 for no known reason")
    }
}

/// Classifies the bytes at the start of `s`: `None` if they begin a
/// well-formed character, otherwise the kind and length of the maximal subpart
/// found there (for [`ErrorKind::EndOfInput`], the bytes left).
pub fn classify(s: &[u8]) -> Option<(ErrorKind, usize)> {
    let b0 = *s.first().expect("classify: empty input");
    if b0 < 0x80 {
        return None;
    }
    let Some(&(_, _, lo2, hi2, len)) = TABLE_3_7
        .iter()
        .find(|&&(lo, hi, ..)| (lo..=hi).contains(&b0))
    else {
        let kind = if (0x80..=0xBF).contains(&b0) {
            ErrorKind::UnexpectedContinuation
        } else {
            ErrorKind::InvalidByte
        };
        return Some((kind, 1));
    };
    for i in 1..len {
        let Some(&b) = s.get(i) else {
            return Some((ErrorKind::EndOfInput, i));
        };
        let (lo, hi) = if i == 1 { (lo2, hi2) } else { (0x80, 0xBF) };
        if (lo..=hi).contains(&b) {
            continue;
        }
        if !(0x80..=0xBF).contains(&b) {
            return Some((ErrorKind::TruncatedSequence, i));
        }
        assert_eq!(i, 1, "only the second byte has a narrowed range");
        return Some((excluded_second_byte_kind(b0, b, len), 1));
    }
    None
}

// ---------------------------------------------------------------------------
// Decode oracle
// ---------------------------------------------------------------------------

/// windows-1252 as `encoding_rs` (WHATWG) decodes each single byte.
pub fn cp1252_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    for b in 0..=255u8 {
        let byte = [b];
        let (s, had_errors) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
        assert!(!had_errors, "windows-1252 maps every byte");
        let mut cs = s.chars();
        let c = cs.next().expect("one char");
        assert!(cs.next().is_none());
        t[b as usize] = c as u32;
    }
    t
}

/// What the oracle says a decode of a whole input does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    /// With `more_input = false`.
    pub last: Progress,
    /// With `more_input = true`; its output is the first `written` units of
    /// the `more_input = false` output.
    pub more: Progress,
}

/// One segment of the input as the oracle sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A well-formed character.
    Char(char),
    /// A maximal subpart: offset, length, kind.
    Bad {
        at: usize,
        len: usize,
        kind: ErrorKind,
    },
}

/// Cuts `src` into characters and maximal subparts using only `std`'s
/// `utf8_chunks` (one invalid part per maximal subpart), `std::str::from_utf8`
/// (is a trailing subpart a cut sequence?) and [`classify`] (its kind, checked
/// against std's length). Clears `segs` first; no allocation once it has
/// capacity.
pub fn oracle_segments(src: &[u8], segs: &mut Vec<Seg>) {
    segs.clear();
    let mut pos = 0usize;
    let mut chunks = src.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        segs.extend(chunk.valid().chars().map(Seg::Char));
        pos += chunk.valid().len();
        let bad = chunk.invalid();
        if bad.is_empty() {
            assert!(
                chunks.peek().is_none(),
                "only the last chunk has no invalid part"
            );
            continue;
        }
        let cut = chunks.peek().is_none()
            && std::str::from_utf8(bad)
                .expect_err("invalid part")
                .error_len()
                .is_none();
        let (kind, len) = classify(&src[pos..]).expect("classifier sees an error");
        assert_eq!(
            len,
            bad.len(),
            "classifier and std disagree on the maximal subpart of {src:02X?} at {pos}"
        );
        assert_eq!(cut, kind == ErrorKind::EndOfInput, "{src:02X?} at {pos}");
        segs.push(Seg::Bad { at: pos, len, kind });
        pos += len;
    }
    assert_eq!(pos, src.len());
}

/// The decode of `src` (already cut into `segs` by [`oracle_segments`]) under
/// `policy`, written to `out` (cleared first) for `more_input = false`.
/// windows-1252 comes from `cp1252`, a table built from `encoding_rs`.
pub fn oracle_expect(
    src: &[u8],
    segs: &[Seg],
    policy: Policy,
    cp1252: &[u32; 256],
    out: &mut Vec<u32>,
) -> Expected {
    out.clear();
    let mut more = None;
    // One per maximal subpart the policy handles (std's segmentation).
    let mut handled = 0;
    for &seg in segs {
        let (at, len, kind) = match seg {
            Seg::Char(c) => {
                out.push(c as u32);
                continue;
            }
            Seg::Bad { at, len, kind } => (at, len, kind),
        };
        let cut = kind == ErrorKind::EndOfInput;
        let incomplete = Progress {
            status: Status::Incomplete { len: len as u8 },
            read: at,
            written: out.len(),
            handled,
        };
        let bad = &src[at..at + len];
        match policy {
            Policy::Strict => {
                let error = Utf8Error {
                    valid_up_to: at,
                    kind,
                    len: len as u8,
                };
                let last = Progress {
                    status: Status::IllFormed(error),
                    read: at,
                    written: out.len(),
                    handled: 0,
                };
                return Expected {
                    last,
                    more: if cut { incomplete } else { last },
                };
            }
            Policy::Replace(c) => out.push(c as u32),
            Policy::Escape => out.extend(bad.iter().map(|&b| 0xDC00 + b as u32)),
            Policy::Latin1 => out.extend(bad.iter().map(|&b| b as char as u32)),
            Policy::Cp1252 => out.extend(bad.iter().map(|&b| cp1252[b as usize])),
            Policy::Ignore => {}
        }
        handled += 1;
        if cut {
            more = Some(incomplete);
        }
    }
    let last = Progress {
        status: Status::Done,
        read: src.len(),
        written: out.len(),
        handled,
    };
    Expected {
        last,
        more: more.unwrap_or(last),
    }
}

/// [`oracle_segments`] then [`oracle_expect`], allocating.
pub fn oracle_decode(
    src: &[u8],
    policy: Policy,
    cp1252: &[u32; 256],
    out: &mut Vec<u32>,
) -> Expected {
    let mut segs = Vec::new();
    oracle_segments(src, &mut segs);
    oracle_expect(src, &segs, policy, cp1252, out)
}

// ---------------------------------------------------------------------------
// Encode oracle
// ---------------------------------------------------------------------------

/// The bytes one unit encodes to under `policy`, into `buf`, or the error.
pub fn oracle_encode_unit(
    unit: u32,
    policy: EncodePolicy,
    buf: &mut [u8; 4],
) -> Result<usize, ErrorKind> {
    if let Some(c) = char::from_u32(unit) {
        return Ok(c.encode_utf8(buf).len());
    }
    match policy {
        EncodePolicy::Replace(c) => Ok(c.encode_utf8(buf).len()),
        EncodePolicy::Escape if (0xDC80..=0xDCFF).contains(&unit) => {
            buf[0] = (unit - 0xDC00) as u8;
            Ok(1)
        }
        EncodePolicy::Ignore => Ok(0),
        _ if (0xD800..=0xDFFF).contains(&unit) => Err(ErrorKind::Surrogate),
        _ => Err(ErrorKind::AboveMax),
    }
}

/// Encodes `src` with `char::encode_utf8` under `policy` into `out`.
pub fn oracle_encode(src: &[u32], policy: EncodePolicy, out: &mut Vec<u8>) -> Progress {
    out.clear();
    let mut buf = [0u8; 4];
    let mut handled = 0;
    for (i, &u) in src.iter().enumerate() {
        match oracle_encode_unit(u, policy, &mut buf) {
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                handled += usize::from(char::from_u32(u).is_none());
            }
            Err(kind) => {
                return Progress {
                    status: Status::IllFormed(Utf8Error {
                        valid_up_to: i,
                        kind,
                        len: 1,
                    }),
                    read: i,
                    written: out.len(),
                    handled,
                }
            }
        }
    }
    Progress {
        status: Status::Done,
        read: src.len(),
        written: out.len(),
        handled,
    }
}

// ---------------------------------------------------------------------------
// Input generators
// ---------------------------------------------------------------------------

/// Scalars at the edges of the encoding-length classes and other favourites.
pub const EDGE_SCALARS: [u32; 16] = [
    0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF,
    0x1_0000, 0x10_FFFF, 0xF_FFFF,
];

/// A random scalar value: each UTF-8 length equally likely, with edges.
pub fn random_scalar(rng: &mut Rng) -> char {
    let u = match rng.below(9) {
        0 => rng.pick(&EDGE_SCALARS),
        1 | 2 => rng.range(0, 0x7F),
        3 | 4 => rng.range(0x80, 0x7FF),
        5 | 6 => loop {
            let u = rng.range(0x800, 0xFFFF);
            if !(0xD800..=0xDFFF).contains(&u) {
                break u;
            }
        },
        _ => rng.range(0x1_0000, 0x10_FFFF),
    };
    char::from_u32(u).expect("scalar")
}

/// Valid UTF-8 of up to `max_chars` random characters.
pub fn valid_text(rng: &mut Rng, max_chars: usize) -> String {
    let n = rng.below(max_chars + 1);
    (0..n).map(|_| random_scalar(rng)).collect()
}

/// Bytes that matter to a UTF-8 decoder.
pub const INTERESTING_BYTES: [u8; 26] = [
    0x00, 0x0A, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
    0xE1, 0xEC, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
];

/// Uniform random bytes, or bytes drawn from [`INTERESTING_BYTES`].
pub fn random_bytes(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let n = rng.below(max_len + 1);
    let interesting = rng.chance(1, 2);
    (0..n)
        .map(|_| {
            if interesting {
                rng.pick(&INTERESTING_BYTES)
            } else {
                rng.byte()
            }
        })
        .collect()
}

fn cont(rng: &mut Rng) -> u8 {
    rng.range(0x80, 0xBF) as u8
}

/// One piece of damage, as bytes to insert.
fn damage(rng: &mut Rng) -> Vec<u8> {
    match rng.below(12) {
        // Stray continuation bytes.
        0 => (0..rng.range(1, 4)).map(|_| cont(rng)).collect(),
        // Bytes that never occur in UTF-8.
        1 => vec![rng.pick(&[
            0xC0, 0xC1, 0xF5, 0xF6, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF,
        ])],
        // Encoded surrogate ED A0..BF 80..BF.
        2 => vec![0xED, rng.range(0xA0, 0xBF) as u8, cont(rng)],
        // Overlongs: C0/C1 xx, E0 80..9F xx, F0 80..8F xx xx.
        3 => vec![rng.pick(&[0xC0, 0xC1]), cont(rng)],
        4 => vec![0xE0, rng.range(0x80, 0x9F) as u8, cont(rng)],
        5 => vec![0xF0, rng.range(0x80, 0x8F) as u8, cont(rng), cont(rng)],
        // Above U+10FFFF: F4 90..BF xx xx, F5.. xx xx xx.
        6 => vec![0xF4, rng.range(0x90, 0xBF) as u8, cont(rng), cont(rng)],
        7 => vec![rng.range(0xF5, 0xF7) as u8, cont(rng), cont(rng), cont(rng)],
        // A valid character with its tail cut off (1..len-1 bytes kept).
        8 | 9 => loop {
            let c = random_scalar(rng);
            let mut b = [0u8; 4];
            let s = c.encode_utf8(&mut b);
            if s.len() > 1 {
                let keep = rng.range(1, s.len() as u32 - 1) as usize;
                break b[..keep].to_vec();
            }
        },
        // A lone lead byte.
        10 => vec![rng.range(0xC2, 0xF4) as u8],
        // A few random bytes.
        _ => (0..rng.range(1, 4)).map(|_| rng.byte()).collect(),
    }
}

/// Valid text with 1..=4 pieces of damage: inserted ill-formed sequences
/// (anywhere, even inside characters), truncations, bytes overwritten with
/// random ones, or the end cut off.
pub fn damaged_text(rng: &mut Rng, max_chars: usize) -> Vec<u8> {
    let mut v = valid_text(rng, max_chars).into_bytes();
    for _ in 0..rng.range(1, 4) {
        match rng.below(8) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = rng.byte();
            }
            1 if !v.is_empty() => {
                let cut = rng.below(v.len());
                v.truncate(cut);
            }
            2 if !v.is_empty() => {
                let i = rng.below(v.len());
                v.remove(i);
            }
            _ => {
                let at = rng.below(v.len() + 1);
                let d = damage(rng);
                v.splice(at..at, d);
            }
        }
    }
    v
}

/// A mix: a third valid text, a third random bytes, a third damaged text.
pub fn mixed_input(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    match rng.below(3) {
        0 => valid_text(rng, max_len / 2).into_bytes(),
        1 => random_bytes(rng, max_len),
        _ => damaged_text(rng, max_len / 3),
    }
}

/// Random code point units for encoding: valid scalars, surrogates (with
/// the escape range DC80..DCFF over-represented) and values above 0x10FFFF.
pub fn random_units(rng: &mut Rng, max_len: usize, bad_one_in: usize) -> Vec<u32> {
    let n = rng.below(max_len + 1);
    (0..n)
        .map(|_| {
            if !rng.chance(1, bad_one_in) {
                return random_scalar(rng) as u32;
            }
            match rng.below(6) {
                0 => rng.range(0xD800, 0xDFFF),
                1 | 2 => rng.range(0xDC80, 0xDCFF),
                3 => rng.range(0x11_0000, 0x1F_FFFF),
                4 => rng.pick(&[
                    0x11_0000,
                    0xFFFF_FFFF,
                    0x7FFF_FFFF,
                    0x8000_0000,
                    0xDC7F,
                    0xDD00,
                ]),
                _ => rng.range(0x11_0000, u32::MAX),
            }
        })
        .collect()
}

/// Hex for assertion messages.
pub fn hex(s: &[u8]) -> String {
    s.iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A longer input (up to `max_len` bytes, a little more at most) made of
/// runs: ASCII, mixed valid text, runs of one encoding length (as in real
/// Cyrillic, CJK or emoji text), and — unless the input is to stay clean —
/// pieces of damage, so that word- or vector-at-a-time paths meet errors at
/// every alignment.
pub fn long_input(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let target = rng.below(max_len + 1);
    let clean = rng.chance(1, 3);
    let mut v = Vec::with_capacity(target + 8);
    while v.len() < target {
        match rng.below(if clean { 5 } else { 7 }) {
            0 | 1 => {
                for _ in 0..rng.below(80) {
                    v.push(rng.range(0x20, 0x7E) as u8);
                }
            }
            2 => v.extend_from_slice(valid_text(rng, 40).as_bytes()),
            3 | 4 => {
                let (lo, hi) = rng.pick(&[
                    (0x400, 0x4FF),
                    (0x4E00, 0x9FFF),
                    (0x1_F300, 0x1_F64F),
                    (0x80, 0x7FF),
                ]);
                for _ in 0..rng.below(40) {
                    let c = char::from_u32(rng.range(lo, hi)).expect("scalar");
                    let mut b = [0u8; 4];
                    v.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                }
            }
            _ => {
                let d = damage(rng);
                v.extend_from_slice(&d);
            }
        }
    }
    v
}

// ---------------------------------------------------------------------------
// Sampled runs
// ---------------------------------------------------------------------------

/// Whether the suites run under an emulator: `.ci/run` sets `U8X_EMULATED`
/// for its qemu-user runs (aarch64, s390x), where the largest enumerations
/// would take most of CI's time budget.
pub fn emulated() -> bool {
    std::env::var_os("U8X_EMULATED").is_some_and(|v| !v.is_empty())
}

/// Whether this is the full suite: `U8X_FULL=1` (what `.ci/run` runs
/// natively) and not under an emulator. Otherwise the run is *sampled*:
/// the quick check before a commit (`cargo test --workspace`, a few
/// minutes), or an emulated run. A sampled run visits every value of the
/// enumerations' outer dimensions but only part of the innermost one (see
/// [`inner_bytes`], [`inner_units`]), and leaves out the multi-GiB
/// buffers.
pub fn full() -> bool {
    !emulated() && std::env::var_os("U8X_FULL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// `!full()`.
pub fn sampled() -> bool {
    !full()
}

/// How far apart a sampled run's innermost values are: every 7th, or
/// under emulation every `U8X_EMULATED_STRIDE`th where that is set
/// (`.ci/run` sets 31 for its aarch64 and s390x runs; the x86_64 suite runs
/// every value); 1 in the full suite.
pub fn stride() -> usize {
    if full() {
        return 1;
    }
    std::env::var("U8X_EMULATED_STRIDE")
        .ok()
        .filter(|_| emulated())
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(7)
}

/// The second byte of a three- or four-byte enumeration: every byte,
/// except under an emulator, where it is sampled as [`inner_bytes`] is
/// (Table 3-7's edges kept; a second byte's classes are its edges).
pub fn middle_bytes() -> Vec<u8> {
    if emulated() {
        inner_bytes()
    } else {
        (0..=255).collect()
    }
}

/// `n`, or under an emulator an eighth of it: how many random or
/// sampled values a loop takes.
pub fn emulated_fraction(n: usize) -> usize {
    if emulated() {
        n.div_ceil(8)
    } else {
        n
    }
}

/// The innermost byte of an enumeration: every byte in the full suite;
/// in a sampled run every [`stride`]th plus every range edge of Table 3-7.
pub fn inner_bytes() -> Vec<u8> {
    if full() {
        return (0..=255).collect();
    }
    let mut v: Vec<u8> = (0..=255u8).step_by(stride()).collect();
    v.extend([
        0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
        0xF0, 0xF4, 0xF5, 0xFF,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

/// The innermost UTF-16 unit of an enumeration: every unit in the full
/// suite; in a sampled run every [`stride`]th plus the edges of the
/// surrogate ranges and of the UTF-8 lengths.
pub fn inner_units() -> Vec<u16> {
    if full() {
        return (0..=0xFFFF).collect();
    }
    let mut v: Vec<u16> = (0..=0xFFFFu16).step_by(stride()).collect();
    v.extend([
        0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDC7F, 0xDC80, 0xDCFF,
        0xDD00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}
