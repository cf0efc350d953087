//! `--dialect`: which UTF-8 the UTF-8 side of `check`, `decode`, `encode`
//! and `convert` is (the library's [`u8x::Dialect`]).

use u8x::Dialect;

/// The UTF-8 dialects, as `--dialect` names them.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DialectArg {
    /// RFC 3629 UTF-8, as Unicode defines it (the default)
    #[default]
    #[value(name = "utf-8")]
    Utf8,
    /// RFC 2044 31-bit UTF-8: values up to 0x7FFFFFFF in up to 6 bytes
    #[value(name = "legacy")]
    Legacy,
    /// CESU-8: a character above U+FFFF as two 3-byte surrogates
    #[value(name = "cesu-8")]
    Cesu8,
    /// Java's Modified UTF-8: CESU-8, with U+0000 as C0 80 (never 00)
    #[value(name = "mutf-8")]
    Mutf8,
    /// WTF-8: UTF-8 plus lone surrogates as 3-byte forms
    #[value(name = "wtf-8")]
    Wtf8,
    /// Any surrogate as a 3-byte form (Python's surrogatepass)
    #[value(name = "generalized")]
    Generalized,
}

impl DialectArg {
    /// The library's dialect.
    pub fn dialect(self) -> Dialect {
        match self {
            DialectArg::Utf8 => Dialect::Standard,
            DialectArg::Legacy => Dialect::Legacy,
            DialectArg::Cesu8 => Dialect::Cesu8,
            DialectArg::Mutf8 => Dialect::Mutf8,
            DialectArg::Wtf8 => Dialect::Wtf8,
            DialectArg::Generalized => Dialect::Generalized,
        }
    }

    /// The name as `--dialect` takes it.
    pub fn name(self) -> &'static str {
        match self {
            DialectArg::Utf8 => "utf-8",
            DialectArg::Legacy => "legacy",
            DialectArg::Cesu8 => "cesu-8",
            DialectArg::Mutf8 => "mutf-8",
            DialectArg::Wtf8 => "wtf-8",
            DialectArg::Generalized => "generalized",
        }
    }
}

/// Whether `dialect` writes a character above U+FFFF as two 3-byte
/// surrogates, so that valid text has two leads for one code point.
pub fn has_pairs(dialect: Dialect) -> bool {
    matches!(dialect, Dialect::Cesu8 | Dialect::Mutf8)
}
