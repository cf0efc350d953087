//! The command line, defined once with clap: parsing, `--help`, usage
//! errors, the man page and the shell completions all come from these types.

use std::ffi::OsString;
use std::num::NonZeroUsize;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::convert::Form;
use crate::dialect::DialectArg;
use crate::help;

#[derive(Parser, Debug)]
#[command(
    name = "u8x",
    about = "Check, repair and convert UTF-8 (RFC 3629, Unicode Table 3-7)",
    long_about = help::MAIN,
    after_long_help = help::MAIN_AFTER,
    disable_help_subcommand = false,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Report where files are not UTF-8 (like isutf8)
    #[command(long_about = help::CHECK, after_long_help = help::CHECK_AFTER)]
    Check(CheckArgs),
    /// Repair ill-formed UTF-8 into valid UTF-8
    #[command(long_about = help::FIX, after_long_help = help::FIX_AFTER)]
    Fix(FixArgs),
    /// UTF-8 to UTF-32, UTF-16 or Latin-1
    #[command(long_about = help::DECODE, after_long_help = help::DECODE_AFTER)]
    Decode(DecodeArgs),
    /// UTF-32, UTF-16 or Latin-1 to UTF-8
    #[command(long_about = help::ENCODE, after_long_help = help::ENCODE_AFTER)]
    Encode(EncodeArgs),
    /// Any supported form to any other (UTF-8, UTF-16LE/BE, UTF-32LE/BE, Latin-1)
    #[command(long_about = help::CONVERT, after_long_help = help::CONVERT_AFTER)]
    Convert(ConvertArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        /// The shell to complete for
        shell: clap_complete::Shell,
    },
    /// Print the man page of u8x or of one command (roff), or write them all
    Man {
        /// The command whose page to print (u8x-COMMAND(1)); none: u8x(1)
        command: Option<String>,
        /// Write u8x.1 and a u8x-COMMAND.1 per command into DIR instead
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<std::path::PathBuf>,
    },
}

/// Options every command that reads inputs shares.
#[derive(Args, Debug, Clone, Copy)]
pub struct Jobs {
    /// Threads for a regular file (default: 1). The output is the same for
    /// any N; whether N > 1 is faster depends on the machine (measure it)
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub jobs: Option<NonZeroUsize>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Report every ill-formed sequence, not just the first of each file
    #[arg(short, long)]
    pub all: bool,
    /// Print nothing; only the exit status tells
    #[arg(short, long, conflicts_with_all = ["list", "json"])]
    pub quiet: bool,
    /// Print only the names of the files that are not UTF-8, one per line
    #[arg(short, long, conflicts_with_all = ["json", "all"])]
    pub list: bool,
    /// With -l, end each name with a NUL byte instead of a newline, and
    /// write it as it is (not quoted), for xargs -0
    #[arg(short = '0', long, requires = "list")]
    pub null: bool,
    /// Print one JSON object per error (file, line, column, offset, kind,
    /// description, bytes), one per line
    #[arg(long)]
    pub json: bool,
    /// Check the files in each directory named, and in its subdirectories
    /// (regular files only: FIFOs, sockets and devices found are skipped,
    /// symbolic links not followed)
    #[arg(short, long)]
    pub recursive: bool,
    /// With -r, name on standard error each entry skipped and each symbolic
    /// link not followed
    #[arg(short, long)]
    pub verbose: bool,
    /// The UTF-8 to check the files against
    #[arg(
        long,
        value_enum,
        value_name = "NAME",
        default_value_t,
        ignore_case = true
    )]
    pub dialect: DialectArg,
    #[command(flatten)]
    pub jobs: Jobs,
    /// Files to check ('-' or none: standard input)
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,
}

/// Where converted output goes, and the one input.
#[derive(Args, Debug)]
pub struct InOut {
    /// Write to OUT instead of standard output (replaced only once the whole
    /// input has been converted)
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<OsString>,
    /// The input ('-' or none: standard input)
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
}

#[derive(Args, Debug)]
pub struct FixArgs {
    /// How to rewrite each ill-formed sequence
    #[arg(long, value_enum, default_value_t = FixPolicyArg::Replace, ignore_case = true)]
    pub policy: FixPolicyArg,
    /// Do not print the summary on standard error
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub jobs: Jobs,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The output form
    #[arg(long, value_enum, default_value_t = Form::Utf32Le, ignore_case = true)]
    pub to: Form,
    /// What to do with ill-formed UTF-8 (and, to Latin-1, with characters
    /// above U+00FF: strict, replace or ignore only)
    #[arg(long, value_enum, default_value_t = PolicyArg::Strict, ignore_case = true)]
    pub policy: PolicyArg,
    /// Do not print how many errors the policy handled on standard error
    #[arg(short, long)]
    pub quiet: bool,
    /// The UTF-8 the input is in (not with --to latin1)
    #[arg(
        long,
        value_enum,
        value_name = "NAME",
        default_value_t,
        ignore_case = true
    )]
    pub dialect: DialectArg,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// The input form
    #[arg(long, value_enum, default_value_t = Form::Utf32Le, ignore_case = true)]
    pub from: Form,
    /// What to do with units that are not Unicode scalar values (strict,
    /// replace, escape or ignore)
    #[arg(long, value_enum, default_value_t = PolicyArg::Strict, ignore_case = true)]
    pub policy: PolicyArg,
    /// Do not print how many errors the policy handled on standard error
    #[arg(short, long)]
    pub quiet: bool,
    /// The UTF-8 to write (not with --from latin1)
    #[arg(
        long,
        value_enum,
        value_name = "NAME",
        default_value_t,
        ignore_case = true
    )]
    pub dialect: DialectArg,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The input form
    #[arg(long, value_enum, ignore_case = true)]
    pub from: Encoding,
    /// The output form
    #[arg(long, value_enum, ignore_case = true)]
    pub to: Encoding,
    /// What to do with input that is not in the --from form, and with
    /// characters the --to form cannot hold
    #[arg(long, value_enum, default_value_t = PolicyArg::Strict, ignore_case = true)]
    pub policy: PolicyArg,
    /// Do not print how many errors the policy handled on standard error
    #[arg(short, long)]
    pub quiet: bool,
    /// The UTF-8 of the side that is utf-8 (the other side not latin1;
    /// not for utf-8 to utf-8)
    #[arg(
        long,
        value_enum,
        value_name = "NAME",
        default_value_t,
        ignore_case = true
    )]
    pub dialect: DialectArg,
    #[command(flatten)]
    pub io: InOut,
}

/// `fix --policy`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixPolicyArg {
    /// One U+FFFD per maximal subpart
    Replace,
    /// Each bad byte as the text \xhh, as Python's backslashreplace
    Escape,
    /// Each bad byte as the ISO-8859-1 character of that value
    Latin1,
    /// Each bad byte as the windows-1252 character (WHATWG mapping)
    Cp1252,
    /// Dropped, as Python's errors="ignore"
    Ignore,
}

/// `--policy` of `decode`, `encode` and `convert`; each accepts the ones
/// that mean something for its direction.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyArg {
    /// Stop at the first error
    Strict,
    /// U+FFFD (or '?' in Latin-1) instead of each error
    Replace,
    /// Bad bytes as U+DC80..U+DCFF and back (Python's surrogateescape)
    Escape,
    /// Each bad UTF-8 byte as ISO-8859-1
    Latin1,
    /// Each bad UTF-8 byte as windows-1252
    Cp1252,
    /// Drop each error (Python's errors="ignore", iconv //IGNORE)
    Ignore,
}

impl PolicyArg {
    /// The name as `--policy` takes it.
    pub fn name(self) -> &'static str {
        match self {
            PolicyArg::Strict => "strict",
            PolicyArg::Replace => "replace",
            PolicyArg::Escape => "escape",
            PolicyArg::Latin1 => "latin1",
            PolicyArg::Cp1252 => "cp1252",
            PolicyArg::Ignore => "ignore",
        }
    }
}

/// What `convert` takes on either side: UTF-8 or one of the forms.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    #[value(name = "utf-8")]
    Utf8,
    #[value(name = "utf-32le")]
    Utf32le,
    #[value(name = "utf-32be")]
    Utf32be,
    #[value(name = "utf-16le")]
    Utf16le,
    #[value(name = "utf-16be")]
    Utf16be,
    #[value(name = "latin1")]
    Latin1,
}

impl Encoding {
    /// The form, or `None` for UTF-8.
    pub fn form(self) -> Option<Form> {
        Some(match self {
            Encoding::Utf8 => return None,
            Encoding::Utf32le => Form::Utf32Le,
            Encoding::Utf32be => Form::Utf32Be,
            Encoding::Utf16le => Form::Utf16Le,
            Encoding::Utf16be => Form::Utf16Be,
            Encoding::Latin1 => Form::Latin1,
        })
    }
}
