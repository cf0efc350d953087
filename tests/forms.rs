//! UTF-16 and Latin-1 both ways, classification and valid-text sizes,
//! against independent oracles (Rust `std`, `encoding_rs`, simdutf 9.1, the
//! UCS-4 decoder) and every tier against the scalar reference: all policies
//! and byte orders, every length 0..=300 at every alignment, every split
//! point of chunked input, every output capacity.

mod common;

use common::{long_input, mixed_input, random_scalar, Rng};
use u8x::{
    ByteOrder, EncodePolicy, Engine, ErrorKind, Latin1Policy, Policy, Progress, Status, Tier,
    Utf8Error, Width, REPLACE,
};

const POLICIES: [Policy; 8] = [
    Policy::Strict,
    REPLACE,
    Policy::Replace('?'),
    Policy::Replace('\u{10FFFF}'),
    Policy::Escape,
    Policy::Latin1,
    Policy::Cp1252,
    Policy::Ignore,
];
const ENCODE_POLICIES: [EncodePolicy; 5] = [
    EncodePolicy::Strict,
    EncodePolicy::Replace('\u{FFFD}'),
    EncodePolicy::Replace('\u{1F600}'),
    EncodePolicy::Escape,
    EncodePolicy::Ignore,
];
const LATIN1_POLICIES: [Latin1Policy; 4] = [
    Latin1Policy::Strict,
    Latin1Policy::Replace(b'?'),
    Latin1Policy::Replace(0xBF),
    Latin1Policy::Ignore,
];
const ORDERS: [ByteOrder; 3] = [ByteOrder::Native, ByteOrder::Little, ByteOrder::Big];

fn scalar() -> Engine {
    Engine::new(Tier::Scalar).expect("the scalar tier is always available")
}

fn all_tiers() -> Vec<Engine> {
    Tier::ALL
        .iter()
        .filter_map(|&t| {
            let e = Engine::new(t);
            if e.is_none() {
                eprintln!("skipped: this CPU lacks the {t:?} tier");
            }
            e
        })
        .collect()
}

fn fast_tiers() -> Vec<Engine> {
    all_tiers()
        .into_iter()
        .filter(|e| e.tier() != Tier::Scalar)
        .collect()
}

/// Units in `order` from native ones.
fn to_order(units: &[u16], order: ByteOrder) -> Vec<u16> {
    units
        .iter()
        .map(|&u| match order {
            ByteOrder::Native => u,
            ByteOrder::Little => u.to_le(),
            ByteOrder::Big => u.to_be(),
        })
        .collect()
}

/// The UTF-16 of code points (lone surrogates as themselves).
fn utf16_of(cps: &[u32]) -> Vec<u16> {
    let mut out = Vec::new();
    for &c in cps {
        if c < 0x1_0000 {
            out.push(c as u16);
        } else {
            let v = c - 0x1_0000;
            out.push(0xD800 | (v >> 10) as u16);
            out.push(0xDC00 | (v & 0x3FF) as u16);
        }
    }
    out
}

/// The UCS-4 decoding, with the same progress shape but `written` in
/// UTF-16 units: the oracle for `decode_utf16` under any policy.
fn via_ucs4(src: &[u8], policy: Policy, more: bool) -> (Progress, Vec<u16>) {
    let mut cps = vec![0u32; src.len()];
    let p = scalar().decode_ucs4(src, &mut cps, policy, more);
    let units = utf16_of(&cps[..p.written]);
    (
        Progress {
            written: units.len(),
            ..p
        },
        units,
    )
}

fn decode16(
    e: &Engine,
    src: &[u8],
    policy: Policy,
    order: ByteOrder,
    more: bool,
) -> (Progress, Vec<u16>) {
    let mut dst = vec![0u16; src.len() * 2];
    let p = e.decode_utf16(src, &mut dst, policy, order, more);
    dst.truncate(p.written);
    (p, dst)
}

fn encode16(
    e: &Engine,
    src: &[u16],
    policy: EncodePolicy,
    order: ByteOrder,
    more: bool,
) -> (Progress, Vec<u8>) {
    let mut dst = vec![0u8; src.len() * 4];
    let p = e.encode_utf16(src, &mut dst, policy, order, more);
    dst.truncate(p.written);
    (p, dst)
}

/// Independent oracle for UTF-16 -> UTF-8: `char::decode_utf16` for the
/// pairing, then the policy by hand.
fn oracle_encode16(src: &[u16], policy: EncodePolicy, more: bool) -> (Progress, Vec<u8>) {
    let mut out = Vec::new();
    let mut read = 0;
    let mut handled = 0;
    for item in char::decode_utf16(src.iter().copied()) {
        let (bytes, len): (Vec<u8>, usize) = match item {
            Ok(c) => (c.to_string().into_bytes(), c.len_utf16()),
            Err(e) => {
                let u = e.unpaired_surrogate();
                if more && read + 1 == src.len() && (0xD800..0xDC00).contains(&u) {
                    let p = Progress {
                        status: Status::Incomplete { len: 1 },
                        read,
                        written: out.len(),
                        handled,
                    };
                    return (p, out);
                }
                handled += 1;
                match policy {
                    EncodePolicy::Replace(c) => (c.to_string().into_bytes(), 1),
                    EncodePolicy::Escape if (0xDC80..=0xDCFF).contains(&u) => (vec![u as u8], 1),
                    EncodePolicy::Ignore => (Vec::new(), 1),
                    _ => {
                        let e = Utf8Error {
                            valid_up_to: read,
                            kind: ErrorKind::Surrogate,
                            len: 1,
                        };
                        let p = Progress {
                            status: Status::IllFormed(e),
                            read,
                            written: out.len(),
                            handled: handled - 1,
                        };
                        return (p, out);
                    }
                }
            }
        };
        out.extend_from_slice(&bytes);
        read += len;
    }
    let p = Progress {
        status: Status::Done,
        read,
        written: out.len(),
        handled,
    };
    (p, out)
}

/// Independent oracle for UTF-8 -> Latin-1 from `std`.
fn oracle_latin1(src: &[u8], policy: Latin1Policy, more: bool) -> (Progress, Vec<u8>) {
    if policy != Latin1Policy::Strict {
        // With more input, a sequence cut by the end (std: an error with no
        // length) is left for the next chunk.
        let tail = match src.utf8_chunks().last().map(|c| c.invalid()) {
            Some(bad) if more && !bad.is_empty() => match std::str::from_utf8(bad) {
                Err(e) if e.error_len().is_none() => bad.len(),
                _ => 0,
            },
            _ => 0,
        };
        let end = src.len() - tail;
        let (out, handled): (Vec<u8>, usize) = match policy {
            Latin1Policy::Replace(b) => {
                // Every maximal subpart became U+FFFD, which is above
                // U+00FF like the characters that are replaced too.
                let lossy = String::from_utf8_lossy(&src[..end]);
                let out = lossy
                    .chars()
                    .map(|c| u8::try_from(c as u32).unwrap_or(b))
                    .collect();
                (out, lossy.chars().filter(|&c| c > '\u{FF}').count())
            }
            _ => {
                // std's chunks: each invalid part is one maximal subpart.
                let mut out = Vec::new();
                let mut handled = 0;
                for chunk in src[..end].utf8_chunks() {
                    for c in chunk.valid().chars() {
                        match u8::try_from(c as u32) {
                            Ok(b) => out.push(b),
                            Err(_) => handled += 1,
                        }
                    }
                    handled += usize::from(!chunk.invalid().is_empty());
                }
                (out, handled)
            }
        };
        let status = if tail > 0 {
            Status::Incomplete { len: tail as u8 }
        } else {
            Status::Done
        };
        let p = Progress {
            status,
            read: end,
            written: out.len(),
            handled,
        };
        return (p, out);
    }
    let v = u8x::validate_chunk(src, more);
    let valid = std::str::from_utf8(&src[..v.read]).expect("validate_chunk's prefix is valid");
    let mut out = Vec::new();
    for (i, c) in valid.char_indices() {
        match u8::try_from(c as u32) {
            Ok(b) => out.push(b),
            Err(_) => match policy {
                Latin1Policy::Replace(_) | Latin1Policy::Ignore => unreachable!(),
                Latin1Policy::Strict => {
                    let e = Utf8Error {
                        valid_up_to: i,
                        kind: ErrorKind::NotRepresentable,
                        len: c.len_utf8() as u8,
                    };
                    let p = Progress {
                        status: Status::IllFormed(e),
                        read: i,
                        written: out.len(),
                        handled: 0,
                    };
                    return (p, out);
                }
            },
        }
    }
    let p = Progress {
        written: out.len(),
        ..v
    };
    (p, out)
}

fn decode_latin1(e: &Engine, src: &[u8], policy: Latin1Policy, more: bool) -> (Progress, Vec<u8>) {
    let mut dst = vec![0u8; src.len()];
    let p = e.decode_latin1(src, &mut dst, policy, more);
    dst.truncate(p.written);
    (p, dst)
}

/// Random UTF-16: mostly paired text, with lone surrogates (escape range
/// over-represented) mixed in when `bad`.
fn random_utf16(rng: &mut Rng, max_len: usize, bad: bool) -> Vec<u16> {
    let n = rng.below(max_len + 1);
    let mut v = Vec::with_capacity(n + 1);
    while v.len() < n {
        if bad && rng.chance(1, 12) {
            v.push(match rng.below(4) {
                0 => rng.range(0xD800, 0xDBFF) as u16,
                1 => rng.range(0xDC00, 0xDFFF) as u16,
                _ => rng.range(0xDC80, 0xDCFF) as u16,
            });
        } else if rng.chance(1, 3) {
            v.push(rng.range(0x20, 0x7E) as u16);
        } else {
            let mut b = [0u16; 2];
            v.extend_from_slice(random_scalar(rng).encode_utf16(&mut b));
        }
    }
    v
}

// ---------------------------------------------------------------------------
// Exhaustive over characters and short UTF-16
// ---------------------------------------------------------------------------

#[test]
fn every_scalar_through_utf16_both_ways_on_every_tier() {
    let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    let want16: Vec<u16> = all.encode_utf16().collect();
    for e in all_tiers() {
        for order in ORDERS {
            let (p, got) = decode16(&e, all.as_bytes(), Policy::Strict, order, false);
            assert_eq!(p.status, Status::Done, "{:?}", e.tier());
            assert!(
                got == to_order(&want16, order),
                "decode {:?} {order:?}",
                e.tier()
            );
            let (p, back) = encode16(&e, &got, EncodePolicy::Strict, order, false);
            assert_eq!(
                (p.status, p.read),
                (Status::Done, got.len()),
                "{:?}",
                e.tier()
            );
            assert!(back == all.as_bytes(), "encode {:?} {order:?}", e.tier());
            assert_eq!(e.utf16_len_valid(all.as_bytes()), want16.len());
            assert_eq!(e.utf8_len_valid_utf16(&got, order), all.len());
        }
    }
    // One character a call, on the best tier (short-call paths).
    let mut dst = [0u16; 2];
    let mut bytes = [0u8; 4];
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let mut b = [0u8; 4];
        let s = c.encode_utf8(&mut b);
        let p = u8x::decode_utf16(
            s.as_bytes(),
            &mut dst,
            Policy::Strict,
            ByteOrder::Native,
            false,
        );
        let mut want = [0u16; 2];
        let want = c.encode_utf16(&mut want);
        assert_eq!(
            (p.status, &dst[..p.written]),
            (Status::Done, &*want),
            "{c:?}"
        );
        let p = u8x::encode_utf16(
            want,
            &mut bytes,
            EncodePolicy::Strict,
            ByteOrder::Native,
            false,
        );
        assert_eq!(&bytes[..p.written], s.as_bytes(), "{c:?}");
    }
}

/// Every UTF-16 input of one unit, and every two-unit input in which either
/// unit is a surrogate, against `char::decode_utf16`: the replace policy
/// (`String::from_utf16_lossy`'s output) and validation for all of them;
/// every policy, with and without more input, for one unit and for the
/// pairs whose other unit is a surrogate or one of a sample; plus random
/// pairs.
#[test]
fn every_one_unit_and_surrogate_pair_input() {
    fn check_all(src: &[u16], out: &mut [u8; 8]) {
        let engine = Engine::best();
        for policy in [
            EncodePolicy::Strict,
            EncodePolicy::Replace('\u{FFFD}'),
            EncodePolicy::Escape,
        ] {
            for more in [false, true] {
                let (want, bytes) = oracle_encode16(src, policy, more);
                let got = engine.encode_utf16(src, out, policy, ByteOrder::Native, more);
                assert_eq!(got, want, "{src:04X?} {policy:?} more={more}");
                assert_eq!(&out[..got.written], &bytes[..], "{src:04X?} {policy:?}");
            }
        }
        check_lossy(src, out);
    }
    /// The replace policy and validation, with an allocation-free oracle.
    fn check_lossy(src: &[u16], out: &mut [u8; 8]) {
        let engine = Engine::best();
        let mut want = [0u8; 8];
        let (mut n, mut first_bad, mut at) = (0, None, 0);
        for item in char::decode_utf16(src.iter().copied()) {
            let c = item.as_ref().map_or('\u{FFFD}', |c| *c);
            if item.is_err() && first_bad.is_none() {
                first_bad = Some(at);
            }
            at += item.map_or(1, |c| c.len_utf16());
            n += c.encode_utf8(&mut want[n..]).len();
        }
        let got = engine.encode_utf16(
            src,
            out,
            EncodePolicy::Replace('\u{FFFD}'),
            ByteOrder::Native,
            false,
        );
        assert_eq!(
            (got.status, got.read),
            (Status::Done, src.len()),
            "{src:04X?}"
        );
        assert_eq!(&out[..got.written], &want[..n], "{src:04X?}");
        let v = engine.validate_utf16(src, ByteOrder::Native, false);
        assert_eq!(v.status == Status::Done, first_bad.is_none(), "{src:04X?}");
        assert_eq!(v.read, first_bad.unwrap_or(src.len()), "{src:04X?}");
    }
    let mut out = [0u8; 8];
    for a in 0..=0xFFFFu16 {
        check_all(&[a], &mut out);
    }
    let mut rng = Rng::new(16);
    let sample: Vec<u16> = (0..common::emulated_fraction(4096))
        .map(|_| rng.next_u32() as u16)
        .collect();
    // Every surrogate, or under an emulator every 7th and the edges (with
    // the other unit sampled too, 58 s of the aarch64 lane otherwise).
    let surrogates: Vec<u16> = (0xD800..=0xDFFFu16)
        .filter(|&s| {
            !common::emulated() || s % 7 == 0 || matches!(s, 0xD800 | 0xDBFF | 0xDC00 | 0xDFFF)
        })
        .collect();
    let others = common::inner_units();
    std::thread::scope(|scope| {
        for part in surrogates.chunks(surrogates.len().div_ceil(2)) {
            let (sample, others) = (&sample, &others);
            scope.spawn(move || {
                let mut out = [0u8; 8];
                for &s in part {
                    for &other in others {
                        check_lossy(&[s, other], &mut out);
                        check_lossy(&[other, s], &mut out);
                    }
                    for &other in sample
                        .iter()
                        .chain(&[0xD800, 0xDBFF, 0xDC00, 0xDC80, 0xDCFF, 0xDFFF])
                    {
                        check_all(&[s, other], &mut out);
                        check_all(&[other, s], &mut out);
                    }
                }
            });
        }
    });
    for _ in 0..common::emulated_fraction(1_000_000) {
        let pair = [rng.next_u32() as u16, rng.next_u32() as u16];
        check_lossy(&pair, &mut out);
    }
}

/// Every input of up to 3 bytes, and every 4-byte input led by F0..F4,
/// decoded to UTF-16 under every policy: the UCS-4 decoding converted, and
/// `from_utf8_lossy(..).encode_utf16()` for replace; and to Latin-1 against
/// `std` (every policy and more input for up to 2 bytes, strict beyond).
#[test]
fn every_short_input_to_utf16_and_latin1() {
    fn check(s: &[u8], dst: &mut [u16; 8], l1: &mut [u8; 8]) {
        for policy in POLICIES {
            for more in [false, true] {
                let (want, units) = via_ucs4(s, policy, more);
                let got = u8x::decode_utf16(s, dst, policy, ByteOrder::Native, more);
                assert_eq!(got, want, "{s:02X?} {policy:?} more={more}");
                assert_eq!(&dst[..got.written], &units[..], "{s:02X?} {policy:?}");
                assert_eq!(u8x::decode_utf16_len(s, policy, more), want, "{s:02X?}");
            }
        }
        let lossy: Vec<u16> = String::from_utf8_lossy(s).encode_utf16().collect();
        let got = u8x::decode_utf16(s, dst, REPLACE, ByteOrder::Native, false);
        assert_eq!(&dst[..got.written], &lossy[..], "{s:02X?}");
        for policy in LATIN1_POLICIES {
            for more in [false, true] {
                let (want, bytes) = oracle_latin1(s, policy, more);
                let got = u8x::decode_latin1(s, l1, policy, more);
                assert_eq!(got, want, "latin1 {s:02X?} {policy:?} more={more}");
                assert_eq!(&l1[..got.written], &bytes[..]);
                assert_eq!(u8x::decode_latin1_len(s, policy, more), want, "{s:02X?}");
            }
        }
    }
    fn check_lite(s: &[u8], dst: &mut [u16; 8], l1: &mut [u8; 8]) {
        let lossy: Vec<u16> = String::from_utf8_lossy(s).encode_utf16().collect();
        let got = u8x::decode_utf16(s, dst, REPLACE, ByteOrder::Native, false);
        assert_eq!(&dst[..got.written], &lossy[..], "{s:02X?}");
        // Every policy against the UCS-4 decoding converted, without
        // allocating (90 million inputs).
        let scalar = scalar();
        for policy in [
            Policy::Strict,
            REPLACE,
            Policy::Escape,
            Policy::Latin1,
            Policy::Cp1252,
        ] {
            let mut cps = [0u32; 4];
            let want = scalar.decode_ucs4(s, &mut cps, policy, false);
            let mut units = [0u16; 8];
            let mut n = 0;
            for &c in &cps[..want.written] {
                n += match char::from_u32(c) {
                    Some(c) => c.encode_utf16(&mut units[n..]).len(),
                    None => {
                        units[n] = c as u16;
                        1
                    }
                };
            }
            let got = u8x::decode_utf16(s, dst, policy, ByteOrder::Native, false);
            let want = Progress { written: n, ..want };
            assert_eq!(
                (got, &dst[..got.written]),
                (want, &units[..n]),
                "{s:02X?} {policy:?}"
            );
        }
        let (want, bytes) = oracle_latin1(s, Latin1Policy::Strict, false);
        let got = u8x::decode_latin1(s, l1, Latin1Policy::Strict, false);
        assert_eq!((got, &l1[..got.written]), (want, &bytes[..]), "{s:02X?}");
    }
    let (mut d, mut l) = ([0u16; 8], [0u8; 8]);
    check(&[], &mut d, &mut l);
    let items: Vec<u32> = (0..256).collect();
    let inner = common::inner_bytes();
    let middle = common::middle_bytes();
    let per_thread = |chunk: &[u32]| {
        let (mut d, mut l) = ([0u16; 8], [0u8; 8]);
        for &a in chunk {
            let a = a as u8;
            check(&[a], &mut d, &mut l);
            for b in 0..=255u8 {
                check(&[a, b], &mut d, &mut l);
            }
            for &b in &middle {
                for &c in &inner {
                    check_lite(&[a, b, c], &mut d, &mut l);
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for chunk in items.chunks(128) {
            scope.spawn(move || per_thread(chunk));
        }
    });
    // F0..F4 with every second byte, or under an emulator the sampled ones.
    let leads: Vec<(u8, u8)> = (0xF0..=0xF4u8)
        .flat_map(|lead| middle.iter().map(move |&b1| (lead, b1)))
        .collect();
    let (inner, middle) = (&inner, &middle);
    std::thread::scope(|scope| {
        for chunk in leads.chunks(leads.len().div_ceil(2)) {
            scope.spawn(move || {
                let (mut d, mut l) = ([0u16; 8], [0u8; 8]);
                for &(lead, b1) in chunk {
                    for &b2 in middle {
                        for &b3 in inner {
                            check_lite(&[lead, b1, b2, b3], &mut d, &mut l);
                        }
                    }
                }
            });
        }
    });
}

// ---------------------------------------------------------------------------
// Differential: std, encoding_rs, simdutf 9.1, escape round trip
// ---------------------------------------------------------------------------

#[test]
fn decode_utf16_matches_std_encoding_rs_and_simdutf() {
    let mut rng = Rng::new(0x16);
    for round in 0..3000 {
        let src = if round % 2 == 0 {
            mixed_input(&mut rng, 400)
        } else {
            long_input(&mut rng, 3000)
        };
        let lossy: Vec<u16> = String::from_utf8_lossy(&src).encode_utf16().collect();
        let (rs, _) = encoding_rs::UTF_8.decode_without_bom_handling(&src);
        let rs: Vec<u16> = rs.encode_utf16().collect();
        assert_eq!(lossy, rs, "the oracles agree");
        // The best tier, and the scalar tier (the portable core's loop).
        for e in [Engine::best(), scalar()] {
            let (p, got) = decode16(&e, &src, REPLACE, ByteOrder::Native, false);
            assert_eq!(p.status, Status::Done);
            assert!(got == lossy, "replace {:?} {}", e.tier(), common::hex(&src));
        }
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let (_, got) = decode16(&Engine::best(), &src, REPLACE, order, false);
            let raw: Vec<u8> = got.iter().flat_map(|u| u.to_ne_bytes()).collect();
            let enc = if order == ByteOrder::Big {
                encoding_rs::UTF_16BE
            } else {
                encoding_rs::UTF_16LE
            };
            let (back, had_errors) = enc.decode_without_bom_handling(&raw);
            assert!(!had_errors);
            assert_eq!(back, String::from_utf8_lossy(&src), "{order:?}");
        }
        let strict = u8x::decode_utf16_len(&src, Policy::Strict, false);
        match std::str::from_utf8(&src) {
            Ok(s) => {
                assert_eq!(strict.status, Status::Done);
                assert_eq!(strict.written, s.encode_utf16().count());
                if simdutf9_peer::AVAILABLE {
                    let mut d = vec![0u16; src.len()];
                    let n = simdutf9_peer::convert_utf8_to_utf16le(&src, &mut d);
                    // simdutf wrote little-endian units: native ones only
                    // on a little-endian machine.
                    let native: Vec<u16> = d[..n].iter().map(|&u| u16::from_le(u)).collect();
                    assert_eq!(native, lossy, "simdutf 9.1");
                    assert_eq!(
                        simdutf9_peer::utf16_length_from_utf8(&src),
                        u8x::utf16_len_valid(&src)
                    );
                }
                let c = u8x::classify(&src, false);
                assert_eq!(c.code_points, s.chars().count());
                assert_eq!(c.utf16_units, lossy.len());
            }
            Err(e) => {
                assert_eq!(strict.read, e.valid_up_to());
                assert!(matches!(strict.status, Status::IllFormed(_)));
            }
        }
    }
}

#[test]
fn encode_utf16_matches_std_encoding_rs_and_simdutf() {
    let mut rng = Rng::new(0x61);
    for round in 0..4000 {
        let src = random_utf16(
            &mut rng,
            if round % 4 == 0 { 2000 } else { 200 },
            round % 3 != 0,
        );
        for policy in ENCODE_POLICIES {
            let want = oracle_encode16(&src, policy, false);
            // The best tier, and the scalar tier (the portable core's loop).
            for e in [Engine::best(), scalar()] {
                for order in ORDERS {
                    let got = encode16(&e, &to_order(&src, order), policy, order, false);
                    assert_eq!(got, want, "{:?} {src:04X?} {policy:?} {order:?}", e.tier());
                }
            }
            let measured = u8x::encode_utf16_len(&src, policy, ByteOrder::Native, false);
            assert_eq!(measured, want.0);
        }
        let lossy = String::from_utf16_lossy(&src);
        let raw: Vec<u8> = src.iter().flat_map(|u| u.to_le_bytes()).collect();
        let (rs, _) = encoding_rs::UTF_16LE.decode_without_bom_handling(&raw);
        assert_eq!(rs, lossy);
        let le: Vec<u16> = src.iter().map(|u| u.to_le()).collect();
        let (_, got) = encode16(
            &Engine::best(),
            &le,
            EncodePolicy::Replace('\u{FFFD}'),
            ByteOrder::Little,
            false,
        );
        assert!(got == lossy.as_bytes());
        let valid = String::from_utf16(&src).is_ok();
        assert_eq!(
            u8x::validate_utf16(&src, ByteOrder::Native, false).status == Status::Done,
            valid
        );
        if valid {
            assert_eq!(
                u8x::utf8_len_valid_utf16(&src, ByteOrder::Native),
                lossy.len()
            );
            if simdutf9_peer::AVAILABLE {
                assert!(simdutf9_peer::validate_utf16le(&le));
                let mut d = vec![0u8; src.len() * 3];
                let n = simdutf9_peer::convert_utf16le_to_utf8(&le, &mut d);
                assert_eq!(&d[..n], lossy.as_bytes(), "simdutf 9.1");
            }
        }
    }
}

/// Any bytes survive UTF-8 -> UTF-16 -> UTF-8 under the escape policy (Python's
/// surrogateescape through a UTF-16 string), on every tier.
#[test]
fn escape_round_trips_any_bytes_through_utf16() {
    let mut rng = Rng::new(0xE5C);
    for e in all_tiers() {
        for round in 0..2000 {
            let src = if round % 2 == 0 {
                mixed_input(&mut rng, 300)
            } else {
                long_input(&mut rng, 2000)
            };
            for order in ORDERS {
                let (p, units) = decode16(&e, &src, Policy::Escape, order, false);
                assert_eq!(p.status, Status::Done);
                let (p, back) = encode16(&e, &units, EncodePolicy::Escape, order, false);
                assert_eq!(p.status, Status::Done, "{}", common::hex(&src));
                assert!(back == src, "{:?} {}", e.tier(), common::hex(&src));
            }
        }
    }
}

#[test]
fn latin1_matches_std_and_simdutf() {
    let mut rng = Rng::new(0x11);
    for round in 0..3000 {
        // Latin-1 -> UTF-8 is total: every byte is its own character.
        let bytes: Vec<u8> = (0..rng.below(if round % 5 == 0 { 3000 } else { 200 }))
            .map(|_| {
                if rng.chance(1, 2) {
                    rng.byte()
                } else {
                    rng.range(0x20, 0x7E) as u8
                }
            })
            .collect();
        let want: String = bytes.iter().map(|&b| char::from(b)).collect();
        let mut out = vec![0u8; bytes.len() * 2];
        let p = u8x::encode_latin1(&bytes, &mut out);
        assert_eq!(
            p,
            Progress {
                status: Status::Done,
                read: bytes.len(),
                written: want.len(),
                handled: 0,
            }
        );
        assert!(&out[..p.written] == want.as_bytes());
        assert_eq!(u8x::encode_latin1_len(&bytes), want.len());
        // And back.
        let (p, back) = decode_latin1(
            &Engine::best(),
            want.as_bytes(),
            Latin1Policy::Strict,
            false,
        );
        assert_eq!(p.status, Status::Done);
        assert!(back == bytes);
        if simdutf9_peer::AVAILABLE {
            let mut d = vec![0u8; bytes.len() * 2];
            let n = simdutf9_peer::convert_latin1_to_utf8(&bytes, &mut d);
            assert_eq!(&d[..n], want.as_bytes(), "simdutf 9.1");
        }
        // Arbitrary UTF-8 to Latin-1.
        let src = if round % 2 == 0 {
            mixed_input(&mut rng, 300)
        } else {
            long_input(&mut rng, 2000)
        };
        for policy in LATIN1_POLICIES {
            for more in [false, true] {
                let want = oracle_latin1(&src, policy, more);
                assert_eq!(
                    decode_latin1(&Engine::best(), &src, policy, more),
                    want,
                    "{policy:?} {}",
                    common::hex(&src)
                );
            }
        }
    }
}

#[test]
fn classify_matches_std() {
    let mut rng = Rng::new(0xC1A55);
    let cases: [&[u8]; 6] = [
        b"",
        b"plain",
        "caf\u{e9}".as_bytes(),
        "\u{100}".as_bytes(),
        "\u{ffff}".as_bytes(),
        "\u{10000}".as_bytes(),
    ];
    let widths = [
        Width::Ascii,
        Width::Ascii,
        Width::Latin1,
        Width::Bmp,
        Width::Bmp,
        Width::Supplementary,
    ];
    for (s, w) in cases.iter().zip(widths) {
        assert_eq!(u8x::classify(s, false).width, w, "{s:02X?}");
    }
    for e in all_tiers() {
        for round in 0..3000 {
            let src = if round % 2 == 0 {
                mixed_input(&mut rng, 300)
            } else {
                long_input(&mut rng, 3000)
            };
            for more in [false, true] {
                let c = e.classify(&src, more);
                assert_eq!(c.progress, u8x::validate_chunk(&src, more));
                let valid = std::str::from_utf8(&src[..c.progress.read]).expect("a valid prefix");
                let max = valid.chars().max().map_or(0, |c| c as u32);
                let width = match max {
                    0..=0x7F => Width::Ascii,
                    0x80..=0xFF => Width::Latin1,
                    0x100..=0xFFFF => Width::Bmp,
                    _ => Width::Supplementary,
                };
                assert_eq!(c.width, width, "{:?} {}", e.tier(), common::hex(&src));
                assert_eq!(c.code_points, valid.chars().count());
                assert_eq!(c.utf16_units, valid.encode_utf16().count());
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Every tier against the scalar reference
// ---------------------------------------------------------------------------

/// Every length 0..=300 at every alignment (offsets 0..16 into a buffer),
/// all policies and orders, several capacities: identical progress and
/// output, and nothing written past `written`.
#[test]
fn tiers_match_reference_at_every_length_and_alignment() {
    let reference = scalar();
    let mut rng = Rng::new(0x7135);
    let tiers = fast_tiers();
    // Under an emulator the lengths past four 16-byte blocks are sampled,
    // every fifth (each still at every offset): 301 lengths at 16 offsets
    // were the longest test under qemu.
    let lengths = (0..=300usize).filter(|&len| !common::emulated() || len <= 64 || len % 5 == 0);
    for len in lengths {
        let mut text = Vec::new();
        while text.len() < len + 16 {
            text.extend_from_slice(&mixed_input(&mut rng, 64));
        }
        let units = random_utf16(&mut rng, len + 16, len % 2 == 1);
        for offset in 0..16 {
            let src = &text[offset..offset + len.min(text.len() - offset)];
            let u16src = &units[offset.min(units.len())..];
            for e in &tiers {
                let what = format!("{:?} len={len} offset={offset}", e.tier());
                compare_forms(&reference, e, src, u16src, &what, offset % 4 == 0);
            }
        }
    }
}

fn compare_forms(r: &Engine, e: &Engine, src: &[u8], u16src: &[u16], what: &str, all_caps: bool) {
    let caps = |n: usize| -> Vec<usize> {
        if all_caps {
            vec![n, n / 2, n / 3 + 1, 1, 0]
        } else {
            vec![n]
        }
    };
    for more in [false, true] {
        for policy in POLICIES {
            for cap in caps(src.len() + 2) {
                for order in [ByteOrder::Native, ByteOrder::Big] {
                    let mut a = vec![0xAAAAu16; cap];
                    let mut b = vec![0xAAAAu16; cap];
                    let pa = e.decode_utf16(src, &mut a, policy, order, more);
                    let pb = r.decode_utf16(src, &mut b, policy, order, more);
                    assert_eq!(
                        pa, pb,
                        "decode_utf16 {what} {policy:?} {order:?} more={more} cap={cap}"
                    );
                    assert!(a == b, "decode_utf16 output {what} {policy:?} cap={cap}");
                }
            }
            assert_eq!(
                e.decode_utf16_len(src, policy, more),
                r.decode_utf16_len(src, policy, more),
                "{what}"
            );
        }
        for policy in LATIN1_POLICIES {
            for cap in caps(src.len()) {
                let mut a = vec![0xAAu8; cap];
                let mut b = vec![0xAAu8; cap];
                let pa = e.decode_latin1(src, &mut a, policy, more);
                let pb = r.decode_latin1(src, &mut b, policy, more);
                assert_eq!(
                    pa, pb,
                    "decode_latin1 {what} {policy:?} more={more} cap={cap}"
                );
                assert!(a == b, "decode_latin1 output {what}");
            }
            assert_eq!(
                e.decode_latin1_len(src, policy, more),
                r.decode_latin1_len(src, policy, more),
                "{what}"
            );
        }
        for policy in ENCODE_POLICIES {
            // The units as they are, read in both orders, and swapped so
            // that big-endian reading sees the same text.
            let swapped = to_order(u16src, ByteOrder::Big);
            let inputs = [
                (ByteOrder::Native, u16src),
                (ByteOrder::Big, u16src),
                (ByteOrder::Big, &swapped[..]),
            ];
            for cap in caps(u16src.len() * 3 + 1) {
                for (order, units) in inputs {
                    let mut a = vec![0xAAu8; cap];
                    let mut b = vec![0xAAu8; cap];
                    let pa = e.encode_utf16(units, &mut a, policy, order, more);
                    let pb = r.encode_utf16(units, &mut b, policy, order, more);
                    assert_eq!(
                        pa, pb,
                        "encode_utf16 {what} {policy:?} {order:?} more={more} cap={cap}"
                    );
                    assert!(a == b, "encode_utf16 output {what}");
                }
            }
            assert_eq!(
                e.encode_utf16_len(u16src, policy, ByteOrder::Native, more),
                r.encode_utf16_len(u16src, policy, ByteOrder::Native, more),
                "{what}"
            );
        }
        for order in ORDERS {
            assert_eq!(
                e.validate_utf16(u16src, order, more),
                r.validate_utf16(u16src, order, more),
                "{what}"
            );
        }
        assert_eq!(
            e.classify(src, more),
            r.classify(src, more),
            "classify {what}"
        );
    }
    for cap in caps(src.len() * 2) {
        let mut a = vec![0xAAu8; cap];
        let mut b = vec![0xAAu8; cap];
        assert_eq!(
            e.encode_latin1(src, &mut a),
            r.encode_latin1(src, &mut b),
            "encode_latin1 {what}"
        );
        assert!(a == b);
    }
    assert_eq!(e.utf16_len_valid(src), r.utf16_len_valid(src));
    for order in ORDERS {
        assert_eq!(
            e.utf8_len_valid_utf16(u16src, order),
            r.utf8_len_valid_utf16(u16src, order)
        );
    }
}

/// Longer inputs (chunk-buffer edges: 1024 code points) on every tier.
#[test]
fn tiers_match_reference_on_long_inputs() {
    let reference = scalar();
    let mut rng = Rng::new(0x1024);
    for round in 0..150 {
        let src = long_input(&mut rng, 9000);
        let units: Vec<u16> = if round % 3 == 0 {
            // Text with long ASCII runs, as UTF-16.
            String::from_utf8_lossy(&src).encode_utf16().collect()
        } else {
            random_utf16(&mut rng, 5000, round % 2 == 0)
        };
        for e in fast_tiers() {
            compare_forms(
                &reference,
                &e,
                &src,
                &units,
                &format!("{:?} round {round}", e.tier()),
                round % 10 == 0,
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Streaming and resumption
// ---------------------------------------------------------------------------

/// Chunked input with `more_input`, split at every point, gives the one-shot
/// output; resuming after `OutputFull` at every capacity does too.
#[test]
fn chunked_and_resumed_output_equals_one_shot() {
    let mut rng = Rng::new(0x5EED);
    for e in all_tiers() {
        for _ in 0..120 {
            let src = mixed_input(&mut rng, 120);
            for policy in POLICIES {
                let (whole, want) = decode16(&e, &src, policy, ByteOrder::Native, false);
                if policy == Policy::Strict && whole.status != Status::Done {
                    continue;
                }
                for split in 0..=src.len() {
                    let mut out = vec![0u16; src.len() * 2];
                    let p =
                        e.decode_utf16(&src[..split], &mut out, policy, ByteOrder::Native, true);
                    // The first chunk stops at its end or before a cut
                    // sequence (at most 3 bytes), which the rest repeats.
                    assert!(matches!(p.status, Status::Done | Status::Incomplete { .. }));
                    assert!(split - p.read <= 3);
                    let q = e.decode_utf16(
                        &src[p.read..],
                        &mut out[p.written..],
                        policy,
                        ByteOrder::Native,
                        false,
                    );
                    assert_eq!(q.status, Status::Done);
                    assert!(
                        out[..p.written + q.written] == want[..],
                        "{:?} split {split} {policy:?}",
                        e.tier()
                    );
                }
                // Two units always make progress (a pair needs both).
                for cap in 2..=want.len() + 1 {
                    let mut out = Vec::new();
                    let mut read = 0;
                    let mut buf = vec![0u16; cap];
                    loop {
                        let p = e.decode_utf16(
                            &src[read..],
                            &mut buf,
                            policy,
                            ByteOrder::Native,
                            false,
                        );
                        out.extend_from_slice(&buf[..p.written]);
                        read += p.read;
                        if p.status != Status::OutputFull {
                            assert_eq!(p.status, whole.status);
                            break;
                        }
                        assert!(p.written > 0, "progress");
                    }
                    assert!(out == want, "{:?} cap {cap} {policy:?}", e.tier());
                }
            }
            let units = random_utf16(&mut rng, 60, true);
            for policy in [EncodePolicy::Replace('\u{FFFD}'), EncodePolicy::Escape] {
                let (whole, want) = encode16(&e, &units, policy, ByteOrder::Native, false);
                for split in 0..=units.len() {
                    let mut out = vec![0u8; units.len() * 4];
                    let p =
                        e.encode_utf16(&units[..split], &mut out, policy, ByteOrder::Native, true);
                    if matches!(p.status, Status::IllFormed(_)) {
                        assert_eq!(whole.status, p.status);
                        break;
                    }
                    assert!(split - p.read <= 1);
                    let q = e.encode_utf16(
                        &units[p.read..],
                        &mut out[p.written..],
                        policy,
                        ByteOrder::Native,
                        false,
                    );
                    assert_eq!(p.written + q.written, want.len());
                    assert!(
                        out[..want.len()] == want[..],
                        "{:?} split {split}",
                        e.tier()
                    );
                }
            }
        }
    }
}

/// A surrogate pair is never split by a full buffer: with room for one unit
/// before a supplementary character, the call stops before it.
#[test]
fn a_full_buffer_never_splits_a_pair() {
    for e in all_tiers() {
        let src = "a\u{1F600}b".as_bytes();
        let mut dst = [0u16; 2];
        let p = e.decode_utf16(src, &mut dst, Policy::Strict, ByteOrder::Native, false);
        assert_eq!(
            p,
            Progress {
                status: Status::OutputFull,
                read: 1,
                written: 1,
                handled: 0,
            },
            "{:?}",
            e.tier()
        );
        let long: String = "x".repeat(1500) + "\u{1F600}";
        let mut dst = vec![0u16; 1501];
        let p = e.decode_utf16(
            long.as_bytes(),
            &mut dst,
            Policy::Strict,
            ByteOrder::Native,
            false,
        );
        assert_eq!(
            p,
            Progress {
                status: Status::OutputFull,
                read: 1500,
                written: 1500,
                handled: 0,
            },
            "{:?}",
            e.tier()
        );
        // The not-representable error is found at its offset past a chunk.
        let long: String = "\u{e9}".repeat(1500) + "\u{100}";
        let mut dst = vec![0u8; 2000];
        let p = e.decode_latin1(long.as_bytes(), &mut dst, Latin1Policy::Strict, false);
        let err = Utf8Error {
            valid_up_to: 3000,
            kind: ErrorKind::NotRepresentable,
            len: 2,
        };
        assert_eq!(
            p,
            Progress {
                status: Status::IllFormed(err),
                read: 3000,
                written: 1500,
                handled: 0,
            },
            "{:?}",
            e.tier()
        );
    }
}

/// Latin-1-range text (ASCII and U+0080..U+00FF) with one piece of damage
/// or one wider character at every offset across two block edges, and cut
/// at every length there: every tier's Latin-1 decoding against the
/// reference, with every capacity near the answer.
#[test]
fn latin1_runs_with_damage_at_every_offset() {
    let reference = scalar();
    let mut rng = Rng::new(0x1A71);
    let base: String = (0..160)
        .map(|_| {
            if rng.chance(1, 3) {
                char::from(rng.range(0x80, 0xFF) as u8)
            } else {
                char::from(rng.range(0x20, 0x7E) as u8)
            }
        })
        .collect();
    let base = base.into_bytes();
    let damage: [&[u8]; 10] = [
        b"\x80",
        b"\xC3",
        b"\xC2\x41",
        b"\xC4\x80",
        b"\xE2\x82\xAC",
        b"\xF0\x9F\x98\x80",
        b"\xF0\x89",
        b"\xED\xA0\x80",
        b"\xFF",
        b"\xC1\xBF",
    ];
    for e in fast_tiers() {
        for d in damage {
            for at in 0..base.len() {
                let mut src = base.clone();
                src.splice(at..at, d.iter().copied());
                for end in [src.len(), at + d.len(), (at + 1).min(src.len())] {
                    let src = &src[..end];
                    for policy in LATIN1_POLICIES {
                        for more in [false, true] {
                            let want = decode_latin1(&reference, src, policy, more);
                            let got = decode_latin1(&e, src, policy, more);
                            assert_eq!(
                                got,
                                want,
                                "{:?} {policy:?} more={more} {}",
                                e.tier(),
                                common::hex(src)
                            );
                            let cap = want.0.written.saturating_sub(1);
                            let mut a = vec![0u8; cap];
                            let mut b = vec![0u8; cap];
                            assert_eq!(
                                e.decode_latin1(src, &mut a, policy, more),
                                reference.decode_latin1(src, &mut b, policy, more),
                                "{:?} cap {cap}",
                                e.tier()
                            );
                            assert!(a == b);
                        }
                    }
                }
            }
        }
    }
}

/// Classification with damage at every offset around the 256-byte groups
/// the AVX-512 classifier validates and counts at a time, after ASCII and
/// after non-ASCII text: the counts must cover exactly the valid prefix
/// (a sequence cut at a group's end must not be counted, nor raise the
/// width).
#[test]
fn classify_counts_exactly_the_valid_prefix_at_group_edges() {
    let texts = [
        "a".repeat(700),
        "\u{e9}".repeat(350),
        "x\u{20ac}".repeat(175),
        "\u{1F600}b".repeat(140),
    ];
    let damage: [&[u8]; 5] = [b"\xE2\x82", b"\xF0", b"\x80", b"\xC3", b"\xF0\x9F\x98"];
    for e in all_tiers() {
        for text in &texts {
            for d in damage {
                for at in (200..330).chain(450..530) {
                    let mut src = text.as_bytes()[..at.min(text.len())].to_vec();
                    src.extend_from_slice(d);
                    src.extend_from_slice(b"zzzz");
                    for more in [false, true] {
                        let c = e.classify(&src, more);
                        assert_eq!(c.progress, u8x::validate_chunk(&src, more));
                        let valid =
                            std::str::from_utf8(&src[..c.progress.read]).expect("valid prefix");
                        let max = valid.chars().max().map_or(0, |c| c as u32);
                        let width = match max {
                            0..=0x7F => Width::Ascii,
                            0x80..=0xFF => Width::Latin1,
                            0x100..=0xFFFF => Width::Bmp,
                            _ => Width::Supplementary,
                        };
                        let what = format!("{:?} at {at} {d:02X?} more={more}", e.tier());
                        assert_eq!(c.width, width, "{what}");
                        assert_eq!(c.code_points, valid.chars().count(), "{what}");
                        assert_eq!(c.utf16_units, valid.encode_utf16().count(), "{what}");
                    }
                }
            }
        }
    }
}

/// Long ASCII runs (the kernels' 256-byte copy loops) ending at every kind
/// of edge, with one wider character after them, at many capacities: every
/// tier against the reference, both Latin-1 directions and UTF-16.
#[test]
fn long_ascii_runs_at_every_capacity() {
    let reference = scalar();
    for e in fast_tiers() {
        for run in [0usize, 63, 64, 255, 256, 257, 300, 511, 512, 700] {
            for tail in ["\u{e9}", "\u{20ac}", "\u{1F600}", "\u{e9}\u{e9}xyz"] {
                let text = "a".repeat(run) + tail + &"b".repeat(run / 3);
                let src = text.as_bytes();
                let latin1: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
                let units: Vec<u16> = text.encode_utf16().collect();
                let caps = (0..src.len() + 8).filter(|c| c % 29 == 0 || c.abs_diff(run) < 4);
                for cap in caps {
                    let what = format!("{:?} run {run} tail {tail:?} cap {cap}", e.tier());
                    let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
                    for policy in LATIN1_POLICIES {
                        assert_eq!(
                            e.decode_latin1(src, &mut a, policy, false),
                            reference.decode_latin1(src, &mut b, policy, false),
                            "{what}"
                        );
                        assert!(a == b, "{what}");
                    }
                    assert_eq!(
                        e.encode_latin1(&latin1, &mut a),
                        reference.encode_latin1(&latin1, &mut b),
                        "{what}"
                    );
                    assert!(a == b, "{what}");
                    let swapped = to_order(&units, ByteOrder::Big);
                    for (order, units) in [(ByteOrder::Native, &units), (ByteOrder::Big, &swapped)]
                    {
                        let p = EncodePolicy::Strict;
                        assert_eq!(
                            e.encode_utf16(units, &mut a, p, order, false),
                            reference.encode_utf16(units, &mut b, p, order, false),
                            "{what} {order:?}"
                        );
                        assert!(a == b, "{what} {order:?}");
                    }
                    let (mut a, mut b) = (vec![0u16; cap], vec![0u16; cap]);
                    assert_eq!(
                        e.decode_utf16(src, &mut a, Policy::Strict, ByteOrder::Native, false),
                        reference.decode_utf16(
                            src,
                            &mut b,
                            Policy::Strict,
                            ByteOrder::Native,
                            false
                        ),
                        "{what}"
                    );
                    assert!(a == b, "{what}");
                }
            }
        }
    }
}

/// Runs of each kind of character the encoders loop on (the AVX2 encoder
/// has loops for runs of 1-2-byte, BMP and paired units, stores loosely
/// within them, writes 8 pairs at once and pairs its 8-unit steps across
/// their edges), behind leads that shift their alignment, with an unpaired
/// surrogate inserted at every position: every tier against the reference,
/// for every capacity with guard bytes after it (a write past the
/// capacity, or past `written`, shows there).
#[test]
fn utf16_runs_at_every_capacity_and_fault() {
    let reference = scalar();
    fn check(e: &Engine, r: &Engine, units: &[u16], order: ByteOrder, cap: usize, what: &str) {
        for policy in [
            EncodePolicy::Strict,
            EncodePolicy::Replace('\u{FFFD}'),
            EncodePolicy::Escape,
        ] {
            let (mut a, mut b) = (vec![0xA5u8; cap + 40], vec![0xA5u8; cap + 40]);
            let pa = e.encode_utf16(units, &mut a[..cap], policy, order, false);
            let pb = r.encode_utf16(units, &mut b[..cap], policy, order, false);
            assert_eq!(pa, pb, "{what} {policy:?} {order:?} cap {cap}");
            assert!(a == b, "{what} {policy:?} {order:?} cap {cap}");
        }
    }
    // `n` characters from `first` on, `step` apart, wrapping within `span`
    // (so that every bit of the values takes part).
    let run = |n: usize, first: u32, span: u32, step: u32| -> String {
        (0..n as u32)
            .map(|j| char::from_u32(first + j * step % span).unwrap())
            .collect()
    };
    let kinds: [(&str, u32, u32, u32); 4] = [
        ("pairs", 0x10000, 0xFFFFF, 0x3F1F),
        ("two-byte", 0x80, 0x780, 0x155),
        ("bmp", 0x800, 0xD000, 0x1357),
        ("ascii+two", 0x40, 0x60, 0x21),
    ];
    for e in fast_tiers() {
        for lead in ["", "a", "\u{e9}", "\u{4e2d}", "ab\u{4e2d}"] {
            for (kind, first, span, step) in kinds {
                for n in [1usize, 8, 9, 17, 40, 70] {
                    let text = format!(
                        "{lead}{}z{}",
                        run(n, first, span, step),
                        run(3, first + 7, span, step)
                    );
                    let base: Vec<u16> = text.encode_utf16().collect();
                    let what = format!("{:?} lead {lead:?} {kind} {n}", e.tier());
                    for order in [ByteOrder::Native, ByteOrder::Big] {
                        let units = to_order(&base, order);
                        for cap in 0..=base.len() * 3 + 4 {
                            check(&e, &reference, &units, order, cap, &what);
                        }
                    }
                    for pos in 0..=base.len() {
                        for bad in [0xD800u16, 0xDFFF, 0xDC80] {
                            let mut faulty = base.clone();
                            faulty.insert(pos, bad);
                            let what = format!("{what} {bad:#x} at {pos}");
                            for order in [ByteOrder::Native, ByteOrder::Big] {
                                let units = to_order(&faulty, order);
                                let full = faulty.len() * 3 + 4;
                                for cap in (0..full).step_by(13).chain([full]) {
                                    check(&e, &reference, &units, order, cap, &what);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// ASCII with a 2-byte letter every 20 to 120 units, long enough for the
/// encoders' runs of such text (the AVX-512 tier narrows the ASCII steps
/// between letters in a loop of its own and stores whole vectors while a
/// next step is sure to overwrite their spare bytes): every tier against
/// the reference at every capacity, with guard bytes after it.
#[test]
fn utf16_ascii_with_sparse_letters_at_every_capacity() {
    let reference = scalar();
    let mut rng = Rng::new(0x5A5E);
    for trial in 0..4 {
        let mut text = String::new();
        while text.len() < 700 {
            for _ in 0..rng.range(20, 120) {
                text.push(char::from(rng.range(0x20, 0x7E) as u8));
            }
            text.push(char::from_u32(rng.range(0x80, 0x7FF)).unwrap());
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        let full = text.len();
        for e in fast_tiers() {
            for policy in [EncodePolicy::Strict, EncodePolicy::Replace('\u{FFFD}')] {
                for cap in 0..=full + 4 {
                    let (mut a, mut b) = (vec![0xA5u8; cap + 64], vec![0xA5u8; cap + 64]);
                    let pa =
                        e.encode_utf16(&units, &mut a[..cap], policy, ByteOrder::Native, false);
                    let pb = reference.encode_utf16(
                        &units,
                        &mut b[..cap],
                        policy,
                        ByteOrder::Native,
                        false,
                    );
                    let what = format!("{:?} trial {trial} {policy:?} cap {cap}", e.tier());
                    assert_eq!(pa, pb, "{what}");
                    assert!(a == b, "{what}");
                }
            }
        }
    }
}

/// UTF-16 made of runs of one class each (ASCII, 2-byte, BMP below and
/// above 0x8000, which a signed pack or compare mistakes for small, surrogate
/// pairs, lone surrogates of each kind), run lengths 0..40 so that every
/// path of the vector encoders meets every other at every offset of its
/// blocks: every tier against the reference, each policy and byte order, at
/// a random capacity with guard bytes after it (no byte past `written` may
/// change).
#[test]
fn utf16_run_mixes_on_every_tier_at_random_capacities() {
    let reference = scalar();
    let mut rng = Rng::new(0x1663);
    let unit = |rng: &mut Rng, class: usize, v: &mut Vec<u16>| match class {
        0 => v.push(rng.range(0x20, 0x7E) as u16),
        1 => v.push(rng.range(0x80, 0x7FF) as u16),
        2 => v.push(rng.range(0x800, 0x7FFF) as u16),
        3 if rng.chance(1, 2) => v.push(rng.range(0x8000, 0xD7FF) as u16),
        3 => v.push(rng.range(0xE000, 0xFFFF) as u16),
        4 => {
            let c = char::from_u32(rng.range(0x1_0000, 0x10_FFFF)).unwrap();
            let mut b = [0u16; 2];
            v.extend_from_slice(c.encode_utf16(&mut b));
        }
        5 => v.push(rng.range(0xD800, 0xDBFF) as u16),
        6 => v.push(rng.range(0xDC00, 0xDFFF) as u16),
        _ => v.push(rng.range(0xDC80, 0xDCFF) as u16),
    };
    for round in 0..3000 {
        let mut units = Vec::new();
        // Lone surrogates in one round of three only, and rarely: an error
        // ends a kernel's call, so most rounds must run without one.
        let classes = if round % 3 == 0 { 8 } else { 5 };
        while units.len() < 120 {
            let class = rng.below(classes);
            let run = if class >= 5 { 1 } else { rng.below(41) };
            for _ in 0..run {
                unit(&mut rng, class, &mut units);
            }
        }
        let full = units.len() * 3 + 4;
        for e in fast_tiers() {
            for policy in ENCODE_POLICIES {
                for order in [ByteOrder::Native, ByteOrder::Big] {
                    let src = to_order(&units, order);
                    let cap = if round % 2 == 0 {
                        full
                    } else {
                        rng.below(full + 1)
                    };
                    let (mut a, mut b) = (vec![0xA5u8; full + 32], vec![0xA5u8; full + 32]);
                    let pa = e.encode_utf16(&src, &mut a[..cap], policy, order, false);
                    let pb = reference.encode_utf16(&src, &mut b[..cap], policy, order, false);
                    let what =
                        format!("{:?} {policy:?} {order:?} cap {cap} {units:04X?}", e.tier());
                    assert_eq!(pa, pb, "{what}");
                    assert!(a == b, "bytes differ: {what}");
                }
            }
        }
    }
}

/// Latin-1 runs of each mix (the AVX2 encoder copies ASCII 32 and 128
/// bytes at a time and stores its two-byte blocks loosely within runs),
/// behind leads that shift their alignment, both ways: every tier against
/// the reference at every capacity with guard bytes after it; decoding
/// also with damage (a stray continuation, a cut lead, a character above
/// U+00FF, an invalid byte) inserted at every position.
#[test]
fn latin1_runs_at_every_capacity_and_fault() {
    let reference = scalar();
    fn guarded<T>(cap: usize, f: impl Fn(&mut [u8]) -> T) -> (T, Vec<u8>) {
        let mut buf = vec![0xA5u8; cap + 40];
        let t = f(&mut buf[..cap]);
        (t, buf)
    }
    // `n` Latin-1 characters, every `every`-th above 0x7F.
    let run = |n: usize, every: usize| -> Vec<u8> {
        (0..n)
            .map(|j| {
                if every != 0 && j % every == 0 {
                    0x80 + (j * 37 % 128) as u8
                } else {
                    b'a' + (j % 26) as u8
                }
            })
            .collect()
    };
    for e in fast_tiers() {
        for lead in [&b""[..], b"a", b"\xe9", b"ab\xe9"] {
            for every in [0usize, 1, 2, 10] {
                for n in [1usize, 15, 16, 17, 31, 32, 33, 63, 64, 65, 130, 300] {
                    let mut latin1 = lead.to_vec();
                    latin1.extend(run(n, every));
                    latin1.extend(b"z\xff\x80");
                    let utf8: Vec<u8> = latin1
                        .iter()
                        .map(|&b| b as char)
                        .collect::<String>()
                        .into_bytes();
                    let what = format!("{:?} lead {lead:?} every {every} n {n}", e.tier());
                    // Every capacity; under an emulator every 3rd and the
                    // last twelve.
                    let caps = (0..=utf8.len() + 4)
                        .filter(|&cap| !common::emulated() || cap % 3 == 0 || cap + 8 > utf8.len());
                    for cap in caps {
                        let a = guarded(cap, |d| e.encode_latin1(&latin1, d));
                        let b = guarded(cap, |d| reference.encode_latin1(&latin1, d));
                        assert!(a == b, "{what} encode cap {cap}");
                        for policy in LATIN1_POLICIES {
                            let a = guarded(cap, |d| e.decode_latin1(&utf8, d, policy, false));
                            let b =
                                guarded(cap, |d| reference.decode_latin1(&utf8, d, policy, false));
                            assert!(a == b, "{what} decode {policy:?} cap {cap}");
                        }
                    }
                    let damage: [&[u8]; 4] = [b"\x80", b"\xc3", b"\xe4\xb8\xad", b"\xff"];
                    // Under an emulator, every 5th position (and the last).
                    let step = if common::emulated() { 5 } else { 1 };
                    for pos in (0..=utf8.len()).step_by(step).chain([utf8.len()]) {
                        for bad in damage {
                            let mut src = utf8.clone();
                            src.splice(pos..pos, bad.iter().copied());
                            let full = src.len() + 4;
                            for cap in (0..full).step_by(11).chain([full]) {
                                for policy in LATIN1_POLICIES {
                                    let a =
                                        guarded(cap, |d| e.decode_latin1(&src, d, policy, false));
                                    let b = guarded(cap, |d| {
                                        reference.decode_latin1(&src, d, policy, false)
                                    });
                                    assert!(
                                        a == b,
                                        "{what} {bad:x?} at {pos} {policy:?} cap {cap}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Sizes of long uniform UTF-16 text (the vector kernels keep per-lane
/// sums that must be folded before they overflow: all-ASCII text moves
/// them fastest), on every tier and in both byte orders.
#[test]
fn utf8_len_of_long_uniform_utf16() {
    for e in all_tiers() {
        for c in ['a', '\u{e9}', '\u{4e2d}', '\u{1F600}'] {
            let mut buf = [0u16; 2];
            let unit = c.encode_utf16(&mut buf);
            for n in [(1 << 20) + 7, 3 << 19] {
                let units: Vec<u16> = unit.iter().copied().cycle().take(n * unit.len()).collect();
                for order in [ByteOrder::Native, ByteOrder::Big] {
                    let src = to_order(&units, order);
                    assert_eq!(
                        e.utf8_len_valid_utf16(&src, order),
                        n * c.len_utf8(),
                        "{:?} {c:?} x {n} {order:?}",
                        e.tier()
                    );
                }
            }
        }
    }
}

/// The widest character decides the width wherever it lies in long text
/// of one kind, which the vector tiers classify in their fastest loops
/// (ASCII runs, ASCII-and-pairs runs, the general check): one character
/// of each width at every 61st position, on every tier, against the
/// width of the largest character.
#[test]
fn classify_finds_the_widest_character_anywhere() {
    let width_of = |s: &str| match s.chars().max().map_or(0, |c| c as u32) {
        0..=0x7F => Width::Ascii,
        0x80..=0xFF => Width::Latin1,
        0x100..=0xFFFF => Width::Bmp,
        _ => Width::Supplementary,
    };
    let bases = [
        "a".repeat(3000),
        "\u{e9}a".repeat(1000),
        "\u{e9}".repeat(1500),
        "\u{4e2d}".repeat(1000),
    ];
    for e in all_tiers() {
        for base in &bases {
            let chars: Vec<char> = base.chars().collect();
            for wide in ['\u{e9}', '\u{100}', '\u{7ff}', '\u{ffff}', '\u{10000}'] {
                for pos in (0..chars.len()).step_by(61) {
                    let mut text = chars.clone();
                    text[pos] = wide;
                    let text: String = text.into_iter().collect();
                    let c = e.classify(text.as_bytes(), false);
                    let what = format!("{:?} {wide:?} at {pos} of {:?}", e.tier(), chars[1]);
                    assert_eq!(c.width, width_of(&text), "{what}");
                    assert_eq!(c.code_points, chars.len(), "{what}");
                    assert_eq!(c.utf16_units, text.encode_utf16().count(), "{what}");
                }
            }
        }
    }
}

/// UTF-8 to UTF-16 of ASCII runs (widened 32 bytes at a time by the AVX2
/// tier) followed by other characters, at every capacity, with guard units
/// after it: every tier against the reference.
#[test]
fn ascii_runs_to_utf16_at_every_capacity() {
    let reference = scalar();
    for e in fast_tiers() {
        for run in [0usize, 31, 32, 33, 63, 64, 65, 96, 130] {
            for tail in ["", "\u{e9}", "\u{4e2d}b", "\u{1F600}", "\u{80}x"] {
                let text = "q".repeat(run) + tail + &"z".repeat(run % 7);
                for order in [ByteOrder::Native, ByteOrder::Big] {
                    for cap in 0..=text.len() + 4 {
                        let what = format!("{:?} run {run} {tail:?} {order:?} cap {cap}", e.tier());
                        let mut a = vec![0xA5A5u16; cap + 40];
                        let mut b = a.clone();
                        let p = Policy::Strict;
                        let pa = e.decode_utf16(text.as_bytes(), &mut a[..cap], p, order, false);
                        let pb =
                            reference.decode_utf16(text.as_bytes(), &mut b[..cap], p, order, false);
                        assert_eq!(pa, pb, "{what}");
                        assert!(a == b, "{what}");
                    }
                }
            }
        }
    }
}

/// Latin-1 to UTF-8 where a block's output could be stored loosely (whole
/// vectors, up to 8 bytes past it) just before the output runs out: a
/// 16-byte block with one 'é' in its first half, then ASCII, then 'é' at
/// every offset, at every capacity over a buffer of guard bytes. The driver's
/// scalar tail fills most of the room after the kernel stops, so only a
/// capacity where it stops one byte short of the end (a 2-byte character
/// that does not fit) shows a stray byte a kernel left past `written`.
#[test]
fn latin1_encode_leaves_nothing_past_written() {
    let reference = scalar();
    for e in fast_tiers() {
        for at in 0..16 {
            for gap in 0..24 {
                let mut latin1 = vec![b'a'; 16];
                latin1[at] = 0xE9;
                latin1.extend(std::iter::repeat_n(b'b', gap));
                latin1.push(0xE9);
                latin1.extend(std::iter::repeat_n(b'c', 40));
                let full = latin1.len() + 2;
                for cap in 0..=full {
                    let mut a = vec![0xA5u8; full + 32];
                    let mut b = vec![0xA5u8; full + 32];
                    let pa = e.encode_latin1(&latin1, &mut a[..cap]);
                    let pb = reference.encode_latin1(&latin1, &mut b[..cap]);
                    assert_eq!(pa, pb, "{:?} at {at} gap {gap} cap {cap}", e.tier());
                    assert!(a == b, "{:?} at {at} gap {gap} cap {cap}", e.tier());
                }
            }
        }
    }
}

/// UTF-16 encoders stop exactly before an unpaired surrogate and where the
/// room ends, without touching a byte past `written`: blocks of one class
/// mix each (ASCII, 2-byte, BMP, pairs), a lone surrogate of each kind (or
/// a pair broken by one) at every position around the last two 16-unit
/// block boundaries, pairs straddling those boundaries at odd offsets, a
/// high surrogate ending the input; every output capacity with guard bytes
/// after it, both byte orders, against the reference.
#[test]
fn utf16_encoders_stop_exactly_before_a_lone_surrogate_or_the_end_of_room() {
    const GUARD: usize = 64;
    const MIXES: [&[usize]; 6] = [&[0, 1], &[1, 2], &[0, 1, 2], &[2, 3], &[0, 1, 2, 3], &[3]];
    let reference = scalar();
    let character = |rng: &mut Rng, class: usize, v: &mut Vec<u16>| match class {
        0 => v.push(rng.range(0x20, 0x7E) as u16),
        1 => v.push(rng.range(0x80, 0x7FF) as u16),
        2 if rng.chance(1, 2) => v.push(rng.range(0x800, 0xD7FF) as u16),
        2 => v.push(rng.range(0xE000, 0xFFFF) as u16),
        _ => {
            let c = char::from_u32(rng.range(0x1_0000, 0x10_FFFF)).unwrap();
            v.extend_from_slice(c.encode_utf16(&mut [0; 2]));
        }
    };
    let mut inputs: Vec<(String, Vec<u16>, bool)> = Vec::new();
    let mut rng = Rng::new(0x5EC0);
    for (m, mix) in MIXES.iter().enumerate() {
        for blocks in [2usize, 3] {
            // An odd start shifts the pairs across the block boundaries.
            for lead in [0usize, 1] {
                let mut base = vec![0x61u16; lead];
                while base.len() < 16 * blocks + 24 {
                    let class = mix[rng.below(mix.len())];
                    character(&mut rng, class, &mut base);
                }
                inputs.push((
                    format!("mix {m}, {blocks} blocks, lead {lead}"),
                    base.clone(),
                    false,
                ));
                let mut high_last = base.clone();
                high_last.truncate(16 * blocks);
                high_last.push(0xD9A5);
                for more in [false, true] {
                    let what = format!("mix {m}, {blocks} blocks, lead {lead}, high last");
                    inputs.push((what, high_last.clone(), more));
                }
                for at in 16 * (blocks - 1) - 2..=16 * blocks + 2 {
                    let bad = [0xD800u16, 0xDFFF, 0xDBFF][at % 3];
                    let mut units = base.clone();
                    units[at] = bad;
                    let what = format!("mix {m}, {blocks} blocks, lead {lead}, {bad:#X} at {at}");
                    inputs.push((what, units, false));
                }
            }
        }
    }
    for engine in fast_tiers() {
        let mut checked = 0;
        for (what, native, more) in &inputs {
            let full = native.len() * 3;
            for order in [ByteOrder::Native, ByteOrder::Big] {
                let units = to_order(native, order);
                for policy in [EncodePolicy::Strict, EncodePolicy::Replace('\u{FFFD}')] {
                    for cap in 0..=full + 4 {
                        let sentinel = if cap % 4 == 3 { 0x00 } else { 0xA5 };
                        let mut a = vec![sentinel; cap + GUARD];
                        let mut b = vec![sentinel; cap + GUARD];
                        let pa = engine.encode_utf16(&units, &mut a[..cap], policy, order, *more);
                        let pb =
                            reference.encode_utf16(&units, &mut b[..cap], policy, order, *more);
                        let at =
                            format!("{:?} {what} {order:?} {policy:?} cap={cap}", engine.tier());
                        assert_eq!(pa, pb, "{at}");
                        assert!(a == b, "bytes, untouched tail and guard: {at}");
                        checked += 1;
                    }
                }
            }
        }
        eprintln!("{:?}: {checked} UTF-16 encodings", engine.tier());
    }
}
