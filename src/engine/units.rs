//! Questions and repairs of text already in a runtime's form: ASCII
//! checks (bytes and UTF-16), the width of UTF-16 text, well-formed UTF-16
//! (lone surrogates replaced, `String.prototype.toWellFormed`), UTF-16
//! byte swaps, and the sizes of valid UTF-16 and UCS-4 in each other's
//! form. The tier's loops (`portable::convert`, compiled with its
//! features) do the scanning; UTF-16 validity is [`Engine::validate_utf16`].

use crate::contract::rebase;
use crate::types::{ByteOrder, Classification, ErrorKind, Utf8Error, Width};
use crate::{Engine, Progress, Status};

/// Stopped at unit `at`, which the target form cannot hold.
fn not_ascii(at: usize) -> Progress {
    Progress {
        status: Status::IllFormed(Utf8Error {
            valid_up_to: at,
            kind: ErrorKind::NotRepresentable,
            len: 1,
        }),
        read: at,
        written: 0,
        handled: 0,
    }
}

fn all(read: usize, written: usize, handled: usize) -> Progress {
    Progress {
        status: Status::Done,
        read,
        written,
        handled,
    }
}

impl Engine {
    /// See [`crate::validate_ascii`].
    pub fn validate_ascii(&self, src: &[u8]) -> Progress {
        let n = self.kernels.loops().convert().ascii_prefix(src);
        if n == src.len() {
            all(n, 0, 0)
        } else {
            not_ascii(n)
        }
    }

    /// See [`crate::validate_ascii_utf16`].
    pub fn validate_ascii_utf16(&self, src: &[u16], order: ByteOrder) -> Progress {
        let convert = self.kernels.loops().convert();
        let n = convert.ascii_prefix_utf16(src, order.swaps());
        if n == src.len() {
            all(n, 0, 0)
        } else {
            not_ascii(n)
        }
    }

    /// See [`crate::classify_utf16`].
    pub fn classify_utf16(
        &self,
        src: &[u16],
        order: ByteOrder,
        more_input: bool,
    ) -> Classification {
        let progress = self.validate_utf16(src, order, more_input);
        let convert = self.kernels.loops().convert();
        let (max, lows) = convert.utf16_stats(&src[..progress.read], order.swaps());
        // In well-formed text every low surrogate ends a pair.
        let width = match max {
            _ if lows > 0 => Width::Supplementary,
            0..=0x7F => Width::Ascii,
            0x80..=0xFF => Width::Latin1,
            _ => Width::Bmp,
        };
        Classification {
            progress,
            width,
            code_points: progress.read - lows,
            utf16_units: progress.read,
        }
    }

    /// See [`crate::to_well_formed_utf16`].
    pub fn to_well_formed_utf16(
        &self,
        units: &mut [u16],
        replacement: u16,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let stored = if order.swaps() {
            replacement.swap_bytes()
        } else {
            replacement
        };
        self.each_lone_surrogate(&mut Replace { units, stored }, order, more_input)
    }

    /// What [`Engine::to_well_formed_utf16`] would do, changing nothing:
    /// `handled` is how many units it would replace.
    pub fn to_well_formed_utf16_len(
        &self,
        src: &[u16],
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        self.each_lone_surrogate(&mut Count(src), order, more_input)
    }

    /// Finds each unpaired surrogate of `units` (the fast validation, then
    /// the reference core's verdict on the unit it stops at) and hands it
    /// to `units`; `handled` counts them.
    fn each_lone_surrogate(
        &self,
        units: &mut impl LoneSurrogates,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let (mut at, mut handled) = (0, 0);
        loop {
            let p = self.validate_utf16(&units.units()[at..], order, more_input);
            let status = match p.status {
                Status::IllFormed(_) => {
                    units.found(at + p.read);
                    handled += 1;
                    at += p.read + 1;
                    continue;
                }
                status => rebase(status, at),
            };
            return Progress {
                status,
                read: at + p.read,
                written: at + p.read,
                handled,
            };
        }
    }

    /// See [`crate::to_well_formed_utf16_into`].
    pub fn to_well_formed_utf16_into(
        &self,
        src: &[u16],
        dst: &mut [u16],
        replacement: u16,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let mut n = src.len().min(dst.len());
        let unit = |i: usize| {
            if order.swaps() {
                src[i].swap_bytes()
            } else {
                src[i]
            }
        };
        let high = |i: usize| (0xD800..0xDC00).contains(&unit(i));
        // A pair the output cannot hold whole stays for the next call.
        if n < src.len() && n > 0 && high(n - 1) && (0xDC00..0xE000).contains(&unit(n)) {
            n -= 1;
        }
        // A high surrogate ending the input waits for more, unwritten.
        let cut = more_input && n == src.len() && n > 0 && high(n - 1);
        let take = n - usize::from(cut);
        dst[..take].copy_from_slice(&src[..take]);
        let p = self.to_well_formed_utf16(&mut dst[..take], replacement, order, false);
        let status = if cut {
            Status::Incomplete { len: 1 }
        } else if take < src.len() {
            Status::OutputFull
        } else {
            Status::Done
        };
        Progress { status, ..p }
    }

    /// See [`crate::swap_utf16`].
    pub fn swap_utf16(&self, src: &[u16], dst: &mut [u16]) -> Progress {
        let n = self.kernels.loops().convert().swap_utf16(src, dst);
        Progress {
            status: if n < src.len() {
                Status::OutputFull
            } else {
                Status::Done
            },
            read: n,
            written: n,
            handled: 0,
        }
    }

    /// See [`crate::swap_utf16_in_place`].
    pub fn swap_utf16_in_place(&self, units: &mut [u16]) {
        self.kernels.loops().convert().swap_utf16_in_place(units)
    }

    /// See [`crate::ucs4_len_utf16_valid`].
    pub fn ucs4_len_utf16_valid(&self, src: &[u16], order: ByteOrder) -> usize {
        let (_, lows) = self
            .kernels
            .loops()
            .convert()
            .utf16_stats(src, order.swaps());
        src.len() - lows
    }

    /// See [`crate::utf16_len_ucs4_valid`].
    pub fn utf16_len_ucs4_valid(&self, src: &[u32], order: ByteOrder) -> usize {
        let convert = self.kernels.loops().convert();
        convert.utf16_len_of_ucs4(src, order.swaps())
    }
}

/// Where [`Engine::each_lone_surrogate`] reads units and reports the
/// unpaired surrogates it finds.
trait LoneSurrogates {
    fn units(&self) -> &[u16];
    fn found(&mut self, at: usize);
}

/// Replaces each in place.
struct Replace<'a> {
    units: &'a mut [u16],
    /// The replacement, in the units' byte order.
    stored: u16,
}

impl LoneSurrogates for Replace<'_> {
    fn units(&self) -> &[u16] {
        self.units
    }
    fn found(&mut self, at: usize) {
        self.units[at] = self.stored;
    }
}

/// Only counts them.
struct Count<'a>(&'a [u16]);

impl LoneSurrogates for Count<'_> {
    fn units(&self) -> &[u16] {
        self.0
    }
    fn found(&mut self, _at: usize) {}
}
