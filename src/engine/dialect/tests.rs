//! Every tier's dialect paths against the dialect's reference core run over
//! the whole input, on every short input and on sequences of the forms
//! each dialect treats specially; chunked decoding at every split point;
//! and the boundary property (cutting at a boundary changes nothing).

use crate::dialect::boundary::{is_boundary, next_boundary, prev_boundary};
use crate::dialect::encode;
use crate::reference::decode::decode_with;
use crate::reference::sink::{CountSink, SliceSink};
use crate::reference::utf16::Utf16Sink;
use crate::samples::POLICIES;
use crate::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Progress, Status, Tier};

fn engines() -> Vec<Engine> {
    Tier::ALL.into_iter().filter_map(Engine::new).collect()
}

/// The reference core over the whole input, to code points.
fn reference_ucs4(d: Dialect, src: &[u8], policy: Policy, more: bool) -> (Progress, Vec<u32>) {
    let mut out = vec![0; src.len()];
    let p = decode_with(d, src, &mut SliceSink::new(&mut out), policy, more);
    out.truncate(p.written);
    (p, out)
}

fn reference_utf16(d: Dialect, src: &[u8], policy: Policy, more: bool) -> (Progress, Vec<u16>) {
    let mut out = vec![0; 2 * src.len()];
    let sink = &mut Utf16Sink::new(SliceSink::new(&mut out), ByteOrder::Native);
    let p = decode_with(crate::dialect::segment::ToUtf16(d), src, sink, policy, more);
    out.truncate(p.written);
    (p, out)
}

/// Sequences each dialect reads differently, and the bytes around them.
const TOKENS: &[&[u8]] = &[
    b"A",
    b"\x00",
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC0",
    b"\xC2\xA9",
    b"\xE2\x82\xAC",
    b"\xE2\x82",
    b"\xED\x9F\xBF",
    b"\xED\xA0\x80",
    b"\xED\xAF\xBF",
    b"\xED\xB0\x80",
    b"\xED\xBF\xBF",
    b"\xED\xA0",
    b"\xED",
    b"\xF0\x9F\x98\x80",
    b"\xF4\x90\x80\x80",
    b"\xF7\xBF\xBF\xBF",
    b"\xF8\x88\x80\x80\x80",
    b"\xF8\x87\xBF\xBF\xBF",
    b"\xFB\xBF\xBF\xBF\xBF",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFC\x83\xBF\xBF\xBF\xBF",
    b"\xFD\xBF\xBF\xBF\xBF\xBF",
    b"\xFD\xBF\xBF",
    b"\xFE",
];

/// Every sequence of up to three tokens.
fn token_inputs() -> Vec<Vec<u8>> {
    let mut all = vec![vec![]];
    let mut last: Vec<Vec<u8>> = vec![vec![]];
    for _ in 0..3 {
        let next: Vec<Vec<u8>> = last
            .iter()
            .flat_map(|p| TOKENS.iter().map(move |t| [p.as_slice(), t].concat()))
            .collect();
        all.extend(next.iter().cloned());
        last = next;
    }
    all
}

fn check_decode(e: &Engine, d: Dialect, src: &[u8], policy: Policy) {
    for more in [false, true] {
        let (want, cps) = reference_ucs4(d, src, policy, more);
        let mut out = vec![0; src.len()];
        let got = e.decode_ucs4_in(d, src, &mut out, policy, more);
        assert_eq!(
            (got, &out[..got.written]),
            (want, &cps[..]),
            "{e:?} {d:?} {policy:?} {more} {src:02X?}"
        );
        let count = e.count_in(d, src, policy, more);
        assert_eq!(count, want, "count {e:?} {d:?} {policy:?} {src:02X?}");
        if policy == Policy::Strict {
            let valid = e.validate_in(d, src, more);
            let want = Progress { written: 0, ..want };
            assert_eq!(valid, want, "validate {e:?} {d:?} {more} {src:02X?}");
        }
        let (want16, units) = reference_utf16(d, src, policy, more);
        let mut out = vec![0; 2 * src.len()];
        let got = e.decode_utf16_in(d, src, &mut out, policy, ByteOrder::Native, more);
        assert_eq!(
            (got, &out[..got.written]),
            (want16, &units[..]),
            "utf16 {e:?} {d:?} {policy:?} {more} {src:02X?}"
        );
        let len = e.decode_utf16_len_in(d, src, policy, more);
        assert_eq!(len, want16, "utf16 len {e:?} {d:?} {policy:?} {src:02X?}");
    }
}

#[test]
fn every_input_of_up_to_three_bytes() {
    // Inputs this short take the same scalar paths on every tier; the
    // token tests below run each tier.
    let engines = [Engine::best()];
    // In a sampled run, every 61st input and the edges; under an emulator
    // every 211th (this test alone took 83 s of the s390x lane at 61).
    let step = if crate::samples::full() {
        1
    } else if crate::samples::emulated() {
        211
    } else {
        61
    };
    for d in Dialect::ALL {
        for n in 0u32..=0xFF_FFFF {
            if n % step as u32 != 0 && n & 0xFF != 0xFF {
                continue;
            }
            let bytes = n.to_le_bytes();
            for len in 1..=3 {
                // Each n is one 3-byte input; its 1- and 2-byte prefixes
                // are tried once, for the n that ends in zeros.
                if len < 3 && n >> (8 * len) != 0 {
                    continue;
                }
                let src = &bytes[..len];
                for e in &engines {
                    for policy in POLICIES {
                        let (want, cps) = reference_ucs4(d, src, policy, false);
                        let mut out = [0; 3];
                        let got = e.decode_ucs4_in(d, src, &mut out, policy, false);
                        assert_eq!(
                            (got, &out[..got.written]),
                            (want, &cps[..]),
                            "{e:?} {d:?} {policy:?} {src:02X?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn token_sequences_on_every_tier_under_every_policy() {
    let engines = engines();
    for src in token_inputs().iter().step_by(crate::samples::stride()) {
        for d in Dialect::ALL {
            for e in &engines {
                for policy in POLICIES {
                    check_decode(e, d, src, policy);
                }
            }
        }
    }
}

/// The long inputs that make the kernels run, with the special forms at
/// every offset of a block.
#[test]
fn special_forms_amid_long_text_on_every_tier() {
    let engines = engines();
    let filler = "aé€𝄞".repeat(40);
    for token in TOKENS {
        for at in (0..filler.len()).step_by(crate::samples::stride()) {
            if !filler.is_char_boundary(at) {
                continue;
            }
            let src = [&filler.as_bytes()[..at], token, &filler.as_bytes()[at..]].concat();
            for d in Dialect::ALL {
                for e in &engines {
                    check_decode(e, d, &src, Policy::Replace('\u{FFFD}'));
                    check_decode(e, d, &src, Policy::Strict);
                }
            }
        }
    }
}

/// Runs of CESU-8 pairs (a text of Emoji), which every leg hands to the
/// tier's pair kernel, broken at every phase by each token, decoded,
/// counted and validated on every tier as the reference core does.
#[test]
fn runs_of_pairs_broken_anywhere_on_every_tier() {
    let engines = engines();
    let run = b"\xED\xA0\xBD\xED\xB8\x80".repeat(70);
    for token in TOKENS {
        for at in (0..run.len()).step_by(5 * crate::samples::stride()) {
            let src = [&run[..at], token, &run[at..]].concat();
            for d in [Dialect::Cesu8, Dialect::Mutf8] {
                for e in &engines {
                    check_decode(e, d, &src, Policy::Strict);
                    check_decode(e, d, &src, Policy::Replace('\u{FFFD}'));
                }
            }
        }
    }
}

/// Decoding in two chunks, the first with more input to come, gives the
/// output of the whole, on every tier, to UCS-4 and to UTF-16, under every
/// policy that does not stop.
#[test]
fn chunked_decoding_at_every_split() {
    let engines = engines();
    for src in token_inputs().iter().step_by(crate::samples::stride()) {
        for d in Dialect::ALL {
            for policy in POLICIES.into_iter().filter(|&p| p != Policy::Strict) {
                let (_, whole) = reference_ucs4(d, src, policy, false);
                let (_, whole16) = reference_utf16(d, src, policy, false);
                for e in &engines {
                    for split in 0..=src.len() {
                        let mut out = vec![0; src.len()];
                        let first = e.decode_ucs4_in(d, &src[..split], &mut out, policy, true);
                        let mut got = out[..first.written].to_vec();
                        let rest = &src[first.read..];
                        let second = e.decode_ucs4_in(d, rest, &mut out, policy, false);
                        assert_eq!(second.status, Status::Done);
                        got.extend_from_slice(&out[..second.written]);
                        assert_eq!(got, whole, "{e:?} {d:?} {policy:?} {src:02X?} at {split}");

                        let order = ByteOrder::Native;
                        let mut out = vec![0; 2 * src.len()];
                        let first =
                            e.decode_utf16_in(d, &src[..split], &mut out, policy, order, true);
                        let mut got = out[..first.written].to_vec();
                        let rest = &src[first.read..];
                        let second = e.decode_utf16_in(d, rest, &mut out, policy, order, false);
                        assert_eq!(second.status, Status::Done);
                        got.extend_from_slice(&out[..second.written]);
                        assert_eq!(
                            got, whole16,
                            "utf16 {e:?} {d:?} {policy:?} {src:02X?} at {split}"
                        );
                    }
                }
            }
        }
    }
}

/// Decoding the two sides of a boundary separately gives the whole's
/// output; every position between a boundary and the next is not one.
#[test]
fn boundaries_split_without_changing_the_output() {
    for src in token_inputs().iter().step_by(crate::samples::stride()) {
        for d in Dialect::ALL {
            if d == Dialect::Standard {
                for pos in 0..=src.len() {
                    let std = crate::reference::boundary::next_boundary(src, pos);
                    assert_eq!(next_boundary(d, src, pos), std, "{src:02X?} {pos}");
                }
            }
            for policy in [Policy::Replace('\u{FFFD}'), Policy::Escape] {
                let (_, whole) = reference_ucs4(d, src, policy, false);
                for pos in 0..=src.len() {
                    let next = next_boundary(d, src, pos);
                    let prev = prev_boundary(d, src, pos);
                    assert!(prev <= pos && pos <= next);
                    assert!(is_boundary(d, src, next) && is_boundary(d, src, prev));
                    if !is_boundary(d, src, pos) {
                        continue;
                    }
                    let (_, a) = reference_ucs4(d, &src[..pos], policy, false);
                    let (_, b) = reference_ucs4(d, &src[pos..], policy, false);
                    assert_eq!([a, b].concat(), whole, "{d:?} {src:02X?} cut at {pos}");
                }
            }
        }
    }
}

/// What the code points encode to, on each tier, against the reference core.
#[test]
fn encoding_on_every_tier_matches_the_scalar_core() {
    let specials = [
        0,
        0x41,
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xD7FF,
        0xD800,
        0xDBFF,
        0xDC00,
        0xDFFF,
        0xE000,
        0xFFFD,
        0xFFFF,
        0x1_0000,
        0x1_F600,
        0x10_FFFF,
        0x11_0000,
        0x1F_FFFF,
        0x20_0000,
        0x3FF_FFFF,
        0x400_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
    ];
    let filler: Vec<u32> = "aé€𝄞".repeat(12).chars().map(|c| c as u32).collect();
    let mut inputs: Vec<Vec<u32>> = Vec::new();
    for &a in &specials {
        for &b in &specials {
            inputs.push(vec![a, b]);
            for at in (0..filler.len()).step_by(5 * crate::samples::stride()) {
                let mut v = filler.clone();
                v.insert(at, b);
                v.insert(at, a);
                inputs.push(v);
            }
        }
    }
    let policies = [
        EncodePolicy::Strict,
        EncodePolicy::Replace('\u{10348}'),
        EncodePolicy::Replace('\0'),
        EncodePolicy::Escape,
        EncodePolicy::Ignore,
    ];
    for e in engines() {
        for d in Dialect::ALL {
            for src in &inputs {
                for policy in policies {
                    let mut want = vec![0; src.len() * 6];
                    let p = encode::encode(d, src, &mut SliceSink::new(&mut want), policy);
                    want.truncate(p.written);
                    let mut out = vec![0; src.len() * 6];
                    let got = e.encode_in(d, src, Some(&mut out), policy);
                    assert_eq!(
                        (got, &out[..got.written]),
                        (p, &want[..]),
                        "{e:?} {d:?} {policy:?} {src:X?}"
                    );
                    assert_eq!(e.encode_in(d, src, None, policy), p);
                    // Every output size: whole characters only, then full.
                    for cap in 0..p.written {
                        let got = e.encode_in(d, src, Some(&mut out[..cap]), policy);
                        assert_eq!(got.status, Status::OutputFull);
                        assert_eq!(&out[..got.written], &want[..got.written]);
                    }
                    let units: Vec<u16> = src
                        .iter()
                        .filter(|&&c| c <= 0xFFFF)
                        .map(|&c| c as u16)
                        .collect();
                    for order in [ByteOrder::Native, ByteOrder::Big] {
                        let swapped: Vec<u16> = if order == ByteOrder::Big {
                            units.iter().map(|u| u.to_be()).collect()
                        } else {
                            units.clone()
                        };
                        for more in [false, true] {
                            let mut want = vec![0; units.len() * 6];
                            let sink = &mut SliceSink::new(&mut want);
                            let p = encode::encode_utf16(d, &swapped, sink, policy, order, more);
                            want.truncate(p.written);
                            let mut out = vec![0; units.len() * 6];
                            let got =
                                e.encode_utf16_in(d, &swapped, Some(&mut out), policy, order, more);
                            assert_eq!(
                                (got, &out[..got.written]),
                                (p, &want[..]),
                                "utf16 {e:?} {d:?} {policy:?} {units:X?}"
                            );
                            assert_eq!(
                                e.encode_utf16_in(d, &swapped, None, policy, order, more),
                                p
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Decoding with every output capacity: whole characters, never past it.
#[test]
fn decoding_at_every_output_capacity() {
    let e = Engine::best();
    let text = [
        b"ab".as_slice(),
        b"\xED\xA0\xBD\xED\xB8\x80",
        b"\xC0\x80",
        b"\xFC\x84\x80\x80\x80\x80",
        b"\xED\xA0\x80x",
    ]
    .concat();
    for d in Dialect::ALL {
        for policy in [Policy::Replace('\u{FFFD}'), Policy::Escape] {
            let (whole, cps) = reference_ucs4(d, &text, policy, false);
            for cap in 0..whole.written {
                let mut out = vec![0; cap];
                let p = e.decode_ucs4_in(d, &text, &mut out, policy, false);
                assert_eq!(p.status, Status::OutputFull);
                assert_eq!(&out[..p.written], &cps[..p.written]);
                let rest = e.count_in(d, &text[p.read..], policy, false);
                assert_eq!(p.written + rest.written, whole.written, "{d:?} cap {cap}");
            }
            let (w16, units) = reference_utf16(d, &text, policy, false);
            for cap in 0..w16.written {
                let mut out = vec![0; cap];
                let p = e.decode_utf16_in(d, &text, &mut out, policy, ByteOrder::Native, false);
                assert_eq!(p.status, Status::OutputFull);
                assert_eq!(&out[..p.written], &units[..p.written]);
            }
            let _ = CountSink::default();
        }
    }
}

/// Two of the dialects' forms at every distance apart: the first starts a
/// scalar window, the second falls at every place in it, its end included.
#[test]
fn two_forms_at_every_distance_on_every_tier() {
    let engines = engines();
    let forms: &[&[u8]] = &[
        b"\xED\xA0\x80",
        b"\xED\xA0\xBD\xED\xB8\x80",
        b"\xC0\x80",
        b"\xF4\x90\x80\x80",
        b"\xFD\xBF\xBF\xBF\xBF\xBF",
        b"\xE2\x82",
        b"\x00",
        b"\xF0\x9F\x98\x80",
    ];
    for first in forms {
        for second in forms {
            for gap in (0..80).step_by(crate::samples::stride()) {
                let src = [b"ab".as_slice(), first, &b"x".repeat(gap), second, b"yz"].concat();
                for d in Dialect::ALL {
                    for e in &engines {
                        check_decode(e, d, &src, Policy::Strict);
                        check_decode(e, d, &src, Policy::Replace('\u{FFFD}'));
                        check_decode(e, d, &src, Policy::Ignore);
                    }
                }
            }
        }
    }
}

/// Under the escape policy, decoding then encoding gives back any byte
/// string, on every tier, through UCS-4 and through UTF-16, in the
/// dialects where U+DC80..U+DCFF are not characters (Modified UTF-8 also
/// escapes its refused 00, as U+DC00). In WTF-8 and generalized UTF-8 they
/// are, and the encoder writes them as such: the documented exception.
#[test]
fn escape_round_trips_every_byte_string() {
    let engines = engines();
    let filler = "aé€𝄞".repeat(24);
    let mut inputs: Vec<Vec<u8>> = token_inputs()
        .into_iter()
        .step_by(crate::samples::stride())
        .collect();
    for token in TOKENS {
        for at in (0..filler.len()).step_by(5 * crate::samples::stride()) {
            let f = filler.as_bytes();
            // Cut anywhere, not only at character boundaries.
            inputs.push([&f[..at], token, &f[at..], token].concat());
        }
    }
    for n in (0..=0xFFFFu32).step_by(crate::samples::stride()) {
        inputs.push(n.to_le_bytes()[..2].to_vec());
    }
    for e in &engines {
        for d in [
            Dialect::Standard,
            Dialect::Legacy,
            Dialect::Cesu8,
            Dialect::Mutf8,
        ] {
            for src in &inputs {
                let mut cps = vec![0; src.len()];
                let p = e.decode_ucs4_in(d, src, &mut cps, Policy::Escape, false);
                assert_eq!(p.status, Status::Done, "{e:?} {d:?} {src:02X?}");
                let mut back = vec![0; 6 * src.len()];
                let q = e.encode_in(d, &cps[..p.written], Some(&mut back), EncodePolicy::Escape);
                assert_eq!(q.status, Status::Done, "{e:?} {d:?} {src:02X?}");
                assert_eq!(&back[..q.written], &src[..], "UCS-4 {e:?} {d:?}");
                assert_eq!(
                    q.handled,
                    cps[..p.written].iter().filter(|&&c| c >> 8 == 0xDC).count()
                );

                let mut units = vec![0; 2 * src.len()];
                let order = ByteOrder::Native;
                let p = e.decode_utf16_in(d, src, &mut units, Policy::Escape, order, false);
                // Legacy values above U+10FFFF are not representable in
                // UTF-16, whatever the policy.
                if d == Dialect::Legacy && p.status != Status::Done {
                    continue;
                }
                assert_eq!(p.status, Status::Done, "utf16 {e:?} {d:?} {src:02X?}");
                let units = &units[..p.written];
                let q = e.encode_utf16_in(
                    d,
                    units,
                    Some(&mut back),
                    EncodePolicy::Escape,
                    order,
                    false,
                );
                assert_eq!(q.status, Status::Done, "utf16 {e:?} {d:?} {src:02X?}");
                assert_eq!(&back[..q.written], &src[..], "UTF-16 {e:?} {d:?}");
            }
        }
        // WTF-8 and generalized UTF-8 write U+DC80 as the lone surrogate it
        // is there: the stray byte 80 comes back as ED B2 80.
        for d in [Dialect::Wtf8, Dialect::Generalized] {
            let mut cps = [0; 1];
            let p = e.decode_ucs4_in(d, b"\x80", &mut cps, Policy::Escape, false);
            assert_eq!((p.handled, cps), (1, [0xDC80]));
            let mut back = [0; 3];
            let q = e.encode_in(d, &cps, Some(&mut back), EncodePolicy::Escape);
            assert_eq!((q.handled, &back[..q.written]), (0, &b"\xED\xB2\x80"[..]));
        }
    }
}
