//! Generates the C header `include/u8x.h` from `src/ffi` with cbindgen.
//!
//! The header is always generated into `OUT_DIR` (the library embeds that copy
//! so `tests/header.rs` can compare it with the committed file). On a
//! developer's machine it is also written to `include/u8x.h`; when `CI` is
//! set, or `U8X_HEADER_READ_ONLY` is, the committed file is left alone so a
//! stale header fails the test instead of being silently fixed.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let root =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    for path in ["src", "cbindgen.toml", "build.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-env-changed=U8X_HEADER_READ_ONLY");

    let mut config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml is readable");
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let part = |name: &str| env::var(name).expect("cargo sets the version parts");
    config.after_includes = Some(format!(
        "\n/** The version of this header; `u8x_version()` gives the library's. */\n\
         #define U8X_VERSION_MAJOR {}\n#define U8X_VERSION_MINOR {}\n#define U8X_VERSION_PATCH {}\n\
         #define U8X_VERSION_STRING \"{version}\"\n\n\
         /** Returned by the functions that return a size_t position or count when\n \
         * their arguments are bad (and by u8x_encode_bound on overflow): SIZE_MAX. */\n\
         #define U8X_BAD_SIZE SIZE_MAX",
        part("CARGO_PKG_VERSION_MAJOR"),
        part("CARGO_PKG_VERSION_MINOR"),
        part("CARGO_PKG_VERSION_PATCH"),
    ));
    let header = cbindgen::Builder::new()
        .with_config(config)
        .with_crate(&root)
        .generate()
        .expect("cbindgen generates the header");

    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("u8x.h");
    let mut text = Vec::new();
    header.write(&mut text);
    // cbindgen leaves an empty line for each crate-internal constant it
    // skips; fold runs of blank lines so the header does not change shape
    // when internals do.
    let text = String::from_utf8(text).expect("the header is UTF-8");
    let mut folded = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if !(line == "\n" && folded.ends_with("\n\n")) {
            folded.push_str(line);
        }
    }
    fs::write(&out, &folded).expect("OUT_DIR is writable");

    let read_only = env::var_os("CI").is_some_and(|v| !v.is_empty())
        || env::var_os("U8X_HEADER_READ_ONLY").is_some();
    if !read_only {
        let committed = root.join("include").join("u8x.h");
        let fresh = fs::read(&out).expect("the generated header is readable");
        if fs::read(&committed).ok().as_deref() != Some(&fresh[..]) {
            fs::create_dir_all(root.join("include")).expect("include/ can be created");
            fs::write(&committed, fresh).expect("include/u8x.h is writable");
        }
    }
}
