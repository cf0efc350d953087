//! benches/summary.py, which writes BENCHMARKS.md's tables and chart from
//! the benchmarks' CSV files: its unit tests on a fixture whose ratios are
//! worked out by hand (benches/test_summary.py), and the committed tables
//! against what it generates from the committed CSV files.

use std::path::Path;
use std::process::Command;

#[test]
fn summary_script_passes_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Ok(out) = Command::new("python3")
        .args(["-m", "unittest", "-v", "benches/test_summary.py"])
        .current_dir(root)
        .output()
    else {
        println!("skipped: python3 unavailable, benches/summary.py not tested");
        return;
    };
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "benches/test_summary.py failed:\n{log}"
    );
    print!("{log}");
}
