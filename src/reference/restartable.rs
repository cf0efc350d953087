//! The restartable decoder: the bytes of a character begun but not
//! finished, and one step of `mbrtowc` over new bytes, by the Table 3-7
//! segmenter. The C drop-ins (`ffi::restartable`) keep a [`Pending`] in
//! the caller's `u8x_mbstate_t` and call these; feeding a string one byte
//! at a time gives the verdicts of one whole-buffer decode, and an
//! ill-formed sequence is refused at the first byte no well-formed
//! character can continue with.

use super::segment::{next_segment, Segment};

/// The bytes of a character begun but not finished.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// How many bytes are pending: 0 in the initial state, at most 3.
    pub count: u8,
    /// The pending bytes, first byte first, then zeros.
    pub bytes: [u8; 3],
}

/// What one restartable step found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A character, finished by the first `used` of the new bytes.
    Char { scalar: u32, used: usize },
    /// Every new byte went into the state: the character needs more.
    Incomplete,
    /// The pending and new bytes begin no well-formed character.
    Invalid,
}

impl Pending {
    /// No bytes pending.
    pub const INITIAL: Pending = Pending {
        count: 0,
        bytes: [0; 3],
    };

    /// Whether this is a state the steps could have left: no pending
    /// bytes, or 1..3 that begin a well-formed character, then zeros.
    pub fn is_valid(&self) -> bool {
        let Some((pending, rest)) = self.bytes.split_at_checked(self.count as usize) else {
            return false;
        };
        rest.iter().all(|&b| b == 0)
            && (pending.is_empty()
                || next_segment(pending) == Segment::Truncated { len: self.count })
    }

    /// Whether the pending bytes followed by `new` can still begin a
    /// well-formed character (a step over them would take more): what a
    /// caller reading bytes one at a time asks before it reads the next.
    pub fn open_after(&self, new: &[u8]) -> bool {
        let have = self.count as usize;
        let mut seen = [0u8; 4];
        let take = new.len().min(4 - have);
        seen[..have].copy_from_slice(&self.bytes[..have]);
        seen[have..have + take].copy_from_slice(&new[..take]);
        matches!(
            next_segment(&seen[..have + take]),
            Segment::Truncated { .. }
        )
    }

    /// One `mbrtowc` step from a valid state over the new bytes `src`, of
    /// which only the first `4 - count` can matter. The state is initial
    /// afterwards unless the step is [`Step::Incomplete`].
    pub fn step(&mut self, src: &[u8]) -> Step {
        let have = self.count as usize;
        let take = src.len().min(4 - have);
        let mut buf = [0u8; 4];
        buf[..have].copy_from_slice(&self.bytes[..have]);
        buf[have..have + take].copy_from_slice(&src[..take]);
        let seen = &buf[..have + take];
        if seen.is_empty() {
            return Step::Incomplete;
        }
        let found = match next_segment(seen) {
            Segment::Char { scalar, len } => Step::Char {
                scalar,
                used: len as usize - have,
            },
            Segment::Truncated { len } => {
                // A segment is only cut by the end of its input: `len` is
                // all of `seen`, and shorter than the 4 bytes a character
                // can take.
                self.count = len;
                self.bytes[..len as usize].copy_from_slice(seen);
                return Step::Incomplete;
            }
            Segment::Invalid { .. } => Step::Invalid,
        };
        *self = Pending::INITIAL;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INITIAL: Pending = Pending::INITIAL;

    fn state(pending: &[u8]) -> Pending {
        let mut s = INITIAL;
        s.count = pending.len() as u8;
        s.bytes[..pending.len()].copy_from_slice(pending);
        s
    }

    /// Feeds `bytes` one at a time; the steps and the states after them.
    fn bytewise(bytes: &[u8]) -> Vec<(Step, Pending)> {
        let mut s = INITIAL;
        bytes
            .iter()
            .map(|b| (s.step(core::slice::from_ref(b)), s))
            .collect()
    }

    #[test]
    fn byte_at_a_time() {
        use Step::*;
        assert_eq!(
            bytewise(b"\xE2\x82\xAC"),
            [
                (Incomplete, state(b"\xE2")),
                (Incomplete, state(b"\xE2\x82")),
                (
                    Char {
                        scalar: 0x20AC,
                        used: 1
                    },
                    INITIAL
                ),
            ]
        );
        // Refused at the first byte no well-formed character continues
        // with, and the state is initial again.
        for bad in [&b"\xE0\x80"[..], b"\xED\xA0", b"\xF0\x8F", b"\xF4\x90"] {
            let steps = bytewise(bad);
            assert_eq!(steps[0], (Incomplete, state(&bad[..1])), "{bad:02X?}");
            assert_eq!(steps[1], (Invalid, INITIAL), "{bad:02X?}");
        }
        for lead in [0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF] {
            assert_eq!(bytewise(&[lead]), [(Invalid, INITIAL)]);
        }
        assert_eq!(
            bytewise(b"\xF0\x90\x80\x41"),
            [
                (Incomplete, state(b"\xF0")),
                (Incomplete, state(b"\xF0\x90")),
                (Incomplete, state(b"\xF0\x90\x80")),
                (Invalid, INITIAL),
            ]
        );
    }

    #[test]
    fn chunks_read_only_what_the_character_needs() {
        let mut s = state(b"\xF0\x9F");
        let found = s.step(b"\x98\x80zzzz");
        assert_eq!(
            found,
            Step::Char {
                scalar: 0x1F600,
                used: 2
            }
        );
        assert_eq!(s, INITIAL);
        let mut s = state(b"\xE2");
        assert_eq!(s.step(b""), Step::Incomplete);
        assert_eq!(s, state(b"\xE2"));
        let mut s = INITIAL;
        assert_eq!(s.step(b""), Step::Incomplete);
        assert_eq!(s, INITIAL);
        assert_eq!(s.step(b"\0\x80"), Step::Char { scalar: 0, used: 1 });
    }

    #[test]
    fn corrupt_states() {
        assert!(INITIAL.is_valid());
        assert!(state(b"\xF4\x8F\xBF").is_valid());
        for bad in [
            state(b"\x41"),
            state(b"\x80"),
            state(b"\xE2\x82\xAC"),
            state(b"\xE0\x80"),
            state(b"\xC0"),
            Pending {
                count: 4,
                bytes: [0; 3],
            },
            Pending {
                count: 0,
                bytes: [0xE2, 0, 0],
            },
            Pending {
                count: 1,
                bytes: [0xE2, 0x82, 0],
            },
        ] {
            assert!(!bad.is_valid(), "{bad:?}");
        }
    }

    #[test]
    fn every_short_input_matches_the_segmenter() {
        // Byte at a time, each 1..3-byte prefix ends as the segmenter says.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let bytes = [a, b];
                let mut s = INITIAL;
                let mut last = Step::Incomplete;
                let mut fed = 0;
                for &x in &bytes {
                    last = s.step(&[x]);
                    fed += 1;
                    if last != Step::Incomplete {
                        break;
                    }
                }
                let want = match next_segment(&bytes[..fed]) {
                    Segment::Char { scalar, len } if len as usize == fed => {
                        Step::Char { scalar, used: 1 }
                    }
                    Segment::Truncated { .. } => Step::Incomplete,
                    _ => Step::Invalid,
                };
                assert_eq!(last, want, "{bytes:02X?}");
            }
        }
    }
}
