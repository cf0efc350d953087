//! End-to-end tests of the `u8x` binary: exact messages, exit statuses, chunk
//! boundaries, and outputs compared with expectations computed here
//! independently of the library (std's UTF-8 decoder, hand-written tables).

mod common;

use std::ffi::CStr;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::*;

// ------------------------------------------------------------- check

#[test]
fn check_valid_files_print_nothing_and_exit_0() {
    let a = TempFile::new("a.txt", "héllo wörld\n€😀\n".as_bytes());
    let empty = TempFile::new("empty.txt", b"");
    let run = u8x(&["check", a.path(), empty.path()], None);
    assert_eq!((run.code, run.out(), &*run.stderr), (0, "", ""));
}

#[test]
fn check_reports_the_first_error_exactly() {
    let f = TempFile::new("bad.txt", b"first line\nab\xC3\xA9c\xFF\xFEd\n\x80");
    let run = u8x(&["check", f.path()], None);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.out(),
        format!(
            "{}:2:5: byte offset 16: byte never valid in UTF-8 (bytes FF)\n",
            f.path()
        )
    );
    assert_eq!(run.stderr, "");
}

#[test]
fn check_all_reports_every_error() {
    let f = TempFile::new(
        "all.txt",
        b"\xE2\x82x\xE0\x80\x80\n\t\xED\xA0\x80 \xF4\x90\x80\x80\xF0\x9F\x98",
    );
    let run = u8x(&["check", "--all", f.path()], None);
    assert_eq!(run.code, 1);
    let p = f.path();
    assert_eq!(
        run.out(),
        format!(
            "{p}:1:1: byte offset 0: sequence cut short by a non-continuation byte (bytes E2 82)\n\
             {p}:1:3: byte offset 3: overlong encoding (bytes E0)\n\
             {p}:1:4: byte offset 4: unexpected continuation byte (bytes 80)\n\
             {p}:1:5: byte offset 5: unexpected continuation byte (bytes 80)\n\
             {p}:2:2: byte offset 8: surrogate (bytes ED)\n\
             {p}:2:3: byte offset 9: unexpected continuation byte (bytes A0)\n\
             {p}:2:4: byte offset 10: unexpected continuation byte (bytes 80)\n\
             {p}:2:6: byte offset 12: value above U+10FFFF (bytes F4)\n\
             {p}:2:7: byte offset 13: unexpected continuation byte (bytes 90)\n\
             {p}:2:8: byte offset 14: unexpected continuation byte (bytes 80)\n\
             {p}:2:9: byte offset 15: unexpected continuation byte (bytes 80)\n\
             {p}:2:10: byte offset 16: input ends inside a sequence (bytes F0 9F 98)\n"
        )
    );
    assert_eq!(run.out(), expected_report(p, &f.read()));
    // Short form, and options after the file.
    let again = u8x(&["check", f.path(), "-a"], None);
    assert_eq!((again.code, again.out()), (1, run.out()));
}

#[test]
fn check_descriptions_are_the_c_library_wording() {
    let cases: &[(&[u8], i32)] = &[
        (b"\x80", 1),
        (b"\xC1\xBF", 2),
        (b"\xE1\x80z", 3),
        (b"\xF0\x80\x80\x80", 4),
        (b"\xED\xBF\xBF", 5),
        (b"\xF4\xA0\x80\x80", 6),
        (b"\xF3\xBF", 7),
    ];
    for &(input, kind) in cases {
        let f = TempFile::new("kind.txt", input);
        let run = u8x(&["check", f.path()], None);
        let bad = &std_errors(input)[0];
        assert_eq!(bad.kind, kind, "the test's own classification");
        assert_eq!(
            run.out(),
            format!(
                "{}:1:1: byte offset 0: {} (bytes {})\n",
                f.path(),
                error_name(kind),
                hex(&bad.bytes)
            )
        );
    }
}

#[test]
fn check_quiet_prints_nothing() {
    let bad = TempFile::new("q.txt", b"a\xFFb\xFF");
    let good = TempFile::new("ok.txt", b"ok");
    for flag in ["-q", "--quiet"] {
        let run = u8x(&["check", flag, "--all", good.path(), bad.path()], None);
        assert_eq!((run.code, run.out(), &*run.stderr), (1, "", ""));
    }
    let run = u8x(&["check", "-q", good.path()], None);
    assert_eq!((run.code, run.out()), (0, ""));
    let run = u8x(&["check", "-aq", bad.path()], None);
    assert_eq!((run.code, run.out()), (1, ""));
}

#[test]
fn check_missing_file_is_reported_and_the_others_still_checked() {
    let bad = TempFile::new("b.txt", b"\xC0");
    let good = TempFile::new("g.txt", b"fine");
    let missing = TempFile::absent("missing.txt");
    let run = u8x(&["check", missing.path(), bad.path(), good.path()], None);
    assert_eq!(run.code, 2, "an unreadable file wins over an invalid one");
    assert_eq!(
        run.stderr,
        format!("u8x: {}: No such file or directory\n", missing.path())
    );
    assert_eq!(
        run.out(),
        format!(
            "{}:1:1: byte offset 0: byte never valid in UTF-8 (bytes C0)\n",
            bad.path()
        )
    );
    // Even quiet, an I/O error is an error.
    let run = u8x(&["check", "-q", good.path(), missing.path()], None);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("No such file or directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_directory_is_an_io_error() {
    let dir = std::env::temp_dir();
    let run = u8x(&["check", dir.to_str().unwrap()], None);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("u8x: {}: Is a directory\n", dir.display())
    );
}

#[test]
fn check_reads_stdin() {
    let input = b"ok\n\xE2\x28\xA1";
    for args in [
        &["check"][..],
        &["check", "-"],
        &["check", "--all", "--", "-"],
    ] {
        let run = u8x(args, Some(input));
        assert_eq!(run.code, 1);
        let first = "(standard input):2:1: byte offset 3: sequence cut short by a non-continuation byte (bytes E2)\n";
        assert!(run.out().starts_with(first), "{args:?}: {}", run.out());
    }
    let run = u8x(&["check"], Some("ça va\n".as_bytes()));
    assert_eq!((run.code, run.out()), (0, ""));
}

/// A file longer than a chunk: `prefix` fills the first chunk up to
/// `CHUNK - before` bytes, then `tail` follows.
fn across_edge(before: usize, tail: &[u8]) -> Vec<u8> {
    // 99 characters and a newline per line, then ASCII up to the edge.
    let mut data = Vec::new();
    while data.len() + 100 <= CHUNK - before {
        data.extend_from_slice(&[b'a'; 99]);
        data.push(b'\n');
    }
    data.resize(CHUNK - before, b'b');
    data.extend_from_slice(tail);
    data
}

#[test]
fn check_positions_across_chunk_edges() {
    let lines = (CHUNK / 100) as u64 + 1; // the line the edge is on
    let col0 = (CHUNK % 100) as u64 + 1; // its column at the edge, ASCII only
    let cases: &[(usize, &[u8], &str)] = &[
        // The error is the first byte of the second chunk.
        (0, b"\x80tail", "unexpected continuation byte (bytes 80)"),
        // A 3-byte character split 2+1 by the edge, then an error.
        (
            2,
            b"\xE2\x82\xACz\xFF",
            "byte never valid in UTF-8 (bytes FF)",
        ),
        // A 4-byte character split 1+3, then an error.
        (
            1,
            b"\xF0\x9F\x98\x80\xC1",
            "byte never valid in UTF-8 (bytes C1)",
        ),
        // A truncated sequence cut by the edge: its bytes straddle it.
        (
            2,
            b"\xE2\x82z",
            "sequence cut short by a non-continuation byte (bytes E2 82)",
        ),
        (
            1,
            b"\xF0\x9F\x98z",
            "sequence cut short by a non-continuation byte (bytes F0 9F 98)",
        ),
        // The file ends inside a sequence just after the edge.
        (
            1,
            b"\xF0\x9F\x98",
            "input ends inside a sequence (bytes F0 9F 98)",
        ),
    ];
    for &(before, tail, what) in cases {
        let data = across_edge(before, tail);
        let f = TempFile::new("edge.txt", &data);
        let run = u8x(&["check", f.path()], None);
        assert_eq!(run.code, 1, "{what}");
        let bad = &std_errors(&data)[0];
        let chars_before = std::str::from_utf8(&data[CHUNK - before..bad.offset])
            .unwrap()
            .chars()
            .count() as u64;
        let column = col0 - before as u64 + chars_before;
        assert_eq!(
            run.out(),
            format!(
                "{}:{lines}:{column}: byte offset {}: {what}\n",
                f.path(),
                bad.offset
            )
        );
        assert_eq!(
            run.out(),
            expected_report(f.path(), &data)
                .lines()
                .next()
                .unwrap()
                .to_string()
                + "\n"
        );
    }
}

#[test]
fn check_all_matches_std_on_large_damaged_text() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (len, damage) in [(5 * CHUNK + 123, 2), (3 * CHUNK, 40)] {
        let data = rng.text(len, damage);
        let f = TempFile::new("big.txt", &data);
        let run = u8x(&["check", "--all", f.path()], None);
        let expected = expected_report(f.path(), &data);
        assert!(!expected.is_empty());
        assert_eq!(run.code, 1);
        assert_eq!(run.out(), expected);
        // The same through stdin, which delivers it in pipe-sized pieces.
        let piped = u8x(&["check", "--all"], Some(&data));
        assert_eq!(piped.out(), expected_report("(standard input)", &data));
    }
}

#[test]
fn check_kuhn_stress_test() {
    let Some(data) = kuhn() else {
        eprintln!("UTF-8-test.txt not found; skipped");
        return;
    };
    let f = TempFile::new("kuhn.txt", &data);
    let run = u8x(&["check", "--all", f.path()], None);
    assert_eq!(run.code, 1);
    assert_eq!(run.out(), expected_report(f.path(), &data));
}

// --------------------------------------------------------------- fix

#[test]
fn fix_replace_matches_from_utf8_lossy() {
    let mut rng = Rng(42);
    let mut inputs = vec![
        rng.text(3 * CHUNK + 17, 30),
        across_edge(2, b"\xE2\x82z\xE2\x82"),
    ];
    inputs.extend(kuhn());
    for data in inputs {
        let f = TempFile::new("fix.txt", &data);
        let n = std_errors(&data).len();
        for args in [
            &["fix", f.path()][..],
            &["fix", "--policy", "replace", f.path()],
        ] {
            let run = u8x(args, None);
            assert_eq!(run.code, 1, "something was repaired");
            assert_eq!(run.out(), String::from_utf8_lossy(&data));
            assert_eq!(run.stderr, format!("u8x: fixed {n} ill-formed sequences\n"));
        }
    }
}

#[test]
fn fix_latin1_cp1252_and_escape() {
    let mut rng = Rng(7);
    let data = rng.text(2 * CHUNK + 5, 50);
    let f = TempFile::new("fix2.txt", &data);
    let n = std_errors(&data).len();
    let cases: [(&str, String); 3] = [
        ("latin1", per_byte_fix(&data, |b| char::from(b).to_string())),
        ("cp1252", per_byte_fix(&data, |b| cp1252(b).to_string())),
        ("escape", per_byte_fix(&data, |b| format!("\\x{b:02x}"))),
    ];
    for (policy, expected) in cases {
        let run = u8x(&["fix", &format!("--policy={policy}"), f.path()], None);
        assert_eq!(run.code, 1, "{policy}");
        assert!(run.out() == expected, "{policy}: output differs");
        assert_eq!(run.stderr, format!("u8x: fixed {n} ill-formed sequences\n"));
    }
    // Dropped, counted all the same; Python's errors="ignore" when it is here.
    let run = u8x(&["fix", "--policy=ignore", f.path()], None);
    assert_eq!(run.code, 1);
    assert!(
        run.out() == per_byte_fix(&data, |_| String::new()),
        "ignore: output differs"
    );
    assert_eq!(run.stderr, format!("u8x: fixed {n} ill-formed sequences\n"));
    if let Some(python) = python("data.decode('utf-8', 'ignore').encode('utf-8')", &data) {
        assert!(run.stdout == python, "ignore differs from Python");
    }
    let run = u8x(&["fix", "--policy", "escape"], Some(b"a\xC3(\xF0\x9F\x98"));
    assert_eq!(run.out(), "a\\xc3(\\xf0\\x9f\\x98");
    assert_eq!(run.stderr, "u8x: fixed 2 ill-formed sequences\n");
    // What the help promises: Python's backslashreplace, byte for byte.
    let expression = "data.decode('utf-8', 'backslashreplace').encode('utf-8')";
    if let Some(python) = python(expression, &data) {
        let run = u8x(&["fix", "--policy=escape", f.path()], None);
        assert!(run.stdout == python, "escape differs from Python");
    }
}

#[test]
fn fix_output_file_quiet_and_summary() {
    let input = TempFile::new("in.txt", b"caf\xE9\n");
    let out = TempFile::absent("out.txt");
    let run = u8x(
        &["fix", "--policy", "cp1252", "-o", out.path(), input.path()],
        None,
    );
    assert_eq!((run.code, run.out()), (1, ""));
    assert_eq!(run.stderr, "u8x: fixed 1 ill-formed sequence\n");
    assert_eq!(out.read(), "café\n".as_bytes());
    let run = u8x(&["fix", "-q", "--output", out.path(), input.path()], None);
    assert_eq!((run.code, run.out(), &*run.stderr), (1, "", ""));
    assert_eq!(out.read(), "caf\u{FFFD}\n".as_bytes());
    // Valid input: copied as is, no summary.
    let run = u8x(&["fix"], Some("déjà vu\u{FEFF}".as_bytes()));
    assert_eq!(
        (run.code, run.out(), &*run.stderr),
        (0, "déjà vu\u{FEFF}", "")
    );
}

/// The exit status of `fix` is that of `check` on the same input: 0 when it
/// was valid (the output is a copy), 1 when sequences were repaired (the
/// repaired output is written all the same), 2 on trouble.
#[test]
fn fix_exit_status_tells_whether_anything_was_repaired() {
    for (input, code) in [(&b""[..], 0), (b"valid \xC3\xA9\n", 0), (b"bad \xE9\n", 1)] {
        let check = u8x(&["check", "-q"], Some(input));
        assert_eq!(check.code, code, "check {input:02X?}");
        let fix = u8x(&["fix", "-q"], Some(input));
        assert_eq!(fix.code, code, "fix {input:02X?}");
        assert_eq!(fix.out(), String::from_utf8_lossy(input));
    }
    let dir = TempDir::new("status");
    let out = dir.file("out.txt", b"old\n");
    let run = u8x(&["fix", "-o", out.to_str().unwrap()], Some(b"a\xFFb\xFF"));
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr, "u8x: fixed 2 ill-formed sequences\n");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        "a\u{FFFD}b\u{FFFD}".as_bytes()
    );
    assert_eq!(dir.names(), ["out.txt"]);
    let help = u8x(&["help", "fix"], None);
    assert!(help
        .out()
        .contains("Exit status: 0 if the input was already valid"));
    let help = u8x(&["--help"], None);
    assert!(help.out().contains("fix: input repaired, output written"));
}

#[test]
fn fix_refuses_to_overwrite_its_input() {
    let f = TempFile::new("same.txt", b"x\xFF");
    let run = u8x(&["fix", "-o", f.path(), f.path()], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("same file"), "{}", run.stderr);
    assert_eq!(f.read(), b"x\xFF");
}

/// Another name for the input, of every kind, is refused before OUT is
/// touched, by every converting command.
#[test]
fn converting_commands_refuse_any_name_of_their_input() {
    let dir = TempDir::new("same");
    let input = dir.file("in.txt", b"hi \xFF\n");
    let hard = dir.path("hard.txt");
    std::fs::hard_link(&input, &hard).unwrap();
    let soft = dir.path("soft.txt");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    for command in ["fix", "decode", "encode"] {
        for out in [&input, &hard, &soft] {
            let out = out.to_str().unwrap();
            for how in ["named", "stdin"] {
                let run = match how {
                    "named" => u8x(&[command, input.to_str().unwrap(), "-o", out], None),
                    _ => u8x_with_stdin(&[command, "-o", out], &input),
                };
                assert_eq!(run.code, 2, "{command} {how} -o {out}: {}", run.stderr);
                assert!(
                    run.stderr.contains("input and output are the same file"),
                    "{command} {how} -o {out}: {}",
                    run.stderr
                );
                assert_eq!(std::fs::read(&input).unwrap(), b"hi \xFF\n");
            }
        }
    }
    assert_eq!(dir.names(), ["hard.txt", "in.txt", "soft.txt"]);
}

/// Standard input that is not a regular file (a pipe here, a terminal or
/// /dev/null elsewhere) cannot be overwritten by OUT and is not refused.
#[test]
fn stdin_that_is_not_a_file_is_not_refused() {
    let dir = TempDir::new("pipe");
    let out = dir.path("out.txt");
    let run = u8x(&["fix", "-o", out.to_str().unwrap()], Some(b"ok\n"));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert_eq!(std::fs::read(&out).unwrap(), b"ok\n");
    let null = Path::new("/dev/null");
    let run = u8x_with_stdin(&["fix", "-o", "/dev/null"], null);
    assert_eq!((run.code, &*run.stderr), (0, ""));
}

#[test]
fn fix_missing_input_creates_no_output() {
    let missing = TempFile::absent("nope.txt");
    let out = TempFile::absent("never.txt");
    let run = u8x(&["fix", "-o", out.path(), missing.path()], None);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("u8x: {}: No such file or directory\n", missing.path())
    );
    assert!(!out.0.exists());
}

// ----------------------------------------------------- decode, encode

#[test]
fn decode_strict_writes_utf32le() {
    let text = "a\u{E9}\u{20AC}\u{1F600}\n\u{FEFF}\u{10FFFF}";
    let run = u8x(&["decode"], Some(text.as_bytes()));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert_eq!(run.stdout, utf32le(text));
}

#[test]
fn decode_strict_stops_at_the_first_error() {
    let f = TempFile::new("d.txt", b"ab\xE2\x82\xACc\xF0\x80\x80\x80d");
    let run = u8x(&["decode", "--policy", "strict", f.path()], None);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!("u8x: {}:1:5: byte offset 6: overlong encoding\n", f.path())
    );
    assert_eq!(
        run.stdout,
        utf32le("ab€c"),
        "the output before the error is on standard output"
    );
    // Across a chunk edge, from stdin.
    let data = across_edge(1, b"\xF0\x9F\x98\x80\xF0\x9F\x98z");
    let run = u8x(&["decode"], Some(&data));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "u8x: (standard input):{}: byte offset {}: sequence cut short by a \
             non-continuation byte\n",
            line_col(&data, CHUNK + 3),
            CHUNK + 3
        )
    );
    assert_eq!(
        run.stdout,
        utf32le(std::str::from_utf8(&data[..CHUNK + 3]).unwrap())
    );
}

#[test]
fn decode_policies() {
    let mut rng = Rng(99);
    let data = rng.text(2 * CHUNK + 3, 20);
    let f = TempFile::new("dp.txt", &data);
    let lossy = String::from_utf8_lossy(&data);
    let n = std_errors(&data).len();
    let cases: [(&str, Vec<u8>, String); 5] = [
        (
            "replace",
            utf32le(&lossy),
            told("replaced", n, sequences(n), ""),
        ),
        (
            "latin1",
            utf32le(&per_byte_fix(&data, |b| char::from(b).to_string())),
            told("decoded", n, sequences(n), " as ISO-8859-1"),
        ),
        (
            "cp1252",
            utf32le(&per_byte_fix(&data, |b| cp1252(b).to_string())),
            told("decoded", n, sequences(n), " as windows-1252"),
        ),
        (
            "escape",
            escape_decode(&data),
            told("escaped", n, sequences(n), ""),
        ),
        (
            "ignore",
            utf32le(&per_byte_fix(&data, |_| String::new())),
            told("dropped", n, sequences(n), ""),
        ),
    ];
    for (policy, expected, summary) in cases {
        let run = u8x(&["decode", "--policy", policy, f.path()], None);
        assert_eq!((run.code, &*run.stderr), (0, &*summary), "{policy}");
        assert!(run.stdout == expected, "{policy}: output differs");
        let run = u8x(&["decode", "-q", "--policy", policy, f.path()], None);
        assert_eq!((run.code, &*run.stderr), (0, ""), "{policy} -q");
        assert!(run.stdout == expected, "{policy} -q: output differs");
    }
}

#[test]
fn escape_round_trips_random_bytes() {
    let mut rng = Rng(2024);
    let mut data = rng.bytes(3 * CHUNK + 1);
    // Some text too, so that decoding has valid sequences to keep.
    data.extend(rng.text(CHUNK, 10));
    let f = TempFile::new("rand.bin", &data);
    let mid = TempFile::absent("rand.u32");
    let back = TempFile::absent("rand.back");
    let run = u8x(
        &["decode", "--policy", "escape", "-o", mid.path(), f.path()],
        None,
    );
    let n = std_errors(&data).len();
    let summary = told("escaped", n, sequences(n), "");
    assert_eq!((run.code, &*run.stderr), (0, &*summary));
    assert!(mid.read() == escape_decode(&data));
    let run = u8x(
        &[
            "encode",
            "--policy",
            "escape",
            "-o",
            back.path(),
            mid.path(),
        ],
        None,
    );
    // Each lone surrogate U+DC80..U+DCFF escaped back into its byte.
    let units = escape_code_points(&data);
    let lone = units.iter().filter(|&&u| (0xDC80..=0xDCFF).contains(&u));
    let summary = told("escaped", lone.count(), "invalid units", "");
    assert_eq!((run.code, &*run.stderr), (0, &*summary));
    assert!(back.read() == data, "escape round trip");
    // And through pipes.
    let run = u8x(&["encode", "--policy=escape", "-"], Some(&mid.read()));
    assert!(run.code == 0 && run.stdout == data);
}

#[test]
fn encode_valid_and_round_trip() {
    let mut rng = Rng(5);
    let text = String::from_utf8_lossy(&rng.text(CHUNK + 999, 0)).into_owned();
    let utf32 = utf32le(&text);
    let run = u8x(&["encode"], Some(&utf32));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert!(run.stdout == text.as_bytes());
    let run = u8x(&["decode"], Some(text.as_bytes()));
    assert!(run.stdout == utf32);
}

#[test]
fn encode_strict_reports_unit_index_and_value() {
    let units = [0x41, 0x20AC, 0xD800, 0x42];
    let f = TempFile::new("e.u32", &units_le(&units));
    let run = u8x(&["encode", f.path()], None);
    assert_eq!(run.code, 1);
    assert_eq!(run.out(), "A€", "the output before the error stays");
    assert_eq!(
        run.stderr,
        format!(
            "u8x: {}: unit 2 (byte offset 8): surrogate (value 0x0000D800)\n",
            f.path()
        )
    );
    // Above U+10FFFF, beyond the first chunk.
    let mut units = vec![0x263A; CHUNK / 4 + 10];
    units.push(0x110000);
    let run = u8x(&["encode"], Some(&units_le(&units)));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "u8x: (standard input): unit {} (byte offset {}): value above U+10FFFF (value 0x00110000)\n",
            units.len() - 1,
            4 * (units.len() - 1)
        )
    );
    assert_eq!(run.out(), "☺".repeat(units.len() - 1));
}

#[test]
fn encode_replace_and_escape_policies() {
    let units = [0x61, 0xDC80, 0xFFFF_FFFF, 0xDFFF, 0xDCFF, 0x62];
    let run = u8x(&["encode", "--policy", "replace"], Some(&units_le(&units)));
    assert_eq!(run.code, 0);
    assert_eq!(run.out(), "a\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}b");
    assert_eq!(run.stderr, "u8x: replaced 4 invalid units\n");
    let run = u8x(&["encode", "--policy", "ignore"], Some(&units_le(&units)));
    assert_eq!((run.code, run.out()), (0, "ab"));
    assert_eq!(run.stderr, "u8x: dropped 4 invalid units\n");
    // What was escaped before the stop is told first.
    let run = u8x(&["encode", "--policy", "escape"], Some(&units_le(&units)));
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, b"a\x80");
    assert_eq!(
        run.stderr,
        "u8x: escaped 1 invalid unit\n\
         u8x: (standard input): unit 2 (byte offset 8): value above U+10FFFF (value 0xFFFFFFFF)\n"
    );
}

#[test]
fn encode_rejects_a_length_not_multiple_of_4() {
    let mut input = units_le(&[0x68, 0x69]);
    input.extend_from_slice(&[0x21, 0, 0]);
    let run = u8x(&["encode"], Some(&input));
    assert_eq!(run.code, 1);
    assert_eq!(run.out(), "hi", "the complete units are encoded");
    assert_eq!(
        run.stderr,
        "u8x: (standard input): input length 11 is not a multiple of 4, so not UTF-32LE \
         (the last 3 bytes were not encoded)\n"
    );
}

/// Decodes a generated ~50 MB stream from stdin under a virtual-memory limit
/// far below what holding the input (or its 200 MB of output) would need.
#[cfg(target_os = "linux")]
#[test]
fn decode_streams_in_constant_memory() {
    // Valid text in blocks of about (never exactly) a chunk.
    let block = Rng(11).text(CHUNK - 3, 0);
    let expected = utf32le(std::str::from_utf8(&block).unwrap());
    stream_under_limit("decode --policy replace", block, &expected, 50 << 20);
}

/// How much `ulimit -v` room (KiB) the environment itself takes beyond the
/// 48 MiB that `u8x --version` needs natively: none on a real machine;
/// under an emulator such as qemu-user, whose own code buffer counts
/// against the limit, the smallest of a few steps that lets it start.
#[cfg(target_os = "linux")]
fn emulator_vm_kib() -> usize {
    for extra_mib in [0usize, 64, 256, 1024, 4096] {
        let kib = (48 + extra_mib) * 1024;
        let starts = Command::new("/bin/sh")
            .args([
                "-c",
                &format!("ulimit -v {kib} && exec \"$0\" --version"),
                env!("CARGO_BIN_EXE_u8x"),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if starts {
            return extra_mib * 1024;
        }
    }
    panic!("u8x --version does not start even under a 4 GiB ulimit -v");
}

/// Feeds `block` again and again (`total` bytes, or a block more) to
/// `u8x ARGS` on standard input, under a 48 MiB `ulimit -v` (plus what an
/// emulator needs, see [`emulator_vm_kib`]), and checks that the output is
/// `expected` (one block converted) as many times, without holding either
/// stream.
#[cfg(target_os = "linux")]
fn stream_under_limit(args: &str, block: Vec<u8>, expected: &[u8], total: usize) {
    let limit_kib = 48 * 1024 + emulator_vm_kib();
    let script = format!("ulimit -v {limit_kib} && exec \"$0\" {args}");
    let mut child = Command::new("/bin/sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_u8x")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("/bin/sh runs");
    let mut stdin = child.stdin.take().unwrap();
    let block_len = block.len();
    let feeder = std::thread::spawn(move || {
        let mut sent = 0;
        while sent < total {
            if stdin.write_all(&block).is_err() {
                break;
            }
            sent += block.len();
        }
        sent
    });
    let mut stdout = child.stdout.take().unwrap();
    let (mut buf, mut received) = (vec![0u8; 1 << 16], 0usize);
    let mut first_difference = None;
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        for (i, &b) in buf[..n].iter().enumerate() {
            let at = received + i;
            if first_difference.is_none() && b != expected[at % expected.len()] {
                first_difference = Some(at);
            }
        }
        received += n;
    }
    let sent = feeder.join().unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{args}: {status}: {stderr}");
    assert!(sent >= total);
    assert_eq!(received, expected.len() * (sent / block_len), "{args}");
    assert_eq!(first_difference, None, "{args}: output differs");
}

// ----------------------------------------------------- output files

/// Runs `u8x args...` through `sh -c PREFIX; exec u8x "$@"`, where `prefix`
/// sets limits the child inherits.
fn u8x_under(prefix: &str, args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("{prefix} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("/bin/sh runs");
    Run {
        code: status.code().expect("u8x exits normally"),
        stdout,
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// Asserts that `out` still holds "old\n", without printing a megabyte if not.
fn assert_old(out: &Path, context: &str) {
    let now = std::fs::read(out).unwrap();
    assert!(
        now == b"old\n",
        "{context}: the old output is gone: {} bytes now",
        now.len()
    );
}

/// A write that fails midway (EFBIG under RLIMIT_FSIZE: a full disk that
/// needs no privileges) leaves the old OUT as it was and no temporary file.
#[test]
fn a_failed_write_leaves_the_old_output_intact() {
    let dir = TempDir::new("efbig");
    let input = dir.file("in.txt", &Rng(3).text(1 << 20, 0));
    let out = dir.file("out.txt", b"old\n");
    // 64 blocks of 512 or 1024 bytes, far less than the output. SIGXFSZ
    // has its default action here: u8x ignores it, so the write fails with
    // EFBIG and the usual clean-up runs.
    let limit = "ulimit -f 64";
    for command in ["fix", "decode"] {
        let run = u8x_under(
            limit,
            &[
                command,
                "-o",
                out.to_str().unwrap(),
                input.to_str().unwrap(),
            ],
        );
        assert_eq!(run.code, 2, "{command}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("u8x: {}: File too large\n", out.display()),
            "{command}"
        );
        assert_old(&out, command);
        assert_eq!(dir.names(), ["in.txt", "out.txt"], "{command}");
    }
}

/// A tmpfs mounted on a directory, unmounted when dropped.
struct Mount(TempDir);

impl Mount {
    /// `None` (with the reason) when mounting is not permitted.
    fn tmpfs(size: &str) -> Result<Mount, String> {
        let dir = TempDir::new("tmpfs");
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir.0)
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            return Err(stderr.lines().next().unwrap_or_default().to_string());
        }
        Ok(Mount(dir))
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0 .0).status();
    }
}

/// The same on a really full file system: a 256 KiB tmpfs (needs root).
#[test]
fn a_full_file_system_leaves_the_old_output_intact() {
    let mount = match Mount::tmpfs("256k") {
        Ok(mount) => mount,
        Err(why) => {
            eprintln!("cannot mount a tmpfs ({why}); skipped");
            return;
        }
    };
    let dir = TempDir::new("enospc");
    let input = dir.file("in.txt", &Rng(4).text(1 << 20, 1));
    let out = mount.0.file("out.txt", b"old\n");
    let run = u8x(
        &["fix", "-o", out.to_str().unwrap(), input.to_str().unwrap()],
        None,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!("u8x: {}: No space left on device\n", out.display())
    );
    assert_old(&out, "");
    assert_eq!(mount.0.names(), ["out.txt"]);
}

/// An input that fails to read (a directory) leaves OUT as it was.
#[test]
fn an_input_error_leaves_the_old_output_intact() {
    let dir = TempDir::new("eisdir");
    let out = dir.file("out.txt", b"old\n");
    let input = dir.path("sub");
    std::fs::create_dir(&input).unwrap();
    for command in ["fix", "decode", "encode"] {
        let run = convert_into(command, &out, &input);
        assert_eq!(run.code, 2, "{command}");
        assert_eq!(
            run.stderr,
            format!("u8x: {}: Is a directory\n", input.display())
        );
        assert_old(&out, command);
        assert_eq!(dir.names(), ["out.txt", "sub"], "{command}");
    }
}

/// Strict decode and encode that stop early leave OUT as it was: only a
/// conversion of the whole input replaces it.
#[test]
fn an_incomplete_conversion_leaves_the_old_output_intact() {
    let dir = TempDir::new("strict");
    let out = dir.file("out.bin", b"old\n");
    let cases: [(&str, &[u8], &str); 3] = [
        (
            "decode",
            b"ab\xF0\x80\x80\x80d",
            ":1:3: byte offset 2: overlong encoding",
        ),
        (
            "encode",
            &[0x41, 0, 0, 0, 0, 0xD8, 0, 0],
            ": unit 1 (byte offset 4): surrogate (value 0x0000D800)",
        ),
        (
            "encode",
            &[0x41, 0, 0, 0, 0x42],
            ": input length 5 is not a multiple of 4, so not UTF-32LE \
             (the last 1 bytes were not encoded)",
        ),
    ];
    for (command, data, message) in cases {
        let input = dir.file("in.bin", data);
        let run = convert_into(command, &out, &input);
        assert_eq!(run.code, 1, "{command} {message}");
        assert_eq!(
            run.stderr,
            format!(
                "u8x: {}{message}\n\
                 u8x: {}: left unchanged (the input was not converted to its end)\n",
                input.display(),
                out.display()
            )
        );
        assert_old(&out, message);
        assert_eq!(dir.names(), ["in.bin", "out.bin"], "{message}");
    }
    let help = u8x(&["help", "decode"], None);
    assert!(help
        .out()
        .contains("a file\n           OUT is left unchanged"));
    // A new OUT is not created either.
    let new = dir.path("new.bin");
    let run = u8x(&["decode", "-o", new.to_str().unwrap()], Some(b"\xFF"));
    assert_eq!(run.code, 1);
    assert!(!new.exists());
}

/// Devices are written in place: /dev/full reports the error, /dev/null
/// stays a device (renaming a temporary file over it would replace it).
#[test]
fn output_to_a_device_is_written_directly() {
    let run = u8x(&["fix", "-o", "/dev/full"], Some(b"text\n"));
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "u8x: /dev/full: No space left on device\n");
    let run = u8x(&["decode", "-o", "/dev/null"], Some(b"text\n"));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    // A magic link to a pipe, whose target ("pipe:[N]") is no path.
    let run = u8x(&["fix", "-o", "/dev/stdout"], Some(b"text\n"));
    assert_eq!((run.code, run.out(), &*run.stderr), (0, "text\n", ""));
    use std::os::unix::fs::FileTypeExt;
    for device in ["/dev/full", "/dev/null"] {
        let kind = std::fs::metadata(device).unwrap().file_type();
        assert!(kind.is_char_device(), "{device} is still a device");
    }
}

/// A FIFO is written in place too, for its reader.
#[test]
fn output_to_a_fifo_is_written_directly() {
    let dir = TempDir::new("fifo");
    let fifo = dir.path("fifo");
    match Command::new("mkfifo").arg(&fifo).status() {
        Ok(status) if status.success() => {}
        other => {
            eprintln!("mkfifo failed ({other:?}); skipped");
            return;
        }
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let run = u8x(&["decode", "-o", fifo.to_str().unwrap()], Some(b"ab"));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert_eq!(reader.join().unwrap(), utf32le("ab"));
    assert_eq!(dir.names(), ["fifo"]);
}

/// OUT in a directory that does not exist: exit 2, nothing created.
#[test]
fn output_in_a_missing_directory_creates_nothing() {
    let dir = TempDir::new("nodir");
    let input = dir.file("in.txt", b"text\n");
    let out = dir.path("missing/out.txt");
    let run = u8x(
        &["fix", "-o", out.to_str().unwrap(), input.to_str().unwrap()],
        None,
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("u8x: {}: No such file or directory\n", out.display())
    );
    assert_eq!(dir.names(), ["in.txt"]);
}

/// Replacing OUT keeps its permission bits, gives a new OUT those of
/// File::create, and writes through a symbolic link to the file it names.
#[test]
fn output_keeps_permissions_and_symbolic_links() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let dir = TempDir::new("perms");
    let input = dir.file("in.txt", b"text\n");
    let run_to = |out: &Path| {
        let run = u8x(
            &["fix", "-o", out.to_str().unwrap(), input.to_str().unwrap()],
            None,
        );
        assert_eq!((run.code, &*run.stderr), (0, ""));
        assert_eq!(std::fs::read(out).unwrap(), b"text\n");
    };
    let kept = dir.file("kept.txt", b"old\n");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    run_to(&kept);
    assert_eq!(mode(&kept), 0o640);
    // The mode File::create gives under this process's umask, inherited.
    let probe = dir.path("probe");
    std::fs::File::create(&probe).unwrap();
    let new = dir.path("new.txt");
    run_to(&new);
    assert_eq!(mode(&new), mode(&probe));
    std::fs::remove_file(&probe).unwrap();
    let link = dir.path("link.txt");
    std::os::unix::fs::symlink("kept.txt", &link).unwrap();
    std::fs::write(&kept, b"old\n").unwrap();
    run_to(&link);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&kept).unwrap(), b"text\n");
    assert_eq!(mode(&kept), 0o640);
    assert_eq!(dir.names(), ["in.txt", "kept.txt", "link.txt", "new.txt"]);
}

/// A read-only OUT is refused, as opening it for writing would be, although
/// its directory would allow replacing it.
#[test]
fn read_only_output_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("ro");
    let input = dir.file("in.txt", b"text\n");
    let out = dir.file("out.txt", b"old\n");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
    if std::fs::OpenOptions::new().write(true).open(&out).is_ok() {
        eprintln!("running with privileges that ignore file modes; skipped");
        return;
    }
    let run = u8x(
        &["fix", "-o", out.to_str().unwrap(), input.to_str().unwrap()],
        None,
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("u8x: {}: Permission denied\n", out.display())
    );
    assert_old(&out, "");
}

// -------------------------------------------------- usage and help

#[test]
fn usage_errors_exit_2_with_usage_on_stderr() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["frobnicate"],
            "error: unrecognized subcommand 'frobnicate'",
        ),
        (
            &["--frobnicate"],
            "error: unexpected argument '--frobnicate'",
        ),
        (
            &["check", "--bogus"],
            "error: unexpected argument '--bogus'",
        ),
        (&["check", "-x"], "error: unexpected argument '-x'"),
        (
            &["check", "-j", "0"],
            "error: invalid value '0' for '--jobs <N>'",
        ),
        (
            &["check", "-q", "--json"],
            "error: the argument '--quiet' cannot be used",
        ),
        (
            &["check", "-l", "-a"],
            "error: the argument '--list' cannot be used",
        ),
        (
            &["fix", "--policy", "strict"],
            "error: invalid value 'strict'",
        ),
        (
            &["fix", "--policy"],
            "error: a value is required for '--policy <POLICY>'",
        ),
        (
            &["decode", "--policy", "nope"],
            "error: invalid value 'nope'",
        ),
        (&["decode", "a", "b"], "error: unexpected argument 'b'"),
        (&["help", "nope"], "error: unrecognized subcommand 'nope'"),
        (
            &["convert", "--to", "utf-8"],
            "error: the following required arguments",
        ),
        (&["completions", "tcsh"], "error: invalid value 'tcsh'"),
    ];
    for &(args, message) in cases {
        let run = u8x(args, None);
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.out(), "", "{args:?}");
        assert!(run.stderr.starts_with(message), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("try '--help'"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // No command: the short help, on standard error, status 2.
    let run = u8x(&[], None);
    assert_eq!((run.code, run.out()), (2, ""));
    assert!(
        run.stderr.contains("Usage: u8x <COMMAND>"),
        "{}",
        run.stderr
    );
}

#[test]
fn help_and_version() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let run = u8x(args, None);
        assert_eq!((run.code, &*run.stderr), (0, ""));
        for command in ["check", "fix", "decode", "encode", "convert"] {
            assert!(run.out().contains(&format!("\n  {command} ")), "{args:?}");
        }
    }
    for command in ["check", "fix", "decode", "encode", "convert"] {
        let help = u8x(&["help", command], None);
        assert_eq!(help.code, 0);
        assert!(help
            .out()
            .contains(&format!("Usage: u8x {command} [OPTIONS]")));
        let flag = u8x(&[command, "--help"], None);
        assert_eq!(flag.out(), help.out());
        // -h is the summary: no long text.
        let short = u8x(&[command, "-h"], None);
        assert!(short.out().len() < help.out().len(), "{command}");
    }
    assert!(u8x(&["help", "check"], None)
        .out()
        .contains("characters (code points)"));
    assert!(u8x(&["help", "fix"], None).out().contains("\\xhh"));
    for args in [&["--version"][..], &["-V"]] {
        let run = u8x(args, None);
        assert_eq!(run.code, 0);
        // SAFETY: u8x_version returns a static NUL-terminated string.
        let version = unsafe { CStr::from_ptr(u8x::ffi::u8x_version()) };
        assert_eq!(run.out(), format!("u8x {}\n", version.to_str().unwrap()));
    }
}

// ------------------------------------- decode --to, encode --from forms

#[test]
fn decode_to_utf16_writes_units_in_either_order() {
    let text = "a\u{E9}\u{20AC}\u{1F600}\n\u{FEFF}\u{10FFFF}";
    for (form, big) in UTF16_FORMS {
        let run = u8x(&["decode", "--to", form], Some(text.as_bytes()));
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert_eq!(run.stdout, utf16(text, big), "{form}");
    }
    // By hand: a, €, then U+1F600 as the pair D83D DE00.
    let run = u8x(&["decode", "--to=utf-16le"], Some("a€😀".as_bytes()));
    assert_eq!(run.stdout, b"\x61\x00\xAC\x20\x3D\xD8\x00\xDE");
    let run = u8x(&["decode", "--to", "utf-16be"], Some("a€😀".as_bytes()));
    assert_eq!(run.stdout, b"\x00\x61\x20\xAC\xD8\x3D\xDE\x00");
    // The option's value ignores ASCII case; utf-32le is the default.
    let run = u8x(&["decode", "--to", "UTF-16BE"], Some(b"hi"));
    assert_eq!(run.stdout, b"\x00h\x00i");
    let run = u8x(&["decode", "--to", "utf-32le"], Some(text.as_bytes()));
    assert_eq!(run.stdout, utf32le(text));
}

#[test]
fn decode_to_utf16_strict_names_the_byte_offset() {
    // Across the chunk edge: a 4-byte character split 1+3, then a
    // truncated one.
    let data = across_edge(1, b"\xF0\x9F\x98\x80\xF0\x9F\x98z");
    for (form, big) in UTF16_FORMS {
        let run = u8x(&["decode", "--to", form], Some(&data));
        assert_eq!(run.code, 1, "{form}");
        assert_eq!(
            run.stderr,
            format!(
                "u8x: (standard input):{}: byte offset {}: sequence cut short by a \
                 non-continuation byte\n",
                line_col(&data, CHUNK + 3),
                CHUNK + 3
            )
        );
        let before = std::str::from_utf8(&data[..CHUNK + 3]).unwrap();
        assert!(run.stdout == utf16(before, big), "{form}: output before");
    }
}

#[test]
fn decode_to_utf16_policies_on_large_damaged_text() {
    let data = Rng(0x5EED).text(3 * (1 << 20) + 5, 20);
    // Chunk edges fall inside characters (the first edge for certain;
    // later ones move with what each chunk carries over).
    let inside = (1..data.len() / CHUNK)
        .filter(|k| (data[k * CHUNK] as i8) < -64)
        .count();
    assert!(inside > 8, "only {inside} edges inside characters");
    let f = TempFile::new("d16.txt", &data);
    let lossy = String::from_utf8_lossy(&data);
    let latin1 = per_byte_fix(&data, |b| char::from(b).to_string());
    let cp1252 = per_byte_fix(&data, |b| cp1252(b).to_string());
    let escape = code_points_utf16(&escape_code_points(&data));
    let ignore = per_byte_fix(&data, |_| String::new());
    let n = std_errors(&data).len();
    for (form, big) in UTF16_FORMS {
        let cases: [(&str, Vec<u8>, String); 5] = [
            (
                "replace",
                utf16(&lossy, big),
                told("replaced", n, sequences(n), ""),
            ),
            (
                "latin1",
                utf16(&latin1, big),
                told("decoded", n, sequences(n), " as ISO-8859-1"),
            ),
            (
                "cp1252",
                utf16(&cp1252, big),
                told("decoded", n, sequences(n), " as windows-1252"),
            ),
            (
                "escape",
                units16_bytes(&escape, big),
                told("escaped", n, sequences(n), ""),
            ),
            (
                "ignore",
                utf16(&ignore, big),
                told("dropped", n, sequences(n), ""),
            ),
        ];
        for (policy, expected, summary) in cases {
            let run = u8x(
                &["decode", "--to", form, "--policy", policy, f.path()],
                None,
            );
            assert_eq!((run.code, &*run.stderr), (0, &*summary), "{form} {policy}");
            assert!(run.stdout == expected, "{form} {policy}: output differs");
        }
    }
}

#[test]
fn utf16_round_trips_valid_text() {
    let text = String::from_utf8(Rng(77).text(4 << 20, 0)).unwrap();
    let f = TempFile::new("valid.txt", text.as_bytes());
    for (form, big) in UTF16_FORMS {
        let mid = TempFile::absent("valid.u16");
        let run = u8x(&["decode", "--to", form, "-o", mid.path(), f.path()], None);
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert!(mid.read() == utf16(&text, big), "{form}: UTF-16 differs");
        let run = u8x(&["encode", "--from", form, mid.path()], None);
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert!(run.stdout == text.as_bytes(), "{form}: round trip differs");
        // Through pipes too, which deliver pieces of any size.
        let piped = u8x(&["encode", "--from", form], Some(&mid.read()));
        assert!(piped.code == 0 && piped.stdout == text.as_bytes(), "{form}");
    }
}

#[test]
fn escape_round_trips_random_bytes_through_utf16() {
    let mut rng = Rng(4096);
    let mut data = rng.bytes(3 * CHUNK + 1);
    data.extend(rng.text(CHUNK, 10));
    data.extend(rng.bytes(CHUNK / 2 + 7));
    let f = TempFile::new("rand16.bin", &data);
    let escape = code_points_utf16(&escape_code_points(&data));
    let n = std_errors(&data).len();
    // Counted in the code points: in UTF-16 the low half of a pair can be
    // a unit in DC80..DCFF too.
    let code_points = escape_code_points(&data);
    let lone = code_points
        .iter()
        .filter(|&&u| (0xDC80..=0xDCFF).contains(&u));
    let (decoded, encoded) = (
        told("escaped", n, sequences(n), ""),
        told("escaped", lone.count(), "unpaired surrogates", ""),
    );
    for (form, big) in UTF16_FORMS {
        let mid = TempFile::absent("rand.u16");
        let run = u8x(
            &[
                "decode",
                "--to",
                form,
                "--policy",
                "escape",
                "-o",
                mid.path(),
                f.path(),
            ],
            None,
        );
        assert_eq!((run.code, &*run.stderr), (0, &*decoded), "{form}");
        assert!(mid.read() == units16_bytes(&escape, big), "{form}");
        let run = u8x(
            &["encode", "--from", form, "--policy=escape", mid.path()],
            None,
        );
        assert_eq!((run.code, &*run.stderr), (0, &*encoded), "{form}");
        assert!(run.stdout == data, "{form}: escape round trip");
    }
}

#[test]
fn encode_from_utf16_matches_std_on_large_input() {
    // Valid for the first chunk and more, then with lone surrogates.
    let mut units = Rng(1616).utf16(CHUNK, 0);
    units.extend(Rng(1617).utf16(3 << 20, 2));
    let lossy = utf16_lossy(&units);
    let first_lone = char::decode_utf16(units.iter().copied())
        .scan(0, |index, r| {
            let at = *index;
            *index += r.as_ref().map_or(1, |c| c.len_utf16());
            Some((at, r))
        })
        .find_map(|(at, r)| r.err().map(|e| (at, e.unpaired_surrogate())))
        .expect("some lone surrogate");
    let lone = char::decode_utf16(units.iter().copied())
        .filter(Result::is_err)
        .count();
    let summary = told("replaced", lone, "unpaired surrogates", "");
    assert!(
        first_lone.0 > CHUNK,
        "the first error is beyond the first chunk"
    );
    for (form, big) in UTF16_FORMS {
        let f = TempFile::new("big.u16", &units16_bytes(&units, big));
        let run = u8x(
            &["encode", "--from", form, "--policy", "replace", f.path()],
            None,
        );
        assert_eq!((run.code, &*run.stderr), (0, &*summary), "{form}");
        assert!(run.stdout == lossy, "{form}: output differs");
        let run = u8x(&["encode", "--from", form, f.path()], None);
        assert_eq!(run.code, 1, "{form}");
        let (index, value) = first_lone;
        assert_eq!(
            run.stderr,
            format!(
                "u8x: {}: unit {index} (byte offset {}): unpaired surrogate (value 0x{value:04X})\n",
                f.path(),
                2 * index
            )
        );
        assert!(
            run.stdout == utf16_lossy(&units[..index]),
            "{form}: the UTF-8 before the error"
        );
    }
}

#[test]
fn encode_from_utf16_carries_pairs_across_chunk_edges() {
    let half = CHUNK / 2; // units per chunk
    let (high, low) = (0xD83D, 0xDE00); // U+1F600
                                        // A pair straddling the first edge; after it carries its high half
                                        // over, the second chunk ends 2 bytes earlier: another pair straddles
                                        // that edge.
    let mut units = vec![u16::from(b'a'); half - 1];
    units.extend([high, low]);
    units.resize(2 * half - 2, u16::from(b'b'));
    units.extend([high, low, u16::from(b'c')]);
    let text = format!(
        "{}😀{}😀c",
        "a".repeat(half - 1),
        "b".repeat(2 * half - 2 - (half + 1))
    );
    assert_eq!(String::from_utf16(&units).unwrap(), text);
    // A high surrogate ending the first chunk, not followed by a low one.
    let mut lone = vec![u16::from(b'a'); half - 1];
    lone.extend([high, u16::from(b'x')]);
    // A high surrogate ending the input.
    let mut last = vec![u16::from(b'a'); 3];
    last.push(high);
    for (form, big) in UTF16_FORMS {
        let run = u8x(
            &["encode", "--from", form],
            Some(&units16_bytes(&units, big)),
        );
        assert_eq!((run.code, &*run.stderr), (0, ""), "{form}");
        assert!(run.stdout == text.as_bytes(), "{form}: pairs across edges");
        let lone_bytes = units16_bytes(&lone, big);
        let run = u8x(&["encode", "--from", form], Some(&lone_bytes));
        assert_eq!(run.code, 1, "{form}");
        assert_eq!(
            run.stderr,
            format!(
                "u8x: (standard input): unit {} (byte offset {}): unpaired surrogate \
                 (value 0xD83D)\n",
                half - 1,
                CHUNK - 2
            )
        );
        assert!(run.stdout == "a".repeat(half - 1).as_bytes());
        let run = u8x(
            &["encode", "--from", form, "--policy=replace"],
            Some(&lone_bytes),
        );
        let summary = "u8x: replaced 1 unpaired surrogate\n";
        assert_eq!((run.code, &*run.stderr), (0, summary), "{form}");
        assert!(run.stdout == format!("{}\u{FFFD}x", "a".repeat(half - 1)).as_bytes());
        let run = u8x(
            &["encode", "--from", form],
            Some(&units16_bytes(&last, big)),
        );
        assert_eq!((run.code, run.out()), (1, "aaa"), "{form}");
        assert_eq!(
            run.stderr,
            "u8x: (standard input): unit 3 (byte offset 6): unpaired surrogate (value 0xD83D)\n"
        );
    }
    // The escape policy turns lone U+DC80..U+DCFF into bytes and stops at
    // any other lone surrogate, as strict does.
    let units = [0x41, 0xDC80, 0xDCFF, 0xD83D, 0xDE00, 0xDC7F, 0x42];
    let run = u8x(
        &["encode", "--from", "utf-16le", "--policy", "escape"],
        Some(&units16_bytes(&units, false)),
    );
    assert_eq!(run.code, 1);
    let expected = utf16_escape_encode(&units).unwrap_err();
    assert_eq!(expected, (5, b"A\x80\xFF\xF0\x9F\x98\x80".to_vec()));
    assert_eq!(run.stdout, expected.1);
    assert_eq!(
        run.stderr,
        "u8x: escaped 2 unpaired surrogates\n\
         u8x: (standard input): unit 5 (byte offset 10): unpaired surrogate (value 0xDC7F)\n"
    );
}

#[test]
fn encode_from_utf16_rejects_an_odd_length() {
    for (form, big) in UTF16_FORMS {
        let name = form.to_uppercase();
        let mut input = utf16("hi", big);
        input.push(0x21);
        let run = u8x(&["encode", "--from", form], Some(&input));
        assert_eq!(run.code, 1, "{form}");
        assert_eq!(run.out(), "hi", "the complete units are encoded");
        assert_eq!(
            run.stderr,
            format!(
                "u8x: (standard input): input length 5 is odd, so not {name} \
                 (the last byte was not encoded)\n"
            )
        );
        // A high surrogate before the odd byte is unpaired: strict stops
        // there, replace writes U+FFFD and then reports the length.
        let mut input = units16_bytes(&[0x68, 0xD83D], big);
        input.push(0xDE);
        let run = u8x(&["encode", "--from", form], Some(&input));
        assert_eq!((run.code, run.out()), (1, "h"), "{form}");
        assert_eq!(
            run.stderr,
            "u8x: (standard input): unit 1 (byte offset 2): unpaired surrogate (value 0xD83D)\n"
        );
        let run = u8x(
            &["encode", "--from", form, "--policy", "replace"],
            Some(&input),
        );
        assert_eq!((run.code, run.out()), (1, "h\u{FFFD}"), "{form}");
        assert!(
            run.stderr.contains("input length 5 is odd"),
            "{}",
            run.stderr
        );
        // Long, so the odd byte ends a later chunk; into a file OUT, which
        // is left as it was.
        let text = String::from_utf8(Rng(8).text(2 << 20, 0)).unwrap();
        let mut input = utf16(&text, big);
        input.push(0);
        let dir = TempDir::new("odd");
        let in_path = dir.file("in.u16", &input);
        let out = dir.file("out.txt", b"old\n");
        let run = u8x(
            &[
                "encode",
                "--from",
                form,
                "-o",
                out.to_str().unwrap(),
                in_path.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(run.code, 1, "{form}");
        assert_eq!(
            run.stderr,
            format!(
                "u8x: {}: input length {} is odd, so not {name} (the last byte was not \
                 encoded)\n\
                 u8x: {}: left unchanged (the input was not converted to its end)\n",
                in_path.display(),
                input.len(),
                out.display()
            )
        );
        assert_old(&out, form);
        assert_eq!(dir.names(), ["in.u16", "out.txt"]);
        let run = u8x(&["encode", "--from", form], Some(&input));
        assert_eq!(run.code, 1);
        assert!(run.stdout == text.as_bytes(), "{form}: the complete units");
    }
}

#[test]
fn decode_to_latin1() {
    // Every Latin-1 character, exactly one byte each.
    let all: String = (0..=255u8).map(char::from).collect();
    let run = u8x(&["decode", "--to", "latin1"], Some(all.as_bytes()));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert_eq!(run.stdout, (0..=255u8).collect::<Vec<u8>>());
    // A character above U+00FF just after the chunk edge; its offset.
    for (c, before) in [('€', 1), ('😀', 2), ('\u{100}', 0)] {
        let data = across_edge(before, format!("{c}tail").as_bytes());
        let offset = CHUNK - before;
        let run = u8x(&["decode", "--to", "latin1"], Some(&data));
        assert_eq!(run.code, 1, "{c}");
        assert_eq!(
            run.stderr,
            format!(
                "u8x: (standard input):{}: byte offset {offset}: character not representable \
                 in the output form (U+{:04X} is not in Latin-1)\n",
                line_col(&data, offset),
                u32::from(c)
            )
        );
        assert!(run.stdout == data[..offset], "{c}: the bytes before it");
    }
    // An ill-formed sequence is reported as always.
    let run = u8x(
        &["decode", "--to", "latin1"],
        Some(b"caf\xC3\xA9 \xE9t\xE9"),
    );
    assert_eq!((run.code, run.stdout.as_slice()), (1, &b"caf\xE9 "[..]));
    assert_eq!(
        run.stderr,
        "u8x: (standard input):1:6: byte offset 6: sequence cut short by a non-continuation \
         byte\n"
    );
    // replace: one '?' per character above U+00FF and per maximal subpart.
    let data = Rng(1252).text(2 * (1 << 20) + 3, 20);
    let f = TempFile::new("l1.txt", &data);
    let run = u8x(
        &["decode", "--to", "latin1", "--policy", "replace", f.path()],
        None,
    );
    // Each U+FFFD from_utf8_lossy writes and each character above U+00FF.
    let lossy = String::from_utf8_lossy(&data);
    let n = lossy.chars().filter(|&c| u32::from(c) > 0xFF).count();
    let what = "ill-formed sequences or characters not in Latin-1";
    assert_eq!(
        (run.code, &*run.stderr),
        (0, &*told("replaced", n, what, ""))
    );
    assert!(run.stdout == latin1_lossy(&lossy));
    // ignore: the same ones dropped.
    let run = u8x(
        &["decode", "--to", "latin1", "--policy", "ignore", f.path()],
        None,
    );
    assert_eq!(
        (run.code, &*run.stderr),
        (0, &*told("dropped", n, what, ""))
    );
    let kept = lossy.chars().filter(|&c| u32::from(c) <= 0xFF);
    assert!(run.stdout == kept.map(|c| c as u8).collect::<Vec<u8>>());
    // A strict failure leaves a file OUT as it was.
    let dir = TempDir::new("latin1");
    let out = dir.file("out.bin", b"old\n");
    let input = dir.file("in.txt", "prix: 5 €".as_bytes());
    let run = u8x(
        &[
            "decode",
            "--to",
            "latin1",
            "-o",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "u8x: {}:1:9: byte offset 8: character not representable in the output form \
             (U+20AC is not in Latin-1)\n\
             u8x: {}: left unchanged (the input was not converted to its end)\n",
            input.display(),
            out.display()
        )
    );
    assert_old(&out, "latin1");
}

#[test]
fn encode_from_latin1_takes_any_bytes() {
    let mut data = Rng(88).bytes(3 << 20);
    data.extend(0..=255u8);
    let expected: String = data.iter().map(|&b| char::from(b)).collect();
    let f = TempFile::new("any.l1", &data);
    for policy in ["strict", "replace", "escape"] {
        let run = u8x(
            &["encode", "--from", "latin1", "--policy", policy, f.path()],
            None,
        );
        assert_eq!((run.code, &*run.stderr), (0, ""), "{policy}");
        assert!(
            run.stdout == expected.as_bytes(),
            "{policy}: output differs"
        );
    }
    // And back.
    let run = u8x(&["decode", "--to", "latin1"], Some(expected.as_bytes()));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert!(run.stdout == data, "Latin-1 round trip");
}

#[test]
fn form_options_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["decode", "--to", "latin1", "--policy", "escape"],
            "error: policy 'escape' cannot write to latin1 (expected one of: strict, replace, \
             ignore)",
        ),
        (
            &["decode", "--to=latin1", "--policy=latin1"],
            "error: policy 'latin1' cannot write to latin1",
        ),
        (
            &["decode", "--policy", "cp1252", "--to", "latin1"],
            "error: policy 'cp1252' cannot write to latin1",
        ),
        (
            &["decode", "--to", "latin1", "--policy", "nope"],
            "error: invalid value 'nope' for '--policy <POLICY>'",
        ),
        (
            &["decode", "--to", "utf-8"],
            "error: invalid value 'utf-8' for '--to <TO>'\n  [possible values: utf-32le, \
             utf-32be, utf-16le, utf-16be, latin1]",
        ),
        (
            &["encode", "--from", "utf-16"],
            "error: invalid value 'utf-16' for '--from <FROM>'",
        ),
        (
            &["decode", "--to"],
            "error: a value is required for '--to <TO>'",
        ),
        (
            &["decode", "--from", "utf-16le"],
            "error: unexpected argument '--from'",
        ),
        (
            &["encode", "--to", "utf-16le"],
            "error: unexpected argument '--to'",
        ),
        (
            &["encode", "--from", "utf-16le", "--policy", "latin1"],
            "error: policy 'latin1' does not apply to encoding",
        ),
        (
            &[
                "convert", "--from", "utf-16le", "--to", "utf-8", "--policy", "cp1252",
            ],
            "error: policy 'cp1252' does not apply to encoding",
        ),
        (
            &[
                "convert", "--from", "utf-8", "--to", "utf-8", "--policy", "escape",
            ],
            "error: policy 'escape' cannot write to utf-8 from utf-8",
        ),
        (
            &[
                "convert", "--from", "utf-16be", "--to", "latin1", "--policy", "escape",
            ],
            "error: policy 'escape' cannot write to latin1",
        ),
    ];
    for &(args, message) in cases {
        let run = u8x(args, Some(b"text"));
        assert_eq!((run.code, run.out()), (2, ""), "{args:?}");
        assert!(run.stderr.starts_with(message), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("try '--help'"), "{args:?}");
    }
    let help = u8x(&["help", "decode"], None).stdout;
    let help = String::from_utf8(help).unwrap();
    assert!(
        help.contains("Usage: u8x decode [OPTIONS] [FILE]"),
        "{help}"
    );
    assert!(help.contains("utf-16be  the same, big-endian"));
    assert!(help.contains("replace writes one '?' (3F)"));
    let help = String::from_utf8(u8x(&["help", "encode"], None).stdout).unwrap();
    assert!(
        help.contains("Usage: u8x encode [OPTIONS] [FILE]"),
        "{help}"
    );
    assert!(help.contains("unpaired surrogate (value 0xXXXX)"));
}

/// The conversions against Python's codecs, on every tier the CPU has
/// (`U8X_TIER`; a tier it lacks runs the best one instead).
#[test]
fn forms_agree_with_python() {
    let text = Rng(31).text((1 << 20) + 11, 15);
    if python("b''", b"").is_none() {
        eprintln!("python3 not found; skipped");
        return;
    }
    let units = Rng(32).utf16(1 << 19, 3);
    let mut bytes = Rng(33).bytes(CHUNK + 99);
    bytes.extend(Rng(34).text(CHUNK, 30));
    let escaped16 = python(
        "data.decode('utf-8', 'surrogateescape').encode('utf-16-be', 'surrogatepass')",
        &bytes,
    )
    .unwrap();
    let cases: Vec<(&[&str], Vec<u8>, &str)> = vec![
        (
            &["decode", "--policy", "replace"],
            text.clone(),
            "data.decode('utf-8', 'replace').encode('utf-32-le')",
        ),
        (
            &["decode", "--to", "utf-16le", "--policy", "replace"],
            text.clone(),
            "data.decode('utf-8', 'replace').encode('utf-16-le')",
        ),
        (
            &["decode", "--to", "utf-16be", "--policy", "replace"],
            text.clone(),
            "data.decode('utf-8', 'replace').encode('utf-16-be')",
        ),
        (
            &["decode", "--to", "utf-16le", "--policy", "escape"],
            bytes.clone(),
            "data.decode('utf-8', 'surrogateescape').encode('utf-16-le', 'surrogatepass')",
        ),
        (
            &["decode", "--to", "latin1", "--policy", "replace"],
            text.clone(),
            "data.decode('utf-8', 'replace').encode('latin-1', 'replace')",
        ),
        (
            &["encode", "--from", "utf-16le", "--policy", "replace"],
            units16_bytes(&units, false),
            "data.decode('utf-16-le', 'replace').encode('utf-8')",
        ),
        (
            &["encode", "--from", "utf-16be", "--policy", "replace"],
            units16_bytes(&units, true),
            "data.decode('utf-16-be', 'replace').encode('utf-8')",
        ),
        (
            &["encode", "--from", "utf-16be", "--policy", "escape"],
            escaped16,
            "data.decode('utf-16-be', 'surrogatepass').encode('utf-8', 'surrogateescape')",
        ),
        (
            &["encode", "--from", "latin1"],
            bytes.clone(),
            "data.decode('latin-1').encode('utf-8')",
        ),
    ];
    for (args, input, expression) in &cases {
        let expected = python(expression, input).unwrap();
        // -q: the counts on standard error are checked against Python in
        // counts_agree_with_python.
        let args = [&args[..], &["-q"]].concat();
        for tier in ["scalar", "sse42", "avx2", "avx512"] {
            let run = u8x_env(&args, Some(input), &[("U8X_TIER", tier)]);
            assert_eq!((run.code, &*run.stderr), (0, ""), "{tier} {args:?}");
            assert!(
                run.stdout == expected,
                "{tier} {args:?}: differs from {expression}"
            );
        }
    }
    // The escape round trip ends where it began.
    assert_eq!(
        python(
            "data.decode('utf-16-be', 'surrogatepass').encode('utf-8', 'surrogateescape')",
            &cases[7].1
        ),
        Some(bytes)
    );
}

/// UTF-16 both ways, ~30 MB each, under the same memory limit as UTF-32.
#[cfg(target_os = "linux")]
#[test]
fn utf16_streams_in_constant_memory() {
    let block = Rng(12).text(CHUNK - 3, 0);
    let text = std::str::from_utf8(&block).unwrap().to_string();
    stream_under_limit("decode --to utf-16be", block, &utf16(&text, true), 30 << 20);
    let units = utf16(&text, false);
    stream_under_limit("encode --from utf-16le", units, text.as_bytes(), 30 << 20);
    // Between two forms other than UTF-8, through UTF-8 in between: more
    // than the limit, so that holding the UTF-8 in between would fail.
    let utf32be: Vec<u8> = text
        .chars()
        .flat_map(|c| (c as u32).to_be_bytes())
        .collect();
    let units = utf16(&text, false);
    let args = "convert --from utf-16le --to utf-32be";
    stream_under_limit(args, units, &utf32be, 100 << 20);
}
