//! Classification: the tier's validator, then one counting pass over the
//! well-formed prefix (see `scalar::classify` for why the largest byte
//! gives the widest character).

use super::is_reference;
use super::loops::{utf8_len_of_utf16, utf8_stats};
use crate::scalar::classify::{classify as reference, width_of_max};
use crate::{ByteOrder, Classification, Engine};

impl Engine {
    /// See [`crate::classify`].
    pub fn classify(&self, src: &[u8], more_input: bool) -> Classification {
        if is_reference(self) {
            return reference(src, more_input);
        }
        let (progress, stats) = match self.classify_kernel(src, more_input) {
            Some(found) => found,
            None => {
                let progress = self.validate_chunk(src, more_input);
                (progress, utf8_stats(self, &src[..progress.read]))
            }
        };
        Classification {
            progress,
            width: width_of_max(stats.max),
            code_points: stats.leads,
            utf16_units: stats.leads + stats.fours,
        }
    }

    /// See [`crate::utf16_len_valid`].
    pub fn utf16_len_valid(&self, src: &[u8]) -> usize {
        if is_reference(self) {
            return crate::scalar::utf16::utf16_len_valid(src);
        }
        self.utf16_len_kernel(src).unwrap_or_else(|| {
            let stats = utf8_stats(self, src);
            stats.leads + stats.fours
        })
    }

    /// See [`crate::utf8_len_valid_utf16`].
    pub fn utf8_len_valid_utf16(&self, src: &[u16], order: ByteOrder) -> usize {
        if is_reference(self) {
            return crate::scalar::utf16::utf8_len_valid(src, order);
        }
        self.utf8_len_utf16_kernel(src, order.swaps())
            .unwrap_or_else(|| utf8_len_of_utf16(self, src, order.swaps()))
    }
}
