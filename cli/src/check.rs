//! `u8x check`: report where files stop being UTF-8.
//!
//! The library validates at memory speed and finds each ill-formed
//! sequence; lines and columns are kept by [`Position`], which passes over
//! the valid text between errors with vector loops, and only when a report
//! needs them (`-q` and `-l` never do).

use std::ffi::OsString;
use std::fs::{File, Metadata};
use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};

use u8x::{Dialect, ErrorKind, Utf8Error};

use crate::args::CheckArgs;
use crate::files::{self, FileId};
use crate::lines::{Locator, Place, Position};
use crate::names::Name;
use crate::parallel;
use crate::progress::Progress;
use crate::scan::{scan_in, Visitor};
use crate::stream::{describe_io, Chunks, Source};
use crate::{describe, hex, Failure};

/// What is printed for an invalid file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// `FILE:LINE:COLUMN: byte offset N: DESCRIPTION (bytes XX)`.
    Text,
    /// One JSON object per error.
    Json,
    /// The file's name, once: quoted if need be and ended by a newline, or
    /// (`-0`) as it is, ended by NUL.
    List { null: bool },
    /// Nothing.
    Quiet,
}

impl Format {
    /// Whether reports need lines and columns.
    fn positions(self) -> bool {
        matches!(self, Format::Text | Format::Json)
    }
}

/// How `check` runs, from its options.
struct Settings {
    format: Format,
    all: bool,
    jobs: Option<NonZeroUsize>,
    /// The UTF-8 the files are checked against.
    dialect: Dialect,
    /// Standard output, when it is a file and reports are written while a
    /// file is read (`--all`): an input that it is would be refused.
    stdout: Option<FileId>,
    /// Whether to tell what a walk skips (`-v`).
    verbose: bool,
}

impl Settings {
    /// Whether the scan of one file stops at its first error.
    fn first_only(&self) -> bool {
        !self.all || !self.format.positions()
    }

    /// Threads for a regular file: one unless `-j` says (one was faster
    /// than one per core on the 2-core machine of docs/benchmarks-history.md, "CLI check
    /// parallelism", whatever the size).
    fn threads(&self) -> usize {
        self.jobs.map_or(1, NonZeroUsize::get)
    }

    /// Fails when standard output is the input open as `fd` and the
    /// reports would be written into it while it is read: `check --all f
    /// >> f` would read its own reports without end. Without `--all` the
    /// one report comes after the reading of that file, as `grep -m1`.
    fn refuse_own_output(&self, fd: BorrowedFd, meta: &Metadata) -> Result<(), Failure> {
        match self.stdout {
            Some(out) if FileId::of_input(fd, meta) == Some(out) && files::unread(fd, meta) => {
                Err(Failure::Input(files::input_is_output()))
            }
            _ => Ok(()),
        }
    }
}

/// The C enum name of a kind, lower case: the `kind` of `--json`.
fn kind_id(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnexpectedContinuation => "unexpected_continuation",
        ErrorKind::InvalidByte => "invalid_byte",
        ErrorKind::TruncatedSequence => "truncated_sequence",
        ErrorKind::Overlong => "overlong",
        ErrorKind::Surrogate => "surrogate",
        ErrorKind::AboveMax => "above_max",
        ErrorKind::EndOfInput => "end_of_input",
        ErrorKind::NotRepresentable => "not_representable",
    }
}

/// One ill-formed sequence, located. Its bytes are kept inline (a maximal
/// subpart is at most 6 bytes in any dialect): `-j` workers hold thousands.
struct Report {
    offset: u64,
    at: Position,
    kind: ErrorKind,
    bytes: [u8; 8],
    len: u8,
}

impl Report {
    fn new(offset: u64, at: Position, kind: ErrorKind, bytes: &[u8]) -> Report {
        let len = bytes.len().min(8);
        let mut kept = [0; 8];
        kept[..len].copy_from_slice(&bytes[..len]);
        Report {
            offset,
            at,
            kind,
            bytes: kept,
            len: len as u8,
        }
    }

    /// The maximal subpart.
    fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// The most reports a `-j` worker keeps for one block. A block with more
/// (text that is mostly errors, under `--all`) is scanned again by the
/// thread that prints, which reports as it goes: the memory of `-j N`
/// stays within N + 1 blocks and 2 N such lists, whatever the input.
const MAX_REPORTS: usize = 4096;

/// What a `-j` worker found in its block.
enum Found {
    Reports(Vec<Report>),
    /// More than [`MAX_REPORTS`]: to be scanned again, as a stream would be.
    Dense(parallel::Span),
}

/// Writes reports for one file in the chosen format.
struct Reporter<'a, W: Write> {
    out: &'a mut W,
    name: &'a Name,
    format: Format,
}

impl<W: Write> Reporter<'_, W> {
    fn report(&mut self, r: &Report) -> io::Result<()> {
        let (line, column) = (r.at.line + 1, r.at.column + 1);
        match self.format {
            Format::Text => writeln!(
                self.out,
                "{}:{line}:{column}: byte offset {}: {} (bytes {})",
                self.name,
                r.offset,
                describe(r.kind),
                hex(r.bytes())
            ),
            Format::Json => {
                let (file, bytes) = self.name.json();
                let mut object = serde_json::json!({ "file": file });
                if let Some(bytes) = bytes {
                    object["file_bytes"] = bytes.into();
                }
                let fields = serde_json::json!({
                    "line": line,
                    "column": column,
                    "offset": r.offset,
                    "kind": kind_id(r.kind),
                    "description": describe(r.kind),
                    "bytes": hex(r.bytes()),
                });
                if let (Some(object), serde_json::Value::Object(fields)) =
                    (object.as_object_mut(), fields)
                {
                    object.extend(fields);
                }
                writeln!(self.out, "{object}")
            }
            Format::List { null: false } => writeln!(self.out, "{}", self.name),
            Format::List { null: true } => {
                self.out.write_all(self.name.bytes())?;
                self.out.write_all(b"\0")
            }
            Format::Quiet => Ok(()),
        }
    }
}

/// Runs `u8x check` and returns the exit status: 0 all valid, 1 some
/// invalid, 2 some could not be read.
pub fn run(args: &CheckArgs) -> Result<u8, Failure> {
    let format = if args.quiet {
        Format::Quiet
    } else if args.list {
        Format::List { null: args.null }
    } else if args.json {
        Format::Json
    } else {
        Format::Text
    };
    let settings = Settings {
        format,
        all: args.all,
        jobs: args.jobs.jobs,
        dialect: args.dialect.dialect(),
        stdout: match args.all && format.positions() {
            true => files::stdout_id(),
            false => None,
        },
        verbose: args.verbose,
    };
    let stdin = [OsString::from("-")];
    let files = if args.files.is_empty() {
        &stdin[..]
    } else {
        &args.files[..]
    };
    let mut out = io::BufWriter::new(crate::sys::stdout());
    let mut status = 0;
    for file in files {
        let source = Source::from_arg(file);
        match source {
            Source::File(path) if args.recursive && path.is_dir() => {
                walk(&path, &settings, &mut out, &mut status)?;
            }
            source => check_one(&source, false, &settings, &mut out, &mut status)?,
        }
    }
    out.flush().map_err(Failure::Output)?;
    Ok(status)
}

/// Checks every file under `dir`, in name order, without following the
/// symbolic links in it.
fn walk(
    dir: &Path,
    settings: &Settings,
    out: &mut impl Write,
    status: &mut u8,
) -> Result<(), Failure> {
    let entries = std::fs::read_dir(dir).and_then(|entries| {
        let mut paths = entries
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<Vec<PathBuf>>>()?;
        paths.sort();
        Ok(paths)
    });
    let paths = match entries {
        Ok(paths) => paths,
        Err(e) => {
            unreadable(&Name::path(dir), &e, out, status)?;
            return Ok(());
        }
    };
    for path in paths {
        match path.symlink_metadata() {
            Ok(meta) if meta.is_dir() => walk(&path, settings, out, status)?,
            Ok(meta) if !meta.is_file() => skipped(&path, &meta, settings, out)?,
            // (An entry that vanished is reported when it fails to open.)
            _ => check_one(&Source::File(path), true, settings, out, status)?,
        }
    }
    Ok(())
}

/// Says, with `-v`, that a walk skipped `path` (described by `meta`): a
/// symbolic link, or a FIFO, socket or device, which `grep -r` skips too
/// (opening a FIFO waits for a writer; reading a device may never end).
fn skipped(
    path: &Path,
    meta: &Metadata,
    settings: &Settings,
    out: &mut impl Write,
) -> Result<(), Failure> {
    use std::os::unix::fs::FileTypeExt;
    if !settings.verbose {
        return Ok(());
    }
    let kind = meta.file_type();
    let what = if kind.is_symlink() {
        "symbolic link, not followed"
    } else if kind.is_fifo() {
        "not a regular file (a FIFO), skipped"
    } else if kind.is_socket() {
        "not a regular file (a socket), skipped"
    } else if kind.is_char_device() {
        "not a regular file (a character device), skipped"
    } else if kind.is_block_device() {
        "not a regular file (a block device), skipped"
    } else {
        "not a regular file, skipped"
    };
    // Keep the reports and the message in order on a terminal.
    out.flush().map_err(Failure::Output)?;
    eprintln!("u8x: {}: {what}", Name::path(path));
    Ok(())
}

/// Opens an input named on the command line, or (`walked`) found by a
/// walk: then without blocking and without following a link, should the
/// entry have become a FIFO or a link since it was looked at.
fn open_input(path: &Path, walked: bool) -> io::Result<(File, Metadata)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = match walked {
        true => std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(path)?,
        false => File::open(path)?,
    };
    let meta = file.metadata()?;
    Ok((file, meta))
}

/// Reports an input that could not be read: status 2.
fn unreadable(
    name: &Name,
    e: &io::Error,
    out: &mut impl Write,
    status: &mut u8,
) -> Result<(), Failure> {
    // Keep the reports and the message in order on a terminal.
    out.flush().map_err(Failure::Output)?;
    eprintln!("u8x: {name}: {}", describe_io(e));
    *status = 2;
    Ok(())
}

/// Checks one input (found by a walk if `walked`) and updates the exit
/// status.
fn check_one(
    source: &Source,
    walked: bool,
    settings: &Settings,
    out: &mut impl Write,
    status: &mut u8,
) -> Result<(), Failure> {
    let name = source.name();
    let mut reporter = Reporter {
        out: &mut *out,
        name: &name,
        format: settings.format,
    };
    let verdict = match source {
        Source::Stdin => crate::sys::check_stdin()
            .map_err(Failure::Input)
            .and_then(|()| match files::fstat(io::stdin().as_fd()) {
                Ok(meta) => settings
                    .refuse_own_output(io::stdin().as_fd(), &meta)
                    .map(|()| Some(meta)),
                Err(_) => Ok(None),
            })
            .and_then(|meta| {
                // A regular file must not change while it is read.
                let input: Box<dyn Read> = match meta.filter(Metadata::is_file) {
                    Some(meta) => Box::new(files::Watched::new(io::stdin().lock(), meta.len())),
                    None => Box::new(io::stdin().lock()),
                };
                // A stream is read once: positions are kept as it goes.
                let place = match settings.format.positions() {
                    true => Place::Tracked(Position::default(), settings.dialect),
                    false => Place::Unknown,
                };
                check_stream(
                    Chunks::new(input),
                    settings,
                    place,
                    &mut reporter,
                    &Progress::none(),
                )
            }),
        Source::File(path) => match open_input(path, walked) {
            Err(e) => Err(Failure::Input(e)),
            Ok((_, meta)) if walked && !meta.is_file() => {
                return skipped(path, &meta, settings, out);
            }
            Ok((file, meta)) => settings
                .refuse_own_output(file.as_fd(), &meta)
                .and_then(|()| check_file(&file, &meta, &name, settings, &mut reporter)),
        },
    };
    match verdict {
        Ok(valid) => {
            if !valid {
                *status = (*status).max(1);
            }
            Ok(())
        }
        Err(Failure::Input(e)) => unreadable(&name, &e, out, status),
        Err(other) => Err(other),
    }
}

/// Checks the input open as `file`, which `meta` describes; true if valid.
fn check_file(
    file: &File,
    meta: &Metadata,
    name: &Name,
    settings: &Settings,
    reporter: &mut Reporter<impl Write>,
) -> Result<bool, Failure> {
    let positions = settings.format.positions();
    if !meta.is_file() {
        // Pipes and devices are read as streams, positions kept as they
        // go; a directory fails with its read error.
        let place = match positions {
            true => Place::Tracked(Position::default(), settings.dialect),
            false => Place::Unknown,
        };
        return check_stream(
            Chunks::new(file),
            settings,
            place,
            reporter,
            &Progress::none(),
        );
    }
    let size = meta.len();
    let quiet = settings.format == Format::Quiet;
    let progress = Progress::new(Some(size), &name.to_string(), quiet);
    let place = match positions {
        true => Place::Located(Locator::new(file, settings.dialect)),
        false => Place::Unknown,
    };
    match settings.threads() {
        // (A thread reading ahead, as the conversions have, made this
        // slower: validation is faster than the hand-over.)
        1 => {
            let chunks = Chunks::new(files::Watched::new(file, size));
            check_stream(chunks, settings, place, reporter, &progress)
        }
        n => check_parallel(file, size, n, settings, place, reporter, &progress),
    }
}

/// The visitor of a scan for `check`: reports each error through `emit`.
struct Finder<'f, F> {
    place: Place<'f>,
    /// Input offset of the scanned data's first byte.
    base: u64,
    first_only: bool,
    found: u64,
    emit: F,
}

/// What `emit` says: go on, or stop the scan here (the report it was given
/// is then not kept).
impl<F: FnMut(Report) -> Result<ControlFlow<()>, Failure>> Visitor for Finder<'_, F> {
    fn valid(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.place.valid(bytes);
        Ok(())
    }

    fn bad(&mut self, at: usize, e: Utf8Error, bytes: &[u8]) -> Result<ControlFlow<()>, Failure> {
        self.found += 1;
        let offset = self.base + at as u64;
        let at = self.place.error(offset, bytes.len())?;
        let flow = (self.emit)(Report::new(offset, at, e.kind, bytes))?;
        Ok(if self.first_only || flow.is_break() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    }
}

/// Checks an input read as a stream, 64 KiB at a time; true if valid.
fn check_stream(
    mut chunks: Chunks<impl Read>,
    settings: &Settings,
    place: Place,
    reporter: &mut Reporter<impl Write>,
    progress: &Progress,
) -> Result<bool, Failure> {
    let mut finder = Finder {
        place,
        base: 0,
        first_only: settings.first_only(),
        found: 0,
        emit: |r: Report| {
            progress
                .suspend(|| reporter.report(&r))
                .map_err(Failure::Output)
                .map(|()| ControlFlow::Continue(()))
        },
    };
    while let Some(chunk) = chunks.next_chunk().map_err(Failure::Input)? {
        finder.base = chunk.offset;
        let (pos, flow) = scan_in(
            settings.dialect,
            chunk.data,
            chunk.data.len(),
            chunk.more,
            &mut finder,
        )?;
        progress.advance(pos as u64);
        if flow.is_break() {
            break;
        }
        chunks.consume(pos);
    }
    Ok(finder.found == 0)
}

/// Checks a regular file on `threads` threads; the same reports as
/// [`check_stream`], in file order. The workers only find errors; this
/// thread locates them, and scans again itself a block with more errors
/// than a worker keeps.
fn check_parallel(
    file: &File,
    size: u64,
    threads: usize,
    settings: &Settings,
    mut place: Place,
    reporter: &mut Reporter<impl Write>,
    progress: &Progress,
) -> Result<bool, Failure> {
    let (first_only, dialect) = (settings.first_only(), settings.dialect);
    let work = |block: parallel::Block| {
        let mut reports = Vec::new();
        let mut dense = false;
        let mut finder = Finder {
            place: Place::Unknown,
            base: block.offset,
            first_only,
            found: 0,
            emit: |r| {
                if reports.len() == MAX_REPORTS {
                    dense = true;
                    return Ok(ControlFlow::Break(()));
                }
                reports.push(r);
                Ok(ControlFlow::Continue(()))
            },
        };
        // A break is the first error (first_only) or a full list: either
        // way the block is done here.
        let _ = scan_in(dialect, block.data, block.limit, block.more, &mut finder)?;
        let found = match dense {
            true => Found::Dense(block.span()),
            false => Found::Reports(reports),
        };
        Ok((found, block.limit as u64))
    };
    let mut valid = true;
    // Locates and prints one report.
    let mut deliver = |mut r: Report| {
        valid = false;
        r.at = place.error(r.offset, r.bytes().len())?;
        progress
            .suspend(|| reporter.report(&r))
            .map_err(Failure::Output)
    };
    let mut buf = Vec::new();
    parallel::run_in(dialect, file, size, threads, work, |(found, len)| {
        progress.advance(len);
        let reports = match found {
            Found::Reports(reports) => reports,
            Found::Dense(span) => {
                let block = parallel::read_span(file, &span, &mut buf)?;
                let mut finder = Finder {
                    place: Place::Unknown,
                    base: block.offset,
                    first_only,
                    found: 0,
                    emit: |r| deliver(r).map(|()| ControlFlow::Continue(())),
                };
                // Never stopped: first_only blocks are never dense.
                let _ = scan_in(dialect, block.data, block.limit, block.more, &mut finder)?;
                return Ok(ControlFlow::Continue(()));
            }
        };
        for r in reports {
            deliver(r)?;
            if first_only {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(valid)
}
