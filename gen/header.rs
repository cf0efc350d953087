//! Generates the C header `include/u8x.h` from `src/ffi` with cbindgen.
//!
//! Shared by `build.rs` (with the `header` feature, it rewrites
//! `include/u8x.h`) and `tests/header.rs` (which fails when the committed
//! header differs from what this generates), so that building the library
//! does not compile cbindgen and its dependencies.

use std::path::Path;

/// The header for the crate at `root`, whose version is `version`
/// ("MAJOR.MINOR.PATCH").
pub fn generate(root: &Path, version: &str) -> String {
    let mut config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml is readable");
    let mut parts = version.split('.');
    let mut part = || parts.next().expect("the version has three parts");
    let (major, minor, patch) = (part(), part(), part());
    config.after_includes = Some(format!(
        "\n/** The version of this header; `u8x_version()` gives the library's. */\n\
         #define U8X_VERSION_MAJOR {major}\n#define U8X_VERSION_MINOR {minor}\n#define U8X_VERSION_PATCH {patch}\n\
         #define U8X_VERSION_STRING \"{version}\"\n\n\
         /** Returned by the functions that return a size_t position or count when\n \
         * their arguments are bad (and by u8x_encode_bound on overflow): SIZE_MAX. */\n\
         #define U8X_BAD_SIZE SIZE_MAX",
    ));
    let header = cbindgen::Builder::new()
        .with_config(config)
        .with_crate(root)
        .generate()
        .expect("cbindgen generates the header");

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
    folded
}
