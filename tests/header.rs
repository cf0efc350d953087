//! The committed C header is exactly what `src/ffi` generates, includes only
//! what the contract allows, and carries the crate's version.

use std::path::Path;

fn committed_header() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/u8x.h");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// cbindgen is a dev-dependency on x86_64 only (Cargo.toml): the header is
// the same for every target, and the emulated lanes need not build it.
#[cfg(target_arch = "x86_64")]
#[path = "../gen/header.rs"]
mod header;

#[cfg(target_arch = "x86_64")]
#[test]
fn committed_header_is_current() {
    let committed = committed_header();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let generated = header::generate(root, env!("CARGO_PKG_VERSION"));
    if committed != generated {
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "at the end".to_string(),
                |n| format!("at line {}", n + 1),
            );
        panic!(
            "include/u8x.h differs from the header src/ffi generates ({line}). \
             Run `cargo build --features header` and commit include/u8x.h."
        );
    }
}

#[test]
fn header_includes_only_standard_headers() {
    let header = committed_header();
    let includes: Vec<&str> = header
        .lines()
        .filter(|l| l.trim_start().starts_with("#include"))
        .collect();
    assert_eq!(
        includes,
        [
            "#include <stddef.h>",
            "#include <stdint.h>",
            "#include <wchar.h>"
        ]
    );
}

#[test]
fn header_version_matches_cargo() {
    let header = committed_header();
    for (name, value) in [
        (
            "U8X_VERSION_MAJOR",
            env!("CARGO_PKG_VERSION_MAJOR").to_string(),
        ),
        (
            "U8X_VERSION_MINOR",
            env!("CARGO_PKG_VERSION_MINOR").to_string(),
        ),
        (
            "U8X_VERSION_PATCH",
            env!("CARGO_PKG_VERSION_PATCH").to_string(),
        ),
        (
            "U8X_VERSION_STRING",
            format!("\"{}\"", env!("CARGO_PKG_VERSION")),
        ),
    ] {
        assert!(
            header.contains(&format!("#define {name} {value}\n")),
            "{name} is not {value}"
        );
    }
}
