//! The runtimes' forms on every tier against the scalar tier and `std`, on
//! arbitrary bytes: the first byte picks the policy, the byte order, the
//! flags and an output capacity; the rest is the input, as UTF-8 bytes and
//! reinterpreted as UTF-16 units.
#![no_main]

use libfuzzer_sys::fuzz_target;
use u8x::{ByteOrder, EncodePolicy, Engine, Latin1Policy, Policy, Status, Tier};

const POLICIES: [Policy; 5] = [Policy::Strict, u8x::REPLACE, Policy::Escape, Policy::Latin1, Policy::Cp1252];
const ENCODE_POLICIES: [EncodePolicy; 3] = [EncodePolicy::Strict, EncodePolicy::Replace('\u{FFFD}'), EncodePolicy::Escape];
const LATIN1_POLICIES: [Latin1Policy; 2] = [Latin1Policy::Strict, Latin1Policy::Replace(b'?')];

fuzz_target!(|data: &[u8]| {
    let Some((&control, src)) = data.split_first() else { return };
    let policy = POLICIES[control as usize % POLICIES.len()];
    let encode_policy = ENCODE_POLICIES[control as usize % ENCODE_POLICIES.len()];
    let latin1_policy = LATIN1_POLICIES[(control >> 2) as usize & 1];
    let order = if control & 0x04 != 0 { ByteOrder::Big } else { ByteOrder::Native };
    let more = control & 0x08 != 0;
    let cap = match control >> 4 {
        0 => src.len() * 2,
        n => (n as usize * 7) % (src.len() + 1),
    };
    let units: Vec<u16> = src.chunks_exact(2).map(|c| u16::from_ne_bytes([c[0], c[1]])).collect();
    let scalar = Engine::new(Tier::Scalar).unwrap();

    // The scalar tier against std.
    if policy == u8x::REPLACE {
        let mut out = vec![0u16; src.len() * 2];
        let p = scalar.decode_utf16(src, &mut out, policy, ByteOrder::Native, false);
        let lossy: Vec<u16> = String::from_utf8_lossy(src).encode_utf16().collect();
        assert_eq!(&out[..p.written], &lossy[..]);
    }
    if encode_policy == EncodePolicy::Replace('\u{FFFD}') {
        let mut out = vec![0u8; units.len() * 3];
        let p = scalar.encode_utf16(&units, &mut out, encode_policy, ByteOrder::Native, false);
        assert_eq!(&out[..p.written], String::from_utf16_lossy(&units).as_bytes());
    }
    let c = scalar.classify(src, false);
    let valid = std::str::from_utf8(&src[..c.progress.read]).expect("a valid prefix");
    assert_eq!(c.code_points, valid.chars().count());
    assert_eq!(c.utf16_units, valid.encode_utf16().count());
    if c.progress.status == Status::Done {
        assert_eq!(c.progress.read, src.len());
    }

    for tier in Tier::ALL {
        let Some(engine) = Engine::new(tier) else { continue };
        let (mut a, mut b) = (vec![7u16; cap], vec![7u16; cap]);
        assert_eq!(
            engine.decode_utf16(src, &mut a, policy, order, more),
            scalar.decode_utf16(src, &mut b, policy, order, more),
            "{tier:?}"
        );
        assert_eq!(a, b, "{tier:?}");
        assert_eq!(engine.decode_utf16_len(src, policy, more), scalar.decode_utf16_len(src, policy, more), "{tier:?}");
        let (mut a, mut b) = (vec![7u8; cap], vec![7u8; cap]);
        assert_eq!(
            engine.encode_utf16(&units, &mut a, encode_policy, order, more),
            scalar.encode_utf16(&units, &mut b, encode_policy, order, more),
            "{tier:?}"
        );
        assert_eq!(a, b, "{tier:?}");
        assert_eq!(
            engine.encode_utf16_len(&units, encode_policy, order, more),
            scalar.encode_utf16_len(&units, encode_policy, order, more),
            "{tier:?}"
        );
        assert_eq!(engine.validate_utf16(&units, order, more), scalar.validate_utf16(&units, order, more), "{tier:?}");
        let (mut a, mut b) = (vec![7u8; cap], vec![7u8; cap]);
        assert_eq!(
            engine.decode_latin1(src, &mut a, latin1_policy, more),
            scalar.decode_latin1(src, &mut b, latin1_policy, more),
            "{tier:?}"
        );
        assert_eq!(a, b, "{tier:?}");
        let (mut a, mut b) = (vec![7u8; cap], vec![7u8; cap]);
        assert_eq!(engine.encode_latin1(src, &mut a), scalar.encode_latin1(src, &mut b), "{tier:?}");
        assert_eq!(a, b, "{tier:?}");
        assert_eq!(engine.classify(src, more), scalar.classify(src, more), "{tier:?}");
        assert_eq!(engine.utf16_len_valid(src), scalar.utf16_len_valid(src), "{tier:?}");
        assert_eq!(
            engine.utf8_len_valid_utf16(&units, order),
            scalar.utf8_len_valid_utf16(&units, order),
            "{tier:?}"
        );
    }
});
