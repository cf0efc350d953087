//! What the process inherited and how it meets signals.
//!
//! Before `main`, std's runtime reopens a closed standard stream on
//! /dev/null and ignores SIGPIPE, which would hide `u8x fix f >&-` (the
//! output silently lost) and change what a closed pipe does. A constructor
//! in `.init_array`, which the C runtime runs before std's start-up, records
//! both first; [`init`] then sets the signals up:
//!
//! - SIGXFSZ is ignored, so that a write beyond `ulimit -f` fails with
//!   EFBIG and is reported and cleaned up like any write error.
//! - SIGPIPE keeps the action it was inherited with, as in coreutils: by
//!   default a write to a closed pipe ends the process by SIGPIPE, quietly;
//!   ignored, the write fails with EPIPE ("write error: Broken pipe").

use std::ffi::c_int;
use std::io::{self, Write};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static SIGPIPE_IGNORED: AtomicBool = AtomicBool::new(false);

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[link_section = ".init_array"]
static RECORD_INHERITED: extern "C" fn() = record_inherited;

#[cfg(target_vendor = "apple")]
#[used]
#[link_section = "__DATA,__mod_init_func"]
static RECORD_INHERITED: extern "C" fn() = record_inherited;

/// Runs before std's start-up: which standard streams were closed, and
/// whether SIGPIPE was ignored.
extern "C" fn record_inherited() {
    let closed = |fd: c_int| {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        flags == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
    };
    STDIN_CLOSED.store(closed(0), Ordering::Relaxed);
    STDOUT_CLOSED.store(closed(1), Ordering::Relaxed);
    SIGPIPE_IGNORED.store(
        disposition(libc::SIGPIPE) == libc::SIG_IGN,
        Ordering::Relaxed,
    );
}

/// The current action of `signal` (SIG_DFL, SIG_IGN or a handler).
fn disposition(signal: c_int) -> libc::sighandler_t {
    // SAFETY: a zeroed sigaction is a valid out-parameter; a null new
    // action only reads the current one.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, ptr::null(), &mut old);
        old.sa_sigaction
    }
}

/// Sets the signals up (see the module's notes). Called first in `main`.
pub fn init() {
    // SAFETY: setting dispositions to SIG_IGN or SIG_DFL.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        // std ignores SIGPIPE itself: what counts is what it was.
        if !SIGPIPE_IGNORED.load(Ordering::Relaxed) {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
}

/// The error of a standard stream that was closed when u8x started.
fn closed_stream() -> io::Error {
    io::Error::from_raw_os_error(libc::EBADF)
}

/// Whether standard output was closed when u8x started.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Fails as reading standard input fails when it was closed at start-up.
pub fn check_stdin() -> io::Result<()> {
    match STDIN_CLOSED.load(Ordering::Relaxed) {
        true => Err(closed_stream()),
        false => Ok(()),
    }
}

/// Standard output, whose writes fail with EBADF when it was closed at
/// start-up (std put /dev/null in its place).
pub struct Stdout(io::StdoutLock<'static>);

pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if stdout_closed() && !buf.is_empty() {
            return Err(closed_stream());
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
