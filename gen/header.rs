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
    let text = strictly_c89(&text);
    let mut folded = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if !(line == "\n" && folded.ends_with("\n\n")) {
            folded.push_str(line);
        }
    }
    folded
}

/// What cbindgen writes that C89 (`-std=c89 -pedantic`) or `-Wundef`
/// rejects, rewritten (nothing else changes):
/// - `// comment` (after `#endif`, `}`, ...) becomes `/* comment */`;
/// - the comma after the last enumerator of an enum is dropped;
/// - `#if ... __STDC_VERSION__ >= 202311L` tests that `__STDC_VERSION__` is
///   defined first (it is not in C89 nor C++).
fn strictly_c89(header: &str) -> String {
    const C23: &str = "__STDC_VERSION__ >= 202311L";
    let lines: Vec<&str> = header.split('\n').collect();
    let mut out = String::with_capacity(header.len() + 1024);
    let mut in_block_comment = false;
    for (i, &line) in lines.iter().enumerate() {
        let mut line = line.to_string();
        if line.starts_with("#if")
            && line.contains(C23)
            && !line.contains("defined(__STDC_VERSION__)")
        {
            line = line.replace(C23, &format!("(defined(__STDC_VERSION__) && {C23})"));
        }
        // Find a `//` outside comments, strings and character constants.
        let bytes = line.as_bytes();
        let (mut j, mut quote) = (0, None);
        let mut line_comment = None;
        while j < bytes.len() {
            let (b, next) = (bytes[j], bytes.get(j + 1).copied());
            if in_block_comment {
                if b == b'*' && next == Some(b'/') {
                    in_block_comment = false;
                    j += 1;
                }
            } else if let Some(q) = quote {
                if b == b'\\' {
                    j += 1;
                } else if b == q {
                    quote = None;
                }
            } else if b == b'"' || b == b'\'' {
                quote = Some(b);
            } else if b == b'/' && next == Some(b'*') {
                in_block_comment = true;
                j += 1;
            } else if b == b'/' && next == Some(b'/') {
                line_comment = Some(j);
                break;
            }
            j += 1;
        }
        if let Some(at) = line_comment {
            let text = line[at + 2..].trim();
            assert!(
                !text.contains("*/"),
                "a // comment that cannot become /* */: {line}"
            );
            line = format!("{}/* {text} */", &line[..at]);
        }
        // The last enumerator: the next line closes the enum.
        let closes = lines
            .get(i + 1)
            .is_some_and(|l| l.trim_start().starts_with('}'));
        if closes && !in_block_comment && line.ends_with(',') {
            line.pop();
        }
        out.push_str(&line);
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
    out
}
