//! Latin-1, UTF-16 and UCS-4 to one another, u8x against simdutf 9.1 in
//! one process on the same data: `convert_latin1_to_utf16le`,
//! `convert_utf16le_to_latin1`, `convert_utf16le_to_utf32`,
//! `convert_utf32_to_utf16le`, `convert_latin1_to_utf32`,
//! `convert_utf32_to_latin1` and `validate_utf32`. u8x runs its strict
//! policy (the same refusal simdutf makes), UTF-16 little-endian and UCS-4
//! native, as simdutf has them.
//!
//! ```sh
//! cargo bench --bench convert -- [--quick] [--filter SUBSTR] [--tier NAME]
//! SIMDUTF_FORCE_IMPLEMENTATION=haswell cargo bench --bench convert -- --tier avx2
//! ```
//!
//! GB/s of input, best of several ~20 ms rounds, the two interleaved
//! round by round. Each output is checked against the other's before
//! timing.

#[path = "common/vector_state.rs"]
mod vector_state;

use std::hint::black_box;
use std::time::Instant;

use u8x::{ByteOrder, EncodePolicy, Engine, Latin1Policy, Status, Tier};

const LE: ByteOrder = ByteOrder::Little;
const NATIVE: ByteOrder = ByteOrder::Native;

/// One side of a row: runs once, returns the units it wrote.
type Run<'a> = Box<dyn FnMut() -> usize + 'a>;

/// Best seconds per run of each of `runs`.
fn measure(runs: &mut [Run], rounds: usize, round_ms: f64) -> Vec<f64> {
    let iters: Vec<u64> = runs
        .iter_mut()
        .map(|r| {
            let t = Instant::now();
            let mut n = 0u64;
            while t.elapsed().as_secs_f64() * 1e3 < round_ms / 2.0 || n < 2 {
                black_box(r());
                n += 1;
            }
            ((n as f64 * round_ms / 1e3 / t.elapsed().as_secs_f64()) as u64).max(1)
        })
        .collect();
    let mut best = vec![f64::INFINITY; runs.len()];
    for _ in 0..rounds {
        for (i, r) in runs.iter_mut().enumerate() {
            vector_state::clear_upper_halves();
            let t = Instant::now();
            for _ in 0..iters[i] {
                black_box(r());
            }
            best[i] = best[i].min(t.elapsed().as_secs_f64() / iters[i] as f64);
        }
    }
    best
}

/// A text in every form this bench converts between.
struct Input {
    name: String,
    utf16: Vec<u16>,
    ucs4: Vec<u32>,
    /// Only for text Latin-1 holds.
    latin1: Option<Vec<u8>>,
}

fn inputs() -> Vec<Input> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    let mut texts = Vec::new();
    for lang in ["Arabic", "Chinese", "Emoji", "Hebrew", "Latin", "Russian"] {
        match std::fs::read_to_string(dir.join(format!("{lang}-Lipsum.utf8.txt"))) {
            Ok(text) => texts.push((lang.to_string(), text)),
            Err(e) => println!("NOTE: lipsum {lang} missing ({e}), skipped"),
        }
    }
    // Latin-1 text: the Latin file with every tenth letter accented.
    if let Some((_, latin)) = texts.iter().find(|(n, _)| n == "Latin") {
        let accented: String = latin
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 10 == 0 && c.is_ascii_lowercase() {
                    'é'
                } else {
                    c
                }
            })
            .collect();
        texts.push(("latin1-10%".into(), accented));
    }
    texts
        .into_iter()
        .map(|(name, text)| Input {
            name,
            utf16: text.encode_utf16().map(u16::to_le).collect(),
            ucs4: text.chars().map(u32::from).collect(),
            latin1: text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect(),
        })
        .collect()
}

struct Config {
    quick: bool,
    filter: Option<String>,
    engine: Engine,
}

fn config() -> Config {
    let mut cfg = Config {
        quick: false,
        filter: None,
        engine: Engine::best(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => cfg.quick = true,
            "--filter" => cfg.filter = args.next(),
            "--tier" => {
                let name = args.next().unwrap_or_default();
                let tier = Tier::ALL
                    .into_iter()
                    .find(|t| t.name().eq_ignore_ascii_case(&name))
                    .unwrap_or_else(|| panic!("unknown tier {name:?}"));
                cfg.engine = Engine::new(tier).unwrap_or_else(|| panic!("this CPU lacks {name}"));
            }
            "--bench" => {}
            other => eprintln!("convert: ignoring {other:?}"),
        }
    }
    cfg
}

fn main() {
    if !simdutf9_peer::AVAILABLE {
        eprintln!("simdutf 9.1 was not compiled in: ../shared/peers/simdutf-9.1.0 is missing");
        std::process::exit(1);
    }
    let cfg = config();
    let e = cfg.engine;
    let (rounds, round_ms) = if cfg.quick { (2, 4.0) } else { (7, 20.0) };
    println!(
        "u8x tier {}, simdutf 9.1 {}; GB/s of input; ratio = u8x / simdutf 9.1\n",
        e.tier().name(),
        simdutf9_peer::implementation()
    );
    println!(
        "{:<18} {:<12} {:>8} {:>8} {:>7}",
        "operation", "input", "u8x", "peer", "ratio"
    );
    for input in inputs() {
        let n16 = input.utf16.len();
        let n32 = input.ucs4.len();
        let row = |op: &str, bytes: usize, mut runs: [Run; 2]| {
            if let Some(f) = &cfg.filter {
                if !format!("{op}/{}", input.name).contains(f.as_str()) {
                    return;
                }
            }
            let written = runs.each_mut().map(|r| r());
            assert_eq!(
                written[0], written[1],
                "{op}/{}: the outputs differ in length",
                input.name
            );
            let secs = measure(&mut runs, rounds, round_ms);
            let gbs: Vec<f64> = secs.iter().map(|s| bytes as f64 / s / 1e9).collect();
            println!(
                "{op:<18} {:<12} {:>8.2} {:>8.2} {:>6.2}x",
                input.name,
                gbs[0],
                gbs[1],
                gbs[0] / gbs[1]
            );
        };
        let (src16, src32) = (&input.utf16[..], &input.ucs4[..]);
        let (mut a32, mut b32) = (vec![0u32; n16], vec![0u32; n16]);
        // Checked once here; the timed runs only return lengths.
        let ours = e.convert_utf16_to_ucs4(
            src16,
            Some(&mut a32),
            EncodePolicy::Strict,
            (LE, NATIVE),
            false,
        );
        assert_eq!(ours.status, Status::Done);
        let theirs = simdutf9_peer::convert_utf16le_to_utf32(src16, &mut b32);
        assert_eq!(a32[..ours.written], b32[..theirs]);
        row(
            "utf16le->ucs4",
            2 * n16,
            [
                Box::new(|| {
                    e.convert_utf16_to_ucs4(
                        src16,
                        Some(&mut a32),
                        EncodePolicy::Strict,
                        (LE, NATIVE),
                        false,
                    )
                    .written
                }),
                Box::new(|| simdutf9_peer::convert_utf16le_to_utf32(src16, &mut b32)),
            ],
        );
        let (mut a16, mut b16) = (vec![0u16; 2 * n32], vec![0u16; 2 * n32]);
        let ours = e.convert_ucs4_to_utf16(
            src32,
            Some(&mut a16),
            EncodePolicy::Strict,
            (NATIVE, LE),
            false,
        );
        let theirs = simdutf9_peer::convert_utf32_to_utf16le(src32, &mut b16);
        assert_eq!(a16[..ours.written], b16[..theirs]);
        row(
            "ucs4->utf16le",
            4 * n32,
            [
                Box::new(|| {
                    e.convert_ucs4_to_utf16(
                        src32,
                        Some(&mut a16),
                        EncodePolicy::Strict,
                        (NATIVE, LE),
                        false,
                    )
                    .written
                }),
                Box::new(|| simdutf9_peer::convert_utf32_to_utf16le(src32, &mut b16)),
            ],
        );
        row(
            "validate ucs4",
            4 * n32,
            [
                Box::new(|| e.validate_ucs4(src32, NATIVE).read),
                Box::new(|| {
                    if simdutf9_peer::validate_utf32(src32) {
                        n32
                    } else {
                        0
                    }
                }),
            ],
        );
        let (mut a16, mut b16) = (vec![0u16; n16], vec![0u16; n16]);
        row(
            "well-formed utf16",
            2 * n16,
            [
                Box::new(|| {
                    e.to_well_formed_utf16_into(src16, &mut a16, 0xFFFD, LE, false)
                        .written
                }),
                Box::new(|| {
                    simdutf9_peer::to_well_formed_utf16le(src16, &mut b16);
                    n16
                }),
            ],
        );
        row(
            "swap utf16",
            2 * n16,
            [
                Box::new(|| e.swap_utf16(src16, &mut a16).written),
                Box::new(|| {
                    simdutf9_peer::change_endianness_utf16(src16, &mut b16);
                    n16
                }),
            ],
        );
        row(
            "classify utf16",
            2 * n16,
            [
                Box::new(|| e.classify_utf16(src16, LE, false).code_points),
                Box::new(|| {
                    if simdutf9_peer::validate_utf16le(src16) {
                        simdutf9_peer::count_utf16le(src16)
                    } else {
                        0
                    }
                }),
            ],
        );
        row(
            "ucs4 len of utf16",
            2 * n16,
            [
                Box::new(|| e.ucs4_len_utf16_valid(src16, LE)),
                Box::new(|| simdutf9_peer::count_utf16le(src16)),
            ],
        );
        row(
            "utf16 len of ucs4",
            4 * n32,
            [
                Box::new(|| e.utf16_len_ucs4_valid(src32, NATIVE)),
                Box::new(|| simdutf9_peer::utf16_length_from_utf32(src32)),
            ],
        );
        let utf8: Vec<u8> = String::from_utf16_lossy(src16).into_bytes();
        // Compared on the UTF-8 bit: simdutf's set leaves out readings u8x
        // and CPython's codecs accept (UTF-16BE of UTF-16LE Arabic text).
        let bits = |d: u8x::Detection| d.valid as usize & 1;
        row(
            "detect (utf-8)",
            utf8.len(),
            [
                Box::new(|| bits(e.detect_encoding(&utf8))),
                Box::new(|| simdutf9_peer::detect_encodings(&utf8) as usize & 1),
            ],
        );
        let bytes16: Vec<u8> = src16.iter().flat_map(|u| u.to_ne_bytes()).collect();
        row(
            "detect (utf-16le)",
            bytes16.len(),
            [
                Box::new(|| bits(e.detect_encoding(&bytes16))),
                Box::new(|| simdutf9_peer::detect_encodings(&bytes16) as usize & 1),
            ],
        );
        if input.name == "Latin" {
            row(
                "ascii? utf16",
                2 * n16,
                [
                    Box::new(|| e.validate_ascii_utf16(src16, LE).read),
                    Box::new(|| {
                        if simdutf9_peer::validate_utf16le_as_ascii(src16) {
                            n16
                        } else {
                            0
                        }
                    }),
                ],
            );
            row(
                "ascii? bytes",
                utf8.len(),
                [
                    Box::new(|| e.validate_ascii(&utf8).read),
                    Box::new(|| {
                        if simdutf9_peer::validate_ascii(&utf8) {
                            utf8.len()
                        } else {
                            0
                        }
                    }),
                ],
            );
        }
        let Some(latin1) = &input.latin1 else {
            continue;
        };
        let n8 = latin1.len();
        let (mut a8, mut b8) = (vec![0u8; n16], vec![0u8; n16]);
        let ours = e.convert_utf16_to_latin1(src16, Some(&mut a8), Latin1Policy::Strict, LE, false);
        let theirs = simdutf9_peer::convert_utf16le_to_latin1(src16, &mut b8);
        assert_eq!(a8[..ours.written], b8[..theirs]);
        row(
            "utf16le->latin1",
            2 * n16,
            [
                Box::new(|| {
                    e.convert_utf16_to_latin1(src16, Some(&mut a8), Latin1Policy::Strict, LE, false)
                        .written
                }),
                Box::new(|| simdutf9_peer::convert_utf16le_to_latin1(src16, &mut b8)),
            ],
        );
        let (mut a8, mut b8) = (vec![0u8; n32], vec![0u8; n32]);
        row(
            "ucs4->latin1",
            4 * n32,
            [
                Box::new(|| {
                    e.convert_ucs4_to_latin1(src32, Some(&mut a8), Latin1Policy::Strict, NATIVE)
                        .written
                }),
                Box::new(|| simdutf9_peer::convert_utf32_to_latin1(src32, &mut b8)),
            ],
        );
        let (mut a16, mut b16) = (vec![0u16; n8], vec![0u16; n8]);
        row(
            "latin1->utf16le",
            n8,
            [
                Box::new(|| {
                    e.convert_latin1_to_utf16(latin1, Some(&mut a16), LE)
                        .written
                }),
                Box::new(|| simdutf9_peer::convert_latin1_to_utf16le(latin1, &mut b16)),
            ],
        );
        let (mut a32, mut b32) = (vec![0u32; n8], vec![0u32; n8]);
        row(
            "latin1->ucs4",
            n8,
            [
                Box::new(|| {
                    e.convert_latin1_to_ucs4(latin1, Some(&mut a32), NATIVE)
                        .written
                }),
                Box::new(|| simdutf9_peer::convert_latin1_to_utf32(latin1, &mut b32)),
            ],
        );
    }
}
