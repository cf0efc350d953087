//! Short strings (0..=64 bytes), the common case for C callers: nanoseconds
//! per call, u8x against simdutf, simdutf8 and std, over 4096 different
//! strings of each length cut (at character boundaries) from a lipsum text.
//!
//! cargo bench --bench short [-- --quick] [--tier avx2]

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

type Call = Box<dyn Fn(&[u8], &mut [u32]) -> usize>;

/// u8x's calls go through `engine` when a tier is forced (`--tier avx2`,
/// to set beside `SIMDUTF_FORCE_IMPLEMENTATION=haswell`), else through the
/// free functions, as a C caller's do.
fn calls(engine: Option<u8x::Engine>) -> Vec<(&'static str, Call)> {
    let (validate, decode): (Call, Call) = match engine {
        Some(e) => (
            Box::new(move |s, _| (e.validate_chunk(s, false).status == u8x::Status::Done) as usize),
            Box::new(move |s, d| e.decode_ucs4(s, d, u8x::Policy::Strict, false).written),
        ),
        None => (
            Box::new(|s, _| u8x::validate(s).is_ok() as usize),
            Box::new(|s, d| u8x::decode_ucs4(s, d, u8x::Policy::Strict, false).written),
        ),
    };
    vec![
        ("u8x validate", validate),
        (
            "simdutf validate",
            Box::new(|s, _| simdutf::validate_utf8(s) as usize),
        ),
        (
            "simdutf8 validate",
            Box::new(|s, _| simdutf8::basic::from_utf8(s).is_ok() as usize),
        ),
        (
            "std validate",
            Box::new(|s, _| std::str::from_utf8(s).is_ok() as usize),
        ),
        ("u8x decode", decode),
        (
            "simdutf decode",
            // SAFETY: `d` has room for 64 code points and `s` is at most 64 bytes.
            Box::new(|s, d| unsafe {
                simdutf::convert_utf8_to_utf32(s.as_ptr(), s.len(), d.as_mut_ptr())
            }),
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
    for file in ["Latin-Lipsum.utf8.txt", "Chinese-Lipsum.utf8.txt"] {
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
                let strings: Vec<&[u8]> = (0..4096)
                    .map(|k| {
                        let start =
                            u8x::next_boundary(&text, (k * 7919) % (text.len() - 80)).unwrap();
                        let end = u8x::prev_boundary(&text, start + len).unwrap();
                        &text[start..end]
                    })
                    .collect();
                let mut out = [0u32; 64];
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
