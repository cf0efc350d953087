//! The library's own speed on one file, as the ceiling for the CLI.
//!
//! `u8x check`, `fix`, `decode` and `encode` are meant to run within a small
//! factor of the library calls they wrap; `benches/cli-peers.sh` divides the
//! CLI's times by the ones printed here. The file is read into memory first
//! (not timed); each operation prints the best of 5 runs as
//! `library <op> <seconds> <GB/s>` (GB/s of input bytes, 1 GB = 1e9 bytes).
//!
//! Run: `cargo run --release -p u8x-cli --example library_speed -- FILE`

use std::hint::black_box;
use std::time::Instant;

use u8x::{ByteOrder, EncodePolicy, Status, REPLACE};

const RUNS: usize = 5;

/// Runs `f` [`RUNS`] times and prints the best time against `bytes` of input.
fn report(op: &str, bytes: usize, mut f: impl FnMut()) {
    let mut best = f64::INFINITY;
    for _ in 0..RUNS {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("library {op} {best:.4} {:.2}", bytes as f64 / best / 1e9);
}

/// What `u8x fix` does with the replacement policy: copy each well-formed
/// prefix, write U+FFFD for each maximal subpart. Returns the bytes written.
fn fix(src: &[u8], out: &mut Vec<u8>) -> usize {
    out.clear();
    let mut pos = 0;
    while pos < src.len() {
        let p = u8x::validate_chunk(&src[pos..], false);
        out.extend_from_slice(&src[pos..pos + p.read]);
        pos += p.read;
        match p.status {
            Status::IllFormed(e) => {
                out.extend_from_slice("\u{FFFD}".as_bytes());
                pos += usize::from(e.len).max(1);
            }
            _ => break,
        }
    }
    out.len()
}

fn main() {
    let path = std::env::args_os()
        .nth(1)
        .expect("usage: library_speed FILE");
    let data = std::fs::read(&path).expect("cannot read the file");
    let n = data.len();

    report("validate", n, || {
        black_box(u8x::validate(black_box(&data))).ok();
    });

    let mut fixed = Vec::with_capacity(n);
    report("fix", n, || {
        black_box(fix(black_box(&data), &mut fixed));
    });
    drop(fixed);

    let mut units = vec![0u16; n];
    report("decode-utf16le", n, || {
        let p = u8x::decode_utf16(
            black_box(&data),
            &mut units,
            REPLACE,
            ByteOrder::Little,
            false,
        );
        black_box(p.written);
    });

    let mut scalars = vec![0u32; n];
    report("decode-utf32le", n, || {
        black_box(u8x::decode_ucs4(black_box(&data), &mut scalars, REPLACE, false).written);
    });
    drop(scalars);

    // Encoding reads UTF-16LE: the file's own text, decoded outside the timing.
    // GB/s is of the UTF-16LE input (2 bytes a unit), as `u8x encode` reads it.
    let p = u8x::decode_utf16(&data, &mut units, REPLACE, ByteOrder::Little, false);
    units.truncate(p.written);
    let mut bytes = vec![0u8; 3 * units.len()];
    report("encode-utf16le", 2 * units.len(), || {
        let p = u8x::encode_utf16(
            black_box(&units),
            &mut bytes,
            EncodePolicy::Strict,
            ByteOrder::Little,
            false,
        );
        black_box(p.written);
    });
}
