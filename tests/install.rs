//! `make install` into a scratch DESTDIR, then every consumer in
//! `tests/consumers/` (pkg-config shared and static, CMake shared and static,
//! C++, two Rust static libraries in one program, the examples, the
//! installed command, the Python binding) built and run against that
//! install alone; then the checkout as a CMake subproject (add_subdirectory,
//! FetchContent from a directory and a git URL) and its `cmake --install`. The script prints one line per consumer; a consumer whose
//! tool is missing is skipped, saying so, unless `U8X_CONSUMERS_STRICT=1`.

mod clib;

use std::path::Path;
use std::process::Command;

#[test]
fn every_consumer_builds_and_runs_against_the_install() {
    if clib::cross() {
        // The consumers are built with the machine's own compilers, CMake,
        // pkg-config and Python, which cannot load another target's library.
        eprintln!(
            "skipped: the install consumers need a native toolchain ({} on {})",
            clib::target_triple(),
            env!("U8X_BUILD_HOST")
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("tests/consumers/run.sh"))
        .current_dir(root)
        .output()
        .expect("bash is installed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The summary lines reach `cargo test`'s output even when it passes.
    for line in stdout.lines().filter(|l| !l.starts_with("    ")) {
        eprintln!("{line}");
    }
    assert!(
        out.status.success(),
        "tests/consumers/run.sh failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
