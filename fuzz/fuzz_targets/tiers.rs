//! Every tier against the scalar tier and `std`, on arbitrary bytes: the
//! first byte picks the policy, the flags and an output capacity, the rest is
//! the input (as UTF-8 bytes, and reinterpreted as UCS-4 units for encoding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use u8x::{EncodePolicy, Engine, Policy, Status, Tier};

const POLICIES: [Policy; 5] = [Policy::Strict, u8x::REPLACE, Policy::Escape, Policy::Latin1, Policy::Cp1252];
const ENCODE_POLICIES: [EncodePolicy; 3] = [EncodePolicy::Strict, EncodePolicy::Replace('\u{FFFD}'), EncodePolicy::Escape];

fuzz_target!(|data: &[u8]| {
    let Some((&control, src)) = data.split_first() else { return };
    let policy = POLICIES[control as usize % POLICIES.len()];
    let more = control & 0x08 != 0;
    let cap = match control >> 4 {
        0 => src.len(),
        n => (n as usize * 7) % (src.len() + 1),
    };
    let scalar = Engine::new(Tier::Scalar).unwrap();

    // The scalar tier against std.
    let v = scalar.validate_chunk(src, false);
    match std::str::from_utf8(src) {
        Ok(_) => assert_eq!(v.status, Status::Done),
        Err(e) => match v.status {
            Status::IllFormed(ours) => {
                assert_eq!(ours.valid_up_to, e.valid_up_to());
                if let Some(len) = e.error_len() {
                    assert_eq!(ours.len as usize, len);
                }
            }
            other => panic!("std says {e:?}, u8x says {other:?}"),
        },
    }
    if policy == u8x::REPLACE {
        let mut out = vec![0u32; src.len()];
        let p = scalar.decode_ucs4(src, &mut out, policy, false);
        let lossy: Vec<u32> = String::from_utf8_lossy(src).chars().map(u32::from).collect();
        assert_eq!(&out[..p.written], &lossy[..]);
    }

    let units: Vec<u32> = src.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let encode_policy = ENCODE_POLICIES[control as usize % ENCODE_POLICIES.len()];
    for tier in Tier::ALL {
        let Some(engine) = Engine::new(tier) else { continue };
        assert_eq!(engine.validate_chunk(src, more), scalar.validate_chunk(src, more), "{tier:?}");
        assert_eq!(engine.count(src, policy, more), scalar.count(src, policy, more), "{tier:?}");
        assert_eq!(engine.count_valid(src), scalar.count_valid(src), "{tier:?}");
        let (mut a, mut b) = (vec![7u32; cap], vec![7u32; cap]);
        assert_eq!(engine.decode_ucs4(src, &mut a, policy, more), scalar.decode_ucs4(src, &mut b, policy, more), "{tier:?}");
        assert_eq!(a, b, "{tier:?}");
        assert_eq!(engine.encoded_len(&units, encode_policy), scalar.encoded_len(&units, encode_policy), "{tier:?}");
        let (mut a, mut b) = (vec![7u8; cap], vec![7u8; cap]);
        assert_eq!(engine.encode(&units, &mut a, encode_policy), scalar.encode(&units, &mut b, encode_policy), "{tier:?}");
        assert_eq!(a, b, "{tier:?}");
    }
});
