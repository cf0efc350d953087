//! How a conversion ended (`fix`, `decode`, `encode`, `convert`), and the
//! message and exit status that say it.

use u8x::ErrorKind;

use crate::convert::{Decoded, Encoded, Form};
use crate::names::Name;
use crate::{describe, INVALID, OK};

/// How a conversion ended, to be reported once the output is flushed.
pub enum Outcome {
    Fixed(u64),
    Decoded(Decoded),
    Encoded(Encoded),
    /// A conversion between two forms other than UTF-8 whose output stage
    /// stopped: the UTF-8 between them locates the character by units.
    Transcoded(Form, Decoded),
}

impl Outcome {
    /// Whether the whole input was converted.
    pub fn is_complete(&self) -> bool {
        matches!(
            self,
            Outcome::Fixed(_)
                | Outcome::Decoded(Decoded::Done)
                | Outcome::Encoded(Encoded::Done)
                | Outcome::Transcoded(_, Decoded::Done)
        )
    }
}

/// "U+20AC is not in Latin-1", for a character the output cannot hold (or,
/// from legacy UTF-8, "0x7FFFFFFF is above U+10FFFF, so not in UTF-16").
fn not_in_latin1(value: Option<u32>) -> String {
    match value {
        Some(v) if v > 0x10_FFFF => format!("0x{v:X} is above U+10FFFF, so not in UTF-16"),
        Some(v) => format!("U+{v:04X} is not in Latin-1"),
        None => "not in Latin-1".to_string(),
    }
}

/// Reports how a conversion ended on standard error; returns the exit status.
pub fn report(outcome: &Outcome, input_name: &Name) -> u8 {
    match *outcome {
        Outcome::Fixed(0) => OK,
        // As `check` on the same input: the output is written, but a script
        // learns that the input was not UTF-8 (the count is told before).
        Outcome::Fixed(_) => INVALID,
        Outcome::Decoded(Decoded::Done) | Outcome::Encoded(Encoded::Done) => OK,
        Outcome::Transcoded(_, Decoded::Done) => OK,
        Outcome::Decoded(Decoded::IllFormed { stop, kind }) => {
            let (line, column) = (stop.at.line + 1, stop.at.column + 1);
            eprintln!(
                "u8x: {input_name}:{line}:{column}: byte offset {}: {}",
                stop.offset,
                describe(kind)
            );
            INVALID
        }
        Outcome::Decoded(Decoded::Unrepresentable { stop, value }) => {
            let (line, column) = (stop.at.line + 1, stop.at.column + 1);
            eprintln!(
                "u8x: {input_name}:{line}:{column}: byte offset {}: {} ({})",
                stop.offset,
                describe(ErrorKind::NotRepresentable),
                not_in_latin1(value)
            );
            INVALID
        }
        // The UTF-8 between the stages was well-formed up to the character:
        // its units in the input form are counted from the text before it.
        Outcome::Transcoded(form, Decoded::Unrepresentable { stop, value }) => {
            let index = match form {
                Form::Utf16Le | Form::Utf16Be => stop.units16,
                _ => stop.chars,
            };
            eprintln!(
                "u8x: {input_name}: unit {index} (byte offset {}): {} ({})",
                index * form.unit_bytes() as u64,
                describe(ErrorKind::NotRepresentable),
                not_in_latin1(value)
            );
            INVALID
        }
        Outcome::Transcoded(_, Decoded::IllFormed { kind, .. }) => {
            unreachable!("the UTF-8 between two forms is well-formed ({kind:?})")
        }
        Outcome::Encoded(Encoded::Invalid {
            form: form @ (Form::Utf32Le | Form::Utf32Be),
            index,
            value,
            kind,
        }) => {
            eprintln!(
                "u8x: {input_name}: unit {index} (byte offset {}): {} (value 0x{value:08X})",
                form.unit_bytes() as u64 * index,
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
            form: form @ (Form::Utf32Le | Form::Utf32Be),
            len,
        }) => {
            eprintln!(
                "u8x: {input_name}: input length {len} is not a multiple of 4, so not {} \
                 (the last {} bytes were not encoded)",
                form.name(),
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
