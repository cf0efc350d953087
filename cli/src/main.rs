//! `u8x`: check, repair and convert UTF-8 from the command line, streaming
//! inputs of any size in constant memory with the u8x library.

use std::ffi::CStr;
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use u8x::{Dialect, EncodePolicy, ErrorKind, Latin1Policy, Policy};

mod args;
mod check;
mod convert;
mod dialect;
mod direct;
mod files;
mod fix;
mod help;
mod lines;
mod names;
mod outcome;
mod outpath;
mod output;
mod parallel;
mod progress;
mod scan;
mod stream;
mod sys;
mod tempfile;

use args::{Cli, ConvertArgs, FixPolicyArg, InOut, PolicyArg};
use convert::{DecodeTo, EncodeFrom, Form, Transcoded};
use dialect::DialectArg;
use fix::FixPolicy;
use outcome::{report, Outcome};
use output::{same_file, Sink};
use progress::Progress;
use stream::{describe_io, Chunks, Source};

/// Exit statuses.
const OK: u8 = 0;
const INVALID: u8 = 1;
const TROUBLE: u8 = 2;

/// An I/O error, and which side it happened on.
#[derive(Debug)]
pub enum Failure {
    Input(io::Error),
    Output(io::Error),
}

/// The same wording as the C function `u8x_error_name`.
pub fn describe(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnexpectedContinuation => "unexpected continuation byte",
        ErrorKind::InvalidByte => "byte never valid in UTF-8",
        ErrorKind::TruncatedSequence => "sequence cut short by a non-continuation byte",
        ErrorKind::Overlong => "overlong encoding",
        ErrorKind::Surrogate => "surrogate",
        ErrorKind::AboveMax => "value above U+10FFFF",
        ErrorKind::EndOfInput => "input ends inside a sequence",
        ErrorKind::NotRepresentable => "character not representable in the output form",
    }
}

/// Bytes as upper-case hex pairs separated by spaces: "C0 AF".
pub fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    pairs.join(" ")
}

/// The version of the linked u8x library.
fn library_version() -> &'static str {
    let version = u8x::ffi::u8x_version();
    // SAFETY: u8x_version returns a pointer to a static NUL-terminated string.
    let version: &'static CStr = unsafe { CStr::from_ptr(version) };
    version.to_str().unwrap_or("(version not UTF-8)")
}

/// Reports an error writing the output: `u8x: OUT: MESSAGE`, or for
/// standard output `u8x: write error: MESSAGE` as coreutils say it (a
/// closed pipe gives "Broken pipe" only when SIGPIPE was ignored; otherwise
/// SIGPIPE has ended the process already, see [`sys`]).
fn output_failure(e: io::Error, name: &str, is_stdout: bool) -> u8 {
    match is_stdout {
        true => eprintln!("u8x: write error: {}", describe_io(&e)),
        false => eprintln!("u8x: {name}: {}", describe_io(&e)),
    }
    TROUBLE
}

/// The command line's definition, with the linked library's version.
pub fn command() -> clap::Command {
    Cli::command().version(library_version())
}

fn main() -> ExitCode {
    sys::init();
    let matches = command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    ExitCode::from(run(cli))
}

fn run(cli: Cli) -> u8 {
    match cli.command {
        args::Command::Check(args) => match check::run(&args) {
            Ok(status) => status,
            Err(Failure::Output(e) | Failure::Input(e)) => {
                output_failure(e, names::STDOUT_NAME, true)
            }
        },
        args::Command::Fix(args) => {
            let policy = match args.policy {
                FixPolicyArg::Replace => FixPolicy::Decode(u8x::REPLACE),
                FixPolicyArg::Latin1 => FixPolicy::Decode(Policy::Latin1),
                FixPolicyArg::Cp1252 => FixPolicy::Decode(Policy::Cp1252),
                FixPolicyArg::Ignore => FixPolicy::Decode(Policy::Ignore),
                FixPolicyArg::Escape => FixPolicy::Backslash,
            };
            let jobs = args.jobs.jobs;
            let conversion = Conversion::Fix(policy, jobs);
            convert_command(&args.io, args.quiet, conversion, Some(Handled::FIXED))
        }
        args::Command::Decode(args) => match decoding(args.to, args.policy, args.dialect) {
            Ok(conversion) => {
                let handled = Handled::by(args.policy, None, Some(args.to));
                convert_command(&args.io, args.quiet, conversion, handled)
            }
            Err(message) => usage_error("decode", &message),
        },
        args::Command::Encode(args) => match encoding(args.from, args.policy, args.dialect) {
            Ok(conversion) => {
                let handled = Handled::by(args.policy, Some(args.from), None);
                convert_command(&args.io, args.quiet, conversion, handled)
            }
            Err(message) => usage_error("encode", &message),
        },
        args::Command::Convert(args) => match conversion(&args) {
            Ok(conversion) => {
                let (from, to) = (args.from.form(), args.to.form());
                let handled = Handled::by(args.policy, from, to);
                convert_command(&args.io, args.quiet, conversion, handled)
            }
            Err(message) => usage_error("convert", &message),
        },
        args::Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command(), "u8x", &mut out);
            print(&out)
        }
        args::Command::Man { command: name, dir } => man_pages(name.as_deref(), dir),
    }
}

/// `u8x man`: one page on standard output, or every page into a directory.
fn man_pages(name: Option<&str>, dir: Option<std::path::PathBuf>) -> u8 {
    let mut cmd = command().disable_help_subcommand(true);
    cmd.build();
    if let Some(dir) = dir {
        return match clap_mangen::generate_to(cmd, &dir) {
            Ok(()) => OK,
            Err(e) => output_failure(e, &names::Name::path(&dir).to_string(), false),
        };
    }
    let page = match name {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => return usage_error("man", &format!("no command '{name}'")),
        },
    };
    let mut out = Vec::new();
    match clap_mangen::Man::new(page).render(&mut out) {
        Ok(()) => print(&out),
        Err(e) => output_failure(e, names::STDOUT_NAME, true),
    }
}

/// Prints `bytes` on standard output.
fn print(bytes: &[u8]) -> u8 {
    let mut out = sys::stdout();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => OK,
        Err(e) => output_failure(e, names::STDOUT_NAME, true),
    }
}

/// A usage error found after parsing: clap's format and exit status (2).
fn usage_error(subcommand: &str, message: &str) -> u8 {
    let mut cmd = command();
    cmd.build(); // Gives the subcommand its full name for the usage line.
    let sub = cmd
        .find_subcommand_mut(subcommand)
        .expect("a known subcommand");
    let e = sub.error(clap::error::ErrorKind::ArgumentConflict, message);
    let _ = e.print();
    TROUBLE
}

/// What `fix`, `decode`, `encode` or `convert` will do.
enum Conversion {
    Fix(FixPolicy, Option<NonZeroUsize>),
    /// UTF-8 to UTF-8, strict: a copy that stops at the first error.
    Copy,
    /// From UTF-8 in this dialect.
    Decode(DecodeTo, Dialect),
    /// To UTF-8 in this dialect.
    Encode(EncodeFrom, Dialect),
    Transcode(EncodeFrom, DecodeTo),
}

/// The replacement byte of `decode --to latin1 --policy replace`.
const LATIN1_REPLACEMENT: u8 = b'?';

/// What a conversion's policy did with the errors it met, told on standard
/// error in one line whatever the command: `fix`'s "u8x: fixed 3
/// ill-formed sequences", and after it "u8x: dropped 3 ill-formed
/// sequences", "u8x: replaced 1 unpaired surrogate", "u8x: decoded 2
/// ill-formed sequences as windows-1252".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Handled {
    verb: &'static str,
    /// What was handled: one, and more than one.
    what: (&'static str, &'static str),
    /// After the count and `what`: how, or nothing.
    how: &'static str,
}

impl Handled {
    /// `fix`, and `convert` from utf-8 to utf-8 (which is `fix`).
    const FIXED: Handled = Handled {
        verb: "fixed",
        what: SEQUENCES,
        how: "",
    };

    /// What `policy` does when converting from `from` to `to` (`None`:
    /// UTF-8); nothing under the strict policy, which stops instead.
    fn by(policy: PolicyArg, from: Option<Form>, to: Option<Form>) -> Option<Handled> {
        let (verb, how) = match policy {
            PolicyArg::Strict => return None,
            PolicyArg::Replace => ("replaced", ""),
            PolicyArg::Escape => ("escaped", ""),
            PolicyArg::Ignore => ("dropped", ""),
            PolicyArg::Latin1 => ("decoded", " as ISO-8859-1"),
            PolicyArg::Cp1252 => ("decoded", " as windows-1252"),
        };
        let what = match (from, to) {
            (None, None) => return Some(Handled::FIXED),
            (None, Some(Form::Latin1)) => (
                "ill-formed sequence or character not in Latin-1",
                "ill-formed sequences or characters not in Latin-1",
            ),
            (None, Some(_)) => SEQUENCES,
            (Some(Form::Utf16Le | Form::Utf16Be), Some(Form::Latin1)) => (
                "unpaired surrogate or character not in Latin-1",
                "unpaired surrogates or characters not in Latin-1",
            ),
            (Some(Form::Utf16Le | Form::Utf16Be), _) => {
                ("unpaired surrogate", "unpaired surrogates")
            }
            // From Latin-1 nothing is invalid, and no character is above
            // U+00FF: never told.
            (Some(_), Some(Form::Latin1)) => (
                "invalid unit or character not in Latin-1",
                "invalid units or characters not in Latin-1",
            ),
            (Some(_), _) => ("invalid unit", "invalid units"),
        };
        Some(Handled { verb, what, how })
    }

    /// "u8x: dropped 3 ill-formed sequences".
    fn message(self, n: u64) -> String {
        let what = if n == 1 { self.what.0 } else { self.what.1 };
        format!("u8x: {} {n} {what}{}", self.verb, self.how)
    }
}

/// What `fix` and decoding count: maximal subparts of ill-formed UTF-8.
const SEQUENCES: (&str, &str) = ("ill-formed sequence", "ill-formed sequences");

/// `decode --to FORM --policy P`, if that policy can write that form.
fn decode_to(to: Form, policy: PolicyArg) -> Result<DecodeTo, String> {
    if to == Form::Latin1 {
        // Latin-1 has no room for U+FFFD, escapes or the characters the
        // latin1 and cp1252 policies give: one byte stands for whatever
        // cannot be written.
        return match policy {
            PolicyArg::Strict => Ok(DecodeTo::Latin1(Latin1Policy::Strict)),
            PolicyArg::Replace => Ok(DecodeTo::Latin1(Latin1Policy::Replace(LATIN1_REPLACEMENT))),
            PolicyArg::Ignore => Ok(DecodeTo::Latin1(Latin1Policy::Ignore)),
            p => Err(format!(
                "policy '{}' cannot write to latin1 (expected one of: strict, replace, ignore)",
                p.name()
            )),
        };
    }
    let policy = match policy {
        PolicyArg::Strict => Policy::Strict,
        PolicyArg::Replace => u8x::REPLACE,
        PolicyArg::Escape => Policy::Escape,
        PolicyArg::Latin1 => Policy::Latin1,
        PolicyArg::Cp1252 => Policy::Cp1252,
        PolicyArg::Ignore => Policy::Ignore,
    };
    Ok(match to {
        Form::Utf32Le | Form::Utf32Be => DecodeTo::Utf32(to, policy),
        utf16 => DecodeTo::Utf16(utf16, policy),
    })
}

/// `encode --from FORM --policy P`, if P applies to encoding.
fn encode_from(from: Form, policy: PolicyArg) -> Result<EncodeFrom, String> {
    let policy = match policy {
        PolicyArg::Strict => EncodePolicy::Strict,
        PolicyArg::Replace => EncodePolicy::Replace('\u{FFFD}'),
        PolicyArg::Escape => EncodePolicy::Escape,
        PolicyArg::Ignore => EncodePolicy::Ignore,
        p => {
            return Err(format!(
                "policy '{}' does not apply to encoding (expected one of: strict, replace, \
                 escape, ignore)",
                p.name()
            ))
        }
    };
    Ok(match from {
        Form::Utf32Le | Form::Utf32Be => EncodeFrom::Utf32(from, policy),
        Form::Latin1 => EncodeFrom::Latin1,
        utf16 => EncodeFrom::Utf16(utf16, policy),
    })
}

/// The dialect of the UTF-8 that `form` is converted from or to: Latin-1
/// is converted from and to RFC 3629 UTF-8 only.
fn dialect_with(form: Form, dialect: DialectArg) -> Result<Dialect, String> {
    if form == Form::Latin1 && dialect != DialectArg::Utf8 {
        return Err(format!(
            "--dialect {} cannot be used with latin1 (Latin-1 is converted from and to \
             RFC 3629 UTF-8 only)",
            dialect.name()
        ));
    }
    Ok(dialect.dialect())
}

/// `decode --to FORM --policy P --dialect D`.
fn decoding(to: Form, policy: PolicyArg, dialect: DialectArg) -> Result<Conversion, String> {
    let dialect = dialect_with(to, dialect)?;
    Ok(Conversion::Decode(decode_to(to, policy)?, dialect))
}

/// `encode --from FORM --policy P --dialect D`.
fn encoding(from: Form, policy: PolicyArg, dialect: DialectArg) -> Result<Conversion, String> {
    let dialect = dialect_with(from, dialect)?;
    Ok(Conversion::Encode(encode_from(from, policy)?, dialect))
}

/// `convert --from X --to Y --policy P --dialect D`: the dialect is that of
/// the side that is UTF-8, so one side must be, and only one.
fn conversion(args: &ConvertArgs) -> Result<Conversion, String> {
    let policy = args.policy;
    let (from, to) = (args.from.form(), args.to.form());
    if args.dialect != DialectArg::Utf8 {
        let name = args.dialect.name();
        match (from, to) {
            (None, None) => {
                return Err(format!(
                    "--dialect {name} needs a side that is not utf-8: utf-8 to utf-8 only \
                     copies or repairs RFC 3629 UTF-8 (check it with 'u8x check --dialect \
                     {name}'; to rewrite it as RFC 3629 UTF-8, pipe 'u8x decode --dialect \
                     {name}' into 'u8x encode')"
                ))
            }
            (Some(_), Some(_)) => {
                return Err(format!(
                    "--dialect {name} is the dialect of the utf-8 side, and neither --from \
                     nor --to is utf-8"
                ))
            }
            _ => {}
        }
    }
    Ok(match (from, to) {
        (None, None) => match policy {
            PolicyArg::Strict => Conversion::Copy,
            PolicyArg::Replace => Conversion::Fix(FixPolicy::Decode(u8x::REPLACE), None),
            PolicyArg::Latin1 => Conversion::Fix(FixPolicy::Decode(Policy::Latin1), None),
            PolicyArg::Cp1252 => Conversion::Fix(FixPolicy::Decode(Policy::Cp1252), None),
            PolicyArg::Ignore => Conversion::Fix(FixPolicy::Decode(Policy::Ignore), None),
            PolicyArg::Escape => {
                return Err("policy 'escape' cannot write to utf-8 from utf-8 (its \
                            U+DC80..U+DCFF have no UTF-8 form; see 'u8x fix --policy escape')"
                    .to_string())
            }
        },
        (None, Some(to)) => decoding(to, policy, args.dialect)?,
        (Some(from), None) => encoding(from, policy, args.dialect)?,
        (Some(from), Some(to)) => {
            let encode = encode_from(from, policy)?;
            // The UTF-8 in between is well-formed, but for the bytes that
            // escape keeps as they were, which it turns back into escapes.
            let decode = match policy {
                PolicyArg::Escape if to != Form::Latin1 => PolicyArg::Escape,
                // Replace and ignore apply to the characters Latin-1
                // cannot hold as to the invalid units.
                PolicyArg::Replace if to == Form::Latin1 => PolicyArg::Replace,
                PolicyArg::Ignore if to == Form::Latin1 => PolicyArg::Ignore,
                PolicyArg::Escape => {
                    return Err(
                        "policy 'escape' cannot write to latin1 (expected one of: strict, \
                         replace, ignore)"
                            .to_string(),
                    )
                }
                _ => PolicyArg::Strict,
            };
            Conversion::Transcode(encode, decode_to(to, decode)?)
        }
    })
}

/// Runs `fix`, `decode`, `encode` or `convert` and returns the exit status.
/// `handled` tells what the policy does with an error (`None`: it stops);
/// unless `quiet`, how many errors it handled is said on standard error.
fn convert_command(
    io_args: &InOut,
    quiet: bool,
    conversion: Conversion,
    handled: Option<Handled>,
) -> u8 {
    let source = match &io_args.file {
        None => Source::Stdin,
        Some(file) => Source::from_arg(file),
    };
    let input_name = source.name();
    if io_args.output.as_ref().is_some_and(|o| o.is_empty()) {
        eprintln!("u8x: -o: empty file name");
        return TROUBLE;
    }
    // Open the input first: a missing input must not create or truncate OUT.
    let input = match source.open() {
        Ok(input) => input,
        Err(e) => {
            eprintln!("u8x: {input_name}: {}", describe_io(&e));
            return TROUBLE;
        }
    };
    // Standard output appended to or opened on the input (`>> f`, `1<> f`)
    // would read back what it writes, or overwrite what is still to read.
    let to_stdout = io_args.output.as_ref().is_none_or(|o| o == "-");
    if to_stdout && input.unread && input.file.is_some() && input.file == files::stdout_id() {
        eprintln!(
            "u8x: {input_name}: {}",
            describe_io(&files::input_is_output())
        );
        return TROUBLE;
    }
    if same_file(input.file, io_args.output.as_ref()) {
        eprintln!(
            "u8x: {input_name}: input and output are the same file; refusing to overwrite it"
        );
        return TROUBLE;
    }
    let mut sink = match Sink::open(io_args.output.as_ref()) {
        Ok(sink) => sink,
        Err(e) => {
            let out = io_args
                .output
                .as_ref()
                .map(|o| names::Name::path(o.as_ref()));
            eprintln!(
                "u8x: {}: {}",
                out.unwrap_or_else(names::Name::stdin),
                describe_io(&e)
            );
            return TROUBLE;
        }
    };
    let progress = Progress::new(input.size, &input_name.to_string(), quiet);
    let (reader, out) = (input.reader, sink.writer());
    let result = match conversion {
        Conversion::Fix(policy, jobs) => {
            // One thread unless -j says: see docs/benchmarks-history.md ("CLI check
            // parallelism"), where two threads were slower on a 2-core machine.
            let threads = match (&input.regular, jobs) {
                (Some(_), Some(n)) => n.get(),
                _ => 1,
            };
            match &input.regular {
                Some((file, size)) if threads > 1 => {
                    fix::fix_parallel(file, *size, threads, out, policy, &progress)
                }
                _ => fix::fix(Chunks::prefetched(reader), out, policy, &progress),
            }
            .map(|n| (Outcome::Fixed(n), n))
        }
        Conversion::Copy => {
            let file = input.regular.as_ref().map(|(file, _)| file);
            convert::copy(Chunks::prefetched(reader), out, &progress, file)
                .map(|d| (Outcome::Decoded(d), 0))
        }
        Conversion::Decode(to, dialect) => {
            let file = input.regular.as_ref().map(|(file, _)| file);
            convert::decode(
                Chunks::prefetched(reader),
                out,
                to,
                dialect,
                &progress,
                file,
            )
            .map(|(d, n)| (Outcome::Decoded(d), n))
        }
        Conversion::Encode(from, dialect) => {
            convert::encode(Chunks::prefetched(reader), out, from, dialect, &progress)
                .map(|(e, n)| (Outcome::Encoded(e), n))
        }
        Conversion::Transcode(from, to) => {
            let chunks = Chunks::prefetched(reader);
            let result = if direct::applies(from, to) {
                direct::transcode(chunks, out, from, to, &progress)
            } else {
                convert::transcode(chunks, out, from, to, &progress)
            };
            result.map(|(t, n)| match t {
                Transcoded::Encoded(e) => (Outcome::Encoded(e), n),
                Transcoded::Decoded(d) => (Outcome::Transcoded(from.form(), d), n),
            })
        }
    };
    drop(progress);
    let (out_name, is_stdout) = (sink.name.clone(), sink.is_stdout);
    let (outcome, count) = match result {
        Ok(done) => done,
        Err(Failure::Input(e)) => {
            // What was converted so far reaches standard output before the
            // message; a file OUT stays as it was.
            if let Err(e) = sink.abandon() {
                return output_failure(e, &out_name, is_stdout);
            }
            eprintln!("u8x: {input_name}: {}", describe_io(&e));
            return TROUBLE;
        }
        Err(Failure::Output(e)) => {
            drop(sink); // Removes the temporary file: OUT stays as it was.
            return output_failure(e, &out_name, is_stdout);
        }
    };
    // Only a conversion of the whole input replaces a file OUT.
    let kept = match !outcome.is_complete() && sink.replaces_file() {
        true if sink.existed() => Some("left unchanged"),
        true => Some("not created"),
        false => None,
    };
    let finished = if outcome.is_complete() {
        sink.commit()
    } else {
        sink.abandon()
    };
    if let Err(e) = finished {
        return output_failure(e, &out_name, is_stdout);
    }
    // Before any error report: what the output (standard output's, or
    // OUT's had it been kept) holds in place of what the policy handled.
    if let Some(handled) = handled.filter(|_| count > 0 && !quiet) {
        eprintln!("{}", handled.message(count));
    }
    let status = report(&outcome, &input_name);
    if let Some(kept) = kept {
        eprintln!("u8x: {out_name}: {kept} (the input was not converted to its end)");
    }
    status
}
