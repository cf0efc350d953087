//! Side-by-side benchmark: u8x against simdutf, simdutf8, the standard library
//! and encoding_rs, in one process, on the same bytes.
//!
//! ```sh
//! cargo bench --bench compare -- [--quick] [--filter SUBSTR] [--rounds N] [--csv PATH]
//! ```
//!
//! Every figure is GB/s of UTF-8 (10^9 bytes of UTF-8 per second, for both
//! directions: input bytes when reading UTF-8, output bytes when writing it),
//! simdutf's convention. For each (input, alignment, operation, implementation)
//! the kernel is warmed up and calibrated, then timed for `--rounds` rounds of
//! about 20 ms each (implementations interleaved round by round) and the best
//! round is kept.
//!
//! Before anything is timed, every implementation is run once on the case and
//! its result (verdict, error offsets, code points, bytes, counts) compared
//! with u8x's; a mismatch aborts the run.
//!
//! The u8x side is a list of named variants ([`u8x_variants`]): the public
//! API (best tier for this CPU) and every other available tier, forced with
//! `u8x::Engine::new`. Each gets its own column and its own ratio column.

#[path = "common/csv.rs"]
mod csv;
#[path = "common/vector_state.rs"]
mod vector_state;

use std::hint::black_box;
use std::time::{Duration, Instant};

use std::rc::Rc;

use u8x::{EncodePolicy, Engine, Policy, Progress, Status, Tier, Utf8Error};

// ---------------------------------------------------------------------------
// u8x variants

type ValidateRc = Rc<dyn Fn(&[u8]) -> Result<(), Utf8Error>>;
type DecodeRc = Rc<dyn Fn(&[u8], &mut [u32], Policy) -> Progress>;
type CountRc = Rc<dyn Fn(&[u8], Policy) -> Progress>;
type EncodeRc = Rc<dyn Fn(&[u32], &mut [u8], EncodePolicy) -> Progress>;
type EncodedLenRc = Rc<dyn Fn(&[u32], EncodePolicy) -> Progress>;
type CountValidRc = Rc<dyn Fn(&[u8]) -> usize>;

/// One way of calling u8x: the public API, or one forced tier.
#[derive(Clone)]
struct U8xVariant {
    name: String,
    validate: ValidateRc,
    decode_ucs4: DecodeRc,
    count: CountRc,
    encode: EncodeRc,
    encoded_len: EncodedLenRc,
    count_valid: CountValidRc,
}

impl U8xVariant {
    /// The crate's free functions, which dispatch to the best tier.
    fn public_api() -> Self {
        U8xVariant {
            name: "u8x".into(),
            validate: Rc::new(u8x::validate),
            decode_ucs4: Rc::new(|s, d, p| u8x::decode_ucs4(s, d, p, false)),
            count: Rc::new(|s, p| u8x::count(s, p, false)),
            encode: Rc::new(u8x::encode),
            encoded_len: Rc::new(u8x::encoded_len),
            count_valid: Rc::new(u8x::count_valid),
        }
    }

    /// One tier, forced through [`Engine::new`].
    fn engine(name: String, e: Engine) -> Self {
        U8xVariant {
            name,
            validate: Rc::new(move |s| match e.validate_chunk(s, false).status {
                Status::IllFormed(err) => Err(err),
                _ => Ok(()),
            }),
            decode_ucs4: Rc::new(move |s, d, p| e.decode_ucs4(s, d, p, false)),
            count: Rc::new(move |s, p| e.count(s, p, false)),
            encode: Rc::new(move |u, d, p| e.encode(u, d, p)),
            encoded_len: Rc::new(move |u, p| e.encoded_len(u, p)),
            count_valid: Rc::new(move |s| e.count_valid(s)),
        }
    }
}

/// The u8x columns, in order: the public API first (the reference the
/// peers' outputs are checked against), then every other tier this CPU can
/// run, forced. A new tier in `u8x::Tier::ALL` shows up here by itself.
/// With `--tier`, only that tier, forced (to set beside
/// `SIMDUTF_FORCE_IMPLEMENTATION`).
fn u8x_variants(only: Option<Tier>) -> Vec<U8xVariant> {
    if let Some(tier) = only {
        let e = Engine::new(tier).unwrap_or_else(|| panic!("this CPU lacks {tier:?}"));
        return vec![U8xVariant::engine(tier_column(tier), e)];
    }
    let mut v = vec![U8xVariant::public_api()];
    let best = Engine::best().tier();
    for tier in Tier::ALL {
        if tier == best {
            continue;
        }
        if let Some(e) = Engine::new(tier) {
            v.push(U8xVariant::engine(tier_column(tier), e));
        }
    }
    v
}

fn tier_column(tier: Tier) -> String {
    format!("u8x {}", format!("{tier:?}").to_lowercase())
}

// ---------------------------------------------------------------------------
// Kernels
//
// Every kernel returns a u64 that sums up its result: the verdict, the error
// offsets, the number of units written. It is black-boxed in the timing loop
// and compared across implementations in the check.

const INVALID: u64 = u64::MAX;

type BytesFn = Box<dyn Fn(&[u8]) -> u64>;
type DecodeFn = Box<dyn Fn(&[u8], &mut [u32]) -> u64>;
type DecodeU16Fn = Box<dyn Fn(&[u8], &mut [u16]) -> u64>;
type UnitsFn = Box<dyn Fn(&[u32]) -> u64>;
type EncodeFn = Box<dyn Fn(&[u32], &mut [u8]) -> u64>;

enum Kernel {
    /// UTF-8 in, a digest out (validation, counting).
    Bytes(BytesFn),
    /// UTF-8 in, code points out; returns the number written.
    Decode(DecodeFn),
    /// UTF-8 in, UTF-16 out (reference only); returns the number written.
    DecodeU16(DecodeU16Fn),
    /// Code points in, a digest out (exact size).
    Units(UnitsFn),
    /// Code points in, UTF-8 out; returns the number of bytes written.
    Encode(EncodeFn),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A u8x variant: gets a ratio column.
    U8x,
    /// Same output as u8x: checked, and counts for "best peer".
    Peer,
    /// Different output (e.g. UTF-16): timed for reference, not in the ratio.
    Reference,
}

struct Impl {
    name: String,
    role: Role,
    kernel: Kernel,
}

impl Impl {
    fn new(name: impl Into<String>, role: Role, kernel: Kernel) -> Self {
        Impl {
            name: name.into(),
            role,
            kernel,
        }
    }
}

/// Which inputs an operation runs on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inputs {
    Valid,
    Invalid,
    All,
}

struct Op {
    id: &'static str,
    title: &'static str,
    inputs: Inputs,
    impls: Vec<Impl>,
}

/// Digest of "find every error": resume after each maximal subpart.
fn error_digest(errors: u64, offsets: u64) -> u64 {
    (errors << 40) ^ offsets
}

fn std_decode_into(s: &str, dst: &mut [u32]) -> u64 {
    let mut n = 0u64;
    for (d, c) in dst.iter_mut().zip(s.chars()) {
        *d = c as u32;
        n += 1;
    }
    n
}

fn ops(variants: &[U8xVariant]) -> Vec<Op> {
    use Kernel::*;
    use Role::*;

    // --- validation, valid inputs -----------------------------------------
    let mut validate = Vec::new();
    for v in variants {
        let f = v.validate.clone();
        validate.push(Impl::new(
            v.name.clone(),
            U8x,
            Bytes(Box::new(move |s| f(s).map_or(INVALID, |()| 1))),
        ));
    }
    validate.push(Impl::new(
        "simdutf",
        Peer,
        Bytes(Box::new(|s| u64::from(simdutf::validate_utf8(s)))),
    ));
    validate.push(Impl::new(
        "simdutf w/err",
        Peer,
        Bytes(Box::new(|s| {
            let r = simdutf::validate_utf8_with_errors(s);
            if r.error == simdutf::ErrorCode::Success {
                1
            } else {
                INVALID
            }
        })),
    ));
    if simdutf9_peer::AVAILABLE {
        validate.push(Impl::new(
            "simdutf 9.1",
            Peer,
            Bytes(Box::new(|s| u64::from(simdutf9_peer::validate_utf8(s)))),
        ));
    }
    validate.push(Impl::new(
        "simdutf8 basic",
        Peer,
        Bytes(Box::new(|s| {
            simdutf8::basic::from_utf8(s).map_or(INVALID, |_| 1)
        })),
    ));
    validate.push(Impl::new(
        "simdutf8 compat",
        Peer,
        Bytes(Box::new(|s| {
            simdutf8::compat::from_utf8(s).map_or(INVALID, |_| 1)
        })),
    ));
    validate.push(Impl::new(
        "std",
        Peer,
        Bytes(Box::new(|s| std::str::from_utf8(s).map_or(INVALID, |_| 1))),
    ));

    // --- validation, every error of an ill-formed input --------------------
    // Each implementation that can locate errors resumes after each one. The
    // injected errors are lone FF bytes, so "after" is one byte for everyone.
    let mut scan = Vec::new();
    for v in variants {
        let f = v.validate.clone();
        scan.push(Impl::new(
            v.name.clone(),
            U8x,
            Bytes(Box::new(move |s| {
                let (mut pos, mut n, mut sum) = (0usize, 0u64, 0u64);
                while let Err(e) = f(&s[pos..]) {
                    let at = pos + e.valid_up_to;
                    n += 1;
                    sum = sum.wrapping_add(at as u64);
                    pos = at + e.len as usize;
                }
                error_digest(n, sum)
            })),
        ));
    }
    scan.push(Impl::new(
        "simdutf w/err",
        Peer,
        Bytes(Box::new(|s| {
            let (mut pos, mut n, mut sum) = (0usize, 0u64, 0u64);
            loop {
                let r = simdutf::validate_utf8_with_errors(&s[pos..]);
                if r.error == simdutf::ErrorCode::Success {
                    break;
                }
                // simdutf gives the offset, not the length: skip one byte
                // (exact for the lone bytes injected in this input).
                let at = pos + r.count;
                n += 1;
                sum = sum.wrapping_add(at as u64);
                pos = at + 1;
            }
            error_digest(n, sum)
        })),
    ));
    if simdutf9_peer::AVAILABLE {
        scan.push(Impl::new(
            "simdutf 9.1 w/err",
            Peer,
            Bytes(Box::new(|s| {
                let (mut pos, mut n, mut sum) = (0usize, 0u64, 0u64);
                while let Err(at) = simdutf9_peer::validate_utf8_with_errors(&s[pos..]) {
                    // The injected errors are lone bytes: skip one.
                    let at = pos + at;
                    n += 1;
                    sum = sum.wrapping_add(at as u64);
                    pos = at + 1;
                }
                error_digest(n, sum)
            })),
        ));
    }
    scan.push(Impl::new(
        "simdutf8 compat",
        Peer,
        Bytes(Box::new(|s| {
            let (mut pos, mut n, mut sum) = (0usize, 0u64, 0u64);
            while let Err(e) = simdutf8::compat::from_utf8(&s[pos..]) {
                let at = pos + e.valid_up_to();
                n += 1;
                sum = sum.wrapping_add(at as u64);
                pos = at + e.error_len().unwrap_or(s.len() - at);
            }
            error_digest(n, sum)
        })),
    ));
    scan.push(Impl::new(
        "std",
        Peer,
        Bytes(Box::new(|s| {
            let (mut pos, mut n, mut sum) = (0usize, 0u64, 0u64);
            while let Err(e) = std::str::from_utf8(&s[pos..]) {
                let at = pos + e.valid_up_to();
                n += 1;
                sum = sum.wrapping_add(at as u64);
                pos = at + e.error_len().unwrap_or(s.len() - at);
            }
            error_digest(n, sum)
        })),
    ));

    // --- UTF-8 -> UTF-32, strict ------------------------------------------
    let mut decode = Vec::new();
    for v in variants {
        let f = v.decode_ucs4.clone();
        decode.push(Impl::new(
            v.name.clone(),
            U8x,
            Decode(Box::new(move |s, d| {
                let p = f(s, d, Policy::Strict);
                match p.status {
                    Status::Done => p.written as u64,
                    _ => INVALID,
                }
            })),
        ));
    }
    decode.push(Impl::new(
        "simdutf",
        Peer,
        Decode(Box::new(|s, d| {
            assert!(d.len() >= s.len());
            // SAFETY: `d` has room for one code point per input byte, the
            // most any UTF-8 input can decode to; the slices do not overlap.
            let n = unsafe { simdutf::convert_utf8_to_utf32(s.as_ptr(), s.len(), d.as_mut_ptr()) };
            if n == 0 && !s.is_empty() {
                INVALID
            } else {
                n as u64
            }
        })),
    ));
    if simdutf9_peer::AVAILABLE {
        decode.push(Impl::new(
            "simdutf 9.1",
            Peer,
            Decode(Box::new(
                |s, d| match simdutf9_peer::convert_utf8_to_utf32(s, d) {
                    0 if !s.is_empty() => INVALID,
                    n => n as u64,
                },
            )),
        ));
    }
    decode.push(Impl::new(
        "std",
        Peer,
        Decode(Box::new(|s, d| match std::str::from_utf8(s) {
            Ok(s) => std_decode_into(s, d),
            Err(_) => INVALID,
        })),
    ));

    // --- UTF-8 -> UTF-32, replacement --------------------------------------
    let mut replace = Vec::new();
    for v in variants {
        let f = v.decode_ucs4.clone();
        replace.push(Impl::new(
            v.name.clone(),
            U8x,
            Decode(Box::new(move |s, d| f(s, d, u8x::REPLACE).written as u64)),
        ));
    }
    replace.push(Impl::new(
        "std lossy",
        Peer,
        Decode(Box::new(|s, d| {
            std_decode_into(&String::from_utf8_lossy(s), d)
        })),
    ));
    replace.push(Impl::new(
        "encoding_rs→UTF-16*",
        Reference,
        DecodeU16(Box::new(|s, d| {
            let mut dec = encoding_rs::UTF_8.new_decoder_without_bom_handling();
            let (res, read, written, _) = dec.decode_to_utf16(s, d, true);
            assert!(res == encoding_rs::CoderResult::InputEmpty && read == s.len());
            written as u64
        })),
    ));

    // --- UTF-32 -> UTF-8 ---------------------------------------------------
    let mut encode = Vec::new();
    for v in variants {
        let f = v.encode.clone();
        encode.push(Impl::new(
            v.name.clone(),
            U8x,
            Encode(Box::new(move |u, d| {
                let p = f(u, d, EncodePolicy::Strict);
                match p.status {
                    Status::Done => p.written as u64,
                    _ => INVALID,
                }
            })),
        ));
    }
    encode.push(Impl::new(
        "simdutf",
        Peer,
        Encode(Box::new(|u, d| {
            assert!(d.len() >= 4 * u.len());
            // SAFETY: `d` has room for four bytes per unit, the most any
            // scalar value encodes to; the slices do not overlap.
            let n = unsafe { simdutf::convert_utf32_to_utf8(u.as_ptr(), u.len(), d.as_mut_ptr()) };
            if n == 0 && !u.is_empty() {
                INVALID
            } else {
                n as u64
            }
        })),
    ));
    if simdutf9_peer::AVAILABLE {
        encode.push(Impl::new(
            "simdutf 9.1",
            Peer,
            Encode(Box::new(
                |u, d| match simdutf9_peer::convert_utf32_to_utf8(u, d) {
                    0 if !u.is_empty() => INVALID,
                    n => n as u64,
                },
            )),
        ));
    }
    encode.push(Impl::new(
        "std",
        Peer,
        Encode(Box::new(|u, d| {
            let mut pos = 0;
            for &x in u {
                match char::from_u32(x) {
                    Some(c) => pos += c.encode_utf8(&mut d[pos..]).len(),
                    None => return INVALID,
                }
            }
            pos as u64
        })),
    ));

    // --- counting code points ----------------------------------------------
    let mut count = Vec::new();
    for v in variants {
        let f = v.count.clone();
        count.push(Impl::new(
            v.name.clone(),
            U8x,
            Bytes(Box::new(move |s| {
                let p = f(s, Policy::Strict);
                match p.status {
                    Status::Done => p.written as u64,
                    _ => INVALID,
                }
            })),
        ));
    }
    // The non-validating count, for input already known to be valid: the
    // like-for-like peer of simdutf's count_utf8.
    let count_valid = variants[0].count_valid.clone();
    count.push(Impl::new(
        format!("{} count_valid", variants[0].name),
        U8x,
        Bytes(Box::new(move |s| count_valid(s) as u64)),
    ));
    count.push(Impl::new(
        "simdutf count_utf8",
        Peer,
        Bytes(Box::new(|s| simdutf::count_utf8(s) as u64)),
    ));
    count.push(Impl::new(
        "simdutf utf32_len",
        Peer,
        Bytes(Box::new(|s| simdutf::utf32_length_from_utf8(s) as u64)),
    ));
    count.push(Impl::new(
        "simdutf validate+count",
        Peer,
        Bytes(Box::new(|s| {
            if simdutf::validate_utf8(s) {
                simdutf::count_utf8(s) as u64
            } else {
                INVALID
            }
        })),
    ));
    if simdutf9_peer::AVAILABLE {
        count.push(Impl::new(
            "simdutf 9.1 count_utf8",
            Peer,
            Bytes(Box::new(|s| simdutf9_peer::count_utf8(s) as u64)),
        ));
        count.push(Impl::new(
            "simdutf 9.1 validate+count",
            Peer,
            Bytes(Box::new(|s| {
                if simdutf9_peer::validate_utf8(s) {
                    simdutf9_peer::count_utf8(s) as u64
                } else {
                    INVALID
                }
            })),
        ));
    }
    count.push(Impl::new(
        "std chars().count()",
        Peer,
        Bytes(Box::new(|s| {
            // SAFETY: the count operation only runs on the valid inputs,
            // which `load_inputs` checked with `std::str::from_utf8`.
            unsafe { std::str::from_utf8_unchecked(s) }.chars().count() as u64
        })),
    ));

    // --- exact UTF-8 size of code points -----------------------------------
    let mut size = Vec::new();
    for v in variants {
        let f = v.encoded_len.clone();
        size.push(Impl::new(
            v.name.clone(),
            U8x,
            Units(Box::new(move |u| {
                let p = f(u, EncodePolicy::Strict);
                match p.status {
                    Status::Done => p.written as u64,
                    _ => INVALID,
                }
            })),
        ));
    }
    size.push(Impl::new(
        "simdutf",
        Peer,
        Units(Box::new(|u| simdutf::utf8_length_from_utf32(u) as u64)),
    ));
    size.push(Impl::new(
        "simdutf validate+len",
        Peer,
        Units(Box::new(|u| {
            if simdutf::validate_utf32(u) {
                simdutf::utf8_length_from_utf32(u) as u64
            } else {
                INVALID
            }
        })),
    ));
    if simdutf9_peer::AVAILABLE {
        size.push(Impl::new(
            "simdutf 9.1",
            Peer,
            Units(Box::new(|u| {
                simdutf9_peer::utf8_length_from_utf32(u) as u64
            })),
        ));
        size.push(Impl::new(
            "simdutf 9.1 validate+len",
            Peer,
            Units(Box::new(|u| {
                if simdutf9_peer::validate_utf32(u) {
                    simdutf9_peer::utf8_length_from_utf32(u) as u64
                } else {
                    INVALID
                }
            })),
        ));
    }
    size.push(Impl::new(
        "std len_utf8",
        Peer,
        Units(Box::new(|u| {
            let mut n = 0u64;
            for &x in u {
                match char::from_u32(x) {
                    Some(c) => n += c.len_utf8() as u64,
                    None => return INVALID,
                }
            }
            n
        })),
    ));

    vec![
        Op {
            id: "validate",
            title: "Validation (UTF-8 -> verdict)",
            inputs: Inputs::Valid,
            impls: validate,
        },
        Op {
            id: "validate-errors",
            title: "Validation, locating every error (resume after each one)",
            inputs: Inputs::Invalid,
            impls: scan,
        },
        Op {
            id: "decode-strict",
            title: "UTF-8 -> UTF-32, strict (validating)",
            inputs: Inputs::Valid,
            impls: decode,
        },
        Op {
            id: "decode-replace",
            title: "UTF-8 -> UTF-32, U+FFFD replacement (* = UTF-16 output, reference only)",
            inputs: Inputs::All,
            impls: replace,
        },
        Op {
            id: "encode",
            title: "UTF-32 -> UTF-8, strict (validating); GB/s of UTF-8 written",
            inputs: Inputs::Valid,
            impls: encode,
        },
        Op {
            id: "count",
            title: "Counting code points (u8x and simdutf validate+count validate; u8x count_valid and the others do not)",
            inputs: Inputs::Valid,
            impls: count,
        },
        Op {
            id: "encoded-len",
            title: "Exact UTF-8 size of UTF-32 (u8x, simdutf validate+len and std validate; simdutf alone does not)",
            inputs: Inputs::Valid,
            impls: size,
        },
    ]
}

// ---------------------------------------------------------------------------
// Inputs

struct Input {
    name: String,
    bytes: Vec<u8>,
    valid: bool,
}

/// splitmix64: a fixed-seed generator, so every run times the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (the tiny modulo bias does not matter here).
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
}

const MIB: usize = 1 << 20;

/// Fills `MIB` bytes with characters from `pick`, padding the tail with ASCII.
/// With `error_every`, a lone FF byte is inserted at the first character
/// boundary at or after each multiple of that many bytes.
fn synth(seed: u64, error_every: Option<usize>, mut pick: impl FnMut(&mut Rng) -> char) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(MIB);
    let mut next_error = error_every.unwrap_or(usize::MAX);
    let mut buf = [0u8; 4];
    loop {
        if out.len() >= next_error {
            out.push(0xFF);
            next_error += error_every.unwrap_or(usize::MAX);
        }
        let c = pick(&mut rng);
        if out.len() + c.len_utf8() > MIB {
            break;
        }
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    out.resize(MIB, b'a');
    out
}

fn printable_ascii(rng: &mut Rng) -> char {
    char::from(rng.range(0x20, 0x7E) as u8)
}

/// A code point of a uniformly chosen UTF-8 length, uniform within that length.
fn any_length(rng: &mut Rng) -> char {
    let cp = match rng.range(1, 4) {
        1 => rng.range(0x20, 0x7E),
        2 => rng.range(0x80, 0x7FF),
        3 => loop {
            let cp = rng.range(0x800, 0xFFFF);
            if !(0xD800..=0xDFFF).contains(&cp) {
                break cp;
            }
        },
        _ => rng.range(0x1_0000, 0x10_FFFF),
    };
    char::from_u32(cp).expect("scalar value")
}

fn ascii_1pct_2byte(rng: &mut Rng) -> char {
    if rng.range(0, 99) == 0 {
        char::from_u32(rng.range(0x80, 0x7FF)).expect("scalar value")
    } else {
        printable_ascii(rng)
    }
}

fn load_inputs() -> Vec<Input> {
    let mut inputs = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    const LIPSUM: [&str; 9] = [
        "Arabic", "Chinese", "Emoji", "Hebrew", "Hindi", "Japanese", "Korean", "Latin", "Russian",
    ];
    let mut missing = Vec::new();
    for lang in LIPSUM {
        let path = dir.join(format!("{lang}-Lipsum.utf8.txt"));
        match std::fs::read(&path) {
            Ok(bytes) => inputs.push(Input {
                name: lang.to_string(),
                bytes,
                valid: true,
            }),
            Err(e) => missing.push(format!("{} ({e})", path.display())),
        }
    }
    if !missing.is_empty() {
        println!("NOTE: lipsum corpus file(s) missing, skipped:");
        for m in &missing {
            println!("  {m}");
        }
        println!("  (expected ../shared/corpus/lipsum/*.utf8.txt next to the repository)\n");
    }
    inputs.push(Input {
        name: "ascii".into(),
        bytes: synth(1, None, printable_ascii),
        valid: true,
    });
    inputs.push(Input {
        name: "mixed-1234".into(),
        bytes: synth(2, None, any_length),
        valid: true,
    });
    inputs.push(Input {
        name: "ascii+1%2B".into(),
        bytes: synth(3, None, ascii_1pct_2byte),
        valid: true,
    });
    inputs.push(Input {
        name: "mixed+err/KiB".into(),
        bytes: synth(4, Some(1024), any_length),
        valid: false,
    });
    for i in &inputs {
        assert_eq!(
            std::str::from_utf8(&i.bytes).is_ok(),
            i.valid,
            "input {} is not as expected (valid = {})",
            i.name,
            i.valid
        );
    }
    inputs
}

/// A copy of some data whose first element sits `offset` bytes after a
/// 64-byte boundary.
struct Aligned<T> {
    buf: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> Aligned<T> {
    fn new(data: &[T], offset: usize) -> Self {
        let size = std::mem::size_of::<T>();
        assert_eq!(offset % size, 0);
        let mut buf = vec![T::default(); data.len() + (64 + offset) / size + 1];
        let pad = buf.as_ptr().align_offset(64);
        assert!(pad * size < 64, "cannot align the buffer");
        let start = pad + offset / size;
        buf[start..start + data.len()].copy_from_slice(data);
        Aligned {
            buf,
            start,
            len: data.len(),
        }
    }

    /// An aligned, zeroed output buffer of `len` elements.
    fn zeroed(len: usize) -> Self {
        Self::new(&vec![T::default(); len], 0)
    }

    fn get(&self) -> &[T] {
        &self.buf[self.start..self.start + self.len]
    }

    fn get_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

// ---------------------------------------------------------------------------
// Running

struct Config {
    quick: bool,
    markdown: bool,
    filter: Option<String>,
    /// `--csv PATH`: every cell also as a row of this CSV file.
    csv: Option<String>,
    rounds: usize,
    round_time: Duration,
    /// Run this tier alone instead of the public API and every tier.
    tier: Option<Tier>,
}

fn parse_args() -> Config {
    let mut cfg = Config {
        quick: false,
        markdown: false,
        filter: None,
        csv: None,
        rounds: 0,
        round_time: Duration::from_millis(20),
        tier: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => cfg.quick = true,
            "--markdown" => cfg.markdown = true,
            "--filter" => cfg.filter = Some(args.next().expect("--filter needs a substring")),
            "--csv" => cfg.csv = Some(args.next().expect("--csv needs a file name")),
            "--rounds" => {
                cfg.rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .expect("--rounds needs a positive integer")
            }
            "--tier" => {
                let name = args.next().expect("--tier needs a tier name");
                let tier = Tier::ALL
                    .into_iter()
                    .find(|t| format!("{t:?}").eq_ignore_ascii_case(&name));
                cfg.tier = Some(tier.unwrap_or_else(|| {
                    panic!("unknown tier {name:?}: scalar, sse42, avx2 or avx512")
                }));
            }
            // Passed by `cargo bench` to every bench target.
            "--bench" => {}
            "-h" | "--help" => {
                println!("usage: cargo bench --bench compare -- [--quick] [--filter SUBSTR] [--rounds N] [--markdown] [--tier NAME] [--csv PATH]");
                println!(
                    "  --filter matches \"op/input\", e.g. validate/, /Latin, decode-strict/Emoji"
                );
                println!("  --markdown prints the per-input tables as Markdown (as in docs/benchmarks-history.md)");
                println!(
                    "  --csv PATH also writes every cell as a CSV row (for benches/summary.py)"
                );
                println!("  --tier scalar|sse42|avx2|avx512 runs that tier alone (with SIMDUTF_FORCE_IMPLEMENTATION)");
                std::process::exit(0);
            }
            other => eprintln!("compare: ignoring unknown argument {other:?}"),
        }
    }
    if cfg.quick {
        cfg.round_time = Duration::from_millis(4);
    }
    if cfg.rounds == 0 {
        cfg.rounds = if cfg.quick { 2 } else { 7 };
    }
    cfg
}

/// The buffers of one (input, alignment) case.
struct Case {
    src: Aligned<u8>,
    /// The input's code points (strict decode; empty for invalid input).
    units: Aligned<u32>,
    /// UTF-8 length of the input, the byte count every figure is based on.
    utf8_len: usize,
    out32: Aligned<u32>,
    out16: Aligned<u16>,
    out8: Aligned<u8>,
}

impl Case {
    fn new(input: &Input, offset: usize) -> Self {
        let units: Vec<u32> = if input.valid {
            std::str::from_utf8(&input.bytes)
                .expect("valid input")
                .chars()
                .map(u32::from)
                .collect()
        } else {
            Vec::new()
        };
        let n = input.bytes.len();
        Case {
            src: Aligned::new(&input.bytes, offset),
            units: Aligned::new(&units, offset),
            utf8_len: n,
            out32: Aligned::zeroed(n + 16),
            out16: Aligned::zeroed(n + 16),
            out8: Aligned::zeroed(4 * units.len() + 64),
        }
    }

    /// Runs `k` once; returns its digest.
    fn run(&mut self, k: &Kernel) -> u64 {
        match k {
            Kernel::Bytes(f) => f(black_box(self.src.get())),
            Kernel::Decode(f) => f(black_box(self.src.get()), self.out32.get_mut()),
            Kernel::DecodeU16(f) => f(black_box(self.src.get()), self.out16.get_mut()),
            Kernel::Units(f) => f(black_box(self.units.get())),
            Kernel::Encode(f) => f(black_box(self.units.get()), self.out8.get_mut()),
        }
    }

    /// Seconds for `iters` back-to-back runs of `k`.
    fn time(&mut self, k: &Kernel, iters: u64) -> f64 {
        vector_state::clear_upper_halves();
        let t = Instant::now();
        for _ in 0..iters {
            black_box(self.run(k));
        }
        t.elapsed().as_secs_f64()
    }
}

/// What an implementation produced, for the check against u8x.
#[derive(PartialEq, Debug)]
enum Output {
    Digest(u64),
    Units(u64, Vec<u32>),
    Bytes(u64, Vec<u8>),
}

fn output(case: &mut Case, k: &Kernel) -> Output {
    let d = case.run(k);
    let n = d as usize;
    match k {
        Kernel::Bytes(_) | Kernel::Units(_) => Output::Digest(d),
        Kernel::Decode(_) if d != INVALID => Output::Units(d, case.out32.get()[..n].to_vec()),
        Kernel::DecodeU16(_) => {
            let cps = char::decode_utf16(case.out16.get()[..n].iter().copied())
                .map(|r| r.map_or(INVALID as u32, u32::from))
                .collect::<Vec<u32>>();
            Output::Units(cps.len() as u64, cps)
        }
        Kernel::Encode(_) if d != INVALID => Output::Bytes(d, case.out8.get()[..n].to_vec()),
        _ => Output::Digest(d),
    }
}

fn describe(o: &Output) -> String {
    match o {
        Output::Digest(d) if *d == INVALID => "INVALID".into(),
        Output::Digest(d) => format!("{d:#x}"),
        Output::Units(n, _) => format!("{n} code points"),
        Output::Bytes(n, _) => format!("{n} bytes"),
    }
}

fn first_difference<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

/// Runs every implementation once and aborts unless each agrees with the
/// first u8x variant (references: with the same code points).
fn check(op: &Op, input: &Input, case: &mut Case) {
    let reference = output(case, &op.impls[0].kernel);
    if let Output::Digest(INVALID) = reference {
        if input.valid {
            fail(
                op,
                input,
                &op.impls[0].name,
                "u8x rejects a valid input".into(),
            );
        }
    }
    if let Output::Bytes(_, bytes) = &reference {
        if bytes != case.src.get() {
            fail(
                op,
                input,
                &op.impls[0].name,
                "encoding does not round-trip".into(),
            );
        }
    }
    for imp in &op.impls[1..] {
        let got = output(case, &imp.kernel);
        if got != reference {
            let mut msg = format!(
                "u8x says {}, {} says {}",
                describe(&reference),
                imp.name,
                describe(&got)
            );
            match (&reference, &got) {
                (Output::Units(_, a), Output::Units(_, b)) => {
                    msg += &format!(
                        "; first differing code point at index {}",
                        first_difference(a, b)
                    )
                }
                (Output::Bytes(_, a), Output::Bytes(_, b)) => {
                    msg += &format!("; first differing byte at {}", first_difference(a, b))
                }
                _ => {}
            }
            fail(op, input, &imp.name, msg);
        }
    }
}

fn fail(op: &Op, input: &Input, imp: &str, msg: String) -> ! {
    eprintln!(
        "\nMISMATCH in {} on input {} ({}): {msg}\nThe comparison would not be apples to apples; aborting.",
        op.id, input.name, imp
    );
    std::process::exit(2);
}

/// Best GB/s of each implementation on one case.
fn bench_case(cfg: &Config, op: &Op, case: &mut Case) -> Vec<f64> {
    let target = cfg.round_time.as_secs_f64();
    // Warm up and calibrate: run each kernel for about one round.
    let iters: Vec<u64> = op
        .impls
        .iter()
        .map(|imp| {
            let (mut n, mut t) = (0u64, 0.0f64);
            while t < target / 2.0 || n < 2 {
                let step = n.max(1);
                t += case.time(&imp.kernel, step);
                n += step;
            }
            ((n as f64 * target / t) as u64).max(1)
        })
        .collect();
    let mut best = vec![f64::INFINITY; op.impls.len()];
    for _ in 0..cfg.rounds {
        for (i, imp) in op.impls.iter().enumerate() {
            let per_iter = case.time(&imp.kernel, iters[i]) / iters[i] as f64;
            best[i] = best[i].min(per_iter);
        }
    }
    best.iter()
        .map(|&s| case.utf8_len as f64 / s / 1e9)
        .collect()
}

struct Row {
    input: String,
    size: usize,
    align: &'static str,
    gbps: Vec<f64>,
}

fn print_table(op: &Op, rows: &[Row], markdown: bool) {
    let mut header: Vec<String> = vec!["input".into(), "size".into(), "align".into()];
    header.extend(op.impls.iter().map(|i| i.name.clone()));
    let u8x_cols: Vec<usize> = (0..op.impls.len())
        .filter(|&i| op.impls[i].role == Role::U8x)
        .collect();
    let peer_cols: Vec<usize> = (0..op.impls.len())
        .filter(|&i| op.impls[i].role == Role::Peer)
        .collect();
    for &u in &u8x_cols {
        header.push(format!("{}/peer", op.impls[u].name));
    }
    let mut table = vec![header];
    for r in rows {
        let mut line = vec![
            r.input.clone(),
            format!("{:.1} KiB", r.size as f64 / 1024.0),
            r.align.into(),
        ];
        line.extend(r.gbps.iter().map(|g| format!("{g:.2}")));
        let best_peer = peer_cols.iter().map(|&p| r.gbps[p]).fold(0.0f64, f64::max);
        for &u in &u8x_cols {
            line.push(if best_peer > 0.0 {
                let ratio = r.gbps[u] / best_peer;
                let digits = if ratio < 0.1 { 3 } else { 2 };
                format!("{ratio:.digits$}x")
            } else {
                "-".into()
            });
        }
        table.push(line);
    }
    let widths: Vec<usize> = (0..table[0].len())
        .map(|c| {
            table
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let left = |c: usize| c == 0 || c == 2;
    if markdown {
        println!("#### {} (`{}`), GB/s\n", op.title, op.id);
        for (i, line) in table.iter().enumerate() {
            println!("| {} |", line.join(" | "));
            if i == 0 {
                let rule: Vec<&str> = (0..line.len())
                    .map(|c| if left(c) { "---" } else { "---:" })
                    .collect();
                println!("|{}|", rule.join("|"));
            }
        }
        println!();
        return;
    }
    println!("== {} [{}] GB/s ==", op.title, op.id);
    for (i, line) in table.iter().enumerate() {
        let cells: Vec<String> = line
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if left(c) {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        println!("  {}", cells.join("  ").trim_end());
        if i == 0 {
            let total = widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
            println!("  {}", "-".repeat(total));
        }
    }
    println!();
}

// ---------------------------------------------------------------------------
// Environment

fn rustc_version() -> String {
    std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".into(), |s| s.trim().to_string())
}

/// The simdutf C++ version bundled by the simdutf crate this bench is built
/// with (`SIMDUTF_VERSION` in the crate's cpp/simdutf.h; the crate does not
/// expose it).
const SIMDUTF_CPP_VERSION: &str = "7.7.1 (bundled by the simdutf crate 0.7.0)";

/// The simdutf kernel chosen at run time (e.g. "icelake", "haswell").
///
/// The simdutf crate does not bind `simdutf::get_active_implementation()`, so
/// this calls the C++ function by its Itanium-mangled name and reads the
/// implementation's name from the object: the vtable pointer, then
/// `const char *_name`, then `const char *_description` (simdutf.h, class
/// `implementation`), behind an `atomic_ptr`, i.e. one plain pointer.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn simdutf_active_implementation() -> String {
    use std::ffi::{c_char, CStr};
    use std::sync::atomic::{AtomicPtr, Ordering};
    extern "C" {
        #[link_name = "_ZN7simdutf25get_active_implementationEv"]
        fn simdutf_get_active_implementation() -> *const AtomicPtr<*const c_char>;
    }
    // The first call of any simdutf function replaces the "detect on first
    // use" placeholder with the real implementation.
    let _ = simdutf::validate_utf8(b"x");
    // SAFETY: the layout is the one documented above; the pointers are
    // checked for null and the strings are static C strings of simdutf.
    unsafe {
        let slot = simdutf_get_active_implementation();
        if slot.is_null() {
            return "unknown".into();
        }
        let imp = (*slot).load(Ordering::SeqCst);
        if imp.is_null() {
            return "unknown".into();
        }
        let name = *imp.add(1);
        let desc = *imp.add(2);
        if name.is_null() || desc.is_null() {
            return "unknown".into();
        }
        let name = CStr::from_ptr(name).to_string_lossy();
        let desc = CStr::from_ptr(desc).to_string_lossy();
        format!("{name} ({desc}); read from the C++ library, the crate does not expose it")
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
fn simdutf_active_implementation() -> String {
    "not exposed by the simdutf crate".into()
}

// ---------------------------------------------------------------------------

fn main() {
    let cfg = parse_args();
    let started = Instant::now();
    let variants = u8x_variants(cfg.tier);
    let ops = ops(&variants);
    let inputs = load_inputs();

    println!("u8x side-by-side benchmark");
    println!("  date:      {}", csv::today());
    println!("  cpu:       {}", csv::cpu_model());
    println!("  rustc:     {}", rustc_version());
    if let Ok(l) = std::fs::read_to_string("/proc/loadavg") {
        let l: Vec<&str> = l.split_whitespace().take(3).collect();
        println!(
            "  load:      {} (1/5/15-min load average at start; {} CPUs)",
            l.join(" "),
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
    }
    println!("  simdutf:   C++ {SIMDUTF_CPP_VERSION}");
    println!("  active:    {}", simdutf_active_implementation());
    if simdutf9_peer::AVAILABLE {
        println!(
            "  simdutf:   C++ 9.1.0 (../shared/peers amalgamation), active: {}",
            simdutf9_peer::implementation()
        );
    } else {
        println!("  simdutf:   9.1.0 not built in (../shared/peers/simdutf-9.1.0 missing)");
    }
    match cfg.tier {
        Some(t) => println!("  u8x:       tier {t:?} forced (--tier); the public API would pick {:?}", Engine::best().tier()),
        None => println!(
            "  u8x:       column \"u8x\" = public API, dispatching to tier {:?}; other columns force a tier",
            Engine::best().tier()
        ),
    }
    println!(
        "  method:    best of {} rounds of ~{} ms each after warm-up{}; GB/s = 1e9 bytes of UTF-8 per second",
        cfg.rounds,
        cfg.round_time.as_millis(),
        if cfg.quick { " (quick mode)" } else { "" }
    );
    println!("  align:     input at a 64-byte boundary (aligned) and 16 bytes past it (+16)");
    if let Some(f) = &cfg.filter {
        println!("  filter:    {f:?} (matched against \"op/input\")");
    }
    println!();

    let mut csv = cfg.csv.as_deref().map(|path| {
        let active = simdutf_active_implementation();
        csv::CsvOut::create(
            path,
            &csv::RunInfo {
                bench: "compare",
                u8x_tier: cfg.tier.unwrap_or(Engine::best().tier()).name().into(),
                simdutf91_kernel: if simdutf9_peer::AVAILABLE {
                    simdutf9_peer::implementation()
                } else {
                    "absent".into()
                },
                // The name alone, before " (description)".
                simdutf77_kernel: active.split(" (").next().unwrap_or("").into(),
                rounds: cfg.rounds,
                round_ms: cfg.round_time.as_secs_f64() * 1e3,
            },
        )
    });
    let mut ran = 0usize;
    for op in &ops {
        let mut rows = Vec::new();
        for input in &inputs {
            let wanted = match op.inputs {
                Inputs::Valid => input.valid,
                Inputs::Invalid => !input.valid,
                Inputs::All => true,
            };
            let key = format!("{}/{}", op.id, input.name);
            if !wanted
                || cfg
                    .filter
                    .as_ref()
                    .is_some_and(|f| !key.contains(f.as_str()))
            {
                continue;
            }
            for (align, offset) in [("aligned", 0), ("+16", 16)] {
                let mut case = Case::new(input, offset);
                check(op, input, &mut case);
                let gbps = bench_case(&cfg, op, &mut case);
                if let Some(out) = csv.as_mut() {
                    for (imp, g) in op.impls.iter().zip(&gbps) {
                        let role = match imp.role {
                            Role::U8x => "u8x",
                            Role::Peer => "peer",
                            Role::Reference => "reference",
                        };
                        out.row(
                            op.id,
                            &input.name,
                            input.bytes.len(),
                            align,
                            &imp.name,
                            role,
                            *g,
                        );
                    }
                }
                rows.push(Row {
                    input: input.name.clone(),
                    size: input.bytes.len(),
                    align,
                    gbps,
                });
                ran += 1;
            }
        }
        if !rows.is_empty() {
            print_table(op, &rows, cfg.markdown);
        }
    }
    if ran == 0 {
        println!("no case matched the filter");
    }
    println!(
        "{ran} cases, outputs checked against u8x before timing; total time {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
