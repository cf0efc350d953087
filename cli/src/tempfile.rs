//! The temporary file that replaces a regular file OUT: created beside it,
//! exclusively, with OUT's owner, group and permission bits, removed when
//! dropped (or by a signal, see [`crate::sys`]) unless renamed over OUT.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// A temporary file beside the file it will replace; removed when dropped
/// unless renamed into place.
pub struct TempFile {
    path: PathBuf,
    target: PathBuf,
    renamed: bool,
}

impl TempFile {
    /// Creates `.NAME.u8x-PID-N.tmp` in `target`'s directory, exclusively (so
    /// never another program's file, nor through a planted link). With
    /// `old`, the metadata of the file it replaces, it gets that file's
    /// owner and group (as far as this user may give them, as `sed -i`
    /// does) and permission bits; without, those File::create gives (0666 &
    /// ~umask).
    pub fn create(target: &Path, old: Option<&Metadata>) -> io::Result<(File, TempFile)> {
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
        let mode = old.map(|m| m.permissions().mode() & 0o777);
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
        if let Some(old) = old {
            keep_owner(&file, old);
            // The umask applied at creation, and a change of owner clears
            // setuid bits: OUT's bits are restored exactly (setuid and the
            // like are not carried over).
            file.set_permissions(Permissions::from_mode(old.permissions().mode() & 0o777))?;
        }
        Ok((file, temp))
    }

    /// Replaces the target with the temporary file.
    pub fn rename(mut self) -> io::Result<()> {
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

/// Gives `file` the owner and group of `old` where that differs from what
/// it got, as `sed -i` does: both if permitted (root), else the group alone
/// (a group the user belongs to), else neither.
fn keep_owner(file: &File, old: &Metadata) {
    let Ok(new) = file.metadata() else { return };
    if (new.uid(), new.gid()) == (old.uid(), old.gid()) {
        return;
    }
    let fd = std::os::fd::AsRawFd::as_raw_fd(file);
    // SAFETY: fchown on a descriptor open for the duration of the call.
    unsafe {
        if libc::fchown(fd, old.uid(), old.gid()) != 0 {
            libc::fchown(fd, u32::MAX, old.gid());
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
            crate::names::Name::path(dir)
        ),
    )
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
