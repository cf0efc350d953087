//! Short strings (0..=64 bytes of UTF-8), the common case for C callers and
//! runtimes: nanoseconds per call, u8x against simdutf 9.1, simdutf 0.7
//! (validation, decoding), simdutf8 and std, over 4096 different strings of
//! each length cut (at character boundaries) from a lipsum text. The
//! encoding rows take the same strings as code points and as UTF-16 units.
//!
//! cargo bench --bench short [-- --quick] [--tier avx2]

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// One string in every form a row reads. `latin1` is each code point's
/// low byte: Latin-1 text of the same length, ASCII where the UTF-8 is,
/// high bytes where it is not.
struct Input<'a> {
    utf8: &'a [u8],
    ucs4: Vec<u32>,
    utf16: Vec<u16>,
    latin1: Vec<u8>,
}

/// Room for whatever a row writes from 64 bytes of UTF-8.
struct Output {
    ucs4: [u32; 64],
    utf8: [u8; 256],
}

type Call = Box<dyn Fn(&Input, &mut Output) -> usize>;

/// u8x's calls go through `engine` when a tier is forced (`--tier avx2`,
/// to set beside `SIMDUTF_FORCE_IMPLEMENTATION=haswell`), else through the
/// best engine looked up on every call, as the free functions (and so a C
/// caller's calls) do.
fn calls(engine: Option<u8x::Engine>) -> Vec<(&'static str, Call)> {
    use u8x::{ByteOrder, EncodePolicy, Policy};
    let e = move || engine.unwrap_or_else(u8x::Engine::best);
    let validate: Call = Box::new(move |s, _| {
        (e().validate_chunk(s.utf8, false).status == u8x::Status::Done) as usize
    });
    let decode: Call = Box::new(move |s, d| {
        e().decode_ucs4(s.utf8, &mut d.ucs4, Policy::Strict, false)
            .written
    });
    let encode: Call = Box::new(move |s, d| {
        e().encode(&s.ucs4, &mut d.utf8, EncodePolicy::Strict)
            .written
    });
    let encode_utf16: Call = Box::new(move |s, d| {
        let (policy, order) = (EncodePolicy::Strict, ByteOrder::Native);
        e().encode_utf16(&s.utf16, &mut d.utf8, policy, order, false)
            .written
    });
    let encode_latin1: Call =
        Box::new(move |s, d| e().encode_latin1(&s.latin1, &mut d.utf8).written);
    vec![
        ("u8x validate", validate),
        (
            "simdutf9 validate",
            Box::new(|s, _| simdutf9_peer::validate_utf8(s.utf8) as usize),
        ),
        (
            "simdutf8 validate",
            Box::new(|s, _| simdutf8::basic::from_utf8(s.utf8).is_ok() as usize),
        ),
        (
            "std validate",
            Box::new(|s, _| std::str::from_utf8(s.utf8).is_ok() as usize),
        ),
        ("u8x decode", decode),
        (
            "simdutf9 decode",
            Box::new(|s, d| simdutf9_peer::convert_utf8_to_utf32(s.utf8, &mut d.ucs4)),
        ),
        (
            "simdutf decode",
            // SAFETY: `d` has room for 64 code points and `s` is at most 64 bytes.
            Box::new(|s, d| unsafe {
                simdutf::convert_utf8_to_utf32(s.utf8.as_ptr(), s.utf8.len(), d.ucs4.as_mut_ptr())
            }),
        ),
        ("u8x encode", encode),
        (
            "simdutf9 encode",
            Box::new(|s, d| simdutf9_peer::convert_utf32_to_utf8(&s.ucs4, &mut d.utf8)),
        ),
        ("u8x encode_utf16", encode_utf16),
        (
            "simdutf9 enc utf16",
            Box::new(|s, d| simdutf9_peer::convert_utf16le_to_utf8(&s.utf16, &mut d.utf8)),
        ),
        ("u8x encode_latin1", encode_latin1),
        (
            "simdutf9 enc latin1",
            Box::new(|s, d| simdutf9_peer::convert_latin1_to_utf8(&s.latin1, &mut d.utf8)),
        ),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let tier = args
        .iter()
        .position(|a| a == "--tier")
        .and_then(|i| args.get(i + 1));
    let engine = tier.map(|name| {
        let tier = match name.as_str() {
            "scalar" => u8x::Tier::Scalar,
            "sse42" => u8x::Tier::Sse42,
            "avx2" => u8x::Tier::Avx2,
            "avx512" => u8x::Tier::Avx512,
            other => panic!("unknown tier {other}: scalar, sse42, avx2 or avx512"),
        };
        u8x::Engine::new(tier).unwrap_or_else(|| panic!("this CPU lacks {tier:?}"))
    });
    if let Some(e) = engine {
        println!("u8x tier forced: {:?}", e.tier());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    let lengths = [0usize, 1, 4, 8, 16, 24, 32, 48, 64];
    println!(
        "short strings: ns per call (best of {} rounds of 4096 strings)",
        if quick { 3 } else { 15 }
    );
    for file in [
        "Latin-Lipsum.utf8.txt",
        "Russian-Lipsum.utf8.txt",
        "Chinese-Lipsum.utf8.txt",
    ] {
        let Ok(text) = std::fs::read(root.join(file)) else {
            println!("skipped {file}: not found under {}", root.display());
            continue;
        };
        println!("\n{file}");
        print!("{:<20}", "bytes");
        for len in lengths {
            print!("{len:>7}");
        }
        println!();
        let calls = calls(engine);
        for (name, call) in &calls {
            print!("{name:<20}");
            for len in lengths {
                // 4096 strings of at most `len` bytes, each ending at a
                // character boundary, from spread-out offsets.
                let strings: Vec<Input> = (0..4096)
                    .map(|k| {
                        let start =
                            u8x::next_boundary(&text, (k * 7919) % (text.len() - 80)).unwrap();
                        let end = u8x::prev_boundary(&text, start + len).unwrap();
                        let utf8 = &text[start..end];
                        let s = std::str::from_utf8(utf8).expect("lipsum is UTF-8");
                        Input {
                            utf8,
                            ucs4: s.chars().map(u32::from).collect(),
                            utf16: s.encode_utf16().collect(),
                            latin1: s.chars().map(|c| u32::from(c) as u8).collect(),
                        }
                    })
                    .collect();
                let mut out = Output {
                    ucs4: [0; 64],
                    utf8: [0; 256],
                };
                let mut best = f64::MAX;
                for _ in 0..if quick { 3 } else { 15 } {
                    let t = Instant::now();
                    let mut sum = 0;
                    for s in &strings {
                        sum += call(black_box(s), &mut out);
                    }
                    black_box(sum);
                    best = best.min(t.elapsed().as_nanos() as f64 / strings.len() as f64);
                }
                print!("{best:>7.1}");
            }
            println!();
        }
    }
}
