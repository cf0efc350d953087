//! Where `-o OUT` leads: the descriptors behind /dev/stdout, /dev/fd/N and
//! /proc/self/fd/N (written in place, never replaced), symbolic links that
//! lead nowhere (refused), an empty name, an OUT that did not exist, and
//! what a replaced OUT keeps of the old one.

mod common;

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::process::{Command, Output, Stdio};

use common::*;

/// Runs `u8x args` with standard output (and error, if `both`) on `file`.
fn with_output_on(args: &[&str], file: &File, both: bool) -> (Option<i32>, String) {
    let stderr = match both {
        true => Stdio::from(file.try_clone().unwrap()),
        false => Stdio::piped(),
    };
    let Output { status, stderr, .. } = Command::new(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(stderr)
        .output()
        .unwrap();
    (status.code(), String::from_utf8(stderr).unwrap())
}

/// `-o /dev/stdout` and its kin, with standard output appended to a log
/// (`>> log`): the output is appended through the descriptor, the log's
/// earlier lines stay, and the log is the same file (same inode) after.
#[test]
fn magic_links_to_a_descriptor_write_to_it_in_place() {
    let dir = TempDir::new("magic");
    let input = dir.file("in.txt", b"new line\n");
    let link = dir.path("to-stdout");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    let log = dir.path("log");
    let outs = [
        "/dev/stdout",
        "/dev/fd/1",
        "/proc/self/fd/1",
        link.to_str().unwrap(),
    ];
    for out in outs {
        std::fs::write(&log, b"earlier\n").unwrap();
        let inode = std::fs::metadata(&log).unwrap().ino();
        let append = OpenOptions::new().append(true).open(&log).unwrap();
        let args = ["fix", "-o", out, input.to_str().unwrap()];
        let (code, stderr) = with_output_on(&args, &append, false);
        assert_eq!((code, &*stderr), (Some(0), ""), "-o {out}");
        assert_eq!(
            std::fs::read(&log).unwrap(),
            b"earlier\nnew line\n",
            "-o {out}"
        );
        assert_eq!(
            std::fs::metadata(&log).unwrap().ino(),
            inode,
            "-o {out}: log replaced"
        );
        assert_eq!(dir.names(), ["in.txt", "log", "to-stdout"], "-o {out}");
    }
    // /dev/stderr: the same, on standard error's descriptor.
    std::fs::write(&log, b"earlier\n").unwrap();
    let append = OpenOptions::new().append(true).open(&log).unwrap();
    let args = ["fix", "-o", "/dev/stderr", input.to_str().unwrap()];
    let (code, _) = with_output_on(&args, &append, true);
    assert_eq!(code, Some(0));
    assert_eq!(std::fs::read(&log).unwrap(), b"earlier\nnew line\n");
}

/// Standard output on a file that was deleted since it was opened (what
/// a process writing a log rotated away holds): `-o /dev/stdout` writes to
/// that file, and no file named like "gone.txt (deleted)" is created.
#[test]
fn a_descriptor_on_a_deleted_file_is_written_not_recreated() {
    let dir = TempDir::new("deleted");
    let input = dir.file("in.txt", b"kept\n");
    let gone = dir.path("gone.txt");
    let mut held = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&gone)
        .unwrap();
    std::fs::remove_file(&gone).unwrap();
    for out in ["/dev/stdout", "/proc/self/fd/1"] {
        held.set_len(0).unwrap();
        held.seek(SeekFrom::Start(0)).unwrap();
        let args = ["fix", "-o", out, input.to_str().unwrap()];
        let (code, stderr) = with_output_on(&args, &held, false);
        assert_eq!((code, &*stderr), (Some(0), ""), "-o {out}");
        let mut written = Vec::new();
        held.seek(SeekFrom::Start(0)).unwrap();
        held.read_to_end(&mut written).unwrap();
        assert_eq!(written, b"kept\n", "-o {out}");
        assert_eq!(dir.names(), ["in.txt"], "-o {out}");
    }
}

/// A descriptor that is not open, and one of another process: refused,
/// nothing created.
#[test]
fn other_proc_links_are_refused() {
    let dir = TempDir::new("notopen");
    let input = dir.file("in.txt", b"text\n");
    let run = u8x(&["fix", "-o", "/dev/fd/9", input.to_str().unwrap()], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "u8x: /dev/fd/9: No such file or directory\n");
    // The standard output of another process (started here, writing a
    // log): not one of u8x's descriptors, so not written through.
    let held = dir.file("held.log", b"theirs\n");
    let mut other = Command::new("sleep")
        .arg("60")
        .stdout(OpenOptions::new().append(true).open(&held).unwrap())
        .spawn()
        .unwrap();
    let theirs = format!("/proc/{}/fd/1", other.id());
    let run = u8x(&["fix", "-o", &theirs, input.to_str().unwrap()], None);
    let _ = other.kill();
    let _ = other.wait();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "u8x: {theirs}: a /proc link that is not one of u8x's own descriptors; \
             refusing to write through it\n"
        )
    );
    assert_eq!(std::fs::read(&held).unwrap(), b"theirs\n");
    assert_eq!(dir.names(), ["held.log", "in.txt"]);
    // Standard output closed at start: /dev/stdout is closed too.
    let run = sh(
        "exec \"$0\" \"$@\" >&-",
        &["fix", "-o", "/dev/stdout", input.to_str().unwrap()],
        None,
    );
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.stderr, "u8x: /dev/stdout: Bad file descriptor\n");
}

/// A symbolic link OUT to a file that does not exist (directly or through
/// a chain): refused, because creating the file through the link in user
/// space would bypass the kernel's protected_symlinks rule. The link stays
/// and nothing is created.
#[test]
fn a_dangling_symbolic_link_is_refused() {
    let dir = TempDir::new("dangling");
    let input = dir.file("in.txt", b"text\n");
    let link = dir.path("out.txt");
    std::os::unix::fs::symlink("target.txt", &link).unwrap();
    let chain = dir.path("chain.txt");
    std::os::unix::fs::symlink("out.txt", &chain).unwrap();
    for out in [&link, &chain] {
        for command in ["fix", "decode"] {
            let run = convert_into(command, out, &input);
            assert_eq!(run.code, 2, "{command} -o {}", out.display());
            assert_eq!(
                run.stderr,
                format!(
                    "u8x: {}: dangling symbolic link; refusing to create the file it points to\n",
                    out.display()
                )
            );
            assert_eq!(dir.names(), ["chain.txt", "in.txt", "out.txt"]);
        }
    }
    // A link to an existing file is still followed (the kernel opens it).
    let target = dir.file("target.txt", b"old\n");
    let run = convert_into("fix", &chain, &input);
    assert_eq!((run.code, &*run.stderr), (0, ""));
    assert_eq!(std::fs::read(&target).unwrap(), b"text\n");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

/// `-o ''`: a usage error that says so, before the input is read.
#[test]
fn an_empty_output_name_is_refused() {
    for command in ["fix", "decode", "encode", "convert"] {
        let mut args = vec![command, "-o", ""];
        if command == "convert" {
            args.extend(["--from", "utf-8", "--to", "utf-16le"]);
        }
        let run = u8x(&args, Some(b"text\n"));
        assert_eq!(
            (run.code, &*run.stderr),
            (2, "u8x: -o: empty file name\n"),
            "{command}"
        );
    }
}

/// A strict conversion that stops early leaves an existing OUT "unchanged"
/// and does not create a new one: it says which.
#[test]
fn an_incomplete_conversion_says_whether_out_existed() {
    let dir = TempDir::new("notcreated");
    let new = dir.path("new.bin");
    let run = u8x(&["decode", "-o", new.to_str().unwrap()], Some(b"a\xFF"));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "u8x: (standard input):1:2: byte offset 1: byte never valid in UTF-8\n\
             u8x: {}: not created (the input was not converted to its end)\n",
            new.display()
        )
    );
    assert_eq!(dir.names(), Vec::<String>::new());
}

/// A replaced OUT keeps its owner and group (when the user may give them,
/// as `sed -i` does) and its permission bits.
#[test]
fn a_replaced_output_keeps_its_owner_group_and_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("owner");
    let input = dir.file("in.txt", b"text\n");
    let out = dir.file("out.txt", b"old\n");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    // Another owner and group, which only root can give.
    if std::os::unix::fs::chown(&out, Some(1234), Some(5678)).is_err() {
        eprintln!("cannot give a file away here (not root); skipped");
        return;
    }
    let run = convert_into("fix", &out, &input);
    assert_eq!((run.code, &*run.stderr), (0, ""));
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (1234, 5678));
    assert_eq!(meta.permissions().mode() & 0o7777, 0o640);
    assert_eq!(std::fs::read(&out).unwrap(), b"text\n");
}

/// A link the kernel would not follow is not followed: in a sticky
/// world-writable directory, with fs.protected_symlinks on, root may not
/// follow a link owned by another user to an existing file. u8x lets the
/// kernel open OUT, so the file the link names stays as it was. (Needs root
/// and the sysctl already on, as Debian, Ubuntu and Fedora set it; this
/// test never changes it.)
#[test]
fn a_link_the_kernel_would_not_follow_is_not_followed() {
    let on =
        std::fs::read_to_string("/proc/sys/fs/protected_symlinks").is_ok_and(|v| v.trim() == "1");
    let dir = TempDir::new("sticky");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let victim = TempDir::new("victim");
    let target = victim.file("precious", b"keep\n");
    let link = dir.path("out.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let given = std::os::unix::fs::lchown(&link, Some(1234), Some(1234)).is_ok();
    if !on || !given {
        eprintln!("needs root and fs.protected_symlinks = 1 (on: {on}); skipped");
        return;
    }
    let input = victim.file("in.txt", b"attacker's\n");
    let run = convert_into("fix", &link, &input);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!("u8x: {}: Permission denied\n", link.display())
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"keep\n");
}
