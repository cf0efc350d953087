//! The runtimes' forms side by side: u8x against simdutf 9.1 for UTF-8 <->
//! UTF-16LE and UTF-8 <-> Latin-1, plus u8x's replacement decoding (which no
//! peer does at SIMD speed) and classification against its own validation.
//!
//! ```sh
//! cargo bench --bench forms -- [--quick] [--filter SUBSTR] [--tier NAME] [--csv PATH]
//! SIMDUTF_FORCE_IMPLEMENTATION=haswell cargo bench --bench forms -- --tier avx2
//! cargo bench --bench forms -- --short      # calls of 0..64 bytes, ns per call
//! ```
//!
//! GB/s of UTF-8 (read or written), best of several ~20 ms rounds, the
//! implementations interleaved round by round, aligned and at +16 bytes.
//! Every implementation's output is checked against u8x's before timing.

#[path = "common/csv.rs"]
mod csv;
#[path = "common/vector_state.rs"]
mod vector_state;

use std::hint::black_box;
use std::time::Instant;

use u8x::{ByteOrder, EncodePolicy, Engine, Latin1Policy, Policy, Status, Tier};

const MIB: usize = 1 << 20;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
}

/// About 1 MiB of UTF-8 from `pick`; with `error_every`, a lone FF byte
/// every that many bytes.
fn synth(seed: u64, error_every: Option<usize>, pick: fn(&mut Rng) -> char) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut s = Vec::with_capacity(MIB + 4);
    let mut next_error = error_every.unwrap_or(usize::MAX);
    while s.len() < MIB {
        if s.len() >= next_error {
            s.push(0xFF);
            next_error += error_every.unwrap_or(usize::MAX);
        }
        let mut b = [0u8; 4];
        s.extend_from_slice(pick(&mut rng).encode_utf8(&mut b).as_bytes());
    }
    s
}

fn ascii(rng: &mut Rng) -> char {
    char::from(rng.range(0x20, 0x7E) as u8)
}

fn ascii_1pct_2byte(rng: &mut Rng) -> char {
    if rng.range(0, 99) == 0 {
        char::from_u32(rng.range(0x80, 0x7FF)).unwrap_or('x')
    } else {
        ascii(rng)
    }
}

fn latin1_text(rng: &mut Rng) -> char {
    if rng.range(0, 9) == 0 {
        char::from(rng.range(0xA0, 0xFF) as u8)
    } else {
        ascii(rng)
    }
}

fn any_length(rng: &mut Rng) -> char {
    let cp = match rng.range(1, 4) {
        1 => rng.range(0x20, 0x7E),
        2 => rng.range(0x80, 0x7FF),
        3 => rng.range(0xE000, 0xFFFD),
        _ => rng.range(0x1_0000, 0x10_FFFF),
    };
    char::from_u32(cp).unwrap_or('x')
}

struct Input {
    name: String,
    utf8: Vec<u8>,
}

fn inputs() -> Vec<Input> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    let mut v = Vec::new();
    for lang in [
        "Arabic", "Chinese", "Emoji", "Hebrew", "Hindi", "Japanese", "Korean", "Latin", "Russian",
    ] {
        match std::fs::read(dir.join(format!("{lang}-Lipsum.utf8.txt"))) {
            Ok(utf8) => v.push(Input {
                name: lang.into(),
                utf8,
            }),
            Err(e) => println!("NOTE: lipsum {lang} missing ({e}), skipped"),
        }
    }
    type Synthetic = (&'static str, Option<usize>, fn(&mut Rng) -> char);
    let synthetic: [Synthetic; 5] = [
        ("ascii", None, ascii),
        ("ascii+1%2B", None, ascii_1pct_2byte),
        ("latin1-10%", None, latin1_text),
        ("mixed-1234", None, any_length),
        ("mixed+err/KiB", Some(1024), any_length),
    ];
    for (i, (name, err, pick)) in synthetic.into_iter().enumerate() {
        v.push(Input {
            name: name.into(),
            utf8: synth(i as u64 + 1, err, pick),
        });
    }
    v
}

/// `data` copied so that it starts `offset` bytes after a 64-byte boundary.
fn aligned<T: Copy + Default>(data: &[T], offset: usize) -> (Vec<T>, usize) {
    let size = std::mem::size_of::<T>();
    let mut buf = vec![T::default(); data.len() + 128 / size];
    let start = buf.as_ptr().align_offset(64) + offset / size;
    buf[start..start + data.len()].copy_from_slice(data);
    (buf, start)
}

/// One timed implementation: runs once over its case, returns a digest.
/// With `true`, returns a digest of the output for the check; with `false`
/// (timed), only the output length.
type Run<'a> = Box<dyn FnMut(bool) -> u64 + 'a>;

/// Best GB/s of each run over `bytes` bytes of UTF-8.
fn measure(runs: &mut [Run], bytes: usize, rounds: usize, round_ms: f64) -> Vec<f64> {
    let iters: Vec<u64> = runs
        .iter_mut()
        .map(|r| {
            let t = Instant::now();
            let mut n = 0u64;
            while t.elapsed().as_secs_f64() * 1e3 < round_ms / 2.0 || n < 2 {
                black_box(r(false));
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
                black_box(r(false));
            }
            best[i] = best[i].min(t.elapsed().as_secs_f64() / iters[i] as f64);
        }
    }
    best.iter().map(|s| bytes as f64 / s / 1e9).collect()
}

struct Config {
    short: bool,
    quick: bool,
    filter: Option<String>,
    csv: Option<String>,
    engine: Engine,
}

fn config() -> Config {
    let mut cfg = Config {
        short: false,
        quick: false,
        filter: None,
        csv: None,
        engine: Engine::best(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => cfg.quick = true,
            "--short" => cfg.short = true,
            "--filter" => cfg.filter = args.next(),
            "--csv" => cfg.csv = Some(args.next().expect("--csv needs a file name")),
            "--tier" => {
                let name = args.next().unwrap_or_default();
                let tier = Tier::ALL
                    .into_iter()
                    .find(|t| t.name().eq_ignore_ascii_case(&name))
                    .unwrap_or_else(|| panic!("unknown tier {name:?}"));
                cfg.engine = Engine::new(tier).unwrap_or_else(|| panic!("this CPU lacks {name}"));
            }
            "--bench" => {}
            other => eprintln!("forms: ignoring {other:?}"),
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
    if cfg.short {
        short_calls(e, cfg.quick);
        return;
    }
    let (rounds, round_ms) = if cfg.quick { (2, 4.0) } else { (7, 20.0) };
    println!(
        "u8x tier {}, simdutf 9.1 {}; GB/s of UTF-8; ratio = u8x / simdutf 9.1\n",
        e.tier().name(),
        simdutf9_peer::implementation()
    );
    println!(
        "{:<28} {:<14} {:>5} {:>8} {:>8} {:>7}",
        "operation", "input", "align", "u8x", "peer", "ratio"
    );
    let mut csv = cfg.csv.as_deref().map(|path| {
        csv::CsvOut::create(
            path,
            &csv::RunInfo {
                bench: "forms",
                u8x_tier: e.tier().name().into(),
                simdutf91_kernel: simdutf9_peer::implementation(),
                simdutf77_kernel: "not run".into(),
                rounds,
                round_ms,
            },
        )
    });
    for input in inputs() {
        let valid = std::str::from_utf8(&input.utf8).is_ok();
        for offset in [0usize, 16] {
            let (sbuf, s0) = aligned(&input.utf8, offset);
            let src = &sbuf[s0..s0 + input.utf8.len()];
            let text = String::from_utf8_lossy(src);
            let units: Vec<u16> = text.encode_utf16().map(u16::to_le).collect();
            let (ubuf, u0) = aligned(&units, offset);
            let u16src = &ubuf[u0..u0 + units.len()];
            let latin1: Option<Vec<u8>> =
                text.chars().map(|c| u8::try_from(c as u32).ok()).collect();
            let mut out16 = vec![0u16; src.len() + 64];
            let mut peer16 = vec![0u16; src.len() + 64];
            let mut out8 = vec![0u8; units.len() * 3 + 64];
            let mut peer8 = vec![0u8; units.len() * 3 + 64];
            let align = if offset == 0 { "0" } else { "+16" };
            let mut row = |op: &str, bytes: usize, mut runs: Vec<Run>, peer_name: &str| {
                if let Some(f) = &cfg.filter {
                    if !format!("{op}/{}", input.name).contains(f.as_str()) {
                        return;
                    }
                }
                let digests: Vec<u64> = runs.iter_mut().map(|r| r(true)).collect();
                assert!(
                    digests.windows(2).all(|w| w[0] == w[1]),
                    "{op}/{}: outputs differ {digests:?}",
                    input.name
                );
                let g = measure(&mut runs, bytes, rounds, round_ms);
                println!(
                    "{op:<28} {:<14} {align:>5} {:>8.2} {:>8.2} {:>6.2}x  ({peer_name})",
                    input.name,
                    g[0],
                    g[1],
                    g[0] / g[1]
                );
                if let Some(out) = csv.as_mut() {
                    let (peer, role) = peer_column(peer_name);
                    let align = if offset == 0 { "aligned" } else { "+16" };
                    out.row(op, &input.name, bytes, align, "u8x", "u8x", g[0]);
                    out.row(op, &input.name, bytes, align, peer, role, g[1]);
                }
            };
            let digest16 = |check: bool, d: &[u16]| {
                if !check {
                    return d.len() as u64;
                }
                d.iter()
                    .fold(d.len() as u64, |h, &u| h.rotate_left(5) ^ u as u64)
            };
            let digest8 = |check: bool, d: &[u8]| {
                if !check {
                    return d.len() as u64;
                }
                d.iter()
                    .fold(d.len() as u64, |h, &u| h.rotate_left(5) ^ u as u64)
            };
            if valid {
                row(
                    "utf8->utf16le strict",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.decode_utf16(
                                src,
                                &mut out16,
                                Policy::Strict,
                                ByteOrder::Little,
                                false,
                            );
                            assert_eq!(p.status, Status::Done);
                            digest16(check, &out16[..p.written])
                        }),
                        Box::new(|check| {
                            let n = simdutf9_peer::convert_utf8_to_utf16le(src, &mut peer16);
                            digest16(check, &peer16[..n])
                        }),
                    ],
                    "convert_utf8_to_utf16le",
                );
                // encoding_rs: the portable peer (word-at-a-time ASCII, no
                // SIMD without its nightly feature), the scalar tier's
                // target.
                let mut rs16 = vec![0u16; src.len() + 64];
                row(
                    "utf8->utf16 strict (enc_rs)",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.decode_utf16(
                                src,
                                &mut out16,
                                Policy::Strict,
                                ByteOrder::Native,
                                false,
                            );
                            assert_eq!(p.status, Status::Done);
                            digest16(check, &out16[..p.written])
                        }),
                        Box::new(|check| {
                            let mut dec = encoding_rs::UTF_8.new_decoder_without_bom_handling();
                            let (res, read, n) =
                                dec.decode_to_utf16_without_replacement(src, &mut rs16, true);
                            assert!(matches!(res, encoding_rs::DecoderResult::InputEmpty));
                            assert_eq!(read, src.len());
                            digest16(check, &rs16[..n])
                        }),
                    ],
                    "encoding_rs decode_to_utf16_without_replacement",
                );
                row(
                    "utf8->utf16le replace/own",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.decode_utf16(
                                src,
                                &mut out16,
                                u8x::REPLACE,
                                ByteOrder::Little,
                                false,
                            );
                            digest16(check, &out16[..p.written])
                        }),
                        Box::new(|check| {
                            let p = e.decode_utf16(
                                src,
                                &mut peer16,
                                Policy::Strict,
                                ByteOrder::Little,
                                false,
                            );
                            digest16(check, &peer16[..p.written])
                        }),
                    ],
                    "u8x strict",
                );
                row(
                    "utf16le->utf8 strict",
                    text.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.encode_utf16(
                                u16src,
                                &mut out8,
                                EncodePolicy::Strict,
                                ByteOrder::Little,
                                false,
                            );
                            assert_eq!(p.status, Status::Done);
                            digest8(check, &out8[..p.written])
                        }),
                        Box::new(|check| {
                            let n = simdutf9_peer::convert_utf16le_to_utf8(u16src, &mut peer8);
                            digest8(check, &peer8[..n])
                        }),
                    ],
                    "convert_utf16le_to_utf8",
                );
                row(
                    "utf16->utf8 strict (enc_rs)",
                    text.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.encode_utf16(
                                u16src,
                                &mut out8,
                                EncodePolicy::Strict,
                                ByteOrder::Little,
                                false,
                            );
                            assert_eq!(p.status, Status::Done);
                            digest8(check, &out8[..p.written])
                        }),
                        Box::new(|check| {
                            let n = encoding_rs::mem::convert_utf16_to_utf8(u16src, &mut peer8);
                            digest8(check, &peer8[..n])
                        }),
                    ],
                    "encoding_rs mem::convert_utf16_to_utf8 (native order, replaces)",
                );
                row(
                    "utf16 length of utf8",
                    src.len(),
                    vec![
                        Box::new(|_| e.utf16_len_valid(src) as u64),
                        Box::new(|_| simdutf9_peer::utf16_length_from_utf8(src) as u64),
                    ],
                    "utf16_length_from_utf8",
                );
                row(
                    "utf8 length of utf16le",
                    text.len(),
                    vec![
                        Box::new(|_| e.utf8_len_valid_utf16(u16src, ByteOrder::Little) as u64),
                        Box::new(|_| simdutf9_peer::utf8_length_from_utf16le(u16src) as u64),
                    ],
                    "utf8_length_from_utf16le",
                );
                row(
                    "utf16le validate",
                    text.len(),
                    vec![
                        Box::new(|_| {
                            let p = e.validate_utf16(u16src, ByteOrder::Little, false);
                            assert_eq!(p.status, Status::Done);
                            p.read as u64
                        }),
                        Box::new(|_| {
                            assert!(simdutf9_peer::validate_utf16le(u16src));
                            u16src.len() as u64
                        }),
                    ],
                    "validate_utf16le",
                );
                row(
                    "classify/own validate",
                    src.len(),
                    vec![
                        Box::new(|_| e.classify(src, false).progress.read as u64),
                        Box::new(|_| e.validate_chunk(src, false).read as u64),
                    ],
                    "u8x validate",
                );
            } else {
                row(
                    "utf8->utf16le replace/strict",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.decode_utf16(
                                src,
                                &mut out16,
                                u8x::REPLACE,
                                ByteOrder::Little,
                                false,
                            );
                            digest16(check, &out16[..p.written])
                        }),
                        Box::new(|check| {
                            // Our own strict decoding of the same text
                            // without the errors: the 0.5x target's base.
                            let p = e.decode_utf16(
                                text.as_bytes(),
                                &mut peer16,
                                Policy::Strict,
                                ByteOrder::Little,
                                false,
                            );
                            digest16(check, &peer16[..p.written])
                        }),
                    ],
                    "u8x strict, errors removed",
                );
            }
            if let Some(l1) = &latin1 {
                let (lbuf, l0) = aligned(l1, offset);
                let l1src = &lbuf[l0..l0 + l1.len()];
                let mut outl = vec![0u8; 2 * l1.len() + 64];
                let mut peerl = vec![0u8; 2 * l1.len() + 64];
                row(
                    "utf8->latin1 strict",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.decode_latin1(src, &mut outl, Latin1Policy::Strict, false);
                            assert_eq!(p.status, Status::Done);
                            digest8(check, &outl[..p.written])
                        }),
                        Box::new(|check| {
                            let n = simdutf9_peer::convert_utf8_to_latin1(src, &mut peerl);
                            digest8(check, &peerl[..n])
                        }),
                    ],
                    "convert_utf8_to_latin1",
                );
                row(
                    "utf8->latin1 strict (enc_rs)",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.decode_latin1(src, &mut outl, Latin1Policy::Strict, false);
                            assert_eq!(p.status, Status::Done);
                            digest8(check, &outl[..p.written])
                        }),
                        Box::new(|check| {
                            // Its input must be valid UTF-8 of Latin-1
                            // characters, as here; it does not check.
                            let n = encoding_rs::mem::convert_utf8_to_latin1_lossy(src, &mut peerl);
                            digest8(check, &peerl[..n])
                        }),
                    ],
                    "encoding_rs mem::convert_utf8_to_latin1_lossy (does not validate)",
                );
                row(
                    "latin1->utf8",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.encode_latin1(l1src, &mut outl);
                            digest8(check, &outl[..p.written])
                        }),
                        Box::new(|check| {
                            let n = simdutf9_peer::convert_latin1_to_utf8(l1src, &mut peerl);
                            digest8(check, &peerl[..n])
                        }),
                    ],
                    "convert_latin1_to_utf8",
                );
                row(
                    "latin1->utf8 (enc_rs)",
                    src.len(),
                    vec![
                        Box::new(|check| {
                            let p = e.encode_latin1(l1src, &mut outl);
                            digest8(check, &outl[..p.written])
                        }),
                        Box::new(|check| {
                            let n = encoding_rs::mem::convert_latin1_to_utf8(l1src, &mut peerl);
                            digest8(check, &peerl[..n])
                        }),
                    ],
                    "encoding_rs mem::convert_latin1_to_utf8",
                );
            }
        }
    }
}

/// The CSV's implementation and role for a row's second column: u8x's own
/// other call (the base of a self-ratio), encoding_rs, or simdutf 9.1.
fn peer_column(peer_name: &str) -> (&str, &'static str) {
    if peer_name.starts_with("u8x") {
        (peer_name, "own")
    } else if peer_name.starts_with("encoding_rs") {
        ("encoding_rs", "peer")
    } else {
        ("simdutf 9.1", "peer")
    }
}

/// Nanoseconds per call on 4096 strings of each length (cut at character
/// boundaries from a lipsum text), best of several rounds.
fn short_calls(e: Engine, quick: bool) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    let lengths = [0usize, 1, 4, 8, 16, 24, 32, 48, 64];
    let rounds = if quick { 3 } else { 15 };
    println!(
        "u8x tier {}, simdutf 9.1 {}; ns per call, best of {rounds} rounds of 4096 strings",
        e.tier().name(),
        simdutf9_peer::implementation()
    );
    for file in ["Latin-Lipsum.utf8.txt", "Chinese-Lipsum.utf8.txt"] {
        let Ok(text) = std::fs::read(root.join(file)) else {
            println!("skipped {file}: not found");
            continue;
        };
        let text = String::from_utf8(text).expect("lipsum is UTF-8");
        println!("\n{file} (UTF-8 bytes per call; UTF-16 input is the same text)");
        print!("{:<28}", "bytes");
        for len in lengths {
            print!("{len:>7}");
        }
        println!();
        // Strings of about `len` bytes starting at character boundaries.
        let strings = |len: usize| -> Vec<(Vec<u8>, Vec<u16>)> {
            let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            (0..4096)
                .map(|k| {
                    let start = starts[(k * 7919) % starts.len()];
                    let mut end = (start + len).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    let s = &text[start..end];
                    (s.as_bytes().to_vec(), s.encode_utf16().collect())
                })
                .collect()
        };
        type Call = Box<dyn Fn(&[u8], &[u16], &mut [u16], &mut [u8]) -> usize>;
        let calls: Vec<(&str, Call)> = vec![
            (
                "u8x utf8->utf16le",
                Box::new(move |s, _, d16, _| {
                    e.decode_utf16(s, d16, Policy::Strict, ByteOrder::Little, false)
                        .written
                }),
            ),
            (
                "simdutf 9.1 utf8->utf16le",
                Box::new(|s, _, d16, _| simdutf9_peer::convert_utf8_to_utf16le(s, d16)),
            ),
            (
                "u8x utf16le->utf8",
                Box::new(move |_, u, _, d8| {
                    e.encode_utf16(u, d8, EncodePolicy::Strict, ByteOrder::Little, false)
                        .written
                }),
            ),
            (
                "simdutf 9.1 utf16le->utf8",
                Box::new(|_, u, _, d8| simdutf9_peer::convert_utf16le_to_utf8(u, d8)),
            ),
        ];
        let mut d16 = vec![0u16; 256];
        let mut d8 = vec![0u8; 256];
        for (name, call) in &calls {
            print!("{name:<28}");
            for len in lengths {
                let set = strings(len);
                let mut best = f64::INFINITY;
                for _ in 0..rounds {
                    let t = Instant::now();
                    for (s, u) in &set {
                        black_box(call(black_box(s), black_box(u), &mut d16, &mut d8));
                    }
                    best = best.min(t.elapsed().as_secs_f64() / set.len() as f64);
                }
                print!("{:>7.1}", best * 1e9);
            }
            println!();
        }
    }
}
