//! Reading any input in fixed-size chunks, carrying the few bytes a chunk
//! boundary cuts into the next chunk, telling which file an input is, and
//! naming inputs and outputs in messages.

use std::ffi::OsStr;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, SyncSender};

use crate::files::{self, FileId, Watched};
use crate::names::Name;

/// Bytes read per chunk. Memory use does not depend on the input size.
pub const CHUNK: usize = 64 * 1024;

/// An input named on the command line: a file, or standard input for `-`.
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `-` is standard input; anything else a file name.
    pub fn from_arg(arg: &OsStr) -> Source {
        if arg == "-" {
            Source::Stdin
        } else {
            Source::File(PathBuf::from(arg))
        }
    }

    /// The input as messages name it.
    pub fn name(&self) -> Name {
        match self {
            Source::Stdin => Name::stdin(),
            Source::File(path) => Name::path(path),
        }
    }

    /// Opens the input for reading.
    pub fn open(&self) -> io::Result<Input> {
        Ok(match self {
            Source::Stdin => {
                crate::sys::check_stdin()?;
                // fstat on fd 0: what the shell redirected, whatever its name.
                let stdin = io::stdin();
                let meta = files::fstat(stdin.as_fd()).ok();
                let fd = stdin.as_fd();
                Input {
                    file: meta.as_ref().and_then(|m| FileId::of_input(fd, m)),
                    unread: meta.as_ref().is_none_or(|m| files::unread(fd, m)),
                    size: meta.as_ref().filter(|m| m.is_file()).map(Metadata::len),
                    // Read from where the shell left it, not from offset 0.
                    regular: None,
                    reader: match meta.filter(Metadata::is_file) {
                        Some(meta) => Box::new(Watched::new(stdin, meta.len())),
                        None => Box::new(stdin),
                    },
                }
            }
            Source::File(path) => {
                let file = File::open(path)?;
                let meta = file.metadata()?;
                let size = meta.is_file().then_some(meta.len());
                Input {
                    file: FileId::of_input(file.as_fd(), &meta),
                    unread: files::unread(file.as_fd(), &meta),
                    size,
                    regular: match size {
                        Some(size) => Some((file.try_clone()?, size)),
                        None => None,
                    },
                    reader: match size {
                        Some(size) => Box::new(Watched::new(file, size)),
                        None => Box::new(file),
                    },
                }
            }
        })
    }
}

/// An opened input.
pub struct Input {
    pub reader: Box<dyn Read + Send>,
    /// Which file it is, if it is one that writing an output could destroy
    /// before it is read (a regular file or a device).
    pub file: Option<FileId>,
    /// Whether anything is left to read in it (an empty file, or standard
    /// input at the end of its file, has nothing an output could destroy).
    pub unread: bool,
    /// Its size, if it is a regular file.
    pub size: Option<u64>,
    /// A regular file named on the command line, and its size: what `-j`
    /// can read in parallel.
    pub regular: Option<(File, u64)>,
}

/// An I/O error as `cat` and friends show it: "No such file or directory",
/// without Rust's " (os error 2)" suffix.
pub fn describe_io(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// One chunk of input: `data` starts at byte `offset` of the input; `more` is
/// false once the end of the input is in `data`.
pub struct Chunk<'a> {
    pub data: &'a [u8],
    pub more: bool,
    pub offset: u64,
}

/// Reads an input in chunks of [`CHUNK`] bytes (or [`PREFETCH`] bytes when
/// a thread reads ahead). The caller says how much of each chunk it
/// consumed; the rest (a sequence cut by the chunk end, at most a few bytes)
/// is carried to the front of the next chunk.
pub struct Chunks<R> {
    feed: Feed<R>,
    /// The current chunk is `buf[start..start + len]`.
    buf: Vec<u8>,
    start: usize,
    len: usize,
    /// Input offset of `buf[start]`.
    offset: u64,
    eof: bool,
}

/// Room before each buffer's data for the bytes carried from the last one.
const HEAD: usize = 16;

/// Bytes per read of a [`Chunks::prefetched`] input: large enough that
/// handing a buffer between threads costs nothing next to processing it.
pub const PREFETCH: usize = 1 << 20;

/// What a read-ahead thread hands over: a buffer with `n` bytes after
/// `HEAD`, and whether the input ended there.
type Filled = io::Result<(Vec<u8>, usize, bool)>;

/// Where the bytes come from.
enum Feed<R> {
    /// Read by this thread, into `buf` itself.
    Inline(R),
    /// Read ahead by another thread while this one works on the last
    /// chunk: copying a file out of the page cache is a third of the time
    /// of `decode`, and the two cores do it side by side.
    Thread {
        filled: Receiver<Filled>,
        free: SyncSender<Vec<u8>>,
    },
}

/// Fills `buf[HEAD..]` from `reader` as far as the input allows.
fn fill(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<(usize, bool)> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]) {
            Ok(0) => return Ok((n, true)),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((n, false))
}

impl Chunks<io::Empty> {
    /// Chunks of `reader`, read ahead by a thread of their own.
    pub fn prefetched(mut reader: impl Read + Send + 'static) -> Self {
        let (filled_tx, filled) = mpsc::sync_channel::<Filled>(1);
        let (free, free_rx) = mpsc::sync_channel::<Vec<u8>>(2);
        std::thread::spawn(move || {
            crate::sys::block_signals_in_this_thread();
            loop {
                // A buffer handed back (of any length: the first is empty), or
                // a new one.
                let mut buf = free_rx.try_recv().unwrap_or_default();
                buf.resize(HEAD + PREFETCH, 0);
                let result = fill(&mut reader, &mut buf[HEAD..]);
                let done = !matches!(result, Ok((_, false)));
                // The consumer is gone (stopped early): stop reading.
                if filled_tx
                    .send(result.map(|(n, eof)| (buf, n, eof)))
                    .is_err()
                    || done
                {
                    break;
                }
            }
        });
        Chunks {
            feed: Feed::Thread { filled, free },
            // Empty, with the head room the first carry would need.
            buf: vec![0; HEAD],
            start: HEAD,
            len: 0,
            offset: 0,
            eof: false,
        }
    }
}

impl<R: Read> Chunks<R> {
    /// Chunks of `reader`, read by the thread that processes them.
    pub fn new(reader: R) -> Self {
        Chunks {
            feed: Feed::Inline(reader),
            buf: vec![0; HEAD + CHUNK],
            start: HEAD,
            len: 0,
            offset: 0,
            eof: false,
        }
    }

    /// The next chunk, after filling the buffer as far as the input allows;
    /// `None` once everything has been consumed.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'_>>> {
        match &mut self.feed {
            Feed::Inline(reader) => {
                if !self.eof && self.len < CHUNK {
                    // Carry the rest to the front and fill up behind it.
                    self.buf
                        .copy_within(self.start..self.start + self.len, HEAD);
                    self.start = HEAD;
                    let (n, eof) = fill(reader, &mut self.buf[HEAD + self.len..HEAD + CHUNK])?;
                    self.len += n;
                    self.eof = eof;
                }
            }
            Feed::Thread { filled, free } => {
                if !self.eof && self.len < PREFETCH {
                    let (mut next, n, eof) = filled
                        .recv()
                        .map_err(|_| io::Error::other("the read-ahead thread stopped"))??;
                    let rest = &self.buf[self.start..self.start + self.len];
                    if rest.len() <= HEAD {
                        next[HEAD - rest.len()..HEAD].copy_from_slice(rest);
                        self.start = HEAD - rest.len();
                    } else {
                        // More left than a cut sequence: not seen, but kept.
                        let mut joined = Vec::with_capacity(HEAD + rest.len() + n);
                        joined.extend_from_slice(&[0; HEAD]);
                        joined.extend_from_slice(rest);
                        joined.extend_from_slice(&next[HEAD..HEAD + n]);
                        next = joined;
                        self.start = HEAD;
                    }
                    let old = std::mem::replace(&mut self.buf, next);
                    let _ = free.try_send(old);
                    self.len += n;
                    self.eof = eof;
                }
            }
        }
        if self.len == 0 {
            return Ok(None);
        }
        Ok(Some(Chunk {
            data: &self.buf[self.start..self.start + self.len],
            more: !self.eof,
            offset: self.offset,
        }))
    }

    /// Marks the first `n` bytes of the current chunk as processed.
    pub fn consume(&mut self, n: usize) {
        assert!(n <= self.len, "consumed more than the chunk holds");
        // A full chunk with nothing consumed would never make progress.
        assert!(n > 0 || self.eof, "no progress on a full chunk");
        self.start += n;
        self.len -= n;
        self.offset += n as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that returns at most `step` bytes per call.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn chunks_fill_carry_and_end() {
        let data: Vec<u8> = (0..(2 * CHUNK + 5)).map(|i| i as u8).collect();
        let mut chunks = Chunks::new(Trickle {
            data: &data,
            step: 1000,
        });
        let mut seen = Vec::new();
        let mut calls = Vec::new();
        while let Some(chunk) = chunks.next_chunk().unwrap() {
            assert_eq!(chunk.offset, seen.len() as u64);
            calls.push((chunk.data.len(), chunk.more));
            // Leave 3 bytes while more input follows, as a cut sequence would.
            let n = if chunk.more {
                chunk.data.len() - 3
            } else {
                chunk.data.len()
            };
            seen.extend_from_slice(&chunk.data[..n]);
            chunks.consume(n);
        }
        assert_eq!(seen, data);
        assert_eq!(
            calls,
            [(CHUNK, true), (CHUNK, true), (11, false)],
            "chunks are filled completely before use"
        );
    }

    #[test]
    fn prefetched_chunks_carry_and_end() {
        let data: Vec<u8> = (0..(2 * PREFETCH + 5)).map(|i| (i % 251) as u8).collect();
        let mut chunks = Chunks::prefetched(io::Cursor::new(data.clone()));
        let mut seen = Vec::new();
        let mut last_more = true;
        while let Some(chunk) = chunks.next_chunk().unwrap() {
            assert_eq!(chunk.offset, seen.len() as u64);
            last_more = chunk.more;
            // Leave 3 bytes while more input follows, as a cut sequence would.
            let n = chunk.data.len() - if chunk.more { 3 } else { 0 };
            seen.extend_from_slice(&chunk.data[..n]);
            chunks.consume(n);
        }
        assert!(!last_more);
        assert!(seen == data, "the bytes, in order, each once");
    }

    #[test]
    fn empty_input_has_no_chunks() {
        let mut chunks = Chunks::new(&b""[..]);
        assert!(chunks.next_chunk().unwrap().is_none());
        let mut chunks = Chunks::prefetched(io::empty());
        assert!(chunks.next_chunk().unwrap().is_none());
    }

    #[test]
    fn io_messages_drop_the_os_error_suffix() {
        let e = io::Error::from_raw_os_error(2);
        assert!(!describe_io(&e).contains("os error"), "{}", describe_io(&e));
    }
}
