//! What the CLI test files share: running the binary, temporary files, a
//! deterministic generator, and expectations computed independently of the
//! library (std's UTF-8 decoder, hand-written tables, Python's codecs).
#![allow(dead_code)]

use std::ffi::CStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

mod shell;
// Not every test file runs the binary through a shell.
#[allow(unused_imports)]
pub use shell::*;

/// The chunk size the CLI reads with; the boundary tests aim at it.
pub const CHUNK: usize = 64 * 1024;

// ---------------------------------------------------------------- helpers

/// A file in the temporary directory, removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: &[u8]) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("u8x-cli-test-{}-{n}-{name}", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    /// A name for an output file that does not exist yet.
    pub fn absent(name: &str) -> TempFile {
        let file = TempFile::new(name, b"");
        std::fs::remove_file(&file.0).unwrap();
        file
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("temporary paths are UTF-8 here")
    }

    pub fn read(&self) -> Vec<u8> {
        std::fs::read(&self.0).unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// What a run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn out(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }
}

/// "LINE:COLUMN" of the byte at `offset` of `data`, which is valid UTF-8
/// before it, counted by std: lines from 1 at each 0x0A, columns from 1 in
/// characters.
pub fn line_col(data: &[u8], offset: usize) -> String {
    let before = std::str::from_utf8(&data[..offset]).expect("valid before the error");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
    format!("{line}:{column}")
}

/// Runs `u8x args...` with `stdin` (empty if `None`).
pub fn u8x(args: &[&str], stdin: Option<&[u8]>) -> Run {
    u8x_env(args, stdin, &[])
}

/// [`u8x`] with environment variables set.
pub fn u8x_env(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the u8x binary runs");
    let input = stdin.unwrap_or_default().to_vec();
    let mut pipe = child.stdin.take().unwrap();
    // Feed stdin from a thread so a large input cannot deadlock with output.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    Run {
        code: status.code().expect("u8x exits normally"),
        stdout,
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `u8x args...` with standard input read from the file `stdin`.
/// `u8x COMMAND -o OUT INPUT`.
pub fn convert_into(command: &str, out: &Path, input: &Path) -> Run {
    u8x(
        &[
            command,
            "-o",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        None,
    )
}

pub fn u8x_with_stdin(args: &[&str], stdin: &Path) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .stdin(std::fs::File::open(stdin).unwrap())
        .output()
        .expect("the u8x binary runs");
    Run {
        code: status.code().expect("u8x exits normally"),
        stdout,
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// A directory of its own in the temporary directory, removed with what it
/// holds when dropped: tests that look for stray files look here.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "u8x-cli-test-dir-{}-{n}-{name}",
            std::process::id()
        ));
        std::fs::create_dir(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Creates the file `name` holding `contents`.
    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// The names in the directory, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Mostly text (ASCII, newlines, 2-, 3- and 4-byte characters) with a
    /// damaged byte now and then, `len` bytes or a few more.
    pub fn text(&mut self, len: usize, damage_per_mille: u64) -> Vec<u8> {
        const PIECES: &[&str] = &["abc", " ", "\n", "é", "€", "😀", "ж", "中文", "\r\n"];
        const BAD: &[&[u8]] = &[
            b"\x80",
            b"\xBF",
            b"\xC0",
            b"\xC1",
            b"\xF5",
            b"\xFF",
            b"\xE2\x82",
            b"\xE0\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90",
            b"\xF0\x8F",
            b"\xC3",
            b"\xF0\x9F\x98",
        ];
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            if self.below(1000) < damage_per_mille {
                out.extend_from_slice(BAD[self.below(BAD.len() as u64) as usize]);
            } else {
                out.extend_from_slice(PIECES[self.below(PIECES.len() as u64) as usize].as_bytes());
            }
        }
        out
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Markus Kuhn's UTF-8 stress test, if this checkout has it.
pub fn kuhn() -> Option<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        root.join("tests/data/UTF-8-test.txt"),
        root.join("../shared/corpus/kuhn/UTF-8-test.txt"),
    ]
    .iter()
    .find_map(|p| std::fs::read(p).ok())
}

// ------------------------------------------- independent expectations

/// An ill-formed sequence as std sees it: offset and maximal-subpart bytes.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct Bad {
    pub offset: usize,
    pub bytes: Vec<u8>,
    /// The `u8x_error` number of its kind, classified by hand from Table 3-7.
    pub kind: i32,
}

/// Every ill-formed sequence in `input`, found with `std::str::from_utf8`.
pub fn std_errors(input: &[u8]) -> Vec<Bad> {
    let mut found = Vec::new();
    let mut pos = 0;
    while let Err(e) = std::str::from_utf8(&input[pos..]) {
        let offset = pos + e.valid_up_to();
        let len = e.error_len().unwrap_or(input.len() - offset);
        let bytes = input[offset..offset + len].to_vec();
        let kind = match (bytes[0], e.error_len(), input.get(offset + 1)) {
            (_, None, _) => 7,                 // input ends inside a sequence
            (0x80..=0xBF, _, _) => 1,          // unexpected continuation
            (0xC0 | 0xC1 | 0xF5.., _, _) => 2, // never valid
            (lead, Some(1), Some(0x80..=0xBF)) => match lead {
                0xE0 | 0xF0 => 4, // overlong
                0xED => 5,        // surrogate
                0xF4 => 6,        // above U+10FFFF
                _ => unreachable!("{lead:02X} accepts any continuation byte"),
            },
            _ => 3, // cut short by a non-continuation byte
        };
        found.push(Bad {
            offset,
            bytes,
            kind,
        });
        pos = offset + len;
    }
    found
}

/// The C library's description of a `u8x_error` number.
pub fn error_name(kind: i32) -> String {
    // SAFETY: u8x_error_name returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(u8x::ffi::u8x_error_name(kind)) }
        .to_str()
        .unwrap()
        .to_string()
}

pub fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    pairs.join(" ")
}

/// The lines `u8x check --all` must print for `input` named `name`: lines
/// counted at 0x0A, columns in characters, an ill-formed sequence counting
/// as one character.
pub fn expected_report(name: &str, input: &[u8]) -> String {
    let (mut line, mut column, mut pos) = (1, 1, 0);
    let mut report = String::new();
    pub fn advance(valid: &[u8], line: &mut usize, column: &mut usize) {
        for c in std::str::from_utf8(valid).unwrap().chars() {
            if c == '\n' {
                *line += 1;
                *column = 1;
            } else {
                *column += 1;
            }
        }
    }
    for bad in std_errors(input) {
        advance(&input[pos..bad.offset], &mut line, &mut column);
        report += &format!(
            "{name}:{line}:{column}: byte offset {}: {} (bytes {})\n",
            bad.offset,
            error_name(bad.kind),
            hex(&bad.bytes)
        );
        column += 1;
        pos = bad.offset + bad.bytes.len();
    }
    report
}

/// Windows-1252 as published by Microsoft for 80..9F, the five undefined
/// bytes mapped to the C1 control of the same value (WHATWG).
pub fn cp1252(b: u8) -> char {
    const HIGH: [u32; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
        0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    match b {
        0x80..=0x9F => char::from_u32(HIGH[b as usize - 0x80]).unwrap(),
        _ => char::from(b),
    }
}

/// `input` with each byte of each ill-formed sequence rewritten by `each`.
pub fn per_byte_fix(input: &[u8], each: impl Fn(u8) -> String) -> String {
    let mut out = String::new();
    let mut pos = 0;
    for bad in std_errors(input) {
        out += std::str::from_utf8(&input[pos..bad.offset]).unwrap();
        bad.bytes.iter().for_each(|&b| out += &each(b));
        pos = bad.offset + bad.bytes.len();
    }
    out + std::str::from_utf8(&input[pos..]).unwrap()
}

pub fn utf32le(text: &str) -> Vec<u8> {
    text.chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect()
}

pub fn units_le(units: &[u32]) -> Vec<u8> {
    units.iter().flat_map(|u| u.to_le_bytes()).collect()
}

/// The decoding of `input` under the escape policy, computed here: each byte
/// of an ill-formed sequence becomes U+DC00 + byte.
pub fn escape_decode(input: &[u8]) -> Vec<u8> {
    units_le(&escape_code_points(input))
}

/// The code points of [`escape_decode`].
pub fn escape_code_points(input: &[u8]) -> Vec<u32> {
    let mut units = Vec::new();
    let mut pos = 0;
    for bad in std_errors(input) {
        let valid = std::str::from_utf8(&input[pos..bad.offset]).unwrap();
        units.extend(valid.chars().map(|c| c as u32));
        units.extend(bad.bytes.iter().map(|&b| 0xDC00 + b as u32));
        pos = bad.offset + bad.bytes.len();
    }
    units.extend(
        std::str::from_utf8(&input[pos..])
            .unwrap()
            .chars()
            .map(|c| c as u32),
    );
    units
}

/// The UTF-16 forms, and whether each is big-endian.
pub const UTF16_FORMS: [(&str, bool); 2] = [("utf-16le", false), ("utf-16be", true)];

/// UTF-16 units as bytes, little- or big-endian.
pub fn units16_bytes(units: &[u16], big: bool) -> Vec<u8> {
    units
        .iter()
        .flat_map(|&u| {
            if big {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

/// The line a non-strict `fix`, `decode`, `encode` or `convert` writes on
/// standard error when its policy handled `n` errors: "u8x: dropped 3
/// ill-formed sequences". `what` is the noun for `n` ("ill-formed
/// sequence" when `n` is 1), `how` what follows it (" as windows-1252").
pub fn told(verb: &str, n: usize, what: &str, how: &str) -> String {
    format!("u8x: {verb} {n} {what}{how}\n")
}

/// The plural noun `told` takes for `n` ill-formed sequences.
pub fn sequences(n: usize) -> &'static str {
    if n == 1 {
        "ill-formed sequence"
    } else {
        "ill-formed sequences"
    }
}

/// `text` in UTF-16, little- or big-endian (std's encoder).
pub fn utf16(text: &str, big: bool) -> Vec<u8> {
    units16_bytes(&text.encode_utf16().collect::<Vec<u16>>(), big)
}

/// Code points (scalar values, or the lone surrogates of the escape policy)
/// as UTF-16 units, pairs computed by hand.
pub fn code_points_utf16(code_points: &[u32]) -> Vec<u16> {
    let mut units = Vec::new();
    for &c in code_points {
        if c >= 0x1_0000 {
            let v = c - 0x1_0000;
            units.push(0xD800 + (v >> 10) as u16);
            units.push(0xDC00 + (v & 0x3FF) as u16);
        } else {
            units.push(c as u16);
        }
    }
    units
}

/// `text` in Latin-1, '?' for each character above U+00FF.
pub fn latin1_lossy(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

/// UTF-16 as std decodes it (one U+FFFD per unpaired surrogate), in UTF-8.
pub fn utf16_lossy(units: &[u16]) -> Vec<u8> {
    String::from_utf16_lossy(units).into_bytes()
}

/// The UTF-8 that `encode --policy escape` gives for `units`, computed with
/// std's UTF-16 decoder: a lone U+DC80..U+DCFF becomes its byte. `Err` is
/// the index of the first other lone surrogate, with the UTF-8 before it.
pub fn utf16_escape_encode(units: &[u16]) -> Result<Vec<u8>, (usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut index = 0;
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => {
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                index += c.len_utf16();
            }
            Err(e) => match e.unpaired_surrogate() {
                s @ 0xDC80..=0xDCFF => {
                    out.push(s as u8);
                    index += 1;
                }
                _ => return Err((index, out)),
            },
        }
    }
    Ok(out)
}

impl Rng {
    /// About `len` UTF-16 units of text (pairs included), with a lone
    /// surrogate (high or low, any value) now and then.
    pub fn utf16(&mut self, len: usize, lone_per_mille: u64) -> Vec<u16> {
        const PIECES: &[&str] = &["ab", " ", "\n", "é", "€", "😀", "𝄞", "中", "\u{FFFF}"];
        let mut units = Vec::with_capacity(len + 2);
        while units.len() < len {
            if self.below(1000) < lone_per_mille {
                units.push(0xD800 + self.below(0x800) as u16);
            } else {
                let piece = PIECES[self.below(PIECES.len() as u64) as usize];
                units.extend(piece.encode_utf16());
            }
        }
        units
    }
}

/// What Python 3 computes for `expression`, in which `data` is the bytes
/// given, or `None` when `python3` cannot be run here.
pub fn python(expression: &str, data: &[u8]) -> Option<Vec<u8>> {
    let script = "import sys\n\
                  data = sys.stdin.buffer.read()\n\
                  sys.stdout.buffer.write(eval(sys.argv[1]))\n";
    let mut child = Command::new("python3")
        .args(["-c", script, expression])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let mut pipe = child.stdin.take().unwrap();
    let input = data.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(
        out.status.success(),
        "python3: {expression}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out.stdout)
}
