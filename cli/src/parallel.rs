//! `-j N`: a regular file processed on N threads, with the same output as
//! one thread.
//!
//! The file is cut into blocks of about [`block_size`] bytes. Each cut is
//! moved to the next character boundary (`u8x::next_boundary`), which needs
//! only the 3 bytes before the nominal cut and the 4 after it, so each worker
//! finds both cuts of its block from its own reads, and neighbours agree
//! without talking to each other. A worker reads its block with `pread`
//! (the reads run in parallel too, which is most of the time of a check),
//! plus 4 bytes past the end cut so that an error just before the cut is
//! classified as in the whole file. Results are handed back in file order;
//! at most `2 N` blocks are in flight, so memory does not grow with the file.
//!
//! In a UTF-8 dialect (`check --dialect`) the cuts are found by
//! `u8x::next_boundary_in` in a wider window: a character takes up to 6
//! bytes (legacy 6-byte forms, CESU-8 pairs), and whether a surrogate is
//! half of a pair depends on the 3 bytes after it, so the window is 8
//! bytes behind the nominal cut and 12 after it (a boundary up to 5 bytes
//! on, each segment before it looked at up to 6 bytes on), and a block is
//! read 6 bytes past its end cut.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::ops::ControlFlow;
use std::os::fd::AsFd;
use std::sync::mpsc;
use std::sync::Mutex;

use u8x::Dialect;

use crate::files;
use crate::Failure;

/// Bytes per block.
const BLOCK: u64 = 4 << 20;

/// Bytes per block. In a debug build (what `cargo test` builds),
/// `U8X_BLOCK_SIZE` makes blocks small enough that tests put cuts
/// everywhere; a release build ignores it, so no environment variable
/// changes what an installed u8x does.
pub fn block_size() -> u64 {
    if !cfg!(debug_assertions) {
        return BLOCK;
    }
    std::env::var("U8X_BLOCK_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(BLOCK)
}

/// One block, as a worker sees it.
pub struct Block<'a> {
    /// The block's bytes, then up to 4 bytes of the next one (6 in a
    /// dialect).
    pub data: &'a [u8],
    /// Where the block ends in `data`.
    pub limit: usize,
    /// Whether the file goes on after `data`.
    pub more: bool,
    /// File offset of `data[0]`.
    pub offset: u64,
}

/// Where a block lies in the file: enough to read it again
/// ([`read_span`]) with the same cuts.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    offset: u64,
    len: usize,
    limit: usize,
    more: bool,
}

impl Block<'_> {
    /// Where this block lies.
    pub fn span(&self) -> Span {
        Span {
            offset: self.offset,
            len: self.data.len(),
            limit: self.limit,
            more: self.more,
        }
    }
}

/// Reads the block at `span` again, into `buf`.
pub fn read_span<'b>(file: &File, span: &Span, buf: &'b mut Vec<u8>) -> Result<Block<'b>, Failure> {
    buf.resize(span.len, 0);
    files::read_exact_at(file, buf, span.offset).map_err(Failure::Input)?;
    Ok(Block {
        data: buf,
        limit: span.limit,
        more: span.more,
        offset: span.offset,
    })
}

/// Bytes read past a nominal cut to find the boundary, and past the block's
/// end cut to classify an error before it.
const BEHIND: u64 = 3;
const AHEAD: u64 = 4;

/// The same in a dialect other than RFC 3629's (see the module's notes).
const BEHIND_IN: u64 = 8;
const AHEAD_IN: u64 = 12;
const PAST_END_IN: u64 = 6;

/// Bytes read before and after a nominal cut, and past a block's end cut.
fn window(dialect: Dialect) -> (u64, u64, u64) {
    match dialect {
        Dialect::Standard => (BEHIND, AHEAD, AHEAD),
        _ => (BEHIND_IN, AHEAD_IN, PAST_END_IN),
    }
}

/// The character boundary at or after `nominal` (0 < `nominal` < `size`).
fn cut(dialect: Dialect, file: &File, nominal: u64, size: u64) -> io::Result<u64> {
    let (behind, ahead, _) = window(dialect);
    let start = nominal - behind.min(nominal);
    let end = (nominal + ahead).min(size);
    let mut window = [0u8; (BEHIND_IN + AHEAD_IN) as usize];
    let window = &mut window[..(end - start) as usize];
    files::read_exact_at(file, window, start)?;
    let at = u8x::next_boundary_in(dialect, window, (nominal - start) as usize)
        .expect("cut inside window");
    Ok(start + at as u64)
}

/// Reads block `index` and runs `work` on it.
fn read_block<T>(
    dialect: Dialect,
    file: &File,
    size: u64,
    block: u64,
    index: u64,
    buf: &mut Vec<u8>,
    work: &(impl Fn(Block) -> Result<T, Failure> + Sync),
) -> Result<T, Failure> {
    let nominal_start = index * block;
    let nominal_end = (nominal_start + block).min(size);
    let mut read = || -> io::Result<(u64, u64, u64)> {
        let start = match index {
            0 => 0,
            _ => cut(dialect, file, nominal_start, size)?,
        };
        let end = match nominal_end == size {
            true => size,
            false => cut(dialect, file, nominal_end, size)?,
        };
        let read_end = (end + window(dialect).2).min(size);
        buf.resize((read_end - start) as usize, 0);
        files::read_exact_at(file, buf, start)?;
        Ok((start, end, read_end))
    };
    let (start, end, read_end) = read().map_err(Failure::Input)?;
    work(Block {
        data: buf,
        limit: (end - start) as usize,
        more: read_end < size,
        offset: start,
    })
}

/// Runs `work` on every block of `file` (its first `size` bytes) on `jobs`
/// threads, and `consume` on the results in file order until it breaks or
/// fails. A read error ends the run as [`Failure::Input`].
pub fn run<T: Send>(
    file: &File,
    size: u64,
    jobs: usize,
    work: impl Fn(Block) -> Result<T, Failure> + Sync,
    consume: impl FnMut(T) -> Result<ControlFlow<()>, Failure>,
) -> Result<(), Failure> {
    run_in(Dialect::Standard, file, size, jobs, work, consume)
}

/// [`run`] on a file that is UTF-8 in `dialect`: the blocks are cut at
/// that dialect's boundaries.
pub fn run_in<T: Send>(
    dialect: Dialect,
    file: &File,
    size: u64,
    jobs: usize,
    work: impl Fn(Block) -> Result<T, Failure> + Sync,
    mut consume: impl FnMut(T) -> Result<ControlFlow<()>, Failure>,
) -> Result<(), Failure> {
    let block = block_size();
    let blocks = size.div_ceil(block);
    let (task_tx, task_rx) = mpsc::channel::<u64>();
    let task_rx = Mutex::new(task_rx);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Result<T, Failure>)>();
    std::thread::scope(|scope| {
        // Owned here, so that leaving early closes the channel and lets
        // idle workers end before the scope joins them.
        let task_tx = task_tx;
        for _ in 0..jobs.min(blocks as usize) {
            let (task_rx, done_tx, work) = (&task_rx, done_tx.clone(), &work);
            scope.spawn(move || {
                crate::sys::block_signals_in_this_thread();
                let mut buf = Vec::new();
                loop {
                    // The lock is held only to take a task.
                    let next = task_rx.lock().expect("no worker panics").recv();
                    let Ok(index) = next else { break };
                    let result = read_block(dialect, file, size, block, index, &mut buf, work);
                    if done_tx.send((index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        let window = 2 * jobs as u64;
        let mut sent = 0;
        while sent < blocks.min(window) {
            task_tx.send(sent).expect("workers wait for tasks");
            sent += 1;
        }
        let mut pending = BTreeMap::new();
        let mut next = 0;
        while next < blocks {
            let (index, result) = done_rx.recv().expect("a worker answers every task");
            pending.insert(index, result);
            while let Some(result) = pending.remove(&next) {
                next += 1;
                if consume(result?)?.is_break() {
                    return Ok(());
                }
                if sent < blocks {
                    task_tx.send(sent).expect("workers wait for tasks");
                    sent += 1;
                }
            }
        }
        // Read to its end: it must still be the size it had at the start.
        files::still(file.as_fd(), size).map_err(Failure::Input)
    })
}
