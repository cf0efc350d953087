//! Where converted output goes. A regular file named by `-o OUT` is replaced
//! atomically: the output is written to a temporary file beside OUT, which is
//! renamed over OUT only once the whole input was converted and the data is
//! on disk. Until then (a full disk, an unreadable input, a strict conversion
//! that stops early, an interrupted run) OUT keeps its old contents. Standard
//! output and special files (devices, FIFOs) are written directly.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::files::FileId;
use crate::stream::{CHUNK, STDOUT_NAME};

/// Where converted output goes: standard output, a special file, or a
/// temporary file that will replace OUT.
pub struct Sink {
    /// OUT as messages name it (as given, not as resolved).
    pub name: String,
    pub is_stdout: bool,
    writer: BufWriter<Target>,
    /// Set when OUT is a regular file being replaced.
    temp: Option<TempFile>,
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
    /// write OUT, without changing it yet if it is a regular file.
    pub fn open(path: Option<&OsString>) -> io::Result<Sink> {
        let Some(path) = path.filter(|p| *p != "-") else {
            return Ok(Sink::new(
                STDOUT_NAME.to_string(),
                Target::Stdout(crate::sys::stdout()),
                None,
            ));
        };
        let name = Path::new(path).display().to_string();
        // What OUT is, as the kernel resolves it (magic links such as
        // /dev/stdout included).
        let existing = match fs::metadata(path) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        match existing {
            Some(meta) if meta.is_dir() => Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "Is a directory",
            )),
            // A device, FIFO or socket cannot be renamed over (it would be
            // replaced by a regular file), and writing it destroys nothing
            // stored.
            Some(meta) if !meta.is_file() => {
                let file = File::create(path)?;
                Ok(Sink::new(name, Target::File(file), None))
            }
            Some(meta) => {
                // Renaming needs only a writable directory; keep refusing a
                // file the user may not write, as File::create did.
                OpenOptions::new().write(true).open(path)?;
                Sink::replacing(name, Path::new(path), Some(meta.permissions()))
            }
            None => Sink::replacing(name, Path::new(path), None),
        }
    }

    /// Prepares to replace the regular file `path` (which need not exist).
    fn replacing(name: String, path: &Path, permissions: Option<Permissions>) -> io::Result<Sink> {
        // Replace the file a symbolic link names, not the link.
        let (file, temp) = TempFile::create(&follow_links(path)?, permissions)?;
        Ok(Sink::new(name, Target::File(file), Some(temp)))
    }

    fn new(name: String, target: Target, temp: Option<TempFile>) -> Sink {
        Sink {
            name,
            is_stdout: matches!(target, Target::Stdout(_)),
            writer: BufWriter::with_capacity(CHUNK, target),
            temp,
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

/// The file that writing `path` would write: `path`, or the file its chain of
/// symbolic links ends at (which need not exist yet).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    // The limit Linux uses (MAXSYMLINKS).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                // Relative to the link's directory; joining an absolute
                // target gives the target.
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("Too many levels of symbolic links"))
}

/// A temporary file beside the file it will replace; removed when dropped
/// unless renamed into place.
struct TempFile {
    path: PathBuf,
    target: PathBuf,
    renamed: bool,
}

impl TempFile {
    /// Creates `.NAME.u8x-PID-N.tmp` in `target`'s directory, exclusively (so
    /// never another program's file, nor through a planted link), with
    /// `permissions` if given, else those File::create gives (0666 & ~umask).
    fn create(target: &Path, permissions: Option<Permissions>) -> io::Result<(File, TempFile)> {
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let Some(name) = target.file_name() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a file name",
            ));
        };
        // Never more open than OUT, even before the umask is corrected.
        let mode = permissions.as_ref().map(|p| p.mode() & 0o777);
        let (file, path) = match create_exclusive(dir, name, mode) {
            Ok(created) => created,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(e),
            Err(e) => return Err(describe_temp_error(e, dir)),
        };
        let temp = TempFile {
            path,
            target: target.to_path_buf(),
            renamed: false,
        };
        if let Some(mode) = mode {
            // The umask applied at creation; OUT's bits are restored exactly
            // (setuid and the like are not carried over).
            file.set_permissions(Permissions::from_mode(mode))?;
        }
        Ok((file, temp))
    }

    /// Replaces the target with the temporary file.
    fn rename(mut self) -> io::Result<()> {
        crate::sys::finish_temp(|| fs::rename(&self.path, &self.target))?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = crate::sys::finish_temp(|| {
                let _ = fs::remove_file(&self.path);
                Ok(())
            });
        }
    }
}

/// Creates a new file named by [`temp_name`] in `dir`, with `mode` (before
/// the umask) or File::create's 0666, trying further numbers while the name
/// is taken.
fn create_exclusive(dir: &Path, name: &OsStr, mode: Option<u32>) -> io::Result<(File, PathBuf)> {
    const TRIES: u32 = 100;
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    if let Some(mode) = mode {
        options.mode(mode);
    }
    for n in 0..TRIES {
        let path = dir.join(temp_name(name, n));
        // Removed by a signal from the moment it exists.
        match crate::sys::create_temp(&path, || options.open(&path)) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::ErrorKind::AlreadyExists.into())
}

/// `.NAME.u8x-PID-N.tmp`, hidden, and recognisable as u8x's if one is left
/// by a killed run. A long NAME is shortened to keep within NAME_MAX (255).
fn temp_name(name: &OsStr, n: u32) -> OsString {
    let name = &name.as_bytes()[..name.len().min(200)];
    let mut temp = b".".to_vec();
    temp.extend_from_slice(name);
    temp.extend_from_slice(format!(".u8x-{}-{n}.tmp", std::process::id()).as_bytes());
    OsString::from_vec(temp)
}

/// Says that the temporary file failed: a "Permission denied" on OUT would
/// be puzzling when OUT itself is writable but its directory is not.
fn describe_temp_error(e: io::Error, dir: &Path) -> io::Error {
    let text = crate::stream::describe_io(&e);
    io::Error::new(
        e.kind(),
        format!(
            "cannot create a temporary file in {}: {text}",
            dir.display()
        ),
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_are_hidden_and_short_enough() {
        let name = temp_name(OsStr::new("out.txt"), 3);
        let expected = format!(".out.txt.u8x-{}-3.tmp", std::process::id());
        assert_eq!(name, OsString::from(expected));
        let long = "x".repeat(255);
        assert!(temp_name(OsStr::new(&long), 99).len() <= 255);
    }

    #[test]
    fn a_taken_temp_name_is_skipped_not_reused() {
        let dir = std::env::temp_dir().join(format!("u8x-output-{}", std::process::id()));
        fs::create_dir(&dir).unwrap();
        let name = OsStr::new("out.txt");
        let taken = dir.join(temp_name(name, 0));
        fs::write(&taken, b"someone else's").unwrap();
        let (_, path) = create_exclusive(&dir, name, None).unwrap();
        assert_eq!(path, dir.join(temp_name(name, 1)));
        assert_eq!(fs::read(&taken).unwrap(), b"someone else's");
        fs::remove_dir_all(&dir).unwrap();
    }
}
