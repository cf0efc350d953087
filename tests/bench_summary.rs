//! benches/summary.py, which writes BENCHMARKS.md's tables and chart from
//! the benchmarks' CSV files: its unit tests on a fixture whose ratios are
//! worked out by hand (benches/test_summary.py), and the committed tables
//! against what it generates from the committed CSV files; and
//! benches/before_after.py, which pairs two commits' benchmark outputs
//! (benches/test_before_after.py).

use std::path::Path;
use std::process::Command;

#[test]
fn summary_script_passes_its_tests() {
    python_tests("benches/test_summary.py");
}

#[test]
fn before_after_script_passes_its_tests() {
    python_tests("benches/test_before_after.py");
}

/// Runs a Python unittest file of `benches/`.
fn python_tests(file: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Ok(out) = Command::new("python3")
        .args(["-m", "unittest", "-v", file])
        .current_dir(root)
        .output()
    else {
        println!("skipped: python3 unavailable, {file} not run");
        return;
    };
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{file} failed:\n{log}");
    print!("{log}");
}
