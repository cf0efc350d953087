//! x86-64 kernels.

pub(crate) mod avx2;
pub(crate) mod avx512;
mod copy;
mod cpu;
pub(crate) mod find;
mod packs;
pub(crate) mod pairs;
mod partial;
mod plain_runs;
pub(crate) mod sse;
use super::generic::tables;
pub(crate) use super::generic::units;
mod widen;
