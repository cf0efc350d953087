//! The preload library, `libu8x-libc.so` (preload/): `tests/preload/run.sh`
//! builds it with `make preload` and checks its exports, runs glibc 2.36's
//! own multibyte tests and gnulib's with and without it (same verdicts),
//! the differential test against glibc (every 1- to 3-byte input), `wc -m`
//! and `column -t` on the corpus, and the thread and locale tests. The
//! script prints one line per step; a step whose package is missing is
//! skipped, saying so, unless `U8X_CONSUMERS_STRICT=1` (CI).

mod clib;

use std::path::Path;
use std::process::Command;

#[test]
fn the_preload_library_passes_glibcs_tests_and_matches_glibc() {
    if clib::cross() || !cfg!(all(target_os = "linux", target_env = "gnu")) {
        // It interposes glibc's own functions, natively: a cross-built one
        // under qemu-user would test qemu's loader, not the library.
        eprintln!(
            "skipped: the preload library is tested natively on glibc ({} on {})",
            clib::target_triple(),
            env!("U8X_BUILD_HOST")
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("tests/preload/run.sh"))
        .current_dir(root)
        .output()
        .expect("bash is installed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout.lines().filter(|l| l.starts_with("preload:")) {
        eprintln!("{line}");
    }
    assert!(
        out.status.success(),
        "tests/preload/run.sh failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
