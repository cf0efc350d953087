//! Compiles simdutf 9.1.0's amalgamation (not part of this repository; it
//! sits in `../shared/peers/simdutf-9.1.0` beside the checkout, or wherever
//! `U8X_SIMDUTF9_DIR` points) into a static library behind `shim.cpp`.
//!
//! The `simdutf` crate links simdutf 7.7.1 into the same binaries, with the
//! same C++ namespace and the same C API names. So the amalgamation is built
//! with its namespace renamed by the preprocessor (`-Dsimdutf=u8x_sd91`) and
//! without the features that carry its C API (base64, encoding detection),
//! and only the shim's `u8x_sd91_*` functions are called from Rust.
//!
//! Without the amalgamation the shim is built alone, its entry points abort,
//! `AVAILABLE` is false and the benchmarks leave the simdutf 9.1 columns out.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=U8X_SIMDUTF9_DIR");
    println!("cargo:rerun-if-changed=shim.cpp");
    println!("cargo::rustc-check-cfg=cfg(simdutf9)");
    let dir = match std::env::var_os("U8X_SIMDUTF9_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
            manifest.join("../../../shared/peers/simdutf-9.1.0")
        }
    };
    let source = dir.join("simdutf.cpp");
    println!("cargo:rerun-if-changed={}", source.display());
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(3)
        .flag("-fvisibility=hidden")
        .warnings(false)
        .file("shim.cpp");
    if source.is_file() {
        build
            .include(&dir)
            .define("simdutf", "u8x_sd91")
            .define("SIMDUTF_FEATURE_BASE64", "0")
            .define("SIMDUTF_FEATURE_DETECT_ENCODING", "1");
        println!("cargo:rustc-cfg=simdutf9");
    } else {
        println!(
            "cargo:warning=simdutf 9.1.0 not found at {}: its benchmark columns are left out",
            dir.display()
        );
        build.define("U8X_SD91_MISSING", None);
    }
    build.compile("u8x_sd91");
}
