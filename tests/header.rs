//! The committed C header is exactly what the build generates, includes only
//! what the contract allows, and the shared library exports only `u8x_`
//! symbols, every one of them declared in the header.

use std::path::{Path, PathBuf};
use std::process::Command;

fn committed_header() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/u8x.h");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn committed_header_is_current() {
    let committed = committed_header();
    if committed != u8x::GENERATED_HEADER {
        let line = committed
            .lines()
            .zip(u8x::GENERATED_HEADER.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "at the end".to_string(),
                |n| format!("at line {}", n + 1),
            );
        panic!(
            "include/u8x.h differs from the generated header ({line}). \
             Run `cargo build` outside CI (CI and U8X_HEADER_READ_ONLY keep the file untouched) and commit include/u8x.h."
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

/// The directory cargo put the library artifacts in: tests run from
/// `target/<profile>/deps/`.
fn artifact_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    exe.parent()
        .and_then(Path::parent)
        .expect("tests live in target/<profile>/deps")
        .to_path_buf()
}

#[test]
fn shared_library_exports_only_declared_u8x_symbols() {
    // `cargo test` leaves the cdylib in deps/; `cargo build` also copies it up.
    let dir = artifact_dir();
    let lib = [dir.join("deps/libu8x.so"), dir.join("libu8x.so")]
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("libu8x.so was not built in {} or its deps/", dir.display()));
    let out = Command::new("nm")
        .args(["-D", "--defined-only", "--format=posix"])
        .arg(&lib)
        .output()
        .expect("nm (binutils) is installed");
    assert!(
        out.status.success(),
        "nm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let symbols: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|kind| kind == "T" || kind == "D" || kind == "B")
        })
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(symbols.len() >= 10, "too few exported symbols: {symbols:?}");
    let header = committed_header();
    for symbol in &symbols {
        assert!(symbol.starts_with("u8x_"), "libu8x.so exports {symbol}");
        let declared = [" ", "*"]
            .iter()
            .any(|before| header.contains(&format!("{before}{symbol}(")));
        assert!(declared, "{symbol} is not declared in include/u8x.h");
    }
}
