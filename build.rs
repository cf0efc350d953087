//! Regenerates the C header `include/u8x.h` from `src/ffi` with cbindgen
//! when the `header` feature is on (`cargo build --features header`), and
//! does nothing otherwise, so that building the library compiles only the
//! library and `libc`. `tests/header.rs` generates the header the same way
//! (`gen/header.rs`) and fails when the committed file is stale.

#[cfg(feature = "header")]
#[path = "gen/header.rs"]
mod header;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The tests that build the C libraries with `make` build them for the
    // target the tests run on, cross-building when it is not the host.
    for var in ["TARGET", "HOST"] {
        let value = std::env::var(var).expect("cargo sets TARGET and HOST");
        println!("cargo:rustc-env=U8X_BUILD_{var}={value}");
    }
    #[cfg(feature = "header")]
    {
        use std::path::PathBuf;
        for path in ["src", "cbindgen.toml", "gen"] {
            println!("cargo:rerun-if-changed={path}");
        }
        let root = PathBuf::from(
            std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
        );
        let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
        let text = header::generate(&root, &version);
        let committed = root.join("include").join("u8x.h");
        if std::fs::read_to_string(&committed).ok().as_deref() != Some(text.as_str()) {
            std::fs::create_dir_all(root.join("include")).expect("include/ can be created");
            std::fs::write(&committed, text).expect("include/u8x.h is writable");
        }
    }
}
