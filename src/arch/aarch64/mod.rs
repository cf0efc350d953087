//! aarch64's tiers: NEON (every 64-bit Arm CPU), in `neon/`, named as
//! `x86_64/<isa>/` names each x86-64 tier's files.

pub(crate) mod neon;
