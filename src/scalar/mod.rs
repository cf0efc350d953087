//! The safe scalar core: the reference implementation of every operation.
//! It contains no `unsafe`; faster paths must match it exactly.

pub mod boundary;
pub mod classify;
pub mod decode;
pub mod encode;
pub mod latin1;
pub mod legacy;
pub(crate) mod prefix;
pub mod segment;
pub mod sink;
pub mod utf16;
pub mod validate;
