//! The non-strict policies of `decode`, `encode` and `convert`: `ignore`,
//! and the count of what a policy handled, which they tell on standard
//! error ("u8x: dropped 3 ill-formed sequences"). Outputs and counts are
//! checked against expectations computed without the library: std's UTF-8
//! and UTF-16 decoders, counts made by hand, and Python's codecs (its error
//! handlers count the errors) when python3 is here.

mod common;

use common::*;

/// Python: how many times the UTF-8 decoder calls its error handler (once
/// per maximal subpart), as ASCII digits.
const PY_DECODE_ERRORS: &str = "(lambda n: (__import__('codecs').register_error('u8x_n', \
     lambda e: (n.append(1), ('', e.end))[1]), data.decode('utf-8', 'u8x_n'), \
     str(len(n)).encode())[2])([])";

/// Python: maximal subparts, plus characters above U+00FF once decoded
/// (the Latin-1 encoder hands its handler a run of them at a time).
const PY_LATIN1_ERRORS: &str = "(lambda n: (__import__('codecs').register_error('u8x_n', \
     lambda e: (n.append(1), ('', e.end))[1]), __import__('codecs').register_error('u8x_c', \
     lambda e: (n.extend([1] * (e.end - e.start)), ('', e.end))[1]), \
     data.decode('utf-8', 'u8x_n').encode('latin-1', 'u8x_c'), str(len(n)).encode())[3])([])";

/// A count Python printed.
fn python_count(expression: &str, data: &[u8]) -> Option<usize> {
    let digits = python(expression, data)?;
    Some(String::from_utf8(digits).unwrap().parse().unwrap())
}

/// What `decode --policy ignore` writes for `data`, in UTF-8: the text
/// between the ill-formed sequences std finds.
fn ignored(data: &[u8]) -> String {
    per_byte_fix(data, |_| String::new())
}

/// `text` in the form named `form` (std's encoders).
fn in_form(text: &str, form: &str) -> Vec<u8> {
    match form {
        "utf-32le" => utf32le(text),
        "utf-32be" => text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect(),
        "utf-16le" => utf16(text, false),
        "utf-16be" => utf16(text, true),
        "utf-8" => text.as_bytes().to_vec(),
        _ => unreachable!("{form}"),
    }
}

#[test]
fn ignore_and_replace_on_known_bytes() {
    // By hand: FF is never valid (one maximal subpart), C3 is cut by the end
    // of the input (another): two errors, 'a' and 'b' kept.
    let input = b"a\xFFb\xC3";
    assert_eq!(std_errors(input).len(), 2);
    let lossy = String::from_utf8_lossy(input);
    assert_eq!(lossy, "a\u{FFFD}b\u{FFFD}");
    for form in ["utf-32le", "utf-32be", "utf-16le", "utf-16be"] {
        let run = u8x(&["decode", "--to", form, "--policy", "ignore"], Some(input));
        assert_eq!(run.code, 0, "{form}");
        assert_eq!(run.stdout, in_form("ab", form), "{form}");
        assert_eq!(
            run.stderr, "u8x: dropped 2 ill-formed sequences\n",
            "{form}"
        );
        let run = u8x(
            &["decode", "--to", form, "--policy", "replace"],
            Some(input),
        );
        assert_eq!(
            (run.code, &run.stdout),
            (0, &in_form(&lossy, form)),
            "{form}"
        );
        assert_eq!(
            run.stderr, "u8x: replaced 2 ill-formed sequences\n",
            "{form}"
        );
        // The same through convert.
        let args = [
            "convert",
            "--from",
            "utf-8",
            "--to",
            form,
            "--policy=ignore",
        ];
        let run = u8x(&args, Some(input));
        assert_eq!((run.code, &run.stdout), (0, &in_form("ab", form)), "{form}");
        assert_eq!(
            run.stderr, "u8x: dropped 2 ill-formed sequences\n",
            "{form}"
        );
    }
    let run = u8x(
        &["decode", "--to", "latin1", "--policy", "ignore"],
        Some(input),
    );
    assert_eq!((run.code, run.stdout.as_slice()), (0, &b"ab"[..]));
    assert_eq!(
        run.stderr,
        "u8x: dropped 2 ill-formed sequences or characters not in Latin-1\n"
    );
    // One, and the singular; a character above U+00FF counts to Latin-1.
    let run = u8x(&["decode", "--policy", "ignore"], Some(b"a\xFF"));
    assert_eq!(run.stderr, "u8x: dropped 1 ill-formed sequence\n");
    let run = u8x(
        &["decode", "--to", "latin1", "--policy=ignore"],
        Some("é€".as_bytes()),
    );
    assert_eq!((run.code, run.stdout.as_slice()), (0, &b"\xE9"[..]));
    assert_eq!(
        run.stderr,
        "u8x: dropped 1 ill-formed sequence or character not in Latin-1\n"
    );
    // Valid input: nothing to tell. -q: nothing told, the same output.
    let run = u8x(&["decode", "--policy", "ignore"], Some("ok é".as_bytes()));
    assert_eq!(
        (run.code, run.stdout, &*run.stderr),
        (0, utf32le("ok é"), "")
    );
    for quiet in ["-q", "--quiet"] {
        let run = u8x(&["decode", quiet, "--policy", "ignore"], Some(input));
        assert_eq!((run.code, run.stdout, &*run.stderr), (0, utf32le("ab"), ""));
        let args = [
            "convert",
            quiet,
            "--from",
            "utf-8",
            "--to",
            "utf-16le",
            "--policy=replace",
        ];
        let run = u8x(&args, Some(input));
        assert_eq!((run.code, &*run.stderr), (0, ""));
    }
    if let Some(python) = python("data.decode('utf-8', 'ignore').encode('utf-32-le')", input) {
        assert_eq!(python, utf32le("ab"), "Python agrees with the hand count");
    }
    // Encoding: the units that are not scalar values, counted by hand.
    let units = [0x61, 0xD800, 0x62, 0x11_0000, 0xDFFF];
    let run = u8x(&["encode", "--policy", "ignore"], Some(&units_le(&units)));
    assert_eq!((run.code, run.out()), (0, "ab"));
    assert_eq!(run.stderr, "u8x: dropped 3 invalid units\n");
    let run = u8x(&["encode", "--policy", "replace"], Some(&units_le(&units)));
    assert_eq!((run.code, run.out()), (0, "a\u{FFFD}b\u{FFFD}\u{FFFD}"));
    assert_eq!(run.stderr, "u8x: replaced 3 invalid units\n");
    let run = u8x(
        &["encode", "-q", "--policy", "ignore"],
        Some(&units_le(&units)),
    );
    assert_eq!((run.code, run.out(), &*run.stderr), (0, "ab", ""));
    // From UTF-16: a lone high and a lone low surrogate, a pair kept.
    let units16 = [0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00];
    for (form, big) in UTF16_FORMS {
        let input = units16_bytes(&units16, big);
        let run = u8x(
            &["encode", "--from", form, "--policy", "ignore"],
            Some(&input),
        );
        assert_eq!((run.code, run.out()), (0, "ab😀"), "{form}");
        assert_eq!(run.stderr, "u8x: dropped 2 unpaired surrogates\n", "{form}");
        if let Some(python) = python(
            &format!("data.decode('{form}', 'ignore').encode('utf-8')"),
            &input,
        ) {
            assert_eq!(python, "ab😀".as_bytes(), "{form}: Python");
        }
    }
    // Latin-1 input is always valid: ignore is accepted and has nothing to do.
    let run = u8x(
        &["encode", "--from", "latin1", "--policy", "ignore"],
        Some(b"\xE9"),
    );
    assert_eq!((run.code, run.out(), &*run.stderr), (0, "é", ""));
}

#[test]
fn refused_combinations_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["decode", "--to", "latin1", "--policy", "escape"],
            "error: policy 'escape' cannot write to latin1 (expected one of: strict, replace, \
             ignore)",
        ),
        (
            &["encode", "--policy", "cp1252"],
            "error: policy 'cp1252' does not apply to encoding (expected one of: strict, \
             replace, escape, ignore)",
        ),
        (
            &[
                "convert", "--from", "utf-16le", "--to", "latin1", "--policy", "escape",
            ],
            "error: policy 'escape' cannot write to latin1 (expected one of: strict, replace, \
             ignore)",
        ),
    ];
    for &(args, message) in cases {
        let run = u8x(args, Some(b"a\xFF"));
        assert_eq!((run.code, run.out()), (2, ""), "{args:?}");
        assert!(run.stderr.starts_with(message), "{args:?}: {}", run.stderr);
    }
    // Every command that takes --policy lists ignore in its help.
    for command in ["decode", "encode", "convert"] {
        let help = u8x(&["help", command], None);
        assert!(help.out().contains("ignore"), "{command}");
        assert!(help.out().contains("-q, --quiet"), "{command}");
        let usage = u8x(&[command, "--policy", "bogus"], None);
        assert!(
            usage.stderr.contains("ignore"),
            "{command}: {}",
            usage.stderr
        );
    }
}

/// Kuhn's stress test and damaged text: the output of replace and ignore
/// against std and Python, and the count against the U+FFFD that replace
/// writes and against Python's error handler.
#[test]
fn counts_agree_with_std_and_python() {
    let mut inputs = vec![("damaged", Rng(0xC0DE).text(300_000, 25))];
    match kuhn() {
        Some(data) => inputs.push(("kuhn", data)),
        None => eprintln!("UTF-8-test.txt not found; Kuhn's file skipped"),
    }
    for (name, data) in &inputs {
        let n = std_errors(data).len();
        assert!(n > 100, "{name}: only {n} errors");
        // What replace writes in place of errors: its U+FFFD, less those the
        // text had (Kuhn's file has one).
        let lossy = String::from_utf8_lossy(data);
        let kept = ignored(data);
        let written = lossy.matches('\u{FFFD}').count() - kept.matches('\u{FFFD}').count();
        assert_eq!(written, n, "{name}: std's two counts");
        if let Some(python) = python_count(PY_DECODE_ERRORS, data) {
            assert_eq!(python, n, "{name}: Python's count");
        }
        let f = TempFile::new("counts.txt", data);
        for form in ["utf-32le", "utf-16be"] {
            let run = u8x(
                &["decode", "--to", form, "--policy", "replace", f.path()],
                None,
            );
            assert_eq!(run.code, 0, "{name} {form}");
            assert!(
                run.stdout == in_form(&lossy, form),
                "{name} {form}: replace"
            );
            let summary = told("replaced", written, "ill-formed sequences", "");
            assert_eq!(run.stderr, summary, "{name} {form}: replace");
            let run = u8x(
                &["decode", "--to", form, "--policy", "ignore", f.path()],
                None,
            );
            assert_eq!(run.code, 0, "{name} {form}");
            assert!(run.stdout == in_form(&kept, form), "{name} {form}: ignore");
            let summary = told("dropped", n, "ill-formed sequences", "");
            assert_eq!(run.stderr, summary, "{name} {form}: ignore");
        }
        // From standard input, through convert: the same.
        let args = [
            "convert", "--from", "utf-8", "--to", "utf-16le", "--policy", "ignore",
        ];
        let run = u8x(&args, Some(data));
        assert!(run.stdout == utf16(&kept, false), "{name}: convert");
        assert_eq!(run.stderr, told("dropped", n, "ill-formed sequences", ""));
        if let Some(python) = python("data.decode('utf-8', 'ignore').encode('utf-16-le')", data) {
            assert!(run.stdout == python, "{name}: differs from Python's ignore");
        }
        // To Latin-1: each maximal subpart and each character above U+00FF.
        let above = lossy.chars().filter(|&c| u32::from(c) > 0xFF).count();
        if let Some(python) = python_count(PY_LATIN1_ERRORS, data) {
            assert_eq!(python, above, "{name}: Python's Latin-1 count");
        }
        let what = "ill-formed sequences or characters not in Latin-1";
        for (policy, verb, expression) in [
            (
                "replace",
                "replaced",
                "data.decode('utf-8', 'replace').encode('latin-1', 'replace')",
            ),
            (
                "ignore",
                "dropped",
                "data.decode('utf-8', 'ignore').encode('latin-1', 'ignore')",
            ),
        ] {
            let run = u8x(
                &["decode", "--to", "latin1", "--policy", policy, f.path()],
                None,
            );
            assert_eq!(run.code, 0, "{name} latin1 {policy}");
            assert_eq!(
                run.stderr,
                told(verb, above, what, ""),
                "{name} latin1 {policy}"
            );
            if let Some(python) = python(expression, data) {
                assert!(
                    run.stdout == python,
                    "{name}: latin1 {policy} differs from Python"
                );
            }
        }
    }
}

/// Errors on every edge: the 1 MiB reads, the 64 KiB output buffers, the
/// 64 KiB chunks between the two stages of `convert`. A count that an edge
/// cut in two would be told one too many, or one too few.
#[test]
fn counts_are_exact_across_chunk_and_buffer_edges() {
    // 7 bytes, two maximal subparts (F0 9F 98, E2 82), then 'é': 7 is prime
    // to every power of two, so the edges fall at every place in it, inside
    // both errors included; escape writes 6 units for it, so its output
    // buffer fills at every place too.
    let piece = b"\xF0\x9F\x98\xE2\x82\xC3\xA9";
    let reps = (2 << 20) / piece.len() + 1001;
    let data = piece.repeat(reps);
    let n = 2 * reps;
    assert_eq!(std_errors(&data).len(), n);
    let f = TempFile::new("edges.txt", &data);
    let lossy = String::from_utf8_lossy(&data);
    let cases = [
        ("replace", "replaced", ""),
        ("ignore", "dropped", ""),
        ("escape", "escaped", ""),
        ("latin1", "decoded", " as ISO-8859-1"),
        ("cp1252", "decoded", " as windows-1252"),
    ];
    for form in ["utf-32le", "utf-16le"] {
        for (policy, verb, how) in cases {
            let expected = told(verb, n, "ill-formed sequences", how);
            let run = u8x(
                &["decode", "--to", form, "--policy", policy, f.path()],
                None,
            );
            assert_eq!(
                (run.code, &*run.stderr),
                (0, &*expected),
                "{form} {policy}: file"
            );
            if policy == "replace" {
                assert!(
                    run.stdout == in_form(&lossy, form),
                    "{form}: output differs"
                );
            }
            let args = ["decode", "--to", form, "--policy", policy];
            let run = u8x(&args, Some(&data));
            assert_eq!(
                (run.code, &*run.stderr),
                (0, &*expected),
                "{form} {policy}: stdin"
            );
        }
    }
    let what = "ill-formed sequences or characters not in Latin-1";
    for (policy, verb) in [("replace", "replaced"), ("ignore", "dropped")] {
        let run = u8x(
            &["decode", "--to", "latin1", "--policy", policy, f.path()],
            None,
        );
        assert_eq!(
            (run.code, &*run.stderr),
            (0, &*told(verb, n, what, "")),
            "{policy}"
        );
    }
    // UTF-16 with a lone high and a lone low surrogate in each 5 units (10
    // bytes, so the high one ends a 64 KiB read now and then, carried to the
    // next), and a pair.
    let units: Vec<u16> = [0xD800, 0x61, 0xDC00, 0xD83D, 0xDE00].repeat((2 << 20) / 10 + 333);
    let lone = char::decode_utf16(units.iter().copied())
        .filter(Result::is_err)
        .count();
    assert_eq!(lone, 2 * units.len() / 5);
    let input = units16_bytes(&units, false);
    let f = TempFile::new("edges.u16", &input);
    let text = String::from_utf16_lossy(&units);
    for (policy, verb) in [("replace", "replaced"), ("ignore", "dropped")] {
        for to in ["utf-8", "utf-32le", "utf-16be"] {
            let args = [
                "convert", "--from", "utf-16le", "--to", to, "--policy", policy,
            ];
            let run = u8x(&[&args[..], &[f.path()]].concat(), None);
            let expected = told(verb, lone, "unpaired surrogates", "");
            assert_eq!((run.code, &*run.stderr), (0, &*expected), "{to} {policy}");
            if policy == "replace" {
                assert!(run.stdout == in_form(&text, to), "{to}: output differs");
            }
        }
        // To Latin-1, each 😀 as well: told once each, the U+FFFD that
        // replace makes of a lone surrogate included only once.
        let args = [
            "convert", "--from", "utf-16le", "--to", "latin1", "--policy", policy,
        ];
        let run = u8x(&args, Some(&input));
        let above = text.chars().filter(|&c| u32::from(c) > 0xFF).count();
        assert_eq!(above, lone + units.len() / 5);
        let what = "unpaired surrogates or characters not in Latin-1";
        assert_eq!(
            (run.code, &*run.stderr),
            (0, &*told(verb, above, what, "")),
            "{policy}"
        );
    }
}
