//! The C libraries as users get them, for the tests that link or inspect
//! them: `make lib` builds `libu8x.so.*` and `libu8x.a` (the no_std
//! libraries with the `capi` panic handler, the SONAME and the localised
//! static archive) into `target/capi/stage/lib`, once per test binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The staged prefix: `lib/`, `include/`, `bin/` as `make install` lays
/// them out.
pub fn stage() -> &'static Path {
    static STAGE: OnceLock<PathBuf> = OnceLock::new();
    STAGE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        // The outer `cargo test` holds no lock while tests run; the C
        // libraries use their own profile (`capi`), so this build does not
        // disturb the test build's artifacts.
        let out = Command::new("make")
            .args(["-s", "lib"])
            .current_dir(root)
            .output()
            .expect("make (GNU make) is installed");
        assert!(
            out.status.success(),
            "`make lib` failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        root.join("target/capi/stage")
    })
}

/// `libu8x.a` (localised: only `u8x_` symbols are global).
pub fn static_lib() -> PathBuf {
    stage().join("lib/libu8x.a")
}

/// The directory holding `libu8x.so` and its SONAME link.
pub fn lib_dir() -> PathBuf {
    stage().join("lib")
}

/// The shared library's real file, `libu8x.so.ABI.MINOR.PATCH`.
pub fn shared_lib() -> PathBuf {
    let dir = lib_dir();
    let real = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libu8x.so.") && n.matches('.').count() == 4)
        });
    real.unwrap_or_else(|| panic!("no libu8x.so.A.B.C in {}", dir.display()))
}
