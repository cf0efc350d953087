//! u8x inside real runtimes, against their own tests (issue 45):
//! `tests/runtimes/run.sh` builds and runs the CPython extension (a wheel
//! from its sdist; CPython's test_codecs and the oracle suite), the Lua
//! 5.4 module (Lua 5.4.4's utf8.lua; the built-in library as an oracle) and
//! the JVM check (Modified UTF-8 against writeUTF, readUTF and JNI). The
//! script prints one line per runtime; a runtime whose tools are missing is
//! skipped, saying so, unless `U8X_CONSUMERS_STRICT=1`.

mod clib;

use std::path::Path;
use std::process::Command;

#[test]
fn runtimes_pass_their_own_tests() {
    if clib::cross() {
        eprintln!(
            "skipped: the runtimes are the build machine's, which cannot load {} code",
            clib::target_triple()
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("tests/runtimes/run.sh"))
        .current_dir(root)
        .output()
        .expect("bash is installed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout
        .lines()
        .filter(|l| l.starts_with("runtimes:") || l.starts_with("    "))
    {
        eprintln!("{line}");
    }
    assert!(
        out.status.success(),
        "tests/runtimes/run.sh failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
