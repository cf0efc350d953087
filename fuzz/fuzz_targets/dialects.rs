//! The dialects on every tier against the scalar tier, on arbitrary bytes:
//! the first byte picks the dialect, the policy, more input and an output
//! capacity; the rest is the input, as UTF-8 bytes, and reinterpreted as
//! UCS-4 and UTF-16 units for encoding. Also: decoding in two chunks at a
//! boundary gives the whole's output; whatever a dialect decodes strictly
//! encodes back to the same bytes; any UTF-16 survives WTF-8 both ways.
#![no_main]

use libfuzzer_sys::fuzz_target;
use u8x::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Status, Tier};

const DIALECTS: [Dialect; 6] =
    [Dialect::Standard, Dialect::Legacy, Dialect::Cesu8, Dialect::Mutf8, Dialect::Wtf8, Dialect::Generalized];
const POLICIES: [Policy; 6] =
    [Policy::Strict, u8x::REPLACE, Policy::Escape, Policy::Latin1, Policy::Cp1252, Policy::Ignore];
const ENCODE_POLICIES: [EncodePolicy; 4] =
    [EncodePolicy::Strict, EncodePolicy::Replace('\u{10348}'), EncodePolicy::Escape, EncodePolicy::Ignore];

fuzz_target!(|data: &[u8]| {
    let Some((&control, src)) = data.split_first() else { return };
    let d = DIALECTS[control as usize % 6];
    let policy = POLICIES[(control as usize / 6) % 6];
    let epolicy = ENCODE_POLICIES[(control as usize / 6) % 4];
    let more = control & 0x80 != 0;
    let cap = (usize::from(control) * 13) % (src.len() + 1);
    let scalar = Engine::new(Tier::Scalar).unwrap();
    let units: Vec<u32> = src.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    let units16: Vec<u16> = src.chunks_exact(2).map(|c| u16::from_le_bytes(c.try_into().unwrap())).collect();

    let mut want = vec![0u32; src.len()];
    let w = scalar.decode_ucs4_in(d, src, &mut want, policy, more);
    let mut want16 = vec![0u16; 2 * src.len()];
    let w16 = scalar.decode_utf16_in(d, src, &mut want16, policy, ByteOrder::Native, more);
    let mut wbytes = vec![0u8; 6 * units.len()];
    let we = scalar.encode_in(d, &units, Some(&mut wbytes), epolicy);
    let mut wbytes16 = vec![0u8; 6 * units16.len()];
    let we16 = scalar.encode_utf16_in(d, &units16, Some(&mut wbytes16), epolicy, ByteOrder::Big, more);
    for tier in Tier::ALL {
        let Some(e) = Engine::new(tier) else { continue };
        let mut out = vec![0u32; src.len()];
        let p = e.decode_ucs4_in(d, src, &mut out, policy, more);
        assert_eq!((p, &out[..p.written]), (w, &want[..w.written]), "{tier:?}");
        assert_eq!(e.count_in(d, src, policy, more), w);
        let mut out16 = vec![0u16; 2 * src.len()];
        let p = e.decode_utf16_in(d, src, &mut out16, policy, ByteOrder::Native, more);
        assert_eq!((p, &out16[..p.written]), (w16, &want16[..w16.written]), "{tier:?}");
        assert_eq!(e.decode_utf16_len_in(d, src, policy, more), w16);
        let mut bytes = vec![0u8; 6 * units.len()];
        let p = e.encode_in(d, &units, Some(&mut bytes), epolicy);
        assert_eq!((p, &bytes[..p.written]), (we, &wbytes[..we.written]), "{tier:?}");
        let mut bytes16 = vec![0u8; 6 * units16.len()];
        let p = e.encode_utf16_in(d, &units16, Some(&mut bytes16), epolicy, ByteOrder::Big, more);
        assert_eq!((p, &bytes16[..p.written]), (we16, &wbytes16[..we16.written]), "{tier:?}");
        // A small output: a prefix of the whole, whole characters only.
        let mut small = vec![0u32; cap];
        let p = e.decode_ucs4_in(d, src, &mut small, policy, more);
        assert!(p.written <= cap && small[..p.written] == want[..p.written]);
    }

    // Two chunks, the first with more input, at the boundary before `cap`.
    let e = Engine::best();
    let split = u8x::prev_boundary_in(d, src, cap).unwrap();
    if !more {
        let mut first = vec![0u32; src.len()];
        let a = e.decode_ucs4_in(d, &src[..split], &mut first, policy, true);
        if !matches!(a.status, Status::IllFormed(_)) {
            let mut second = vec![0u32; src.len()];
            let b = e.decode_ucs4_in(d, &src[a.read..], &mut second, policy, false);
            let mut got = first[..a.written].to_vec();
            got.extend_from_slice(&second[..b.written]);
            if b.status == Status::Done && w.status == Status::Done {
                assert_eq!(got, want[..w.written], "split at {split}");
            }
        }
    }

    // Strictly valid text encodes back to itself.
    if policy == Policy::Strict && w.status == Status::Done && !more {
        let mut back = vec![0u8; 6 * w.written];
        let p = e.encode_in(d, &want[..w.written], Some(&mut back), EncodePolicy::Strict);
        assert_eq!(p.status, Status::Done);
        assert_eq!(&back[..p.written], src);
    }
    // Any UTF-16 survives WTF-8 both ways.
    let mut wtf = vec![0u8; 3 * units16.len()];
    let p = e.encode_utf16_in(Dialect::Wtf8, &units16, Some(&mut wtf), EncodePolicy::Strict, ByteOrder::Native, false);
    assert_eq!(p.status, Status::Done);
    let mut back = vec![0u16; units16.len()];
    let q = e.decode_utf16_in(Dialect::Wtf8, &wtf[..p.written], &mut back, Policy::Strict, ByteOrder::Native, false);
    assert_eq!(q.status, Status::Done);
    assert_eq!(&back[..q.written], &units16[..]);
});
