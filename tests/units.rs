//! ASCII and width checks, well-formed UTF-16, byte swaps, the sizes of
//! valid UTF-16 and UCS-4 in each other's form, and encoding detection
//! (issue 43), against oracles from `std` alone: every tier, every byte
//! order, random text at every length around the loops' blocks and the
//! detector's chunks, every output capacity.

mod common;

use common::{emulated, Rng};
use u8x::{ByteOrder, Encoding, Engine, ErrorKind, Status, Tier, Utf8Error, Width};

const ORDERS: [ByteOrder; 3] = [ByteOrder::Native, ByteOrder::Little, ByteOrder::Big];

fn tiers() -> Vec<Engine> {
    Tier::ALL.iter().filter_map(|&t| Engine::new(t)).collect()
}

fn put(units: &[u16], o: ByteOrder) -> Vec<u16> {
    units
        .iter()
        .map(|&u| match o {
            ByteOrder::Native => u,
            ByteOrder::Little => u.to_le(),
            ByteOrder::Big => u.to_be(),
        })
        .collect()
}

fn random_utf16(rng: &mut Rng, len: usize, max: u32) -> Vec<u16> {
    let mut v = Vec::with_capacity(len + 1);
    while v.len() < len {
        let run = 1 + rng.below(70);
        let kind = rng.below(10);
        for _ in 0..run {
            match kind {
                0..=4 => v.push(rng.range(0, max.min(0x7F)) as u16),
                5 | 6 => v.push(rng.range(0, max.min(0xD7FF)) as u16),
                7 if max > 0xFFFF => {
                    v.push(rng.range(0xD800, 0xDBFF) as u16);
                    v.push(rng.range(0xDC00, 0xDFFF) as u16);
                }
                8 if max > 0xFFFF && rng.chance(1, 8) => v.push(rng.range(0xD800, 0xDFFF) as u16),
                _ => v.push(rng.range(0, max.min(0xFF)) as u16),
            }
        }
    }
    v.truncate(len);
    v
}

fn not_representable(at: usize) -> Status {
    Status::IllFormed(Utf8Error {
        valid_up_to: at,
        kind: ErrorKind::NotRepresentable,
        len: 1,
    })
}

#[test]
fn ascii_checks() {
    let mut rng = Rng::new(1);
    for e in tiers() {
        for len in 0..300 {
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.byte() & 0x7F).collect();
            if len > 0 && rng.chance(2, 3) {
                let at = rng.below(len);
                bytes[at] |= 0x80;
            }
            let first = bytes.iter().position(|b| !b.is_ascii());
            let p = e.validate_ascii(&bytes);
            match first {
                Some(at) => assert_eq!((p.status, p.read), (not_representable(at), at)),
                None => assert_eq!((p.status, p.read), (Status::Done, len)),
            }
            let units: Vec<u16> = bytes.iter().map(|&b| u16::from(b) << (b >> 7)).collect();
            for o in ORDERS {
                let p = e.validate_ascii_utf16(&put(&units, o), o);
                match first {
                    Some(at) => assert_eq!(p.status, not_representable(at)),
                    None => assert_eq!((p.status, p.read), (Status::Done, len)),
                }
            }
        }
    }
}

#[test]
fn utf16_width_counts_and_sizes() {
    let mut rng = Rng::new(2);
    for e in tiers() {
        for len in 0..if emulated() { 150 } else { 400 } {
            let max = rng.pick(&[0x7F, 0xFF, 0xFFFF, 0x10FFFF]);
            let units = random_utf16(&mut rng, len, max);
            let valid = char::decode_utf16(units.iter().copied())
                .take_while(Result::is_ok)
                .map(|c| c.map_or(0, char::len_utf16))
                .sum::<usize>();
            let chars: Vec<char> = char::decode_utf16(units[..valid].iter().copied())
                .map(|c| c.unwrap())
                .collect();
            let widest = chars.iter().map(|&c| c as u32).max().unwrap_or(0);
            let width = match widest {
                0..=0x7F => Width::Ascii,
                0x80..=0xFF => Width::Latin1,
                0x100..=0xFFFF => Width::Bmp,
                _ => Width::Supplementary,
            };
            for o in ORDERS {
                let src = put(&units, o);
                let c = e.classify_utf16(&src, o, false);
                assert_eq!(c.progress.read, valid, "{units:x?}");
                assert_eq!(c.progress.status == Status::Done, valid == len);
                assert_eq!(
                    (c.width, c.code_points, c.utf16_units),
                    (width, chars.len(), valid),
                    "{units:x?}"
                );
                assert_eq!(e.ucs4_len_utf16_valid(&src[..valid], o), chars.len());
                let ucs4: Vec<u32> = chars.iter().map(|&c| c as u32).collect();
                let ucs4 = match o {
                    ByteOrder::Native => ucs4,
                    ByteOrder::Little => ucs4.iter().map(|v| v.to_le()).collect(),
                    ByteOrder::Big => ucs4.iter().map(|v| v.to_be()).collect(),
                };
                assert_eq!(e.utf16_len_ucs4_valid(&ucs4, o), valid);
            }
        }
    }
}

/// `units` made well-formed by std: each unpaired surrogate U+FFFD.
fn well_formed(units: &[u16]) -> (Vec<u16>, usize) {
    let lone = char::decode_utf16(units.iter().copied())
        .filter(Result::is_err)
        .count();
    (
        String::from_utf16_lossy(units).encode_utf16().collect(),
        lone,
    )
}

#[test]
fn well_formed_utf16_in_place_and_into() {
    let mut rng = Rng::new(3);
    for e in tiers() {
        for len in 0..if emulated() { 120 } else { 300 } {
            let units = random_utf16(&mut rng, len, 0x10FFFF);
            let (expected, lone) = well_formed(&units);
            for o in ORDERS {
                let src = put(&units, o);
                let mut fixed = src.clone();
                let p = e.to_well_formed_utf16(&mut fixed, 0xFFFD, o, false);
                assert_eq!((p.status, p.read, p.handled), (Status::Done, len, lone));
                assert_eq!(fixed, put(&expected, o), "{units:x?}");
                let m = e.to_well_formed_utf16_len(&src, o, false);
                assert_eq!(m, p);
                if len > 40 {
                    continue;
                }
                // Every capacity: a pair is never split, and resuming
                // from `read` gives the rest.
                for cap in 0..=len {
                    let mut dst = vec![0u16; cap];
                    let p = e.to_well_formed_utf16_into(&src, &mut dst, 0xFFFD, o, false);
                    assert!(p.written <= cap && p.read == p.written);
                    assert!(
                        p.status == Status::Done || cap < len && p.status == Status::OutputFull
                    );
                    let mut rest = vec![0u16; len];
                    let q =
                        e.to_well_formed_utf16_into(&src[p.read..], &mut rest, 0xFFFD, o, false);
                    let mut whole = dst[..p.written].to_vec();
                    whole.extend_from_slice(&rest[..q.written]);
                    assert_eq!(whole, put(&expected, o), "cap {cap}: {units:x?}");
                    assert_eq!(p.handled + q.handled, lone);
                }
            }
        }
    }
}

#[test]
fn well_formed_utf16_streamed() {
    // A high surrogate ending a chunk waits for the next one.
    for e in tiers() {
        let mut units = vec![0x61, 0xD83D];
        let p = e.to_well_formed_utf16(&mut units, 0xFFFD, ByteOrder::Native, true);
        assert_eq!(
            (p.status, p.read, units[1]),
            (Status::Incomplete { len: 1 }, 1, 0xD83D)
        );
        let p = e.to_well_formed_utf16(&mut units, 0xFFFD, ByteOrder::Native, false);
        assert_eq!((p.status, p.handled, units[1]), (Status::Done, 1, 0xFFFD));
        // Copying, the waiting unit is not written either.
        let mut dst = [7u16; 3];
        let p = e.to_well_formed_utf16_into(
            &[0xD800, 0x62, 0xDBFF],
            &mut dst,
            0xFFFD,
            ByteOrder::Native,
            true,
        );
        assert_eq!(
            (p.status, p.written, p.handled),
            (Status::Incomplete { len: 1 }, 2, 1)
        );
        assert_eq!(dst, [0xFFFD, 0x62, 7]);
    }
}

#[test]
fn byte_swaps() {
    let mut rng = Rng::new(4);
    for e in tiers() {
        for len in 0..200 {
            let units: Vec<u16> = (0..len).map(|_| rng.next_u32() as u16).collect();
            let swapped: Vec<u16> = units.iter().map(|u| u.swap_bytes()).collect();
            let mut dst = vec![0u16; len];
            assert_eq!(e.swap_utf16(&units, &mut dst).status, Status::Done);
            assert_eq!(dst, swapped);
            let mut short = vec![0u16; len / 2];
            let p = e.swap_utf16(&units, &mut short);
            assert_eq!(
                (p.read, p.status == Status::OutputFull),
                (len / 2, len / 2 < len)
            );
            let mut again = units.clone();
            e.swap_utf16_in_place(&mut again);
            assert_eq!(again, swapped);
        }
    }
}

// ---------------------------------------------------------------------------
// Detection
// ---------------------------------------------------------------------------

/// The encodings `bytes` are valid as, by std: one bit each.
fn oracle_valid(bytes: &[u8]) -> u32 {
    let utf16 = |le: bool| {
        bytes.len().is_multiple_of(2)
            && char::decode_utf16(bytes.chunks_exact(2).map(|b| {
                let b = [b[0], b[1]];
                if le {
                    u16::from_le_bytes(b)
                } else {
                    u16::from_be_bytes(b)
                }
            }))
            .all(|c| c.is_ok())
    };
    let utf32 = |le: bool| {
        bytes.len().is_multiple_of(4)
            && bytes.chunks_exact(4).all(|b| {
                let b = [b[0], b[1], b[2], b[3]];
                char::from_u32(if le {
                    u32::from_le_bytes(b)
                } else {
                    u32::from_be_bytes(b)
                })
                .is_some()
            })
    };
    [
        std::str::from_utf8(bytes).is_ok(),
        utf16(true),
        utf16(false),
        utf32(true),
        utf32(false),
    ]
    .iter()
    .enumerate()
    .fold(0, |bits, (i, &ok)| bits | (u32::from(ok) << i))
}

fn encode(text: &str, e: Encoding) -> Vec<u8> {
    match e {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        Encoding::Utf16Be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        Encoding::Utf32Le => text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect(),
        Encoding::Utf32Be => text
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect(),
    }
}

#[test]
fn detection_valid_set_matches_std() {
    // Random text in each encoding, at lengths around the 4096-byte chunks,
    // with some damage: the set of valid encodings is std's.
    let mut rng = Rng::new(5);
    let texts = [
        "English text, plain.",
        "Größe café naïve",
        "Русский текст",
        "中文文本 😀 emoji 😀",
    ];
    for e in tiers() {
        for _ in 0..if emulated() { 40 } else { 300 } {
            let base = rng.pick(&texts);
            let repeat = rng.pick(&[1, 2, 100, 4096 / base.len() + 1, 300]);
            let mut text = base.repeat(repeat);
            text.truncate(
                text.char_indices()
                    .map(|(i, _)| i)
                    .nth(rng.below(text.chars().count() + 1))
                    .unwrap_or(text.len()),
            );
            let enc = rng.pick(&Encoding::ALL);
            let mut bytes = encode(&text, enc);
            if !bytes.is_empty() && rng.chance(1, 3) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.byte();
            }
            if rng.chance(1, 4) {
                bytes.push(rng.byte());
            }
            // A text starting with a BOM's bytes is tested below.
            if [
                &b"\xEF\xBB\xBF"[..],
                b"\xFF\xFE",
                b"\xFE\xFF",
                b"\x00\x00\xFE\xFF",
            ]
            .iter()
            .any(|m| bytes.starts_with(m))
            {
                continue;
            }
            let d = e.detect_encoding(&bytes);
            assert_eq!(
                d.valid,
                oracle_valid(&bytes),
                "{:?} {:?} {} bytes",
                e.tier(),
                enc,
                bytes.len()
            );
            assert_eq!(d.likely.is_some(), d.valid != 0);
            if let Some(l) = d.likely {
                assert!(d.valid & l.bit() != 0);
            }
        }
    }
}

#[test]
fn detection_likely_and_marks() {
    let e = Engine::best();
    let text = "The quick brown fox, déjà vu, 😀 ".repeat(200);
    for enc in Encoding::ALL {
        let bytes = encode(&text, enc);
        let d = e.detect_encoding(&bytes);
        assert_eq!((d.likely, d.bom_len), (Some(enc), 0), "{enc:?}");
        let mark = encode("\u{FEFF}", enc);
        let with_mark = [mark.clone(), bytes].concat();
        let d = e.detect_encoding(&with_mark);
        assert_eq!(
            (d.valid, d.likely, d.bom_len),
            (enc.bit(), Some(enc), mark.len()),
            "{enc:?}"
        );
    }
    // UTF-16 and UTF-32 of ASCII are valid UTF-8 too, NULs and all: the
    // NULs tell them apart. Without NULs, ASCII is UTF-8.
    let ascii = "plain ASCII text, ".repeat(300);
    for enc in Encoding::ALL {
        let d = e.detect_encoding(&encode(&ascii, enc));
        assert_eq!(d.likely, Some(enc), "{enc:?}");
        assert!(d.valid & Encoding::Utf8.bit() != 0);
    }
    // A pair cut by a chunk's end (4096 bytes), in both UTF-16 orders.
    let cut = format!("{}😀{}", "a".repeat(2047), "b".repeat(3000));
    for enc in [Encoding::Utf16Le, Encoding::Utf16Be] {
        let d = e.detect_encoding(&encode(&cut, enc));
        assert_eq!(d.likely, Some(enc));
    }
    // FF FE 00 00 then UTF-16LE that is not UTF-32LE: UTF-16LE's mark.
    let d = e.detect_encoding(b"\xFF\xFE\x00\x00a\x00b\x00");
    assert_eq!((d.likely, d.bom_len), (Some(Encoding::Utf16Le), 2));
    // A mark followed by what its encoding cannot be: nothing.
    let d = e.detect_encoding(b"\xEF\xBB\xBF\xFF");
    assert_eq!((d.valid, d.likely, d.bom_len), (0, None, 0));
    // Invalid as everything.
    let d = e.detect_encoding(b"\xFF\xFF\xFF");
    assert_eq!((d.valid, d.likely), (0, None));
    assert_eq!(e.detect_encoding(b"").valid, 31);
}
