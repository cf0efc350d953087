//! Differential tests on seeded random inputs against independent oracles:
//! `std` (`str::from_utf8`, `utf8_chunks`, `from_utf8_lossy`,
//! `char::encode_utf8`), `encoding_rs` (UTF-8 and windows-1252) and the
//! Table 3-7 classifier in `common`. Inputs mix valid text (code points of
//! every length), random bytes, and valid text with injected damage, short
//! (every split point is tried) and long (so that vector paths meet errors at
//! every alignment). Every test runs on every instruction-set tier this CPU
//! has ([`u8x::Tier`]) as well as through the crate's free functions.

mod common;

use common::{
    classify, cp1252_table, damaged_text, emulated_fraction, long_input, mixed_input,
    oracle_decode, oracle_encode, oracle_encode_unit, random_bytes, random_units, valid_text, Rng,
    ENCODE_POLICIES, NON_STRICT,
};
use u8x::{EncodePolicy, Engine, ErrorKind, Policy, Progress, Status, Tier, Utf8Error, REPLACE};

/// Every decoding policy, with several replacement characters.
fn all_policies() -> impl Iterator<Item = Policy> {
    std::iter::once(Policy::Strict).chain(NON_STRICT)
}

/// Every tier this CPU can run (the scalar reference first).
fn engines() -> Vec<Engine> {
    let v: Vec<Engine> = Tier::ALL.iter().filter_map(|&t| Engine::new(t)).collect();
    assert_eq!(v[0].tier(), Tier::Scalar);
    assert!(v.iter().any(|e| e.tier() == Engine::best().tier()));
    v
}

/// Inputs for one test: `n` of them, a third short mixed (valid / random /
/// damaged), a third short damaged text, a third long.
fn corpus(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut v: Vec<Vec<u8>> = (0..n)
        .map(|i| match i % 3 {
            0 => mixed_input(&mut rng, 48),
            1 => damaged_text(&mut rng, 16),
            _ => long_input(&mut rng, 600),
        })
        .collect();
    // Fixed classics at the front.
    let classics: [&[u8]; 12] = [
        b"",
        b"\xED\xA0\x80\xED\xBF\xBF",
        b"\xE0\x80\xAF",
        b"\xF4\x90\x80\x80",
        b"\xC0\xAF",
        b"\xF0\x9F\x98",
        b"\xF0\x9F\x98\x80",
        b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd",
        b"\xEF\xBB\xBF\xFE\xFF",
        b"\xE2\x82\xAC\xE2\x82",
        b"\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8A\x8B\x8C\x8D\x8E\x8F\x90\x9D",
        b"\xF8\x88\x80\x80\x80\xFC\x84\x80\x80\x80\x80",
    ];
    v.splice(0..0, classics.iter().map(|c| c.to_vec()));
    v
}

const SENTINEL: u32 = 0xFFFF_FFFF;

/// One-shot decode with a sufficient buffer; checks nothing is written past
/// `written`.
fn decode_all(e: Engine, src: &[u8], policy: Policy, more: bool) -> (Progress, Vec<u32>) {
    let mut dst = vec![SENTINEL; u8x::decode_ucs4_bound(src.len()) + 2];
    let p = e.decode_ucs4(src, &mut dst, policy, more);
    assert!(
        dst[p.written..].iter().all(|&x| x == SENTINEL),
        "wrote past `written`"
    );
    dst.truncate(p.written);
    (p, dst)
}

fn cps(s: &str) -> Vec<u32> {
    s.chars().map(|c| c as u32).collect()
}

// ---------------------------------------------------------------------------
// Validation and replacement against std and encoding_rs
// ---------------------------------------------------------------------------

#[test]
fn validate_agrees_with_std_and_encoding_rs() {
    let inputs = corpus(0xD1FF_0001, 30_000);
    let mut checked = 0u64;
    let mut invalid = 0u64;
    let mut kinds = [0u64; 7];
    for s in &inputs {
        let std_res = std::str::from_utf8(s);
        let ers = encoding_rs::Encoding::utf8_valid_up_to(s);
        let expected = match std_res {
            Ok(_) => {
                assert_eq!(ers, s.len());
                None
            }
            Err(e) => {
                let at = e.valid_up_to();
                assert_eq!(ers, at, "encoding_rs and std disagree on {s:02X?}");
                let (kind, len) = classify(&s[at..]).unwrap();
                match e.error_len() {
                    Some(l) => assert_eq!((len, kind != ErrorKind::EndOfInput), (l, true)),
                    None => assert_eq!((len, kind), (s.len() - at, ErrorKind::EndOfInput)),
                }
                invalid += 1;
                kinds[kind as usize] += 1;
                Some(Utf8Error {
                    valid_up_to: at,
                    kind,
                    len: len as u8,
                })
            }
        };
        assert_eq!(u8x::validate(s).err(), expected, "{s:02X?}");
        for e in engines() {
            let p = e.validate_chunk(s, false);
            let want = match expected {
                None => Progress {
                    status: Status::Done,
                    read: s.len(),
                    written: 0,
                    handled: 0,
                },
                Some(err) => Progress {
                    status: Status::IllFormed(err),
                    read: err.valid_up_to,
                    written: 0,
                    handled: 0,
                },
            };
            assert_eq!(p, want, "{:?} {s:02X?}", e.tier());
            let more = e.validate_chunk(s, true);
            let want_more = match expected {
                Some(err) if err.kind == ErrorKind::EndOfInput => Progress {
                    status: Status::Incomplete { len: err.len },
                    ..want
                },
                _ => want,
            };
            assert_eq!(more, want_more, "{:?} more_input {s:02X?}", e.tier());
        }
        checked += 1;
    }
    eprintln!("validate: {checked} inputs, {invalid} ill-formed, by kind {kinds:?}");
    assert_eq!(checked, 30_012);
    // The generator reaches every kind.
    assert!(kinds.iter().all(|&k| k > 50), "{kinds:?}");
}

#[test]
fn replacement_agrees_with_encoding_rs_and_std() {
    let inputs = corpus(0xD1FF_0002, 30_000);
    let cp = cp1252_table();
    let mut checked = 0u64;
    let mut replacements = 0u64;
    for s in &inputs {
        let (ers, had_errors) = encoding_rs::UTF_8.decode_without_bom_handling(s);
        let lossy = String::from_utf8_lossy(s);
        assert_eq!(ers, lossy, "encoding_rs and std disagree on {s:02X?}");
        let want = cps(&ers);
        let chunks = s.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
        assert_eq!(had_errors, chunks > 0);
        replacements += chunks as u64;
        let done = Progress {
            status: Status::Done,
            read: s.len(),
            written: want.len(),
            handled: chunks,
        };
        for e in engines() {
            for more in [false, true] {
                let (p, got) = decode_all(e, s, REPLACE, more);
                if more && p.status != Status::Done {
                    // Only a cut sequence at the very end is held back: one
                    // replacement fewer, and the tail unread.
                    let Status::Incomplete { len } = p.status else {
                        panic!("{p:?}")
                    };
                    assert_eq!(p.read + len as usize, s.len());
                    assert!(std::str::from_utf8(&s[p.read..])
                        .unwrap_err()
                        .error_len()
                        .is_none());
                    assert_eq!(got[..], want[..want.len() - 1], "{:?} {s:02X?}", e.tier());
                    assert_eq!(p.handled, chunks - 1, "{:?} {s:02X?}", e.tier());
                    assert_eq!(*want.last().unwrap(), 0xFFFD);
                    continue;
                }
                assert_eq!(p, done, "{:?} {s:02X?} more_input={more}", e.tier());
                assert_eq!(got, want, "{:?} {s:02X?}", e.tier());
            }
            // Another replacement character: same positions.
            let other = Policy::Replace('\u{10FFFF}');
            let (p, got) = decode_all(e, s, other, false);
            let mut want_other = Vec::new();
            assert_eq!(oracle_decode(s, other, &cp, &mut want_other).last, done);
            assert_eq!(p, done);
            assert_eq!(got, want_other, "{:?} {other:?} {s:02X?}", e.tier());
            let n_max = got.iter().filter(|&&c| c == 0x10FFFF).count();
            assert_eq!(
                n_max,
                chunks + want.iter().filter(|&&c| c == 0x10FFFF).count()
            );
        }
        checked += 1;
    }
    eprintln!("replace: {checked} inputs, {replacements} replacements");
    assert_eq!(checked, 30_012);
    assert!(replacements > 30_000);
}

// ---------------------------------------------------------------------------
// Byte-wise fallbacks
// ---------------------------------------------------------------------------

/// The fallback decoding built from std's chunks: valid parts as they are,
/// each byte of each invalid part through `byte`.
fn fallback_oracle(s: &[u8], byte: impl Fn(&[u8]) -> Vec<u32>) -> Vec<u32> {
    let mut out = Vec::new();
    for chunk in s.utf8_chunks() {
        out.extend(chunk.valid().chars().map(|c| c as u32));
        out.extend(byte(chunk.invalid()));
    }
    out
}

#[test]
fn fallback_policies_agree_with_oracles() {
    let inputs = corpus(0xD1FF_0003, 20_000);
    let mut checked = 0u64;
    let mut fallback_bytes = 0u64;
    let mut c1_seen = [false; 32];
    for s in &inputs {
        // windows-1252 straight from encoding_rs, chunk by chunk.
        let cp1252 = fallback_oracle(s, |bad| {
            let (text, had_errors) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bad);
            assert!(!had_errors);
            cps(&text)
        });
        let latin1 = fallback_oracle(s, |bad| bad.iter().map(|&b| b as char as u32).collect());
        let escape = fallback_oracle(s, |bad| bad.iter().map(|&b| 0xDC00 + b as u32).collect());
        for chunk in s.utf8_chunks() {
            fallback_bytes += chunk.invalid().len() as u64;
            for &b in chunk.invalid() {
                if (0x80..0xA0).contains(&b) {
                    c1_seen[(b - 0x80) as usize] = true;
                }
            }
        }
        for e in engines() {
            for (policy, want) in [
                (Policy::Cp1252, &cp1252),
                (Policy::Latin1, &latin1),
                (Policy::Escape, &escape),
            ] {
                let (p, got) = decode_all(e, s, policy, false);
                // std's chunks: each invalid part is one maximal subpart.
                let subparts = s.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
                let done = Progress {
                    status: Status::Done,
                    read: s.len(),
                    written: want.len(),
                    handled: subparts,
                };
                assert_eq!(p, done, "{:?} {policy:?} {s:02X?}", e.tier());
                assert_eq!(&got, want, "{:?} {policy:?} {s:02X?}", e.tier());
            }
            // On valid input every policy is the strict decoding.
            if let Ok(text) = std::str::from_utf8(s) {
                let want = cps(text);
                for policy in all_policies() {
                    let (p, got) = decode_all(e, s, policy, false);
                    assert_eq!(
                        (p.status, got.as_slice()),
                        (Status::Done, &want[..]),
                        "{policy:?}"
                    );
                }
            }
        }
        checked += 1;
    }
    eprintln!("fallbacks: {checked} inputs, {fallback_bytes} ill-formed bytes");
    assert_eq!(checked, 20_012);
    assert!(
        c1_seen.iter().all(|&x| x),
        "every byte 80..9F met as ill-formed"
    );
}

#[test]
fn escape_round_trips_any_bytes() {
    let mut rng = Rng::new(0xD1FF_0004);
    let mut inputs = corpus(0xD1FF_0005, 10_000);
    inputs.extend((0..10_000).map(|_| random_bytes(&mut rng, 64)));
    inputs.extend((0..200).map(|_| (0..rng.below(4096)).map(|_| rng.byte()).collect()));
    let mut checked = 0u64;
    for s in &inputs {
        for e in engines() {
            let (p, units) = decode_all(e, s, Policy::Escape, false);
            assert_eq!(p.status, Status::Done);
            assert!(units
                .iter()
                .all(|&u| char::from_u32(u).is_some() || (0xDC80..=0xDCFF).contains(&u)));
            let mut back = vec![0u8; u8x::encode_bound(units.len()).unwrap()];
            let q = e.encode(&units, &mut back, EncodePolicy::Escape);
            let done = Progress {
                status: Status::Done,
                read: units.len(),
                written: s.len(),
                handled: units
                    .iter()
                    .filter(|&&u| (0xDC80..=0xDCFF).contains(&u))
                    .count(),
            };
            assert_eq!(q, done, "{:?} {s:02X?}", e.tier());
            assert_eq!(&back[..s.len()], &s[..], "{:?}", e.tier());
            assert_eq!(e.encoded_len(&units, EncodePolicy::Escape), done);
            // Escape decoding of valid input is the strict decoding, and the
            // strict encoder takes it back.
            if std::str::from_utf8(s).is_ok() {
                let (ps, strict) = decode_all(e, s, Policy::Strict, false);
                assert_eq!((ps, &strict), (p, &units));
                assert_eq!(e.encode(&units, &mut back, EncodePolicy::Strict), done);
            }
        }
        checked += 1;
    }
    eprintln!("escape round trip: {checked} inputs");
    assert_eq!(checked, 20_212);
}

// ---------------------------------------------------------------------------
// Chunked (streaming) decoding
// ---------------------------------------------------------------------------

/// Decodes `chunks` as one stream: `more_input` on all but the last, the
/// unconsumed tail carried into the next. Returns the output and, for the
/// strict policy, the error with its offset in the whole input.
/// The output, the strict error and the ill-formed subsequences handled.
type Decoded = (Vec<u32>, Option<Utf8Error>, usize);

fn decode_stream(e: Engine, chunks: &[&[u8]], policy: Policy) -> Decoded {
    let mut out = Vec::new();
    let mut handled = 0;
    let mut carry: Vec<u8> = Vec::new();
    let mut base = 0usize;
    for (i, chunk) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        let mut input = std::mem::take(&mut carry);
        input.extend_from_slice(chunk);
        let (p, got) = decode_all(e, &input, policy, !last);
        assert_eq!(e.count(&input, policy, !last), p, "count in stream");
        out.extend_from_slice(&got);
        handled += p.handled;
        match p.status {
            Status::Done => assert_eq!(p.read, input.len()),
            Status::Incomplete { len } => {
                assert!(!last, "Incomplete without more_input");
                assert!((1..=3).contains(&len));
                assert_eq!(p.read + len as usize, input.len());
                let tail = &input[p.read..];
                let err = std::str::from_utf8(tail).unwrap_err();
                assert_eq!(
                    (err.valid_up_to(), err.error_len()),
                    (0, None),
                    "held back {tail:02X?}"
                );
                carry = tail.to_vec();
            }
            Status::IllFormed(err) => {
                assert_eq!(policy, Policy::Strict);
                assert_eq!(err.valid_up_to, p.read);
                let err = Utf8Error {
                    valid_up_to: base + err.valid_up_to,
                    ..err
                };
                return (out, Some(err), handled);
            }
            Status::OutputFull => panic!("output full with a sufficient buffer"),
        }
        base += p.read;
    }
    assert!(carry.is_empty());
    (out, None, handled)
}

/// `validate_chunk` over a stream: the first error, offset in the whole input.
fn validate_stream(e: Engine, chunks: &[&[u8]]) -> Option<Utf8Error> {
    let mut carry: Vec<u8> = Vec::new();
    let mut base = 0usize;
    for (i, chunk) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        let mut input = std::mem::take(&mut carry);
        input.extend_from_slice(chunk);
        let p = e.validate_chunk(&input, !last);
        match p.status {
            Status::Done => {}
            Status::Incomplete { len } => {
                assert_eq!(p.read + len as usize, input.len());
                carry = input[p.read..].to_vec();
            }
            Status::IllFormed(err) => {
                return Some(Utf8Error {
                    valid_up_to: base + err.valid_up_to,
                    ..err
                })
            }
            Status::OutputFull => panic!(),
        }
        base += p.read;
    }
    None
}

/// The oracle's one-shot result: output and (strict) error.
fn one_shot(s: &[u8], policy: Policy, cp: &[u32; 256]) -> Decoded {
    let mut out = Vec::new();
    let exp = oracle_decode(s, policy, cp, &mut out);
    let err = match exp.last.status {
        Status::IllFormed(e) => Some(e),
        _ => None,
    };
    (out, err, exp.last.handled)
}

#[test]
fn chunked_decoding_matches_one_shot() {
    let cp = cp1252_table();
    let mut rng = Rng::new(0xD1FF_0006);
    // (an eighth of the inputs under an emulator: the qemu lanes look for
    // what differs by architecture, which any input shows)
    let mut inputs = corpus(0xD1FF_0007, emulated_fraction(1_500));
    inputs.retain(|s| s.len() <= 64);
    inputs.extend((0..emulated_fraction(1_500)).map(|_| damaged_text(&mut rng, 8)));
    let engines = engines();
    let (mut two_way, mut three_way, mut bytewise) = (0u64, 0u64, 0u64);
    for s in &inputs {
        let strict_err = one_shot(s, Policy::Strict, &cp).1;
        for policy in all_policies() {
            let want = one_shot(s, policy, &cp);
            for &e in &engines {
                for k in 0..=s.len() {
                    let got = decode_stream(e, &[&s[..k], &s[k..]], policy);
                    assert_eq!(
                        got,
                        want,
                        "{:?} {policy:?} split at {k} of {s:02X?}",
                        e.tier()
                    );
                    if policy == Policy::Strict {
                        assert_eq!(
                            validate_stream(e, &[&s[..k], &s[k..]]),
                            strict_err,
                            "split at {k}"
                        );
                    }
                    two_way += 1;
                }
                if s.len() <= 20 {
                    for i in 0..=s.len() {
                        for j in i..=s.len() {
                            let got = decode_stream(e, &[&s[..i], &s[i..j], &s[j..]], policy);
                            assert_eq!(
                                got,
                                want,
                                "{:?} {policy:?} split at {i},{j} of {s:02X?}",
                                e.tier()
                            );
                            three_way += 1;
                        }
                    }
                }
                // One byte at a time, with an empty chunk at the end.
                let mut bytes: Vec<&[u8]> = s.chunks(1).collect();
                bytes.push(&[]);
                assert_eq!(
                    decode_stream(e, &bytes, policy),
                    want,
                    "byte at a time {s:02X?}"
                );
                bytewise += 1;
            }
        }
    }
    eprintln!(
        "chunked: {} buffers; {two_way} two-way, {three_way} three-way, {bytewise} byte-at-a-time streams",
        inputs.len()
    );
    let per = (8 * engines.len()) as u64;
    let lens = inputs.iter().map(|s| s.len() as u64);
    assert_eq!(two_way, per * lens.clone().map(|n| n + 1).sum::<u64>());
    assert_eq!(
        three_way,
        per * lens
            .filter(|&n| n <= 20)
            .map(|n| (n + 1) * (n + 2) / 2)
            .sum::<u64>()
    );
    assert_eq!(bytewise, per * inputs.len() as u64);
    // Per tier: a machine with one tier (the scalar tier alone, as on
    // aarch64) enumerates the same splits once.
    let tiers = engines.len() as u64;
    assert!(
        inputs.len() > emulated_fraction(2_500)
            && two_way / tiers > emulated_fraction(125_000) as u64
            && three_way / tiers > emulated_fraction(125_000) as u64,
        "the enumeration shrank"
    );
}

// ---------------------------------------------------------------------------
// Boundaries
// ---------------------------------------------------------------------------

#[test]
fn boundaries_are_the_oracles_split_points() {
    let cp = cp1252_table();
    let mut rng = Rng::new(0xD1FF_0008);
    let mut inputs = corpus(0xD1FF_0009, emulated_fraction(3_000));
    inputs.retain(|s| s.len() <= 80);
    inputs.extend((0..emulated_fraction(3_000)).map(|_| damaged_text(&mut rng, 12)));
    let (mut positions, mut splits_checked) = (0u64, 0u64);
    for s in &inputs {
        let n = s.len();
        let whole: Vec<Decoded> = all_policies().map(|p| one_shot(s, p, &cp)).collect();
        // The oracle's split points: where decoding both halves separately
        // gives the whole's output under every non-strict policy.
        let is_split: Vec<bool> = (0..=n)
            .map(|q| {
                all_policies().zip(&whole).skip(1).all(|(p, (w, _, _))| {
                    let mut a = one_shot(&s[..q], p, &cp).0;
                    a.extend(one_shot(&s[q..], p, &cp).0);
                    &a == w
                })
            })
            .collect();
        assert!(is_split[0] && is_split[n]);
        let text = std::str::from_utf8(s).ok();
        for pos in 0..=n {
            let next = u8x::next_boundary(s, pos).unwrap();
            let prev = u8x::prev_boundary(s, pos).unwrap();
            assert!(
                next >= pos && next - pos <= 3,
                "next_boundary({pos}) = {next} in {s:02X?}"
            );
            assert!(
                prev <= pos && pos - prev <= 3,
                "prev_boundary({pos}) = {prev} in {s:02X?}"
            );
            let want_next = (pos..=n).find(|&q| is_split[q]).unwrap();
            let want_prev = (0..=pos).rev().find(|&q| is_split[q]).unwrap();
            assert_eq!(
                (prev, next),
                (want_prev, want_next),
                "boundaries around {pos} in {s:02X?}"
            );
            if let Some(t) = text {
                let want_next = (pos..=n).find(|&q| t.is_char_boundary(q)).unwrap();
                let want_prev = (0..=pos).rev().find(|&q| t.is_char_boundary(q)).unwrap();
                assert_eq!(
                    (prev, next),
                    (want_prev, want_next),
                    "char boundaries around {pos}"
                );
            }
            // Decoding the halves with u8x itself, cut at each boundary.
            for b in [prev, next] {
                for (policy, (want, want_err, want_handled)) in all_policies().zip(&whole) {
                    for e in [Engine::best(), Engine::new(Tier::Scalar).unwrap()] {
                        let (p1, mut got) = decode_all(e, &s[..b], policy, false);
                        let err = match p1.status {
                            Status::IllFormed(err) => Some(err),
                            Status::Done => {
                                let (p2, got2) = decode_all(e, &s[b..], policy, false);
                                got.extend(got2);
                                // A boundary never cuts a maximal subpart.
                                assert_eq!(
                                    p1.handled + p2.handled,
                                    *want_handled,
                                    "{policy:?} cut at {b} of {s:02X?}"
                                );
                                match p2.status {
                                    Status::IllFormed(err) => Some(Utf8Error {
                                        valid_up_to: b + err.valid_up_to,
                                        ..err
                                    }),
                                    Status::Done => None,
                                    st => panic!("{st:?}"),
                                }
                            }
                            st => panic!("{st:?}"),
                        };
                        // Strict: the same code points and the same error
                        // offset and length. The kind may differ in one way
                        // only: a lead byte whose second byte is out of range
                        // (ED A0: Surrogate) is, cut before that byte, a
                        // sequence cut by the end of the first half.
                        let err = match (err, *want_err) {
                            (Some(g), Some(w))
                                if g.kind == ErrorKind::EndOfInput && w.kind != g.kind =>
                            {
                                assert_eq!(
                                    g.valid_up_to + g.len as usize,
                                    b,
                                    "{policy:?} cut at {b} of {s:02X?}"
                                );
                                assert!(matches!(
                                    w.kind,
                                    ErrorKind::Overlong
                                        | ErrorKind::Surrogate
                                        | ErrorKind::AboveMax
                                        | ErrorKind::TruncatedSequence
                                ));
                                Some(Utf8Error { kind: w.kind, ..g })
                            }
                            _ => err,
                        };
                        assert_eq!(
                            (&got, err),
                            (want, *want_err),
                            "{:?} {policy:?} cut at {b} of {s:02X?}",
                            e.tier()
                        );
                        splits_checked += 1;
                    }
                }
            }
            positions += 1;
        }
        for beyond in [n + 1, n + 4, usize::MAX] {
            assert_eq!(u8x::next_boundary(s, beyond), None);
            assert_eq!(u8x::prev_boundary(s, beyond), None);
        }
    }
    eprintln!(
        "boundaries: {} buffers, {positions} positions, {splits_checked} cut decodings",
        inputs.len()
    );
    assert!(
        inputs.len() >= emulated_fraction(5_000) && positions > emulated_fraction(100_000) as u64,
        "the enumeration shrank"
    );
}

// ---------------------------------------------------------------------------
// Small output buffers
// ---------------------------------------------------------------------------

/// Bytes of the maximal subparts of `src` (std's segmentation) after the
/// first of `stops` that falls strictly inside them.
fn split_subpart_bytes(src: &[u8], stops: &[usize]) -> usize {
    let mut segs = Vec::new();
    common::oracle_segments(src, &mut segs);
    segs.iter()
        .filter_map(|seg| match *seg {
            common::Seg::Bad { at, len, .. } => stops
                .iter()
                .find(|&&q| q > at && q < at + len)
                .map(|&q| at + len - q),
            common::Seg::Char(_) => None,
        })
        .sum()
}

#[test]
fn decode_resumes_after_output_full() {
    let cp = cp1252_table();
    let mut rng = Rng::new(0xD1FF_000A);
    let inputs = corpus(0xD1FF_000B, emulated_fraction(2_000));
    let mut resumptions = 0u64;
    let mut runs = 0u64;
    for s in &inputs {
        for policy in all_policies() {
            let mut want = Vec::new();
            let exp = oracle_decode(s, policy, &cp, &mut want).last;
            for e in engines() {
                // No room at all.
                let p = e.decode_ucs4(s, &mut [], policy, false);
                if s.is_empty() {
                    assert_eq!(p, exp);
                } else if exp.read == 0
                    && exp.written == 0
                    && matches!(exp.status, Status::IllFormed(_))
                {
                    assert!(p == exp || p.status == Status::OutputFull, "{p:?}");
                } else if exp.written == 0 && policy == Policy::Ignore {
                    // Every byte dropped: no room needed.
                    assert_eq!(p, exp, "{s:02X?}");
                } else if policy == Policy::Ignore {
                    // The maximal subparts before the first character are
                    // dropped without room.
                    let (head, rest) = s.split_at(p.read);
                    assert!(head.utf8_chunks().all(|c| c.valid().is_empty()));
                    assert!(
                        std::str::from_utf8(rest).map_or_else(|e| e.valid_up_to() > 0, |_| true)
                    );
                    let dropped = head.utf8_chunks().count();
                    assert_eq!(
                        (p.status, p.written, p.handled),
                        (Status::OutputFull, 0, dropped),
                        "{s:02X?}"
                    );
                } else {
                    assert_eq!(
                        (p.status, p.read, p.written),
                        (Status::OutputFull, 0, 0),
                        "{s:02X?}"
                    );
                }
                for cap in [1, 2, 3, 7, rng.range(1, 40) as usize] {
                    let mut out = Vec::new();
                    let mut read = 0usize;
                    let mut handled = 0usize;
                    let mut stops = Vec::new();
                    let mut buf = vec![SENTINEL; cap + 8];
                    let last = loop {
                        buf.fill(SENTINEL);
                        let p = e.decode_ucs4(&s[read..], &mut buf[..cap], policy, false);
                        assert!(
                            buf[p.written..].iter().all(|&x| x == SENTINEL),
                            "wrote past `written`"
                        );
                        out.extend_from_slice(&buf[..p.written]);
                        match p.status {
                            Status::OutputFull => {
                                assert_eq!(p.written, cap, "output full before the buffer is");
                                assert!(p.read > 0 && read + p.read < s.len(), "no progress");
                                read += p.read;
                                handled += p.handled;
                                stops.push(read);
                                resumptions += 1;
                            }
                            Status::Done => {
                                break Progress {
                                    read: read + p.read,
                                    written: out.len(),
                                    handled: handled + p.handled,
                                    ..p
                                }
                            }
                            Status::IllFormed(err) => {
                                break Progress {
                                    status: Status::IllFormed(Utf8Error {
                                        valid_up_to: read + err.valid_up_to,
                                        ..err
                                    }),
                                    read: read + p.read,
                                    written: out.len(),
                                    handled: handled + p.handled,
                                }
                            }
                            st => panic!("{st:?}"),
                        }
                    };
                    // A byte-wise policy may stop inside a maximal subpart;
                    // each byte after the first stop inside it is then a
                    // subpart of its own for the next call.
                    let split = split_subpart_bytes(s, &stops);
                    let exp = Progress {
                        handled: exp.handled + split,
                        ..exp
                    };
                    assert_eq!(last, exp, "{:?} {policy:?} cap {cap} {s:02X?}", e.tier());
                    assert_eq!(out, want, "{:?} {policy:?} cap {cap} {s:02X?}", e.tier());
                    runs += 1;
                }
            }
        }
    }
    eprintln!("decode with small buffers: {runs} runs, {resumptions} resumptions");
    assert_eq!(
        runs,
        (emulated_fraction(2_000) as u64 + 12) * 8 * 5 * engines().len() as u64
    );
}

#[test]
fn encode_resumes_after_output_full() {
    let mut rng = Rng::new(0xD1FF_000C);
    let mut inputs: Vec<Vec<u32>> = (0..emulated_fraction(3_000))
        .map(|i| random_units(&mut rng, 60, [1000, 20, 3][i % 3]))
        .collect();
    inputs.extend((0..emulated_fraction(200)).map(|_| random_units(&mut rng, 3000, 50)));
    let mut resumptions = 0u64;
    let mut runs = 0u64;
    for units in &inputs {
        for policy in ENCODE_POLICIES {
            let mut want = Vec::new();
            let exp = oracle_encode(units, policy, &mut want);
            for e in engines() {
                for cap in [1, 2, 3, 4, 7, rng.range(1, 64) as usize] {
                    let mut out = Vec::new();
                    let mut read = 0usize;
                    let mut stuck = false;
                    let mut calls = 0usize;
                    let mut handled = 0usize;
                    let mut buf = vec![0u8; cap.max(4) + 8];
                    let last = loop {
                        let room = if stuck { 4 } else { cap };
                        // Run each call twice, over two different sentinels,
                        // so that any byte written past `written` shows.
                        let mut results = [None, None];
                        for (k, sentinel) in [0x00u8, 0xFF].into_iter().enumerate() {
                            buf.fill(sentinel);
                            let p = e.encode(&units[read..], &mut buf[..room], policy);
                            assert!(
                                buf[p.written..].iter().all(|&x| x == sentinel),
                                "wrote past `written`"
                            );
                            results[k] = Some((p, buf[..p.written].to_vec()));
                        }
                        assert_eq!(results[0], results[1]);
                        let (p, bytes) = results[0].take().unwrap();
                        out.extend_from_slice(&bytes);
                        calls += 1;
                        assert!(calls <= 2 * units.len() + 2);
                        match p.status {
                            Status::OutputFull => {
                                // Stopped only because the next unit does not fit
                                // (or, at an error, for whatever reason).
                                assert!(
                                    read + p.read < units.len(),
                                    "output full at the end: {p:?}"
                                );
                                if let Ok(next) =
                                    oracle_encode_unit(units[read + p.read], policy, &mut [0; 4])
                                {
                                    assert!(
                                        p.written + next > room,
                                        "stopped early: {p:?}, next needs {next}"
                                    );
                                }
                                if room >= 4 {
                                    assert!(p.read > 0, "no progress with {room} bytes of room");
                                }
                                stuck = p.read == 0;
                                read += p.read;
                                handled += p.handled;
                                resumptions += 1;
                            }
                            Status::Done => {
                                break Progress {
                                    read: read + p.read,
                                    written: out.len(),
                                    handled: handled + p.handled,
                                    ..p
                                }
                            }
                            Status::IllFormed(err) => {
                                assert_eq!(err.valid_up_to, p.read);
                                break Progress {
                                    status: Status::IllFormed(Utf8Error {
                                        valid_up_to: read + err.valid_up_to,
                                        ..err
                                    }),
                                    read: read + p.read,
                                    written: out.len(),
                                    handled: handled + p.handled,
                                };
                            }
                            st => panic!("{st:?}"),
                        }
                    };
                    assert_eq!(last, exp, "{:?} {policy:?} cap {cap}", e.tier());
                    assert_eq!(out, want, "{:?} {policy:?} cap {cap}", e.tier());
                    runs += 1;
                }
            }
        }
    }
    eprintln!("encode with small buffers: {runs} runs, {resumptions} resumptions");
    assert_eq!(
        runs,
        (emulated_fraction(3_000) + emulated_fraction(200)) as u64 * 6 * 6 * engines().len() as u64
    );
}

// ---------------------------------------------------------------------------
// Measuring, and encoding against char::encode_utf8
// ---------------------------------------------------------------------------

#[test]
fn measuring_matches_real_conversion() {
    let cp = cp1252_table();
    let inputs = corpus(0xD1FF_000D, emulated_fraction(20_000));
    let mut rng = Rng::new(0xD1FF_000E);
    let mut checked = 0u64;
    for s in &inputs {
        for policy in all_policies() {
            let mut want = Vec::new();
            let exp = oracle_decode(s, policy, &cp, &mut want);
            for more in [false, true] {
                let want_p = if more { exp.more } else { exp.last };
                assert_eq!(u8x::count(s, policy, more), want_p, "{policy:?} {s:02X?}");
                for e in engines() {
                    let (p, got) = decode_all(e, s, policy, more);
                    assert_eq!(
                        p,
                        want_p,
                        "{:?} {policy:?} more_input={more} {s:02X?}",
                        e.tier()
                    );
                    assert_eq!(got[..], want[..p.written]);
                    assert_eq!(
                        e.count(s, policy, more),
                        p,
                        "{:?} count {policy:?} {s:02X?}",
                        e.tier()
                    );
                }
                checked += 1;
            }
        }
    }
    let units: Vec<Vec<u32>> = (0..emulated_fraction(20_000))
        .map(|i| random_units(&mut rng, 80, [1000, 10, 2][i % 3]))
        .collect();
    let mut encoded = 0u64;
    for u in &units {
        for policy in ENCODE_POLICIES {
            let mut want = Vec::new();
            let exp = oracle_encode(u, policy, &mut want);
            assert_eq!(u8x::encoded_len(u, policy), exp, "{policy:?} {u:X?}");
            for e in engines() {
                let mut dst = vec![0xA5u8; u8x::encode_bound(u.len()).unwrap() + 4];
                let p = e.encode(u, &mut dst, policy);
                assert_eq!(p, exp, "{:?} {policy:?} {u:X?}", e.tier());
                assert_eq!(dst[..p.written], want[..]);
                assert!(dst[p.written..].iter().all(|&b| b == 0xA5));
                assert_eq!(
                    e.encoded_len(u, policy),
                    p,
                    "{:?} encoded_len {policy:?}",
                    e.tier()
                );
            }
            encoded += 1;
        }
    }
    // Valid text round trip through String.
    for _ in 0..2_000 {
        let t = valid_text(&mut rng, 200);
        let u = cps(&t);
        let mut dst = vec![0u8; u.len() * 4];
        let p = u8x::encode(&u, &mut dst, EncodePolicy::Strict);
        assert_eq!(&dst[..p.written], t.as_bytes());
        encoded += 1;
    }
    eprintln!("measuring: {checked} decode cases, {encoded} encode cases");
    assert_eq!(checked, (emulated_fraction(20_000) as u64 + 12) * 8 * 2);
    assert_eq!(encoded, emulated_fraction(20_000) as u64 * 6 + 2_000);
}
