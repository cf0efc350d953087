//! The reference core: the plain, safe implementation of every operation,
//! one character at a time, and the oracle every fast path is tested
//! against. The engine hands it the few units around each error (where it
//! applies the caller's policy exactly) and whatever is too short for a
//! kernel; nothing here knows about tiers or kernels.
//!
//! It is reached only through these modules' public functions, and it
//! holds no `unsafe` code (the compiler checks that).
#![forbid(unsafe_code)]

pub mod ascii;
pub mod boundary;
pub mod classify;
pub mod convert;
pub mod decode;
pub mod encode;
pub mod latin1;
pub mod legacy;
pub(crate) mod prefix;
pub mod restartable;
pub mod segment;
pub mod sink;
pub mod utf16;
pub mod validate;
