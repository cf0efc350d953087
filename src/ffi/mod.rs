//! The C ABI: thin wrappers that check every pointer and argument, call the
//! safe core and convert its results into documented codes. This is the only
//! module with `extern "C"` functions and raw pointers; `include/u8x.h` is
//! generated from it by `build.rs` (cbindgen).
//!
//! Every function is reentrant and thread-safe, allocates nothing, touches no
//! global state (the POSIX drop-ins set `errno`, as their originals do; the
//! restartable ones keep their state in the caller's `u8x_mbstate_t`), and
//! never unwinds into C: the C library is `no_std`, built with `panic =
//! "abort"`, and its panic handler (`capi` feature, see `lib.rs`) traps.

mod buffers;
mod codec;
mod convert;
mod errno;
mod forms;
mod meta;
mod posix;
mod restartable;
mod restartable_strings;
mod types;
mod units;
mod wide;

pub use codec::*;
pub use convert::*;
pub use forms::*;
pub use meta::*;
pub use posix::*;
pub use restartable::*;
pub use restartable_strings::*;
pub use types::*;
pub use units::*;
