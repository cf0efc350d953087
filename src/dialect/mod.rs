//! The UTF-8 dialects ([`Dialect`](crate::Dialect)) as the reference core
//! reads and writes them: each differs from RFC 3629 in a few lead bytes
//! ([`segment`]) and in how a few code points are written ([`encode`]);
//! [`boundary`] finds where decoding may be cut, [`scan`] where a text
//! has none of the dialect's own forms, and [`pairs`] reads runs of CESU-8
//! surrogate pairs. The engine's routes over them, which run the tiers'
//! RFC 3629 kernels wherever the two agree, are in `engine::dialect`.
#![forbid(unsafe_code)]

pub(crate) mod boundary;
pub(crate) mod encode;
pub(crate) mod pairs;
pub(crate) mod scan;
pub(crate) mod segment;
