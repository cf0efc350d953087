//! The C libraries as users get them, for the tests that link or inspect
//! them: `make lib` builds `libu8x.so.*` and `libu8x.a` (the no_std
//! libraries with the `capi` panic handler, the SONAME and the localised
//! static archive) into `target/capi/stage/lib`, once per test binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The target triple the tests were compiled for (build.rs passes it on).
pub fn target_triple() -> &'static str {
    env!("U8X_BUILD_TARGET")
}

/// Whether the tests run for another target than the build machine's (as
/// under qemu-user): the C libraries are then cross-built.
// Both are literals after expansion, equal on a native build: that is the
// point of the comparison.
#[allow(clippy::eq_op)]
pub fn cross() -> bool {
    env!("U8X_BUILD_TARGET") != env!("U8X_BUILD_HOST")
}

/// The staged prefix: `lib/`, `include/`, `bin/` as `make install` lays
/// them out, under cargo's target directory (`CARGO_TARGET_DIR` if set),
/// in the target's own folder for a cross build.
pub fn stage() -> &'static Path {
    static STAGE: OnceLock<PathBuf> = OnceLock::new();
    STAGE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let target_dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
        let mut make = Command::new("make");
        make.args(["-s", "lib", &format!("TARGET_DIR={target_dir}")]);
        let mut out_dir = root.join(&target_dir);
        if cross() {
            // The GNU binutils prefix of a Linux triple: aarch64-linux-gnu-.
            let triple = target_triple();
            let arch = triple.split('-').next().expect("a triple");
            let abi = triple.rsplit('-').next().expect("a triple");
            make.args([
                format!("TARGET={triple}"),
                format!("CROSS={arch}-linux-{abi}-"),
            ]);
            out_dir.push(triple);
        }
        // The outer `cargo test` holds no lock while tests run; the C
        // libraries use their own profile (`capi`), so this build does not
        // disturb the test build's artifacts.
        let out = make
            .current_dir(root)
            .output()
            .expect("make (GNU make) is installed");
        assert!(
            out.status.success(),
            "`make lib` failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out_dir.join("capi/stage")
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
