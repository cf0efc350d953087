//! Exhaustive checks against independent oracles.
//!
//! - Encoding: every scalar value against `char::encode_utf8`; every
//!   surrogate and a wide sample of values above 0x10FFFF against the policy
//!   rules.
//! - Decoding: every input of 0..=3 bytes, every 4-byte input starting with
//!   F0..F4, and a structured plus random sample of the other 4-byte inputs,
//!   against `std::str::from_utf8`, `<[u8]>::utf8_chunks` (one U+FFFD per
//!   invalid chunk), an independent Table 3-7 classifier for the error kind
//!   (`common::classify`) and `encoding_rs`'s windows-1252 table, under every
//!   policy, with and without `more_input`, for `decode_ucs4`, `count`,
//!   `validate` and `validate_chunk`; plus the escape round trip.
//!
//! Each test counts what it checked and asserts the count, so the
//! enumeration cannot silently shrink. In a sampled run (the quick check,
//! or under an emulator: see [`common::sampled`]) the 3-byte and F0..F4
//! enumerations take the last byte from [`common::inner_bytes`] (every 7th
//! value plus each range edge of Table 3-7) and every value of the bytes
//! before it (under an emulator the byte before the last is sampled too,
//! [`common::middle_bytes`], and the random 4-byte inputs are an eighth);
//! the full suite (`U8X_FULL=1`) takes all 256.

mod common;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use common::{
    classify, cp1252_table, oracle_expect, oracle_segments, Rng, Seg, INTERESTING_BYTES, POLICIES,
};
use u8x::{EncodePolicy, ErrorKind, Policy, Progress, Status, Utf8Error};

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

const SCALAR_COUNT: u64 = 0x11_0000 - 0x800;

#[test]
fn every_scalar_encodes_like_std_and_decodes_back() {
    let mut checked = 0u64;
    let mut want = [0u8; 4];
    let mut got = [0u8; 8];
    let mut back = [0u32; 8];
    let mut all = Vec::with_capacity(SCALAR_COUNT as usize);
    for u in 0..=0x10_FFFFu32 {
        let Some(c) = char::from_u32(u) else {
            assert!((0xD800..=0xDFFF).contains(&u));
            continue;
        };
        all.push(u);
        let want = c.encode_utf8(&mut want).as_bytes();
        let n = want.len();
        let done = Progress {
            status: Status::Done,
            read: 1,
            written: n,
            handled: 0,
        };
        for policy in [
            EncodePolicy::Strict,
            EncodePolicy::Replace('\u{FFFD}'),
            EncodePolicy::Escape,
        ] {
            got.fill(0xAA);
            assert_eq!(
                u8x::encode(&[u], &mut got, policy),
                done,
                "U+{u:04X} {policy:?}"
            );
            assert_eq!(&got[..n], want, "U+{u:04X} {policy:?}");
            assert!(
                got[n..].iter().all(|&b| b == 0xAA),
                "U+{u:04X}: wrote past `written`"
            );
            assert_eq!(u8x::encoded_len(&[u], policy), done, "U+{u:04X} {policy:?}");
        }
        // Exactly enough room, and one byte too little.
        assert_eq!(u8x::encode(&[u], &mut got[..n], EncodePolicy::Strict), done);
        assert_eq!(
            u8x::encode(&[u], &mut got[..n - 1], EncodePolicy::Strict),
            Progress {
                status: Status::OutputFull,
                read: 0,
                written: 0,
                handled: 0,
            },
            "U+{u:04X}"
        );
        let decoded = Progress {
            status: Status::Done,
            read: n,
            written: 1,
            handled: 0,
        };
        for more in [false, true] {
            back.fill(0xFFFF_FFFF);
            assert_eq!(
                u8x::decode_ucs4(want, &mut back, Policy::Strict, more),
                decoded,
                "U+{u:04X}"
            );
            assert_eq!(back[0], u);
            assert!(back[1..].iter().all(|&x| x == 0xFFFF_FFFF));
            assert_eq!(u8x::count(want, Policy::Strict, more), decoded);
        }
        assert_eq!(u8x::validate(want), Ok(()));
        checked += 1;
    }
    // All scalars at once.
    let text: String = all.iter().map(|&u| char::from_u32(u).unwrap()).collect();
    let mut bytes = vec![0u8; u8x::encode_bound(all.len()).unwrap()];
    let p = u8x::encode(&all, &mut bytes, EncodePolicy::Strict);
    let whole = Progress {
        status: Status::Done,
        read: all.len(),
        written: text.len(),
        handled: 0,
    };
    assert_eq!(p, whole);
    assert!(bytes[..p.written] == *text.as_bytes());
    assert_eq!(u8x::encoded_len(&all, EncodePolicy::Strict), whole);
    let mut cps = vec![0u32; u8x::decode_ucs4_bound(text.len())];
    let d = u8x::decode_ucs4(text.as_bytes(), &mut cps, Policy::Strict, false);
    let whole_back = Progress {
        status: Status::Done,
        read: text.len(),
        written: all.len(),
        handled: 0,
    };
    assert_eq!(d, whole_back);
    assert!(cps[..d.written] == all[..]);
    assert_eq!(
        u8x::count(text.as_bytes(), Policy::Strict, false),
        whole_back
    );
    assert_eq!(u8x::validate(text.as_bytes()), Ok(()));

    eprintln!("every_scalar: {checked} scalar values");
    assert_eq!(checked, SCALAR_COUNT);
    assert_eq!(checked, 1_112_064);
}

/// Values that are not scalar values: every surrogate, all of 0x110000..=0x12FFFF,
/// every power of two above 0x10FFFF and its neighbours, the extremes, and a
/// seeded random sample of the rest of the u32 range.
fn invalid_units() -> Vec<u32> {
    let mut v: Vec<u32> = (0xD800..=0xDFFF).collect();
    v.extend(0x11_0000..=0x12_FFFF);
    for k in 21..32 {
        let p = 1u32 << k;
        v.extend([p - 1, p, p + 1, p | (p - 1)]);
    }
    v.extend([
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0x11_0000,
        0x1F_FFFF,
    ]);
    v.extend([
        0xD800 + 0x1_0000,
        0xDC80 + 0x1_0000,
        0xDC80 + 0x10_0000,
        0xDCFF << 8,
    ]);
    let mut rng = Rng::new(0x5EED_0001);
    for _ in 0..1_000_000 {
        v.push(rng.range(0x11_0000, u32::MAX));
    }
    v.retain(|&u| char::from_u32(u).is_none());
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn every_surrogate_and_values_above_max_are_rejected() {
    // Powers of two: valid exactly up to 2^20.
    for k in 0..32 {
        let p = 1u32 << k;
        let valid = u8x::encoded_len(&[p], EncodePolicy::Strict).status == Status::Done;
        assert_eq!(valid, p <= 0x10_FFFF, "2^{k}");
    }
    let units = invalid_units();
    let mut checked = 0u64;
    let mut escaped = 0u64;
    let mut out = [0u8; 32];
    // Context: 'A', U+00E9 (2 bytes), the unit, 'B': the error is at index 2
    // after 3 bytes of output.
    let prefix = b"A\xC3\xA9";
    for &u in &units {
        let surrogate = (0xD800..=0xDFFF).contains(&u);
        let kind = if surrogate {
            ErrorKind::Surrogate
        } else {
            assert!(u > 0x10_FFFF);
            ErrorKind::AboveMax
        };
        let src = [0x41, 0xE9, u, 0x42];
        let stopped = Progress {
            status: Status::IllFormed(Utf8Error {
                valid_up_to: 2,
                kind,
                len: 1,
            }),
            read: 2,
            written: 3,
            handled: 0,
        };
        out.fill(0);
        assert_eq!(
            u8x::encode(&src, &mut out, EncodePolicy::Strict),
            stopped,
            "{u:#X}"
        );
        assert_eq!(&out[..3], prefix);
        assert!(
            out[3..].iter().all(|&b| b == 0),
            "{u:#X}: wrote past the error"
        );
        assert_eq!(
            u8x::encoded_len(&src, EncodePolicy::Strict),
            stopped,
            "{u:#X}"
        );

        for (c, rep) in [
            ('\u{FFFD}', &b"\xEF\xBF\xBD"[..]),
            ('?', b"?"),
            ('\u{10FFFF}', b"\xF4\x8F\xBF\xBF"),
        ] {
            let mut want = prefix.to_vec();
            want.extend_from_slice(rep);
            want.push(b'B');
            let done = Progress {
                status: Status::Done,
                read: 4,
                written: want.len(),
                handled: 1,
            };
            let policy = EncodePolicy::Replace(c);
            assert_eq!(u8x::encode(&src, &mut out, policy), done, "{u:#X}");
            assert_eq!(&out[..want.len()], &want[..], "{u:#X}");
            assert_eq!(u8x::encoded_len(&src, policy), done, "{u:#X}");
        }

        let escape = u8x::encode(&src, &mut out, EncodePolicy::Escape);
        if (0xDC80..=0xDCFF).contains(&u) {
            let want = [0x41, 0xC3, 0xA9, (u & 0xFF) as u8, 0x42];
            let done = Progress {
                status: Status::Done,
                read: 4,
                written: 5,
                handled: 1,
            };
            assert_eq!(escape, done, "{u:#X}");
            assert_eq!(out[..5], want, "{u:#X}");
            assert!(out[3] >= 0x80);
            assert_eq!(u8x::encoded_len(&src, EncodePolicy::Escape), done);
            escaped += 1;
        } else {
            assert_eq!(escape, stopped, "{u:#X}: escape must reject it like strict");
            assert_eq!(u8x::encoded_len(&src, EncodePolicy::Escape), stopped);
        }
        let ignored = Progress {
            status: Status::Done,
            read: 4,
            written: 4,
            handled: 1,
        };
        assert_eq!(u8x::encode(&src, &mut out, EncodePolicy::Ignore), ignored);
        assert_eq!(out[..4], [0x41, 0xC3, 0xA9, 0x42], "{u:#X}");
        assert_eq!(u8x::encoded_len(&src, EncodePolicy::Ignore), ignored);
        checked += 1;
    }
    let expected = units.len() as u64;
    eprintln!("invalid units: {checked} checked ({escaped} escaped to one byte)");
    assert_eq!(checked, expected);
    assert!(checked >= 2048 + 0x2_0000 + 1_000_000 - 100);
    assert_eq!(escaped, 128);
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// Checks one input against every oracle, reusing its buffers.
struct Checker {
    cp1252: [u32; 256],
    segs: Vec<Seg>,
    want: Vec<u32>,
    got: [u32; 8],
    bytes: [u8; 8],
    checked: u64,
}

impl Checker {
    fn new() -> Self {
        Checker {
            cp1252: cp1252_table(),
            segs: Vec::with_capacity(8),
            want: Vec::with_capacity(16),
            got: [0; 8],
            bytes: [0; 8],
            checked: 0,
        }
    }

    /// Validation against std, and the error kind against the classifier.
    fn check_validate(&mut self, s: &[u8]) {
        let v = u8x::validate(s);
        match std::str::from_utf8(s) {
            Ok(_) => assert_eq!(v, Ok(()), "{s:02X?}"),
            Err(e) => {
                let u = v.expect_err("std says ill-formed");
                let at = e.valid_up_to();
                assert_eq!(u.valid_up_to, at, "{s:02X?}");
                let (kind, len) = classify(&s[at..]).expect("the classifier sees the error");
                assert_eq!((u.kind, u.len as usize), (kind, len), "{s:02X?}");
                match e.error_len() {
                    Some(l) => {
                        assert_ne!(kind, ErrorKind::EndOfInput, "{s:02X?}");
                        assert_eq!(len, l, "{s:02X?}");
                    }
                    None => {
                        assert_eq!(kind, ErrorKind::EndOfInput, "{s:02X?}");
                        assert_eq!(len, s.len() - at, "{s:02X?}");
                    }
                }
            }
        }
    }

    /// Everything: validation, then decode and count under every policy in
    /// both modes, `validate_chunk` in both modes, and the escape round trip.
    fn check(&mut self, s: &[u8]) {
        assert!(s.len() <= 4);
        self.check_validate(s);
        oracle_segments(s, &mut self.segs);
        for policy in POLICIES {
            let want = oracle_expect(s, &self.segs, policy, &self.cp1252, &mut self.want);
            for (more, want) in [(false, want.last), (true, want.more)] {
                self.check_decode(s, policy, more, want);
                if policy == Policy::Strict {
                    let want = Progress { written: 0, ..want };
                    assert_eq!(
                        u8x::validate_chunk(s, more),
                        want,
                        "validate_chunk {s:02X?} more_input={more}"
                    );
                }
            }
            if policy == Policy::Escape {
                self.check_escape_round_trip(s);
            }
        }
        self.checked += 1;
    }

    /// The same with fewer calls per input, for the ~90 million 4-byte
    /// inputs (u8x calls on error-dense input dominate the run time):
    /// `validate`, `decode_ucs4` under the replace policy, and `count` under
    /// every policy against the oracle (whose `written` is the length of its
    /// decoding). `more_input` is covered by the shorter inputs here and by
    /// the chunked tests in tests/differential.rs.
    fn check_lite(&mut self, s: &[u8]) {
        assert!(s.len() <= 4);
        self.check_validate(s);
        oracle_segments(s, &mut self.segs);
        for policy in POLICIES {
            let want = oracle_expect(s, &self.segs, policy, &self.cp1252, &mut self.want);
            if policy == u8x::REPLACE {
                self.check_decode(s, policy, false, want.last);
            } else {
                assert_eq!(
                    u8x::count(s, policy, false),
                    want.last,
                    "count {s:02X?} {policy:?}"
                );
            }
        }
        self.checked += 1;
    }

    /// `decode_ucs4` gives the oracle's progress and output (which is in
    /// `self.want`), and `count` the same progress.
    fn check_decode(&mut self, s: &[u8], policy: Policy, more: bool, want: Progress) {
        let got = u8x::decode_ucs4(s, &mut self.got, policy, more);
        assert_eq!(got, want, "{s:02X?} {policy:?} more_input={more}");
        assert_eq!(
            self.got[..got.written],
            self.want[..got.written],
            "{s:02X?} {policy:?} more_input={more}"
        );
        assert_eq!(
            u8x::count(s, policy, more),
            want,
            "count {s:02X?} {policy:?} more_input={more}"
        );
    }

    /// Any bytes survive escape decoding then escape encoding (`self.want`
    /// holds the escape decoding).
    fn check_escape_round_trip(&mut self, s: &[u8]) {
        let p = u8x::encode(&self.want, &mut self.bytes, EncodePolicy::Escape);
        // One escaped unit per byte of each maximal subpart.
        let bad_bytes: usize = s.utf8_chunks().map(|c| c.invalid().len()).sum();
        let done = Progress {
            status: Status::Done,
            read: self.want.len(),
            written: s.len(),
            handled: bad_bytes,
        };
        assert_eq!(p, done, "escape round trip {s:02X?}");
        assert_eq!(&self.bytes[..s.len()], s, "escape round trip");
    }
}

/// Runs `f(item, checker)` for `item` in `0..items` on all cores; returns the
/// number of inputs checked.
fn par_items(items: usize, f: impl Fn(usize, &mut Checker) + Sync) -> u64 {
    let next = AtomicUsize::new(0);
    let checked = AtomicU64::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut c = Checker::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items {
                        break;
                    }
                    f(i, &mut c);
                }
                checked.fetch_add(c.checked, Ordering::Relaxed);
            });
        }
    });
    checked.into_inner()
}

#[test]
fn every_input_of_0_to_2_bytes() {
    let mut c = Checker::new();
    c.check(&[]);
    for a in 0..=255u8 {
        c.check(&[a]);
        for b in 0..=255u8 {
            c.check(&[a, b]);
        }
    }
    eprintln!("0..=2 bytes: {} inputs", c.checked);
    assert_eq!(c.checked, 1 + 256 + 256 * 256);
}

#[test]
fn every_3_byte_input() {
    let last = common::inner_bytes();
    // (every second byte but under an emulator: see common::middle_bytes)
    let middle = common::middle_bytes();
    let checked = par_items(256, |a, c| {
        for &b in &middle {
            for &d in &last {
                c.check(&[a as u8, b, d]);
            }
        }
    });
    eprintln!("3 bytes: {checked} inputs");
    assert_eq!(checked, 256 * (middle.len() * last.len()) as u64);
    assert!(
        common::sampled() || last.len() == 256,
        "every last byte natively"
    );
}

#[test]
fn every_4_byte_input_starting_f0_to_f4() {
    // Work item: (lead, second byte).
    let last = common::inner_bytes();
    let third = common::middle_bytes();
    let checked = par_items(5 * 256, |i, c| {
        let lead = 0xF0 + (i / 256) as u8;
        let b1 = (i % 256) as u8;
        for &b2 in &third {
            for &b3 in &last {
                c.check_lite(&[lead, b1, b2, b3]);
            }
        }
    });
    eprintln!("4 bytes F0..F4: {checked} inputs");
    assert_eq!(checked, (5 * 256 * third.len() * last.len()) as u64);
    assert!(
        common::sampled() || last.len() == 256,
        "every last byte natively"
    );
}

#[test]
fn sample_of_other_4_byte_inputs() {
    const CHUNKS: usize = 64;
    let random_inputs = common::emulated_fraction(1 << 21);
    let leads: Vec<u8> = (0..=255u8).filter(|b| !(0xF0..=0xF4).contains(b)).collect();
    assert_eq!(leads.len(), 251);
    // Every lead byte but F0..F4, followed by every triple of interesting bytes.
    let structured = par_items(leads.len(), |i, c| {
        for &b1 in &INTERESTING_BYTES {
            for &b2 in &INTERESTING_BYTES {
                for &b3 in &INTERESTING_BYTES {
                    c.check_lite(&[leads[i], b1, b2, b3]);
                }
            }
        }
    });
    // Uniformly random 4-byte inputs not starting with F0..F4.
    let random = par_items(CHUNKS, |i, c| {
        let mut rng = Rng::new(0x4B1D_0000 + i as u64);
        for _ in 0..random_inputs / CHUNKS {
            let mut s = rng.next_u32().to_le_bytes();
            while (0xF0..=0xF4).contains(&s[0]) {
                s[0] = rng.byte();
            }
            c.check_lite(&s);
        }
    });
    eprintln!("other 4-byte inputs: {structured} structured + {random} random");
    let n = INTERESTING_BYTES.len() as u64;
    assert_eq!(structured, 251 * n * n * n);
    assert_eq!(random, random_inputs as u64);
}
