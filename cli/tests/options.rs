//! The options of `check` and `fix` beyond the reports themselves (`-j`,
//! `-l`, `--json`, `-r`, the progress bar), `convert` between every pair of
//! forms, and what the command line generates (completions, man page).
//! Expectations come from std, serde_json and Python, never from u8x.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

/// Damaged text with errors everywhere, including at every distance from
/// any cut a small block size makes.
fn damaged(seed: u64, len: usize, per_mille: u64) -> Vec<u8> {
    Rng(seed).text(len, per_mille)
}

// -------------------------------------------------------------- -j N

/// Every block size puts cuts at different places: the reports of N
/// threads must be those of std's decoder, in file order, whatever the
/// blocks (sizes 1..7 put a cut inside every kind of sequence).
#[test]
fn check_on_threads_reports_what_one_thread_does() {
    let cases = [
        (damaged(1, 3000, 60), ["1", "2", "3", "5", "7"].as_slice()),
        (damaged(2, 400_000, 2), &["4093", "65536"]),
        (damaged(3, 300_000, 0), &["4096"]),
    ];
    for (data, sizes) in cases {
        let f = TempFile::new("jobs.txt", &data);
        let all = expected_report(f.path(), &data);
        let first: String = all.lines().take(1).map(|l| format!("{l}\n")).collect();
        let code = if all.is_empty() { 0 } else { 1 };
        for size in sizes {
            for jobs in ["2", "3"] {
                let env = [("U8X_BLOCK_SIZE", *size)];
                let run = u8x_env(&["check", "-a", "-j", jobs, f.path()], None, &env);
                assert_eq!(run.code, code, "block {size}, {jobs} jobs");
                assert!(run.out() == all, "block {size}, {jobs} jobs: --all differs");
                let run = u8x_env(&["check", "-j", jobs, f.path()], None, &env);
                assert_eq!((run.code, run.out()), (code, &*first), "block {size}");
                let run = u8x_env(&["check", "-q", "-j", jobs, f.path()], None, &env);
                assert_eq!((run.code, run.out()), (code, ""), "block {size}");
            }
        }
    }
}

#[test]
fn fix_on_threads_writes_what_one_thread_does() {
    let data = damaged(4, 200_000, 20);
    let f = TempFile::new("fixjobs.txt", &data);
    let n = std_errors(&data).len();
    let lossy = String::from_utf8_lossy(&data).into_owned();
    let escaped = per_byte_fix(&data, |b| format!("\\x{b:02x}"));
    for size in ["1", "5", "4096"] {
        let env = [("U8X_BLOCK_SIZE", size)];
        let run = u8x_env(&["fix", "-j", "3", f.path()], None, &env);
        assert_eq!(run.code, 1);
        assert!(run.out() == lossy, "block {size}: replace differs");
        assert_eq!(run.stderr, format!("u8x: fixed {n} ill-formed sequences\n"));
        let run = u8x_env(&["fix", "-j2", "--policy=escape", f.path()], None, &env);
        assert!(run.out() == escaped, "block {size}: escape differs");
    }
    // Into a file OUT: replaced once, as with one thread.
    let out = TempFile::absent("fixjobs.out");
    let run = u8x(&["fix", "-q", "-j", "2", "-o", out.path(), f.path()], None);
    assert_eq!((run.code, &*run.stderr), (1, ""));
    assert_eq!(out.read(), lossy.as_bytes());
}

// ------------------------------------------------------ -l, --json, -r

#[test]
fn list_prints_each_invalid_file_once() {
    let good = TempFile::new("good.txt", "ok é\n".as_bytes());
    let bad = TempFile::new("bad.txt", b"\xFF\xFE many \xC0 errors \x80");
    let worse = TempFile::new("worse.txt", b"\xE2\x82");
    let missing = TempFile::absent("missing.txt");
    let args = [
        "check",
        "-l",
        good.path(),
        bad.path(),
        missing.path(),
        worse.path(),
    ];
    let run = u8x(&args, None);
    assert_eq!(run.code, 2, "a missing file makes the status 2");
    assert_eq!(run.out(), format!("{}\n{}\n", bad.path(), worse.path()));
    assert_eq!(
        run.stderr,
        format!("u8x: {}: No such file or directory\n", missing.path())
    );
    let run = u8x(&["check", "--list", good.path(), worse.path()], None);
    assert_eq!((run.code, run.out()), (1, &*format!("{}\n", worse.path())));
    let run = u8x(&["check", "-l"], Some(b"\xFF"));
    assert_eq!((run.code, run.out()), (1, "(standard input)\n"));
    let run = u8x(&["check", "-l", good.path()], None);
    assert_eq!((run.code, run.out()), (0, ""));
}

/// `--json` lines parsed by serde_json, against std's errors.
#[test]
fn json_is_one_object_per_error() {
    let data = damaged(5, 100_000, 10);
    // A name that JSON must escape: a quote, a backslash, a tab.
    let f = TempFile::new("we\"ird\\na\tme.txt", &data);
    let expected = std_errors(&data);
    let run = u8x(&["check", "--json", "--all", f.path()], None);
    assert_eq!(run.code, 1);
    let text_report = expected_report(f.path(), &data);
    let lines: Vec<&str> = run.out().lines().collect();
    assert_eq!(lines.len(), expected.len());
    for ((line, bad), text) in lines.iter().zip(&expected).zip(text_report.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        // The fields in the order the help shows them.
        assert!(line.starts_with("{\"file\":"), "{line}");
        assert!(
            line.ends_with(&format!(",\"bytes\":\"{}\"}}", hex(&bad.bytes))),
            "{line}"
        );
        assert_eq!(v["file"], f.path());
        assert_eq!(v["offset"], bad.offset);
        assert_eq!(v["bytes"], hex(&bad.bytes));
        // The text report (std-computed) holds the same line and column.
        let prefix = format!("{}:{}:{}: ", f.path(), v["line"], v["column"]);
        assert!(text.starts_with(&prefix), "{text} / {line}");
        let kinds = [
            "",
            "unexpected_continuation",
            "invalid_byte",
            "truncated_sequence",
            "overlong",
            "surrogate",
            "above_max",
            "end_of_input",
        ];
        assert_eq!(v["kind"], kinds[bad.kind as usize]);
        assert_eq!(v["description"], error_name(bad.kind));
    }
    // Without --all, the first error only; nothing for a valid file.
    let run = u8x(&["check", "--json", f.path()], None);
    assert_eq!(run.out().lines().count(), 1);
    let run = u8x(&["check", "--json"], Some(b"valid"));
    assert_eq!((run.code, run.out()), (0, ""));
}

#[test]
fn recursive_walks_directories_in_name_order() {
    let dir = TempDir::new("walk");
    dir.file("b.txt", b"\xFF");
    dir.file("a.txt", b"fine\n");
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    std::fs::write(dir.0.join("sub/c.txt"), b"x\xC0").unwrap();
    std::fs::create_dir(dir.0.join("sub/deeper")).unwrap();
    std::fs::write(dir.0.join("sub/deeper/d.txt"), b"\x80").unwrap();
    // A link inside the tree is not followed.
    std::os::unix::fs::symlink(dir.0.join("b.txt"), dir.0.join("link.txt")).unwrap();
    let root = dir.0.to_str().unwrap();
    let run = u8x(&["check", "-r", "-l", root], None);
    assert_eq!(run.code, 1);
    let names: Vec<String> = ["b.txt", "sub/c.txt", "sub/deeper/d.txt"]
        .iter()
        .map(|n| format!("{root}/{n}\n"))
        .collect();
    assert_eq!(run.out(), names.concat());
    // Without -r a directory is an input that cannot be read.
    let run = u8x(&["check", root], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, format!("u8x: {root}: Is a directory\n"));
}

// ------------------------------------------------------------ progress

/// Runs `u8x args` with standard output and error on a terminal (util-linux
/// `script`), returning what the terminal showed; `None` without `script`.
fn on_terminal(args: &str, env: &[(&str, &str)]) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_u8x");
    let out = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .envs(env.iter().copied())
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn progress_bar_only_on_a_terminal_and_never_with_q() {
    let data = "ab\n".repeat(40 << 20).into_bytes();
    let f = TempFile::new("progress.txt", &data);
    let low = [("U8X_PROGRESS_MIN", "0")];
    // Standard error is a pipe: nothing, whatever the size.
    let run = u8x_env(&["check", f.path()], None, &low);
    assert_eq!((run.code, &*run.stderr), (0, ""));
    let Some(shown) = on_terminal(&format!("check -j1 {}", f.path()), &low) else {
        eprintln!("script not found; skipped");
        return;
    };
    assert!(shown.contains("MiB"), "no bar on a terminal: {shown:?}");
    let quiet = on_terminal(&format!("check -q -j1 {}", f.path()), &low).unwrap();
    assert_eq!(quiet, "", "-q silences the bar");
    let small = on_terminal(&format!("check -j1 {}", f.path()), &[]).unwrap();
    assert_eq!(small, "", "a 120 MB input is under the 256 MiB threshold");
    let fix = on_terminal(&format!("fix -o /dev/null {}", f.path()), &low).unwrap();
    assert!(fix.contains("MiB"), "fix shows it too: {fix:?}");
}

// ------------------------------------------------------------- convert

/// The forms `convert` takes, with std's encoding of a text in each.
const FORMS: [&str; 6] = [
    "utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be", "latin1",
];

fn encoded(text: &str, form: &str) -> Vec<u8> {
    match form {
        "utf-8" => text.as_bytes().to_vec(),
        "utf-16le" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        "utf-16be" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        "utf-32le" => text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect(),
        "utf-32be" => text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect(),
        "latin1" => text.chars().map(|c| u8::try_from(c).unwrap()).collect(),
        _ => unreachable!(),
    }
}

#[test]
fn convert_between_every_pair_of_forms() {
    // Long enough to cross several 64 KiB chunks in every form.
    let wide: String = "aé€😀\n中ж\u{10FFFF}\u{FEFF}".repeat(30_000);
    let narrow: String = (0..=255u8).map(char::from).collect::<String>().repeat(700);
    for from in FORMS {
        for to in FORMS {
            let text = if from == "latin1" || to == "latin1" {
                &narrow
            } else {
                &wide
            };
            let input = TempFile::new("convert.in", &encoded(text, from));
            let run = u8x(&["convert", "--from", from, "--to", to, input.path()], None);
            assert_eq!((run.code, &*run.stderr), (0, ""), "{from} -> {to}");
            assert!(
                run.stdout == encoded(text, to),
                "{from} -> {to}: output differs"
            );
        }
    }
}

#[test]
fn convert_errors_and_policies() {
    // A lone surrogate in UTF-16BE, converted to UTF-32LE.
    let units: [u16; 4] = [0x61, 0xD800, 0x62, 0xDC80];
    let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
    let args = ["convert", "--from", "utf-16be", "--to", "utf-32le"];
    let run = u8x(&args, Some(&be));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "u8x: (standard input): unit 1 (byte offset 2): unpaired surrogate (value 0xD800)\n"
    );
    assert_eq!(run.stdout, encoded("a", "utf-32le"));
    let run = u8x(&[&args[..], &["--policy", "replace"]].concat(), Some(&be));
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, encoded("a\u{FFFD}b\u{FFFD}", "utf-32le"));
    assert_eq!(run.stderr, "u8x: replaced 2 unpaired surrogates\n");
    let run = u8x(&[&args[..], &["--policy", "ignore"]].concat(), Some(&be));
    assert_eq!((run.code, run.stdout), (0, encoded("ab", "utf-32le")));
    assert_eq!(run.stderr, "u8x: dropped 2 unpaired surrogates\n");
    let run = u8x(&[&args[..], &["-q", "--policy=ignore"]].concat(), Some(&be));
    assert_eq!((run.code, &*run.stderr), (0, ""));
    // escape keeps every unpaired surrogate as its value, U+D800 too (the
    // library's direct conversion, no UTF-8 between): UTF-16 goes to UTF-32
    // and back unchanged.
    let escaped: Vec<u8> = [0x61u32, 0xD800, 0x62, 0xDC80]
        .iter()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let run = u8x(&[&args[..], &["--policy", "escape"]].concat(), Some(&be));
    let summary = "u8x: escaped 2 unpaired surrogates\n";
    assert_eq!((run.code, &*run.stderr), (0, summary));
    assert_eq!(run.stdout, escaped);
    let back = [
        "convert", "--from", "utf-32le", "--to", "utf-16be", "--policy", "escape",
    ];
    let run = u8x(&back, Some(&escaped));
    assert_eq!((run.code, run.stdout), (0, be.clone()));
    // A high surrogate value followed by a low one would read back as one
    // character: escape stops there as strict does.
    let pair: Vec<u8> = [0xD83Du32, 0xDE00]
        .iter()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let run = u8x(&back, Some(&pair));
    assert_eq!(run.code, 1, "{}", run.stderr);
    // To Latin-1, a character above U+00FF: located by units of the input.
    let text = "caf\u{E9} \u{1F600} \u{20AC}";
    let input = encoded(text, "utf-16le");
    let args = ["convert", "--from", "utf-16le", "--to", "latin1"];
    let run = u8x(&args, Some(&input));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "u8x: (standard input): unit 5 (byte offset 10): character not representable in \
         the output form (U+1F600 is not in Latin-1)\n"
    );
    assert_eq!(run.stdout, b"caf\xE9 ");
    let run = u8x(
        &[&args[..], &["--policy", "replace"]].concat(),
        Some(&input),
    );
    assert_eq!((run.code, run.stdout.as_slice()), (0, &b"caf\xE9 ? ?"[..]));
    let what = "unpaired surrogates or characters not in Latin-1";
    assert_eq!(run.stderr, format!("u8x: replaced 2 {what}\n"));
    // A lone surrogate becomes U+FFFD, then '?': told once, not twice.
    let lone = [encoded("\u{20AC}", "utf-16le"), vec![0x00, 0xD8]].concat();
    let run = u8x(&[&args[..], &["--policy", "replace"]].concat(), Some(&lone));
    assert_eq!((run.code, run.stdout.as_slice()), (0, &b"??"[..]));
    assert_eq!(run.stderr, format!("u8x: replaced 2 {what}\n"));
    let run = u8x(&[&args[..], &["--policy", "ignore"]].concat(), Some(&lone));
    assert_eq!((run.code, run.stdout.as_slice()), (0, &b""[..]));
    assert_eq!(run.stderr, format!("u8x: dropped 2 {what}\n"));
    // From UTF-32BE, the unit counts 4 bytes.
    let input = encoded(text, "utf-32be");
    let args = ["convert", "--from", "utf-32be", "--to", "latin1"];
    let run = u8x(&args, Some(&input));
    assert!(
        run.stderr.contains("unit 5 (byte offset 20)"),
        "{}",
        run.stderr
    );
    // UTF-8 to UTF-8: strict stops with line and column, replace is fix.
    let args = ["convert", "--from", "utf-8", "--to", "utf-8"];
    let run = u8x(&args, Some(b"ok\nab\xE2\x82c"));
    assert_eq!((run.code, run.out()), (1, "ok\nab"));
    assert_eq!(
        run.stderr,
        "u8x: (standard input):2:3: byte offset 5: sequence cut short by a \
         non-continuation byte\n"
    );
    let run = u8x(
        &[&args[..], &["--policy", "replace"]].concat(),
        Some(b"a\xFFb"),
    );
    assert_eq!((run.code, run.out()), (1, "a\u{FFFD}b"));
    assert_eq!(run.stderr, "u8x: fixed 1 ill-formed sequence\n");
    // ignore is `fix --policy ignore`; -q silences its summary as fix's.
    let run = u8x(
        &[&args[..], &["--policy", "ignore"]].concat(),
        Some(b"a\xFFb\xC3"),
    );
    assert_eq!((run.code, run.out()), (1, "ab"));
    assert_eq!(run.stderr, "u8x: fixed 2 ill-formed sequences\n");
    let run = u8x(
        &[&args[..], &["-q", "--policy=ignore"]].concat(),
        Some(b"a\xFF"),
    );
    assert_eq!((run.code, run.out(), &*run.stderr), (1, "a", ""));
}

/// Python's codecs on damaged UTF-16 and UTF-8, through `convert`.
#[test]
fn convert_agrees_with_python() {
    if python("b''", b"").is_none() {
        eprintln!("python3 not found; skipped");
        return;
    }
    let units = Rng(41).utf16(200_000, 3);
    let le = units16_bytes(&units, false);
    let text = damaged(42, 300_000, 5);
    // UTF-16 whose lone surrogates are all escapes (U+DC80..U+DCFF).
    let escapes16 = python(
        "data.decode('utf-8', 'surrogateescape').encode('utf-16-le', 'surrogatepass')",
        &text,
    )
    .unwrap();
    let cases: [(&[&str], &[u8], &str); 5] = [
        (
            &[
                "--from", "utf-16le", "--to", "utf-32be", "--policy", "replace",
            ],
            &le,
            "data.decode('utf-16-le', 'replace').encode('utf-32-be')",
        ),
        (
            &[
                "--from", "utf-16le", "--to", "utf-16be", "--policy", "escape",
            ],
            &escapes16,
            "data.decode('utf-16-le', 'surrogatepass').encode('utf-16-be', 'surrogatepass')",
        ),
        (
            &["--from", "utf-16le", "--to", "utf-8", "--policy", "escape"],
            &escapes16,
            "data.decode('utf-16-le', 'surrogatepass').encode('utf-8', 'surrogateescape')",
        ),
        (
            &["--from", "utf-8", "--to", "utf-32be", "--policy", "escape"],
            &text,
            "data.decode('utf-8', 'surrogateescape').encode('utf-32-be', 'surrogatepass')",
        ),
        (
            &["--from", "utf-8", "--to", "utf-8", "--policy", "replace"],
            &text,
            "data.decode('utf-8', 'replace').encode('utf-8')",
        ),
    ];
    for (args, input, expression) in cases {
        let expected = python(expression, input).unwrap();
        let run = u8x(&[&["convert"][..], args].concat(), Some(input));
        assert!(run.code < 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout == expected, "{args:?}: differs from Python");
    }
}

// ------------------------------------------- completions and man page

#[test]
fn completions_and_man_page_come_from_the_options() {
    for (shell, marker, long) in [
        ("bash", "_u8x()", "--"),
        ("zsh", "#compdef u8x", "--"),
        ("fish", "complete -c u8x", "-l "),
    ] {
        let run = u8x(&["completions", shell], None);
        assert_eq!((run.code, &*run.stderr), (0, ""), "{shell}");
        assert!(run.out().contains(marker), "{shell}");
        for option in ["jobs", "json", "policy", "recursive"] {
            let option = format!("{long}{option}");
            assert!(run.out().contains(&option), "{shell}: {option}");
        }
        assert!(run.out().contains("utf-16be"), "{shell}: form values");
    }
    let man = u8x(&["man"], None);
    assert_eq!(man.code, 0);
    assert!(man.out().contains(".TH u8x 1"), "{}", &man.out()[..200]);
    for text in ["check", "convert", "Exit status"] {
        assert!(man.out().contains(text), "u8x(1) lacks {text}");
    }
    let check = u8x(&["man", "check"], None);
    assert!(check.out().contains(".TH u8x-check 1"));
    for text in ["\\-\\-jobs", "\\-\\-json", "COLUMN"] {
        assert!(check.out().contains(text), "u8x-check(1) lacks {text}");
    }
    // What the install step writes: a page per command.
    let dir = TempDir::new("man");
    let run = u8x(&["man", "--dir", dir.0.to_str().unwrap()], None);
    assert_eq!((run.code, &*run.stderr), (0, ""));
    let mut names = dir.names();
    names.sort();
    let commands = [
        "check",
        "completions",
        "convert",
        "decode",
        "encode",
        "fix",
        "man",
    ];
    let mut expected: Vec<String> = commands.iter().map(|c| format!("u8x-{c}.1")).collect();
    expected.push("u8x.1".to_string());
    assert_eq!(names, expected);
    // It is valid roff: man(1) renders it without a warning, if present.
    let page = TempFile::new("u8x.1", &man.stdout);
    if let Ok(out) = Command::new("man")
        .args(["-l", "-Tutf8", page.path()])
        .output()
    {
        if out.status.success() {
            let shown = String::from_utf8_lossy(&out.stdout);
            assert!(shown.contains("u8x"), "{shown}");
        }
    }
    assert!(Path::new(page.path()).exists());
}

/// `U8X_BLOCK_SIZE` is a test hook: a debug build (which `cargo test`
/// makes) honours it, a release build ignores it. Seen from the threads of
/// `check --all -j 4` on 1 MiB: one worker per block up to 4, so 1 KiB
/// blocks give 4 workers, and the release binary's single 4 MiB block one.
/// (`cargo test --release` runs this against the release binary.)
#[cfg(target_os = "linux")]
#[test]
fn the_block_size_hook_is_for_debug_builds_only() {
    use std::io::Read;
    use std::process::Stdio;
    let f = TempFile::new("hook.bin", &vec![0xFF; 1 << 20]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_u8x"))
        .args(["check", "--all", "-j", "4", f.path()])
        .env("U8X_BLOCK_SIZE", "1024")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Reports are coming, so the workers have started; the pipe, unread
    // past this, then holds u8x in the middle of its run.
    let mut first = [0u8; 4096];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    let threads = std::fs::read_dir(format!("/proc/{}/task", child.id()))
        .unwrap()
        .count();
    child.kill().unwrap();
    child.wait().unwrap();
    let expected = match cfg!(debug_assertions) {
        true => 1 + 4,
        false => 1 + 1,
    };
    assert_eq!(threads, expected, "debug build: {}", cfg!(debug_assertions));
}

/// The threads u8x runs on: the entries of /proc/PID/task of `u8x args`
/// while it waits on a full pipe, after its first 4 KiB of output.
#[cfg(target_os = "linux")]
fn threads_while_writing(args: &[&str]) -> usize {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = [0u8; 4096];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    let threads = std::fs::read_dir(format!("/proc/{}/task", child.id()))
        .unwrap()
        .count();
    child.kill().unwrap();
    child.wait().unwrap();
    threads
}

/// Without -j, `check` and `fix` read a large file on one thread (`fix`
/// with its read-ahead thread): on this 2-core machine two threads made
/// `check -q` of a 400 MB file 3.6 times slower (docs/benchmarks-history.md). The file
/// here is 64 MiB, the size from which one thread per core used to be the
/// default: sparse, with 1 MiB of errors first, so that u8x is still busy
/// when its threads are counted.
#[cfg(target_os = "linux")]
#[test]
fn one_thread_unless_j_says() {
    use std::io::Write;
    let dir = TempDir::new("default-jobs");
    let path = dir.path("large.bin");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(&vec![0xFF; 1 << 20]).unwrap();
    file.set_len(64 << 20).unwrap();
    let name = path.to_str().unwrap();
    assert_eq!(threads_while_writing(&["check", "--all", name]), 1);
    assert_eq!(threads_while_writing(&["fix", "-q", name]), 1 + 1);
    // -j still gives its threads (blocks of 4 MiB: 16 here).
    assert_eq!(
        threads_while_writing(&["check", "--all", "-j", "3", name]),
        1 + 3
    );
}
