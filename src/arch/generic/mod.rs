//! The algorithms the 16-byte vector tiers share, written once over a small
//! vector trait ([`vector::Bytes`]), in the manner of memchr's
//! `arch/generic`: SSE4.2 on x86-64 and NEON on aarch64 implement the
//! trait, and each tier's kernels are thin `#[target_feature]` wrappers
//! that instantiate the generic code, so the whole algorithm inlines into
//! one function compiled for that instruction set.
//!
//! What is here is what the instruction sets have in common: byte
//! arithmetic, 16-entry table lookups (`PSHUFB`, `TBL`), shifting bytes in
//! from the previous block (`PALIGNR`, `EXT`). What really differs stays
//! with its tier: AVX-512's masked loads and VBMI2 compression, the
//! decoders' shuffle tables, and how a vector becomes a bit mask (one bit
//! a byte from `PMOVMSKB`; four from NEON's narrowing shift, since NEON
//! has no move-mask instruction).
//!
//! `stopping` is glue rather than an algorithm: the stopping decoders of
//! every tier that builds them from parts (AVX2 too), written once.

pub(crate) mod ascii;
pub(crate) mod classify;
pub(crate) mod count;
pub(crate) mod decode;
pub(crate) mod encode_utf16;
pub(crate) mod lanes;
pub(crate) mod pair_test;
pub(crate) mod simd;
// NEON sizes UTF-16 its own way (`aarch64/neon/sizes.rs`).
#[cfg(target_arch = "x86_64")]
pub(crate) mod sizes;
pub(crate) mod stopping;
pub(crate) mod tables;
pub(crate) mod units;
pub(crate) mod utf8;
pub(crate) mod vector;
