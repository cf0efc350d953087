//! Word lengths and the branch predictor. The lipsum files repeat their
//! paragraphs, so a predictor learns where their words end; real text
//! does not repeat. This decodes each spaced lipsum file's letters (its
//! non-ASCII characters, in order) as the file has them, in words of
//! four, and in words of one to six and of one or two chosen at random, with u8x (the
//! scalar tier unless `--tier` says otherwise) and std side by side.
//!
//! cargo bench --bench words [-- --tier avx2] [--rounds N]

use std::hint::black_box;
use std::time::Instant;

/// std's decoding as `compare` measures it: `from_utf8` (u8x validates
/// too), then `chars()` into a buffer.
fn std_decode(s: &[u8], dst: &mut [u32]) -> usize {
    let Ok(s) = std::str::from_utf8(s) else {
        return usize::MAX;
    };
    let mut n = 0;
    for (d, c) in dst.iter_mut().zip(s.chars()) {
        *d = c as u32;
        n += 1;
    }
    n
}

/// GB/s of UTF-8 read: the best of `rounds` rounds of about 20 ms.
fn gbs(len: usize, rounds: usize, mut f: impl FnMut() -> usize) -> f64 {
    let mut reps = 1;
    while {
        let t = Instant::now();
        for _ in 0..reps {
            black_box(f());
        }
        t.elapsed().as_secs_f64() < 0.02
    } {
        reps *= 2;
    }
    let best = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(f());
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::MAX, f64::min);
    len as f64 / best / 1e9
}

/// The letters of `text` in words of `len()` letters each, a space after
/// each word.
fn regrouped(text: &str, mut len: impl FnMut() -> usize) -> String {
    let letters: Vec<char> = text.chars().filter(|c| !c.is_ascii()).collect();
    let mut out = String::new();
    let mut rest = &letters[..];
    while !rest.is_empty() {
        let (word, tail) = rest.split_at(len().min(rest.len()));
        out.extend(word);
        out.push(' ');
        rest = tail;
    }
    out
}

fn main() {
    let mut tier = u8x::Tier::Scalar;
    let mut rounds = 7;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tier" => {
                let name = args.next().expect("--tier needs a name");
                tier = *u8x::Tier::ALL
                    .iter()
                    .find(|t| t.name() == name)
                    .unwrap_or_else(|| panic!("no tier {name}"));
            }
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let engine = u8x::Engine::new(tier).expect("this CPU lacks the tier");
    println!(
        "u8x {} against std chars(), GB/s, best of {rounds} rounds",
        tier.name()
    );
    println!(
        "{:10} {:14} {:>8} {:>8} {:>7}",
        "file", "words", "u8x", "std", "ratio"
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/lipsum");
    for name in ["Korean", "Arabic", "Hebrew", "Russian", "Hindi"] {
        let path = format!("{dir}/{name}-Lipsum.utf8.txt");
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("{name}: {path} not found");
            continue;
        };
        let mut seed = 0x5EED_u64;
        let mut random = |most: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            1 + ((seed >> 33) % most) as usize
        };
        let shapes = [
            ("as in the file", text.clone()),
            ("of four", regrouped(&text, || 4)),
            ("of 1 to 6", regrouped(&text, || random(6))),
            ("of 1 or 2", regrouped(&text, || random(2))),
        ];
        for (shape, s) in shapes {
            let mut dst = vec![0u32; s.len()];
            let want = std_decode(s.as_bytes(), &mut dst);
            let got = engine
                .decode_ucs4(s.as_bytes(), &mut dst, u8x::Policy::Strict, false)
                .written;
            assert_eq!(got, want, "{name} {shape}");
            let ours = gbs(s.len(), rounds, || {
                engine
                    .decode_ucs4(
                        black_box(s.as_bytes()),
                        &mut dst,
                        u8x::Policy::Strict,
                        false,
                    )
                    .written
            });
            let theirs = gbs(s.len(), rounds, || {
                std_decode(black_box(s.as_bytes()), &mut dst)
            });
            println!(
                "{name:10} {shape:14} {ours:8.2} {theirs:8.2} {:6.2}x",
                ours / theirs
            );
        }
    }
}
