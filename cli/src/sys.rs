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
//! - SIGHUP, SIGINT, SIGQUIT, SIGTERM and (unless ignored) SIGPIPE remove
//!   the temporary file of an OUT being replaced, if there is one, then end
//!   the process by the same signal with its default action. A signal
//!   inherited as ignored (`nohup`, `&` in a script) stays ignored.
//!
//! The handler only swaps a pointer, calls `unlink`, `signal` and `raise`,
//! all async-signal-safe. The temporary file's path is published after the
//! file is created and withdrawn before it is renamed or removed, with the
//! signals blocked in this thread meanwhile; the threads u8x starts block
//! them for good ([`block_signals_in_this_thread`]), so a signal waits for
//! the end of those steps and the handler never removes a renamed file.

use std::ffi::{c_char, c_int, CString};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static SIGPIPE_IGNORED: AtomicBool = AtomicBool::new(false);

/// The temporary file to remove on a signal (a leaked `CString`), or null.
static TEMP: AtomicPtr<c_char> = AtomicPtr::new(ptr::null_mut());

/// The signals after which the temporary file is removed.
const CLEANUP: [c_int; 5] = [
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGTERM,
    libc::SIGPIPE,
];

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
    // SAFETY: installing SIG_IGN or a handler that is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        for signal in CLEANUP {
            let ignored = match signal {
                // std ignores SIGPIPE itself: what counts is what it was.
                libc::SIGPIPE => SIGPIPE_IGNORED.load(Ordering::Relaxed),
                _ => disposition(signal) == libc::SIG_IGN,
            };
            if ignored {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            for other in CLEANUP {
                libc::sigaddset(&mut action.sa_mask, other);
            }
            libc::sigaction(signal, &action, ptr::null_mut());
        }
    }
}

/// Removes the temporary file, then dies of `signal` as its default action
/// would have it.
extern "C" fn on_signal(signal: c_int) {
    let temp = TEMP.swap(ptr::null_mut(), Ordering::SeqCst);
    // SAFETY: only async-signal-safe calls; `temp` is a NUL-terminated
    // path that nothing frees once it has been swapped out here.
    unsafe {
        if !temp.is_null() {
            libc::unlink(temp);
        }
        libc::signal(signal, libc::SIG_DFL);
        // Pending until the handler returns and unblocks it.
        libc::raise(signal);
    }
}

/// The set of [`CLEANUP`] signals.
fn cleanup_set() -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the set before it is read.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in CLEANUP {
            libc::sigaddset(&mut set, signal);
        }
        set
    }
}

/// For threads other than the main one, first thing: the signals are then
/// handled by the main thread, after its steps on the temporary file.
pub fn block_signals_in_this_thread() {
    let set = cleanup_set();
    // SAFETY: changes this thread's mask only.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, ptr::null_mut()) };
}

/// Runs `f` with the cleanup signals held back in this thread.
fn with_signals_blocked<R>(f: impl FnOnce() -> R) -> R {
    let set = cleanup_set();
    // SAFETY: a zeroed sigset_t is a valid out-parameter.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: changes this thread's mask only, and restores it.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old) };
    let result = f();
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, ptr::null_mut()) };
    result
}

/// Runs `create`, which creates the temporary file `path`, and has the
/// file removed on a signal from then on.
pub fn create_temp<T>(path: &Path, create: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let c_path = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    with_signals_blocked(|| {
        let created = create()?;
        let old = TEMP.swap(c_path.into_raw(), Ordering::SeqCst);
        free(old);
        Ok(created)
    })
}

/// Runs `finish`, which renames or removes the temporary file, with the
/// signals held back; once it succeeds, a signal no longer removes the file.
pub fn finish_temp(finish: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
    with_signals_blocked(|| {
        finish()?;
        free(TEMP.swap(ptr::null_mut(), Ordering::SeqCst));
        Ok(())
    })
}

/// Frees a path that [`create_temp`] published.
fn free(path: *mut c_char) {
    if !path.is_null() {
        // SAFETY: from CString::into_raw, and swapped out of TEMP by this
        // thread, so no one else holds it.
        drop(unsafe { CString::from_raw(path) });
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
