//! The dialects against RFC 3629 on the same tier, and Modified UTF-8
//! against the `simd_cesu8` and `cesu8` crates.
//!
//! ```sh
//! cargo bench --bench dialects -- [--tier NAME] [--quick]
//! ```
//!
//! GB/s of the dialect's bytes (read or written), best of several ~20 ms
//! rounds, the implementations interleaved round by round. Inputs are the
//! lipsum texts of simdutf's benchmarks (../shared/corpus/lipsum), which
//! hold none of the dialects' own forms except the Emoji text in CESU-8
//! and Modified UTF-8 (every character a surrogate pair). Every output is
//! checked before timing.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use u8x::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Status, Tier};

/// Best GB/s over rounds of `f`, which handles `bytes` bytes per call.
fn gbps(bytes: usize, rounds: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        let mut calls = 0u32;
        while start.elapsed().as_millis() < 20 {
            f();
            calls += 1;
        }
        best = best.min(start.elapsed().as_secs_f64() / f64::from(calls));
    }
    bytes as f64 / best / 1e9
}

/// Runs each of `fs` in turn, `rounds` times, interleaved: the best GB/s
/// of each.
fn side_by_side(bytes: usize, rounds: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best = vec![0f64; fs.len()];
    for _ in 0..rounds {
        for (b, f) in best.iter_mut().zip(fs.iter_mut()) {
            *b = b.max(gbps(bytes, 1, f));
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let rounds = if quick { 3 } else { 9 };
    let engine = match args.iter().position(|a| a == "--tier") {
        Some(i) => {
            let name = &args[i + 1];
            let tier = Tier::ALL
                .into_iter()
                .find(|t| t.name() == name)
                .expect("tier name");
            Engine::new(tier).expect("tier available on this CPU")
        }
        None => Engine::best(),
    };
    println!("tier {:?}", engine.tier());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    let names = ["Latin", "Russian", "Chinese", "Japanese", "Hindi", "Emoji"];
    let dialects = [
        Dialect::Legacy,
        Dialect::Cesu8,
        Dialect::Mutf8,
        Dialect::Wtf8,
        Dialect::Generalized,
    ];

    println!("\n## UTF-8 -> UTF-16, the dialect against RFC 3629 on the same bytes (GB/s)\n");
    println!("| text | standard | legacy | CESU-8 | MUTF-8 | WTF-8 | generalized | worst ratio |");
    println!("|---|---|---|---|---|---|---|---|");
    for name in names {
        let Ok(text) = std::fs::read(dir.join(format!("{name}-Lipsum.utf8.txt"))) else {
            println!("| {name} | missing |");
            continue;
        };
        if name == "Emoji" {
            continue; // 4-byte forms: not CESU-8, measured below
        }
        let mut dst = vec![0u16; text.len()];
        let mut rates = Vec::new();
        let mut fs: Vec<Box<dyn FnMut()>> = Vec::new();
        for d in std::iter::once(Dialect::Standard).chain(dialects) {
            let p = engine.decode_utf16_in(
                d,
                &text,
                &mut dst,
                Policy::Strict,
                ByteOrder::Little,
                false,
            );
            assert_eq!(p.status, Status::Done, "{name} {d:?}");
        }
        for d in std::iter::once(Dialect::Standard).chain(dialects) {
            let (engine, text) = (&engine, &text);
            let dst: *mut Vec<u16> = &mut dst;
            fs.push(Box::new(move || {
                // SAFETY: the closures run one at a time.
                let dst = unsafe { &mut *dst };
                black_box(engine.decode_utf16_in(
                    d,
                    black_box(text),
                    dst,
                    Policy::Strict,
                    ByteOrder::Little,
                    false,
                ));
            }));
        }
        let mut refs: Vec<&mut dyn FnMut()> = fs
            .iter_mut()
            .map(|f| f.as_mut() as &mut dyn FnMut())
            .collect();
        rates.extend(side_by_side(text.len(), rounds, &mut refs));
        let worst = rates[1..].iter().cloned().fold(f64::MAX, f64::min) / rates[0];
        let cells: Vec<String> = rates.iter().map(|r| format!("{r:.2}")).collect();
        println!("| {name} | {} | {worst:.2}x |", cells.join(" | "));
    }

    println!("\n## UTF-16 -> the dialect, against RFC 3629 on the same units (GB/s of UTF-16)\n");
    println!("| text | standard | legacy | CESU-8 | MUTF-8 | WTF-8 | generalized | worst ratio |");
    println!("|---|---|---|---|---|---|---|---|");
    for name in names {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}-Lipsum.utf8.txt"))) else {
            println!("| {name} | missing |");
            continue;
        };
        if name == "Emoji" {
            continue; // pairs: not the same bytes in CESU-8, measured below
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut dst = vec![0u8; 3 * units.len()];
        for d in std::iter::once(Dialect::Standard).chain(dialects) {
            let p = engine.encode_utf16_in(
                d,
                &units,
                Some(&mut dst),
                EncodePolicy::Strict,
                ByteOrder::Native,
                false,
            );
            assert_eq!(p.status, Status::Done, "{name} {d:?}");
            assert_eq!(&dst[..p.written], text.as_bytes(), "{name} {d:?}");
        }
        let mut fs: Vec<Box<dyn FnMut()>> = Vec::new();
        for d in std::iter::once(Dialect::Standard).chain(dialects) {
            let (engine, units) = (&engine, &units);
            let dst: *mut Vec<u8> = &mut dst;
            fs.push(Box::new(move || {
                // SAFETY: the closures run one at a time.
                let dst = unsafe { &mut *dst };
                black_box(engine.encode_utf16_in(
                    d,
                    black_box(units),
                    Some(dst),
                    EncodePolicy::Strict,
                    ByteOrder::Native,
                    false,
                ));
            }));
        }
        let mut refs: Vec<&mut dyn FnMut()> = fs
            .iter_mut()
            .map(|f| f.as_mut() as &mut dyn FnMut())
            .collect();
        let rates = side_by_side(2 * units.len(), rounds, &mut refs);
        let worst = rates[1..].iter().cloned().fold(f64::MAX, f64::min) / rates[0];
        let cells: Vec<String> = rates.iter().map(|r| format!("{r:.2}")).collect();
        println!("| {name} | {} | {worst:.2}x |", cells.join(" | "));
    }

    println!("\n## UTF-8 -> UCS-4 and validation: CESU-8 and Modified UTF-8 against RFC 3629 on the same bytes (GB/s)\n");
    println!("| text | UCS-4 standard | CESU-8 | MUTF-8 | worst | validate standard | CESU-8 | MUTF-8 | worst |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for name in names.iter().filter(|&&n| n != "Emoji") {
        let Ok(text) = std::fs::read(dir.join(format!("{name}-Lipsum.utf8.txt"))) else {
            continue;
        };
        let trio = [Dialect::Standard, Dialect::Cesu8, Dialect::Mutf8];
        let mut dst = vec![0u32; text.len()];
        for d in trio {
            let p = engine.decode_ucs4_in(d, &text, &mut dst, Policy::Strict, false);
            assert_eq!(
                (p.status, p.read),
                (Status::Done, text.len()),
                "{name} {d:?}"
            );
            let p = engine.validate_in(d, &text, false);
            assert_eq!(
                (p.status, p.read),
                (Status::Done, text.len()),
                "{name} {d:?}"
            );
        }
        let dst = std::cell::RefCell::new(dst);
        let decode = |d: Dialect| {
            let (engine, text, dst) = (&engine, &text, &dst);
            move || {
                let mut dst = dst.borrow_mut();
                black_box(engine.decode_ucs4_in(
                    d,
                    black_box(text),
                    &mut dst,
                    Policy::Strict,
                    false,
                ));
            }
        };
        let validate = |d: Dialect| {
            let (engine, text) = (&engine, &text);
            move || {
                black_box(engine.validate_in(d, black_box(text), false));
            }
        };
        let [mut a, mut b, mut c] = trio.map(decode);
        let u = side_by_side(text.len(), rounds, &mut [&mut a, &mut b, &mut c]);
        let [mut a, mut b, mut c] = trio.map(validate);
        let v = side_by_side(text.len(), rounds, &mut [&mut a, &mut b, &mut c]);
        println!(
            "| {name} | {:.2} | {:.2} | {:.2} | {:.2}x | {:.2} | {:.2} | {:.2} | {:.2}x |",
            u[0],
            u[1],
            u[2],
            u[1].min(u[2]) / u[0],
            v[0],
            v[1],
            v[2],
            v[1].min(v[2]) / v[0]
        );
    }

    let Ok(emoji) = std::fs::read_to_string(dir.join("Emoji-Lipsum.utf8.txt")) else {
        return;
    };
    let units: Vec<u16> = emoji.encode_utf16().collect();
    let java = cesu8::to_java_cesu8(&emoji).into_owned();
    let cesu = cesu8::to_cesu8(&emoji).into_owned();
    println!("\n## Emoji: every character a pair in CESU-8 and Modified UTF-8 (GB/s of the dialect's bytes; standard: of the UTF-8)\n");
    println!("| conversion | standard (UTF-8) | CESU-8 | MUTF-8 | ratio (worst) |");
    println!("|---|---|---|---|---|");
    {
        let mut d16 = vec![0u16; java.len()];
        let mut run = |d: Dialect, src: &[u8]| {
            let p =
                engine.decode_utf16_in(d, src, &mut d16, Policy::Strict, ByteOrder::Little, false);
            assert_eq!((p.status, &d16[..p.written]), (Status::Done, &units[..]));
            gbps(src.len(), rounds, || {
                black_box(engine.decode_utf16_in(
                    d,
                    black_box(src),
                    &mut d16,
                    Policy::Strict,
                    ByteOrder::Little,
                    false,
                ));
            })
        };
        let s = run(Dialect::Standard, emoji.as_bytes());
        let c = run(Dialect::Cesu8, &cesu);
        let m = run(Dialect::Mutf8, &java);
        println!(
            "| decode to UTF-16 | {s:.2} | {c:.2} | {m:.2} | {:.2}x |",
            c.min(m) / s
        );
        let mut out = vec![0u8; 3 * units.len()];
        let mut enc = |d: Dialect, want: &[u8]| {
            let p = engine.encode_utf16_in(
                d,
                &units,
                Some(&mut out),
                EncodePolicy::Strict,
                ByteOrder::Little,
                false,
            );
            assert_eq!((p.status, &out[..p.written]), (Status::Done, want));
            gbps(want.len(), rounds, || {
                black_box(engine.encode_utf16_in(
                    d,
                    black_box(&units),
                    Some(&mut out),
                    EncodePolicy::Strict,
                    ByteOrder::Little,
                    false,
                ));
            })
        };
        let s = enc(Dialect::Standard, emoji.as_bytes());
        let c = enc(Dialect::Cesu8, &cesu);
        let m = enc(Dialect::Mutf8, &java);
        println!(
            "| encode from UTF-16 | {s:.2} | {c:.2} | {m:.2} | {:.2}x |",
            c.min(m) / s
        );
    }

    // The crates convert to and from a Rust `String`; a JNI caller that
    // wants UTF-16 (Java's own strings) adds std's conversion: this table
    // times the same input to the same output.
    let mut same_output = vec![
        "| text | direction | u8x | simd_cesu8 + std | cesu8 + std | vs simd_cesu8 + std | vs cesu8 + std |".to_string(),
        "|---|---|---|---|---|---|---|".to_string(),
    ];
    println!("\n## Modified UTF-8 against the crates (GB/s of Modified UTF-8; u8x to/from UTF-16, the crates to/from a Rust String)\n");
    println!("| text | direction | u8x | simd_cesu8 | cesu8 | vs simd_cesu8 | vs cesu8 |");
    println!("|---|---|---|---|---|---|---|");
    for name in names {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}-Lipsum.utf8.txt"))) else {
            continue;
        };
        let java = cesu8::to_java_cesu8(&text).into_owned();
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut d16 = vec![0u16; java.len()];
        assert_eq!(simd_cesu8::mutf8::decode_strict(&java).unwrap(), text);
        let mut u = || {
            black_box(engine.decode_utf16_in(
                Dialect::Mutf8,
                black_box(&java),
                &mut d16,
                Policy::Strict,
                ByteOrder::Little,
                false,
            ));
        };
        let mut s = || {
            black_box(simd_cesu8::mutf8::decode_strict(black_box(&java)).unwrap());
        };
        let mut c = || {
            black_box(cesu8::from_java_cesu8(black_box(&java)).unwrap());
        };
        let r = side_by_side(java.len(), rounds, &mut [&mut u, &mut s, &mut c]);
        println!(
            "| {name} | decode | {:.2} | {:.2} | {:.2} | {:.2}x | {:.1}x |",
            r[0],
            r[1],
            r[2],
            r[0] / r[1],
            r[0] / r[2]
        );
        let mut s16 = vec![0u16; java.len()];
        let mut s = || {
            let text = simd_cesu8::mutf8::decode_strict(black_box(&java)).unwrap();
            for (d, u) in s16.iter_mut().zip(text.encode_utf16()) {
                *d = u;
            }
            black_box(&s16);
        };
        let mut c16 = vec![0u16; java.len()];
        let mut c = || {
            let text = cesu8::from_java_cesu8(black_box(&java)).unwrap();
            for (d, u) in c16.iter_mut().zip(text.encode_utf16()) {
                *d = u;
            }
            black_box(&c16);
        };
        let t = side_by_side(java.len(), rounds, &mut [&mut s, &mut c]);
        same_output.push(format!(
            "| {name} | decode | {:.2} | {:.2} | {:.2} | {:.2}x | {:.1}x |",
            r[0],
            t[0],
            t[1],
            r[0] / t[0],
            r[0] / t[1]
        ));
        let mut out = vec![0u8; 3 * units.len()];
        let mut u = || {
            black_box(engine.encode_utf16_in(
                Dialect::Mutf8,
                black_box(&units),
                Some(&mut out),
                EncodePolicy::Strict,
                ByteOrder::Little,
                false,
            ));
        };
        let mut s = || {
            black_box(simd_cesu8::mutf8::encode(black_box(&text)));
        };
        let mut c = || {
            black_box(cesu8::to_java_cesu8(black_box(&text)));
        };
        let r = side_by_side(java.len(), rounds, &mut [&mut u, &mut s, &mut c]);
        println!(
            "| {name} | encode | {:.2} | {:.2} | {:.2} | {:.2}x | {:.1}x |",
            r[0],
            r[1],
            r[2],
            r[0] / r[1],
            r[0] / r[2]
        );
        let mut s = || {
            let text = String::from_utf16(black_box(&units)).unwrap();
            black_box(simd_cesu8::mutf8::encode(&text).len());
        };
        let mut c = || {
            let text = String::from_utf16(black_box(&units)).unwrap();
            black_box(cesu8::to_java_cesu8(&text).len());
        };
        let t = side_by_side(java.len(), rounds, &mut [&mut s, &mut c]);
        same_output.push(format!(
            "| {name} | encode | {:.2} | {:.2} | {:.2} | {:.2}x | {:.1}x |",
            r[0],
            t[0],
            t[1],
            r[0] / t[0],
            r[0] / t[1]
        ));
    }
    println!("\n## Modified UTF-8 <-> UTF-16: u8x against the crates with std's conversion between String and UTF-16 (GB/s of Modified UTF-8)\n");
    for row in same_output {
        println!("{row}");
    }
}
