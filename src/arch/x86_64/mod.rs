//! x86-64 kernels.

pub(crate) mod avx512;
