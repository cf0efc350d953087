//! The C libraries `make` builds are what the header and the packaging
//! promise: `libu8x.so.A.B.C` with SONAME `libu8x.so.A` exporting only the
//! `u8x_` functions the header declares, `libu8x.a` with no other global
//! symbol (so it links beside any other Rust static library), and neither
//! needing anything from libc but a few memory and string primitives: no
//! allocator, no `abort`, no unwinder, no threads.

mod clib;

use std::path::Path;
use std::process::Command;

/// What the libraries may take from libc. `getenv` reads `U8X_TIER`;
/// `__errno_location` is the POSIX drop-ins' `errno`; the rest are the
/// memory primitives compiled code calls.
const ALLOWED_IMPORTS: &[&str] = &[
    "memcpy",
    "memmove",
    "memset",
    "memcmp",
    "bcmp",
    "strlen",
    "getenv",
    "__errno_location",
];

/// Symbols every glibc shared object references weakly (crt files); they
/// are not calls into libc.
const CRT_WEAK: &[&str] = &[
    "__cxa_finalize",
    "__gmon_start__",
    "_ITM_deregisterTMCloneTable",
    "_ITM_registerTMCloneTable",
];

/// `nm --format=posix` lines of `file` with `args`, as (name, kind).
fn nm(file: &Path, args: &[&str]) -> Vec<(String, String)> {
    let out = Command::new("nm")
        .args(args)
        .arg("--format=posix")
        .arg(file)
        .output()
        .expect("nm (binutils) is installed");
    assert!(
        out.status.success(),
        "nm {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let name = f.next()?;
            let kind = f.next()?;
            // Archive member headers look like "libu8x.a[u8x.o]:".
            (!name.ends_with(':')).then(|| {
                let name = name.split('@').next().unwrap_or(name);
                (name.to_string(), kind.to_string())
            })
        })
        .collect()
}

fn header() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/u8x.h");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The functions the header declares.
fn declared() -> Vec<String> {
    let header = header();
    // A declaration is `u8x_name(` after a space or `*` (its return type).
    let mut names: Vec<String> = header
        .match_indices("u8x_")
        .filter(|&(at, _)| at > 0 && matches!(header.as_bytes()[at - 1], b' ' | b'*'))
        .filter_map(|(at, _)| {
            let rest = &header[at..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            rest[end..]
                .starts_with('(')
                .then(|| rest[..end].to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

fn defined_globals(symbols: &[(String, String)]) -> Vec<String> {
    let mut names: Vec<String> = symbols
        .iter()
        .filter(|(_, kind)| ["T", "D", "B", "R", "W", "V"].contains(&kind.as_str()))
        .map(|(name, _)| name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

fn undefined(symbols: &[(String, String)]) -> Vec<String> {
    symbols
        .iter()
        .filter(|(_, kind)| kind == "U" || kind == "w")
        .map(|(name, _)| name.clone())
        .collect()
}

#[test]
fn both_libraries_export_exactly_the_declared_functions() {
    let declared = declared();
    assert!(declared.len() >= 20, "too few declarations: {declared:?}");
    let shared = defined_globals(&nm(&clib::shared_lib(), &["-D", "--defined-only"]));
    let static_ = defined_globals(&nm(&clib::static_lib(), &["-g", "--defined-only"]));
    assert_eq!(shared, declared, "libu8x.so exports");
    assert_eq!(static_, declared, "libu8x.a's global symbols");
}

#[test]
fn both_libraries_need_only_memory_primitives_from_libc() {
    let shared = nm(&clib::shared_lib(), &["-D", "--undefined-only"]);
    for name in undefined(&shared) {
        assert!(
            ALLOWED_IMPORTS.contains(&name.as_str()) || CRT_WEAK.contains(&name.as_str()),
            "libu8x.so imports {name}"
        );
    }
    let static_ = nm(&clib::static_lib(), &["--undefined-only"]);
    for name in undefined(&static_) {
        assert!(
            ALLOWED_IMPORTS.contains(&name.as_str()),
            "libu8x.a needs {name}"
        );
    }
}

#[test]
fn shared_library_is_versioned_by_soname() {
    let real = clib::shared_lib();
    let out = Command::new("readelf")
        .args(["-d"])
        .arg(&real)
        .output()
        .expect("readelf (binutils) is installed");
    let dynamic = String::from_utf8_lossy(&out.stdout);
    let soname = dynamic
        .lines()
        .find(|l| l.contains("(SONAME)"))
        .and_then(|l| l.split('[').nth(1))
        .and_then(|l| l.split(']').next())
        .unwrap_or_else(|| panic!("{} has no SONAME:\n{dynamic}", real.display()));
    let name = real.file_name().unwrap().to_str().unwrap();
    // libu8x.so.ABI.MINOR.PATCH with SONAME libu8x.so.ABI; MINOR.PATCH are
    // the crate's.
    let abi = name
        .strip_prefix("libu8x.so.")
        .and_then(|v| v.split('.').next())
        .unwrap();
    assert_eq!(soname, format!("libu8x.so.{abi}"));
    assert!(name.ends_with(&format!(
        ".{}.{}",
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH")
    )));
    let dir = clib::lib_dir();
    for (link, target) in [
        (soname, name.to_string()),
        ("libu8x.so", soname.to_string()),
    ] {
        let to = std::fs::read_link(dir.join(link)).unwrap_or_else(|e| panic!("{link}: {e}"));
        assert_eq!(to.to_str(), Some(target.as_str()), "{link}");
    }
}

/// `c-tests/header-matrix.sh`: the header compiles cleanly (`-Wall -Wextra
/// -Wpedantic -Wundef -Werror`) as C89, C99, C11, C17, C2x, C++11, C++17 and
/// C++20 under gcc and clang, also with `-fshort-enums`, and `abi.c` checks
/// the layout against `libu8x.a`. A compiler that is not installed is
/// skipped, saying so; under `U8X_CONSUMERS_STRICT=1` (CI) that fails.
#[test]
fn header_compiles_under_every_standard_and_compiler() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut matrix = Command::new("bash");
    matrix
        .arg(root.join("c-tests/header-matrix.sh"))
        .arg(root.join("include"));
    // The machine's compilers link `abi.c` against the library only when
    // it is built for this machine (the C harness runs `abi.c` with the
    // target's compiler when cross-building).
    if !clib::cross() {
        matrix.arg(clib::static_lib());
    }
    let out = matrix
        .current_dir(root)
        .output()
        .expect("bash is installed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    eprintln!(
        "{}",
        report.lines().last().unwrap_or("header-matrix: no output")
    );
    assert!(out.status.success(), "header-matrix.sh failed:\n{report}");
    if std::env::var_os("U8X_CONSUMERS_STRICT").is_some_and(|v| v == "1") {
        let skipped = report.lines().any(|l| {
            l.contains("not installed") || l.contains(") skipped") || l.contains(" skipped (")
        });
        assert!(
            !skipped && report.contains(", 0 skipped"),
            "a compiler or standard was skipped:\n{report}"
        );
    }
}
