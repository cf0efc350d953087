//! Running the binary through a shell (closed descriptors, limits, signals)
//! and measuring its peak memory.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::TempFile;

/// What a run of the binary through a shell produced, however it ended.
pub struct Ended {
    pub status: std::process::ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Ended {
    /// The exit code, or `None` when a signal ended the process.
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// The signal that ended the process, if one did.
    pub fn signal(&self) -> Option<i32> {
        use std::os::unix::process::ExitStatusExt;
        self.status.signal()
    }
}

/// Runs `/bin/sh -c SCRIPT u8x ARGS...`: in SCRIPT, `$0` is the binary and
/// `"$@"` the arguments (`exec "$0" "$@" >&-` closes standard output).
/// Standard input is empty unless `stdin` is given.
pub fn sh(script: &str, args: &[&str], stdin: Option<&Path>) -> Ended {
    sh_env(script, args, stdin, &[])
}

/// [`sh`] with environment variables set (for the script to use).
pub fn sh_env(
    script: &str,
    args: &[&str],
    stdin: Option<&Path>,
    env: &[(&str, &std::ffi::OsStr)],
) -> Ended {
    let input = match stdin {
        Some(path) => Stdio::from(std::fs::File::open(path).unwrap()),
        None => Stdio::null(),
    };
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new("/bin/sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(input)
        .output()
        .expect("/bin/sh runs");
    Ended {
        status,
        stdout,
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `u8x args...` with `env`, its output thrown away, and returns its
/// exit code and its peak resident memory in KiB, as GNU time measures it
/// (`wait4` of a child it forks itself); `None` without /usr/bin/time.
///
/// (Not `wait4` on a child spawned here: the kernel carries the high-water
/// mark of the memory a process was spawned from across `exec`, so the
/// test process's own size would count.)
pub fn peak_kib(args: &[&str], env: &[(&str, &str)]) -> Option<(Option<i32>, u64)> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        eprintln!("no /usr/bin/time; memory not measured");
        return None;
    }
    let report = TempFile::absent("time.txt");
    let status = Command::new(time)
        .args(["-f", "%M", "-o", report.path()])
        .arg(env!("CARGO_BIN_EXE_u8x"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("/usr/bin/time runs");
    let text = String::from_utf8(report.read()).unwrap();
    // GNU time says "Command exited with non-zero status N" first.
    let kib = text.lines().last().and_then(|l| l.trim().parse().ok());
    Some((status.code(), kib.expect("time -f %M gives a number")))
}
