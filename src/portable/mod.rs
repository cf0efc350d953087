//! The portable fast core: what the scalar tier runs on every machine
//! without a vector tier (and for the short inputs and error windows of the
//! vector tiers, through the reference core it hands over to).
//!
//! Like a vector kernel, each function here runs over a *valid prefix* of
//! its input and stops at a character boundary before the first error, a cut
//! sequence or a full output; the engine then hands the next few bytes to
//! the reference core in [`crate::reference`], which applies the policy and
//! reports the error exactly. So these loops handle only well-formed text,
//! need no policy, and are tested against the reference on every input the
//! tier tests build (`cargo test` runs this module's own comparisons too).
//!
//! Everything is safe Rust, so the compiler checks every index; the loops
//! are shaped so that it can drop most of those checks (fixed-size blocks,
//! `u8` indexes into 256-entry tables, chunk iterators).
//!
//! - [`ascii`]: whether a block of 32 bytes is all ASCII.
//! - [`validate`]: a shift-based DFA over the UTF-8 grammar of Table 3-7.
//! - [`decode`]: UTF-8 to code points, fused with validation.
//! - [`form`]: what the decoders write, code points or UTF-16 units.
//! - [`mixed`]: decoding without a branch on each character's length.
//! - [`alphabets`]: decoding one- and two-byte text in fixed windows.
//! - [`find`]: the first byte of a set.
//! - [`encode`]: code points to UTF-8.
//! - [`encode_short`]: a few characters to UTF-8 (code points, UTF-16,
//!   Latin-1) in one plain loop, for the engine's short-string paths.
//! - [`count`]: the characters of well-formed text.
//! - [`latin1`]: Latin-1 to UTF-8.
//! - [`utf16`]: well-formed UTF-16 to UTF-8.
//! - [`loops`], [`sizes`]: element-wise loops and the sizes of valid text,
//!   which every tier compiles with its features.
//! - [`stopping`]: the loop that stops a conversion at a dialect's forms.
//! - [`validate_utf16`]: UTF-16 validation, pairs included, a block at a time.
//! - [`convert`]: Latin-1, UTF-16 and UCS-4 to one another, a block at a
//!   time, which every tier compiles with its features.

#![forbid(unsafe_code)]

pub(crate) mod alphabets;
pub(crate) mod ascii;
pub(crate) mod convert;
pub(crate) mod count;
pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod encode_short;
pub(crate) mod find;
pub(crate) mod form;
pub(crate) mod latin1;
pub(crate) mod loops;
pub(crate) mod mixed;
pub(crate) mod sizes;
pub(crate) mod stopping;
pub(crate) mod utf16;
pub(crate) mod validate;
pub(crate) mod validate_utf16;
