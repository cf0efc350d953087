//! The UTF-8 dialects ([`Dialect`]): each read and written exactly, at the
//! standard kernels' speed wherever the text has none of the dialect's own
//! forms.
//!
//! A dialect differs from RFC 3629 in a few lead bytes
//! ([`crate::dialect::segment`]) and in how a few code points are
//! written ([`crate::dialect::encode`]). Every conversion runs
//! the tier's RFC 3629 kernel up to the first place the two could differ
//! and the dialect's reference core from there to the next boundary
//! ([`driver`]). RFC 3629's kernels stop by themselves at what they reject;
//! for what they accept and CESU-8 or Modified UTF-8 does not (4-byte
//! forms, 00), decoding and validating run kernels that stop there too
//! (`engine::stopping`), and encoding code points scans ahead
//! ([`crate::dialect::scan`]).
//! The reference core is the decoder of `reference::decode` with the dialect's
//! segments, so the policies, streaming and error reports mean exactly
//! what they mean for RFC 3629; runs of CESU-8 pairs, which are all a text
//! of Emoji is, take a kernel and a tight loop of their own
//! ([`crate::dialect::pairs`]).
//! Encoding UTF-16 to CESU-8 or Modified UTF-8 needs no scan: each tier's
//! CESU-8 kernel (a mode of its UTF-8 encoder) writes the dialect's pairs
//! and U+0000 itself and stops only where the reference core must go on.
//! [`legs`] holds each conversion's two halves.

mod driver;
mod legs;

use driver::{byte_window, drive, unit_window};
use legs::{Count, Encode, EncodeUtf16, Ucs4, Utf16};

use crate::dialect::scan;
use crate::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Progress};

/// The dialect entry points of a tier; [`crate`]'s `*_in` functions run
/// them on the best tier.
impl Engine {
    /// [`Engine::decode_ucs4`] for UTF-8 in `dialect`.
    pub fn decode_ucs4_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        dst: &mut [u32],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        if dialect == Dialect::Standard {
            return self.decode_ucs4(src, dst, policy, more_input);
        }
        let mut leg = Ucs4 {
            engine: self,
            dialect,
            dst,
            written: 0,
            policy,
        };
        let special = scan::all;
        drive(
            src,
            &mut leg,
            special,
            byte_window(dialect, src),
            more_input,
        )
    }

    /// [`Engine::count`] for UTF-8 in `dialect`.
    pub fn count_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        self.measure_in(dialect, src, policy, more_input, Measure::CodePoints)
    }

    /// [`Engine::decode_utf16_len`] for UTF-8 in `dialect`.
    pub fn decode_utf16_len_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        policy: Policy,
        more_input: bool,
    ) -> Progress {
        self.measure_in(dialect, src, policy, more_input, Measure::Utf16)
    }

    fn measure_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        policy: Policy,
        more_input: bool,
        measure: Measure,
    ) -> Progress {
        match (dialect, measure) {
            (Dialect::Standard, Measure::Utf16) => self.decode_utf16_len(src, policy, more_input),
            (Dialect::Standard, Measure::CodePoints) => self.count(src, policy, more_input),
            (Dialect::Standard, Measure::Nothing) => self.validate_chunk(src, more_input),
            _ => {
                let validate = measure == Measure::Nothing;
                let mut leg = Count {
                    engine: self,
                    dialect,
                    written: 0,
                    policy,
                    utf16: measure == Measure::Utf16,
                    validate,
                };
                let special = scan::all;
                drive(
                    src,
                    &mut leg,
                    special,
                    byte_window(dialect, src),
                    more_input,
                )
            }
        }
    }

    /// [`Engine::validate_chunk`] for UTF-8 in `dialect`.
    pub fn validate_in(&self, dialect: Dialect, src: &[u8], more_input: bool) -> Progress {
        let p = self.measure_in(dialect, src, Policy::Strict, more_input, Measure::Nothing);
        Progress { written: 0, ..p }
    }

    /// [`Engine::decode_utf16`] for UTF-8 in `dialect`. Legacy UTF-8's
    /// values above U+10FFFF are [`crate::ErrorKind::NotRepresentable`].
    pub fn decode_utf16_in(
        &self,
        dialect: Dialect,
        src: &[u8],
        dst: &mut [u16],
        policy: Policy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        if dialect == Dialect::Standard {
            return self.decode_utf16(src, dst, policy, order, more_input);
        }
        let mut leg = Utf16 {
            engine: self,
            dialect,
            dst,
            written: 0,
            policy,
            order,
        };
        let special = scan::all;
        drive(
            src,
            &mut leg,
            special,
            byte_window(dialect, src),
            more_input,
        )
    }

    /// [`Engine::encode`] into `dialect` (`dst` `None`: only measuring, as
    /// [`Engine::encoded_len`]).
    pub fn encode_in(
        &self,
        dialect: Dialect,
        src: &[u32],
        dst: Option<&mut [u8]>,
        policy: EncodePolicy,
    ) -> Progress {
        match (dialect, dst) {
            (Dialect::Standard, Some(dst)) => self.encode(src, dst, policy),
            (Dialect::Standard, None) => self.encoded_len(src, policy),
            (_, dst) => {
                let mut leg = Encode {
                    engine: self,
                    dialect,
                    dst,
                    written: 0,
                    policy,
                };
                let special = |s: &[u32]| scan::code_points(dialect, s);
                let window = unit_window(src, |c| (0xD800..0xDC00).contains(&c));
                drive(src, &mut leg, special, window, false)
            }
        }
    }

    /// [`Engine::encode_utf16`] into `dialect` (`dst` `None`: only
    /// measuring, as [`Engine::encode_utf16_len`]).
    pub fn encode_utf16_in(
        &self,
        dialect: Dialect,
        src: &[u16],
        dst: Option<&mut [u8]>,
        policy: EncodePolicy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        match (dialect, dst) {
            (Dialect::Standard, Some(dst)) => {
                self.encode_utf16(src, dst, policy, order, more_input)
            }
            (Dialect::Standard, None) => self.encode_utf16_len(src, policy, order, more_input),
            (_, dst) => {
                let mut leg = EncodeUtf16 {
                    engine: self,
                    dialect,
                    dst,
                    written: 0,
                    policy,
                    order,
                };
                // The tier's CESU-8 kernel takes everything up to where the
                // reference core must go on; otherwise the standard kernel
                // takes what a scan allows.
                let kernel = leg.dialect_kernel();
                let special = |s: &[u16]| {
                    if kernel {
                        scan::Stretch {
                            take: s.len(),
                            hit: true,
                        }
                    } else {
                        scan::units(dialect, s, order)
                    }
                };
                let swap = order.swaps();
                let is_high = move |u: u16| {
                    let u = if swap { u.swap_bytes() } else { u };
                    (0xD800..0xDC00).contains(&u)
                };
                drive(
                    src,
                    &mut leg,
                    special,
                    unit_window(src, is_high),
                    more_input,
                )
            }
        }
    }
}

/// What a measuring leg counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Measure {
    CodePoints,
    Utf16,
    /// Nothing: validating.
    Nothing,
}

#[cfg(test)]
mod cesu_tests;
#[cfg(test)]
mod kernel_tests;
#[cfg(test)]
mod tests;
