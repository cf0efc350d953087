//! Where converted output goes. A regular file named by `-o OUT` is replaced
//! atomically: the output is written to a temporary file beside OUT, which is
//! renamed over OUT only once the whole input was converted and the data is
//! on disk. Until then (a full disk, an unreadable input, a strict conversion
//! that stops early, an interrupted run) OUT keeps its old contents. Standard
//! output and special files (devices, FIFOs) are written directly.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::files::FileId;
use crate::names::Name;
use crate::names::STDOUT_NAME;
use crate::outpath::{self, OutPath};
use crate::stream::CHUNK;
use crate::tempfile::TempFile;

/// Where converted output goes: standard output, a special file, or a
/// temporary file that will replace OUT.
pub struct Sink {
    /// OUT as messages name it (as given, not as resolved).
    pub name: String,
    pub is_stdout: bool,
    writer: BufWriter<Target>,
    /// Set when OUT is a regular file being replaced.
    temp: Option<TempFile>,
    /// Whether that file existed (or is to be created).
    existed: bool,
}

enum Target {
    Stdout(crate::sys::Stdout),
    File(File),
}

impl Write for Target {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Target::Stdout(out) => out.write(buf),
            Target::File(file) => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Target::Stdout(out) => out.flush(),
            Target::File(file) => file.flush(),
        }
    }
}

impl Sink {
    /// Standard output when `path` is `None` or `-`; otherwise prepares to
    /// write OUT (see [`crate::outpath`]), without changing it yet if it is
    /// a regular file.
    pub fn open(path: Option<&OsString>) -> io::Result<Sink> {
        let Some(path) = path.filter(|p| *p != "-") else {
            return Ok(Sink::new(
                STDOUT_NAME.to_string(),
                Target::Stdout(crate::sys::stdout()),
                None,
            ));
        };
        let name = Name::path(Path::new(path)).to_string();
        let path = Path::new(path);
        match outpath::resolve(path)? {
            // Written through a duplicate: its offset and flags (O_APPEND)
            // are the descriptor's.
            OutPath::Descriptor(fd) => Ok(Sink::new(name, Target::File(duplicate(fd)?), None)),
            // A device, FIFO or socket cannot be renamed over (it would be
            // replaced by a regular file), and writing it destroys nothing
            // stored.
            OutPath::Special => {
                let file = OpenOptions::new().write(true).open(path)?;
                Ok(Sink::new(name, Target::File(file), None))
            }
            OutPath::Regular(target) => {
                // The kernel opens OUT by its name first: it refuses a file
                // the user may not write (renaming needs only a writable
                // directory) and links its protected_symlinks rule forbids.
                let opened = OpenOptions::new().write(true).open(path)?;
                let old = opened.metadata()?;
                // And what it opened must be the file the links led to.
                let now = fs::symlink_metadata(&target)?;
                if (now.dev(), now.ino()) != (old.dev(), old.ino()) {
                    return Err(io::Error::other("changed while being opened"));
                }
                let (file, temp) = TempFile::create(&target, Some(&old))?;
                let mut sink = Sink::new(name, Target::File(file), Some(temp));
                sink.existed = true;
                Ok(sink)
            }
            OutPath::Missing(target) => {
                let (file, temp) = TempFile::create(&target, None)?;
                Ok(Sink::new(name, Target::File(file), Some(temp)))
            }
        }
    }

    fn new(name: String, target: Target, temp: Option<TempFile>) -> Sink {
        Sink {
            name,
            is_stdout: matches!(target, Target::Stdout(_)),
            writer: BufWriter::with_capacity(CHUNK, target),
            temp,
            existed: false,
        }
    }

    /// Where to write the output.
    pub fn writer(&mut self) -> &mut impl Write {
        &mut self.writer
    }

    /// Whether OUT is a regular file that [`Sink::abandon`] leaves as it was.
    pub fn replaces_file(&self) -> bool {
        self.temp.is_some()
    }

    /// Whether OUT is a regular file that existed before (else, if
    /// [`Sink::replaces_file`], one that is created only on success).
    pub fn existed(&self) -> bool {
        self.existed
    }

    /// The output is complete: flushes it and, for a regular file, puts it
    /// on disk and renames it over OUT.
    pub fn commit(self) -> io::Result<()> {
        let Sink { writer, temp, .. } = self;
        let target = writer.into_inner().map_err(|e| e.into_error())?;
        match (target, temp) {
            (Target::File(file), Some(temp)) => {
                // Data before name: without this, a crash soon after the
                // rename can leave OUT empty or partial on some file systems
                // (XFS, ext4 without auto_da_alloc) instead of old or new.
                file.sync_all()?;
                temp.rename()
            }
            (mut target, _) => target.flush(),
        }
    }

    /// The output is incomplete. A regular file OUT is left as it was (the
    /// temporary file is removed); standard output and special files, which
    /// cannot take back what they received, get the rest of what was written.
    pub fn abandon(self) -> io::Result<()> {
        let Sink {
            mut writer, temp, ..
        } = self;
        match temp {
            // Dropping the writer unflushed, then the temporary file.
            Some(_) => {
                let _ = writer.into_parts();
                Ok(())
            }
            None => writer.flush(),
        }
    }
}

/// A duplicate of this process's descriptor `fd`, named by OUT through
/// /proc. A standard stream that was closed when u8x started is closed
/// still (std put /dev/null in its place).
fn duplicate(fd: RawFd) -> io::Result<File> {
    let closed = match fd {
        0 => crate::sys::check_stdin().is_err(),
        1 => crate::sys::stdout_closed(),
        _ => false,
    };
    if closed {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: fcntl only reads `fd` (failing with EBADF if it is not open)
    // and returns a new descriptor, owned from here on.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `new` is a descriptor this process just opened.
    Ok(File::from(unsafe { OwnedFd::from_raw_fd(new) }))
}

/// Whether `output` names the input file `input` (writing it would destroy
/// the input): the same regular file, or the same device under any node.
/// Symbolic links are followed, as opening `output` would.
pub fn same_file(input: Option<FileId>, output: Option<&OsString>) -> bool {
    let (Some(input), Some(output)) = (input, output) else {
        return false;
    };
    output != "-" && fs::metadata(output).is_ok_and(|m| FileId::of(&m) == Some(input))
}
