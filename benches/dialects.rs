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

    ucs4_and_validation(&engine, &dir, &names, rounds);
    dense_forms(&engine, &dir, rounds);

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

/// Runs `fs` side by side on `bytes` per call: their GB/s, the first being
/// the reference, and the worst of the others over it.
fn compared(bytes: usize, rounds: usize, fs: &mut [Box<dyn FnMut() + '_>]) -> (Vec<f64>, f64) {
    let mut refs: Vec<&mut dyn FnMut()> = fs
        .iter_mut()
        .map(|f| f.as_mut() as &mut dyn FnMut())
        .collect();
    let rates = side_by_side(bytes, rounds, &mut refs);
    let worst = rates[1..].iter().cloned().fold(f64::MAX, f64::min) / rates[0];
    (rates, worst)
}

fn cells(rates: &[f64]) -> String {
    rates
        .iter()
        .map(|r| format!("{r:.2}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// UTF-8 -> UCS-4 and validation in every dialect against RFC 3629, on
/// text without the dialects' forms; then Emoji, every character a pair in
/// CESU-8 and Modified UTF-8, against its RFC 3629 UTF-8.
fn ucs4_and_validation(engine: &Engine, dir: &Path, names: &[&str], rounds: usize) {
    for (what, validate) in [("UTF-8 -> UCS-4", false), ("validation", true)] {
        println!("\n## {what}, the dialect against RFC 3629 on the same bytes (GB/s)\n");
        println!(
            "| text | standard | legacy | CESU-8 | MUTF-8 | WTF-8 | generalized | worst ratio |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        for name in names.iter().filter(|&&n| n != "Emoji") {
            let Ok(text) = std::fs::read(dir.join(format!("{name}-Lipsum.utf8.txt"))) else {
                continue;
            };
            let inputs = Dialect::ALL.map(|d| (d, text.clone()));
            let (rates, worst) = decode_side_by_side(engine, &inputs, validate, rounds);
            println!("| {name} | {} | {worst:.2}x |", cells(&rates));
        }
    }
    let Ok(emoji) = std::fs::read_to_string(dir.join("Emoji-Lipsum.utf8.txt")) else {
        return;
    };
    println!("\n## Emoji to UCS-4 and validated: CESU-8 and Modified UTF-8 (every character a pair) against its UTF-8 (GB/s of each one's bytes)\n");
    println!("| operation | standard (UTF-8) | CESU-8 | MUTF-8 | worst ratio |");
    println!("|---|---|---|---|---|");
    let inputs = [
        (Dialect::Standard, emoji.as_bytes().to_vec()),
        (Dialect::Cesu8, cesu8::to_cesu8(&emoji).into_owned()),
        (Dialect::Mutf8, cesu8::to_java_cesu8(&emoji).into_owned()),
    ];
    for (what, validate) in [("UTF-8 -> UCS-4", false), ("validation", true)] {
        let (rates, worst) = decode_side_by_side(engine, &inputs, validate, rounds);
        println!("| {what} | {} | {worst:.2}x |", cells(&rates));
    }
}

/// Each `(dialect, bytes)` decoded to UCS-4 (or validated), side by side.
/// Every input must be valid in its dialect.
fn decode_side_by_side(
    engine: &Engine,
    inputs: &[(Dialect, Vec<u8>)],
    validate: bool,
    rounds: usize,
) -> (Vec<f64>, f64) {
    let longest = inputs.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
    let dst = std::cell::RefCell::new(vec![0u32; longest]);
    for (d, src) in inputs {
        let p = engine.decode_ucs4_in(*d, src, &mut dst.borrow_mut(), Policy::Strict, false);
        assert_eq!((p.status, p.read), (Status::Done, src.len()), "{d:?}");
        let p = engine.validate_in(*d, src, false);
        assert_eq!((p.status, p.read), (Status::Done, src.len()), "{d:?}");
    }
    let mut fs: Vec<Box<dyn FnMut()>> = inputs
        .iter()
        .map(|(d, src)| {
            let (d, dst) = (*d, &dst);
            Box::new(move || {
                if validate {
                    black_box(engine.validate_in(d, black_box(src), false));
                } else {
                    let dst = &mut dst.borrow_mut();
                    black_box(engine.decode_ucs4_in(d, black_box(src), dst, Policy::Strict, false));
                }
            }) as Box<dyn FnMut()>
        })
        .collect();
    // GB/s of each input's own bytes: time per call scaled by its length.
    let (rates, _) = compared(1, rounds, &mut fs);
    let rates: Vec<f64> = rates
        .iter()
        .zip(inputs)
        .map(|(r, (_, src))| r * src.len() as f64)
        .collect();
    let worst = rates[1..].iter().cloned().fold(f64::MAX, f64::min) / rates[0];
    (rates, worst)
}

/// Text made of the forms only one dialect reads, against RFC 3629 text of
/// characters as long: legacy UTF-8 of 5- and 6-byte values against the
/// Emoji text (4-byte characters); WTF-8 of lone surrogates between CJK
/// characters, and generalized UTF-8 of surrogates paired and not, against
/// the Chinese text (3-byte characters). No target in issue 10 (which
/// names CESU-8 CJK and Modified UTF-8 Emoji, above); for the record.
fn dense_forms(engine: &Engine, dir: &Path, rounds: usize) {
    let (Ok(emoji), Ok(chinese)) = (
        std::fs::read(dir.join("Emoji-Lipsum.utf8.txt")),
        std::fs::read(dir.join("Chinese-Lipsum.utf8.txt")),
    ) else {
        return;
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let encode = |d: Dialect, cps: &[u32]| {
        let mut out = vec![0u8; 6 * cps.len()];
        let p = engine.encode_in(d, cps, Some(&mut out), EncodePolicy::Strict);
        assert_eq!(p.status, Status::Done, "{d:?}");
        out.truncate(p.written);
        out
    };
    let legacy: Vec<u32> = (0..100_000)
        .map(|_| 0x20_0000 + (next() % (0x8000_0000 - 0x20_0000)) as u32)
        .collect();
    // Lone surrogates, each after a CJK character (so no two pair up).
    let lone: Vec<u32> = (0..100_000)
        .map(|i| {
            let r = next() as u32;
            if i % 2 == 0 {
                0x4E00 + r % 0x5000
            } else {
                0xD800 + r % 0x800
            }
        })
        .collect();
    let any: Vec<u32> = (0..100_000)
        .map(|_| 0xD800 + next() as u32 % 0x800)
        .collect();
    println!("\n## Text full of one dialect's own forms, against RFC 3629 text of as long characters (GB/s; no target)\n");
    println!("| dialect, text | operation | RFC 3629, text | GB/s | dialect GB/s | ratio |");
    println!("|---|---|---|---|---|---|");
    let rows = [
        (
            "legacy, 5- and 6-byte values",
            Dialect::Legacy,
            &legacy,
            "Emoji",
            &emoji,
        ),
        (
            "WTF-8, lone surrogates and CJK",
            Dialect::Wtf8,
            &lone,
            "Chinese",
            &chinese,
        ),
        (
            "generalized, surrogates",
            Dialect::Generalized,
            &any,
            "Chinese",
            &chinese,
        ),
    ];
    for (what, d, cps, ref_name, reference) in rows {
        let bytes = encode(d, cps);
        let inputs = [(Dialect::Standard, reference.clone()), (d, bytes)];
        for (op, validate) in [("to UCS-4", false), ("validate", true)] {
            let (r, ratio) = decode_side_by_side(engine, &inputs, validate, rounds);
            println!(
                "| {what} | {op} | {ref_name} | {:.2} | {:.2} | {ratio:.2}x |",
                r[0], r[1]
            );
        }
        let ref_cps: Vec<u32> = std::str::from_utf8(reference)
            .unwrap()
            .chars()
            .map(u32::from)
            .collect();
        let mut out = vec![0u8; 6 * cps.len().max(ref_cps.len())];
        let out = std::cell::RefCell::new(&mut out);
        let sizes = [reference.len(), encode(d, cps).len()];
        let mut fs: Vec<Box<dyn FnMut()>> = [(Dialect::Standard, &ref_cps), (d, cps)]
            .into_iter()
            .map(|(d, cps)| {
                let out = &out;
                Box::new(move || {
                    let mut out = out.borrow_mut();
                    black_box(engine.encode_in(
                        d,
                        black_box(cps),
                        Some(&mut out[..]),
                        EncodePolicy::Strict,
                    ));
                }) as Box<dyn FnMut()>
            })
            .collect();
        let (r, _) = compared(1, rounds, &mut fs);
        let (a, b) = (r[0] * sizes[0] as f64, r[1] * sizes[1] as f64);
        println!(
            "| {what} | from UCS-4 | {ref_name} | {a:.2} | {b:.2} | {:.2}x |",
            b / a
        );
    }
}
