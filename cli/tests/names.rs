//! File names in reports and messages: names with a newline, an escape
//! sequence or bytes that are not UTF-8 are quoted in text (so that a
//! crafted name cannot drive the terminal and every name maps back to one
//! file), kept as bytes in `--json`, and written raw by `-l -0`.

mod common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use common::*;

/// The names made here, each holding one invalid byte, and how text shows
/// them (by hand, in ANSI-C quoting: `$'...'`).
fn names(dir: &TempDir) -> Vec<(PathBuf, String)> {
    let root = dir.0.to_str().unwrap();
    let cases: [(&[u8], String); 4] = [
        (b"a\nb.txt", format!("$'{root}/a\\nb.txt'")),
        (b"caf\xE9.txt", format!("$'{root}/caf\\351.txt'")),
        (b"plain.txt", format!("{root}/plain.txt")),
        (b"\x1b[2Jred", format!("$'{root}/\\033[2Jred'")),
    ];
    cases
        .into_iter()
        .map(|(name, shown)| {
            let path = dir.0.join(OsStr::from_bytes(name));
            std::fs::write(&path, b"x\xFF").unwrap();
            (path, shown)
        })
        .collect()
}

#[test]
fn names_that_would_trouble_a_terminal_are_quoted() {
    let dir = TempDir::new("names");
    let mut files = names(&dir);
    // In the order a walk takes them: by bytes.
    files.sort();
    let root = dir.0.to_str().unwrap();
    let run = u8x(&["check", "-r", "-l", root], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let listed: String = files
        .iter()
        .map(|(_, shown)| format!("{shown}\n"))
        .collect();
    assert_eq!(run.out(), listed);
    // Reports name the file the same way; no control byte reaches the
    // terminal.
    let run = u8x(&["check", "-r", root], None);
    let reports: String = files
        .iter()
        .map(|(_, shown)| {
            format!("{shown}:1:2: byte offset 1: byte never valid in UTF-8 (bytes FF)\n")
        })
        .collect();
    assert_eq!(run.out(), reports);
    assert!(!run.stdout.contains(&0x1B));
    // Messages too.
    let missing = dir.0.join(OsStr::from_bytes(b"gone\x1b]0;x\x07"));
    let run = u8x(&["fix", missing.to_str().unwrap()], None);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("u8x: $'{root}/gone\\033]0;x\\a': No such file or directory\n")
    );
    // A name that is not UTF-8, as an output.
    let out = dir.0.join(OsStr::from_bytes(b"no/caf\xE9"));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_u8x"))
        .args([OsStr::new("fix"), OsStr::new("-o"), out.as_os_str()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(run.stderr).unwrap(),
        format!("u8x: $'{root}/no/caf\\351': No such file or directory\n")
    );
}

/// `-l -0` (`--null`): each name's bytes as they are, ended by NUL, as
/// `find -print0` writes them for `xargs -0`.
#[test]
fn list_with_null_writes_raw_names() {
    let dir = TempDir::new("null");
    let mut files = names(&dir);
    files.sort();
    let root = dir.0.to_str().unwrap();
    let run = u8x(&["check", "-r", "-l", "-0", root], None);
    assert_eq!(run.code, 1);
    let expected: Vec<u8> = files
        .iter()
        .flat_map(|(path, _)| path.as_os_str().as_bytes().iter().copied().chain([0]))
        .collect();
    assert_eq!(run.stdout, expected);
    let run = u8x(&["check", "--list", "--null"], Some(b"\xFF"));
    assert_eq!(run.stdout, b"(standard input)\0");
    // Only with -l.
    let run = u8x(&["check", "-0", root], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--list"), "{}", run.stderr);
}

/// `--json`: "file" is the name (JSON escapes its controls); a name that
/// is not UTF-8 also has "file_bytes", its bytes in hex, which give the
/// file back.
#[test]
fn json_keeps_names_recoverable() {
    let dir = TempDir::new("json-names");
    let files = names(&dir);
    let root = dir.0.to_str().unwrap();
    let run = u8x(&["check", "-r", "--json", root], None);
    assert_eq!(run.code, 1);
    let mut found = Vec::new();
    for line in run.out().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let bytes = match v.get("file_bytes") {
            Some(hex) => hex
                .as_str()
                .unwrap()
                .split(' ')
                .map(|h| u8::from_str_radix(h, 16).unwrap())
                .collect(),
            None => v["file"].as_str().unwrap().as_bytes().to_vec(),
        };
        let path = PathBuf::from(OsStr::from_bytes(&bytes));
        assert!(path.exists(), "{line}");
        if std::str::from_utf8(&bytes).is_err() {
            assert!(line.contains("\"file\":\""), "{line}");
            assert!(line.contains("\u{FFFD}"), "{line}");
        }
        found.push(path);
    }
    found.sort();
    let mut made: Vec<PathBuf> = files.into_iter().map(|(p, _)| p).collect();
    made.sort();
    assert_eq!(found, made);
    assert!(!run.stdout.iter().any(|&b| b == 0x1B || b == b'\r'));
}
