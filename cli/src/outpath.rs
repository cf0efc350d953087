//! What `-o OUT` names, found without writing anything.
//!
//! - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` (and links
//!   to them) lead through a /proc "magic link" to one of u8x's own open
//!   descriptors: that descriptor is written, in place, with its own offset
//!   and flags (`>> log` appends). Reading such a link with `readlink` would
//!   give a name that is not the file (`log (deleted)`, `pipe:[42]`,
//!   `/memfd:m (deleted)`), and replacing that name would lose the file the
//!   descriptor holds. Any other /proc link (another process's descriptor)
//!   is refused.
//! - A chain of ordinary symbolic links is followed to the file it ends at,
//!   which is then replaced (the links stay), but only if that file exists:
//!   the kernel opens OUT first, so its own rules (permissions,
//!   `fs.protected_symlinks` in sticky world-writable directories) decide
//!   whether the links may be followed. A link to a file that does not
//!   exist is refused: creating the file through it would be a user-space
//!   follow that the kernel's protection never sees.

use std::fs;
use std::io;
use std::os::fd::RawFd;
use std::path::{Path, PathBuf};

/// What OUT is.
pub enum OutPath {
    /// One of u8x's own descriptors, named through /proc.
    Descriptor(RawFd),
    /// A device, FIFO or socket: opened by its name and written directly.
    Special,
    /// A regular file (the end of OUT's links), to be replaced.
    Regular(PathBuf),
    /// Nothing: a new file at this path (OUT itself, no link involved).
    Missing(PathBuf),
}

/// The limit Linux uses (MAXSYMLINKS).
const MAX_LINKS: usize = 40;

/// Finds what `path` names (see the module's notes).
pub fn resolve(path: &Path) -> io::Result<OutPath> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            // A descriptor that is not open: nothing to create there.
            Err(e) if e.kind() == io::ErrorKind::NotFound && in_proc(&at) => return Err(e),
            Err(e) if e.kind() == io::ErrorKind::NotFound && at != path => {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    "dangling symbolic link; refusing to create the file it points to",
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(OutPath::Missing(at)),
            Err(e) => return Err(e),
        };
        if meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "Is a directory",
            ));
        }
        if meta.is_file() {
            return Ok(OutPath::Regular(at));
        }
        if !meta.file_type().is_symlink() {
            return Ok(OutPath::Special);
        }
        if in_proc(&at) {
            return own_descriptor(&at).map(OutPath::Descriptor).ok_or_else(|| {
                io::Error::other(
                    "a /proc link that is not one of u8x's own descriptors; refusing to write \
                     through it",
                )
            });
        }
        let target = fs::read_link(&at)?;
        // Relative to the link's directory; joining an absolute target
        // gives the target.
        at = match at.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    Err(io::Error::other("Too many levels of symbolic links"))
}

/// The directory `path` is in.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Whether `path` is an entry of a proc file system (as the kernel
/// resolves its directory: `/dev/fd/1` is in `/proc/self/fd`).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn in_proc(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    const PROC_SUPER_MAGIC: i64 = 0x9fa0;
    let Ok(dir) = std::ffi::CString::new(parent(path).as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a zeroed statfs is a valid out-parameter; `dir` is a
    // NUL-terminated path.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    let found = unsafe { libc::statfs(dir.as_ptr(), &mut fs) } == 0;
    #[allow(clippy::unnecessary_cast)] // f_type's width depends on the target.
    let kind = fs.f_type as i64;
    found && kind == PROC_SUPER_MAGIC
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn in_proc(_: &Path) -> bool {
    false
}

/// The descriptor a /proc link names, if it is one of this process's: an
/// entry `N` of its own `fd` directory (`/proc/self/fd`, the same as
/// `/proc/PID/fd` and `/dev/fd`, or `/proc/thread-self/fd`).
fn own_descriptor(path: &Path) -> Option<RawFd> {
    use std::os::unix::fs::MetadataExt;
    let fd: RawFd = path.file_name()?.to_str()?.parse().ok()?;
    let dir = fs::metadata(parent(path)).ok()?;
    let own = ["/proc/self/fd", "/proc/thread-self/fd"]
        .iter()
        .any(|own| fs::metadata(own).is_ok_and(|m| (m.dev(), m.ino()) == (dir.dev(), dir.ino())));
    own.then_some(fd)
}
