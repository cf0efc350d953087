//! What a runtime needs to know before it allocates a string for UTF-8
//! input: is it valid, what is its widest character, how many characters
//! and UTF-16 units does it hold.
//!
//! On well-formed UTF-8 the widest character follows from the largest byte
//! alone: continuation bytes are 80..BF, so a largest byte below 80 means
//! ASCII, at most C3 (the lead of U+00C0..U+00FF) means Latin-1, below F0
//! means the BMP, and anything from F0 up leads a 4-byte character.

use crate::types::Width;
#[cfg(test)]
use crate::types::{Classification, Progress, Status};

/// The widest character of well-formed UTF-8 whose largest byte is `max`.
#[inline]
pub(crate) fn width_of_max(max: u8) -> Width {
    match max {
        0x00..=0x7F => Width::Ascii,
        0x80..=0xC3 => Width::Latin1,
        0xC4..=0xEF => Width::Bmp,
        _ => Width::Supplementary,
    }
}

/// The counts of `src`: characters (if well-formed), 4-byte leads, largest
/// byte.
#[cfg(test)]
pub(crate) fn stats_of(src: &[u8]) -> crate::contract::Utf8Stats {
    crate::contract::Utf8Stats {
        leads: super::validate::count_leads(src),
        fours: src.iter().filter(|&&b| b >= 0xF0).count(),
        max: src.iter().copied().max().unwrap_or(0),
    }
}

/// The classification of well-formed UTF-8 `src`, after `progress` (a
/// validation whose well-formed prefix is `src`).
#[cfg(test)] // The oracle of `engine::classify`'s tests.
pub(crate) fn stats(src: &[u8], progress: Progress) -> Classification {
    let s = stats_of(src);
    Classification {
        progress,
        width: width_of_max(s.max),
        code_points: s.leads,
        utf16_units: s.leads + s.fours,
    }
}

/// Classifies `src`: the validation result, and the widest character, the
/// characters and the UTF-16 units of its well-formed prefix.
#[cfg(test)] // The oracle of `engine::classify`'s tests.
pub fn classify(src: &[u8], more_input: bool) -> Classification {
    let progress = super::validate::validate(src, more_input);
    debug_assert!(matches!(progress.status, Status::Done) || progress.read < src.len());
    stats(&src[..progress.read], progress)
}
