//! Classification: the tier's validator, then one counting pass over the
//! well-formed prefix (see `reference::classify` for why the largest byte
//! gives the widest character). The scalar tier takes the same way, with
//! the portable validator and the counting loops compiled for the baseline
//! (classification 6x-15x the reference core's speed, the UTF-16 length of
//! UTF-8 19x); the tests below hold it to the reference core.

use crate::arch::Kernels;
use crate::contract::{rebase, FastStop, Utf8Stats};
use crate::reference::classify::width_of_max;
use crate::{ByteOrder, Classification, Engine, Progress, Status};

/// The tier's classification of `src` with its counts made exact: where
/// it stopped (as a validating kernel does), and the counts of exactly the
/// bytes before that (the kernel counts in groups, and leaves a few bytes
/// either side of its stop to the caller).
pub(super) fn valid_stats(k: &Kernels, src: &[u8]) -> (FastStop, Utf8Stats) {
    let (stop, mut stats, counted_to) = k.classify().run(src);
    if counted_to > stop.read {
        // The kernel counted a group whose last bytes turned out to start
        // an ill-formed sequence: count the prefix again.
        return (stop, k.stats().run(&src[..stop.read]));
    }
    // The valid bytes the kernel left uncounted.
    let more = k.stats().run(&src[counted_to..stop.read]);
    stats.leads += more.leads;
    stats.fours += more.fours;
    stats.max = stats.max.max(more.max);
    (stop, stats)
}

impl Engine {
    /// See [`crate::classify`].
    pub fn classify(&self, src: &[u8], more_input: bool) -> Classification {
        let (stop, stats) = valid_stats(self.kernels, src);
        let progress = if stop.read == src.len() {
            Progress {
                status: Status::Done,
                read: stop.read,
                written: 0,
                handled: 0,
            }
        } else {
            // The error is within a few bytes: the reference finds it
            // exactly; the counts stop where the kernel did, at the last
            // character boundary before it.
            let p = crate::reference::validate::validate(&src[stop.read..], more_input);
            Progress {
                status: rebase(p.status, stop.read),
                read: stop.read + p.read,
                written: 0,
                handled: 0,
            }
        };
        // Every byte the reference found well-formed after the kernel's
        // stop is counted too.
        let stats = if progress.read > stop.read {
            let more = self.kernels.stats().run(&src[stop.read..progress.read]);
            Utf8Stats {
                leads: stats.leads + more.leads,
                fours: stats.fours + more.fours,
                max: stats.max.max(more.max),
            }
        } else {
            stats
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
        self.kernels.utf16_len().run(src)
    }

    /// See [`crate::utf8_len_valid_utf16`].
    pub fn utf8_len_valid_utf16(&self, src: &[u16], order: ByteOrder) -> usize {
        self.kernels.utf8_len_utf16().run(src, order.swaps())
    }
}

/// The scalar tier classifies and sizes through the portable validator and
/// the counting loops, not the reference core that the other tiers' tests
/// compare against: here it is compared with the reference directly, on
/// every length up to a few blocks and on long random text, with and
/// without damage, and in every byte order.
#[cfg(test)]
mod tests {
    use crate::reference::{classify::classify as reference, utf16};
    use crate::samples::{text, Rng};
    use crate::{ByteOrder, Engine, Tier};

    fn units(rng: &mut Rng, len: usize) -> Vec<u16> {
        (0..len)
            .map(|_| match rng.below(8) {
                0 => 0xD800 + rng.below(0x800) as u16,
                1..=3 => rng.below(0x80) as u16,
                _ => rng.below(0x10000) as u16,
            })
            .collect()
    }

    #[test]
    fn scalar_tier_classifies_and_sizes_as_the_reference_core() {
        let e = Engine::new(Tier::Scalar).expect("the scalar tier");
        let mut rng = Rng(0xC1A5);
        for round in 0..3000 {
            let len = match round % 3 {
                0 => round % 200,
                1 => rng.below(100) as usize,
                _ => rng.below(5000) as usize,
            };
            let ascii = [0, 50, 90, 100][rng.below(4) as usize];
            let src = text(&mut rng, len, ascii, (round / 3) % 3);
            for more in [false, true] {
                assert_eq!(e.classify(&src, more), reference(&src, more), "{src:02X?}");
            }
            assert_eq!(e.utf16_len_valid(&src), utf16::utf16_len_valid(&src));
            let u16src = units(&mut rng, len);
            for order in [ByteOrder::Native, ByteOrder::Little, ByteOrder::Big] {
                assert_eq!(
                    e.utf8_len_valid_utf16(&u16src, order),
                    utf16::utf8_len_valid(&u16src, order),
                    "{u16src:04X?}"
                );
            }
        }
    }
}
