//! What the process meets from outside: closed standard streams, a closed
//! pipe, a file size limit and signals. Each ends with a message and exit
//! status 2, or, for a signal, with that signal, and never leaves a
//! temporary file behind.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::*;

const SIGPIPE: i32 = 13;

/// Standard output closed (`>&-`): a command that writes fails as
/// coreutils do, with "write error: Bad file descriptor" (std reopens the
/// descriptor on /dev/null, which used to swallow the output); one that
/// writes nothing succeeds.
#[test]
fn closed_standard_output_is_a_write_error() {
    let dir = TempDir::new("closed");
    let bad = dir.file("bad.txt", b"a\xFFb\n");
    let good = dir.file("good.txt", b"fine\n");
    let empty = dir.file("empty.txt", b"");
    let (bad, good, empty) = (
        bad.to_str().unwrap(),
        good.to_str().unwrap(),
        empty.to_str().unwrap(),
    );
    let closed = "exec \"$0\" \"$@\" >&-";
    let cases: [&[&str]; 5] = [
        &["fix", bad],
        &["fix", good],
        &["decode", good],
        &["check", bad],
        &["convert", "--from", "utf-8", "--to", "utf-16le", good],
    ];
    for args in cases {
        let run = sh(closed, args, None);
        assert_eq!(run.code(), Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr, "u8x: write error: Bad file descriptor\n",
            "{args:?}"
        );
    }
    // Nothing to write: nothing fails.
    for args in [&["check", good][..], &["fix", empty], &["check", "-q", bad]] {
        let run = sh(closed, args, None);
        let expected = if args[1] == "-q" { 1 } else { 0 };
        assert_eq!(run.code(), Some(expected), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{args:?}");
    }
    // A closed standard input is an input error, as for cat.
    let run = sh("exec \"$0\" \"$@\" <&-", &["fix"], None);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.stderr, "u8x: (standard input): Bad file descriptor\n");
    assert_eq!(dir.names(), ["bad.txt", "empty.txt", "good.txt"]);
}

/// A regular file as standard output that cannot grow (`ulimit -f`): the
/// write fails with EFBIG instead of SIGXFSZ killing the process.
#[test]
fn a_file_size_limit_on_standard_output_is_a_write_error() {
    let dir = TempDir::new("fsize");
    let input = dir.file("in.txt", &Rng(8).text(1 << 20, 0));
    let out = dir.path("out.txt");
    let script = "ulimit -f 64 && exec \"$0\" \"$@\" > \"$OUT\"";
    for command in [
        &["fix"][..],
        &["decode"],
        &["encode", "--policy", "replace"],
    ] {
        let run = Command::new("/bin/sh")
            .args(["-c", script, env!("CARGO_BIN_EXE_u8x")])
            .args(command)
            .arg(&input)
            .env("OUT", &out)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert_eq!(
            run.status.code(),
            Some(2),
            "{command:?}: {:?} {stderr}",
            run.status
        );
        assert_eq!(stderr, "u8x: write error: File too large\n", "{command:?}");
    }
}

/// Runs `u8x ARGS` (through `sh -c PREFIX; exec u8x "$@"`) with its
/// standard output on a pipe that is read for 4 KiB and then closed, while
/// the command still has far more to write. Returns how it ended.
fn closed_after_4k(prefix: &str, args: &[&str]) -> Ended {
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("{prefix} exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0u8; 4096];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    Ended {
        status,
        stdout: first,
        stderr,
    }
}

/// Every command ends the same way on a closed pipe, coreutils' way:
/// killed by SIGPIPE, silently, when SIGPIPE had its default action (as
/// `u8x ... | head` gives it); with SIGPIPE ignored, "write error: Broken
/// pipe" and exit status 2.
#[test]
fn a_closed_pipe_ends_every_command_alike() {
    let dir = TempDir::new("epipe");
    let errors = dir.file("errors.bin", &vec![0xFF; 1 << 20]);
    let text = dir.file("text.txt", &Rng(9).text(4 << 20, 0));
    let (errors, text) = (errors.to_str().unwrap(), text.to_str().unwrap());
    let cases: [&[&str]; 6] = [
        &["check", "--all", errors],
        &["check", "--all", "-j", "2", errors],
        &["fix", text],
        &["fix", "-j", "2", text],
        &["decode", text],
        &["convert", "--from", "utf-8", "--to", "utf-16be", text],
    ];
    for args in cases {
        let run = closed_after_4k("", args);
        assert_eq!(run.signal(), Some(SIGPIPE), "{args:?}: {:?}", run.status);
        assert_eq!(run.stderr, "", "{args:?}");
        let run = closed_after_4k("trap '' PIPE &&", args);
        assert_eq!(
            run.code(),
            Some(2),
            "{args:?} (SIGPIPE ignored): {}",
            run.stderr
        );
        assert_eq!(run.stderr, "u8x: write error: Broken pipe\n", "{args:?}");
    }
    assert_eq!(dir.names(), ["errors.bin", "text.txt"]);
}

/// Starts `u8x ARGS` (through `sh -c PREFIX exec u8x "$@"`) reading a pipe
/// that this test holds open, and waits until `dir` holds `names + 1`
/// entries: the temporary file of an OUT being replaced.
fn started_with_temp(
    prefix: &str,
    args: &[&str],
    dir: &TempDir,
    names: usize,
) -> (std::process::Child, std::process::ChildStdin) {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(format!("{prefix} exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // The signals these tests send start at their defaults, however the
    // tests were started: under `nohup` (SIGHUP ignored, which u8x keeps,
    // see an_ignored_signal_stays_ignored) the SIGHUP case waited forever.
    // SAFETY: between fork and exec only async-signal-safe calls.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        })
    };
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    use std::io::Write;
    // Half a megabyte read and written to the temporary file; the pipe
    // stays open, so u8x waits for more.
    stdin.write_all(&Rng(10).text(1 << 19, 1)).unwrap();
    // Waiting for a state, not for a time: the loop ends when the
    // temporary file exists (ten seconds at most, then the test fails).
    for _ in 0..1000 {
        if dir.names().len() > names {
            return (child, stdin);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("{args:?}: no temporary file in {}", dir.0.display());
}

/// SIGINT, SIGTERM and SIGHUP while OUT is being replaced remove the
/// hidden temporary file, leave OUT as it was, and end u8x by that signal.
#[test]
fn a_signal_removes_the_temporary_file_and_ends_u8x_by_it() {
    for (signal, name) in [(2, "SIGINT"), (15, "SIGTERM"), (1, "SIGHUP")] {
        let dir = TempDir::new("signal");
        let out = dir.file("out.txt", b"old\n");
        let out = out.to_str().unwrap();
        for args in [
            &["fix", "-o", out][..],
            &["decode", "--policy", "replace", "-o", out],
        ] {
            let (mut child, stdin) = started_with_temp("", args, &dir, 1);
            // SAFETY: a signal to the child started above.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
            let status = child.wait().unwrap();
            drop(stdin);
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(status.signal(), Some(signal), "{name} {args:?}: {status:?}");
            assert_eq!(
                dir.names(),
                ["out.txt"],
                "{name} {args:?}: the temporary file is left"
            );
            assert_eq!(std::fs::read(out).unwrap(), b"old\n", "{name} {args:?}");
        }
    }
}

/// A signal ignored by whoever started u8x (`nohup`, `trap '' HUP`) stays
/// ignored: the conversion goes on and replaces OUT.
#[test]
fn an_ignored_signal_stays_ignored() {
    let dir = TempDir::new("nohup");
    let out = dir.file("out.txt", b"old\n");
    let args = ["fix", "-q", "-o", out.to_str().unwrap()];
    let (mut child, stdin) = started_with_temp("trap '' HUP &&", &args, &dir, 1);
    // SAFETY: a signal to the child started above.
    assert_eq!(unsafe { libc::kill(child.id() as i32, 1) }, 0);
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status:?}");
    assert_eq!(dir.names(), ["out.txt"]);
    assert_ne!(std::fs::read(&out).unwrap(), b"old\n");
}
