//! `--dialect` of `check`, `decode`, `encode` and `convert`. The expected
//! bytes and reports are made without u8x: Modified UTF-8 and CESU-8
//! encoded by hand from std's UTF-16 (and by Python where it runs), Kuhn's
//! 5- and 6-byte sequences, WTF-8 from Python's surrogatepass, and damaged
//! CESU-8 whose reports are written down as it is generated.

mod common;

use common::*;

/// A UTF-16 unit as a 3-byte form (what CESU-8 writes for each half of a
/// pair, and UTF-8 for any code point from U+0800 to U+FFFF).
fn three(u: u16) -> [u8; 3] {
    [
        0xE0 | (u >> 12) as u8,
        0x80 | ((u >> 6) & 0x3F) as u8,
        0x80 | (u & 0x3F) as u8,
    ]
}

/// `c` in CESU-8, or with `modified` in Modified UTF-8 (JNI: U+0000 is
/// C0 80, a supplementary character its two surrogates of 3 bytes).
fn cesu8_char(c: char, modified: bool, out: &mut Vec<u8>) {
    if modified && c == '\0' {
        out.extend([0xC0, 0x80]);
    } else if (c as u32) < 0x1_0000 {
        out.extend(c.encode_utf8(&mut [0; 4]).as_bytes());
    } else {
        for &u in c.encode_utf16(&mut [0; 2]).iter() {
            out.extend(three(u));
        }
    }
}

fn cesu8(text: &str, modified: bool) -> Vec<u8> {
    let mut out = Vec::new();
    text.chars().for_each(|c| cesu8_char(c, modified, &mut out));
    out
}

// ------------------------------------------------------ Modified UTF-8

#[test]
fn modified_utf8_as_jni_writes_it() {
    // The JNI specification's forms, by hand: U+0000 as C0 80, U+10400 as
    // the surrogates D801 DC00, 3 bytes each.
    assert_eq!(cesu8("\0", true), [0xC0, 0x80]);
    assert_eq!(
        cesu8("\u{10400}", true),
        [0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80]
    );
    let text = "a\0é€\u{10400}😀\n\u{10FFFF}\u{FFFF}z\0";
    let mutf = cesu8(text, true);
    // Python, encoding by hand as well, agrees.
    let by_python = python(
        "''.join(chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) \
         & 0x3FF)) if ord(c) > 0xFFFF else c for c in data.decode('utf-8'))\
         .encode('utf-8', 'surrogatepass').replace(b'\\x00', b'\\xc0\\x80')",
        text.as_bytes(),
    );
    if let Some(by_python) = by_python {
        assert_eq!(by_python, mutf);
    }
    let file = TempFile::new("java.mutf8", &mutf);

    let run = u8x(&["check", "--dialect", "mutf-8", file.path()], None);
    assert_eq!((run.code, run.out(), &*run.stderr), (0, "", ""));
    // Not RFC 3629: C0 never is.
    let run = u8x(&["check", file.path()], None);
    let expected = format!(
        "{}:1:2: byte offset 1: byte never valid in UTF-8 (bytes C0)\n",
        file.path()
    );
    assert_eq!((run.code, run.out()), (1, &*expected));

    for (form, expected) in [
        ("utf-16le", utf16(text, false)),
        ("utf-16be", utf16(text, true)),
        ("utf-32le", utf32le(text)),
    ] {
        let run = u8x(
            &["decode", "--dialect", "mutf-8", "--to", form, file.path()],
            None,
        );
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert!(run.stdout == expected, "decode to {form}");
        let run = u8x(
            &["encode", "--dialect=MUTF-8", "--from", form],
            Some(&expected),
        );
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert!(run.stdout == mutf, "encode from {form}");
        // convert: the dialect of the side that is utf-8.
        let args = [
            "convert",
            "--dialect",
            "mutf-8",
            "--from",
            "utf-8",
            "--to",
            form,
        ];
        let run = u8x(&args, Some(&mutf));
        assert!(run.code == 0 && run.stdout == expected, "convert to {form}");
        let args = [
            "convert",
            "--dialect",
            "mutf-8",
            "--from",
            form,
            "--to",
            "utf-8",
        ];
        let run = u8x(&args, Some(&expected));
        assert!(run.code == 0 && run.stdout == mutf, "convert from {form}");
    }

    // The byte 00 is not Modified UTF-8, and U+0000 is not written as it.
    let run = u8x(
        &["check", "--dialect", "mutf-8", "-"],
        Some(b"ab\n\xC0\x80\0"),
    );
    assert_eq!(
        (run.code, run.out()),
        (
            1,
            "(standard input):2:2: byte offset 5: byte never valid in UTF-8 (bytes 00)\n"
        )
    );
    let run = u8x(&["decode", "--dialect", "mutf-8"], Some(b"ab\n\xC0\x80\0"));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "u8x: (standard input):2:2: byte offset 5: byte never valid in UTF-8\n"
    );
    assert_eq!(run.stdout, utf32le("ab\n\0"));
}

// ------------------------------------------------------- legacy UTF-8

/// Kuhn's sections 2.1.5, 2.1.6, 2.2.5 and 2.2.6: the first and last 5-
/// and 6-byte sequences, and the values his headings give them.
fn kuhn_long_forms() -> Vec<(Vec<u8>, u32)> {
    let by_hand: [(&[u8], u32); 4] = [
        (b"\xF8\x88\x80\x80\x80", 0x20_0000),
        (b"\xFC\x84\x80\x80\x80\x80", 0x400_0000),
        (b"\xFB\xBF\xBF\xBF\xBF", 0x3FF_FFFF),
        (b"\xFD\xBF\xBF\xBF\xBF\xBF", 0x7FFF_FFFF),
    ];
    let Some(kuhn) = kuhn() else {
        return by_hand.iter().map(|(b, v)| (b.to_vec(), *v)).collect();
    };
    let quoted = |section: &str| -> Vec<u8> {
        let line = kuhn
            .split(|&b| b == b'\n')
            .find(|line| line.starts_with(section.as_bytes()))
            .unwrap_or_else(|| panic!("section {section}"));
        let open = line.iter().position(|&b| b == b'"').unwrap() + 1;
        let len = line[open..].iter().position(|&b| b == b'"').unwrap();
        line[open..open + len].to_vec()
    };
    let sections = ["2.1.5", "2.1.6", "2.2.5", "2.2.6"];
    let forms: Vec<(Vec<u8>, u32)> = sections
        .iter()
        .zip(by_hand)
        .map(|(section, (_, value))| (quoted(section), value))
        .collect();
    for ((bytes, _), (hand, _)) in forms.iter().zip(by_hand) {
        assert_eq!(bytes, hand, "Kuhn's file as transcribed");
    }
    forms
}

#[test]
fn legacy_utf8_reads_and_writes_kuhns_five_and_six_byte_forms() {
    for (bytes, value) in kuhn_long_forms() {
        let run = u8x(
            &["decode", "--dialect", "legacy", "--to", "utf-32le"],
            Some(&bytes),
        );
        assert_eq!((run.code, &*run.stderr), (0, ""), "{value:#X}");
        assert_eq!(run.stdout, value.to_le_bytes(), "{value:#X}");
        let run = u8x(
            &["decode", "--dialect", "legacy", "--to", "utf-32be"],
            Some(&bytes),
        );
        assert_eq!(run.stdout, value.to_be_bytes(), "{value:#X}");
        // And back, from UTF-32.
        let run = u8x(
            &["encode", "--dialect", "legacy"],
            Some(&value.to_le_bytes()),
        );
        assert_eq!((run.code, &*run.stdout), (0, &*bytes), "{value:#X}");
        // Not RFC 3629 UTF-8, and beyond UTF-16.
        let run = u8x(&["decode"], Some(&bytes));
        assert_eq!(run.code, 1, "{value:#X}");
        let run = u8x(
            &["decode", "--dialect", "legacy", "--to", "utf-16le"],
            Some(&bytes),
        );
        assert_eq!(run.code, 1);
        assert_eq!(
            run.stderr,
            format!(
                "u8x: (standard input):1:1: byte offset 0: character not representable in the \
                 output form (0x{value:X} is above U+10FFFF, so not in UTF-16)\n"
            )
        );
        let args = [
            "decode",
            "--dialect",
            "legacy",
            "--to",
            "utf-16le",
            "--policy",
            "replace",
        ];
        let run = u8x(&args, Some(&[b"a", &bytes[..], b"b"].concat()));
        assert_eq!(
            (run.code, &*run.stdout),
            (0, &utf16("a\u{FFFD}b", false)[..])
        );
    }
    // A file of them, one a line, is legacy UTF-8 and nothing else.
    let mut lines = Vec::new();
    for (bytes, _) in kuhn_long_forms() {
        lines.extend(bytes);
        lines.push(b'\n');
    }
    let file = TempFile::new("legacy.txt", &lines);
    let run = u8x(&["check", "--dialect", "legacy", file.path()], None);
    assert_eq!((run.code, run.out()), (0, ""));
    for dialect in ["utf-8", "cesu-8", "wtf-8"] {
        let run = u8x(&["check", "-l", "--dialect", dialect, file.path()], None);
        assert_eq!(run.code, 1, "{dialect}");
    }
    // Past 0x7FFFFFFF nothing writes it.
    let run = u8x(
        &["encode", "--dialect", "legacy"],
        Some(&0x8000_0000u32.to_le_bytes()),
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("unit 0 (byte offset 0)"),
        "{}",
        run.stderr
    );
}

// -------------------------------------------------------------- WTF-8

#[test]
fn wtf8_carries_lone_surrogates_both_ways() {
    // a, lone D800, b, lone DC00, the pair D83D DE00, and a high surrogate
    // that the input ends on; their WTF-8 by hand.
    let units = [0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00, 0xDBFF];
    let wtf8 = b"a\xED\xA0\x80b\xED\xB0\x80\xF0\x9F\x98\x80\xED\xAF\xBF";
    for (form, big) in UTF16_FORMS {
        let utf16 = units16_bytes(&units, big);
        let run = u8x(
            &["encode", "--from", form, "--dialect", "wtf-8"],
            Some(&utf16),
        );
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert_eq!(run.stdout, wtf8, "{form}");
        let run = u8x(&["decode", "--to", form, "--dialect", "wtf-8"], Some(wtf8));
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert_eq!(run.stdout, utf16, "{form}");
        // RFC 3629 has no room for them.
        let run = u8x(&["encode", "--from", form], Some(&utf16));
        assert_eq!(run.code, 1);
        assert!(run.stderr.contains("unpaired surrogate (value 0xD800)"));
    }
    let run = u8x(&["check", "--dialect", "wtf-8", "-"], Some(wtf8));
    assert_eq!((run.code, run.out()), (0, ""));
    // A high and a low surrogate in a row must have been one character.
    let run = u8x(
        &["check", "--dialect", "wtf-8", "-"],
        Some(b"x\xED\xA0\xBD\xED\xB8\x80"),
    );
    assert_eq!(
        run.out(),
        "(standard input):1:2: byte offset 1: surrogate (bytes ED A0 BD)\n"
    );
}

#[test]
fn wtf8_round_trip_of_long_utf16_with_lone_surrogates() {
    // Long enough for pairs and lone halves on the 64 KiB and 1 MiB edges.
    let mut rng = Rng(11);
    let units = rng.utf16(700_000, 30);
    let utf16 = units16_bytes(&units, false);
    let file = TempFile::new("lone.u16", &utf16);
    let run = u8x(
        &[
            "encode",
            "--from",
            "utf-16le",
            "--dialect",
            "wtf-8",
            file.path(),
        ],
        None,
    );
    assert_eq!((run.code, &*run.stderr), (0, ""));
    let wtf8 = run.stdout;
    let expected = python(
        "data.decode('utf-16-le', 'surrogatepass').encode('utf-8', 'surrogatepass')",
        &utf16,
    );
    if let Some(expected) = expected {
        assert!(wtf8 == expected, "WTF-8 differs from Python's");
    }
    let args = [
        "convert",
        "--from",
        "utf-8",
        "--to",
        "utf-16le",
        "--dialect",
        "wtf-8",
    ];
    let run = u8x(&args, Some(&wtf8));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert!(run.stdout == utf16, "the round trip differs");
}

// ------------------------------------------------------------- CESU-8

/// Damaged CESU-8 and what `check --all` reports for it, written down as
/// it is made: 4-byte forms (F0, then three continuation bytes), high
/// surrogates without their low half, and low halves without a high one.
/// Also the text `decode --policy replace` gives (U+FFFD per report).
struct Damaged {
    bytes: Vec<u8>,
    reports: Vec<String>,
    replaced: String,
    /// Where the next piece goes, from 1.
    line: usize,
    column: usize,
}

impl Damaged {
    fn valid(&mut self, c: char) {
        cesu8_char(c, false, &mut self.bytes);
        self.replaced.push(c);
        if c == '\n' {
            (self.line, self.column) = (self.line + 1, 1);
        } else {
            self.column += 1;
        }
    }

    /// One maximal subpart: one report, one U+FFFD, one column.
    fn bad(&mut self, bytes: &[u8], what: &str) {
        self.reports.push(format!(
            "{}:{}: byte offset {}: {what} (bytes {})",
            self.line,
            self.column,
            self.bytes.len(),
            hex(bytes)
        ));
        self.bytes.extend(bytes);
        self.replaced.push('\u{FFFD}');
        self.column += 1;
    }

    /// The reports of `check --all` for the file `name`.
    fn all(&self, name: &str) -> String {
        self.reports
            .iter()
            .map(|r| format!("{name}:{r}\n"))
            .collect()
    }
}

fn damaged_cesu8(seed: u64, pieces: usize) -> Damaged {
    let mut rng = Rng(seed);
    let mut d = Damaged {
        bytes: Vec::new(),
        reports: Vec::new(),
        replaced: String::new(),
        line: 1,
        column: 1,
    };
    let supplementary = ['😀', '\u{10000}', '\u{10FFFF}', '𝄞', '\u{1F9FF}'];
    for _ in 0..pieces {
        match rng.below(100) {
            0..=44 => d.valid(char::from(b'a' + rng.below(26) as u8)),
            45..=49 => d.valid('\n'),
            50..=59 => d.valid('é'),
            60..=69 => d.valid('€'),
            70..=89 => d.valid(supplementary[rng.below(5) as usize]),
            // A 4-byte form: F0 never leads in CESU-8.
            90..=93 => {
                d.bad(b"\xF0", "byte never valid in UTF-8");
                for b in [0x9F, 0x98, 0x80] {
                    d.bad(&[b], "unexpected continuation byte");
                }
            }
            // U+D83D without its low half: its 3 bytes.
            94..=96 => {
                d.bad(b"\xED\xA0\xBD", "surrogate");
                d.valid('x');
            }
            // U+DE00 without a high half: ED starts nothing there.
            _ => {
                d.bad(b"\xED", "surrogate");
                for b in [0xB8, 0x80] {
                    d.bad(&[b], "unexpected continuation byte");
                }
            }
        }
    }
    d
}

#[test]
fn check_accepts_cesu8_and_finds_a_four_byte_form() {
    let text = "Zoë 😀\n\u{10FFFF}€ two 𝄞𝄞\nthen ";
    let mut cesu = cesu8(text, false);
    let file = TempFile::new("good.cesu8", &cesu);
    let run = u8x(&["check", "--dialect", "cesu-8", file.path()], None);
    assert_eq!((run.code, run.out(), &*run.stderr), (0, "", ""));
    // RFC 3629 reads each half as a surrogate.
    let run = u8x(&["check", file.path()], None);
    let expected = format!("{}:1:5: byte offset 5: surrogate (bytes ED)\n", file.path());
    assert_eq!((run.code, run.out()), (1, &*expected));

    // Line 3, after 5 characters: the 4-byte form of U+1F600.
    let offset = cesu.len();
    cesu.extend("😀!".as_bytes());
    let file = TempFile::new("bad.cesu8", &cesu);
    let name = file.path();
    let run = u8x(&["check", "--dialect", "cesu-8", name], None);
    let first = format!("{name}:3:6: byte offset {offset}: byte never valid in UTF-8 (bytes F0)\n");
    assert_eq!((run.code, run.out()), (1, &*first));
    let run = u8x(&["check", "-a", "--dialect", "cesu-8", name], None);
    let mut all = first.clone();
    for (i, b) in ["9F", "98", "80"].iter().enumerate() {
        all += &format!(
            "{name}:3:{}: byte offset {}: unexpected continuation byte (bytes {b})\n",
            7 + i,
            offset + 1 + i
        );
    }
    assert_eq!((run.code, run.out()), (1, &*all));
    // Standard input (positions kept as it is read), and --json, the same.
    let run = u8x(&["check", "--dialect", "cesu-8"], Some(&cesu));
    assert_eq!(run.out(), first.replace(name, "(standard input)"));
    let run = u8x(&["check", "--json", "--dialect", "cesu-8", name], None);
    let json: serde_json::Value = serde_json::from_str(run.out().trim()).unwrap();
    assert_eq!(json["line"], 3);
    assert_eq!(json["column"], 6);
    assert_eq!(json["offset"], offset);
    assert_eq!(json["kind"], "invalid_byte");
    assert_eq!(json["bytes"], "F0");
    // The 4-byte form is fine where it belongs.
    let run = u8x(&["check", "--dialect", "wtf-8", name], None);
    assert_eq!(run.code, 1, "the halves are a pair, which WTF-8 refuses");
    let run = u8x(
        &["decode", "--dialect", "cesu-8", "--to", "utf-16le", name],
        None,
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!("u8x: {name}:3:6: byte offset {offset}: byte never valid in UTF-8\n")
    );
    assert_eq!(run.stdout, utf16(text, false));
}

#[test]
fn check_cesu8_on_threads_never_cuts_a_pair() {
    // Blocks of 1 to 7 bytes put a cut inside every pair and error.
    let small = damaged_cesu8(5, 1500);
    let file = TempFile::new("small.cesu8", &small.bytes);
    let name = file.path();
    let expected = small.all(name);
    assert!(small.reports.len() > 50);
    let run = u8x(&["check", "-a", "--dialect", "cesu-8", name], None);
    assert!(run.code == 1 && run.out() == expected, "one thread");
    for size in ["1", "2", "3", "4", "5", "6", "7", "11"] {
        let env = [("U8X_BLOCK_SIZE", size)];
        let args = ["check", "-a", "-j", "3", "--dialect", "cesu-8", name];
        let run = u8x_env(&args, None, &env);
        assert_eq!(run.code, 1, "block {size}");
        assert!(run.out() == expected, "block {size}: reports differ");
        let args = ["check", "-j", "2", "--dialect", "cesu-8", name];
        let run = u8x_env(&args, None, &env);
        assert_eq!(
            run.out(),
            expected.lines().next().unwrap().to_string() + "\n"
        );
    }
    // A valid file: no cut may split a pair into two "surrogates".
    let good = cesu8(&"a😀é\u{10FFFF}€\n𝄞".repeat(300), false);
    let file = TempFile::new("good.cesu8", &good);
    for size in ["1", "2", "3", "5", "7"] {
        let env = [("U8X_BLOCK_SIZE", size)];
        let args = ["check", "-j", "2", "--dialect", "cesu-8", file.path()];
        let run = u8x_env(&args, None, &env);
        assert_eq!((run.code, run.out()), (0, ""), "block {size}");
    }
}

#[test]
fn long_damaged_cesu8_across_chunks_and_blocks() {
    // About 2.3 MB: chunks of 64 KiB (standard input) and 1 MiB (decode)
    // end inside pairs and errors.
    let big = damaged_cesu8(9, 600_000);
    let file = TempFile::new("big.cesu8", &big.bytes);
    let name = file.path();
    let expected = big.all(name);
    let run = u8x(&["check", "-a", "--dialect", "cesu-8", name], None);
    let first_difference = run
        .out()
        .lines()
        .zip(expected.lines())
        .find(|(a, b)| a != b);
    assert_eq!(first_difference, None);
    assert!(run.code == 1 && run.out() == expected, "file");
    let run = u8x_with_stdin(&["check", "-a", "--dialect", "cesu-8"], &file.0);
    let from_stdin = big.all("(standard input)");
    assert!(run.code == 1 && run.out() == from_stdin, "standard input");
    for size in ["4093", "65536"] {
        let env = [("U8X_BLOCK_SIZE", size)];
        let run = u8x_env(
            &["check", "-a", "-j", "2", "--dialect", "cesu-8", name],
            None,
            &env,
        );
        assert!(run.out() == expected, "block {size}: reports differ");
    }
    let args = [
        "decode",
        "--dialect",
        "cesu-8",
        "--policy",
        "replace",
        "--to",
        "utf-16le",
        name,
    ];
    let run = u8x(&args, None);
    // One U+FFFD per maximal subpart, each reported by check.
    let n = big.reports.len();
    let summary = format!("u8x: replaced {n} ill-formed sequences\n");
    assert_eq!((run.code, &*run.stderr), (0, &*summary));
    assert!(
        run.stdout == utf16(&big.replaced, false),
        "replaced text differs"
    );
    // Strict: stops at the first error, located as check locates it.
    let run = u8x(&["decode", "--dialect", "cesu-8", name], None);
    let first = &big.reports[0];
    let (place, rest) = first.split_once(": byte offset").unwrap();
    let described = rest.rsplit_once(" (bytes").unwrap().0;
    assert_eq!(
        run.stderr,
        format!("u8x: {name}:{place}: byte offset{described}\n")
    );
    // And back: the replaced text encodes to CESU-8 as written by hand.
    let replaced16 = utf16(&big.replaced, false);
    let run = u8x(
        &["encode", "--from", "utf-16le", "--dialect", "cesu-8"],
        Some(&replaced16),
    );
    assert!(run.code == 0 && run.stdout == cesu8(&big.replaced, false));
}

/// A high surrogate without its low half where the library's dialect
/// decoders end an internal window (here at byte 64): still a surrogate,
/// not the end of the input.
#[test]
fn lone_high_surrogate_at_a_window_end_is_a_surrogate() {
    let data = b"x\xED\xA0\x80\xED\xB0\x80t\xE2\x82\xACvuvd\xED\xA0\xBD\xED\xB8\x80aaepw\xC3\xA9\xC3\xA9\xE2\x82\xACt\xC3\xA9\xE2\x82\xACcpfjo\xED\xA0\xB4\xED\xB4\x9Ep\xED\xA0\xB4\xED\xB4\x9Ee\xE2\x82\xACu\xC3\xA9\xED\xA0\xBDxh\xED";
    let expected = "(standard input):1:33: byte offset 64: surrogate (bytes ED A0 BD)\n";
    let run = u8x(&["check", "--dialect", "cesu-8"], Some(data));
    assert_eq!((run.code, run.out()), (1, expected));
    let run = u8x(&["decode", "--dialect", "cesu-8"], Some(data));
    assert_eq!(
        run.stderr,
        format!("u8x: {}", expected.split(" (bytes").next().unwrap()) + "\n"
    );
}

/// A 64 MiB file checked with -j 2 in the release binary's 4 MiB blocks,
/// which are cut at CESU-8 boundaries. The lines are 19 bytes, so the 16
/// cuts fall at every place in a line, pairs included.
#[test]
fn check_cesu8_file_in_full_size_blocks() {
    let line = cesu8("a😀€é\u{10FFFF}\n", false);
    assert_eq!(line.len(), 19);
    let lines = (64 << 20) / line.len() + 1000;
    let mut data = line.repeat(lines);
    // A 4-byte form at the start of line 3_500_000, and one on the last
    // line after its pair.
    let (n1, n2) = (3_500_000, lines);
    let o1 = (n1 - 1) * line.len();
    data.splice(o1..o1, "😀".bytes());
    let o2 = data.len() - line.len() + 1 + 6;
    data.splice(o2..o2, "😀".bytes());
    let file = TempFile::new("huge.cesu8", &data);
    drop(data);
    let name = file.path();
    let run = u8x(&["check", "-j", "2", "--dialect", "cesu-8", name], None);
    let first = format!("{name}:{n1}:1: byte offset {o1}: byte never valid in UTF-8 (bytes F0)\n");
    assert_eq!((run.code, run.out()), (1, &*first));
    let run = u8x(
        &["check", "-a", "-j", "2", "--dialect", "cesu-8", name],
        None,
    );
    let reports: Vec<&str> = run.out().lines().collect();
    assert_eq!(reports.len(), 8, "{reports:?}");
    assert_eq!(
        reports[4],
        format!("{name}:{n2}:3: byte offset {o2}: byte never valid in UTF-8 (bytes F0)")
    );
}

// ---------------------------------------------------------- the option

#[test]
fn dialect_usage_errors_and_generated_texts() {
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "convert",
                "--from",
                "utf-8",
                "--to",
                "utf-8",
                "--dialect",
                "cesu-8",
            ],
            "error: --dialect cesu-8 needs a side that is not utf-8",
        ),
        (
            &[
                "convert",
                "--from",
                "utf-16le",
                "--to",
                "utf-32le",
                "--dialect",
                "wtf-8",
            ],
            "error: --dialect wtf-8 is the dialect of the utf-8 side, and neither",
        ),
        (
            &["decode", "--to", "latin1", "--dialect", "legacy"],
            "error: --dialect legacy cannot be used with latin1",
        ),
        (
            &["encode", "--from", "latin1", "--dialect", "mutf-8"],
            "error: --dialect mutf-8 cannot be used with latin1",
        ),
        (
            &["check", "--dialect", "utf8"],
            "error: invalid value 'utf8' for '--dialect <NAME>'",
        ),
    ];
    for (args, message) in cases {
        let run = u8x(args, Some(b"abc"));
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.starts_with(message), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    // The default is RFC 3629, and may be named.
    let args = [
        "convert",
        "--from",
        "utf-8",
        "--to",
        "utf-8",
        "--dialect",
        "utf-8",
    ];
    let run = u8x(&args, Some("é".as_bytes()));
    assert_eq!((run.code, &*run.stdout), (0, "é".as_bytes()));
    let run = u8x(
        &["decode", "--to", "latin1", "--dialect", "utf-8"],
        Some("é".as_bytes()),
    );
    assert_eq!((run.code, &*run.stdout), (0, &b"\xE9"[..]));
    // Help, completions and man pages come from the same definition.
    let help = u8x(&["help", "check"], None);
    for text in ["--dialect <NAME>", "cesu-8", "mutf-8", "generalized"] {
        assert!(help.out().contains(text), "help lacks {text}");
    }
    let run = u8x(&["completions", "bash"], None);
    assert!(run.out().contains("--dialect") && run.out().contains("wtf-8"));
    for page in ["check", "decode", "encode", "convert"] {
        let man = u8x(&["man", page], None);
        assert!(man.out().contains("\\-\\-dialect"), "u8x-{page}(1)");
    }
}
