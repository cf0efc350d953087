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
