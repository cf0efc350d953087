//! File names as reports and messages show them.
//!
//! A name is bytes, not text: it may hold a newline, an escape sequence
//! that a terminal would obey (a crafted name met by `check -r` could
//! rewrite the screen), or bytes that are not UTF-8. In text, a name is
//! written as it is when it is UTF-8 free of control and bidirectional
//! formatting characters; otherwise it is quoted the way the shells' ANSI-C
//! quoting reads it back, as GNU tools quote such names for a terminal:
//! `$'a\nb.txt'`, `$'\033[2Jx'`, `$'caf\351.txt'` (C escapes for the usual
//! controls, three octal digits for any other byte that is not shown, `\\`
//! and `\'` inside). Pasted into bash, zsh, ksh or a POSIX 2024 sh, that is
//! the file's name again. `check --json` keeps the bytes in a field of their
//! own when the name is not UTF-8, and `check -l -0` writes them raw.

use std::borrow::Cow;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// What a message calls standard input and standard output.
pub const STDIN_NAME: &str = "(standard input)";
pub const STDOUT_NAME: &str = "(standard output)";

/// The name of an input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name(Vec<u8>);

impl Name {
    /// A file's name (its path as given).
    pub fn path(path: &Path) -> Name {
        Name(path.as_os_str().as_bytes().to_vec())
    }

    /// Standard input: `(standard input)`, as grep and isutf8 call it.
    pub fn stdin() -> Name {
        Name(STDIN_NAME.as_bytes().to_vec())
    }

    /// The bytes of the name, as the file system has them.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// The name as text for a terminal: itself if safe, else quoted.
    pub fn shown(&self) -> Cow<'_, str> {
        match std::str::from_utf8(&self.0) {
            // (A safe name that starts as a quoted one is quoted too.)
            Ok(text) if !text.chars().any(unsafe_char) && !text.starts_with("$'") => {
                Cow::Borrowed(text)
            }
            _ => Cow::Owned(quote(&self.0)),
        }
    }

    /// The name for JSON: the text (U+FFFD for bytes that are not UTF-8),
    /// and, only when it is not UTF-8, its bytes in hex pairs ("66 FF").
    pub fn json(&self) -> (Cow<'_, str>, Option<String>) {
        match std::str::from_utf8(&self.0) {
            Ok(text) => (Cow::Borrowed(text), None),
            Err(_) => (String::from_utf8_lossy(&self.0), Some(crate::hex(&self.0))),
        }
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown())
    }
}

/// Characters a name is not shown with as they are: C0 and C1 controls
/// and DEL (a terminal acts on them), the line and paragraph separators,
/// and the bidirectional formatting characters (which reorder what a
/// terminal shows around them).
fn unsafe_char(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1F}'
            | '\u{7F}'..='\u{9F}'
            | '\u{61C}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// `bytes` in ANSI-C quoting, `$'...'`.
fn quote(bytes: &[u8]) -> String {
    let mut out = String::from("$'");
    let mut rest = bytes;
    while !rest.is_empty() {
        // The longest UTF-8 prefix, then one byte that is not.
        let (text, bad) = match std::str::from_utf8(rest) {
            Ok(text) => (text, None),
            Err(e) => {
                let text = std::str::from_utf8(&rest[..e.valid_up_to()]).expect("valid prefix");
                (text, Some(rest[e.valid_up_to()]))
            }
        };
        for c in text.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\'' => out.push_str("\\'"),
                '\u{7}' => out.push_str("\\a"),
                '\u{8}' => out.push_str("\\b"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\u{B}' => out.push_str("\\v"),
                '\u{C}' => out.push_str("\\f"),
                '\r' => out.push_str("\\r"),
                c if unsafe_char(c) => {
                    for b in c.encode_utf8(&mut [0; 4]).bytes() {
                        out.push_str(&format!("\\{b:03o}"));
                    }
                }
                c => out.push(c),
            }
        }
        rest = &rest[text.len()..];
        if let Some(b) = bad {
            out.push_str(&format!("\\{b:03o}"));
            rest = &rest[1..];
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(bytes: &[u8]) -> String {
        Name(bytes.to_vec()).shown().into_owned()
    }

    #[test]
    fn safe_names_are_shown_as_they_are() {
        assert_eq!(shown(b"dir/a b.txt"), "dir/a b.txt");
        assert_eq!(shown("Grüße €.txt".as_bytes()), "Grüße €.txt");
        assert_eq!(shown(b"it's"), "it's");
        assert_eq!(shown(b"a$'b"), "a$'b");
    }

    #[test]
    fn other_names_are_quoted_for_the_shell() {
        assert_eq!(shown(b"a\nb"), "$'a\\nb'");
        assert_eq!(shown(b"\x1b[2Jx"), "$'\\033[2Jx'");
        assert_eq!(shown(b"caf\xE9.txt"), "$'caf\\351.txt'");
        assert_eq!(shown(b"it's\t\\"), "$'it\\'s\\t\\\\'");
        // A C1 control and a bidi override, byte by byte.
        assert_eq!(
            shown("x\u{85}\u{202E}".as_bytes()),
            "$'x\\302\\205\\342\\200\\256'"
        );
        // Safe characters stay readable inside the quotes.
        assert_eq!(shown("é\n".as_bytes()), "$'é\\n'");
        // Never mistaken for a quoted name.
        assert_eq!(shown(b"$'x'"), "$'$\\'x\\''");
    }

    #[test]
    fn json_keeps_bytes_that_are_not_utf8() {
        let name = Name(b"a\xFF".to_vec());
        let (text, bytes) = name.json();
        assert_eq!(text, "a\u{FFFD}");
        assert_eq!(bytes.as_deref(), Some("61 FF"));
        assert_eq!(Name(b"ok".to_vec()).json(), (Cow::Borrowed("ok"), None));
    }
}
