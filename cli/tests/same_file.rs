//! The routes from an output back to the input: standard output that is
//! the input file (`>> f`, `1<> f`), and devices named twice (`-o` a block
//! or character device that is the input under another node).

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

/// The text: 22 characters a line, some of them not ASCII, and a
/// byte that `fix` rewrites (so an overwrite in place would show).
fn text() -> Vec<u8> {
    let mut data = "Grüße, héllo wörld € \n".repeat(2000).into_bytes();
    data.extend_from_slice(b"\xFF end\n");
    data
}

/// Standard output appended to or opened on the input (`>> f`, `1<> f`,
/// also with the input on standard input): refused before anything is
/// read or written, as `cat` refuses it, by every converting command.
#[test]
fn standard_output_that_is_the_input_is_refused() {
    let dir = TempDir::new("stdout-input");
    let data = text();
    let input = dir.file("t.txt", &data);
    let name = input.to_str().unwrap();
    // A limit, should the refusal fail, rather than a filled disk.
    let scripts = [
        "ulimit -f 4096 && exec \"$0\" \"$@\" >> \"$T\"",
        "ulimit -f 4096 && exec \"$0\" \"$@\" 1<> \"$T\"",
    ];
    let commands: [&[&str]; 4] = [
        &["fix"],
        &["decode", "--policy", "replace"],
        &["encode", "--from", "latin1"],
        &[
            "convert", "--from", "utf-8", "--to", "utf-16le", "--policy", "replace",
        ],
    ];
    for script in scripts {
        for command in commands {
            for named in [true, false] {
                let mut args = command.to_vec();
                let stdin = if named {
                    args.push(name);
                    None
                } else {
                    Some(input.as_path())
                };
                let run = sh_env(script, &args, stdin, &[("T", input.as_os_str())]);
                let shown = if named { name } else { "(standard input)" };
                assert_eq!(run.code(), Some(2), "{script} {args:?}: {}", run.stderr);
                assert_eq!(
                    run.stderr,
                    format!("u8x: {shown}: input file is output file\n"),
                    "{script} {args:?}"
                );
                assert!(
                    std::fs::read(&input).unwrap() == data,
                    "{script} {args:?}: changed"
                );
            }
        }
    }
    // Nothing left to read: nothing to refuse (as cat: `cat e >> e` of an
    // empty e succeeds).
    let empty = dir.file("e.txt", b"");
    let env = [("T", empty.as_os_str())];
    let run = sh_env(scripts[0], &["fix", empty.to_str().unwrap()], None, &env);
    assert_eq!((run.code(), &*run.stderr), (Some(0), ""));
    // Standard output is not written with -o: not refused.
    let out = dir.path("out.txt");
    let env = [("T", input.as_os_str())];
    let run = sh_env(
        scripts[0],
        &["fix", "-q", "-o", out.to_str().unwrap(), name],
        None,
        &env,
    );
    assert_eq!((run.code(), &*run.stderr), (Some(1), ""));
    assert!(std::fs::read(&input).unwrap() == data);
}

/// `check --all` would read its own reports: refused for that file (the
/// others are still checked, status 2). Without --all a report is written
/// only once the file's first error was found and its reading has ended,
/// as grep allows `grep -m1` and `grep -l`: appended, status 1.
#[test]
fn check_all_into_its_own_input_is_refused() {
    let dir = TempDir::new("check-self");
    let data = vec![0xFF; 100];
    let input = dir.file("t.txt", &data);
    let other = dir.file("u.txt", b"\xC0");
    let name = input.to_str().unwrap();
    let script = "ulimit -f 4096 && exec \"$0\" \"$@\" >> \"$T\"";
    let env = [("T", input.as_os_str())];
    for args in [
        &["check", "--all", name, other.to_str().unwrap()][..],
        &["check", "--all", "--json", name, other.to_str().unwrap()],
        &["check", "--all", "-j", "2", name, other.to_str().unwrap()],
    ] {
        let run = sh_env(script, args, None, &env);
        assert_eq!(run.code(), Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("u8x: {name}: input file is output file\n"),
            "{args:?}"
        );
        // Only the other file's report was appended.
        let now = std::fs::read(&input).unwrap();
        assert_eq!(&now[..100], &data[..], "{args:?}");
        let appended = String::from_utf8(now[100..].to_vec()).unwrap();
        assert_eq!(appended.lines().count(), 1, "{args:?}: {appended}");
        assert!(appended.contains("u.txt"), "{args:?}: {appended}");
        std::fs::write(&input, &data).unwrap();
    }
    let run = sh_env(script, &["check", name], None, &env);
    assert_eq!((run.code(), &*run.stderr), (Some(1), ""));
    let now = std::fs::read(&input).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&now[100..]),
        format!("{name}:1:1: byte offset 0: byte never valid in UTF-8 (bytes FF)\n")
    );
}

/// Creates a device node `path` for (`kind`, major, minor) with mknod(1);
/// false (and why, on standard error) when that is not permitted here.
fn mknod(path: &Path, kind: &str, major: u32, minor: u32) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .args([kind, &major.to_string(), &minor.to_string()])
        .output();
    match made {
        Ok(out) if out.status.success() => true,
        other => {
            eprintln!("mknod {kind} {major} {minor} not permitted ({other:?}); skipped");
            false
        }
    }
}

/// The same device under two names, or twice under one: refused by its
/// device number, before anything is read (reading /dev/zero never ends).
/// /dev/null, which holds nothing, is not refused.
#[test]
fn a_device_named_as_input_and_output_is_refused() {
    let dir = TempDir::new("devices");
    let zero = dir.path("zero");
    let timeout = "exec timeout 20 \"$0\" \"$@\"";
    let mut outputs = vec!["/dev/zero".to_string()];
    if mknod(&zero, "c", 1, 5) {
        outputs.push(zero.to_str().unwrap().to_string());
    }
    for out in &outputs {
        for command in ["fix", "decode"] {
            let run = sh(timeout, &[command, "-o", out, "/dev/zero"], None);
            assert_eq!(run.code(), Some(2), "{command} -o {out}: {}", run.stderr);
            assert_eq!(
                run.stderr,
                "u8x: /dev/zero: input and output are the same file; refusing to overwrite it\n"
            );
        }
    }
    let run = sh(timeout, &["fix", "-o", "/dev/null", "/dev/null"], None);
    assert_eq!((run.code(), &*run.stderr), (Some(0), ""));
    let run = sh(
        "exec \"$0\" \"$@\" > /dev/null",
        &["fix"],
        Some(Path::new("/dev/null")),
    );
    assert_eq!((run.code(), &*run.stderr), (Some(0), ""));
}

/// A loop device (root only): `fix -o` the device it reads, by its own
/// node and by another node of the same device number, is refused and the
/// device's contents stay as they were.
#[test]
fn a_block_device_named_as_input_and_output_is_refused() {
    let dir = TempDir::new("loop");
    let data = text();
    let image = dir.file("image", &data[..16384]);
    let attach = Command::new("losetup")
        .args(["-f", "--show"])
        .arg(&image)
        .output();
    let device = match attach {
        Ok(out) if out.status.success() => String::from_utf8(out.stdout).unwrap(),
        other => {
            eprintln!("losetup not permitted ({other:?}); skipped");
            return;
        }
    };
    let device = device.trim().to_string();
    struct Detach(String);
    impl Drop for Detach {
        fn drop(&mut self) {
            let _ = Command::new("losetup").args(["-d", &self.0]).status();
        }
    }
    let _detach = Detach(device.clone());
    let minor: u32 = device.trim_start_matches("/dev/loop").parse().unwrap();
    let alias = dir.path("alias");
    let mut outputs = vec![device.clone()];
    if mknod(&alias, "b", 7, minor) {
        outputs.push(alias.to_str().unwrap().to_string());
    }
    for out in &outputs {
        let run = sh(
            "exec timeout 20 \"$0\" \"$@\"",
            &["fix", "-o", out, &device],
            None,
        );
        assert_eq!(run.code(), Some(2), "-o {out}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!(
                "u8x: {device}: input and output are the same file; refusing to overwrite it\n"
            )
        );
        let std::process::Output { stdout, .. } =
            Command::new("cat").arg(&device).output().unwrap();
        assert!(stdout == data[..16384], "-o {out}: the device was written");
    }
}
