//! What u8x reads: the entries of a walked directory that are not regular
//! files (skipped, never opened), and inputs that change while they are
//! read (reported, never silently half-read).

mod common;

use std::process::Command;

use common::*;

/// Makes a FIFO at `path` with mkfifo(1); false when that fails here.
fn mkfifo(path: &std::path::Path) -> bool {
    let made = Command::new("mkfifo").arg(path).status();
    made.is_ok_and(|s| s.success())
}

/// `check -r` skips FIFOs, sockets and devices it meets (as `grep -r`
/// does): opening a FIFO would wait for a writer forever. `-v` names each
/// entry skipped, and the symbolic links not followed. A FIFO named on the
/// command line is still read.
#[test]
fn recursive_check_skips_what_is_not_a_regular_file() {
    let dir = TempDir::new("special");
    dir.file("a.txt", b"ok\n");
    dir.file("b.txt", b"\xFF");
    assert!(mkfifo(&dir.path("p")), "mkfifo");
    let _socket = std::os::unix::net::UnixListener::bind(dir.path("s")).unwrap();
    std::fs::create_dir(dir.path("sub")).unwrap();
    std::fs::write(dir.path("sub/c.txt"), b"x\xC0").unwrap();
    std::os::unix::fs::symlink("b.txt", dir.path("sub/link")).unwrap();
    // A device too, where mknod is permitted (a node of /dev/zero, whose
    // reading never ends).
    let device = Command::new("mknod")
        .arg(dir.path("z"))
        .args(["c", "1", "5"])
        .status()
        .is_ok_and(|s| s.success());
    let root = dir.0.to_str().unwrap();
    let timeout = "exec timeout 20 \"$0\" \"$@\"";
    let run = sh(timeout, &["check", "-r", "-l", root], None);
    assert_eq!(run.code(), Some(1), "{}", run.stderr);
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        format!("{root}/b.txt\n{root}/sub/c.txt\n")
    );
    assert_eq!(run.stderr, "");
    let run = sh(timeout, &["check", "-r", "-v", "--all", root], None);
    assert_eq!(run.code(), Some(1), "{}", run.stderr);
    assert_eq!(String::from_utf8(run.stdout).unwrap().lines().count(), 2);
    let z = match device {
        true => format!("u8x: {root}/z: not a regular file (a character device), skipped\n"),
        false => String::new(),
    };
    assert_eq!(
        run.stderr,
        format!(
            "u8x: {root}/p: not a regular file (a FIFO), skipped\n\
             u8x: {root}/s: not a regular file (a socket), skipped\n\
             u8x: {root}/sub/link: symbolic link, not followed\n{z}"
        )
    );
    // Named on the command line, the FIFO is read like any input.
    let fifo = dir.path("p");
    let writer = std::thread::spawn(move || std::fs::write(fifo, b"\xFF\n").unwrap());
    let run = sh(timeout, &["check", "-l", &format!("{root}/p")], None);
    writer.join().unwrap();
    assert_eq!(run.code(), Some(1), "{}", run.stderr);
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        format!("{root}/p\n")
    );
}

/// How a file is changed while u8x reads it.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// Cut to this size.
    Shrink(u64),
    /// This many bytes appended.
    Grow(usize),
}

/// Runs `u8x ARGS` on `file` (named, or on standard input), reads 4 KiB of
/// its output (so it has opened the file and started), changes the file,
/// then reads the rest. The output is far larger than a pipe's buffer, so
/// u8x cannot have reached the end of the file before the change: it
/// waits for the test to read. Returns the exit code and standard error.
fn changed_while_read(
    args: &[&str],
    file: &std::path::Path,
    on_stdin: bool,
    change: Change,
    env: &[(&str, &str)],
) -> (Option<i32>, String) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut command = Command::new(env!("CARGO_BIN_EXE_u8x"));
    command.args(args).envs(env.iter().copied());
    if on_stdin {
        command.stdin(std::fs::File::open(file).unwrap());
    } else {
        command.arg(file).stdin(Stdio::null());
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0u8; 4096];
    stdout.read_exact(&mut first).unwrap();
    match change {
        Change::Shrink(size) => std::fs::OpenOptions::new()
            .write(true)
            .open(file)
            .unwrap()
            .set_len(size)
            .unwrap(),
        Change::Grow(n) => std::fs::OpenOptions::new()
            .append(true)
            .open(file)
            .unwrap()
            .write_all(&vec![b'a'; n])
            .unwrap(),
    }
    std::io::copy(&mut stdout, &mut std::io::sink()).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status.code(), stderr)
}

/// A regular file that shrinks or grows while it is read is reported, the
/// same way by the streaming commands and by -j: "u8x: FILE: file changed
/// while being read", exit status 2 ("changed": the bytes read, or the
/// size at the end, differ from the size when it was opened).
#[test]
fn a_file_that_changes_while_read_is_reported() {
    let dir = TempDir::new("changing");
    let text = Rng(12).text(8 << 20, 0);
    let errors = vec![0xFFu8; 1 << 20];
    let small = [("U8X_BLOCK_SIZE", "65536")];
    let cases: [(&[&str], &[u8], Change, bool); 12] = [
        (&["fix"], &text, Change::Shrink(6 << 20), false),
        (&["fix"], &text, Change::Grow(1 << 20), false),
        (&["fix"], &text, Change::Shrink(6 << 20), true),
        (&["fix", "-j", "2"], &text, Change::Shrink(6 << 20), false),
        (&["fix", "-j", "2"], &text, Change::Grow(1 << 20), false),
        (&["decode"], &text, Change::Shrink(6 << 20), false),
        (
            &["decode", "--to", "utf-16le"],
            &text,
            Change::Grow(100),
            false,
        ),
        (
            &["check", "--all"],
            &errors,
            Change::Shrink(512 << 10),
            false,
        ),
        (&["check", "--all"], &errors, Change::Grow(100), false),
        (
            &["check", "--all"],
            &errors,
            Change::Shrink(512 << 10),
            true,
        ),
        (
            &["check", "--all", "-j", "2"],
            &errors,
            Change::Shrink(512 << 10),
            false,
        ),
        (
            &["check", "--all", "-j", "2"],
            &errors,
            Change::Grow(100),
            false,
        ),
    ];
    for (args, data, change, on_stdin) in cases {
        let file = dir.file("in.txt", data);
        let (code, stderr) = changed_while_read(args, &file, on_stdin, change, &small);
        let name = match on_stdin {
            true => "(standard input)".to_string(),
            false => file.display().to_string(),
        };
        let what = format!("{args:?} {change:?} (stdin: {on_stdin})");
        assert_eq!(code, Some(2), "{what}: {stderr}");
        assert!(
            stderr.ends_with(&format!("u8x: {name}: file changed while being read\n")),
            "{what}: {stderr}"
        );
        assert_eq!(
            stderr.lines().filter(|l| l.contains("changed")).count(),
            1,
            "{what}"
        );
    }
}
