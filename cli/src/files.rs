//! Which file an input or an output is: what lets u8x refuse to write the
//! file it is reading, under any name (another path, a link, a redirection
//! of standard input or output, another node of the same device).

use std::fs::{File, Metadata};
use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt};

/// A file's identity: the same for every name it has, unlike its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileId {
    /// A regular file: its file system's device and its inode.
    Stored { dev: u64, ino: u64 },
    /// A block or character device: the device itself (`st_rdev`), which
    /// every node made for it shares.
    Device { block: bool, rdev: u64 },
}

impl FileId {
    /// The identity of what `meta` describes, if writing it could change
    /// what reading it gives: a regular file or a device. Pipes, FIFOs and
    /// sockets have none (what is written to them is not read back from
    /// them), nor do directories.
    pub fn of(meta: &Metadata) -> Option<FileId> {
        let kind = meta.file_type();
        if kind.is_file() {
            Some(FileId::Stored {
                dev: meta.dev(),
                ino: meta.ino(),
            })
        } else if kind.is_block_device() || kind.is_char_device() {
            Some(FileId::Device {
                block: kind.is_block_device(),
                rdev: meta.rdev(),
            })
        } else {
            None
        }
    }

    /// The identity of an input open as `fd` and described by `meta`, as
    /// [`FileId::of`] gives it, but none for a terminal (reading and
    /// writing one is a conversation, not an overwrite) nor for /dev/null,
    /// which holds nothing (`u8x fix < /dev/null > /dev/null` is harmless).
    pub fn of_input(fd: BorrowedFd, meta: &Metadata) -> Option<FileId> {
        let id = FileId::of(meta)?;
        if let FileId::Device { block: false, rdev } = id {
            if is_terminal(fd) || null_device() == Some(rdev) {
                return None;
            }
        }
        Some(id)
    }
}

/// Whether `fd` is a terminal.
fn is_terminal(fd: BorrowedFd) -> bool {
    use std::io::IsTerminal;
    fd.is_terminal()
}

/// The device number of /dev/null here.
fn null_device() -> Option<u64> {
    let meta = std::fs::metadata("/dev/null").ok()?;
    meta.file_type().is_char_device().then(|| meta.rdev())
}

/// The metadata of an open descriptor (fstat), through a duplicate.
pub fn fstat(fd: BorrowedFd) -> io::Result<Metadata> {
    File::from(fd.try_clone_to_owned()?).metadata()
}

/// Whether the input open as `fd` has something left to read: a regular
/// file before its end (from the descriptor's offset: standard input may
/// have been read partly already), and any device.
pub fn unread(fd: BorrowedFd, meta: &Metadata) -> bool {
    if !meta.is_file() {
        return true;
    }
    // SAFETY: lseek on a descriptor that stays open for the call.
    let offset = unsafe { libc::lseek(std::os::fd::AsRawFd::as_raw_fd(&fd), 0, libc::SEEK_CUR) };
    offset < 0 || (offset as u64) < meta.len()
}

/// The identity of standard output, if it is a file or device (and was
/// open when u8x started).
pub fn stdout_id() -> Option<FileId> {
    if crate::sys::stdout_closed() {
        return None;
    }
    let meta = fstat(io::stdout().as_fd()).ok()?;
    FileId::of(&meta)
}

/// The error for an input that standard output would write into while it
/// is read: `u8x: FILE: input file is output file`, as `cat` says it.
pub fn input_is_output() -> io::Error {
    io::Error::other("input file is output file")
}

/// The error for a regular file whose size changed while it was read.
pub fn changed() -> io::Error {
    io::Error::other("file changed while being read")
}

/// `read_exact_at` on a regular file of a known size: reading short means
/// the file shrank since, which is said as such (not "failed to fill whole
/// buffer").
pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => changed(),
        _ => e,
    })
}

/// Fails with [`changed`] unless the file open as `fd` still has `size`
/// bytes: what a read that went to the end checks last.
pub fn still(fd: BorrowedFd, size: u64) -> io::Result<()> {
    match fstat(fd)?.len() == size {
        true => Ok(()),
        false => Err(changed()),
    }
}

/// A regular file read as a stream, which must give exactly the bytes it
/// had when it was opened: more, or fewer before the end, or a size at the
/// end that is not the first one, is [`changed`].
pub struct Watched<R> {
    inner: R,
    /// The bytes to read (from where reading starts), the file's size.
    expected: u64,
    size: u64,
    read: u64,
}

impl<R: io::Read + AsFd> Watched<R> {
    /// `inner`, read from its offset on, with `size` bytes in all.
    pub fn new(inner: R, size: u64) -> Self {
        // SAFETY: lseek on a descriptor that stays open for the call.
        let offset = unsafe {
            libc::lseek(
                std::os::fd::AsRawFd::as_raw_fd(&inner.as_fd()),
                0,
                libc::SEEK_CUR,
            )
        };
        let start = u64::try_from(offset).unwrap_or(0).min(size);
        Watched {
            inner,
            expected: size - start,
            size,
            read: 0,
        }
    }
}

impl<R: io::Read + AsFd> io::Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.expected {
            return Err(changed());
        }
        if n == 0 && !buf.is_empty() {
            if self.read != self.expected {
                return Err(changed());
            }
            still(self.inner.as_fd(), self.size)?;
        }
        Ok(n)
    }
}
