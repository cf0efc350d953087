//! `u8x`: check, repair and convert UTF-8 from the command line, streaming
//! inputs of any size in constant memory with the u8x library.

use std::ffi::{CStr, OsString};
use std::io::{self, Write};
use std::process::ExitCode;

use u8x::{EncodePolicy, ErrorKind, Latin1Policy, Policy};

mod args;
mod check;
mod convert;
mod output;
mod stream;

use args::{Arg, Opt};
use convert::{DecodeTo, Decoded, EncodeFrom, Encoded, FixPolicy, Form};
use output::{same_file, Sink};
use stream::{describe_io, Source};

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
fn library_version() -> String {
    let version = u8x::ffi::u8x_version();
    // SAFETY: u8x_version returns a pointer to a static NUL-terminated string.
    unsafe { CStr::from_ptr(version) }
        .to_string_lossy()
        .into_owned()
}

const USAGE: &str = "\
Usage:
  u8x check [-a|--all] [-q|--quiet] [FILE...]
  u8x fix [--policy replace|escape|latin1|cp1252] [-q] [-o OUT] [FILE]
  u8x decode [--to FORM] [--policy strict|replace|escape|latin1|cp1252]
             [-o OUT] [FILE]
  u8x encode [--from FORM] [--policy strict|replace|escape] [-o OUT] [FILE]
  u8x help [COMMAND]
  u8x --version
FORM is utf-32le (the default), utf-16le, utf-16be or latin1.
Exit status: 0 success, valid input; 1 invalid input (check: a file is not
UTF-8; fix: input repaired, output written; decode, encode: stopped early,
OUT unchanged); 2 usage or I/O error.
";

const HELP: &str = "\
u8x: check, repair and convert UTF-8 (RFC 3629, Unicode Table 3-7), streaming
inputs of any size in constant memory.

Commands:
  check   report where files are not UTF-8 (like isutf8)
  fix     repair ill-formed UTF-8 into valid UTF-8
  decode  UTF-8 to UTF-32LE, UTF-16LE, UTF-16BE or Latin-1
  encode  UTF-32LE, UTF-16LE, UTF-16BE or Latin-1 to UTF-8

A FILE of '-', or no FILE, is standard input. Output goes to standard output
unless '-o OUT' is given. A regular file OUT is replaced only once the whole
input has been converted (u8x writes .OUT.u8x-PID-N.tmp beside it, syncs it
and renames it over OUT): after any error, OUT keeps its old contents. OUT
keeps its permission bits; a device or FIFO OUT is written directly; OUT
naming the input file is refused. Run 'u8x help COMMAND' for the details of a
command.
";

const CHECK_HELP: &str = "\
Usage: u8x check [-a|--all] [-q|--quiet] [FILE...]

Checks that each FILE ('-' or none: standard input) is UTF-8. For an invalid
file, prints its first ill-formed sequence:

  FILE:LINE:COLUMN: byte offset N: DESCRIPTION (bytes XX YY)

LINE counts from 1, lines ending at each 0x0A byte. COLUMN counts from 1 in
characters (code points), not bytes: it is 1 + the number of characters
before the error on its line, an earlier ill-formed sequence counting as one
character (the U+FFFD it would be replaced by). N is the offset of the first
bad byte, counted from 0. The bytes shown are the maximal subpart (Unicode
chapter 3): the bytes one U+FFFD would replace.

Options:
  -a, --all     report every ill-formed sequence, not just the first one
  -q, --quiet   print nothing for invalid files; only the exit status tells
  -h, --help    show this help

Exit status: 0 if every file is valid UTF-8, 1 if some file is not, 2 if some
file could not be read (reported on standard error; the other files are still
checked).
";

const FIX_HELP: &str = "\
Usage: u8x fix [--policy replace|escape|latin1|cp1252] [-q] [-o OUT] [FILE]

Copies FILE ('-' or none: standard input) to OUT (default: standard output)
as valid UTF-8. Well-formed text is copied unchanged; each ill-formed
sequence is rewritten according to the policy:

  replace  one U+FFFD per maximal subpart (the default; as WHATWG, Rust's
           String::from_utf8_lossy and Python's errors=\"replace\")
  latin1   each bad byte as the ISO-8859-1 character of that value
  cp1252   each bad byte as the windows-1252 character (WHATWG mapping;
           81, 8D, 8F, 90, 9D become the C1 controls of that value)
  escape   each bad byte as the ASCII text \\xHH (two upper-case hex digits),
           like Python's errors=\"backslashreplace\": readable, nothing lost.
           Text that already contains \\x sequences becomes ambiguous; for an
           exact round trip of any bytes use 'decode --policy escape' and
           'encode --policy escape' instead.

Options:
  --policy P       how to rewrite ill-formed sequences (see above)
  -o, --output OUT write to OUT instead of standard output
  -q, --quiet      do not print the summary
  -h, --help       show this help

Prints 'u8x: fixed N ill-formed sequences' on standard error when N > 0
(not with -q).

Exit status: 0 if the input was already valid UTF-8 (the output is an exact
copy); 1 if N > 0 sequences were repaired (the repaired output is written all
the same; like 'u8x check', 1 says the input was not UTF-8); 2 on a usage or
I/O error (a file OUT is then left unchanged). To fail only on errors:
  u8x fix -q -o OUT FILE; [ $? -lt 2 ]
";

const DECODE_HELP: &str = "\
Usage: u8x decode [--to FORM] [--policy strict|replace|escape|latin1|cp1252]
                  [-o OUT] [FILE]

Decodes UTF-8 from FILE ('-' or none: standard input) to FORM on OUT
(default: standard output):
  utf-32le  4 bytes, little-endian, per code point (the default)
  utf-16le  2 bytes, little-endian, per UTF-16 code unit: a character above
            U+FFFF becomes a surrogate pair (4 bytes)
  utf-16be  the same, big-endian
  latin1    ISO-8859-1, 1 byte per character; characters above U+00FF do
            not fit (see below)
A byte order mark is decoded like any other character; none is added.
Memory use is constant: the input is read and written 64 KiB at a time.

Policies for ill-formed sequences:
  strict   stop at the first one (the default): prints
           'u8x: FILE: byte offset N: DESCRIPTION' and exits with 1. The code
           points before it have been written to standard output, but a file
           OUT is left unchanged, as after any incomplete conversion
  replace  one U+FFFD per maximal subpart
  escape   each bad byte b as U+DC00+b (U+DC80..U+DCFF, UTF-8B / Python
           surrogateescape); 'encode --policy escape' restores the exact bytes
           (in UTF-16 these are lone surrogates, so not well-formed UTF-16)
  latin1   each bad byte as ISO-8859-1
  cp1252   each bad byte as windows-1252 (WHATWG mapping)

With --to latin1, only strict and replace are accepted; they apply to
characters above U+00FF as to ill-formed sequences. strict stops at the first
one; for a character it prints
  'u8x: FILE: byte offset N: character not representable in the output form
  (U+20AC is not in Latin-1)'
replace writes one '?' (3F) for each (as Python's
bytes.decode('utf-8', 'replace').encode('latin-1', 'replace')).

Options:
  --to FORM        the output form (see above)
  --policy P       see above
  -o, --output OUT write to OUT instead of standard output
  -h, --help       show this help

Exit status: 0 on success, 1 if strict decoding met an ill-formed sequence
or a character not in Latin-1, 2 on a usage or I/O error.
";

const ENCODE_HELP: &str = "\
Usage: u8x encode [--from FORM] [--policy strict|replace|escape] [-o OUT] [FILE]

Encodes FORM from FILE ('-' or none: standard input) to UTF-8 on OUT
(default: standard output):
  utf-32le  4 bytes, little-endian, per code point (the default)
  utf-16le  2 bytes, little-endian, per UTF-16 code unit; a surrogate pair
            (high D800..DBFF, then low DC00..DFFF) is one character
  utf-16be  the same, big-endian
  latin1    ISO-8859-1, 1 byte per character: every input is valid, and the
            policy has nothing to act on
A byte order mark is encoded like any other character. Memory use is
constant: the input is read 64 KiB at a time, a pair or unit cut by the end
of a read being completed by the next.

Policies for units that are not Unicode scalar values (in UTF-32LE,
surrogates D800..DFFF and values above 10FFFF; in UTF-16, a surrogate
without its other half):
  strict   stop at the first one (the default): prints
           'u8x: FILE: unit K (byte offset N): DESCRIPTION (value 0xXXXXXXXX)'
           and exits with 1 (from UTF-16, K counts 2-byte units, N is 2K,
           and the message ends 'unpaired surrogate (value 0xXXXX)'). The
           UTF-8 before it has been written to standard output, but a file
           OUT is left unchanged
  replace  write U+FFFD instead (one per unit)
  escape   U+DC80..U+DCFF become the byte they escape (the inverse of
           'decode --policy escape'); any other invalid unit stops as strict

An input whose length is not a multiple of the unit (4 bytes for UTF-32LE, 2
for UTF-16) is not in that form: the complete units are encoded (to standard
output; a file OUT is left unchanged), then u8x reports the length and exits
with 1. A high surrogate just before the odd last byte is unpaired.

Options:
  --from FORM      the input form (see above)
  --policy P       see above
  -o, --output OUT write to OUT instead of standard output
  -h, --help       show this help

Exit status: 0 on success, 1 on an invalid unit or a bad input length, 2 on a
usage or I/O error.
";

const HELP_OPT: Opt = Opt {
    short: Some('h'),
    long: "help",
    takes_value: false,
};
const TO_OPT: Opt = Opt {
    short: None,
    long: "to",
    takes_value: true,
};
const FROM_OPT: Opt = Opt {
    short: None,
    long: "from",
    takes_value: true,
};
const POLICY_OPT: Opt = Opt {
    short: None,
    long: "policy",
    takes_value: true,
};
const OUTPUT_OPT: Opt = Opt {
    short: Some('o'),
    long: "output",
    takes_value: true,
};
const QUIET_OPT: Opt = Opt {
    short: Some('q'),
    long: "quiet",
    takes_value: false,
};
const ALL_OPT: Opt = Opt {
    short: Some('a'),
    long: "all",
    takes_value: false,
};

/// A subcommand: its name, options and help.
struct Command {
    name: &'static str,
    opts: &'static [Opt],
    help: &'static str,
}

const COMMANDS: &[Command] = &[
    Command {
        name: "check",
        opts: &[ALL_OPT, QUIET_OPT, HELP_OPT],
        help: CHECK_HELP,
    },
    Command {
        name: "fix",
        opts: &[POLICY_OPT, OUTPUT_OPT, QUIET_OPT, HELP_OPT],
        help: FIX_HELP,
    },
    Command {
        name: "decode",
        opts: &[TO_OPT, POLICY_OPT, OUTPUT_OPT, HELP_OPT],
        help: DECODE_HELP,
    },
    Command {
        name: "encode",
        opts: &[FROM_OPT, POLICY_OPT, OUTPUT_OPT, HELP_OPT],
        help: ENCODE_HELP,
    },
];

/// A usage error: the message, then the usage on standard error.
fn usage_error(message: &str) -> u8 {
    eprint!("u8x: {message}\n{USAGE}Run 'u8x help' for more.\n");
    TROUBLE
}

/// Prints `text` on standard output.
fn print(text: &str) -> u8 {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => OK,
        Err(e) => output_failure(e, stream::STDOUT_NAME, true),
    }
}

/// Reports an error writing the output. A closed pipe (`u8x ... | head`)
/// just ends the program quietly.
fn output_failure(e: io::Error, name: &str, is_stdout: bool) -> u8 {
    if !(is_stdout && e.kind() == io::ErrorKind::BrokenPipe) {
        eprintln!("u8x: {name}: {}", describe_io(&e));
    }
    TROUBLE
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    ExitCode::from(run(&args))
}

fn run(args: &[OsString]) -> u8 {
    let Some(first) = args.first() else {
        return usage_error("no command given");
    };
    let first = first.to_string_lossy();
    match &*first {
        "-h" | "--help" => return print(&format!("{HELP}\n{USAGE}")),
        "-V" | "--version" => return print(&format!("u8x {}\n", library_version())),
        "help" => {
            return match args.get(1).map(|a| a.to_string_lossy()) {
                None => print(&format!("{HELP}\n{USAGE}")),
                Some(name) => match COMMANDS.iter().find(|c| c.name == name) {
                    Some(command) => print(command.help),
                    None => usage_error(&format!("unknown command '{name}'")),
                },
            };
        }
        _ => {}
    }
    let Some(command) = COMMANDS.iter().find(|c| c.name == first) else {
        return usage_error(&if first.starts_with('-') {
            format!("unknown option '{first}'")
        } else {
            format!("unknown command '{first}'")
        });
    };
    let parsed = match args::parse(&args[1..], command.opts) {
        Ok(parsed) => parsed,
        Err(message) => return usage_error(&format!("{}: {message}", command.name)),
    };
    let mut options = Options::default();
    for arg in parsed {
        match arg {
            Arg::Operand(file) => options.files.push(file),
            Arg::Opt("help", _) => return print(command.help),
            Arg::Opt("all", _) => options.all = true,
            Arg::Opt("quiet", _) => options.quiet = true,
            Arg::Opt("output", value) => options.output = value,
            Arg::Opt("policy", value) => options.policy = value.map(lossy),
            Arg::Opt("to", value) => options.to = value.map(lossy),
            Arg::Opt("from", value) => options.from = value.map(lossy),
            Arg::Opt(name, _) => unreachable!("option --{name} has no handler"),
        }
    }
    match command.name {
        "check" => match check::run(&options.files, options.all, options.quiet) {
            Ok(status) => status,
            // Only invalid files produce output, so one was found.
            Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => INVALID,
            Err(Failure::Output(e) | Failure::Input(e)) => {
                output_failure(e, stream::STDOUT_NAME, true)
            }
        },
        name => convert_command(name, &options).unwrap_or_else(|message| usage_error(&message)),
    }
}

/// An option value as text (option values u8x knows are ASCII).
fn lossy(value: OsString) -> String {
    value.to_string_lossy().into_owned()
}

/// Options, as given; each command uses the ones it accepts.
#[derive(Default)]
struct Options {
    files: Vec<OsString>,
    all: bool,
    quiet: bool,
    output: Option<OsString>,
    policy: Option<String>,
    /// decode's output form.
    to: Option<String>,
    /// encode's input form.
    from: Option<String>,
}

/// What `fix`, `decode` or `encode` will do, once the policy is checked.
enum Conversion {
    Fix(FixPolicy),
    Decode(DecodeTo),
    Encode(EncodeFrom),
}

/// The replacement byte of `decode --to latin1 --policy replace`.
const LATIN1_REPLACEMENT: u8 = b'?';

fn conversion(name: &str, options: &Options) -> Result<Conversion, String> {
    let policy = options.policy.as_deref();
    let bad = |p: &str, allowed: &str| {
        format!("{name}: unknown policy '{p}' (expected one of: {allowed})")
    };
    let form = |option: &str, value: Option<&str>| {
        let value = value.unwrap_or("utf-32le");
        Form::parse(value).ok_or_else(|| {
            format!(
                "{name}: unknown form '{value}' for --{option} (expected one of: {})",
                Form::NAMES
            )
        })
    };
    Ok(match name {
        "fix" => Conversion::Fix(match policy.unwrap_or("replace") {
            "replace" => FixPolicy::Decode(u8x::REPLACE),
            "latin1" => FixPolicy::Decode(Policy::Latin1),
            "cp1252" => FixPolicy::Decode(Policy::Cp1252),
            "escape" => FixPolicy::Backslash,
            p => return Err(bad(p, "replace, escape, latin1, cp1252")),
        }),
        "decode" => {
            let to = form("to", options.to.as_deref())?;
            if to == Form::Latin1 {
                // Latin-1 has no room for U+FFFD, escapes or the characters
                // the latin1 and cp1252 policies give: one byte stands for
                // whatever cannot be written.
                return Ok(Conversion::Decode(DecodeTo::Latin1(
                    match policy.unwrap_or("strict") {
                        "strict" => Latin1Policy::Strict,
                        "replace" => Latin1Policy::Replace(LATIN1_REPLACEMENT),
                        p @ ("escape" | "latin1" | "cp1252") => {
                            return Err(format!(
                                "{name}: policy '{p}' cannot write to latin1 \
                                 (expected one of: strict, replace)"
                            ))
                        }
                        p => return Err(bad(p, "strict, replace")),
                    },
                )));
            }
            let policy = match policy.unwrap_or("strict") {
                "strict" => Policy::Strict,
                "replace" => u8x::REPLACE,
                "escape" => Policy::Escape,
                "latin1" => Policy::Latin1,
                "cp1252" => Policy::Cp1252,
                p => return Err(bad(p, "strict, replace, escape, latin1, cp1252")),
            };
            Conversion::Decode(match to {
                Form::Utf32Le => DecodeTo::Utf32Le(policy),
                utf16 => DecodeTo::Utf16(utf16, policy),
            })
        }
        _ => {
            let from = form("from", options.from.as_deref())?;
            let policy = match policy.unwrap_or("strict") {
                "strict" => EncodePolicy::Strict,
                "replace" => EncodePolicy::Replace('\u{FFFD}'),
                "escape" => EncodePolicy::Escape,
                p => return Err(bad(p, "strict, replace, escape")),
            };
            Conversion::Encode(match from {
                Form::Utf32Le => EncodeFrom::Utf32Le(policy),
                Form::Latin1 => EncodeFrom::Latin1,
                utf16 => EncodeFrom::Utf16(utf16, policy),
            })
        }
    })
}

/// How a conversion ended, to be reported once the output is flushed.
enum Outcome {
    Fixed(u64),
    Decoded(Decoded),
    Encoded(Encoded),
}

/// Runs `fix`, `decode` or `encode` and returns the exit status; `Err` is a
/// usage error.
fn convert_command(name: &str, options: &Options) -> Result<u8, String> {
    let conversion = conversion(name, options)?;
    let source = match options.files.as_slice() {
        [] => Source::Stdin,
        [file] => Source::from_arg(file),
        [_, extra, ..] => {
            return Err(format!(
                "{name}: one input file at most (extra: '{}')",
                extra.to_string_lossy()
            ))
        }
    };
    let input_name = source.name();
    // Open the input first: a missing input must not create or truncate OUT.
    let input = match source.open() {
        Ok(input) => input,
        Err(e) => {
            eprintln!("u8x: {input_name}: {}", describe_io(&e));
            return Ok(TROUBLE);
        }
    };
    if same_file(input.file, options.output.as_ref()) {
        eprintln!(
            "u8x: {input_name}: input and output are the same file; refusing to overwrite it"
        );
        return Ok(TROUBLE);
    }
    let mut sink = match Sink::open(options.output.as_ref()) {
        Ok(sink) => sink,
        Err(e) => {
            let out = options.output.as_ref().map(|o| o.to_string_lossy());
            eprintln!("u8x: {}: {}", out.unwrap_or_default(), describe_io(&e));
            return Ok(TROUBLE);
        }
    };
    let (input, out) = (input.reader, sink.writer());
    let result = match conversion {
        Conversion::Fix(policy) => convert::fix(input, out, policy).map(Outcome::Fixed),
        Conversion::Decode(to) => convert::decode(input, out, to).map(Outcome::Decoded),
        Conversion::Encode(from) => convert::encode(input, out, from).map(Outcome::Encoded),
    };
    let (out_name, is_stdout) = (sink.name.clone(), sink.is_stdout);
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(Failure::Input(e)) => {
            // What was converted so far reaches standard output before the
            // message; a file OUT stays as it was.
            if let Err(e) = sink.abandon() {
                return Ok(output_failure(e, &out_name, is_stdout));
            }
            eprintln!("u8x: {input_name}: {}", describe_io(&e));
            return Ok(TROUBLE);
        }
        Err(Failure::Output(e)) => {
            drop(sink); // Removes the temporary file: OUT stays as it was.
            return Ok(output_failure(e, &out_name, is_stdout));
        }
    };
    // Only a conversion of the whole input replaces a file OUT.
    let kept = !outcome.is_complete() && sink.replaces_file();
    let finished = if outcome.is_complete() {
        sink.commit()
    } else {
        sink.abandon()
    };
    if let Err(e) = finished {
        return Ok(output_failure(e, &out_name, is_stdout));
    }
    let status = report(&outcome, &input_name, options.quiet);
    if kept {
        eprintln!("u8x: {out_name}: left unchanged (the input was not converted to its end)");
    }
    Ok(status)
}

impl Outcome {
    /// Whether the whole input was converted.
    fn is_complete(&self) -> bool {
        matches!(
            self,
            Outcome::Fixed(_) | Outcome::Decoded(Decoded::Done) | Outcome::Encoded(Encoded::Done)
        )
    }
}

/// Reports how a conversion ended on standard error; returns the exit status.
fn report(outcome: &Outcome, input_name: &str, quiet: bool) -> u8 {
    match *outcome {
        Outcome::Fixed(0) => OK,
        // As `check` on the same input: the output is written, but a script
        // learns that the input was not UTF-8.
        Outcome::Fixed(n) => {
            if !quiet {
                let s = if n == 1 { "" } else { "s" };
                eprintln!("u8x: fixed {n} ill-formed sequence{s}");
            }
            INVALID
        }
        Outcome::Decoded(Decoded::Done) | Outcome::Encoded(Encoded::Done) => OK,
        Outcome::Decoded(Decoded::IllFormed { offset, kind }) => {
            eprintln!(
                "u8x: {input_name}: byte offset {offset}: {}",
                describe(kind)
            );
            INVALID
        }
        Outcome::Decoded(Decoded::Unrepresentable { offset, character }) => {
            let what = match character {
                Some(c) => format!("U+{:04X} is not in Latin-1", u32::from(c)),
                None => "not in Latin-1".to_string(),
            };
            eprintln!(
                "u8x: {input_name}: byte offset {offset}: {} ({what})",
                describe(ErrorKind::NotRepresentable)
            );
            INVALID
        }
        Outcome::Encoded(Encoded::Invalid {
            form: Form::Utf32Le,
            index,
            value,
            kind,
        }) => {
            eprintln!(
                "u8x: {input_name}: unit {index} (byte offset {}): {} (value 0x{value:08X})",
                4 * index,
                describe(kind)
            );
            INVALID
        }
        // UTF-16: the only invalid unit is a surrogate without its other half.
        Outcome::Encoded(Encoded::Invalid {
            form, index, value, ..
        }) => {
            eprintln!(
                "u8x: {input_name}: unit {index} (byte offset {}): unpaired surrogate \
                 (value 0x{value:04X})",
                form.unit_bytes() as u64 * index,
            );
            INVALID
        }
        Outcome::Encoded(Encoded::BadLength {
            form: Form::Utf32Le,
            len,
        }) => {
            eprintln!(
                "u8x: {input_name}: input length {len} is not a multiple of 4, so not UTF-32LE \
                 (the last {} bytes were not encoded)",
                len % 4
            );
            INVALID
        }
        // UTF-16 (Latin-1 has no bad length).
        Outcome::Encoded(Encoded::BadLength { form, len }) => {
            eprintln!(
                "u8x: {input_name}: input length {len} is odd, so not {} \
                 (the last byte was not encoded)",
                form.name()
            );
            INVALID
        }
    }
}
